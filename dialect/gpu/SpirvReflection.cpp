//===- SpirvReflection.cpp - What a SPIR-V compute module declares --------===//
#include "dialect/gpu/SpirvReflection.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

#include <spirv/unified1/spirv.hpp>

namespace onyx::gpu {

namespace {

struct Decoration {
  uint32_t kind;
  uint32_t value;
};
struct MemberDecoration {
  uint32_t member;
  uint32_t kind;
  uint32_t value;
};
struct Variable {
  uint32_t id;
  uint32_t pointerType;
  uint32_t storageClass;
};

/// One pass over the instructions collects what reflection needs by result
/// id; the queries below then resolve types and decorations.
class Reader {
public:
  explicit Reader(std::string &error) : error(error) {}

  LogicalResult read(ArrayRef<uint32_t> words);
  FailureOr<SpirvInfo> reflect(StringRef entryPoint);

private:
  LogicalResult fail(const llvm::Twine &message) {
    error = message.str();
    return failure();
  }
  LogicalResult readInstruction(spv::Op opcode, ArrayRef<uint32_t> operands);
  bool hasDecoration(uint32_t id, spv::Decoration kind) const;
  std::optional<uint32_t> getDecoration(uint32_t id,
                                        spv::Decoration kind) const;
  bool allMembersHave(uint32_t structId, spv::Decoration kind) const;
  /// Bytes of a value of type `id`; nullopt for types without a static size.
  std::optional<uint64_t> getSizeOf(uint32_t id, unsigned depth = 0) const;
  LogicalResult reflectBuffer(const Variable &var, uint32_t pointee,
                              SpirvInfo &info);

  std::string &error;
  std::array<uint32_t, 2> version = {0, 0};
  SmallVector<uint32_t> capabilities;
  struct EntryPoint {
    uint32_t model, id;
    std::string name;
  };
  SmallVector<EntryPoint> entryPoints;
  struct ExecutionMode {
    uint32_t id, mode;
    ArrayRef<uint32_t> args;
    bool argsAreIds;
  };
  SmallVector<ExecutionMode> executionModes;
  /// Operands of type-declaring instructions, after the result id.
  llvm::DenseMap<uint32_t, std::pair<spv::Op, ArrayRef<uint32_t>>> types;
  /// Values of scalar (spec) constants and the constituents of composites.
  llvm::DenseMap<uint32_t, uint32_t> constants;
  llvm::DenseMap<uint32_t, ArrayRef<uint32_t>> composites;
  llvm::DenseMap<uint32_t, SmallVector<Decoration, 2>> decorations;
  llvm::DenseMap<uint32_t, SmallVector<MemberDecoration, 2>> memberDecorations;
  SmallVector<Variable> variables;
};

} // namespace

/// Decodes a literal string: UTF-8 bytes packed little-endian into words,
/// NUL-terminated. Returns the number of words it occupies, 0 if unterminated.
static size_t decodeString(ArrayRef<uint32_t> words, std::string &out) {
  for (size_t w = 0; w < words.size(); ++w) {
    for (unsigned b = 0; b < 4; ++b) {
      char c = char((words[w] >> (8 * b)) & 0xff);
      if (c == 0)
        return w + 1;
      out.push_back(c);
    }
  }
  return 0;
}

LogicalResult Reader::read(ArrayRef<uint32_t> words) {
  if (words.size() < 5)
    return fail("is too short to be SPIR-V");
  if (words[0] != spv::MagicNumber)
    return fail("does not start with the SPIR-V magic number");
  version = {(words[1] >> 16) & 0xff, (words[1] >> 8) & 0xff};
  for (size_t pos = 5; pos < words.size();) {
    uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size())
      return fail("has a malformed instruction at word " + llvm::Twine(pos));
    if (failed(readInstruction(spv::Op(words[pos] & 0xffff),
                               words.slice(pos + 1, count - 1))))
      return failure();
    pos += count;
  }
  return success();
}

LogicalResult Reader::readInstruction(spv::Op opcode, ArrayRef<uint32_t> ops) {
  // Minimum operand counts of the instructions read below.
  auto need = [&](size_t n) {
    if (ops.size() >= n)
      return success();
    return fail("has a truncated instruction (opcode " + llvm::Twine(opcode) +
                ")");
  };
  switch (opcode) {
  case spv::OpCapability:
    if (failed(need(1)))
      return failure();
    capabilities.push_back(ops[0]);
    return success();
  case spv::OpEntryPoint: {
    if (failed(need(3)))
      return failure();
    EntryPoint entry{ops[0], ops[1], {}};
    if (decodeString(ops.drop_front(2), entry.name) == 0)
      return fail("has an unterminated entry point name");
    entryPoints.push_back(std::move(entry));
    return success();
  }
  case spv::OpExecutionMode:
  case spv::OpExecutionModeId:
    if (failed(need(2)))
      return failure();
    executionModes.push_back(
        {ops[0], ops[1], ops.drop_front(2), opcode == spv::OpExecutionModeId});
    return success();
  case spv::OpDecorate:
    if (failed(need(2)))
      return failure();
    decorations[ops[0]].push_back({ops[1], ops.size() > 2 ? ops[2] : 0});
    return success();
  case spv::OpMemberDecorate:
    if (failed(need(3)))
      return failure();
    memberDecorations[ops[0]].push_back(
        {ops[1], ops[2], ops.size() > 3 ? ops[3] : 0});
    return success();
  case spv::OpTypeBool:
  case spv::OpTypeInt:
  case spv::OpTypeFloat:
  case spv::OpTypeVector:
  case spv::OpTypeMatrix:
  case spv::OpTypeArray:
  case spv::OpTypeRuntimeArray:
  case spv::OpTypeStruct:
  case spv::OpTypePointer:
    if (failed(need(1)))
      return failure();
    types[ops[0]] = {opcode, ops.drop_front()};
    return success();
  case spv::OpConstant:
  case spv::OpSpecConstant:
    // Only the low word matters: sizes and counts are 32-bit.
    if (failed(need(3)))
      return failure();
    constants[ops[1]] = ops[2];
    return success();
  case spv::OpConstantComposite:
  case spv::OpSpecConstantComposite:
    if (failed(need(2)))
      return failure();
    composites[ops[1]] = ops.drop_front(2);
    return success();
  case spv::OpVariable:
    if (failed(need(3)))
      return failure();
    variables.push_back({ops[1], ops[0], ops[2]});
    return success();
  default:
    return success();
  }
}

bool Reader::hasDecoration(uint32_t id, spv::Decoration kind) const {
  return getDecoration(id, kind).has_value();
}

std::optional<uint32_t> Reader::getDecoration(uint32_t id,
                                              spv::Decoration kind) const {
  auto it = decorations.find(id);
  if (it == decorations.end())
    return std::nullopt;
  for (const Decoration &d : it->second)
    if (d.kind == uint32_t(kind))
      return d.value;
  return std::nullopt;
}

bool Reader::allMembersHave(uint32_t structId, spv::Decoration kind) const {
  auto type = types.find(structId);
  auto decos = memberDecorations.find(structId);
  if (type == types.end() || decos == memberDecorations.end())
    return false;
  for (uint32_t member = 0, e = type->second.second.size(); member < e;
       ++member)
    if (llvm::none_of(decos->second, [&](const MemberDecoration &d) {
          return d.member == member && d.kind == uint32_t(kind);
        }))
      return false;
  return true;
}

std::optional<uint64_t> Reader::getSizeOf(uint32_t id, unsigned depth) const {
  // Well-formed SPIR-V declares types before use, so nesting is shallow; the
  // bound only stops malformed cycles.
  auto it = types.find(id);
  if (depth > 32 || it == types.end())
    return std::nullopt;
  auto [opcode, ops] = it->second;
  auto sizeOfOperand = [&](size_t i) -> std::optional<uint64_t> {
    if (i >= ops.size())
      return std::nullopt;
    return getSizeOf(ops[i], depth + 1);
  };
  switch (opcode) {
  case spv::OpTypeBool:
    return 4;
  case spv::OpTypeInt:
  case spv::OpTypeFloat:
    if (ops.empty())
      return std::nullopt;
    return ops[0] / 8;
  case spv::OpTypeVector:
  case spv::OpTypeMatrix: {
    std::optional<uint64_t> component = sizeOfOperand(0);
    if (!component || ops.size() < 2)
      return std::nullopt;
    return *component * ops[1];
  }
  case spv::OpTypeArray: {
    if (ops.size() < 2 || !constants.count(ops[1]))
      return std::nullopt;
    std::optional<uint64_t> element = sizeOfOperand(0);
    if (std::optional<uint32_t> stride =
            getDecoration(id, spv::DecorationArrayStride))
      element = *stride;
    if (!element)
      return std::nullopt;
    return *element * constants.lookup(ops[1]);
  }
  case spv::OpTypeStruct: {
    uint64_t size = 0;
    auto decos = memberDecorations.find(id);
    for (size_t member = 0; member < ops.size(); ++member) {
      std::optional<uint64_t> memberSize = sizeOfOperand(member);
      if (!memberSize)
        return std::nullopt;
      // Explicitly laid out structs (push constants) place members at their
      // Offset; others are packed.
      std::optional<uint64_t> offset;
      if (decos != memberDecorations.end())
        for (const MemberDecoration &d : decos->second)
          if (d.member == member && d.kind == spv::DecorationOffset)
            offset = d.value;
      size =
          offset ? std::max(size, *offset + *memberSize) : size + *memberSize;
    }
    return size;
  }
  default:
    return std::nullopt;
  }
}

LogicalResult Reader::reflectBuffer(const Variable &var, uint32_t pointee,
                                    SpirvInfo &info) {
  auto pointeeType = types.find(pointee);
  if (pointeeType == types.end() ||
      pointeeType->second.first != spv::OpTypeStruct)
    return fail("declares a storage buffer that is not a block "
                "(descriptor arrays are not supported)");
  std::optional<uint32_t> set =
      getDecoration(var.id, spv::DecorationDescriptorSet);
  std::optional<uint32_t> binding =
      getDecoration(var.id, spv::DecorationBinding);
  if (!set || !binding)
    return fail("declares a storage buffer without a set and binding");
  if (*set != 0)
    return fail("uses descriptor set " + llvm::Twine(*set) +
                "; kernels must bind everything in set 0");
  SpirvBinding result;
  result.binding = *binding;
  result.nonWritable = hasDecoration(var.id, spv::DecorationNonWritable) ||
                       allMembersHave(pointee, spv::DecorationNonWritable);
  result.nonReadable = hasDecoration(var.id, spv::DecorationNonReadable) ||
                       allMembersHave(pointee, spv::DecorationNonReadable);
  info.bindings.push_back(result);
  return success();
}

FailureOr<SpirvInfo> Reader::reflect(StringRef entryPoint) {
  SpirvInfo info;
  info.version = version;
  info.capabilities = capabilities;

  const EntryPoint *entry =
      llvm::find_if(entryPoints, [&](const EntryPoint &e) {
        return e.model == spv::ExecutionModelGLCompute && e.name == entryPoint;
      });
  if (entry == entryPoints.end()) {
    error = ("has no compute entry point named '" + entryPoint + "'").str();
    return failure();
  }

  bool haveSize = false;
  for (const ExecutionMode &mode : executionModes) {
    if (mode.id != entry->id || mode.args.size() < 3)
      continue;
    if (mode.mode == spv::ExecutionModeLocalSize && !mode.argsAreIds) {
      info.localSize = {mode.args[0], mode.args[1], mode.args[2]};
      haveSize = true;
    } else if (mode.mode == spv::ExecutionModeLocalSizeId && mode.argsAreIds) {
      for (unsigned i = 0; i < 3; ++i)
        info.localSize[i] = constants.lookup(mode.args[i]);
      haveSize = true;
    }
  }
  // A constant decorated as the WorkgroupSize built-in overrides the mode.
  for (const auto &[id, constituents] : composites) {
    if (getDecoration(id, spv::DecorationBuiltIn) !=
            uint32_t(spv::BuiltInWorkgroupSize) ||
        constituents.size() != 3)
      continue;
    for (unsigned i = 0; i < 3; ++i)
      info.localSize[i] = constants.lookup(constituents[i]);
    haveSize = true;
  }
  if (!haveSize) {
    error = "does not declare a workgroup size for its entry point";
    return failure();
  }

  for (const Variable &var : variables) {
    auto pointer = types.find(var.pointerType);
    if (pointer == types.end() || pointer->second.first != spv::OpTypePointer ||
        pointer->second.second.size() < 2) {
      error = "declares a variable whose type is not a pointer";
      return failure();
    }
    uint32_t pointee = pointer->second.second[1];
    switch (spv::StorageClass(var.storageClass)) {
    case spv::StorageClassStorageBuffer:
      if (failed(reflectBuffer(var, pointee, info)))
        return failure();
      break;
    case spv::StorageClassUniform:
      // Before SPIR-V 1.3 storage buffers are Uniform blocks decorated
      // BufferBlock; true uniform buffers are not part of the contract.
      if (!hasDecoration(pointee, spv::DecorationBufferBlock)) {
        error = "declares a uniform buffer; kernels take storage buffers and "
                "push constants only";
        return failure();
      }
      if (failed(reflectBuffer(var, pointee, info)))
        return failure();
      break;
    case spv::StorageClassUniformConstant:
      error = "declares an image or sampler; kernels take storage buffers and "
              "push constants only";
      return failure();
    case spv::StorageClassPushConstant: {
      std::optional<uint64_t> size = getSizeOf(pointee);
      if (!size) {
        error = "declares a push-constant block whose size is unknown";
        return failure();
      }
      info.pushConstantSize = uint32_t(*size);
      break;
    }
    case spv::StorageClassWorkgroup: {
      std::optional<uint64_t> size = getSizeOf(pointee);
      if (!size) {
        error = "declares shared memory whose size is unknown";
        return failure();
      }
      info.sharedMemorySize += *size;
      break;
    }
    default:
      break;
    }
  }
  llvm::sort(info.bindings, [](const SpirvBinding &a, const SpirvBinding &b) {
    return a.binding < b.binding;
  });
  return info;
}

FailureOr<SpirvInfo> reflectSpirv(ArrayRef<uint32_t> words,
                                  StringRef entryPoint, std::string &error) {
  Reader reader(error);
  if (failed(reader.read(words)))
    return failure();
  return reader.reflect(entryPoint);
}

} // namespace onyx::gpu
