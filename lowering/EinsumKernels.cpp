//===- EinsumKernels.cpp - Einsum -----------------------------------------===//
//
// One invocation per output element: its coordinates are the output
// labels' values, nested loops run over the summed labels (sizes baked
// in), and each operand is read at the sum of its labels' values times
// their strides (a label repeated in a term adds its strides: the
// diagonal; a broadcast ellipsis dim of size 1 has stride 0). Sums are in
// the compute type. The shapes must be static.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/KernelGenerator.h"

#include "dialect/onnx/Einsum.h"

#include "ir/Operation.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

LogicalResult lowerEinsum(Operation *op, LoweringContext &ctx) {
  auto yType = cast<RankedTensorType>(op->getResult(0).getType());
  Type et = yType.getElementType();
  if (!glsl::isSupported(et) || et.isInteger(1))
    return ctx.emitError() << "element type " << et
                           << " is not supported by the Einsum kernel";
  unsigned numInputs = op->getNumOperands();
  if (numInputs + 1 > ctx.getTarget().maxPerStageDescriptorStorageBuffers)
    return ctx.emitError() << "has " << numInputs
                           << " operands, more than the target binds";
  SmallVector<int64_t> ranks;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value operand : op->getOperands()) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(operand.getType()).getShape();
    ranks.push_back(shape.size());
    shapes.push_back(shape);
  }
  auto emitError = [&] { return ctx.emitError(); };
  FailureOr<onnx::EinsumEquation> eq = onnx::parseEinsum(
      onnx::OpAttrs(op).getString("equation"), ranks, emitError);
  if (failed(eq))
    return failure();
  FailureOr<SmallVector<int64_t>> sizes = eq->getLabelSizes(shapes, emitError);
  if (failed(sizes))
    return failure();

  Value output = ctx.allocate(yType);
  ctx.setResult(op->getResult(0), output);
  int64_t total = yType.getNumElements();
  if (total == 0)
    return success();
  SmallVector<Value> bindings;
  for (Value operand : op->getOperands()) {
    Value view = ctx.getView(operand);
    if (!view)
      return failure();
    bindings.push_back(view);
  }
  bindings.push_back(output);

  std::string ct = glsl::computeType(et);
  uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
  KernelSpec spec;
  spec.name = "einsum";
  spec.workgroupSize = {wg, 1, 1};
  std::string code = glsl::header(spec.workgroupSize);
  for (unsigned i = 0; i < numInputs; ++i) {
    code += glsl::buffer(i, gpu::Access::Read, et, fmt::format("x{}", i));
    spec.bindings.push_back(gpu::Access::Read);
  }
  code += glsl::buffer(numInputs, gpu::Access::Write, et, "y");
  spec.bindings.push_back(gpu::Access::Write);

  code += fmt::format("void main() {{\n"
                      "  uint o = gl_GlobalInvocationID.x;\n"
                      "  if (o >= {}u) return;\n",
                      total);
  // Output label values, innermost dim last.
  code += "  uint rest = o;\n";
  for (int64_t d = int64_t(eq->output.size()) - 1; d >= 0; --d) {
    unsigned label = eq->output[d];
    code += fmt::format("  uint l{0} = rest % {1}u;\n  rest /= {1}u;\n", label,
                        (*sizes)[label]);
  }
  code += fmt::format("  {} acc = {};\n", ct, glsl::literal(et, 0));
  std::string indent = "  ";
  for (unsigned label : eq->summed) {
    code += fmt::format("{0}for (uint l{1} = 0u; l{1} < {2}u; ++l{1})\n",
                        indent, label, (*sizes)[label]);
    indent += "  ";
  }
  std::string product;
  for (unsigned i = 0; i < numInputs; ++i) {
    // The operand's index: each dim's label value times its stride.
    std::string index;
    int64_t stride = 1;
    for (int64_t d = int64_t(shapes[i].size()) - 1; d >= 0; --d) {
      unsigned label = eq->inputs[i][d];
      if (shapes[i][d] != 1)
        index += fmt::format("{}l{} * {}u", index.empty() ? "" : " + ", label,
                             stride);
      stride *= shapes[i][d];
    }
    if (index.empty())
      index = "0u";
    product += fmt::format("{}{}", product.empty() ? "" : " * ",
                           glsl::load(et, fmt::format("x{}", i), index));
  }
  code += fmt::format("{}acc += {};\n", indent, product);
  code += "  " + glsl::store(et, "y", "o", "acc") + "\n}\n";
  spec.glsl = std::move(code);
  ctx.dispatch(ctx.getOrCreateKernel(spec), {glsl::ceilDiv(total, wg), 1, 1},
               bindings);
  return success();
}

const KernelGenerator generators[] = {{"onnx.Einsum", lowerEinsum}};

} // namespace

ArrayRef<KernelGenerator> getEinsumGenerators() { return generators; }

} // namespace onyx::lowering
