//===- DispatchOp.cpp - gpu.dispatch --------------------------------------===//
//
//   gpu.dispatch @kernel[64, 1, 1](%a, %b, %c) push(16 : i32, 0.5 : f32)
//       : !gpu.view<16xf32>, !gpu.view<16xf32>, !gpu.view<16xf32>
//
//===----------------------------------------------------------------------===//
#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/Target.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"

namespace onyx::gpu {

static constexpr StringRef kKernel = "kernel";
static constexpr StringRef kWorkgroups = "workgroups";
static constexpr StringRef kPushConstants = "push_constants";

void DispatchOp::build(OpBuilder &builder, OperationState &state,
                       StringRef kernel, std::array<uint64_t, 3> workgroups,
                       ValueRange bindings, ArrayRef<Attribute> pushConstants) {
  state.addOperands(bindings);
  state.addAttribute(kKernel, SymbolRefAttr::get(builder.getContext(), kernel));
  state.addAttribute(
      kWorkgroups,
      builder.getI64ArrayAttr({int64_t(workgroups[0]), int64_t(workgroups[1]),
                               int64_t(workgroups[2])}));
  if (!pushConstants.empty())
    state.addAttribute(kPushConstants, builder.getArrayAttr(pushConstants));
}

StringRef DispatchOp::getKernelName() {
  return state->getAttrOfType<SymbolRefAttr>(kKernel)
      .getRootReference()
      .getValue();
}

KernelOp DispatchOp::lookupKernel() {
  auto ref = state->getAttrOfType<SymbolRefAttr>(kKernel);
  if (!ref || !ref.isFlat())
    return KernelOp();
  for (Operation *table = state->getParentOp(); table;
       table = table->getParentOp()) {
    if (!table->hasTrait(OpTrait::SymbolTable) || table->getNumRegions() == 0 ||
        table->getRegion(0).empty())
      continue;
    for (Operation &op : table->getRegion(0).front()) {
      auto name = op.getAttrOfType<StringAttr>("sym_name");
      if (name && name == ref.getRootReference())
        return dyn_cast<KernelOp>(&op);
    }
  }
  return KernelOp();
}

std::array<uint64_t, 3> DispatchOp::getWorkgroupCounts() {
  auto list = state->getAttrOfType<ArrayAttr>(kWorkgroups);
  std::array<uint64_t, 3> counts;
  for (unsigned i = 0; i < 3; ++i)
    counts[i] = cast<IntegerAttr>(list[i]).getUInt();
  return counts;
}

ArrayRef<Attribute> DispatchOp::getPushConstants() {
  if (auto list = state->getAttrOfType<ArrayAttr>(kPushConstants))
    return list.getValue();
  return {};
}

SmallVector<char> DispatchOp::getPushConstantBytes() {
  SmallVector<char> bytes;
  for (Attribute value : getPushConstants()) {
    uint32_t word;
    if (auto f = dyn_cast<FloatAttr>(value))
      word = uint32_t(f.getValue().bitcastToAPInt().getZExtValue());
    else
      word = uint32_t(cast<IntegerAttr>(value).getValue().getZExtValue());
    char le[4];
    llvm::support::endian::write32le(le, word);
    bytes.append(le, le + 4);
  }
  return bytes;
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

static LogicalResult verifyPushConstants(DispatchOp op, KernelOp kernel) {
  ArrayRef<Attribute> values = op.getPushConstants();
  SmallVector<Type> types = kernel.getPushConstantTypes();
  if (values.size() != types.size())
    return op.emitOpError()
           << "passes " << unsigned(values.size())
           << " push constants but kernel @" << kernel.getSymName() << " takes "
           << unsigned(types.size());
  for (unsigned i = 0; i < values.size(); ++i) {
    auto typed = dyn_cast<TypedAttr>(values[i]);
    if (!typed || isa<DenseElementsAttr>(typed) || typed.getType() != types[i])
      return op.emitOpError()
             << "push constant #" << i << " must be a scalar "
             << "of type " << types[i] << ", got " << values[i];
  }
  return success();
}

/// Checks one bound view against the kernel's access and the target.
static LogicalResult verifyBinding(DispatchOp op, unsigned i, Access access,
                                   const TargetDesc *target,
                                   MemoryRange &range) {
  Value view = op->getOperand(i);
  if (!isa<ViewType>(view.getType()))
    return op.emitOpError() << "binding #" << i << " must be a !gpu.view, got "
                            << view.getType();
  std::optional<MemoryRange> found = getMemoryRange(view);
  if (!found && isUnplannedView(view))
    return success();
  if (!found)
    return op.emitOpError()
           << "binding #" << i << " is not a view of a gpu.buffer";
  range = *found;
  if (range.size == 0)
    return op.emitOpError() << "binding #" << i << " is an empty view";
  if (isWritable(access) && range.buffer.getKind() == BufferKind::Weights)
    return op.emitOpError()
           << "binding #" << i << " is '" << stringifyAccess(access)
           << "' but its view is in the weights buffer";
  if (!target)
    return success();
  if (range.offset % target->minStorageBufferOffsetAlignment)
    return op.emitOpError()
           << "binding #" << i << " starts at byte " << range.offset
           << " of its buffer, which is not a multiple of the target's "
              "min_storage_buffer_offset_alignment ("
           << target->minStorageBufferOffsetAlignment << ")";
  if (range.size > target->maxStorageBufferRange)
    return op.emitOpError()
           << "binding #" << i << " spans " << range.size
           << " bytes, more than the target's max_storage_buffer_range ("
           << target->maxStorageBufferRange << ")";
  return success();
}

LogicalResult DispatchOp::verify() {
  auto ref = state->getAttrOfType<SymbolRefAttr>(kKernel);
  if (!ref || !ref.isFlat())
    return emitOpError("requires a flat symbol reference 'kernel'");
  auto counts = state->getAttrOfType<ArrayAttr>(kWorkgroups);
  if (!counts || counts.size() != 3 || !llvm::all_of(counts, [](Attribute a) {
        auto n = dyn_cast<IntegerAttr>(a);
        return n && n.getValue().isStrictlyPositive() &&
               n.getValue().getActiveBits() <= 32;
      }))
    return emitOpError("requires 'workgroups' to be 3 positive 32-bit "
                       "integers");
  if (Attribute pc = state->getAttr(kPushConstants); pc && !isa<ArrayAttr>(pc))
    return emitOpError("requires 'push_constants' to be an array");

  KernelOp kernel = lookupKernel();
  if (!kernel)
    return emitOpError() << "kernel @" << getKernelName()
                         << " is not a gpu.kernel of the enclosing module";
  {
    // The kernel's own verifier reports a malformed interface.
    ScopedDiagnosticCollector quiet(getContext());
    if (failed(kernel.verifyInterface()))
      return failure();
  }
  if (failed(verifyPushConstants(*this, kernel)))
    return failure();

  unsigned numBindings = kernel.getNumBindings();
  if (state->getNumOperands() != numBindings)
    return emitOpError() << "kernel @" << getKernelName() << " has "
                         << numBindings << " bindings but "
                         << state->getNumOperands() << " views are bound";
  // A malformed target is reported by the kernels' verifier.
  FailureOr<TargetDesc> target = TargetDesc::lookup(state, /*report=*/false);
  SmallVector<MemoryRange> ranges(numBindings);
  for (unsigned i = 0; i < numBindings; ++i)
    if (failed(verifyBinding(*this, i, kernel.getBindingAccess(i),
                             succeeded(target) ? &*target : nullptr,
                             ranges[i])))
      return failure();
  // A kernel's invocations run in no particular order, so memory it writes
  // through one binding must not be visible through another.
  for (unsigned i = 0; i < numBindings; ++i)
    for (unsigned j = 0; j < numBindings; ++j)
      if (i != j && isWritable(kernel.getBindingAccess(i)) &&
          ranges[i].overlaps(ranges[j]))
        return emitOpError() << "binding #" << i << " is written and overlaps "
                             << "binding #" << j;
  return success();
}

//===----------------------------------------------------------------------===//
// Custom form
//===----------------------------------------------------------------------===//

void DispatchOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printSymbolName(getKernelName());
  std::array<uint64_t, 3> counts = getWorkgroupCounts();
  p << "[" << std::to_string(counts[0]) << ", " << std::to_string(counts[1])
    << ", " << std::to_string(counts[2]) << "](";
  p.printOperands(getBindings());
  p << ")";
  ArrayRef<Attribute> pushConstants = getPushConstants();
  if (!pushConstants.empty()) {
    p << " push(";
    llvm::interleaveComma(pushConstants, p.getStream(),
                          [&](Attribute a) { p.printAttribute(a); });
    p << ")";
  }
  p.printOptionalAttrDict(state->getAttrs(),
                          {kKernel, kWorkgroups, kPushConstants});
  if (state->getNumOperands()) {
    p << " : ";
    p.printTypes(getBindings().getTypes());
  }
}

ParseResult DispatchOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  StringAttr kernel;
  if (parser.parseSymbolName(kernel))
    return failure();
  result.addAttribute(kKernel,
                      SymbolRefAttr::get(b.getContext(), kernel.getValue()));

  llvm::SMLoc countsLoc = parser.getCurrentLocation();
  Attribute counts;
  if (parser.parseAttribute(counts))
    return failure();
  auto list = dyn_cast<ArrayAttr>(counts);
  if (!list || list.size() != 3 ||
      !llvm::all_of(list, [](Attribute a) { return isa<IntegerAttr>(a); }))
    return parser.emitError(countsLoc, "expected workgroup counts '[x, y, z]'");
  result.addAttribute(kWorkgroups, list);

  SmallVector<OpAsmParser::UnresolvedOperand, 4> operands;
  llvm::SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren))
    return failure();

  if (succeeded(parser.parseOptionalKeyword("push"))) {
    SmallVector<Attribute> values;
    if (parser.parseLParen())
      return failure();
    do {
      Attribute value;
      if (parser.parseAttribute(value))
        return failure();
      values.push_back(value);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRParen())
      return failure();
    result.addAttribute(kPushConstants, b.getArrayAttr(values));
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();

  SmallVector<Type, 4> types;
  if (!operands.empty() && parser.parseColonTypeList(types))
    return failure();
  return parser.resolveOperands(operands, types, operandsLoc, result.operands);
}

} // namespace onyx::gpu
