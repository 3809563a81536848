//===- BlockQuantizedKernels.cpp - MatMulNBits, GatherBlockQuantized ------===//
//
// The packed weights stay packed in GPU memory: B (and GatherBlockQuantized's
// table) is bound as 32-bit words and dequantized in the kernel, so a 4-bit
// weight costs an eighth of its f32 bytes plus one scale per block.
//
// MatMulNBits with at most 4 rows of A (a decode step) is a matrix-vector
// kernel that must run at the speed of reading B (NBitsGemv.cpp). Both
// kernels dequantize a value with a shift, a mask-and-or and a float
// subtract ((q | 0x4B000000) is the float 2^23 + q, and subtracting 2^23 +
// z gives q - z exactly), and multiply by the scale once per group of
// values of one block.
//
// Larger M is a problem of the tiled GEMM (nbitsGemmProblem, dispatchGemm):
// B is k-contiguous and loadB4 dequantizes four values of one word (one
// scale and zero point) as the B tile is copied, so these products get the
// f32 products' tiles, row classes and split k. Where M is known only at
// run time both are dispatched and the run zeroes one grid, as the MatMul
// lowering does: dispatchGemm allocates the result, and the matrix-vector
// kernel writes the same memory.
//
// Zero points, constants, are repacked at compile time into what the
// kernel reads best: one byte per block (uint8 zero points of any bits) or
// f32 per block (float zero points). g_idx is supported only where
// canonicalization dropped it (the identity k / block_size).
//
// GatherBlockQuantized is one invocation per output value: it reads its
// index (a row outside the table gives 0, as ONNX Runtime specifies), the
// value's word, scale and zero point.
//
//===----------------------------------------------------------------------===//

#include "lowering/BlockQuantizedKernels.h"
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"
#include "lowering/KernelSizes.h"
#include "lowering/TiledGemm.h"
#include "lowering/WorkgroupReduce.h"

#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Operation.h"

#include "llvm/Support/MathExtras.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

std::string (&u)(int64_t) = glsl::uintLiteral;

bool hasOperand(Operation *op, unsigned i) {
  return op->getNumOperands() > i && !onnx::isNoValue(op->getOperand(i));
}

/// The constant `value` holds: also where it is an argument of the body of
/// the FusedElementwise that took the op as its contraction (non-splat
/// constants are passed in, not cloned).
DenseElementsAttr constantOf(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (parent &&
        parent->getName().getStringRef() == onnx::kFusedElementwiseName)
      return onnx::getConstantValue(parent->getOperand(arg.getArgNumber()));
  }
  return onnx::getConstantValue(value);
}

/// The bytes of ui8 operand `value` as 32-bit words: a view of its memory
/// where its size is a multiple of 4 bytes, else (a constant) a copy padded
/// with zeros. Null after an error.
Value getWords(LoweringContext &ctx, Value value, StringRef what) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape()) {
    ctx.emitError() << "needs " << what << " of static shape";
    return {};
  }
  int64_t bytes = type.getNumElements();
  Type word = IntegerType::get(ctx.getContext(), 32, IntegerType::Unsigned);
  if (bytes % 4 == 0) {
    Value view = ctx.getView(value);
    if (!view)
      return {};
    auto words = RankedTensorType::get({bytes / 4}, word);
    return ctx.reinterpret(view, words);
  }
  DenseElementsAttr constant = constantOf(value);
  if (!constant) {
    ctx.emitError() << "needs " << what
                    << " constant where its size is not a multiple of 4 bytes";
    return {};
  }
  std::optional<onnx::Tensor> tensor = onnx::Tensor::fromAttr(constant);
  if (!tensor)
    return {};
  onnx::Tensor padded(onnx::ElementType::U32,
                      {int64_t(llvm::divideCeil(bytes, 4))});
  MutableArrayRef<char> out = padded.getMutableBytes();
  std::fill(out.begin(), out.end(), 0);
  ArrayRef<char> in = tensor->getBytes();
  std::copy(in.begin(), in.end(), out.begin());
  return ctx.createWeight(padded.toAttr(ctx.getContext()));
}

/// GLSL of `uint NAME(uint index)`: value `index` of `bits` bits of the
/// words in buffer `buffer`, packed low bits first.
std::string unpackFunction(StringRef name, StringRef buffer, int64_t bits) {
  return fmt::format("uint {0}(uint index) {{\n"
                     "  uint bit = index * {1};\n"
                     "  return ({2}.d[bit >> 5u] >> (bit & 31u)) & {3};\n"
                     "}}\n",
                     name.str(), u(bits), buffer.str(), u((1 << bits) - 1));
}

} // namespace

std::string nbitsCommon(const NBitsProblem &p, StringRef bType) {
  Type f32 = FloatType::getF32(p.et.getContext());
  Type u32 = IntegerType::get(p.et.getContext(), 32, IntegerType::Unsigned);
  unsigned binding = 0;
  std::string s = p.aVector
                      ? vectorBuffer(binding, "a")
                      : glsl::buffer(binding, gpu::Access::Read, p.et, "a");
  ++binding;
  s += fmt::format("layout(set = 0, binding = {}, std430) readonly buffer "
                   "B{} {{ {} d[]; }} b;\n",
                   binding, binding, bType.str());
  ++binding;
  s += glsl::buffer(binding++, gpu::Access::Read, p.et, "scales");
  if (p.hasZeros)
    s += glsl::buffer(binding++, gpu::Access::Read, p.floatZeros ? f32 : u32,
                      "zeros");
  if (p.hasBias)
    s += glsl::buffer(binding++, gpu::Access::Read, p.et, "bias");
  if (p.rowNorm) {
    for (StringRef name : {"nscale", "nbias"}) {
      if (name == "nbias" && !p.normBias)
        continue;
      s += p.aVector ? vectorBuffer(binding, name)
                     : glsl::buffer(binding, gpu::Access::Read, f32, name);
      ++binding;
    }
  }
  Type resultType = p.et;
  if (p.epilogue) {
    for (const GemmStoreInput &input : p.epilogue->inputs)
      s += glsl::buffer(binding++, gpu::Access::Read, input.elementType,
                        input.name);
    resultType =
        cast<RankedTensorType>(p.epilogue->result.getType()).getElementType();
  }
  if (p.splitResults.empty())
    s += glsl::buffer(binding, gpu::Access::Write, resultType, "y");
  for (size_t i = 0; i < p.splitResults.size(); ++i)
    s += glsl::buffer(binding + i, gpu::Access::Write, resultType,
                      fmt::format("y{}", i));
  s += fmt::format("float scaleOf(uint block) {{ return {}; }}\n",
                   glsl::load(p.et, "scales", "block"));
  if (!p.hasZeros)
    s += fmt::format("float zeroOf(uint block) {{ return {}.0; }}\n",
                     int64_t(1) << (p.bits - 1));
  else if (p.floatZeros)
    s += "float zeroOf(uint block) { return zeros.d[block]; }\n";
  else
    s += "float zeroOf(uint block) {\n"
         "  return float((zeros.d[block >> 2u] >> ((block & 3u) * 8u)) & "
         "255u);\n"
         "}\n";
  // A's elements: as stored (loadX), normalized (loadA), four from k, a
  // multiple of 4 (loadA4).
  std::string at = fmt::format("row * {} + k", u(p.k));
  s += fmt::format("float loadX(uint row, uint k) {{ return {}; }}\n",
                   p.aVector ? vectorBufferElement("a", at)
                             : glsl::load(p.et, "a", at));
  std::string x4 =
      p.aVector ? fmt::format("a.d[(row * {} + k) / 4u]", u(p.k))
                : "vec4(loadX(row, k), loadX(row, k + 1u), loadX(row, k + "
                  "2u), loadX(row, k + 3u))";
  if (!p.rowNorm) {
    s += "float loadA(uint row, uint k) { return loadX(row, k); }\n";
    s += "vec4 loadA4(uint row, uint k) { return " + x4 + "; }\n";
  } else {
    // (x - mean) * invStdDev * scale + bias, as GemmRowNorm's loadA.
    auto normalize = [&](StringRef x, bool vector) {
      auto param = [&](StringRef name) {
        if (!vector)
          return p.aVector ? vectorBufferElement(name, "k")
                           : name.str() + ".d[k]";
        return p.aVector ? name.str() + ".d[k / 4u]"
                         : fmt::format("vec4({0}.d[k], {0}.d[k + 1u], "
                                       "{0}.d[k + 2u], {0}.d[k + 3u])",
                                       name.str());
      };
      std::string v = p.rowNorm->rms
                          ? fmt::format("({})", x.str())
                          : fmt::format("({} - nStats[nr])", x.str());
      v += " * nStats[nr + 1u] * " + param("nscale");
      if (p.normBias)
        v += " + " + param("nbias");
      return v;
    };
    s += "float loadA(uint row, uint k) {\n"
         "  uint nr = 2u * (row - nRow0);\n"
         "  return " +
         normalize("loadX(row, k)", false) + ";\n}\n";
    s += "vec4 loadA4(uint row, uint k) {\n"
         "  uint nr = 2u * (row - nRow0);\n"
         "  return " +
         normalize(x4, true) + ";\n}\n";
  }
  std::string body = fmt::format("uint idx = row * {} + col; ", u(p.n));
  if (p.hasBias)
    body += "v += " + glsl::load(p.et, "bias", "col") + "; ";
  std::string value = "v";
  if (p.epilogue) {
    std::string code;
    value = p.epilogue->write("v", "idx", *p.sizes, p.resultDims, code);
    if (value.empty())
      return {};
    body += "\n" + code + " ";
  }
  std::string storeAt = p.storeIndex.empty() ? "idx" : "(" + p.storeIndex + ")";
  std::string store =
      p.splitResults.empty()
          ? glsl::store(resultType, "y", storeAt, value)
          : generateSplitStores(p.splitResults, p.splitStoreIndex, resultType,
                                storeAt, value);
  std::string fn =
      "void storeY(uint row, uint col, float v) { " + body + store + " }\n";
  return s + glsl::helpers(fn) + fn;
}

GemmProblem nbitsStatsProblem(const NBitsProblem &p) {
  GemmProblem stats;
  stats.m = p.m;
  stats.k = p.k;
  stats.sizes = p.sizes;
  stats.elementType = p.et;
  stats.rowNorm = p.rowNorm;
  return stats;
}

namespace {

/// Float zero points as f32 per block, or uint8 ones as one byte per block
/// in words: what the kernels' zeroOf reads. Null if not a constant.
Value repackZeros(LoweringContext &ctx, Value zeros, const NBitsProblem &p) {
  DenseElementsAttr constant = constantOf(zeros);
  if (!constant)
    return {};
  std::optional<onnx::Tensor> tensor = onnx::Tensor::fromAttr(constant);
  if (!tensor)
    return {};
  int64_t count = p.n * p.blocks;
  if (p.floatZeros)
    return ctx.createWeight(onnx::convertTensor(*tensor, onnx::ElementType::F32)
                                .reshape({count})
                                .toAttr(ctx.getContext()));
  int64_t rowBytes = llvm::divideCeil(p.blocks * p.bits, 8);
  int64_t perByte = 8 / p.bits;
  ArrayRef<uint8_t> packed = tensor->getValues<uint8_t>();
  onnx::Tensor bytes(onnx::ElementType::U32,
                     {int64_t(llvm::divideCeil(count, 4))});
  MutableArrayRef<uint32_t> words = bytes.getMutableValues<uint32_t>();
  std::fill(words.begin(), words.end(), 0);
  for (int64_t col = 0; col < p.n; ++col)
    for (int64_t b = 0; b < p.blocks; ++b) {
      uint8_t byte = packed[col * rowBytes + b / perByte];
      uint32_t zero = (byte >> ((b % perByte) * p.bits)) & ((1 << p.bits) - 1);
      int64_t i = col * p.blocks + b;
      words[i / 4] |= zero << ((i % 4) * 8);
    }
  return ctx.createWeight(bytes.toAttr(ctx.getContext()));
}

/// The product of more rows than the matrix-vector kernel takes, as a
/// problem of the tiled GEMM (dispatchGemm): B is k-contiguous ([n, k]),
/// read through loadB and loadB4, which dequantize the packed words as the
/// tiles are copied, so that these products get the f32 products' tiles,
/// row classes and split k. The scales and zero points are load inputs
/// (bindings 2 and 3), a fused norm's after them; the bias is a store
/// input.
FailureOr<GemmProblem> nbitsGemmProblem(LoweringContext &ctx, Operation *op,
                                        const NBitsProblem &p, Operation *norm,
                                        Value zeros) {
  Type f32 = FloatType::getF32(ctx.getContext());
  Type u32 = IntegerType::get(ctx.getContext(), 32, IntegerType::Unsigned);
  GemmProblem g;
  g.sizes = p.sizes;
  g.elementType = p.et;
  g.m = p.m;
  g.n = p.n;
  g.k = p.k;
  g.resultDims = p.resultDims;
  g.aRowMajor = true;
  g.bRowMajor = false;
  // A fused norm's loads read A an element at a time (loadX).
  g.aVector = p.aVector && !norm;
  // Four values of one word and one block: bits that divide 32 and k
  // stepping by 4 within blocks of at least 4.
  g.bVector = canLoadVectors(ctx, p.et) && p.k % 4 == 0 &&
              p.blockSize % 4 == 0 && 32 % p.bits == 0;
  g.declarations =
      (g.aVector ? vectorBuffer(0, "a")
                 : glsl::buffer(0, gpu::Access::Read, p.et, "a")) +
      "layout(set = 0, binding = 1, std430) readonly buffer B1 { uint d[]; } "
      "b;\n";
  g.loadInputs.push_back({"scales", p.et, ctx.getView(op->getOperand(2))});
  g.declarations += glsl::buffer(2, gpu::Access::Read, p.et, "scales");
  std::string zero = fmt::format("{}.0", int64_t(1) << (p.bits - 1));
  if (p.hasZeros) {
    g.loadInputs.push_back({"zeros", p.floatZeros ? f32 : u32, zeros});
    g.declarations +=
        glsl::buffer(3, gpu::Access::Read, p.floatZeros ? f32 : u32, "zeros");
    // A float zero point is subtracted after 2^23, which would round it.
    zero = p.floatZeros ? "0.0, zf = zeros.d[blk]"
                        : "float((zeros.d[blk >> 2u] >> ((blk & 3u) * 8u)) & "
                          "255u)";
  }
  g.globals = "uint aBase, bBase;\n";
  g.prologue = "  aBase = 0u; bBase = 0u;\n";
  std::string aIndex = fmt::format("row * {} + k", u(p.k));
  g.functions += fmt::format("float {}(uint row, uint k) {{ return {}; }}\n",
                             norm ? "loadX" : "loadA",
                             g.aVector ? vectorBufferElement("a", aIndex)
                                       : glsl::load(p.et, "a", aIndex));
  if (g.aVector)
    g.functions += fmt::format(
        "vec4 loadA4(uint row, uint k) {{ return a.d[({}) / 4u]; }}\n", aIndex);
  // As the matrix-vector kernel does: (2^23 + q) - (2^23 + z) is q - z.
  std::string block = fmt::format(
      "  uint blk = col * {} + k / {};\n"
      "  float sc = {}, zb = 8388608.0 + {};\n"
      "  uint bit = k * {};\n"
      "  uint w = b.d[col * {} + (bit >> 5u)] >> (bit & 31u);\n",
      u(p.blocks), u(p.blockSize), glsl::load(p.et, "scales", "blk"), zero,
      u(p.bits), u(p.wordsPerRow()));
  auto value = [&](StringRef shift) {
    return fmt::format("(uintBitsToFloat(((w >> {}) & {}) | 0x4B000000u) - "
                       "zb{}) * sc",
                       shift.str(), u((1 << p.bits) - 1),
                       p.floatZeros ? " - zf" : "");
  };
  g.functions += "float loadB(uint k, uint col) {\n" + block + "  return " +
                 value("0u") + ";\n}\n";
  if (g.bVector)
    g.functions += "vec4 loadB4(uint k, uint col) {\n" + block +
                   "  return vec4(" + value("0u") + ", " + value(u(p.bits)) +
                   ", " + value(u(2 * p.bits)) + ", " + value(u(3 * p.bits)) +
                   ");\n}\n";
  if (norm && failed(addRowNorm(ctx, g, norm)))
    return failure();
  g.outputIndex = fmt::format("row * {} + col", u(p.n));
  std::string ct = glsl::computeType(p.et);
  g.outputValue = ct + " v = acc;";
  if (p.hasBias) {
    g.outputValue = ct + " v = acc + " + glsl::load(p.et, "bias", "col") + ";";
    g.storeInputs.push_back({"bias", p.et, ctx.getView(op->getOperand(5))});
  }
  g.epilogue = p.epilogue;
  g.splitResults = p.splitResults;
  return g;
}

} // namespace

LogicalResult lowerMatMulNBits(Operation *op, LoweringContext &ctx,
                               const GemmEpilogue *epilogue) {
  onnx::OpAttrs attrs(op);
  NBitsProblem p;
  p.k = attrs.getInt("K");
  p.n = attrs.getInt("N");
  p.bits = attrs.getInt("bits");
  p.blockSize = attrs.getInt("block_size");
  p.blocks = llvm::divideCeil(p.k, p.blockSize);
  p.blob = p.blockSize * p.bits / 8;
  auto aType = cast<RankedTensorType>(op->getOperand(0).getType());
  p.et = aType.getElementType();
  if (reportUnsupported(ctx, p.et))
    return failure();
  if (hasOperand(op, 4))
    return ctx.emitError() << "g_idx other than k / block_size (act-order "
                              "quantization) is not supported on Vulkan";
  p.hasZeros = hasOperand(op, 3);
  p.floatZeros =
      p.hasZeros &&
      isa<FloatType>(
          cast<RankedTensorType>(op->getOperand(3).getType()).getElementType());
  p.hasBias = hasOperand(op, 5);
  p.epilogue = epilogue;
  p.aVector = canLoadVectors(ctx, p.et) && p.k % 4 == 0;
  // A norm before the product (isNormFusedIntoMatMuls): A's view is the
  // norm's input, which loadX reads.
  Operation *norm = getFusedNorm(op, ctx.getTarget());
  if (norm) {
    GemmRowNorm rowNorm;
    rowNorm.rms = norm->getName().getStringRef() != "onnx.LayerNormalization";
    rowNorm.epsilon = onnx::OpAttrs(norm).getFloat("epsilon");
    p.rowNorm = rowNorm;
    p.normBias = !rowNorm.rms && hasOperand(norm, 2);
  }
  Value stored = epilogue ? epilogue->result : op->getResult(0);
  // The parts of a Split of the result go each to its tensor (or cache).
  if (stored.hasOneUse())
    if (Operation *split = stored.getUses().begin()->getOwner();
        isSplitWrittenByMatMul(split, ctx.getTarget()))
      p.splitResults.append(split->getResults().begin(),
                            split->getResults().end());
  unsigned numOutputs = std::max<size_t>(1, p.splitResults.size());
  unsigned numBindings = getNumNBitsBindings(op) + (norm ? 1 : 0) + p.normBias +
                         (epilogue ? epilogue->inputs.size() : 0) + numOutputs -
                         1;
  if (failed(ctx.checkStorageBuffers(numBindings)))
    return failure();
  SmallVector<Size> dims = ctx.getDims(op->getOperand(0));
  if (dims.size() != size_t(aType.getRank()))
    return failure();
  Size m = 1;
  for (size_t i = 0; i + 1 < dims.size(); ++i)
    m = ctx.mul(m, dims[i]);
  p.m = m;

  SmallVector<Size> outDims(dims);
  outDims.back() = p.n;
  p.resultDims = outDims;
  KernelSizes sizes(ctx);
  p.sizes = &sizes;
  int64_t mBound = m.isStatic() ? m.constant : 4;
  bool gemv = mBound <= 4;
  bool both = !m.isStatic();
  Value a = ctx.getView(op->getOperand(0));
  Value words = getWords(ctx, op->getOperand(1), "B");
  Value zeros;
  if (p.hasZeros && !(zeros = repackZeros(ctx, op->getOperand(3), p)))
    return ctx.emitError() << "needs constant zero points";
  if (!a || !words)
    return failure();
  SmallVector<Value, 3> outs;
  if (!gemv || both) {
    // More rows: the tiled GEMM's kernels, which also allocate the result
    // (or write the Split's parts or the cache) that the matrix-vector
    // kernel below then writes in runs of few rows.
    FailureOr<GemmProblem> tiled = nbitsGemmProblem(ctx, op, p, norm, zeros);
    if (failed(tiled))
      return failure();
    tiled->fewRowsByCaller = both;
    GemmOutputs outputs;
    if (failed(dispatchGemm(ctx, "matmul_nbits", *tiled, a, words,
                            op->getResult(0), &outputs)))
      return failure();
    if (!gemv)
      return success();
    outs = outputs.ys;
    p.storeIndex = outputs.storeIndex;
    p.splitStoreIndex = outputs.splitStoreIndex;
  } else if (!p.splitResults.empty()) {
    outs = allocateSplitParts(ctx, sizes, p.splitResults, outDims,
                              p.splitStoreIndex);
  } else {
    // A decoder's new key or value rows [b, s, H * d] go straight into its
    // cache's state (storeIntoCache), as the GEMM's do: no append dispatch.
    std::optional<CacheRowsStore> cache;
    if (outDims.size() == 3)
      cache = storeIntoCache(ctx, stored, outDims);
    if (cache) {
      outs.push_back(cache->state);
      p.storeIndex = cache->index(sizes, "row", "col");
    } else {
      outs.push_back(
          ctx.allocate(cast<RankedTensorType>(stored.getType()), outDims));
      ctx.setResult(stored, outs.back());
    }
  }
  if (m.isZero())
    return success();

  SmallVector<Value> views = {a, words, ctx.getView(op->getOperand(2))};
  if (p.hasZeros)
    views.push_back(zeros);
  if (p.hasBias)
    views.push_back(ctx.getView(op->getOperand(5)));
  if (norm) {
    views.push_back(ctx.getView(norm->getOperand(1)));
    if (p.normBias)
      views.push_back(ctx.getView(norm->getOperand(2)));
  }
  if (epilogue)
    for (const GemmStoreInput &input : epilogue->inputs)
      views.push_back(input.view);
  if (llvm::any_of(views, [](Value v) { return !v; }))
    return failure();
  views.append(outs.begin(), outs.end());

  // At most 4 rows (a decode step): the matrix-vector kernel, which reads
  // B at the speed of memory; where m is known only at run time, its grid
  // is empty in runs of more rows.
  std::string mText = sizes.get(m);
  SmallVector<gpu::Access> bindings(numBindings - numOutputs,
                                    gpu::Access::Read);
  bindings.append(numOutputs, gpu::Access::Write);
  Size gemvGate = 1;
  if (both) {
    // min(max(m - 4, 0), 1) is 1 for more rows; an empty m dispatches
    // nothing. One statement per host op: the order of a call's arguments
    // is unspecified, and the IR must not depend on the compiler.
    Size tiledGate = ctx.broadcastFactor(ctx.sub(m, 3));
    Size nonEmpty = ctx.min(m, Size(int64_t(1)));
    gemvGate = ctx.mul(ctx.sub(1, tiledGate), nonEmpty);
  }
  KernelSpec spec;
  spec.name = "matmul_nbits_gemv";
  NBitsGemvPlan plan = planNBitsGemv(p, ctx.getTarget());
  spec.glsl = generateNBitsGemv(p, plan, mText, mBound);
  if (spec.glsl.empty())
    return failure();
  spec.workgroupSize = {plan.threads, 1, 1};
  spec.bindings = bindings;
  glsl::insertAfterHeader(spec.glsl, sizes.declaration());
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  ctx.dispatch(
      kernel,
      {ctx.mul(glsl::ceilDiv(p.n, plan.groups * plan.columns), gemvGate), 1, 1},
      views, push);
  return success();
}

//===----------------------------------------------------------------------===//
// GatherBlockQuantized
//===----------------------------------------------------------------------===//

namespace {

LogicalResult lowerGatherBlockQuantized(Operation *op, LoweringContext &ctx) {
  onnx::OpAttrs attrs(op);
  int64_t bits = attrs.getInt("bits"), blockSize = attrs.getInt("block_size");
  auto dataType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = resultType.getElementType();
  if (reportUnsupported(ctx, et))
    return failure();
  if (!dataType.hasStaticShape())
    return ctx.emitError() << "needs its table of static shape";
  bool hasZeros = hasOperand(op, 3);
  unsigned numBindings = 4 + hasZeros;
  if (failed(ctx.checkStorageBuffers(numBindings)))
    return failure();
  ArrayRef<int64_t> data = dataType.getShape();
  int64_t rows = data[0];
  int64_t perByte = 8 / bits;
  int64_t length = data.back() * perByte;
  int64_t lines = dataType.getNumElements() / std::max<int64_t>(rows, 1) /
                  std::max<int64_t>(data.back(), 1);
  int64_t blocks = llvm::divideCeil(length, blockSize);
  int64_t zeroRow = llvm::divideCeil(blocks, perByte);
  int64_t outRow = lines * length;

  SmallVector<Size> indexDims = ctx.getDims(op->getOperand(1));
  auto indexType = cast<RankedTensorType>(op->getOperand(1).getType());
  if (indexDims.size() != size_t(indexType.getRank()))
    return failure();
  SmallVector<Size> outDims(indexDims);
  for (int64_t d : resultType.getShape().drop_front(indexDims.size()))
    outDims.push_back(d);
  Value out = ctx.allocate(resultType, outDims);
  ctx.setResult(op->getResult(0), out);
  Size total = getNumElements(ctx, outDims);
  if (total.isZero())
    return success();

  SmallVector<Value> views = {getWords(ctx, op->getOperand(0), "its table"),
                              ctx.getView(op->getOperand(1)),
                              ctx.getView(op->getOperand(2))};
  if (hasZeros)
    views.push_back(getWords(ctx, op->getOperand(3), "its zero points"));
  if (llvm::any_of(views, [](Value v) { return !v; }))
    return failure();
  views.push_back(out);

  KernelSizes sizes(ctx);
  std::string totalText = sizes.get(total);
  KernelSpec spec;
  spec.name = "gather_block_quantized";
  spec.workgroupSize = {glsl::linearWorkgroupSize(ctx.getTarget()), 1, 1};
  spec.bindings.assign(numBindings - 1, gpu::Access::Read);
  spec.bindings.push_back(gpu::Access::Write);
  Type u32 = IntegerType::get(ctx.getContext(), 32, IntegerType::Unsigned);
  Type idType = indexType.getElementType();
  Type scaleType =
      cast<RankedTensorType>(op->getOperand(2).getType()).getElementType();
  std::string s = glsl::buffer(0, gpu::Access::Read, u32, "table") +
                  datamovement::indexBuffer(1, idType, "indices") +
                  glsl::buffer(2, gpu::Access::Read, scaleType, "scales");
  if (hasZeros)
    s += glsl::buffer(3, gpu::Access::Read, u32, "zeros");
  s += glsl::buffer(numBindings - 1, gpu::Access::Write, et, "y");
  s += unpackFunction("quant", "table", bits);
  if (hasZeros)
    s += unpackFunction("zeroAt", "zeros", bits);
  s += "void main() {\n"
       "  uint i = gl_GlobalInvocationID.x;\n";
  s += fmt::format("  if (i >= {}) return;\n", totalText);
  s += fmt::format("  uint pos = i / {0}, rem = i % {0};\n", u(outRow));
  s += datamovement::readIndex(idType, "indices", "pos", "p");
  s += fmt::format("  if (!pFits || p < -{0} || p >= {0}) {{\n"
                   "    {1}\n"
                   "    return;\n"
                   "  }}\n",
                   rows, glsl::store(et, "y", "i", glsl::literal(et, 0)));
  s += fmt::format("  uint row = uint(p < 0 ? p + {} : p);\n", rows);
  s += fmt::format("  uint line = row * {} + rem / {}, j = rem % {};\n",
                   u(lines), u(length), u(length));
  s += fmt::format("  uint block = line * {} + j / {};\n", u(blocks),
                   u(blockSize));
  s += hasZeros ? fmt::format("  float zp = float(zeroAt(line * {} + j / "
                              "{}));\n",
                              u(zeroRow * perByte), u(blockSize))
                : fmt::format("  float zp = {}.0;\n", int64_t(1) << (bits - 1));
  s += fmt::format("  float q = float(quant(line * {} + j));\n", u(length));
  s += "  " +
       glsl::store(et, "y", "i",
                   "(q - zp) * " + glsl::load(scaleType, "scales", "block")) +
       "\n}\n";
  spec.glsl = glsl::header(spec.workgroupSize) + sizes.declaration() + s;
  sizes.dispatch(spec, total, views);
  return success();
}

} // namespace

unsigned getNumNBitsBindings(Operation *op) {
  return 4 + hasOperand(op, 3) + hasOperand(op, 5);
}

bool isNBitsContraction(Operation *op) {
  return op->getName().getStringRef() == "onnx.com.microsoft.MatMulNBits" &&
         !hasOperand(op, 4) &&
         glsl::isFloat(cast<RankedTensorType>(op->getResult(0).getType())
                           .getElementType());
}

namespace {

LogicalResult lowerMatMulNBitsOp(Operation *op, LoweringContext &ctx) {
  return lowerMatMulNBits(op, ctx, nullptr);
}

const KernelGenerator blockQuantizedGenerators[] = {
    {"onnx.com.microsoft.MatMulNBits", lowerMatMulNBitsOp,
     /*dynamicDims=*/true},
    {"onnx.com.microsoft.GatherBlockQuantized", lowerGatherBlockQuantized,
     /*dynamicDims=*/true},
};

} // namespace

ArrayRef<KernelGenerator> getBlockQuantizedGenerators() {
  return blockQuantizedGenerators;
}

} // namespace onyx::lowering
