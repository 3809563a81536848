//===- ShapeValues.cpp - The host shape program of the lowering -----------===//
//
// One row per onnx op the host program evaluates on shape values. Every
// element is exact 64-bit host arithmetic (LoweringContext::arith, folded
// where the operands are constants); an integer Cast keeps the value, so a
// narrowing Cast of a size beyond the narrow type's range is not wrapped.
//
//===----------------------------------------------------------------------===//
#include "lowering/ShapeValues.h"
#include "lowering/DataMovement.h"
#include "lowering/Glsl.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpSchema.h"

#include "llvm/ADT/StringMap.h"

#include <fmt/format.h>

namespace onyx::lowering {

using Elements = SmallVector<Size>;

bool isShapeValueType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getRank() <= 1 &&
         tensor.getElementType().isInteger() &&
         tensor.getNumElements() <= kMaxShapeValueElements;
}

namespace {

using EvaluateFn = std::optional<Elements> (*)(Operation *op,
                                               LoweringContext &ctx);

struct ShapeOpRow {
  StringRef name;
  EvaluateFn evaluate;
  /// Whether the op reads only its operands' dims (Shape, Size), so that
  /// any tensor may be its operand.
  bool readsDimsOnly = false;
};

int64_t getLength(Value value) {
  return cast<RankedTensorType>(value.getType()).getNumElements();
}

/// The elements of every element-wise operand, each as long as the result
/// (numpy broadcasting of lengths 1 and n); nullopt if one is not a shape
/// value.
std::optional<SmallVector<Elements>>
getBroadcastOperands(Operation *op, LoweringContext &ctx) {
  int64_t length = getLength(op->getResult(0));
  SmallVector<Elements> operands;
  for (Value operand : op->getOperands()) {
    std::optional<Elements> e = ctx.getShapeValue(operand);
    if (!e)
      return std::nullopt;
    if (int64_t(e->size()) == length)
      operands.push_back(*e);
    else if (e->size() == 1)
      operands.push_back(Elements(length, (*e)[0]));
    else
      return std::nullopt;
  }
  return operands;
}

/// An element-wise op: `fn` applied to the elements of each position.
template <typename Fn>
std::optional<Elements> elementwise(Operation *op, LoweringContext &ctx,
                                    Fn fn) {
  std::optional<SmallVector<Elements>> operands = getBroadcastOperands(op, ctx);
  if (!operands || operands->empty())
    return std::nullopt;
  Elements result;
  for (int64_t i = 0, e = getLength(op->getResult(0)); i < e; ++i) {
    // `fn` may read the first operand's element without a check.
    SmallVector<Size> at = {operands->front()[i]};
    for (const Elements &operand : ArrayRef(*operands).drop_front())
      at.push_back(operand[i]);
    result.push_back(fn(ctx, ArrayRef<Size>(at)));
  }
  return result;
}

/// A binary op that is one row of the host integer table (`swap`: with its
/// operands swapped, Greater as gpu.lti).
template <const char *Name, bool Swap = false>
std::optional<Elements> binary(Operation *op, LoweringContext &ctx) {
  return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
    return Swap ? ctx.arith(Name, v[1], v[0]) : ctx.arith(Name, v[0], v[1]);
  });
}

/// A variadic op folded left to right (Max, Min, Sum).
template <const char *Name>
std::optional<Elements> variadic(Operation *op, LoweringContext &ctx) {
  return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
    Size r = v[0];
    for (Size s : v.drop_front())
      r = ctx.arith(Name, r, s);
    return r;
  });
}

Size logicalNot(LoweringContext &ctx, Size v) {
  return ctx.arith("gpu.eqi", v, Size(0));
}
Size negate(LoweringContext &ctx, Size v) {
  return ctx.arith("gpu.subi", Size(0), v);
}

constexpr char kAdd[] = "gpu.addi", kSub[] = "gpu.subi", kMul[] = "gpu.muli",
               kDiv[] = "gpu.divi", kMax[] = "gpu.maxi", kMin[] = "gpu.mini",
               kRem[] = "gpu.remi", kEq[] = "gpu.eqi", kLt[] = "gpu.lti",
               kLe[] = "gpu.lei";

std::optional<Elements> evaluateShape(Operation *op, LoweringContext &ctx) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type)
    return std::nullopt;
  SmallVector<Size> dims = ctx.getDims(op->getOperand(0));
  if (dims.size() != size_t(type.getRank()))
    return std::nullopt;
  // The [start, end) range of dimensions, clamped as ShapeOps.cpp does.
  onnx::OpAttrs attrs(op);
  int64_t rank = type.getRank();
  auto clamp = [&](int64_t v) {
    return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank);
  };
  int64_t start = clamp(attrs.getInt("start"));
  int64_t end = attrs.has("end") ? clamp(attrs.getInt("end")) : rank;
  return Elements(dims.begin() + start, dims.begin() + std::max(start, end));
}

std::optional<Elements> evaluateSize(Operation *op, LoweringContext &ctx) {
  if (!isa<RankedTensorType>(op->getOperand(0).getType()))
    return std::nullopt;
  SmallVector<Size> dims = ctx.getDims(op->getOperand(0));
  Size n(1);
  for (Size d : dims)
    n = ctx.mul(n, d);
  return Elements{n};
}

/// Reshape, Squeeze, Unsqueeze, Flatten, Identity, Cast: the same elements.
std::optional<Elements> evaluateSame(Operation *op, LoweringContext &ctx) {
  std::optional<Elements> e = ctx.getShapeValue(op->getOperand(0));
  if (!e || int64_t(e->size()) != getLength(op->getResult(0)))
    return std::nullopt;
  if (op->getName().getStringRef() == "onnx.Cast" &&
      cast<RankedTensorType>(op->getResult(0).getType())
          .getElementType()
          .isInteger(1))
    for (Size &s : *e)
      s = logicalNot(ctx, logicalNot(ctx, s));
  return e;
}

std::optional<Elements> evaluateConcat(Operation *op, LoweringContext &ctx) {
  Elements result;
  for (Value operand : op->getOperands()) {
    std::optional<Elements> e = ctx.getShapeValue(operand);
    if (!e)
      return std::nullopt;
    llvm::append_range(result, *e);
  }
  return result;
}

/// The constant elements of a shape value, where all are known.
std::optional<SmallVector<int64_t>>
getStatic(const std::optional<Elements> &e) {
  if (!e || llvm::any_of(*e, [](Size s) { return !s.isStatic(); }))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (Size s : *e)
    values.push_back(s.constant);
  return values;
}

std::optional<Elements> evaluateGather(Operation *op, LoweringContext &ctx) {
  std::optional<Elements> data = ctx.getShapeValue(op->getOperand(0));
  std::optional<SmallVector<int64_t>> indices =
      getStatic(ctx.getShapeValue(op->getOperand(1)));
  if (!data || !indices ||
      cast<RankedTensorType>(op->getOperand(0).getType()).getRank() != 1)
    return std::nullopt;
  int64_t n = data->size();
  Elements result;
  for (int64_t i : *indices) {
    if (i < -n || i >= n)
      return std::nullopt;
    result.push_back((*data)[i < 0 ? i + n : i]);
  }
  return result;
}

std::optional<Elements> evaluateSlice(Operation *op, LoweringContext &ctx) {
  std::optional<Elements> data = ctx.getShapeValue(op->getOperand(0));
  if (!data)
    return std::nullopt;
  auto operand = [&](unsigned i) -> std::optional<SmallVector<int64_t>> {
    if (op->getNumOperands() <= i || onnx::isNoValue(op->getOperand(i)))
      return SmallVector<int64_t>{};
    return getStatic(ctx.getShapeValue(op->getOperand(i)));
  };
  std::optional<SmallVector<int64_t>> starts = operand(1), ends = operand(2),
                                      axes = operand(3), steps = operand(4);
  if (!starts || !ends || !axes || !steps || starts->size() != 1 ||
      ends->size() != 1 || axes->size() > 1 || steps->size() > 1 ||
      (axes->size() == 1 && (*axes)[0] != 0 && (*axes)[0] != -1))
    return std::nullopt;
  // ONNX's clamping, on the one axis.
  int64_t n = data->size(), step = steps->empty() ? 1 : (*steps)[0];
  int64_t start = (*starts)[0], end = (*ends)[0];
  if (step == 0)
    return std::nullopt;
  if (start < 0)
    start += n;
  if (end < 0)
    end += n;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, n);
    end = std::clamp<int64_t>(end, 0, n);
  } else {
    start = std::clamp<int64_t>(start, 0, n - 1);
    end = std::clamp<int64_t>(end, -1, n - 1);
  }
  Elements result;
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step)
    result.push_back((*data)[i]);
  if (int64_t(result.size()) != getLength(op->getResult(0)))
    return std::nullopt;
  return result;
}

std::optional<Elements> evaluateConstantOfShape(Operation *op,
                                                LoweringContext &) {
  DenseElementsAttr value = onnx::OpAttrs(op).getTensor("value");
  int64_t v = value ? value.getIntValue(0).getSExtValue() : 0;
  return Elements(getLength(op->getResult(0)), Size(v));
}

/// ReduceSum/Max/Min of a shape value over its one axis.
template <const char *Name>
std::optional<Elements> reduce(Operation *op, LoweringContext &ctx) {
  std::optional<Elements> data = ctx.getShapeValue(op->getOperand(0));
  onnx::OpAttrs attrs(op);
  if (!data || data->empty() || getLength(op->getResult(0)) != 1)
    return std::nullopt;
  // Axes (an attribute before opset 18, else an operand) must be the one
  // axis or absent (all axes).
  std::optional<SmallVector<int64_t>> axes = attrs.getInts("axes");
  if (op->getNumOperands() > 1 && !onnx::isNoValue(op->getOperand(1))) {
    axes = getStatic(ctx.getShapeValue(op->getOperand(1)));
    if (!axes)
      return std::nullopt;
  }
  if (axes && !axes->empty() &&
      (axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1)))
    return std::nullopt;
  if (axes && axes->empty() && attrs.has("noop_with_empty_axes") &&
      attrs.getInt("noop_with_empty_axes"))
    return std::nullopt;
  Size r = (*data)[0];
  for (Size s : ArrayRef<Size>(*data).drop_front())
    r = ctx.arith(Name, r, s);
  return Elements{r};
}

constexpr char kReduceSum[] = "gpu.addi";

const ShapeOpRow kShapeOpRows[] = {
    {"onnx.Shape", evaluateShape, true},
    {"onnx.Size", evaluateSize, true},
    {"onnx.ConstantOfShape", evaluateConstantOfShape, true},
    {"onnx.Identity", evaluateSame},
    {"onnx.Reshape", evaluateSame},
    {"onnx.Squeeze", evaluateSame},
    {"onnx.Unsqueeze", evaluateSame},
    {"onnx.Flatten", evaluateSame},
    {"onnx.Cast", evaluateSame},
    {"onnx.Concat", evaluateConcat},
    {"onnx.Gather", evaluateGather},
    {"onnx.Slice", evaluateSlice},
    {"onnx.Add", binary<kAdd>},
    {"onnx.Sub", binary<kSub>},
    {"onnx.Mul", binary<kMul>},
    // ONNX's integer Div truncates toward zero.
    {"onnx.Div", binary<kDiv>},
    {"onnx.Mod",
     [](Operation *op, LoweringContext &ctx) -> std::optional<Elements> {
       // fmod=0 takes the divisor's sign (gpu.remi), fmod=1 the dividend's.
       bool fmod = onnx::OpAttrs(op).getInt("fmod");
       if (!fmod)
         return binary<kRem>(op, ctx);
       return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
         Size q = ctx.arith("gpu.divi", v[0], v[1]);
         return ctx.arith("gpu.subi", v[0], ctx.arith("gpu.muli", q, v[1]));
       });
     }},
    {"onnx.Max", variadic<kMax>},
    {"onnx.Min", variadic<kMin>},
    {"onnx.Sum", variadic<kAdd>},
    {"onnx.Equal", binary<kEq>},
    {"onnx.Less", binary<kLt>},
    {"onnx.LessOrEqual", binary<kLe>},
    {"onnx.Greater", binary<kLt, true>},
    {"onnx.GreaterOrEqual", binary<kLe, true>},
    // Bools are 0 or 1.
    {"onnx.And", binary<kMin>},
    {"onnx.Or", binary<kMax>},
    {"onnx.Xor",
     [](Operation *op, LoweringContext &ctx) -> std::optional<Elements> {
       return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
         return logicalNot(ctx, ctx.arith("gpu.eqi", v[0], v[1]));
       });
     }},
    {"onnx.Not",
     [](Operation *op, LoweringContext &ctx) -> std::optional<Elements> {
       return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
         return logicalNot(ctx, v[0]);
       });
     }},
    {"onnx.Neg",
     [](Operation *op, LoweringContext &ctx) -> std::optional<Elements> {
       return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
         return negate(ctx, v[0]);
       });
     }},
    {"onnx.Abs",
     [](Operation *op, LoweringContext &ctx) -> std::optional<Elements> {
       return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
         // One statement per host op: the order of a call's arguments is
         // unspecified, and the IR must not depend on the compiler.
         Size negated = negate(ctx, v[0]);
         return ctx.select(ctx.arith("gpu.lti", v[0], Size(0)), negated, v[0]);
       });
     }},
    // max(x, 0): what canonicalization makes of a Max with 0 (a Loop's
    // trip count, onnx::foldConditionIntoTripCount).
    {"onnx.Relu",
     [](Operation *op, LoweringContext &ctx) -> std::optional<Elements> {
       return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
         return ctx.atLeast(v[0], 0);
       });
     }},
    {"onnx.Where",
     [](Operation *op, LoweringContext &ctx) -> std::optional<Elements> {
       return elementwise(op, ctx, [](LoweringContext &ctx, ArrayRef<Size> v) {
         return ctx.select(v[0], v[1], v[2]);
       });
     }},
    {"onnx.ReduceSum", reduce<kReduceSum>},
    {"onnx.ReduceMax", reduce<kMax>},
    {"onnx.ReduceMin", reduce<kMin>},
};

const ShapeOpRow *findRow(Operation *op) {
  static const llvm::StringMap<const ShapeOpRow *> table = [] {
    llvm::StringMap<const ShapeOpRow *> table;
    for (const ShapeOpRow &row : kShapeOpRows)
      table[row.name] = &row;
    return table;
  }();
  return table.lookup(op->getName().getStringRef());
}

} // namespace

bool isShapeOp(Operation *op) {
  return findRow(op) && op->getNumResults() == 1 &&
         isShapeValueType(op->getResult(0).getType());
}

bool isEvaluatedOnHost(Operation *op, LoweringContext &ctx) {
  if (!isShapeOp(op))
    return false;
  if (findRow(op)->readsDimsOnly)
    return true;
  bool anyHost = false;
  for (Value operand : op->getOperands()) {
    if (onnx::isNoValue(operand) || onnx::getConstantValue(operand))
      continue;
    if (!ctx.hasShapeValue(operand))
      return false;
    anyHost = true;
  }
  return anyHost;
}

std::optional<SmallVector<Size>> evaluateShapeOp(Operation *op, Value value,
                                                 LoweringContext &ctx) {
  if (!isShapeOp(op) || value != op->getResult(0))
    return std::nullopt;
  return findRow(op)->evaluate(op, ctx);
}

Value materializeShapeValue(LoweringContext &ctx, RankedTensorType type,
                            ArrayRef<Size> elements) {
  unsigned byteSize = datamovement::getByteSize(type.getElementType());
  Value out = ctx.allocate(type);
  if (elements.empty())
    return out;
  // One invocation writes every element: a literal where it is known, else
  // an i32 push constant, sign-extended for 8-byte elements (a size beyond
  // 32 bits is refused by the dispatch at run time).
  std::string fields, body;
  SmallVector<OpFoldResult> push;
  KernelSpec spec;
  spec.name = "shape_value";
  spec.workgroupSize = {1, 1, 1};
  spec.bindings = {gpu::Access::Write};
  Type i32 = IntegerType::get(ctx.getContext(), 32);
  std::string t = datamovement::bitsType(byteSize);
  for (auto [i, e] : llvm::enumerate(elements)) {
    std::string v;
    if (e.isStatic()) {
      v = fmt::format("int({})", int32_t(e.constant));
      if (e.constant != int64_t(int32_t(e.constant)))
        v = fmt::format("int({}u)", uint32_t(e.constant));
    } else {
      v = fmt::format("pc.v{}", push.size());
      fields += fmt::format(" int v{};", push.size());
      spec.pushConstantTypes.push_back(i32);
      push.push_back(e.value);
    }
    std::string bits =
        byteSize == 8
            ? (e.isStatic()
                   ? fmt::format("uvec2({}u, {}u)", uint32_t(e.constant),
                                 uint32_t(uint64_t(e.constant) >> 32))
                   : fmt::format("uvec2(uint({0}), {0} < 0 ? "
                                 "0xffffffffu : 0u)",
                                 v))
            : fmt::format("{}(uint({}))", t, v);
    body += fmt::format("  y.d[{}] = {};\n", i, bits);
  }
  spec.glsl = glsl::header(spec.workgroupSize) +
              datamovement::bitsBuffer(0, gpu::Access::Write, byteSize, "y") +
              (fields.empty() ? std::string()
                              : fmt::format("layout(push_constant) uniform "
                                            "Values {{{} }} pc;\n",
                                            fields)) +
              "void main() {\n" + body + "}\n";
  ctx.dispatch(ctx.getOrCreateKernel(spec), {Size(1), Size(1), Size(1)}, {out},
               push);
  return out;
}

} // namespace onyx::lowering

namespace onyx::lowering {

std::optional<SmallVector<Size>> normalizeAxesAtRunTime(LoweringContext &ctx,
                                                        ArrayRef<Size> axes,
                                                        int64_t rank,
                                                        StringRef what) {
  SmallVector<Size> normalized;
  for (Size axis : axes) {
    // One statement per host op: the order of a call's arguments is
    // unspecified, and the IR must not depend on the compiler.
    Size belowRank = ctx.arith("gpu.lti", axis, rank);
    Size inRange = ctx.mul(ctx.arith("gpu.lei", -rank, axis), belowRank);
    if (failed(ctx.check(inRange,
                         what.str() + " {0} is out of range for rank " +
                             std::to_string(rank),
                         {axis})))
      return std::nullopt;
    Size wrapped = ctx.arith("gpu.addi", axis, rank);
    normalized.push_back(
        ctx.select(ctx.arith("gpu.lti", axis, 0), wrapped, axis));
  }
  return normalized;
}

std::optional<SmallVector<Size>>
getAxisFlags(LoweringContext &ctx, ArrayRef<Size> axes, int64_t rank) {
  SmallVector<Size> flags;
  for (int64_t d = 0; d < rank; ++d) {
    Size count(0);
    for (auto [i, axis] : llvm::enumerate(axes)) {
      Size named = ctx.arith("gpu.eqi", axis, d);
      count = i == 0 ? named : ctx.arith("gpu.addi", count, named);
    }
    if (axes.size() > 1 &&
        failed(ctx.check(ctx.arith("gpu.lei", count, 1),
                         "names dimension {0} {1} times in its axes",
                         {d, count})))
      return std::nullopt;
    flags.push_back(count);
  }
  return flags;
}

SmallVector<Size> selectUnflagged(LoweringContext &ctx, ArrayRef<Size> dims,
                                  ArrayRef<Size> flags, int64_t count) {
  SmallVector<Size> result(count, Size(0));
  // `position` is how many unflagged dims precede dimension d.
  Size position(0);
  for (auto [dim, flag] : llvm::zip(dims, flags)) {
    Size kept = ctx.arith("gpu.subi", 1, flag);
    for (int64_t j = 0; j < count; ++j)
      result[j] = ctx.select(ctx.mul(kept, ctx.arith("gpu.eqi", position, j)),
                             dim, result[j]);
    position = ctx.arith("gpu.addi", position, kept);
  }
  return result;
}

} // namespace onyx::lowering
