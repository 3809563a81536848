//===- KernelGenerator.h - Turning one onnx op into gpu dispatches -*- C++
//-*-===//
//
// convert-onnx-to-gpu walks a function's ops in order and hands each onnx op
// to the kernel generator registered for its name. A generator reads the
// op's types and attributes, writes GLSL with every static shape and
// constant baked in (dims known only at run time go through KernelSizes.h),
// and asks the LoweringContext for what it needs:
//
//   Value x = ctx.getView(op->getOperand(0));      // the operand's memory
//   Value y = ctx.allocate(resultType);             // a new intermediate
//   KernelRef k = ctx.getOrCreateKernel(spec);      // deduplicated by source
//   ctx.dispatch(k, {groups, 1, 1}, {x, y});        // a gpu.dispatch
//   ctx.setResult(op->getResult(0), y);
//
// Generators never create buffers or offsets: buffer planning places every
// gpu.alloc later. The kernel contract (bindings in dispatch operand order,
// bounds checks in the kernel, no gl_NumWorkGroups) is in
// dialect/gpu/GpuOps.h; GLSL helpers are in lowering/Glsl.h.
//
// Generators are rows of per-family tables (ElementwiseKernels.cpp,
// MatMulKernels.cpp, ...); KernelGenerator.cpp joins the tables.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/Target.h"

#include "ir/Builder.h"
#include "ir/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <array>
#include <optional>
#include <string>

namespace onyx::lowering {

class KernelSizes;

/// A kernel a generator asks for. Two requests with the same source and
/// interface get one gpu.kernel.
struct KernelSpec {
  /// A readable base for the symbol name ("matmul", "softmax"); the context
  /// makes it unique.
  std::string name;
  /// The complete GLSL compute shader (entry point `main`).
  std::string glsl;
  /// One access per binding, in binding (and dispatch operand) order.
  SmallVector<gpu::Access> bindings;
  std::array<uint32_t, 3> workgroupSize = {64, 1, 1};
  /// 32-bit scalar types (i32, f32) of the push-constant block, in order.
  SmallVector<Type> pushConstantTypes;
};

/// The symbol name of a gpu.kernel.
using KernelRef = StringAttr;

/// A size: a constant, or an index value of the host program (the
/// dimension of a tensor known only at run time, or arithmetic on such).
struct Size {
  Size(int64_t constant = 0) : constant(constant) {}
  Size(Value value) : value(value) {}
  bool isStatic() const { return !value; }
  /// Whether it is 0, known when compiling.
  bool isZero() const { return isStatic() && constant == 0; }
  /// Whether both are the same constant or the same index value.
  bool isSameAs(Size other) const {
    return isStatic() == other.isStatic() &&
           (isStatic() ? constant == other.constant : value == other.value);
  }
  OpFoldResult toFoldResult(Builder &b) const {
    return value ? OpFoldResult(value)
                 : OpFoldResult(b.getI64IntegerAttr(constant));
  }
  int64_t constant = 0;
  Value value;
};

/// A tensor read in place from another's memory: element (c0, c1, ...) of
/// a tensor of `dims` is element `offset + c0 * strides[0] + ...` of `view`
/// (offsets and strides in elements, none negative).
struct StridedRead {
  Value view;
  SmallVector<Size> dims, strides;
  Size offset;
};

/// What a generator sees while lowering one op.
class LoweringContext {
public:
  LoweringContext(ModuleOp module, const gpu::TargetDesc &target);

  const gpu::TargetDesc &getTarget() const { return target; }
  Context *getContext() const { return module->getContext(); }
  /// Inserts at the op being lowered.
  OpBuilder &getBuilder() { return builder; }
  /// The op being lowered; its location is that of the ops created.
  Operation *getOp() const { return current; }
  Location getLoc() const { return current->getLoc(); }
  /// An error at the op being lowered.
  InFlightDiagnostic emitError() const { return current->emitOpError(); }
  /// Fails, reported at the op, where a kernel needs `count` storage
  /// buffers, more than the target binds in one stage; `where` (" in one
  /// kernel", or nothing) follows the count in the message.
  LogicalResult checkStorageBuffers(uint64_t count,
                                    StringRef where = " in one kernel") const;

  /// The !gpu.view holding tensor `value`, an operand of the op being
  /// lowered: an uploaded argument, a weight for a constant (placed on first
  /// use), or what an earlier op's generator set. Null after an error.
  Value getView(Value value);
  /// A weight holding `constant`, which the generator derived from the op's
  /// constant operands (a repacked copy), placed as constants are.
  Value createWeight(DenseElementsAttr constant);
  /// A weight holding the elements of constant `value` (an onnx.Constant's
  /// result) converted to `elementType`, placed once per constant and type
  /// (the half-precision copy of a product's weights).
  Value getConvertedWeight(Value value, Type elementType);

  /// The element type products (MatMul, Gemm, Conv) of f32 tensors round
  /// their operands to (f16 under convert-onnx-to-gpu's precision=f16);
  /// null where they compute in f32 throughout.
  Type getProductType() const { return productType; }
  void setProductType(Type type) { productType = type; }
  /// A new intermediate tensor of `type`, to be placed by buffer planning;
  /// `dims` gives its `?` dimensions (all of its dims, static ones too).
  Value allocate(RankedTensorType type, ArrayRef<Size> dims = {});
  /// The dims of tensor `value`: its static ones as constants, its `?` ones
  /// as the index values the op that made it set (setDims). Empty after an
  /// error.
  SmallVector<Size> getDims(Value value);
  void setDims(Value value, ArrayRef<Size> dims);

  /// Host arithmetic on sizes, folded where both are constants, else index
  /// ops of the gpu dialect at the op being lowered.
  Size mul(Size a, Size b);
  Size ceilDiv(Size a, Size b);
  Size floorDiv(Size a, Size b);
  Size max(Size a, Size b);
  /// Host op `name` of the integer table (dialect/gpu/HostOps.h: "gpu.addi",
  /// "gpu.lti", ...), folded where both are constants and the op does not
  /// fail on them.
  Size arith(StringRef name, Size a, Size b);
  /// `condition` (0 or not) ? `a` : `b`.
  Size select(Size condition, Size a, Size b);
  /// A check of the run: it fails with `message` (where `{i}` stands for
  /// `values[i]`) at the op being lowered where `condition` is 0. Reports
  /// now, and fails, where `condition` is the constant 0.
  LogicalResult check(Size condition, StringRef message,
                      ArrayRef<Size> values = {});

  /// The elements of `value` where it is a *shape value* (ShapeValues.h):
  /// a small integer tensor computed only from Shape, Size, constants,
  /// arguments and integer ops on such values, as index values of the host
  /// program; computed on first request, emitting no kernel. nullopt
  /// otherwise.
  std::optional<SmallVector<Size>> getShapeValue(Value value);
  /// Makes `value` a shape value of `elements` (a Loop body's iteration
  /// number, the gpu.loop's argument).
  void setShapeValue(Value value, ArrayRef<Size> elements) {
    shapeValues[value] = SmallVector<Size>(elements);
  }
  /// Whether getShapeValue computed `value` already.
  bool hasShapeValue(Value value) const { return shapeValues.count(value); }

  /// max(a, floor) for any a (max above treats a constant 0 or 1 as the
  /// side that broadcasts).
  Size atLeast(Size a, int64_t floor);
  Size min(Size a, Size b);
  Size sub(Size a, Size b);
  /// `a`, which must equal `b` when the function runs (two operands'
  /// sizes of one dimension, such as a product's k): where either is known
  /// only then, a check of the run fails with `message` ({0} and {1}: the
  /// sizes) at the op if they differ. The constant where one is known.
  Size same(Size a, Size b, StringRef message);
  /// The numpy broadcast of dims `a` and `b` (equal, or one of them 1):
  /// where either is known only at run time, a check of the run fails with
  /// `message` ({0} and {1}: the sizes) at the op if they do not broadcast.
  Size broadcast(Size a, Size b, StringRef message);
  /// 0 for a dimension of size 0 or 1, else 1: what a broadcast input's
  /// stride is multiplied by where its dimension is known only at run time.
  Size broadcastFactor(Size dim);
  /// A view of `view`'s memory with another shape or element type (an
  /// alias: no copy), from `byteOffset` on; `dims` gives its `?` dimensions
  /// (all of its dims, static ones too). The runtime checks that it lies
  /// within `view`.
  Value reinterpret(Value view, RankedTensorType type, ArrayRef<Size> dims = {},
                    Size byteOffset = 0);
  /// Records that `result`, which no kernel writes, is read in place
  /// through `read` by the kernel that reads it (isSliceReadByAttention).
  void setStridedRead(Value result, StridedRead read) {
    stridedReads[result] = std::move(read);
  }
  /// The strided read recorded for `value`, null if none is.
  const StridedRead *lookupStridedRead(Value value) const {
    auto it = stridedReads.find(value);
    return it == stridedReads.end() ? nullptr : &it->second;
  }
  /// Records that `view` holds the op's result `result`.
  void setResult(Value result, Value view);
  /// The view recorded for `result`, null if none is yet: an op whose
  /// result an earlier op's generator wrote (a cache append whose rows the
  /// product making them stored in place).
  Value lookupResult(Value result) const { return views.lookup(result); }

  /// The gpu.kernel for `spec`, created at module level on first request.
  KernelRef getOrCreateKernel(const KernelSpec &spec);
  /// Runs `kernel` on a grid of `workgroups` with `bindings` bound in order
  /// and `pushConstants` (IntegerAttr i32 or FloatAttr f32), at the op.
  void dispatch(KernelRef kernel, std::array<uint64_t, 3> workgroups,
                ValueRange bindings, ArrayRef<Attribute> pushConstants = {});
  /// The same with counts and push constants that may be run-time values.
  void dispatch(KernelRef kernel, std::array<Size, 3> workgroups,
                ValueRange bindings, ArrayRef<OpFoldResult> pushConstants);

  //===--------------------------------------------------------------------===//
  // Used by the conversion pass itself.
  //===--------------------------------------------------------------------===//

  /// Starts lowering `op` (sets the insertion point before it).
  void beginOp(Operation *op);
  /// The function's weights buffer, created on first use; its size is
  /// fixed by finish().
  void setWeightsInsertionPoint(Block *entry) { weightsBlock = entry; }
  /// Sets the size of the weights buffer to what the weights placed need.
  void finish();
  /// Records `view` as the memory of `value` (function arguments).
  void map(Value value, Value view) { views[value] = view; }
  /// Makes `value` name the memory of `other`, placed when a kernel first
  /// asks for either (a constant read by a fused contraction, which may
  /// bind a converted copy of it instead).
  void mapLazily(Value value, Value other) { lazyViews[value] = other; }
  unsigned getNumKernelsCreated() const { return numKernels; }
  unsigned getNumDispatches() const { return numDispatches; }

private:
  Value getWeight(Value value, DenseElementsAttr constant);

  ModuleOp module;
  gpu::TargetDesc target;
  OpBuilder builder;
  Operation *current = nullptr;
  llvm::DenseMap<Value, Value> views;
  llvm::DenseMap<Value, Value> lazyViews;
  llvm::DenseMap<Value, SmallVector<Size>> dims;
  llvm::DenseMap<Value, SmallVector<Size>> shapeValues;
  llvm::DenseMap<Value, StridedRead> stridedReads;
  /// Kernels by source; the key holds the interface too.
  llvm::StringMap<KernelRef> kernels;
  llvm::StringMap<unsigned> nameCounts;
  llvm::DenseMap<std::pair<Value, Type>, Value> convertedWeights;
  Type productType;
  Block *weightsBlock = nullptr;
  Operation *weightsBuffer = nullptr;
  uint64_t weightsSize = 0;
  unsigned numKernels = 0;
  unsigned numDispatches = 0;
};

/// Lowers one op; reports an error at the op and fails if it cannot (an
/// element type or attribute value the kernel does not handle).
using GenerateFn = LogicalResult (*)(Operation *op, LoweringContext &ctx);

struct KernelGenerator {
  /// "onnx.MatMul".
  StringRef opName;
  GenerateFn generate;
  /// Whether it lowers ops whose operands or results have `?` dims (sizes
  /// through KernelSizes.h); onnx-static-shapes rejects the others.
  bool dynamicDims = false;
};

/// Whether `opName` only reinterprets its first operand's row-major data
/// (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout).
bool isReshapeLike(StringRef opName);
/// Lowers such an op to a view of its operand's memory, with dims of the
/// host program where they are known only at run time (ReshapeViews.cpp).
LogicalResult lowerReshapeView(Operation *op, LoweringContext &ctx);

/// Lowers `op`, an onnx.Loop of a trip count known only at run time that
/// onnx-flatten-control-flow kept (onnx::checkDeviceLoop), to a gpu.loop
/// whose body is the onnx body's ops, each lowered by `convertOp`
/// (LoopLowering.cpp).
LogicalResult
lowerLoop(Operation *op, LoweringContext &ctx,
          llvm::function_ref<LogicalResult(Operation *)> convertOp);

/// Asks for the trip count of `op`, an onnx.Loop, as a shape value before
/// the ops computing it are lowered, so that they run on the host where they
/// can (onnx::foldConditionIntoTripCount's Where and Max) rather than as
/// kernels whose result only the loop would read.
void prepareLoopTripCount(Operation *op, LoweringContext &ctx);

/// The generator for `opName`, or null if onyx cannot lower it.
const KernelGenerator *lookupKernelGenerator(StringRef opName);

// The families' tables (one .cpp each).
ArrayRef<KernelGenerator> getElementwiseGenerators();
ArrayRef<KernelGenerator> getMatMulGenerators();
ArrayRef<KernelGenerator> getConvGenerators();
ArrayRef<KernelGenerator> getReductionGenerators();
ArrayRef<KernelGenerator> getNormalizationGenerators();
ArrayRef<KernelGenerator> getRotaryGenerators();
ArrayRef<KernelGenerator> getAttentionGenerators();

/// Whether `op` is a Transpose [b, s, H, d] -> [b, H, s, d] whose only
/// reader is an Attention's Q: it emits nothing and the Attention kernel
/// reads its input in place (AttentionKernels.cpp).
bool isTransposeReadByAttention(Operation *op);
/// Whether `op` is a Slice with constant steps of at least 1 whose only
/// reader is an Attention's mask, or such a Slice of one: it emits nothing,
/// its result is a strided read of its data's memory (offsets and strides
/// computed on the host from the run's starts and ends), and the Attention
/// kernel reads the mask there (DataMovementKernels.cpp). The causal mask a
/// model cuts from a constant to the run's sequence length is read where it
/// lies, as the constant mask of a specialized model is.
bool isSliceReadByAttention(Operation *op);
/// Whether `op` is a Transpose [b, H, s, dv] -> [b, s, H, dv], not absorbed
/// by a MatMul, of an Attention result it alone reads: it emits nothing, the
/// Attention kernel stores its result in that order, and the Transpose's
/// result names that memory.
bool isTransposeWrittenByAttention(Operation *op);
/// Whether `use` reads only its value's dims (onnx.Shape, onnx.Size): the
/// host program answers it from the dims a view records, so it does not
/// keep a producer from being read in place.
bool isDimsOnlyUse(OpOperand &use);
/// Whether `op` is a Transpose, none of the above, that only Concats read:
/// it emits nothing, its result names its input's memory with the permuted
/// dims, and each Concat copies from the input through permuted strides
/// (DataMovementKernels.cpp).
bool isTransposeReadByCopies(Operation *op);
/// Whether `op` is a Transpose [b, s, H, d] -> [b, H, s, d], not absorbed
/// or written by a MatMul, that only RotaryEmbeddings read as their input:
/// it emits nothing and the rotary kernel reads [b, s, H, d] in place
/// (RotaryKernels.cpp).
bool isHeadsTransposeReadByRotary(Operation *op);
/// Whether `op` is a Concat(past, new) along axis 2 of a decoder's cache
/// whose past is an argument the caller keeps in a state (`gpu.state`),
/// whose result is returned once and read otherwise only as an Attention's
/// keys or values (both appends): the lowering writes the new rows into the
/// state in place, positions outermost (CacheAppend.cpp).
bool isCacheAppend(Operation *op);
/// Whether `arg` is the past of cache appends only (no upload: its bytes
/// are already in its state).
bool isCacheArgument(BlockArgument arg);
/// Whether `value` is a cache append's present, stored [t, b, H, d].
bool isReadFromCache(Value value);
/// Where a kernel stores `rows`, a tensor it computes whose only reader is
/// a cache append (isCacheAppend) taking it as its new rows: [b, s, H * d]
/// through the Reshape to [b, s, H, d] and the Transpose to [b, H, s, d]
/// that exporters emit, or [b, H, s, d] as it is (a rotary embedding's
/// keys). The kernel writes element (r, c) of the rows as [b * s, H * d]
/// (r = b * s + t, c = h * d + i) straight into the cache's state, at
/// `index(r, c)` (CacheAppend.cpp), and the append copies nothing.
struct CacheRowsStore {
  /// The state's memory [past + s, b, H, d], bound for writing.
  Value state;
  Size pastRows, newRows, batch;
  int64_t rowElements = 0;

  /// The GLSL uint index in `state` of element (`r`, `c`), sizes spelled
  /// through `sizes`.
  std::string index(KernelSizes &sizes, StringRef r, StringRef c) const;
};
/// The store of `rows` (whose dims are `dims`) into its cache append's
/// state, which it creates (the append's result from then on), if `rows`
/// is such a tensor; `rows` itself becomes a view of the state's new rows.
std::optional<CacheRowsStore> storeIntoCache(LoweringContext &ctx, Value rows,
                                             ArrayRef<Size> dims);
/// Whether `op` is an Expand of a 3-D tensor to 3 dims that only
/// RotaryEmbeddings without position_ids read as their cos or sin cache: it
/// emits nothing, its result names its input, and the rotary kernel reads
/// the rows it broadcasts to (checked at run time).
bool isExpandReadByRotary(Operation *op);
ArrayRef<KernelGenerator> getPoolGenerators();
ArrayRef<KernelGenerator> getDataMovementGenerators();
ArrayRef<KernelGenerator> getTopKGenerators();
/// NonZero, Compress and Unique: counts the host program knows or reads back
/// (CompressKernels.cpp).
ArrayRef<KernelGenerator> getCompressGenerators();
ArrayRef<KernelGenerator> getBlockQuantizedGenerators();
ArrayRef<KernelGenerator> getResizeGenerators();
ArrayRef<KernelGenerator> getDepthSpaceGenerators();
ArrayRef<KernelGenerator> getCumSumGenerators();
ArrayRef<KernelGenerator> getOneHotGenerators();
ArrayRef<KernelGenerator> getEinsumGenerators();

} // namespace onyx::lowering
