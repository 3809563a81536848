//===- DispatchOp.cpp - gpu.dispatch --------------------------------------===//
//
//   gpu.dispatch @kernel[64, 1, 1](%a, %b, %c) push(16 : i32, 0.5 : f32)
//       : !gpu.view<16xf32>, !gpu.view<16xf32>, !gpu.view<16xf32>
//   gpu.dispatch @kernel[%groups, 1, 1](%a, %b, %c) push(%n, 0.5 : f32)
//       : !gpu.view<?xf32>, !gpu.view<?xf32>, !gpu.view<?xf32>
//
// Operands are the bindings, then the index values of the dynamic counts,
// then those of the dynamic push constants; `workgroups` holds
// ShapedType::kDynamic and `push_constants` a UnitAttr where a value stands.
//
//===----------------------------------------------------------------------===//
#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/OpAsmHelpers.h"
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

void DispatchOp::build(OpBuilder &builder, OperationState &state,
                       StringRef kernel, ArrayRef<OpFoldResult> workgroups,
                       ValueRange bindings,
                       ArrayRef<OpFoldResult> pushConstants) {
  assert(workgroups.size() == 3 && "a grid has 3 dimensions");
  state.addOperands(bindings);
  SmallVector<int64_t, 3> counts;
  for (OpFoldResult count : workgroups) {
    if (count.value) {
      state.addOperands(count.value);
      counts.push_back(ShapedType::kDynamic);
    } else {
      counts.push_back(cast<IntegerAttr>(count.attr).getInt());
    }
  }
  SmallVector<Attribute> push;
  for (OpFoldResult value : pushConstants) {
    if (value.value) {
      state.addOperands(value.value);
      push.push_back(UnitAttr::get(builder.getContext()));
    } else {
      push.push_back(value.attr);
    }
  }
  state.addAttribute(kKernel, SymbolRefAttr::get(builder.getContext(), kernel));
  state.addAttribute(kWorkgroups, builder.getI64ArrayAttr(counts));
  if (!push.empty())
    state.addAttribute(kPushConstants, builder.getArrayAttr(push));
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

SmallVector<int64_t, 3> DispatchOp::getStaticWorkgroupCounts() {
  SmallVector<int64_t, 3> counts;
  for (Attribute a : state->getAttrOfType<ArrayAttr>(kWorkgroups))
    counts.push_back(cast<IntegerAttr>(a).getInt());
  return counts;
}

std::array<uint64_t, 3> DispatchOp::getWorkgroupCounts() {
  SmallVector<int64_t, 3> list = getStaticWorkgroupCounts();
  assert(llvm::none_of(list, ShapedType::isDynamic) && "dynamic grid");
  return {uint64_t(list[0]), uint64_t(list[1]), uint64_t(list[2])};
}

ArrayRef<Attribute> DispatchOp::getPushConstants() {
  if (auto list = state->getAttrOfType<ArrayAttr>(kPushConstants))
    return list.getValue();
  return {};
}

/// Numbers of dynamic counts and dynamic push constants.
static std::pair<unsigned, unsigned> countDynamic(DispatchOp op) {
  unsigned counts = 0, push = 0;
  if (auto list = op->getAttrOfType<ArrayAttr>(kWorkgroups))
    for (Attribute a : list)
      if (auto n = dyn_cast<IntegerAttr>(a);
          n && ShapedType::isDynamic(n.getInt()))
        ++counts;
  for (Attribute a : op.getPushConstants())
    if (isa<UnitAttr>(a))
      ++push;
  return {counts, push};
}

bool DispatchOp::isStatic() {
  auto [counts, push] = countDynamic(*this);
  return counts == 0 && push == 0;
}

OperandRange DispatchOp::getBindings() {
  auto [counts, push] = countDynamic(*this);
  return state->getOperands().drop_back(counts + push);
}
OperandRange DispatchOp::getDynamicWorkgroupCounts() {
  auto [counts, push] = countDynamic(*this);
  return state->getOperands().drop_back(push).take_back(counts);
}
OperandRange DispatchOp::getDynamicPushConstants() {
  auto [counts, push] = countDynamic(*this);
  return state->getOperands().take_back(push);
}

SmallVector<char> DispatchOp::getPushConstantBytes(ArrayRef<int64_t> dynamic) {
  SmallVector<char> bytes;
  unsigned next = 0;
  for (Attribute value : getPushConstants()) {
    uint32_t word;
    if (isa<UnitAttr>(value))
      word = uint32_t(dynamic[next++]);
    else if (auto f = dyn_cast<FloatAttr>(value))
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
    if (isa<UnitAttr>(values[i])) {
      if (!types[i].isInteger())
        return op.emitOpError()
               << "push constant #" << i << " of type " << types[i]
               << " cannot be given by an index value";
      continue;
    }
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
  Value view = op.getBindings()[i];
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
        return n && (ShapedType::isDynamic(n.getInt()) ||
                     (n.getValue().isStrictlyPositive() &&
                      n.getValue().getActiveBits() <= 32));
      }))
    return emitOpError("requires 'workgroups' to be 3 positive 32-bit "
                       "integers or values");
  for (Value v : getDynamicWorkgroupCounts())
    if (!v.getType().isIndex())
      return emitOpError() << "workgroup counts must be of type index, got "
                           << v.getType();
  for (Value v : getDynamicPushConstants())
    if (!v.getType().isIndex())
      return emitOpError() << "push constant values must be of type index, got "
                           << v.getType();
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
  if (getBindings().size() != numBindings)
    return emitOpError() << "kernel @" << getKernelName() << " has "
                         << numBindings << " bindings but "
                         << unsigned(getBindings().size())
                         << " views are bound";
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
  detail::printMixedList(p, '[', getStaticWorkgroupCounts(),
                         getDynamicWorkgroupCounts());
  p << "(";
  p.printOperands(getBindings());
  p << ")";
  ArrayRef<Attribute> pushConstants = getPushConstants();
  if (!pushConstants.empty()) {
    p << " push(";
    OperandRange dynamic = getDynamicPushConstants();
    unsigned next = 0;
    llvm::interleaveComma(pushConstants, p.getStream(), [&](Attribute a) {
      if (isa<UnitAttr>(a))
        p.printOperand(dynamic[next++]);
      else
        p.printAttribute(a);
    });
    p << ")";
  }
  p.printOptionalAttrDict(state->getAttrs(),
                          {kKernel, kWorkgroups, kPushConstants});
  if (!getBindings().empty()) {
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

  SmallVector<int64_t, 3> counts;
  SmallVector<OpAsmParser::UnresolvedOperand, 4> dynamicCounts, dynamicPush;
  if (detail::parseMixedList(parser, '[', 3, counts, dynamicCounts))
    return failure();
  result.addAttribute(kWorkgroups, b.getI64ArrayAttr(counts));

  SmallVector<OpAsmParser::UnresolvedOperand, 4> operands;
  llvm::SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren))
    return failure();

  if (succeeded(parser.parseOptionalKeyword("push"))) {
    // An SSA value's entry is a unit attribute.
    SmallVector<Attribute> values;
    auto entry = [&](const OpAsmParser::UnresolvedOperand *operand) {
      Attribute value = UnitAttr::get(b.getContext());
      if (operand)
        dynamicPush.push_back(*operand);
      else if (parser.parseAttribute(value))
        return failure();
      values.push_back(value);
      return success();
    };
    if (parser.parseLParen() ||
        detail::parseOperandOrOtherList(parser, entry) || parser.parseRParen())
      return failure();
    result.addAttribute(kPushConstants, b.getArrayAttr(values));
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();

  SmallVector<Type, 4> types;
  if (!operands.empty() && parser.parseColonTypeList(types))
    return failure();
  if (parser.resolveOperands(operands, types, operandsLoc, result.operands))
    return failure();
  operands.assign(dynamicCounts.begin(), dynamicCounts.end());
  operands.append(dynamicPush.begin(), dynamicPush.end());
  return parser.resolveOperands(
      operands, SmallVector<Type>(operands.size(), b.getIndexType()),
      operandsLoc, result.operands);
}

} // namespace onyx::gpu
