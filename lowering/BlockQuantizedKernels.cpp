//===- BlockQuantizedKernels.cpp - MatMulNBits, GatherBlockQuantized ------===//
//
// The packed weights stay packed in GPU memory: B (and GatherBlockQuantized's
// table) is bound as 32-bit words and dequantized in the kernel, so a 4-bit
// weight costs an eighth of its f32 bytes plus one scale per block.
//
// MatMulNBits with at most 4 rows of A (a decode step) is a matrix-vector
// kernel that must run at the speed of reading B. B's rows are its output
// columns with k contiguous. A workgroup of 256 invocations is `groups`
// groups of `lanes` (a power of two from 32 covering a row, see planGemv);
// a group owns one or two columns and its lanes stride along k, lane l
// loading unit l, l + lanes, ... of each of its columns' rows, a unit being
// a uvec4 (16 bytes: 32 values of 4 bits) for one row of A on rows of at
// least 32 uvec4s, else a 32-bit word. So consecutive invocations load
// consecutive bytes: a warp's load is 512 (or 128) contiguous bytes, whole
// 128-byte lines, and each invocation has a uvec4 per column in flight.
//
// The values of one unit are consecutive in k, so lane l needs x at a stride
// of 32 floats (a uvec4) from its neighbours: read from global memory, each
// load of a warp touches 32 cache lines, which made the first version of
// this kernel bound by L1 at about one weight per SM cycle (3-4% of the
// bandwidth). Instead the workgroup first copies x into shared memory
// (coalesced: invocation e reads x[e]) with a vec4 of padding after every
// 8 vec4s, and lanes read it as vec4s: 8 lanes at a stride of 8 vec4s (or 2
// for words) then land on 8 distinct 16-byte bank groups, free of bank
// conflicts. Rows longer than the staged chunk take several passes. The
// second column of an invocation reuses each x vec4 it loaded, which halves
// the shared-memory reads per weight; it is used where N leaves 256
// workgroups anyway. Several rows of A share each dequantized weight.
//
// Dequantizing a value costs a shift, a mask-and-or and a float subtract:
// (q | 0x4B000000) is the float 2^23 + q, and subtracting 2^23 + z gives
// q - z exactly (integer zero points are below 2^8), where float(q) would
// be a conversion that NVIDIA GPUs run at a quarter of the FMA rate. A
// word's values all lie in one block (a block is 16 or more values, a word
// at most 16), so the scale multiplies the word's (or the unit's) partial
// sum once: sum_i (q_i - z) * s * a_i = s * sum_i (q_i - z) * a_i. The
// partial sums of a column meet in shared memory as a tree of fixed shape
// over its lanes, and the first lane stores the column (adding the bias).
//
// Larger M is a tiled kernel: a workgroup computes 64 x 64 outputs,
// stepping 16 along k (so a step never leaves a block); its threads copy the
// A tile and dequantize the B tile (a word of B per invocation, one scale
// for its four values) into shared memory, then each accumulates 4 x 4
// outputs from a vec4 of each tile per k (see nbitsTiled). Where M is known
// only at run time both are dispatched and the run zeroes one grid, as the
// MatMul lowering does.
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

/// The tiled kernel's tile.
constexpr int64_t kTileM = 64, kTileN = 64, kTileK = 16;

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

struct NBitsProblem {
  int64_t k, n, bits, blockSize, blocks, blob;
  Size m;
  Type et;
  bool hasZeros, floatZeros, hasBias;
  /// Elementwise ops applied as the kernels store (a FusedElementwise whose
  /// body starts with the product), with the sizes their code spells.
  const GemmEpilogue *epilogue = nullptr;
  KernelSizes *sizes = nullptr;
  SmallVector<Size> resultDims;
};

/// The declarations and helpers both MatMulNBits kernels share: buffers,
/// `float scaleOf(uint block)`, `float zeroOf(uint block)` (blocks numbered
/// n * blocks + b) and `void storeY(uint row, uint col, float v)`, which
/// adds the bias and applies the epilogue. Empty after an error.
std::string nbitsCommon(const NBitsProblem &p, StringRef bType) {
  Type f32 = FloatType::getF32(p.et.getContext());
  Type u32 = IntegerType::get(p.et.getContext(), 32, IntegerType::Unsigned);
  unsigned binding = 0;
  std::string s = glsl::buffer(binding++, gpu::Access::Read, p.et, "a");
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
  Type resultType = p.et;
  if (p.epilogue) {
    for (const GemmStoreInput &input : p.epilogue->inputs)
      s += glsl::buffer(binding++, gpu::Access::Read, input.elementType,
                        input.name);
    resultType =
        cast<RankedTensorType>(p.epilogue->result.getType()).getElementType();
  }
  s += glsl::buffer(binding, gpu::Access::Write, resultType, "y");
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
  std::string fn = "void storeY(uint row, uint col, float v) { " + body +
                   glsl::store(resultType, "y", "idx", value) + " }\n";
  return s + glsl::helpers(fn) + fn;
}

/// How the matrix-vector kernel splits its work (see the file comment).
struct GemvPlan {
  unsigned threads;   // per workgroup
  unsigned unitWords; // 32-bit words of B one invocation loads at once: 4 or 1
  int64_t units;      // units in a row of B
  unsigned lanes;     // invocations per column group, striding over k
  unsigned groups;    // column groups per workgroup (threads / lanes)
  unsigned columns;   // columns per group, sharing each x value loaded
  int64_t chunk;      // values of k staged in shared memory per pass
};

GemvPlan planGemv(const NBitsProblem &p, int64_t rows,
                  const gpu::TargetDesc &target) {
  GemvPlan g;
  g.threads = std::min<unsigned>(256, target.maxComputeWorkGroupInvocations);
  int64_t rowBytes = p.blocks * p.blob;
  int64_t valuesPerWord = 32 / p.bits;
  // One row (a decode step) reads B in uvec4s: a warp's load is 512
  // contiguous bytes. Several rows keep the staged x smaller with words.
  g.unitWords = rows == 1 && rowBytes % 16 == 0 && rowBytes / 16 >= 32 ? 4 : 1;
  g.units = rowBytes / (4 * g.unitWords);
  int64_t valuesPerUnit = valuesPerWord * g.unitWords;
  // The staged x (rows x chunk floats and a vec4 of padding per 8) and
  // the reduction's partial sums must fit the target's shared memory.
  auto sharedBytes = [&](unsigned lanes, unsigned columns) {
    int64_t chunk = lanes * valuesPerUnit;
    return rows * (chunk + chunk / 8) * 4 + rows * columns * g.threads * 4;
  };
  // Lanes: the smallest power of two (from 32) covering a row in one
  // pass, at most the workgroup, staging at most 4096 values of x in all
  // (18 KiB)...
  g.lanes = 32;
  while (g.lanes < g.threads && g.lanes < g.units &&
         rows * 2 * g.lanes * valuesPerUnit <= 4096)
    g.lanes *= 2;
  // ... and within the shared memory.
  while (g.lanes > 8 &&
         sharedBytes(g.lanes, 1) > int64_t(target.maxComputeSharedMemorySize))
    g.lanes /= 2;
  g.groups = g.threads / g.lanes;
  // Two columns per invocation where that still leaves 256 workgroups:
  // each x vec4 read from shared memory then serves two weights.
  g.columns = 1;
  if (llvm::divideCeil(p.n, 2 * g.groups) >= 256 &&
      sharedBytes(g.lanes, 2) <= int64_t(target.maxComputeSharedMemorySize))
    g.columns = 2;
  g.chunk = g.lanes * valuesPerUnit;
  return g;
}

/// The matrix-vector kernel for at most 4 rows (`m`: the rows' count as
/// GLSL, `rows` its static bound).
std::string nbitsGemv(const NBitsProblem &p, const GemvPlan &g,
                      const std::string &m, int64_t rows) {
  int64_t valuesPerWord = 32 / p.bits;
  int64_t wordsPerBlock = p.blob / 4;
  unsigned width = g.unitWords;
  unsigned outs = rows * g.columns;
  // The staged x: `rows` runs of `chunk` floats, a vec4 of padding after
  // every 8 (see the file comment), read and written as vec4s.
  int64_t padded = (g.chunk + g.chunk / 8) / 4;
  std::string s = glsl::header({g.threads, 1, 1});
  std::string common = nbitsCommon(p, width == 4 ? "uvec4" : "uint");
  if (common.empty())
    return {};
  s += common;
  s += fmt::format("shared vec4 xs[{}];\n", rows * padded);
  s += fmt::format("shared float red[{}];\n", outs * g.threads);
  s += "void main() {\n"
       "  uint lt = gl_LocalInvocationID.x;\n";
  s += fmt::format("  uint lane = lt % {0}, grp = lt / {0};\n", u(g.lanes));
  s += fmt::format("  uint col0 = gl_WorkGroupID.x * {} + grp * {};\n",
                   u(g.groups * g.columns), u(g.columns));
  auto rowGuard = [&](int64_t r) {
    return rows > 1 && m != u(rows) && r > 0 ? fmt::format("{} > {}", m, u(r))
                                             : std::string();
  };
  // Columns past N compute on the last column and store nothing.
  for (unsigned c = 0; c < g.columns; ++c)
    s += fmt::format("  uint cc{0} = min(col0 + {1}, {2});\n", c, u(c),
                     u(p.n - 1));
  for (unsigned o = 0; o < outs; ++o)
    s += fmt::format("  float acc{} = 0.0;\n", o);
  s += fmt::format("  for (uint c0 = 0u; c0 < {}; c0 += {}) {{\n", u(g.units),
                   u(g.lanes));
  // Stage x[c0 * valuesPerUnit ...]: consecutive invocations read
  // consecutive floats (coalesced) and write consecutive shared words.
  s += "    barrier();\n";
  int64_t valuesPerUnit = valuesPerWord * width;
  for (int64_t r = 0; r < rows; ++r) {
    std::string guard = rowGuard(r);
    s += fmt::format("    for (uint e = lt; e < {}; e += {}) {{\n", u(g.chunk),
                     u(g.threads));
    s += fmt::format("      uint k = c0 * {} + e;\n", u(valuesPerUnit));
    s += fmt::format("      float x = k < {}{} ? {} : 0.0;\n", u(p.k),
                     guard.empty() ? "" : " && " + guard,
                     glsl::load(p.et, "a", fmt::format("{} + k", u(r * p.k))));
    s += fmt::format("      xs[{} + (e >> 2u) + (e >> 5u)][e & 3u] = x;\n",
                     u(r * padded));
    s += "    }\n";
  }
  s += "    barrier();\n"
       "    uint v = c0 + lane;\n";
  s += fmt::format("    if (v < {}) {{\n", u(g.units));
  for (unsigned c = 0; c < g.columns; ++c)
    s += fmt::format("      {} q{} = b.d[cc{} * {} + v];\n",
                     width == 4 ? "uvec4" : "uint", c, c, u(g.units));
  // The words of a unit that share a block share its scale: all of them
  // where a block spans a unit, else wordsPerBlock at a time.
  unsigned wordsPerScale = std::min<int64_t>(width, wordsPerBlock);
  for (unsigned j0 = 0; j0 < width; j0 += wordsPerScale) {
    s += "      {\n";
    std::string block =
        wordsPerBlock >= width
            ? fmt::format("v / {}", u(wordsPerBlock / width))
            : fmt::format("v * {} + {}", u(width / wordsPerBlock),
                          u(j0 / wordsPerBlock));
    s += fmt::format("        uint block = {};\n", block);
    for (unsigned c = 0; c < g.columns; ++c) {
      s += fmt::format("        uint blk{0} = cc{0} * {1} + block;\n", c,
                       u(p.blocks));
      // 2^23 + q is the float whose low mantissa bits are q: subtracting
      // 2^23 + z gives q - z exactly, with two integer ops and a float
      // add instead of an int-to-float conversion (a quarter-rate op on
      // NVIDIA). Float zero points subtract separately.
      s += p.floatZeros
               ? fmt::format("        float sc{0} = scaleOf(blk{0}), zb{0} "
                             "= 8388608.0, zf{0} = zeroOf(blk{0});\n",
                             c)
               : fmt::format("        float sc{0} = scaleOf(blk{0}), zb{0} "
                             "= 8388608.0 + zeroOf(blk{0});\n",
                             c);
    }
    for (unsigned o = 0; o < outs; ++o)
      s += fmt::format("        float dq{} = 0.0;\n", o);
    for (unsigned j = j0; j < j0 + wordsPerScale; ++j) {
      for (int64_t i0 = 0; i0 < valuesPerWord; i0 += 4) {
        // x[k .. k + 3] of each row: position e in the chunk.
        s += "        {\n";
        s += fmt::format("          uint e = lane * {} + {};\n",
                         u(valuesPerUnit), u(j * valuesPerWord + i0));
        for (int64_t r = 0; r < rows; ++r)
          s += fmt::format(
              "          vec4 x{} = xs[{} + (e >> 2u) + (e >> 5u)];\n", r,
              u(r * padded));
        for (unsigned c = 0; c < g.columns; ++c) {
          std::string word =
              width == 4 ? fmt::format("q{}[{}]", c, j) : fmt::format("q{}", c);
          for (int64_t t = 0; t < 4; ++t) {
            int64_t shift = (i0 + t) * p.bits;
            std::string bits =
                shift ? fmt::format("({} >> {})", word, u(shift)) : word;
            s += fmt::format("          {{ float w = uintBitsToFloat(({} & "
                             "{}) | 0x4B000000u) - zb{}{};",
                             bits, u((1 << p.bits) - 1), c,
                             p.floatZeros ? fmt::format(" - zf{}", c) : "");
            for (int64_t r = 0; r < rows; ++r)
              s +=
                  fmt::format(" dq{} += w * x{}[{}];", r * g.columns + c, r, t);
            s += " }\n";
          }
        }
        s += "        }\n";
      }
    }
    for (int64_t r = 0; r < rows; ++r)
      for (unsigned c = 0; c < g.columns; ++c)
        s += fmt::format("        acc{0} += sc{1} * dq{0};\n",
                         r * g.columns + c, c);
    s += "      }\n";
  }
  s += "    }\n  }\n";
  // The partial sums of each output meet in a tree of fixed shape over the
  // group's lanes.
  for (unsigned o = 0; o < outs; ++o)
    s += fmt::format("  red[{} + lt] = acc{};\n", u(o * g.threads), o);
  s += "  barrier();\n";
  for (unsigned half = g.lanes / 2; half >= 1; half /= 2) {
    s += fmt::format("  if (lane < {}) {{\n", u(half));
    for (unsigned o = 0; o < outs; ++o)
      s += fmt::format("    red[{0} + lt] += red[{0} + lt + {1}];\n",
                       u(o * g.threads), u(half));
    s += "  }\n  barrier();\n";
  }
  s += "  if (lane == 0u) {\n";
  for (int64_t r = 0; r < rows; ++r) {
    std::string guard = rowGuard(r);
    for (unsigned c = 0; c < g.columns; ++c) {
      std::string cond = fmt::format("col0 + {} < {}", u(c), u(p.n));
      if (!guard.empty())
        cond += " && " + guard;
      s += fmt::format("    if ({}) storeY({}, col0 + {}, red[{} + lt]);\n",
                       cond, u(r), u(c), u((r * g.columns + c) * g.threads));
    }
  }
  s += "  }\n}\n";
  return s;
}

/// The tiled kernel for any number of rows (`m` as GLSL): a workgroup of
/// 256 computes 64 x 64 outputs, 4 x 4 per invocation, stepping 16 along k
/// (a step never leaves a block). Each step it copies the A tile and the
/// dequantized B tile into shared memory k-major (a row of 64 values padded
/// to 68, so the copies' stores meet at most in pairs on a bank); each
/// invocation then reads a vec4 of A and one of B per k, 16 FMAs for two
/// shared loads, and a warp's 16 B vec4s are 256 contiguous bytes.
std::string nbitsTiled(const NBitsProblem &p, const std::string &m) {
  std::string s = glsl::header({256, 1, 1});
  std::string common = nbitsCommon(p, "uint");
  if (common.empty())
    return {};
  s += common;
  s += fmt::format("shared vec4 as4[{0}][{1}];\n"
                   "shared vec4 bs4[{0}][{1}];\n",
                   kTileK, kTileM / 4 + 1);
  int64_t wordsPerRow = p.blocks * p.blob / 4;
  s += "void main() {\n"
       "  uint lt = gl_LocalInvocationID.x;\n"
       "  uint tx = lt % 16u, ty = lt / 16u;\n";
  s += fmt::format("  uint m0 = gl_WorkGroupID.y * {}, n0 = gl_WorkGroupID.x "
                   "* {};\n",
                   u(kTileM), u(kTileN));
  s += "  vec4 acc0 = vec4(0.0), acc1 = vec4(0.0), acc2 = vec4(0.0), "
       "acc3 = vec4(0.0);\n"
       // The copies: invocation lt fills row (or column) lr, k lq .. lq + 3.
       "  uint lr = lt / 4u, lq = (lt % 4u) * 4u;\n";
  s += fmt::format("  bool arow = m0 + lr < {};\n", m);
  // Columns past N dequantize the last column and store nothing.
  s += fmt::format("  uint bcol = min(n0 + lr, {});\n", u(p.n - 1));
  s += fmt::format("  for (uint k0 = 0u; k0 < {}; k0 += {}u) {{\n", u(p.k),
                   kTileK);
  s += "    for (uint i = 0u; i < 4u; ++i) {\n"
       "      uint k = k0 + lq + i;\n";
  s += fmt::format(
      "      as4[lq + i][lr >> 2u][lr & 3u] = arow && k < {} ? {} : 0.0;\n",
      u(p.k), glsl::load(p.et, "a", fmt::format("(m0 + lr) * {} + k", u(p.k))));
  s += "    }\n"
       "    {\n";
  // The four values of B lie in one word (4 x bits <= 32, aligned).
  s += fmt::format("      uint blk = bcol * {} + k0 / {};\n", u(p.blocks),
                   u(p.blockSize));
  // As in the matrix-vector kernel: (2^23 + q) - (2^23 + z) is q - z.
  s += p.floatZeros
           ? "      float sc = scaleOf(blk), zb = 8388608.0, zf = "
             "zeroOf(blk);\n"
           : "      float sc = scaleOf(blk), zb = 8388608.0 + zeroOf(blk);\n";
  s += fmt::format("      uint bit = (k0 + lq) * {};\n", u(p.bits));
  s += fmt::format("      uint w = b.d[bcol * {} + (bit >> 5u)] >> (bit & "
                   "31u);\n",
                   u(wordsPerRow));
  s += "      for (uint i = 0u; i < 4u; ++i)\n";
  s +=
      fmt::format("        bs4[lq + i][lr >> 2u][lr & 3u] = "
                  "(uintBitsToFloat(((w >> (i * {})) & {}) | 0x4B000000u) - "
                  "zb{}) * sc;\n",
                  u(p.bits), u((1 << p.bits) - 1), p.floatZeros ? " - zf" : "");
  s += "    }\n"
       "    barrier();\n";
  s += fmt::format("    for (uint kk = 0u; kk < {}u; ++kk) {{\n", kTileK);
  s += "      vec4 av = as4[kk][ty], bv = bs4[kk][tx];\n"
       "      acc0 += av.x * bv;\n"
       "      acc1 += av.y * bv;\n"
       "      acc2 += av.z * bv;\n"
       "      acc3 += av.w * bv;\n"
       "    }\n"
       "    barrier();\n"
       "  }\n";
  for (int i = 0; i < 4; ++i) {
    s += fmt::format("  if (m0 + ty * 4u + {} < {}) {{\n", u(i), m);
    for (int j = 0; j < 4; ++j)
      s += fmt::format("    if (n0 + tx * 4u + {0}u < {1}) storeY(m0 + ty * "
                       "4u + {2}u, n0 + tx * 4u + {0}u, acc{2}[{0}]);\n",
                       j, u(p.n), i);
    s += "  }\n";
  }
  s += "}\n";
  return s;
}

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
  unsigned numBindings =
      4 + p.hasZeros + p.hasBias + (epilogue ? epilogue->inputs.size() : 0);
  if (numBindings > ctx.getTarget().maxPerStageDescriptorStorageBuffers)
    return ctx.emitError()
           << "needs " << numBindings
           << " storage buffers in one kernel, more than the "
              "target's "
           << ctx.getTarget().maxPerStageDescriptorStorageBuffers;
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
  Value stored = epilogue ? epilogue->result : op->getResult(0);
  Value out = ctx.allocate(cast<RankedTensorType>(stored.getType()), outDims);
  ctx.setResult(stored, out);
  if (m.isStatic() && m.constant == 0)
    return success();

  SmallVector<Value> views;
  views.push_back(ctx.getView(op->getOperand(0)));
  views.push_back(getWords(ctx, op->getOperand(1), "B"));
  views.push_back(ctx.getView(op->getOperand(2)));
  if (p.hasZeros) {
    views.push_back(repackZeros(ctx, op->getOperand(3), p));
    if (!views.back())
      return ctx.emitError() << "needs constant zero points";
  }
  if (p.hasBias)
    views.push_back(ctx.getView(op->getOperand(5)));
  if (epilogue)
    for (const GemmStoreInput &input : epilogue->inputs)
      views.push_back(input.view);
  if (llvm::any_of(views, [](Value v) { return !v; }))
    return failure();
  views.push_back(out);

  KernelSizes sizes(ctx);
  p.sizes = &sizes;
  std::string mText = sizes.get(m);
  SmallVector<gpu::Access> bindings(numBindings - 1, gpu::Access::Read);
  bindings.push_back(gpu::Access::Write);
  int64_t mBound = m.isStatic() ? m.constant : 4;
  bool gemv = mBound <= 4;
  bool both = !m.isStatic();
  Size gemvGate = 1, tiledGate = 1;
  if (both) {
    // large = min(max(m - 4, 0), 1); an empty m dispatches neither.
    // One statement per host op: the order of a call's arguments is
    // unspecified, and the IR must not depend on the compiler.
    tiledGate = ctx.broadcastFactor(ctx.sub(m, 3));
    Size nonEmpty = ctx.min(m, Size(int64_t(1)));
    gemvGate = ctx.mul(ctx.sub(1, tiledGate), nonEmpty);
  }
  struct Dispatch {
    KernelSpec spec;
    std::array<Size, 3> grid;
  };
  SmallVector<Dispatch, 2> dispatches;
  if (gemv) {
    Dispatch &d = dispatches.emplace_back();
    d.spec.name = "matmul_nbits_gemv";
    GemvPlan plan = planGemv(p, mBound, ctx.getTarget());
    d.spec.glsl = nbitsGemv(p, plan, mText, mBound);
    d.spec.workgroupSize = {plan.threads, 1, 1};
    d.grid = {ctx.mul(glsl::ceilDiv(p.n, plan.groups * plan.columns), gemvGate),
              1, 1};
  }
  if (!gemv || both) {
    Dispatch &d = dispatches.emplace_back();
    d.spec.name = "matmul_nbits";
    d.spec.glsl = nbitsTiled(p, mText);
    d.spec.workgroupSize = {256, 1, 1};
    d.grid = {ctx.mul(glsl::ceilDiv(p.n, kTileN), tiledGate),
              ctx.ceilDiv(m, kTileM), 1};
  }
  if (llvm::any_of(dispatches,
                   [](const Dispatch &d) { return d.spec.glsl.empty(); }))
    return failure();
  std::string declaration = sizes.declaration();
  for (Dispatch &d : dispatches) {
    d.spec.bindings = bindings;
    glsl::insertAfterHeader(d.spec.glsl, declaration);
    SmallVector<OpFoldResult> push;
    sizes.addTo(d.spec, push);
    KernelRef kernel = ctx.getOrCreateKernel(d.spec);
    ctx.dispatch(kernel, d.grid, views, push);
  }
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
  if (numBindings > ctx.getTarget().maxPerStageDescriptorStorageBuffers)
    return ctx.emitError()
           << "needs " << numBindings
           << " storage buffers in one kernel, more than the "
              "target's "
           << ctx.getTarget().maxPerStageDescriptorStorageBuffers;
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
  if (total.isStatic() && total.constant == 0)
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
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  ctx.dispatch(kernel,
               {ctx.ceilDiv(total, int64_t(spec.workgroupSize[0])), 1, 1},
               views, push);
  return success();
}

} // namespace

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
