//===- GpuOps.h - Operations of the gpu dialect -----------------*- C++ -*-===//
//
// A gpu-dialect module is what the runtime executes. Kernels live at module
// level; a func.func takes host tensors and returns host tensors, and its
// body says, in order, what the device does:
//
//   gpu.kernel @add(read, read, write) workgroup_size(64, 1, 1)
//       push_constants(i32) spirv(dense<"0x03022307..."> : tensor<300xi32>)
//   func.func @main(%arg0: tensor<16xf32>) -> tensor<16xf32> {
//     %arena = gpu.buffer arena : !gpu.buffer<512>
//     %weights = gpu.buffer weights : !gpu.buffer<64>
//     %x = gpu.view %arena[0] : !gpu.buffer<512> to !gpu.view<16xf32>
//     %y = gpu.view %arena[256] : !gpu.buffer<512> to !gpu.view<16xf32>
//     %w = gpu.weight %weights[0] : !gpu.buffer<64>
//         = dense<1.0> : tensor<16xf32>
//     gpu.upload %arg0, %x : tensor<16xf32> to !gpu.view<16xf32>
//     gpu.dispatch @add[1, 1, 1](%x, %w, %y) push(16 : i32)
//         : !gpu.view<16xf32>, !gpu.view<16xf32>, !gpu.view<16xf32>
//     %r = gpu.download %y : !gpu.view<16xf32> to tensor<16xf32>
//     return %r : tensor<16xf32>
//   }
//
// Contract with kernel generators (checked by the verifiers below):
// - A kernel binds storage buffers at set 0, bindings 0..N-1, in the order
//   of the dispatch's operands; `readonly` in GLSL is `read`, `writeonly` is
//   `write`, neither is `read_write`.
// - Push constants are 32-bit scalars (i32, si32, ui32, f32) packed in order,
//   4 bytes each, as GLSL lays out a block of such scalars.
// - Workgroup counts may exceed the device's per-dimension limit: the runtime
//   then issues the grid in pieces with a base workgroup id, so kernels must
//   index with gl_WorkGroupID / gl_GlobalInvocationID and must not use
//   gl_NumWorkGroups (it is the size of the current piece). Kernels must
//   bounds-check the last, partial workgroup themselves.
// - Memory a kernel writes is bound once: a kernel that updates a tensor in
//   place takes it as one `read_write` binding.
// - Views bound to a dispatch start at a multiple of the target's
//   min_storage_buffer_offset_alignment and are at most
//   max_storage_buffer_range bytes long.
//
// Dynamic dimensions (HostOps.h): a view type may have `?` dimensions; the
// op that makes the view takes each as an `index` operand, and a view's
// offset in its source may be one too. Only memory the runtime places may
// be dynamic: a gpu.alloc and views of it (aliases, windows), never a view
// of a gpu.buffer, whose layout buffer planning fixed:
//
//   %n = gpu.dim %arg0[0] : tensor<?x64xf32>
//   %x = gpu.alloc(%n) : !gpu.view<?x64xf32>
//   %h = gpu.view %x[%off](%m) : !gpu.view<?x64xf32> to !gpu.view<?x64xf32>
//   gpu.dispatch @k[%groups, 1, 1](%x, %y) push(%count, 1.0 : f32) : ...
//
// The runtime evaluates the host ops, places every gpu.alloc by liveness
// for the dims of the run (first fit, as gpu-plan-buffers does at compile
// time), checks every view against its source, and records the run's
// commands once per distinct set of argument shapes. An index given as a
// push constant must fit the kernel's 32-bit type; a grid of 0 workgroups
// skips the dispatch.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/GpuTypes.h"

#include "dialect/gpu/OpDecl.h"
#include "ir/Builder.h"
#include "ir/OpAsm.h"

#include <array>

namespace onyx::gpu {

/// How a kernel uses one of its bindings.
enum class Access : uint8_t { Read = 1, Write = 2, ReadWrite = 3 };
StringRef stringifyAccess(Access access);
std::optional<Access> symbolizeAccess(StringRef name);
inline bool isReadable(Access a) { return uint8_t(a) & uint8_t(Access::Read); }
inline bool isWritable(Access a) { return uint8_t(a) & uint8_t(Access::Write); }

/// A compute kernel: SPIR-V with one entry point and its interface.
class KernelOp : public Op<KernelOp> {
public:
  ONYX_GPU_OP("kernel");
  static constexpr OpTrait traits = OpTrait::Symbol;

  static void build(OpBuilder &builder, OperationState &state, StringRef name,
                    ArrayRef<Access> bindings,
                    std::array<uint32_t, 3> workgroupSize,
                    ArrayRef<Type> pushConstantTypes, ArrayRef<uint32_t> spirv,
                    StringRef entryPoint = "main");
  /// A kernel still in GLSL (entry point main), for gpu-compile-kernels.
  static void build(OpBuilder &builder, OperationState &state, StringRef name,
                    ArrayRef<Access> bindings,
                    std::array<uint32_t, 3> workgroupSize,
                    ArrayRef<Type> pushConstantTypes, StringRef glsl);

  StringRef getSymName();
  StringRef getEntryPoint();
  std::array<uint32_t, 3> getWorkgroupSize();
  unsigned getNumBindings();
  Access getBindingAccess(unsigned i);
  SmallVector<Type> getPushConstantTypes();
  /// Bytes of the push-constant block.
  uint32_t getPushConstantsSize();
  /// Whether the kernel holds SPIR-V (else it holds GLSL).
  bool hasSpirv();
  ArrayRef<uint32_t> getSpirv();
  /// The GLSL source of an uncompiled kernel; empty once compiled.
  StringRef getGlsl();
  /// Replaces the GLSL with its compiled SPIR-V.
  void setSpirv(ArrayRef<uint32_t> spirv);
  static DenseElementsAttr getSpirvAttr(Context *ctx, ArrayRef<uint32_t> spirv);

  /// The part of verify() that the accessors above rely on.
  LogicalResult verifyInterface();
};

/// What a buffer holds: intermediate tensors at planned offsets, or the
/// weights, uploaded once when the module is loaded and never written.
enum class BufferKind : uint8_t { Arena, Weights };

/// A device buffer of the function (`!gpu.buffer<size>`).
class BufferOp : public Op<BufferOp> {
public:
  ONYX_GPU_OP("buffer");

  static void build(OpBuilder &builder, OperationState &state, BufferKind kind,
                    uint64_t size);

  BufferKind getKind();
  BufferType getType();

  /// Besides its own attributes, checks that no two allocations in the
  /// buffer overlap while both are live (BufferLiveness.h).
};

/// A tensor in a byte range of a buffer or of another view (an alias: a
/// reshape, or a slice, of the same memory).
class ViewOp : public Op<ViewOp> {
public:
  ONYX_GPU_OP("view");
  static constexpr OpTrait traits = OpTrait::Pure;

  static void build(OpBuilder &builder, OperationState &state, Value source,
                    uint64_t offset, ViewType type);
  /// A view with a run-time offset (null `offset`: `staticOffset` bytes)
  /// and one index per `?` dimension of `type`.
  static void build(OpBuilder &builder, OperationState &state, Value source,
                    Value offset, uint64_t staticOffset, ViewType type,
                    ValueRange dynamicDims);

  Value getSource() { return state->getOperand(0); }
  bool hasStaticOffset();
  /// Bytes from the start of the source; only for a static offset.
  uint64_t getOffset();
  /// The run-time offset in bytes; null for a static one.
  Value getDynamicOffset();
  /// One index per `?` dimension of the type, in order.
  OperandRange getDynamicDims();
  ViewType getType();
};

/// A tensor not yet placed in a buffer: what kernel generation produces
/// and buffer planning (gpu-plan-buffers) replaces with a view of the
/// arena. The runtime does not run functions that still hold one.
///
///   %t = gpu.alloc : !gpu.view<2x3xf32>
///   %u = gpu.alloc(%n) : !gpu.view<?x3xf32>
///
/// An alloc with `?` dimensions is never placed by the compiler: the runtime
/// places it for the dims of each run.
///
///   %c = gpu.alloc(%t) {state = 3 : i64} : !gpu.view<?x4x8xf32>
///
/// With `state = N` the tensor is not placed in an arena at all: it is the
/// device memory the runtime keeps between runs for argument #N (a
/// decoder's key/value cache, Executable.h's states), from its start. A run
/// that reads the argument from that state finds its bytes there; the
/// argument itself is not uploaded.
class AllocOp : public Op<AllocOp> {
public:
  ONYX_GPU_OP("alloc");

  static void build(OpBuilder &builder, OperationState &state, ViewType type,
                    ValueRange dynamicDims = {});
  ViewType getType();
  OperandRange getDynamicDims() { return state->getOperands(); }
  /// The argument whose state this tensor is; nullopt for an ordinary one.
  std::optional<unsigned> getStateArgument();
};

/// A constant tensor placed in a weights buffer.
class WeightOp : public Op<WeightOp> {
public:
  ONYX_GPU_OP("weight");
  static constexpr OpTrait traits = OpTrait::Pure;

  static void build(OpBuilder &builder, OperationState &state, Value buffer,
                    uint64_t offset, DenseElementsAttr value);

  Value getBuffer() { return state->getOperand(0); }
  uint64_t getOffset();
  DenseElementsAttr getValue();
  ViewType getType();
};

/// Runs a kernel over a grid of workgroups with views bound to its bindings.
class DispatchOp : public Op<DispatchOp> {
public:
  ONYX_GPU_OP("dispatch");

  static void build(OpBuilder &builder, OperationState &state, StringRef kernel,
                    std::array<uint64_t, 3> workgroups, ValueRange bindings,
                    ArrayRef<Attribute> pushConstants = {});
  /// Workgroup counts and push constants that may be known only at run
  /// time: each entry is a constant (an IntegerAttr count, a typed scalar
  /// push constant) or an index value.
  static void build(OpBuilder &builder, OperationState &state, StringRef kernel,
                    ArrayRef<OpFoldResult> workgroups, ValueRange bindings,
                    ArrayRef<OpFoldResult> pushConstants);

  StringRef getKernelName();
  /// The kernel in the nearest enclosing symbol table; null if missing.
  KernelOp lookupKernel();
  /// Whether every count and push constant is a constant.
  bool isStatic();
  /// The counts; only when isStatic().
  std::array<uint64_t, 3> getWorkgroupCounts();
  /// The counts, ShapedType::kDynamic for one given by a value.
  SmallVector<int64_t, 3> getStaticWorkgroupCounts();
  /// The values of the dynamic counts, in order.
  OperandRange getDynamicWorkgroupCounts();
  OperandRange getBindings();
  /// The push constants; a UnitAttr stands for one given by a value.
  ArrayRef<Attribute> getPushConstants();
  /// The values of the dynamic push constants, in order.
  OperandRange getDynamicPushConstants();
  /// The push constants as the kernel reads them (little-endian, packed),
  /// with `dynamic` giving the values of the dynamic ones in order (each
  /// already checked to fit its 32-bit type).
  SmallVector<char> getPushConstantBytes(ArrayRef<int64_t> dynamic = {});
};

/// Copies the bytes of one view into another of the same size.
class CopyOp : public Op<CopyOp> {
public:
  ONYX_GPU_OP("copy");

  static void build(OpBuilder &builder, OperationState &state, Value source,
                    Value target);
  Value getSource() { return state->getOperand(0); }
  Value getTarget() { return state->getOperand(1); }
};

/// Copies a function argument (a host tensor) into a view.
class UploadOp : public Op<UploadOp> {
public:
  ONYX_GPU_OP("upload");

  static void build(OpBuilder &builder, OperationState &state, Value source,
                    Value target);
  Value getSource() { return state->getOperand(0); }
  Value getTarget() { return state->getOperand(1); }
};

/// Reads a view back to the host as a tensor the function returns.
///
///   %r = gpu.download %c {permutation = [1, 2, 0, 3]}
///       : !gpu.view<?x?x4x8xf32> to tensor<?x4x?x8xf32>
///
/// With a `permutation` the source is a state's memory (gpu.alloc {state})
/// holding the result with its dims in another order: result dim i is the
/// view's dim permutation[i]. Such a result stays in its state (the run
/// must keep it there) and comes back with its shape only.
class DownloadOp : public Op<DownloadOp> {
public:
  ONYX_GPU_OP("download");

  static void build(OpBuilder &builder, OperationState &state, Value source);
  /// A download of a state's memory whose result has the view's dims
  /// permuted by `permutation`.
  static void build(OpBuilder &builder, OperationState &state, Value source,
                    ArrayRef<int64_t> permutation);
  Value getSource() { return state->getOperand(0); }
  /// The permutation; empty for a plain download.
  SmallVector<int64_t, 4> getPermutation();
};

/// Runs its body `%n` times, for %i from 0 to %n - 1: a Loop whose trip
/// count is a value of the host program (LoopOp.cpp). The body is the
/// lowering of the ONNX body once; it reads and writes memory defined
/// before the loop (the loop-carried values, the scan outputs' rows at
/// offsets computed from %i) and allocates its own temporaries. The
/// runtime records it %n times (runtime/LoopRecording.h).
///
///   gpu.loop %n (%i: index) {
///     ...
///   }
class LoopOp : public Op<LoopOp> {
public:
  ONYX_GPU_OP("loop");
  static constexpr OpTrait traits =
      OpTrait::NoTerminator | OpTrait::SingleBlock;

  /// A loop of `tripCount` iterations with an empty body whose one
  /// argument is the iteration number.
  static void build(OpBuilder &builder, OperationState &state, Value tripCount);
  Value getTripCount() { return state->getOperand(0); }
  Block &getBody() { return state->getRegion(0).front(); }
  BlockArgument getIterationNumber() { return getBody().getArgument(0); }
};

/// Where a view's bytes are: a gpu.buffer and a byte range in it.
struct MemoryRange {
  BufferOp buffer;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t end() const { return offset + size; }
  bool overlaps(const MemoryRange &o) const {
    return buffer && buffer == o.buffer && offset < o.end() && o.offset < end();
  }
};
/// Follows views and weights to their buffer; nullopt if `view` is not
/// (transitively) defined on a gpu.buffer.
std::optional<MemoryRange> getMemoryRange(Value view);
/// Whether `view` is (transitively) a view of a gpu.alloc, which buffer
/// planning has yet to place.
bool isUnplannedView(Value view);

} // namespace onyx::gpu
