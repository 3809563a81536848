//===- KernelGenerator.cpp - The lowering context and generator table -----===//

#include "lowering/KernelGenerator.h"
#include "lowering/ShapeValues.h"

#include "dialect/gpu/HostOps.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/Tensor.h"

#include "ir/BuiltinOps.h"

#include "llvm/ADT/StringMap.h"

#include <fmt/format.h>

namespace onyx::lowering {

LogicalResult LoweringContext::checkStorageBuffers(uint64_t count,
                                                   StringRef where) const {
  uint64_t limit = target.maxPerStageDescriptorStorageBuffers;
  if (count <= limit)
    return success();
  return emitError() << "needs " << count << " storage buffers" << where
                     << ", more than the target's " << limit;
}

LoweringContext::LoweringContext(ModuleOp module, const gpu::TargetDesc &target)
    : module(module), target(target), builder(module->getContext()) {
  // Kernel names must not take a name the module already uses.
  for (Operation &op : *module.getBody())
    if (auto name = op.getAttrOfType<StringAttr>("sym_name"))
      nameCounts[name.getValue()] = 1;
}

void LoweringContext::beginOp(Operation *op) {
  current = op;
  builder.setInsertionPoint(op);
}

Value LoweringContext::getView(Value value) {
  auto it = views.find(value);
  if (it != views.end())
    return it->second;
  if (Value other = lazyViews.lookup(value)) {
    Value view = getView(other);
    if (view)
      views[value] = view;
    return view;
  }
  if (DenseElementsAttr constant = onnx::getConstantValue(value))
    return views[value] = getWeight(value, constant);
  // A shape value a kernel reads as data.
  if (std::optional<SmallVector<Size>> elements = getShapeValue(value))
    return views[value] = materializeShapeValue(
               *this, cast<RankedTensorType>(value.getType()), *elements);
  emitError() << "operand of type " << value.getType()
              << " has no GPU memory: the op that defines it was not lowered";
  return nullptr;
}

Value LoweringContext::getWeight(Value value, DenseElementsAttr constant) {
  OpBuilder::InsertionGuard guard(builder);
  if (!weightsBuffer) {
    builder.setInsertionPointToStart(weightsBlock);
    weightsBuffer = builder.create<gpu::BufferOp>(
        module->getLoc(), gpu::BufferKind::Weights, uint64_t(0));
  }
  builder.setInsertionPointAfter(weightsBuffer);
  // Weights are placed back to back, each at an offset kernels may bind.
  uint64_t align = target.minStorageBufferOffsetAlignment;
  uint64_t offset = (weightsSize + align - 1) / align * align;
  Location loc = !value                  ? getLoc()
                 : value.getDefiningOp() ? value.getDefiningOp()->getLoc()
                                         : module->getLoc();
  auto weight = builder.create<gpu::WeightOp>(loc, weightsBuffer->getResult(0),
                                              offset, constant);
  weightsSize = offset + weight.getType().getSizeInBytes();
  return weight->getResult(0);
}

Value LoweringContext::createWeight(DenseElementsAttr constant) {
  return getWeight(Value(), constant);
}

Value LoweringContext::getConvertedWeight(Value value, Type elementType) {
  Value &weight = convertedWeights[{value, elementType}];
  if (weight)
    return weight;
  DenseElementsAttr constant = onnx::getConstantValue(value);
  std::optional<onnx::Tensor> tensor =
      constant ? onnx::Tensor::fromAttr(constant) : std::nullopt;
  std::optional<onnx::ElementType> type = onnx::getElementType(elementType);
  if (!tensor || !type)
    return nullptr;
  return weight = getWeight(
             value, onnx::convertTensor(*tensor, *type).toAttr(getContext()));
}

void LoweringContext::finish() {
  if (weightsBuffer)
    weightsBuffer->getResult(0).setType(
        gpu::BufferType::get(getContext(), std::max<uint64_t>(weightsSize, 1)));
}

/// The index value of `s`, materializing a constant.
static Value toValue(OpBuilder &builder, Location loc, Size s) {
  if (!s.isStatic())
    return s.value;
  return builder.create<gpu::ConstantOp>(loc, s.constant)->getResult(0);
}

/// The index values of `a` and `b`, materializing constants `b` first (the
/// order the host programs have always had): in statements of their own,
/// since the order of a call's arguments is unspecified and the IR must not
/// depend on the compiler.
static std::pair<Value, Value> toValues(OpBuilder &builder, Location loc,
                                        Size a, Size b) {
  Value second = toValue(builder, loc, b);
  Value first = toValue(builder, loc, a);
  return {first, second};
}

Value LoweringContext::allocate(RankedTensorType type, ArrayRef<Size> sizes) {
  // A `?` whose size the lowering knows (its inputs' dims are static, as
  // where onyx-run gave @main's arguments their inputs' shapes) is a
  // constant index.
  SmallVector<Value> dynamic;
  for (auto [d, dim] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(dim))
      dynamic.push_back(toValue(builder, current->getLoc(), sizes[d]));
  Value view = builder
                   .create<gpu::AllocOp>(current->getLoc(),
                                         gpu::ViewType::get(type), dynamic)
                   ->getResult(0);
  if (!dynamic.empty())
    setDims(view, sizes);
  return view;
}

SmallVector<Size> LoweringContext::getDims(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.hasStaticShape())
    return SmallVector<Size>(type.getShape().begin(), type.getShape().end());
  auto it = dims.find(value);
  if (it == dims.end()) {
    emitError() << "operand of type " << value.getType()
                << " has run-time dimensions the lowering does not know";
    return {};
  }
  return it->second;
}

void LoweringContext::setDims(Value value, ArrayRef<Size> sizes) {
  dims[value] = SmallVector<Size>(sizes.begin(), sizes.end());
}

Size LoweringContext::mul(Size a, Size b) {
  if (a.isStatic() && b.isStatic())
    return a.constant * b.constant;
  if (a.isZero() || b.isZero())
    return Size(0);
  if ((a.isStatic() && a.constant == 1))
    return b;
  if (b.isStatic() && b.constant == 1)
    return a;
  return arith("gpu.muli", a, b);
}

Size LoweringContext::ceilDiv(Size a, Size b) {
  if (a.isStatic() && b.isStatic())
    return (a.constant + b.constant - 1) / b.constant;
  if (b.isStatic() && b.constant == 1)
    return a;
  return arith("gpu.ceildivi", a, b);
}

Size LoweringContext::floorDiv(Size a, Size b) {
  if (a.isStatic() && b.isStatic())
    return a.constant / b.constant;
  if (b.isStatic() && b.constant == 1)
    return a;
  auto [x, y] = toValues(builder, getLoc(), a, b);
  return gpu::HostArithOp::create(builder, getLoc(), "gpu.floordivi", x, y);
}

Size LoweringContext::atLeast(Size a, int64_t floor) {
  if (a.isStatic())
    return std::max(a.constant, floor);
  return gpu::HostArithOp::create(builder, getLoc(), "gpu.maxi", a.value,
                                  toValue(builder, getLoc(), Size(floor)));
}

Size LoweringContext::max(Size a, Size b) {
  if (a.isStatic() && b.isStatic())
    return std::max(a.constant, b.constant);
  if (a.isStatic() && a.constant <= 1)
    return b;
  if (b.isStatic() && b.constant <= 1)
    return a;
  return arith("gpu.maxi", a, b);
}

Size LoweringContext::arith(StringRef name, Size a, Size b) {
  if (a.isStatic() && b.isStatic()) {
    std::string error;
    if (std::optional<int64_t> r =
            gpu::evaluateHostArith(name, a.constant, b.constant, error))
      return *r;
  }
  // A value compared with itself.
  if (!a.isStatic() && a.value == b.value) {
    if (name == "gpu.eqi" || name == "gpu.lei")
      return 1;
    if (name == "gpu.lti" || name == "gpu.subi")
      return 0;
    if (name == "gpu.maxi" || name == "gpu.mini")
      return a;
  }
  Location loc = getLoc();
  auto [x, y] = toValues(builder, loc, a, b);
  return gpu::HostArithOp::create(builder, loc, name, x, y);
}

Size LoweringContext::select(Size condition, Size a, Size b) {
  if (condition.isStatic())
    return condition.constant ? a : b;
  if (a.isStatic() && b.isStatic() && a.constant == b.constant)
    return a;
  Location loc = getLoc();
  auto [x, y] = toValues(builder, loc, a, b);
  return builder.create<gpu::SelectOp>(loc, condition.value, x, y)
      ->getResult(0);
}

LogicalResult LoweringContext::check(Size condition, StringRef message,
                                     ArrayRef<Size> values) {
  if (condition.isStatic()) {
    if (condition.constant)
      return success();
    // Known to fail: say so now.
    SmallVector<int64_t> known;
    for (Size v : values)
      known.push_back(v.constant);
    return emitError() << gpu::formatAssertMessage(message, known);
  }
  Location loc = getLoc();
  SmallVector<Value> operands;
  for (Size v : values)
    operands.push_back(toValue(builder, loc, v));
  // The run reports it as an error of the op lowered.
  std::string text = fmt::format(
      "'{}' op {}", current->getName().getStringRef().str(), message.str());
  builder.create<gpu::AssertOp>(loc, condition.value, text,
                                ValueRange(operands));
  return success();
}

std::optional<SmallVector<Size>> LoweringContext::getShapeValue(Value value) {
  auto it = shapeValues.find(value);
  if (it != shapeValues.end())
    return it->second;
  if (!isShapeValueType(value.getType()))
    return std::nullopt;
  SmallVector<Size> elements;
  if (DenseElementsAttr constant = onnx::getConstantValue(value)) {
    bool isUnsigned = cast<IntegerType>(constant.getElementType()).isUnsigned();
    for (int64_t i = 0, e = constant.getNumElements(); i < e; ++i) {
      llvm::APInt v = constant.getIntValue(i);
      elements.push_back(isUnsigned ? int64_t(v.getZExtValue())
                                    : v.getSExtValue());
    }
  } else if (auto arg = dyn_cast<BlockArgument>(value)) {
    // An argument's elements are read when the run starts.
    if (!isa_and_nonnull<FuncOp>(arg.getOwner()->getParentOp()))
      return std::nullopt;
    for (int64_t i = 0,
                 e = cast<RankedTensorType>(value.getType()).getNumElements();
         i < e; ++i)
      elements.push_back(
          builder.create<gpu::ExtractOp>(getLoc(), value, i)->getResult(0));
  } else {
    // The host ops are created at the op being lowered but located at the
    // op that defines the value, so that a run's error names that node.
    Operation *def = value.getDefiningOp();
    Operation *user = current;
    current = def;
    std::optional<SmallVector<Size>> result =
        evaluateShapeOp(def, value, *this);
    current = user;
    if (!result)
      return std::nullopt;
    elements = std::move(*result);
  }
  return shapeValues[value] = elements;
}

Size LoweringContext::min(Size a, Size b) {
  if (a.isStatic() && b.isStatic())
    return std::min(a.constant, b.constant);
  auto [x, y] = toValues(builder, getLoc(), a, b);
  return gpu::HostArithOp::create(builder, getLoc(), "gpu.mini", x, y);
}

Size LoweringContext::sub(Size a, Size b) {
  if (a.isStatic() && b.isStatic())
    return a.constant - b.constant;
  if (b.isZero())
    return a;
  auto [x, y] = toValues(builder, getLoc(), a, b);
  return gpu::HostArithOp::create(builder, getLoc(), "gpu.subi", x, y);
}

Size LoweringContext::same(Size a, Size b, StringRef message) {
  if (a.isSameAs(b) || (a.isStatic() && b.isStatic()))
    return a;
  // (A failure known now was reported; the kernels are not run then.)
  (void)check(arith("gpu.eqi", a, b), message, {a, b});
  // A constant stays a literal in the kernels; the check runs all the same.
  return a.isStatic() ? a : b.isStatic() ? b : a;
}

Size LoweringContext::broadcast(Size a, Size b, StringRef message) {
  if (a.isStatic() && b.isStatic())
    return a.constant == 1 ? b : a;
  if (a.isSameAs(b) || (a.isStatic() && a.constant == 1))
    return b;
  if (b.isStatic() && b.constant == 1)
    return a;
  Size aOne = arith("gpu.eqi", a, 1), bOne = arith("gpu.eqi", b, 1);
  // One statement per host op (toValues says why).
  Size eitherOne = arith("gpu.maxi", aOne, bOne);
  Size ok = arith("gpu.maxi", arith("gpu.eqi", a, b), eitherOne);
  (void)check(ok, message, {a, b});
  if (a.isStatic())
    return a;
  if (b.isStatic())
    return b;
  return select(aOne, b, a);
}

Size LoweringContext::broadcastFactor(Size dim) {
  if (dim.isStatic())
    return dim.constant > 1 ? 1 : 0;
  Location loc = getLoc();
  Value one = toValue(builder, loc, Size(1));
  Value zero = toValue(builder, loc, Size(0));
  Value less =
      gpu::HostArithOp::create(builder, loc, "gpu.subi", dim.value, one);
  Value clamped =
      gpu::HostArithOp::create(builder, loc, "gpu.maxi", less, zero);
  return gpu::HostArithOp::create(builder, loc, "gpu.mini", clamped, one);
}

Value LoweringContext::reinterpret(Value view, RankedTensorType type,
                                   ArrayRef<Size> sizes, Size byteOffset) {
  Value offset = byteOffset.isStatic()
                     ? Value()
                     : toValue(builder, current->getLoc(), byteOffset);
  uint64_t staticOffset = byteOffset.isStatic() ? byteOffset.constant : 0;
  if (type.hasStaticShape() && !offset)
    return builder
        .create<gpu::ViewOp>(current->getLoc(), view, staticOffset,
                             gpu::ViewType::get(type))
        ->getResult(0);
  SmallVector<Value> dynamic;
  for (auto [d, dim] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(dim))
      dynamic.push_back(toValue(builder, current->getLoc(), sizes[d]));
  Value result =
      builder
          .create<gpu::ViewOp>(current->getLoc(), view, offset, staticOffset,
                               gpu::ViewType::get(type), dynamic)
          ->getResult(0);
  if (!type.hasStaticShape())
    setDims(result, sizes);
  return result;
}

bool isReshapeLike(StringRef name) {
  return name == "onnx.Reshape" || name == "onnx.Flatten" ||
         name == "onnx.Squeeze" || name == "onnx.Unsqueeze" ||
         name == "onnx.Identity" || name == "onnx.Dropout";
}

void LoweringContext::setResult(Value result, Value view) {
  views[result] = view;
  // The result has the dims of its memory.
  // Copied before inserting: the insertion may move the map's entries.
  auto it = dims.find(view);
  if (it != dims.end()) {
    SmallVector<Size> sizes = it->second;
    dims[result] = std::move(sizes);
  }
}

KernelRef LoweringContext::getOrCreateKernel(const KernelSpec &spec) {
  // The key is everything that makes two kernels different but the name.
  std::string key = fmt::format("{},{},{}|", spec.workgroupSize[0],
                                spec.workgroupSize[1], spec.workgroupSize[2]);
  for (gpu::Access a : spec.bindings)
    key += gpu::stringifyAccess(a).str() + ",";
  key += "|";
  for (Type t : spec.pushConstantTypes) {
    llvm::raw_string_ostream os(key);
    os << t << ",";
  }
  key += "|" + spec.glsl;
  auto it = kernels.find(key);
  if (it != kernels.end())
    return it->second;

  std::string name = spec.name.empty() ? "kernel" : spec.name;
  unsigned &count = nameCounts[name];
  std::string unique = name;
  while (count) {
    unique = fmt::format("{}_{}", name, count++);
    if (!nameCounts.count(unique))
      break;
  }
  count = std::max(count, 1u);
  nameCounts[unique] = std::max(nameCounts[unique], 1u);

  // Kernels go before the function being lowered, in creation order.
  OpBuilder::InsertionGuard guard(builder);
  Operation *func = current;
  while (func->getParentOp() != module.getOperation())
    func = func->getParentOp();
  builder.setInsertionPoint(func);
  builder.create<gpu::KernelOp>(current->getLoc(), unique, spec.bindings,
                                spec.workgroupSize, spec.pushConstantTypes,
                                StringRef(spec.glsl));
  ++numKernels;
  KernelRef ref = StringAttr::get(getContext(), unique);
  kernels[key] = ref;
  return ref;
}

void LoweringContext::dispatch(KernelRef kernel, std::array<Size, 3> workgroups,
                               ValueRange bindings,
                               ArrayRef<OpFoldResult> pushConstants) {
  SmallVector<OpFoldResult, 3> counts;
  for (Size count : workgroups)
    counts.push_back(count.toFoldResult(builder));
  builder.create<gpu::DispatchOp>(current->getLoc(), kernel.getValue(), counts,
                                  bindings, pushConstants);
  ++numDispatches;
}

void LoweringContext::dispatch(KernelRef kernel,
                               std::array<uint64_t, 3> workgroups,
                               ValueRange bindings,
                               ArrayRef<Attribute> pushConstants) {
  builder.create<gpu::DispatchOp>(current->getLoc(), kernel.getValue(),
                                  workgroups, bindings, pushConstants);
  ++numDispatches;
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

static llvm::StringMap<const KernelGenerator *> buildTable() {
  llvm::StringMap<const KernelGenerator *> table;
  for (ArrayRef<KernelGenerator> family :
       {getElementwiseGenerators(), getMatMulGenerators(), getConvGenerators(),
        getReductionGenerators(), getNormalizationGenerators(),
        getRotaryGenerators(), getAttentionGenerators(), getPoolGenerators(),
        getDataMovementGenerators(), getTopKGenerators(),
        getCompressGenerators(), getBlockQuantizedGenerators(),
        getResizeGenerators(), getDepthSpaceGenerators(), getCumSumGenerators(),
        getOneHotGenerators(), getEinsumGenerators()})
    for (const KernelGenerator &generator : family)
      table.try_emplace(generator.opName, &generator);
  return table;
}

const KernelGenerator *lookupKernelGenerator(StringRef opName) {
  static const llvm::StringMap<const KernelGenerator *> table = buildTable();
  return table.lookup(opName);
}

} // namespace onyx::lowering
