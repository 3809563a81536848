//===- KernelOp.cpp - gpu.kernel ------------------------------------------===//
//
//   gpu.kernel @name(read, read, write) workgroup_size(64, 1, 1)
//       push_constants(i32) entry_point("main") attributes {...}
//       spirv(dense<"0x..."> : tensor<Nxi32>)
//   gpu.kernel @name(read, write) workgroup_size(64, 1, 1) glsl("#version 450
//   ...")
//
// A kernel holds SPIR-V, or - between kernel generation and shader
// compilation in the lowering pipeline - the GLSL source it is compiled
// from, so that the generated code can be read and tested as text.
// push_constants and entry_point are left out when empty and "main". The
// verifier reads the SPIR-V and checks that it agrees with the declared
// interface and stays within the module's target.
//
//===----------------------------------------------------------------------===//
#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/OpAsmHelpers.h"
#include "dialect/gpu/SpirvReflection.h"
#include "dialect/gpu/Target.h"

#include "ir/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

namespace onyx::gpu {

static constexpr StringRef kEntryPoint = "entry_point";
static constexpr StringRef kBindings = "bindings";
static constexpr StringRef kWorkgroupSize = "workgroup_size";
static constexpr StringRef kPushConstants = "push_constants";
static constexpr StringRef kSpirv = "spirv";
static constexpr StringRef kGlsl = "glsl";

StringRef stringifyAccess(Access access) {
  switch (access) {
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "read_write";
  }
  llvm_unreachable("unknown access");
}

std::optional<Access> symbolizeAccess(StringRef name) {
  for (Access a : {Access::Read, Access::Write, Access::ReadWrite})
    if (name == stringifyAccess(a))
      return a;
  return std::nullopt;
}

/// Push constants are 32-bit scalars; see the contract in GpuOps.h.
static bool isPushConstantType(Type type) {
  return type.isF32() || type.isInteger(32);
}

/// The attributes of the interface, shared by both builders.
static void buildInterface(OpBuilder &builder, OperationState &state,
                           StringRef name, ArrayRef<Access> bindings,
                           std::array<uint32_t, 3> workgroupSize,
                           ArrayRef<Type> pushConstantTypes,
                           StringRef entryPoint) {
  state.addAttribute("sym_name", builder.getStringAttr(name));
  state.addAttribute(kEntryPoint, builder.getStringAttr(entryPoint));
  SmallVector<Attribute> accesses;
  for (Access a : bindings)
    accesses.push_back(builder.getStringAttr(stringifyAccess(a)));
  state.addAttribute(kBindings, builder.getArrayAttr(accesses));
  state.addAttribute(kWorkgroupSize, builder.getI64ArrayAttr(
                                         {workgroupSize[0], workgroupSize[1],
                                          workgroupSize[2]}));
  if (!pushConstantTypes.empty()) {
    SmallVector<Attribute> types;
    for (Type t : pushConstantTypes)
      types.push_back(builder.getTypeAttr(t));
    state.addAttribute(kPushConstants, builder.getArrayAttr(types));
  }
}

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     ArrayRef<Access> bindings,
                     std::array<uint32_t, 3> workgroupSize,
                     ArrayRef<Type> pushConstantTypes, ArrayRef<uint32_t> spirv,
                     StringRef entryPoint) {
  buildInterface(builder, state, name, bindings, workgroupSize,
                 pushConstantTypes, entryPoint);
  state.addAttribute(kSpirv, getSpirvAttr(builder.getContext(), spirv));
}

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     ArrayRef<Access> bindings,
                     std::array<uint32_t, 3> workgroupSize,
                     ArrayRef<Type> pushConstantTypes, StringRef glsl) {
  buildInterface(builder, state, name, bindings, workgroupSize,
                 pushConstantTypes, "main");
  state.addAttribute(kGlsl, builder.getStringAttr(glsl));
}

DenseElementsAttr KernelOp::getSpirvAttr(Context *ctx,
                                         ArrayRef<uint32_t> spirv) {
  auto wordsType =
      RankedTensorType::get({int64_t(spirv.size())}, IntegerType::get(ctx, 32));
  return DenseElementsAttr::getFromRawBuffer(
      wordsType, ArrayRef<char>(reinterpret_cast<const char *>(spirv.data()),
                                spirv.size() * sizeof(uint32_t)));
}

void KernelOp::setSpirv(ArrayRef<uint32_t> spirv) {
  state->setAttr(kSpirv, getSpirvAttr(state->getContext(), spirv));
  state->removeAttr(kGlsl);
}

StringRef KernelOp::getSymName() {
  return state->getAttrOfType<StringAttr>("sym_name").getValue();
}
StringRef KernelOp::getEntryPoint() {
  return state->getAttrOfType<StringAttr>(kEntryPoint).getValue();
}
std::array<uint32_t, 3> KernelOp::getWorkgroupSize() {
  auto list = state->getAttrOfType<ArrayAttr>(kWorkgroupSize);
  std::array<uint32_t, 3> size;
  for (unsigned i = 0; i < 3; ++i)
    size[i] = uint32_t(cast<IntegerAttr>(list[i]).getUInt());
  return size;
}
unsigned KernelOp::getNumBindings() {
  return state->getAttrOfType<ArrayAttr>(kBindings).size();
}
Access KernelOp::getBindingAccess(unsigned i) {
  auto list = state->getAttrOfType<ArrayAttr>(kBindings);
  return *symbolizeAccess(cast<StringAttr>(list[i]).getValue());
}
SmallVector<Type> KernelOp::getPushConstantTypes() {
  SmallVector<Type> types;
  if (auto list = state->getAttrOfType<ArrayAttr>(kPushConstants))
    for (Attribute a : list)
      types.push_back(cast<TypeAttr>(a).getValue());
  return types;
}
uint32_t KernelOp::getPushConstantsSize() {
  return 4 * getPushConstantTypes().size();
}
bool KernelOp::hasSpirv() { return state->getAttr(kSpirv) != nullptr; }
StringRef KernelOp::getGlsl() {
  auto glsl = state->getAttrOfType<StringAttr>(kGlsl);
  return glsl ? glsl.getValue() : StringRef();
}
ArrayRef<uint32_t> KernelOp::getSpirv() {
  return state->getAttrOfType<DenseElementsAttr>(kSpirv)
      .getRawValues<uint32_t>();
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

LogicalResult KernelOp::verifyInterface() {
  Operation *op = state;
  if (!op->getAttrOfType<StringAttr>("sym_name"))
    return op->emitOpError("requires a 'sym_name' string attribute");
  auto entry = op->getAttrOfType<StringAttr>(kEntryPoint);
  if (!entry || entry.getValue().empty())
    return op->emitOpError("requires a non-empty 'entry_point' string");
  auto bindings = op->getAttrOfType<ArrayAttr>(kBindings);
  if (!bindings)
    return op->emitOpError("requires a 'bindings' array attribute");
  for (Attribute a : bindings) {
    auto name = dyn_cast<StringAttr>(a);
    if (!name || !symbolizeAccess(name.getValue()))
      return op->emitOpError() << "binding access must be 'read', 'write' or "
                                  "'read_write', got "
                               << a;
  }
  auto size = op->getAttrOfType<ArrayAttr>(kWorkgroupSize);
  if (!size || size.size() != 3)
    return op->emitOpError("requires a 'workgroup_size' of 3 integers");
  for (Attribute a : size) {
    auto dim = dyn_cast<IntegerAttr>(a);
    if (!dim || dim.getValue().isNonPositive() ||
        dim.getValue().getActiveBits() > 32)
      return op->emitOpError("workgroup sizes must be positive 32-bit "
                             "integers");
  }
  if (Attribute pc = op->getAttr(kPushConstants)) {
    auto list = dyn_cast<ArrayAttr>(pc);
    if (!list)
      return op->emitOpError("requires 'push_constants' to be an array of "
                             "types");
    for (Attribute a : list) {
      auto type = dyn_cast<TypeAttr>(a);
      if (!type || !isPushConstantType(type.getValue()))
        return op->emitOpError() << "push constants must be 32-bit scalars "
                                    "(i32, si32, ui32, f32), got "
                                 << a;
    }
  }
  bool hasGlsl = op->getAttr(kGlsl) != nullptr;
  if (hasGlsl && !op->getAttrOfType<StringAttr>(kGlsl))
    return op->emitOpError("requires 'glsl' to be a string");
  if (hasGlsl == (op->getAttr(kSpirv) != nullptr))
    return op->emitOpError("requires exactly one of 'spirv' and 'glsl'");
  if (hasGlsl)
    return success();
  auto spirv = op->getAttrOfType<DenseElementsAttr>(kSpirv);
  if (!spirv || spirv.getType().getRank() != 1 ||
      !spirv.getElementType().isInteger(32) || spirv.isSplat())
    return op->emitOpError("requires 'spirv' to be dense i32 words "
                           "(tensor<Nxi32>)");
  return success();
}

/// Whether `op` is the first kernel of its block: that one reports a
/// malformed target, so that a module with many kernels says it once.
static bool isFirstKernel(Operation *op) {
  Block *block = op->getBlock();
  if (!block)
    return true;
  for (Operation &other : *block)
    if (isa<KernelOp>(&other))
      return &other == op;
  return true;
}

/// The SPIR-V's storage buffers must be bindings 0..N-1 with the declared
/// access.
static LogicalResult verifyBindings(KernelOp kernel, const SpirvInfo &info) {
  unsigned declared = kernel.getNumBindings();
  if (info.bindings.size() != declared)
    return kernel.emitOpError()
           << "declares " << declared << " bindings but its SPIR-V has "
           << unsigned(info.bindings.size()) << " storage buffers";
  for (unsigned i = 0; i < declared; ++i) {
    const SpirvBinding &b = info.bindings[i];
    if (b.binding != i)
      return kernel.emitOpError()
             << "SPIR-V storage buffers must use bindings 0.." << declared - 1
             << ", found binding " << b.binding;
    if (b.nonWritable && b.nonReadable)
      return kernel.emitOpError()
             << "SPIR-V binding " << i << " is neither readable nor writable";
    Access actual = b.nonWritable   ? Access::Read
                    : b.nonReadable ? Access::Write
                                    : Access::ReadWrite;
    Access access = kernel.getBindingAccess(i);
    if (actual != access)
      return kernel.emitOpError()
             << "binding " << i << " is declared '" << stringifyAccess(access)
             << "' but its SPIR-V is '" << stringifyAccess(actual)
             << "' (readonly is 'read', writeonly is 'write')";
  }
  return success();
}

static LogicalResult verifyAgainstTarget(KernelOp kernel, const SpirvInfo &info,
                                         const TargetDesc &target) {
  for (uint32_t capability : info.capabilities) {
    CapabilityRequirement req = getCapabilityRequirement(capability);
    if (!req.known)
      return kernel.emitOpError()
             << "SPIR-V uses capability " << capability
             << ", which onyx does not know how to check on a device";
    if (req.feature && !target.features.contains(*req.feature))
      return kernel.emitOpError()
             << "SPIR-V uses capability " << capability << ", which needs "
             << "feature '" << getFeatureName(*req.feature)
             << "' that the module's target does not list";
  }
  if (kernel.getNumBindings() > target.maxPerStageDescriptorStorageBuffers)
    return kernel.emitOpError()
           << "binds " << kernel.getNumBindings()
           << " storage buffers, more than the target's "
              "max_per_stage_descriptor_storage_buffers ("
           << target.maxPerStageDescriptorStorageBuffers << ")";
  std::array<uint32_t, 3> size = kernel.getWorkgroupSize();
  uint64_t invocations = uint64_t(size[0]) * size[1] * size[2];
  if (invocations > target.maxComputeWorkGroupInvocations)
    return kernel.emitOpError() << "workgroup of " << invocations
                                << " invocations exceeds the target's "
                                   "max_compute_workgroup_invocations ("
                                << target.maxComputeWorkGroupInvocations << ")";
  for (unsigned i = 0; i < 3; ++i)
    if (size[i] > target.maxComputeWorkGroupSize[i])
      return kernel.emitOpError()
             << "workgroup size " << size[i] << " in dimension " << i
             << " exceeds the target's max_compute_workgroup_size ("
             << target.maxComputeWorkGroupSize[i] << ")";
  if (kernel.getPushConstantsSize() > target.maxPushConstantsSize)
    return kernel.emitOpError()
           << "push constants of " << kernel.getPushConstantsSize()
           << " bytes exceed the target's max_push_constants_size ("
           << target.maxPushConstantsSize << ")";
  if (info.sharedMemorySize > target.maxComputeSharedMemorySize)
    return kernel.emitOpError()
           << "SPIR-V declares " << info.sharedMemorySize
           << " bytes of shared memory, more than the target's "
              "max_compute_shared_memory_size ("
           << target.maxComputeSharedMemorySize << ")";
  return success();
}

LogicalResult KernelOp::verify() {
  if (failed(verifyInterface()))
    return failure();
  FailureOr<TargetDesc> target =
      TargetDesc::lookup(state, isFirstKernel(state));
  if (failed(target))
    return failure();
  // Uncompiled GLSL: only the declared interface can be checked.
  if (!hasSpirv())
    return verifyAgainstTarget(*this, SpirvInfo(), *target);

  std::string error;
  FailureOr<SpirvInfo> info = reflectSpirv(getSpirv(), getEntryPoint(), error);
  if (failed(info))
    return emitOpError() << "SPIR-V " << error;
  std::array<uint32_t, 3> size = getWorkgroupSize();
  if (info->localSize != size)
    return emitOpError() << "workgroup_size (" << size[0] << ", " << size[1]
                         << ", " << size[2]
                         << ") does not match the SPIR-V's local size ("
                         << info->localSize[0] << ", " << info->localSize[1]
                         << ", " << info->localSize[2] << ")";
  if (failed(verifyBindings(*this, *info)))
    return failure();
  // A block no code reads is dropped from the SPIR-V (0 bytes): a kernel
  // of static sizes among kernels that share one block of sizes (the
  // one-row GEMV of a product whose rows are known only at run time) is
  // pushed values it does not read, which Vulkan allows.
  if (info->pushConstantSize != getPushConstantsSize() &&
      info->pushConstantSize != 0)
    return emitOpError() << "push constants take " << getPushConstantsSize()
                         << " bytes but the SPIR-V's push-constant block is "
                         << info->pushConstantSize << " bytes";
  return verifyAgainstTarget(*this, *info, *target);
}

//===----------------------------------------------------------------------===//
// Custom form
//===----------------------------------------------------------------------===//

void KernelOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printSymbolName(getSymName());
  p << "(";
  llvm::interleaveComma(
      state->getAttrOfType<ArrayAttr>(kBindings), p.getStream(),
      [&](Attribute a) { p << cast<StringAttr>(a).getValue(); });
  p << ") workgroup_size";
  std::array<uint32_t, 3> size = getWorkgroupSize();
  detail::printIntegerTuple(p, {size[0], size[1], size[2]});
  SmallVector<Type> pushConstants = getPushConstantTypes();
  if (!pushConstants.empty()) {
    p << " push_constants(";
    p.printTypes(pushConstants);
    p << ")";
  }
  if (getEntryPoint() != "main") {
    p << " entry_point(";
    p.printAttribute(state->getAttr(kEntryPoint));
    p << ")";
  }
  p.printOptionalAttrDictWithKeyword(
      state->getAttrs(), {"sym_name", kEntryPoint, kBindings, kWorkgroupSize,
                          kPushConstants, kSpirv, kGlsl});
  if (!hasSpirv()) {
    p << " glsl(";
    p.printAttribute(state->getAttr(kGlsl));
    p << ")";
    return;
  }
  p << " spirv(";
  p.printAttribute(state->getAttr(kSpirv));
  p << ")";
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  StringAttr name;
  if (parser.parseSymbolName(name) || parser.parseLParen())
    return failure();
  result.addAttribute("sym_name", name);

  SmallVector<Attribute> bindings;
  if (failed(parser.parseOptionalRParen())) {
    do {
      llvm::SMLoc loc = parser.getCurrentLocation();
      StringRef keyword;
      if (failed(parser.parseOptionalKeyword(&keyword)) ||
          !symbolizeAccess(keyword))
        return parser.emitError(loc, "expected binding access 'read', "
                                     "'write' or 'read_write'");
      bindings.push_back(b.getStringAttr(keyword));
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRParen())
      return failure();
  }
  result.addAttribute(kBindings, b.getArrayAttr(bindings));

  SmallVector<int64_t, 3> size;
  if (parser.parseKeyword(kWorkgroupSize) ||
      detail::parseIntegerTuple(parser, 3, size))
    return failure();
  result.addAttribute(kWorkgroupSize, b.getI64ArrayAttr(size));

  if (succeeded(parser.parseOptionalKeyword(kPushConstants))) {
    SmallVector<Attribute> types;
    if (parser.parseLParen())
      return failure();
    do {
      Type type;
      if (parser.parseType(type))
        return failure();
      types.push_back(b.getTypeAttr(type));
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRParen())
      return failure();
    result.addAttribute(kPushConstants, b.getArrayAttr(types));
  }

  Attribute entryPoint = b.getStringAttr("main");
  if (succeeded(parser.parseOptionalKeyword(kEntryPoint)) &&
      (parser.parseLParen() || parser.parseAttribute(entryPoint) ||
       parser.parseRParen()))
    return failure();
  result.addAttribute(kEntryPoint, entryPoint);

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  Attribute code;
  StringRef keyword = kSpirv;
  if (succeeded(parser.parseOptionalKeyword(kGlsl)))
    keyword = kGlsl;
  else if (parser.parseKeyword(kSpirv))
    return failure();
  if (parser.parseLParen() || parser.parseAttribute(code) ||
      parser.parseRParen())
    return failure();
  result.addAttribute(keyword, code);
  return success();
}

} // namespace onyx::gpu
