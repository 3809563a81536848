//===- ElementwiseKernels.cpp - One kernel per elementwise tree -----------===//
//
// An onnx.FusedElementwise (or a single elementwise op) becomes one kernel
// with one invocation per output element. Each invocation finds its output
// coordinates, loads every input at the coordinates numpy broadcasting maps
// them to, and evaluates the ops of the tree in order, each as the GLSL
// expression of its row in the elementwise table (dialect/onnx/Elementwise.h)
// or, for Cast, Clip, Where and Expand (whose shape may be a shape value of
// the host program, ShapeValues.h), as ElementwiseExpressions.cpp writes
// them. Intermediate
// results of smaller shapes are recomputed per output element: broadcasting
// composes, so the coordinates of an input are those it takes relative to
// the output, whatever path leads there. An Unsqueeze in the tree moves its
// operand's dims to the axes it keeps (mapAxes), and a Range has no memory:
// the element the output reads is start + index * delta, its index computed
// from the output's coordinates as an input's is. An input of one integer
// that the host program computes (the `past` of a mask, a Range's start) is
// a push constant, not a binding; a Range's limit only sizes the result.
//
// Where no input is broadcast (each is read at the output's index or is a
// single value) and the inputs and the result are 32-bit types, the kernel
// is vectorized instead: the tree becomes a function of one element's
// values and each invocation reads and writes four vec4s (vectorMain).
//
// A fused group that starts with a contraction (Gemm, MatMul, MatMulNBits)
// is the contraction's kernel, which evaluates the rest of the tree on each
// element it stores (lowerFusedContraction).
//
//===----------------------------------------------------------------------===//

#include "lowering/ElementwiseKernels.h"
#include "lowering/BlockQuantizedKernels.h"
#include "lowering/DataMovement.h"
#include "lowering/ElementwiseExpressions.h"
#include "lowering/Glsl.h"
#include "lowering/KernelGenerator.h"
#include "lowering/KernelSizes.h"
#include "lowering/TiledGemm.h"

#include "dialect/onnx/Elementwise.h"
#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OnnxDialect.h"

#include "ir/Block.h"
#include "ir/Region.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Sequence.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

/// For each dimension of a value of a tree, the axis of the tree's result
/// along which the kernel reads it; -1 for a static dimension of 1 (read at
/// 0 whatever the result's coordinate).
using AxisMap = SmallVector<int64_t, 4>;
using AxisMaps = llvm::DenseMap<Value, AxisMap>;

} // namespace

/// The axis maps of the values of a tree of `ops` (in block order, `result`
/// the last one's) that it reads as data: the result's dims are its axes in
/// order; an operand's dims are its op's result's last ones, an Unsqueeze's
/// operand's those that the Unsqueeze keeps; a Range's start and delta are
/// single values. A Range's limit and an Expand's shape are not read per
/// element. nullopt where a value is read along two different maps, or an
/// Unsqueeze's axes are not valid.
static std::optional<AxisMaps> mapAxes(ArrayRef<Operation *> ops,
                                       Value result) {
  AxisMaps maps;
  auto resultType = dyn_cast<RankedTensorType>(result.getType());
  if (!resultType)
    return std::nullopt;
  AxisMap &root = maps[result];
  for (int64_t d = 0; d < resultType.getRank(); ++d)
    root.push_back(resultType.getShape()[d] == 1 ? -1 : d);
  // Users come after their operands' producers: each value's map is known
  // before its producer is visited.
  for (Operation *op : llvm::reverse(ops)) {
    if (op->getNumResults() != 1)
      continue;
    auto found = maps.find(op->getResult(0));
    if (found == maps.end())
      continue;
    AxisMap out = found->second;
    StringRef name = op->getName().getStringRef();
    if (name == "onnx.Constant")
      continue;
    // A Range reads its start and delta as single values; its limit only
    // sizes the result, on the host.
    if (name == "onnx.Range") {
      for (unsigned i : {0u, 2u}) {
        auto type = dyn_cast<RankedTensorType>(op->getOperand(i).getType());
        if (!type)
          return std::nullopt;
        maps.try_emplace(op->getOperand(i), AxisMap(type.getRank(), -1));
      }
      continue;
    }
    SmallVector<int64_t> inserted;
    if (name == "onnx.Unsqueeze") {
      std::optional<SmallVector<int64_t>> axes =
          onnx::getConstantInts(op->getOperand(1));
      if (!axes)
        return std::nullopt;
      int64_t rank = out.size();
      for (int64_t axis : *axes) {
        if (axis < -rank || axis >= rank)
          return std::nullopt;
        inserted.push_back(axis < 0 ? axis + rank : axis);
      }
    }
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      if (i > 0 && (name == "onnx.Expand" || name == "onnx.Unsqueeze"))
        continue;
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      AxisMap map;
      if (name == "onnx.Unsqueeze") {
        for (auto [d, axis] : llvm::enumerate(out))
          if (!llvm::is_contained(inserted, int64_t(d)))
            map.push_back(axis);
      } else if (size_t(type.getRank()) <= out.size()) {
        map.assign(out.end() - type.getRank(), out.end());
      }
      if (map.size() != size_t(type.getRank()))
        return std::nullopt;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.getShape()[d] == 1)
          map[d] = -1;
      auto [slot, isNew] = maps.try_emplace(operand, map);
      if (!isNew && slot->second != map)
        return std::nullopt;
    }
  }
  return maps;
}

bool hasConsistentAxes(ArrayRef<Operation *> ops, Value result) {
  return mapAxes(ops, result).has_value();
}

/// `dims`, of a value whose axis map is `map`, as a tensor of the result's
/// `rank` that numpy's alignment of the last dims reads at the same
/// elements: the dims themselves where they are the result's last ones,
/// else each at its axis with dims of 1 between.
static SmallVector<Size> alignDims(ArrayRef<Size> dims, const AxisMap &map,
                                   unsigned rank) {
  size_t offset = rank - dims.size();
  bool trailing =
      llvm::all_of(llvm::seq<size_t>(0, dims.size()), [&](size_t d) {
        return map[d] == -1 || map[d] == int64_t(offset + d);
      });
  if (trailing)
    return SmallVector<Size>(dims);
  SmallVector<Size> aligned(rank, Size(1));
  for (auto [d, axis] : llvm::enumerate(map))
    if (axis >= 0)
      aligned[axis] = dims[d];
  return aligned;
}

static std::string kernelName(ArrayRef<Operation *> ops) {
  return ops.size() == 1
             ? llvm::StringRef(ops.front()->getName().getStringRef())
                   .drop_front(5)
                   .lower()
             : "fused";
}

/// The vec4 type of elements of `type` stored as 32-bit words (f32, i32,
/// ui32), or empty.
static std::string vectorType(Type type) {
  std::string storage = glsl::storageType(type);
  return storage == "float"  ? "vec4"
         : storage == "int"  ? "ivec4"
         : storage == "uint" ? "uvec4"
                             : "";
}

/// vec4s each invocation of a vectorized kernel loads per input.
constexpr unsigned kVectorsPerInvocation = 4;

/// The functions of a vectorized elementwise kernel: `elem`, the tree on
/// one element's input values (`code` binds the result to `value`), and a
/// main in which each invocation reads kVectorsPerInvocation vec4s of each
/// input (`vector`: the inputs read at the output's index; the others are
/// single values, read once) and writes as many of the result. Element i
/// of the first vec4s of a workgroup is read by invocation i, so a warp's
/// load or store is 512 contiguous bytes (whole 128-byte lines), and all
/// of an invocation's loads are issued before its first store, so 64 bytes
/// per input are in flight per invocation: far fewer invocations (and
/// index computations) per byte than one element each, which left a large
/// elementwise kernel well short of the copy bandwidth of the GPU. Loads
/// before stores also keep an output that shares its input's memory
/// correct. The last count % 4 elements are written one each by the
/// first invocations, as components of the last, partial vec4.
static std::string vectorMain(ArrayRef<Type> inputTypes, ArrayRef<bool> vector,
                              Type resultType, StringRef code, StringRef value,
                              Size count, const std::string &countText,
                              uint32_t wg) {
  std::string s;
  unsigned out = inputTypes.size();
  // Only the vec4 view of a binding is declared (a binding declared twice
  // would be two storage buffers to the module's reflection); the tail
  // indexes a component of it.
  for (auto [i, type] : llvm::enumerate(inputTypes))
    s += vector[i]
             ? fmt::format("layout(set = 0, binding = {0}, std430) "
                           "readonly buffer B{0} {{ {1} d[]; }} in{0};\n",
                           i, vectorType(type))
             : glsl::buffer(i, gpu::Access::Read, type, fmt::format("in{}", i));
  s += fmt::format("layout(set = 0, binding = {0}, std430) writeonly buffer "
                   "B{0} {{ {1} d[]; }} result;\n",
                   out, vectorType(resultType));
  std::string params;
  for (auto [i, type] : llvm::enumerate(inputTypes))
    params +=
        fmt::format("{}{} x{}", i ? ", " : "", glsl::computeType(type), i);
  s += fmt::format("{} elem({}) {{\n{}  return {};\n}}\n",
                   glsl::computeType(resultType), params, code.str(),
                   value.str());
  s += "void main() {\n";
  s += fmt::format("  uint n4 = {} / 4u;\n", countText);
  s += fmt::format("  uint j0 = gl_WorkGroupID.x * {} + "
                   "gl_LocalInvocationID.x;\n",
                   glsl::uintLiteral(int64_t(wg) * kVectorsPerInvocation));
  unsigned n = kVectorsPerInvocation;
  for (auto [i, type] : llvm::enumerate(inputTypes))
    s += vector[i]
             ? fmt::format("  {} l{}[{}];\n", vectorType(type), i, n)
             : fmt::format("  {} x{} = {};\n", glsl::computeType(type), i,
                           glsl::load(type, fmt::format("in{}", i), "0u"));
  s += fmt::format("  for (uint u = 0u; u < {}u; ++u) {{\n"
                   "    uint j = j0 + u * {}u;\n"
                   "    if (j < n4) {{\n",
                   n, wg);
  for (unsigned i = 0; i < inputTypes.size(); ++i)
    if (vector[i])
      s += fmt::format("      l{0}[u] = in{0}.d[j];\n", i);
  s += "    }\n  }\n";
  auto args = [&](StringRef component) {
    std::string a;
    for (unsigned i = 0; i < inputTypes.size(); ++i)
      a += (i ? ", " : "") + (vector[i]
                                  ? fmt::format("l{}[u].{}", i, component.str())
                                  : fmt::format("x{}", i));
    return a;
  };
  s += fmt::format("  for (uint u = 0u; u < {}u; ++u) {{\n"
                   "    uint j = j0 + u * {}u;\n"
                   "    if (j < n4)\n"
                   "      result.d[j] = {}(elem({}), elem({}), elem({}), "
                   "elem({}));\n"
                   "  }}\n",
                   n, wg, vectorType(resultType), args("x"), args("y"),
                   args("z"), args("w"));
  if (!count.isStatic() || count.constant % 4) {
    // 32-bit types: a component is the element, loaded and stored as is.
    std::string a;
    for (unsigned i = 0; i < inputTypes.size(); ++i)
      a += (i ? ", " : "") + (vector[i] ? fmt::format("in{}.d[n4][t]", i)
                                        : fmt::format("x{}", i));
    s += fmt::format("  uint t = gl_GlobalInvocationID.x;\n"
                     "  if (t < {} - n4 * 4u)\n"
                     "    result.d[n4][t] = elem({});\n",
                     countText, a);
  }
  s += "}\n";
  return s;
}

/// Lowers `ops` (a tree in order, the last one producing `result`) that
/// read `inputs` (the values bound to the kernel, one binding each, but
/// for one-element integers the host program computes, push constants,
/// and a Range's limit, which only sizes the result). `shapes` are the
/// shapes of Expand ops known only at run time (shape values), which the
/// result's dims broadcast from as from the inputs'.
static LogicalResult lowerTree(LoweringContext &ctx, ArrayRef<Operation *> ops,
                               ArrayRef<Value> kernelInputs,
                               ArrayRef<Value> outerInputs, Value innerResult,
                               Value outerResult,
                               ArrayRef<SmallVector<Size>> shapes = {}) {
  auto resultType = cast<RankedTensorType>(outerResult.getType());
  unsigned rank = resultType.getRank();
  std::optional<AxisMaps> maps = mapAxes(ops, innerResult);
  if (!maps)
    return ctx.emitError() << "reads a value along two different axes of "
                              "its result";
  llvm::DenseMap<Value, Value> outerOf;
  for (auto [inner, outer] : llvm::zip(kernelInputs, outerInputs))
    outerOf[inner] = outer;
  auto toOuter = [&](Value v) {
    Value outer = outerOf.lookup(v);
    return outer ? outer : v;
  };
  // Each input's dims as the result reads them (alignDims), and the
  // output's: a `?` of the result is the largest of the dims it broadcasts
  // from (numpy's rule, dims of 1 aside), the inputs' and the Ranges'. An
  // input the tree does not read per element (a Range's limit) has none.
  SmallVector<SmallVector<Size>> inputDims;
  SmallVector<bool> isRead;
  SmallVector<SmallVector<Size>> extents;
  for (auto [inner, outer] : llvm::zip(kernelInputs, outerInputs)) {
    SmallVector<Size> dims = ctx.getDims(outer);
    if (dims.size() !=
        size_t(cast<RankedTensorType>(outer.getType()).getRank()))
      return failure();
    auto map = maps->find(inner);
    isRead.push_back(map != maps->end());
    inputDims.push_back(isRead.back() ? alignDims(dims, map->second, rank)
                                      : dims);
    if (isRead.back())
      extents.push_back(inputDims.back());
  }
  SmallVector<std::pair<Value, SmallVector<Size>>> ranges;
  for (Operation *op : ops) {
    auto map = op->getName().getStringRef() == "onnx.Range"
                   ? maps->find(op->getResult(0))
                   : maps->end();
    if (map == maps->end())
      continue;
    int64_t length =
        cast<RankedTensorType>(op->getResult(0).getType()).getShape()[0];
    Size count(length);
    if (ShapedType::isDynamic(length)) {
      std::optional<Size> computed =
          datamovement::getRangeCount(ctx, op, toOuter);
      if (!computed)
        return failure();
      count = *computed;
    }
    ranges.push_back({op->getResult(0), alignDims({count}, map->second, rank)});
    extents.push_back(ranges.back().second);
  }
  llvm::append_range(extents, shapes);
  SmallVector<Size> outDims;
  for (auto [d, dim] : llvm::enumerate(resultType.getShape())) {
    if (!ShapedType::isDynamic(dim)) {
      outDims.push_back(dim);
      continue;
    }
    Size size(1);
    for (ArrayRef<Size> dims : extents)
      if (d + dims.size() >= rank)
        size = ctx.max(size, dims[d + dims.size() - rank]);
    outDims.push_back(size);
  }
  Size count = getNumElements(ctx, outDims);
  Value output = ctx.allocate(resultType, outDims);
  ctx.setResult(outerResult, output);
  if (count.isZero())
    return success();

  if (failed(checkElementTypes(ops, ctx)))
    return failure();

  ExpressionWriter writer(ctx);
  KernelSizes sizes(ctx);
  std::string decls, loads;
  // A Range's element is found from the output's coordinates.
  bool needCoordinates = !ranges.empty();
  for (auto &[range, dims] : ranges)
    writer.setRangeIndex(range, sizes.broadcastIndex(dims, rank, "c"));
  // Whether every input is read at the output's index (or is one value)
  // and all of them and the result are stored as 32-bit words: then each
  // invocation reads and writes vec4s (see vectorMain).
  bool vectorizable =
      ranges.empty() &&
      ctx.getTarget().minStorageBufferOffsetAlignment % 16 == 0 &&
      !vectorType(resultType.getElementType()).empty();
  SmallVector<bool> vectorInputs;
  SmallVector<Type> inputTypes;
  SmallVector<Value> bindings;
  for (auto [i, input] : llvm::enumerate(kernelInputs)) {
    if (!isRead[i])
      continue;
    auto type = cast<RankedTensorType>(input.getType());
    // Each input must broadcast to the result: a dim known only at run
    // time is the result's or 1.
    for (auto [d, dim] : llvm::enumerate(inputDims[i])) {
      Size out = outDims[d + rank - inputDims[i].size()];
      if (dim.isStatic() && out.isStatic())
        continue;
      Size same = ctx.arith("gpu.eqi", dim, out);
      if (same.isStatic() && same.constant)
        continue;
      Size ok = ctx.arith("gpu.maxi", same, ctx.arith("gpu.eqi", dim, 1));
      if (failed(ctx.check(ok,
                           "cannot broadcast dimension {0} of size {1} of an "
                           "input to size {2}",
                           {int64_t(d), dim, out})))
        return failure();
    }
    if (!glsl::isSupported(type.getElementType()))
      return ctx.emitError() << "element type " << type.getElementType()
                             << " is not supported by GPU kernels";
    bool single = type.hasStaticShape() && type.getNumElements() == 1;
    // One integer the host program computes: a push constant (checked at
    // run time to fit), no memory and no kernel to write it.
    if (single && isa<IntegerType>(type.getElementType()) &&
        ctx.hasShapeValue(outerInputs[i])) {
      Size element = (*ctx.getShapeValue(outerInputs[i]))[0];
      writer.bind(input, glsl::computeType(type.getElementType()) + "(" +
                             sizes.getInt(element) + ")");
      continue;
    }
    unsigned binding = bindings.size();
    std::string name = fmt::format("in{}", binding);
    decls +=
        glsl::buffer(binding, gpu::Access::Read, type.getElementType(), name);
    // Inputs of the result's dims read element i; others need the output's
    // coordinates.
    ArrayRef<Size> dims = inputDims[i];
    bool same = dims.size() == outDims.size() &&
                llvm::all_of(llvm::seq<size_t>(0, dims.size()), [&](size_t d) {
                  return dims[d].isSameAs(outDims[d]);
                });
    needCoordinates |= !same && !single;
    vectorInputs.push_back(same && !single);
    inputTypes.push_back(type.getElementType());
    vectorizable &=
        single || (same && !vectorType(type.getElementType()).empty());
    std::string index = same ? "i" : sizes.broadcastIndex(dims, rank, "c");
    std::string var = fmt::format("x{}", binding);
    loads +=
        fmt::format("  {} {} = {};\n", glsl::computeType(type.getElementType()),
                    var, glsl::load(type.getElementType(), name, index));
    writer.bind(input, var);
    Value view = ctx.getView(outerInputs[i]);
    if (!view)
      return failure();
    bindings.push_back(view);
  }
  unsigned maxBindings = ctx.getTarget().maxPerStageDescriptorStorageBuffers;
  if (bindings.size() + 1 > maxBindings)
    return ctx.emitError() << "needs " << bindings.size() + 1
                           << " storage buffers, more than the target's "
                           << maxBindings;
  unsigned numInputs = bindings.size();
  decls += glsl::buffer(numInputs, gpu::Access::Write,
                        resultType.getElementType(), "result");
  bindings.push_back(output);

  for (Operation *op : ops)
    if (failed(writer.emit(op)))
      return failure();
  std::string value = writer.get(innerResult);
  if (value.empty())
    return failure();

  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = kernelName(ops);
  spec.bindings.assign(numInputs, gpu::Access::Read);
  spec.bindings.push_back(gpu::Access::Write);
  spec.workgroupSize = {wg, 1, 1};
  // The output elements each invocation writes.
  int64_t perInvocation = 1;
  if (vectorizable) {
    // Before the declaration: the count may add a push constant, and the
    // operands of `+` are evaluated in no set order (GCC happened to take
    // the count first, clang the declaration, which then lacked it).
    std::string countText = sizes.get(count);
    spec.glsl =
        glsl::header({wg, 1, 1}) + sizes.declaration() +
        glsl::helpers(writer.code) +
        vectorMain(inputTypes, vectorInputs, resultType.getElementType(),
                   writer.code, value, count, countText, wg);
    perInvocation = kVectorsPerInvocation * 4;
  } else {
    std::string main =
        fmt::format("void main() {{\n"
                    "  uint i = gl_GlobalInvocationID.x;\n"
                    "  if (i >= {}) return;\n",
                    sizes.get(count)) +
        (needCoordinates ? sizes.unflatten(outDims, "i", "c") : std::string()) +
        loads + writer.code + "  " +
        glsl::store(resultType.getElementType(), "result", "i", value) +
        "\n}\n";
    spec.glsl = glsl::header({wg, 1, 1}) + sizes.declaration() + decls +
                glsl::helpers(writer.code) + main;
  }
  sizes.dispatch(spec, count, bindings, perInvocation);
  return success();
}

/// A single elementwise op: its non-splat operands are the inputs.
static LogicalResult lowerSingle(Operation *op, LoweringContext &ctx) {
  // Expand's shape, where it is not a constant, is a shape value.
  SmallVector<SmallVector<Size>> shapes;
  if (op->getName().getStringRef() == "onnx.Expand" &&
      !onnx::getConstantValue(op->getOperand(1))) {
    std::optional<SmallVector<Size>> shape =
        ctx.getShapeValue(op->getOperand(1));
    if (!shape)
      return ctx.emitError() << "operand 'shape' must be computable on the "
                                "host (from constants, shapes and "
                                "arguments) to lower the op";
    shapes.push_back(*shape);
  }
  SmallVector<Value> inputs;
  for (Value operand : op->getOperands()) {
    if (onnx::isNoValue(operand) || !splatLiteral(operand).empty())
      continue;
    if (op->getName().getStringRef() == "onnx.Expand" &&
        operand == op->getOperand(1))
      continue;
    if (!llvm::is_contained(inputs, operand))
      inputs.push_back(operand);
  }
  return lowerTree(ctx, {op}, inputs, inputs, op->getResult(0),
                   op->getResult(0), shapes);
}

/// A fused group whose body starts with `contraction` (after the constants
/// cloned into it): the contraction's kernel computes the fused op's result,
/// evaluating `ops` (the rest of the body) on each element it stores.
static LogicalResult lowerFusedContraction(Operation *op,
                                           Operation *contraction,
                                           ArrayRef<Operation *> ops,
                                           LoweringContext &ctx) {
  Block &body = op->getRegion(0).front();
  // The contraction's generator asks for the memory of the body's values.
  for (auto [arg, outer] : llvm::zip(body.getArguments(), op->getOperands())) {
    // In half precision, a product binds an f16 copy of a constant operand
    // (getProductOperand): the f32 constant is placed only if read.
    if (ctx.getProductType() && onnx::getConstantValue(outer)) {
      ctx.mapLazily(arg, outer);
      continue;
    }
    Value view = ctx.getView(outer);
    if (!view)
      return failure();
    ctx.map(arg, view);
    if (auto type = dyn_cast<RankedTensorType>(outer.getType());
        type && !type.hasStaticShape()) {
      SmallVector<Size> dims = ctx.getDims(outer);
      if (dims.empty())
        return failure();
      ctx.setDims(arg, dims);
    }
  }
  if (failed(checkElementTypes(ops, ctx)))
    return failure();

  GemmEpilogue epilogue;
  epilogue.result = op->getResult(0);
  SmallVector<Value> args;
  for (Operation *inner : ops)
    for (Value operand : inner->getOperands())
      if (operand.getParentBlock() == &body && !operand.getDefiningOp() &&
          !llvm::is_contained(args, operand))
        args.push_back(operand);
  for (auto [i, arg] : llvm::enumerate(args))
    epilogue.inputs.push_back(
        {fmt::format("e{}", i), elementTypeOf(arg), ctx.getView(arg)});

  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Value contractionResult = contraction->getResult(0);
  Value innerResult = body.back().getOperand(0);
  std::optional<AxisMaps> maps = mapAxes(ops, innerResult);
  if (!maps)
    return ctx.emitError() << "reads a value along two different axes of "
                              "its result";
  epilogue.write = [&, args](StringRef value, StringRef index,
                             KernelSizes &sizes, ArrayRef<Size> resultDims,
                             std::string &code) -> std::string {
    ExpressionWriter writer(ctx);
    writer.bind(contractionResult, value.str());
    unsigned rank = resultType.getRank();
    std::string loads;
    bool needCoordinates = false;
    for (auto [i, arg] : llvm::enumerate(args)) {
      auto type = cast<RankedTensorType>(arg.getType());
      SmallVector<Size> dims = ctx.getDims(arg);
      if (dims.empty() && type.getRank() != 0)
        return {};
      if (auto map = maps->find(arg); map != maps->end())
        dims = alignDims(dims, map->second, rank);
      bool same =
          dims.size() == resultDims.size() &&
          llvm::all_of(llvm::seq<size_t>(0, dims.size()), [&](size_t d) {
            return dims[d].isSameAs(resultDims[d]);
          });
      needCoordinates |=
          !same && !(type.hasStaticShape() && type.getNumElements() == 1);
      std::string argIndex =
          same ? index.str() : sizes.broadcastIndex(dims, rank, "eo");
      std::string var = fmt::format("x{}", i);
      loads += fmt::format(
          "  {} {} = {};\n", glsl::computeType(type.getElementType()), var,
          glsl::load(type.getElementType(), fmt::format("e{}", i), argIndex));
      writer.bind(arg, var);
    }
    for (Operation *inner : ops)
      if (failed(writer.emit(inner)))
        return {};
    std::string result = writer.get(innerResult);
    if (result.empty())
      return {};
    if (needCoordinates)
      code += sizes.unflatten(resultDims, index, "eo");
    code += loads + writer.code;
    return result;
  };
  if (isNBitsContraction(contraction))
    return lowerMatMulNBits(contraction, ctx, &epilogue);
  return lowerGemmContraction(contraction, ctx, &epilogue);
}

static LogicalResult lowerFused(Operation *op, LoweringContext &ctx) {
  Block &body = op->getRegion(0).front();
  SmallVector<Operation *> ops;
  for (Operation &inner : body)
    ops.push_back(&inner);
  // Constants cloned into the body come first, then a contraction if
  // onnx-fuse-elementwise moved one in.
  auto first = llvm::find_if(
      ops, [](Operation *inner) { return inner->getNumOperands() != 0; });
  if (first != ops.end() &&
      (isGemmContraction(*first) || isNBitsContraction(*first)))
    return lowerFusedContraction(
        op, *first,
        ArrayRef<Operation *>(ops).drop_front(first - ops.begin() + 1), ctx);
  SmallVector<Value> inner(body.getArguments().begin(),
                           body.getArguments().end());
  SmallVector<Value> outer(op->getOperands().begin(), op->getOperands().end());
  return lowerTree(ctx, ops, inner, outer, body.back().getOperand(0),
                   op->getResult(0));
}

static SmallVector<KernelGenerator> buildTable() {
  SmallVector<KernelGenerator> table;
  // Every one handles dims known only at run time.
  for (const onnx::ElementwiseInfo &row : onnx::getElementwiseInfos())
    table.push_back({row.name, lowerSingle, /*dynamicDims=*/true});
  for (StringRef name : {"onnx.Cast", "onnx.Clip", "onnx.Where", "onnx.Expand"})
    table.push_back({name, lowerSingle, /*dynamicDims=*/true});
  table.push_back(
      {onnx::kFusedElementwiseName, lowerFused, /*dynamicDims=*/true});
  return table;
}

ArrayRef<KernelGenerator> getElementwiseGenerators() {
  static const SmallVector<KernelGenerator> table = buildTable();
  return table;
}

} // namespace onyx::lowering
