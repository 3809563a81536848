//===- KernelSizes.cpp - Sizes known at compile time or at run time -------===//
#include "lowering/KernelSizes.h"
#include "lowering/Glsl.h"

#include "dialect/gpu/HostOps.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

namespace onyx::lowering {

/// Whether `a` and `b` hold the same value in every run: one value, equal
/// constants, or one host op (gpu.muli, ...) on operands that are. A
/// generator that computes a size such as m * n for each of its kernels
/// then spells it through one push constant: the kernels of one problem
/// share one block of them, which the target limits (128 bytes on many).
static bool isSameHostValue(Value a, Value b, unsigned depth = 0) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || depth > 8 || x->getName() != y->getName())
    return false;
  if (auto cx = dyn_cast<gpu::ConstantOp>(x))
    return cx.getValue() == cast<gpu::ConstantOp>(y).getValue();
  if (!isa<gpu::HostArithOp>(x))
    return false;
  for (auto [u, v] : llvm::zip_equal(x->getOperands(), y->getOperands()))
    if (!isSameHostValue(u, v, depth + 1))
      return false;
  return true;
}

/// The index of `value` in `values` as a field of signedness `sign`,
/// added if it is not there.
static unsigned findOrAdd(SmallVectorImpl<Value> &values,
                          SmallVectorImpl<bool> &isSigned, Value value,
                          bool sign) {
  for (unsigned i = 0; i < values.size(); ++i)
    if (isSameHostValue(values[i], value) && isSigned[i] == sign)
      return i;
  values.push_back(value);
  isSigned.push_back(sign);
  return values.size() - 1;
}

std::string KernelSizes::get(Size size) {
  if (size.isStatic())
    return glsl::uintLiteral(size.constant);
  return fmt::format("pc.s{}", findOrAdd(values, isSigned, size.value, false));
}

std::string KernelSizes::getInt(Size value) {
  if (value.isStatic())
    return fmt::format("int({})", int32_t(value.constant));
  return fmt::format("pc.s{}", findOrAdd(values, isSigned, value.value, true));
}

/// The push-constant block of fields of `isSigned` taken in `order`.
static std::string declare(ArrayRef<bool> isSigned, ArrayRef<unsigned> order) {
  if (order.empty())
    return {};
  std::string fields;
  for (auto [i, old] : llvm::enumerate(order))
    fields += fmt::format(" {} s{};", isSigned[old] ? "int" : "uint", i);
  return fmt::format("layout(push_constant) uniform Sizes {{{} }} pc;\n",
                     fields);
}

static SmallVector<unsigned> identity(unsigned count) {
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < count; ++i)
    order.push_back(i);
  return order;
}

std::string KernelSizes::declaration() const {
  return declare(isSigned, identity(values.size()));
}

/// Renumbers the fields of the push-constant block in `glsl` (which holds
/// the block `declare(isSigned, identity)` once, the text after it naming
/// field i `pc.s<i>`) in the order that text first names them, fields it
/// does not name last; returns the old index of each new field. Generators
/// ask for sizes in the order C++ evaluates their calls, which is
/// unspecified among a call's arguments and the operands of a string `+`:
/// numbered by their place in the text, neither the kernel nor its
/// dispatch depends on the compiler. A text without the block once is left
/// as it is.
static SmallVector<unsigned> renumberByUse(std::string &glsl,
                                           ArrayRef<bool> isSigned) {
  unsigned count = isSigned.size();
  std::string declaration = declare(isSigned, identity(count));
  size_t at = declaration.empty() ? std::string::npos : glsl.find(declaration);
  if (at == std::string::npos ||
      glsl.find(declaration, at + 1) != std::string::npos)
    return identity(count);
  StringRef body = StringRef(glsl).drop_front(at + declaration.size());
  SmallVector<unsigned> order;
  SmallVector<int> newIndex(count, -1);
  std::string renumbered;
  size_t copied = 0;
  for (size_t pos = body.find("pc.s"); pos != StringRef::npos;
       pos = body.find("pc.s", pos + 1)) {
    size_t end = pos + 4;
    while (end < body.size() && llvm::isDigit(body[end]))
      ++end;
    unsigned index;
    if (body.slice(pos + 4, end).getAsInteger(10, index) || index >= count)
      continue;
    if (newIndex[index] < 0) {
      newIndex[index] = order.size();
      order.push_back(index);
    }
    renumbered +=
        body.slice(copied, pos).str() + fmt::format("pc.s{}", newIndex[index]);
    copied = end;
  }
  renumbered += body.drop_front(copied).str();
  for (unsigned i = 0; i < count; ++i)
    if (newIndex[i] < 0)
      order.push_back(i);
  glsl = glsl.substr(0, at) + declare(isSigned, order) + renumbered;
  return order;
}

void KernelSizes::addTo(KernelSpec &spec,
                        SmallVectorImpl<OpFoldResult> &push) const {
  Type u32 = IntegerType::get(ctx.getContext(), 32, IntegerType::Unsigned);
  Type i32 = IntegerType::get(ctx.getContext(), 32);
  for (unsigned old : renumberByUse(spec.glsl, isSigned)) {
    spec.pushConstantTypes.push_back(isSigned[old] ? i32 : u32);
    push.push_back(values[old]);
  }
}

void KernelSizes::dispatch(KernelSpec &spec, Size elements, ValueRange bindings,
                           int64_t perInvocation) const {
  SmallVector<OpFoldResult> push;
  addTo(spec, push);
  KernelRef kernel = ctx.getOrCreateKernel(spec);
  Size workgroups =
      ctx.ceilDiv(elements, int64_t(spec.workgroupSize[0]) * perInvocation);
  ctx.dispatch(kernel, {workgroups, Size(1), Size(1)}, bindings, push);
}

std::string KernelSizes::unflatten(ArrayRef<Size> dims, StringRef flat,
                                   StringRef prefix) {
  std::string code;
  SmallVector<Size> strides = getStrides(ctx, dims);
  std::string rest = fmt::format("({})", flat.str());
  for (unsigned d = 0; d < dims.size(); ++d) {
    std::string name = fmt::format("{}{}", prefix.str(), d);
    if (dims[d].isStatic() && dims[d].constant == 1) {
      code += fmt::format("  uint {} = 0u;\n", name);
      continue;
    }
    if (d == 0)
      code +=
          fmt::format("  uint {} = {} / {};\n", name, rest, get(strides[d]));
    else {
      // The push constants in a set order (the last first), not in the
      // compiler's order of evaluating a call's arguments.
      std::string dim = get(dims[d]);
      code += fmt::format("  uint {} = ({} / {}) % {};\n", name, rest,
                          get(strides[d]), dim);
    }
  }
  return code;
}

std::string KernelSizes::broadcastIndex(ArrayRef<Size> inputDims,
                                        unsigned outputRank, StringRef prefix) {
  return broadcastIndex(StridedRead{Value(), SmallVector<Size>(inputDims),
                                    getStrides(ctx, inputDims), Size(0)},
                        outputRank, prefix);
}

std::string KernelSizes::broadcastIndex(const StridedRead &read,
                                        unsigned outputRank, StringRef prefix) {
  ArrayRef<Size> inputDims = read.dims;
  ArrayRef<Size> strides = read.strides;
  unsigned offset = outputRank - inputDims.size();
  std::string expr;
  if (!read.offset.isStatic() || read.offset.constant != 0)
    expr = get(read.offset);
  for (unsigned d = 0; d < inputDims.size(); ++d) {
    if (inputDims[d].isStatic() && inputDims[d].constant == 1)
      continue;
    Size stride = strides[d];
    if (!inputDims[d].isStatic())
      stride = ctx.mul(stride, ctx.broadcastFactor(inputDims[d]));
    if (!expr.empty())
      expr += " + ";
    std::string coord = fmt::format("{}{}", prefix.str(), d + offset);
    expr += stride.isStatic() && stride.constant == 1
                ? coord
                : fmt::format("{} * {}", coord, get(stride));
  }
  return expr.empty() ? "0u" : expr;
}

SmallVector<Size> getStrides(LoweringContext &ctx, ArrayRef<Size> dims) {
  SmallVector<Size> strides(dims.size(), Size(1));
  for (int d = int(dims.size()) - 2; d >= 0; --d)
    strides[d] = ctx.mul(strides[d + 1], dims[d + 1]);
  return strides;
}

Size getNumElements(LoweringContext &ctx, ArrayRef<Size> dims) {
  Size n(1);
  for (Size d : dims)
    n = ctx.mul(n, d);
  return n;
}

FailureOr<SmallVector<Size>> getWindowOutputSizes(LoweringContext &ctx,
                                                  const onnx::OpAttrs &attrs,
                                                  const onnx::WindowGeometry &g,
                                                  ArrayRef<Size> input,
                                                  bool ceilMode) {
  size_t rank = input.size();
  StringRef autoPad = attrs.getString("auto_pad");
  SmallVector<Size> output;
  for (size_t d = 0; d < rank; ++d) {
    // (A size the IR's type leaves `?` may still be a constant here.)
    if (input[d].isStatic() && !ShapedType::isDynamic(g.output[d])) {
      output.push_back(g.output[d]);
      continue;
    }
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
      return ctx.emitError()
             << "needs spatial dimension " << uint64_t(d)
             << " known when it is compiled with auto_pad " << autoPad
             << " (its padding depends on the size); bind it with --bind-dims";
    // VALID pads nothing; NOTSET pads as the attribute says.
    int64_t pads = autoPad == "VALID" ? 0 : g.pads[d] + g.pads[rank + d];
    int64_t begin = autoPad == "VALID" ? 0 : g.pads[d];
    int64_t extent = g.dilations[d] * (g.kernel[d] - 1) + 1;
    Size span = ctx.sub(ctx.arith("gpu.addi", input[d], pads), extent);
    if (failed(ctx.check(
            ctx.arith("gpu.lei", 0, span),
            fmt::format("window of size {} does not fit spatial dimension {} "
                        "of size {{0}} with its padding",
                        extent, d),
            {input[d]})))
      return failure();
    Size steps = ceilMode ? ctx.ceilDiv(span, g.strides[d])
                          : ctx.floorDiv(span, g.strides[d]);
    Size out = ctx.arith("gpu.addi", steps, 1);
    // In ceil mode the last window must start inside the input or the
    // begin padding, not in the end padding.
    if (ceilMode) {
      // One statement per host op: the order of a call's arguments is
      // unspecified, and the IR must not depend on the compiler.
      Size lastStart = ctx.mul(steps, g.strides[d]);
      Size inputEnd = ctx.arith("gpu.addi", input[d], begin);
      out = ctx.sub(out, ctx.arith("gpu.lei", inputEnd, lastStart));
    }
    output.push_back(out);
  }
  return output;
}

} // namespace onyx::lowering
