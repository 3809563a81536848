//===- ElementwiseKernels.cpp - One kernel per elementwise tree -----------===//
//
// An onnx.FusedElementwise (or a single elementwise op) becomes one kernel
// with one invocation per output element. Each invocation finds its output
// coordinates, loads every input at the coordinates numpy broadcasting maps
// them to, and evaluates the ops of the tree in order, each as the GLSL
// expression of its row in the elementwise table (dialect/onnx/Elementwise.h)
// or, for Cast, Clip, Where and Expand (whose shape may be a shape value of
// the host program, ShapeValues.h), as written here. Intermediate
// results of smaller shapes are recomputed per output element: broadcasting
// composes, so the coordinates of an input are those it takes relative to
// the output, whatever path leads there.
//
// Where no input is broadcast (each is read at the output's index or is a
// single value) and the inputs and the result are 32-bit types, the kernel
// is vectorized instead: the tree becomes a function of one element's
// values and each invocation reads and writes four vec4s (vectorMain).
//
//===----------------------------------------------------------------------===//

#include "lowering/ElementwiseKernels.h"
#include "lowering/BlockQuantizedKernels.h"
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

/// Writes the body of the kernel: one statement per op.
class ExpressionWriter {
public:
  ExpressionWriter(LoweringContext &ctx) : ctx(ctx) {}

  /// Makes `value` available under `name` (a compute-type expression).
  void bind(Value value, std::string name) { names[value] = std::move(name); }
  /// The expression of `value`: a bound name, or a literal for a splat
  /// constant. Empty after reporting an error.
  std::string get(Value value);
  LogicalResult emit(Operation *op);

  std::string code;

private:
  std::string define(Value result, const std::string &expr);
  LogicalResult emitRow(Operation *op, const onnx::ElementwiseInfo &row);

  LoweringContext &ctx;
  llvm::DenseMap<Value, std::string> names;
  unsigned counter = 0;
};

} // namespace

static Type elementTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// The value of a one-element or splat constant as a literal; empty if
/// `value` is not one.
static std::string splatLiteral(Value value) {
  DenseElementsAttr attr = onnx::getConstantValue(value);
  if (!attr || !(attr.isSplat() || attr.getNumElements() == 1))
    return {};
  std::optional<onnx::Tensor> t = onnx::Tensor::fromAttr(attr);
  if (!t)
    return {};
  Type type = attr.getElementType();
  if (glsl::isFloat(type))
    return glsl::literal(type, t->getDouble(0));
  return glsl::integerLiteral(type, t->getInt(0));
}

std::string ExpressionWriter::get(Value value) {
  auto it = names.find(value);
  if (it != names.end())
    return it->second;
  std::string literal = splatLiteral(value);
  if (literal.empty())
    ctx.emitError() << "elementwise operand has no value in the kernel";
  return literal;
}

std::string ExpressionWriter::define(Value result, const std::string &expr) {
  Type type = elementTypeOf(result);
  std::string name = fmt::format("v{}", counter++);
  std::string typeName = glsl::computeType(type);
  // `precise` keeps results bit-identical to the reference: no FMA
  // contraction or reassociation.
  code += fmt::format("  {}{} {} = {}({});\n",
                      glsl::isFloat(type) ? "precise " : "", typeName, name,
                      typeName, expr);
  names[result] = name;
  return name;
}

/// `$name` in a row's expression: the attribute's value (schema default
/// applied) as GLSL text.
static std::string attributeText(Operation *op, StringRef name,
                                 Type computeAs) {
  onnx::OpAttrs attrs(op);
  const onnx::AttrSpec *spec = attrs.getSchema().lookupAttribute(name);
  if (!spec)
    return {};
  switch (spec->type) {
  case onnx::AttrType::Float:
    return glsl::literal(computeAs, attrs.getFloat(name));
  case onnx::AttrType::Int:
    return std::to_string(attrs.getInt(name));
  case onnx::AttrType::String:
    return attrs.getString(name).str();
  default:
    return {};
  }
}

/// Replaces `$0`, `$1` and `$name` in `pattern`.
static std::string substitute(StringRef pattern, ArrayRef<std::string> args,
                              Operation *op, Type computeAs) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '$') {
      out += pattern[i];
      continue;
    }
    size_t j = i + 1;
    if (j < pattern.size() && isdigit(pattern[j])) {
      out += "(" + args[pattern[j] - '0'] + ")";
      i = j;
      continue;
    }
    while (j < pattern.size() && (isalnum(pattern[j]) || pattern[j] == '_'))
      ++j;
    out += attributeText(op, pattern.slice(i + 1, j), computeAs);
    i = j - 1;
  }
  return out;
}

LogicalResult ExpressionWriter::emitRow(Operation *op,
                                        const onnx::ElementwiseInfo &row) {
  SmallVector<std::string> args;
  for (Value operand : op->getOperands()) {
    args.push_back(get(operand));
    if (args.back().empty())
      return failure();
  }
  Type computeAs = elementTypeOf(op->getOperand(0));
  // GLSL's pow takes floats only (no double or integer overloads), and
  // integers do not convert to float implicitly when 64 bits wide.
  if (row.name == "onnx.Pow")
    for (std::string &arg : args)
      arg = "float(" + arg + ")";
  if (row.arity != 0) {
    define(op->getResult(0), substitute(row.shader, args, op, computeAs));
    return success();
  }
  // Variadic: fold left to right; Mean divides by the count.
  // Each step is a variable of its own: expressions may name an operand
  // several times, so pasting the running result would grow
  // exponentially with the operand count.
  Type resultType = elementTypeOf(op->getResult(0));
  std::string typeName = glsl::computeType(resultType);
  std::string acc = args[0];
  for (unsigned i = 1; i < args.size(); ++i) {
    std::string step = substitute(row.shader, {acc, args[i]}, op, computeAs);
    if (i + 1 == args.size()) {
      acc = step;
      break;
    }
    acc = fmt::format("v{}", counter++);
    code += fmt::format("  {}{} {} = {}({});\n",
                        glsl::isFloat(resultType) ? "precise " : "", typeName,
                        acc, typeName, step);
  }
  if (row.name == "onnx.Mean")
    acc = fmt::format("({}) / {}", acc,
                      glsl::literal(computeAs, double(args.size())));
  define(op->getResult(0), acc);
  return success();
}

LogicalResult ExpressionWriter::emit(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == "onnx.Constant" || name == onnx::kYieldName)
    return success();
  if (const onnx::ElementwiseInfo *row = onnx::lookupElementwiseInfo(name))
    return emitRow(op, *row);
  auto arg = [&](unsigned i) { return get(op->getOperand(i)); };
  if (name == "onnx.Cast") {
    std::string x = arg(0);
    if (x.empty())
      return failure();
    Type from = elementTypeOf(op->getOperand(0));
    Type to = elementTypeOf(op->getResult(0));
    std::string converted = glsl::convert(from, to, x);
    // Narrow floats round here, so that later ops see the rounded value.
    if (to.isF16() && !from.isF16())
      converted =
          "unpackHalf2x16(packHalf2x16(vec2(" + converted + ", 0.0))).x";
    else if (to.isBF16() && !from.isBF16())
      converted = "uintBitsToFloat((floatBitsToUint(" + converted +
                  ") + 0x7fffu + ((floatBitsToUint(" + converted +
                  ") >> 16) & 1u)) & 0xffff0000u)";
    define(op->getResult(0), converted);
    return success();
  }
  if (name == "onnx.Clip") {
    std::string x = arg(0);
    if (x.empty())
      return failure();
    std::string expr = x;
    if (op->getNumOperands() > 1 && !onnx::isNoValue(op->getOperand(1))) {
      std::string lo = arg(1);
      if (lo.empty())
        return failure();
      expr = fmt::format("max({}, {})", expr, lo);
    }
    if (op->getNumOperands() > 2 && !onnx::isNoValue(op->getOperand(2))) {
      std::string hi = arg(2);
      if (hi.empty())
        return failure();
      expr = fmt::format("min({}, {})", expr, hi);
    }
    define(op->getResult(0), expr);
    return success();
  }
  if (name == "onnx.Where") {
    std::string c = arg(0), a = arg(1), b = arg(2);
    if (c.empty() || a.empty() || b.empty())
      return failure();
    define(op->getResult(0), fmt::format("({}) ? ({}) : ({})", c, a, b));
    return success();
  }
  if (name == "onnx.Expand" || name == "onnx.Identity" ||
      name == "onnx.Dropout") {
    std::string x = arg(0);
    if (x.empty())
      return failure();
    names[op->getResult(0)] = x;
    return success();
  }
  return ctx.emitError() << "'" << name
                         << "' cannot be part of an elementwise kernel";
}

bool isFusibleElementwise(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  if (onnx::lookupElementwiseInfo(name))
    return true;
  if (name == "onnx.Expand")
    return onnx::getConstantValue(op->getOperand(1)) != nullptr;
  return name == "onnx.Cast" || name == "onnx.Clip" || name == "onnx.Where";
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
/// read `inputs` (the values bound to the kernel, one binding each).
/// `shapes` are the shapes of Expand ops known only at run time (shape
/// values), which the result's dims broadcast from as from the inputs'.
static LogicalResult lowerTree(LoweringContext &ctx, ArrayRef<Operation *> ops,
                               ArrayRef<Value> kernelInputs,
                               ArrayRef<Value> outerInputs, Value innerResult,
                               Value outerResult,
                               ArrayRef<SmallVector<Size>> shapes = {}) {
  auto resultType = cast<RankedTensorType>(outerResult.getType());
  unsigned rank = resultType.getRank();
  // Each input's dims, and the output's: a `?` of the result is the largest
  // of the inputs' dims it broadcasts from (numpy's rule, dims of 1 aside).
  SmallVector<SmallVector<Size>> inputDims;
  for (Value input : outerInputs) {
    inputDims.push_back(ctx.getDims(input));
    if (inputDims.back().size() !=
        size_t(cast<RankedTensorType>(input.getType()).getRank()))
      return failure();
  }
  llvm::append_range(inputDims, shapes);
  SmallVector<Size> outDims;
  for (auto [d, dim] : llvm::enumerate(resultType.getShape())) {
    if (!ShapedType::isDynamic(dim)) {
      outDims.push_back(dim);
      continue;
    }
    Size size(1);
    for (ArrayRef<Size> dims : inputDims)
      if (d + dims.size() >= rank)
        size = ctx.max(size, dims[d + dims.size() - rank]);
    outDims.push_back(size);
  }
  Size count = getNumElements(ctx, outDims);
  Value output = ctx.allocate(resultType, outDims);
  ctx.setResult(outerResult, output);
  if (count.isStatic() && count.constant == 0)
    return success();
  unsigned maxBindings = ctx.getTarget().maxPerStageDescriptorStorageBuffers;
  if (kernelInputs.size() + 1 > maxBindings)
    return ctx.emitError() << "needs " << kernelInputs.size() + 1
                           << " storage buffers, more than the target's "
                           << maxBindings;

  for (Operation *op : ops)
    for (Value v : op->getResults())
      if (auto t = dyn_cast<RankedTensorType>(v.getType());
          t && !glsl::isSupported(t.getElementType()))
        return ctx.emitError() << "element type " << t.getElementType()
                               << " is not supported by GPU kernels";

  ExpressionWriter writer(ctx);
  KernelSizes sizes(ctx);
  std::string decls, loads;
  bool needCoordinates = false;
  // Whether every input is read at the output's index (or is one value)
  // and all of them and the result are stored as 32-bit words: then each
  // invocation reads and writes vec4s (see vectorMain).
  bool vectorizable =
      ctx.getTarget().minStorageBufferOffsetAlignment % 16 == 0 &&
      !vectorType(resultType.getElementType()).empty();
  SmallVector<bool> vectorInputs;
  SmallVector<Value> bindings;
  auto sameSize = [](Size a, Size b) {
    return a.isStatic() == b.isStatic() &&
           (a.isStatic() ? a.constant == b.constant : a.value == b.value);
  };
  for (auto [i, input] : llvm::enumerate(kernelInputs)) {
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
    std::string name = fmt::format("in{}", i);
    decls += glsl::buffer(i, gpu::Access::Read, type.getElementType(), name);
    // Inputs of the result's dims read element i; others need the output's
    // coordinates.
    ArrayRef<Size> dims = inputDims[i];
    bool same = dims.size() == outDims.size() &&
                llvm::all_of(llvm::seq<size_t>(0, dims.size()), [&](size_t d) {
                  return sameSize(dims[d], outDims[d]);
                });
    bool single = type.hasStaticShape() && type.getNumElements() == 1;
    needCoordinates |= !same && !single;
    vectorInputs.push_back(same && !single);
    vectorizable &=
        single || (same && !vectorType(type.getElementType()).empty());
    std::string index = same ? "i" : sizes.broadcastIndex(dims, rank, "c");
    std::string var = fmt::format("x{}", i);
    loads +=
        fmt::format("  {} {} = {};\n", glsl::computeType(type.getElementType()),
                    var, glsl::load(type.getElementType(), name, index));
    writer.bind(input, var);
    Value view = ctx.getView(outerInputs[i]);
    if (!view)
      return failure();
    bindings.push_back(view);
  }
  unsigned outBinding = kernelInputs.size();
  decls += glsl::buffer(outBinding, gpu::Access::Write,
                        resultType.getElementType(), "result");
  bindings.push_back(output);

  for (Operation *op : ops)
    if (failed(writer.emit(op)))
      return failure();
  std::string value = writer.get(innerResult);
  if (value.empty())
    return failure();

  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  if (vectorizable) {
    SmallVector<Type> inputTypes;
    for (Value input : kernelInputs)
      inputTypes.push_back(elementTypeOf(input));
    // Before the declaration: the count may add a push constant, and the
    // operands of `+` are evaluated in no set order (GCC happened to take
    // the count first, clang the declaration, which then lacked it).
    std::string countText = sizes.get(count);
    KernelSpec spec;
    spec.name = kernelName(ops);
    spec.glsl =
        glsl::header({wg, 1, 1}) + sizes.declaration() +
        glsl::helpers(writer.code) +
        vectorMain(inputTypes, vectorInputs, resultType.getElementType(),
                   writer.code, value, count, countText, wg);
    for (unsigned i = 0; i < kernelInputs.size(); ++i)
      spec.bindings.push_back(gpu::Access::Read);
    spec.bindings.push_back(gpu::Access::Write);
    spec.workgroupSize = {wg, 1, 1};
    SmallVector<OpFoldResult> push;
    sizes.addTo(spec, push);
    KernelRef kernel = ctx.getOrCreateKernel(spec);
    int64_t perGroup = int64_t(wg) * kVectorsPerInvocation * 4;
    if (count.isStatic() && !sizes.isDynamic())
      ctx.dispatch(kernel, {glsl::ceilDiv(count.constant, perGroup), 1, 1},
                   bindings);
    else
      ctx.dispatch(kernel, {ctx.ceilDiv(count, perGroup), 1, 1}, bindings,
                   push);
    return success();
  }
  std::string main =
      fmt::format("void main() {{\n"
                  "  uint i = gl_GlobalInvocationID.x;\n"
                  "  if (i >= {}) return;\n",
                  sizes.get(count)) +
      (needCoordinates ? sizes.unflatten(outDims, "i", "c") : std::string()) +
      loads + writer.code + "  " +
      glsl::store(resultType.getElementType(), "result", "i", value) + "\n}\n";
  KernelSpec spec;
  spec.name = kernelName(ops);
  spec.glsl = glsl::header({wg, 1, 1}) + sizes.declaration() + decls +
              glsl::helpers(writer.code) + main;
  for (unsigned i = 0; i < kernelInputs.size(); ++i)
    spec.bindings.push_back(gpu::Access::Read);
  spec.bindings.push_back(gpu::Access::Write);
  spec.workgroupSize = {wg, 1, 1};
  SmallVector<OpFoldResult> push;
  sizes.addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  if (count.isStatic() && !sizes.isDynamic())
    ctx.dispatch(kernel, {glsl::ceilDiv(count.constant, wg), 1, 1}, bindings);
  else
    ctx.dispatch(kernel, {ctx.ceilDiv(count, int64_t(wg)), 1, 1}, bindings,
                 push);
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
  for (Operation *inner : ops)
    for (Value v : inner->getResults())
      if (auto t = dyn_cast<RankedTensorType>(v.getType());
          t && !glsl::isSupported(t.getElementType()))
        return ctx.emitError() << "element type " << t.getElementType()
                               << " is not supported by GPU kernels";

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
