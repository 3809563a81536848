//===- HostProgram.cpp - The host ops of a recording ----------------------===//
//
// The host ops (HostOps.h) as a flat program over numbered value slots,
// built once at load and evaluated per recording from the arguments'
// shapes and the values of the few that read argument values; and the key
// that recordings are cached by.
//
//===----------------------------------------------------------------------===//
#include "runtime/Recording.h"

#include "dialect/gpu/HostOps.h"

#include "ir/Diagnostics.h"

#include <cstdio>
#include <cstring>

namespace onyx::runtime {

/// Reads element `index` of an integer tensor as an int64.
static int64_t readInteger(const HostTensorRef &tensor, int64_t index) {
  Type type = tensor.type.getElementType();
  unsigned width = getElementByteSize(type);
  const char *at = tensor.data.data() + index * width;
  bool isUnsigned = cast<IntegerType>(type).isUnsigned();
  switch (width) {
  case 1:
    return isUnsigned ? int64_t(uint8_t(*at)) : int64_t(int8_t(*at));
  case 2: {
    uint16_t v;
    std::memcpy(&v, at, 2);
    return isUnsigned ? int64_t(v) : int64_t(int16_t(v));
  }
  case 4: {
    uint32_t v;
    std::memcpy(&v, at, 4);
    return isUnsigned ? int64_t(v) : int64_t(int32_t(v));
  }
  default: {
    int64_t v;
    std::memcpy(&v, at, 8);
    return v;
  }
  }
}

/// Reads element `index` of a float tensor, widened to double.
static double readFloat(const HostTensorRef &tensor, int64_t index = 0) {
  auto type = cast<FloatType>(tensor.type.getElementType());
  unsigned width = getElementByteSize(type);
  uint64_t bits = 0;
  std::memcpy(&bits, tensor.data.data() + index * width, width);
  llvm::APFloat value(type.getFloatSemantics(), llvm::APInt(width * 8, bits));
  bool lost;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
  return value.convertToDouble();
}

/// The value of `op`, a gpu.range_count, for `inputs`; nullopt with the
/// reason in `error` where the run cannot have one.
std::optional<int64_t> evaluateRangeCount(gpu::RangeCountOp op,
                                          ArrayRef<HostTensorRef> inputs,
                                          std::string &error) {
  double bounds[3];
  for (unsigned i = 0; i < 3; ++i)
    bounds[i] = readFloat(
        inputs[cast<BlockArgument>(op->getOperand(i)).getArgNumber()]);
  std::optional<int64_t> count =
      gpu::evaluateRangeCount(bounds[0], bounds[1], bounds[2], error);
  if (!count) {
    char text[128];
    std::snprintf(text, sizeof(text),
                  "a range of start %g, limit %g and delta %g: ", bounds[0],
                  bounds[1], bounds[2]);
    error = text + error;
  }
  return count;
}

/// The value of `op`, a gpu.extract, for `inputs`; nullopt with the reason
/// in `error` where a float element has no integer value.
std::optional<int64_t> evaluateExtract(gpu::ExtractOp op,
                                       ArrayRef<HostTensorRef> inputs,
                                       std::string &error) {
  const HostTensorRef &tensor =
      inputs[cast<BlockArgument>(op.getTensor()).getArgNumber()];
  if (!isa<FloatType>(tensor.type.getElementType()))
    return readInteger(tensor, op.getIndex());
  double value = readFloat(tensor, op.getIndex());
  std::optional<int64_t> result = gpu::evaluateFloatExtract(value, error);
  if (!result) {
    char text[64];
    std::snprintf(text, sizeof(text), "%g", value);
    error =
        "element " + std::to_string(op.getIndex()) + " (" + text + ") " + error;
  }
  return result;
}

/// The value of `op`, a gpu.scale_dim of `size`, for `inputs`; nullopt with
/// the reason in `error` where it fails.
std::optional<int64_t> evaluateScaleDim(gpu::ScaleDimOp op, int64_t size,
                                        ArrayRef<HostTensorRef> inputs,
                                        std::string &error) {
  double scale =
      readFloat(inputs[cast<BlockArgument>(op.getTensor()).getArgNumber()],
                op.getIndex());
  std::optional<int64_t> result = gpu::evaluateScaleDim(size, scale, error);
  if (!result) {
    char text[64];
    std::snprintf(text, sizeof(text), "%g", scale);
    error = std::string("a scale of ") + text + " " + error;
  }
  return result;
}

void Executable::buildHostProgram() {
  auto slotOf = [&](Value value) {
    auto [it, inserted] = hostSlots.try_emplace(value, hostConstants.size());
    if (inserted)
      hostConstants.push_back(0);
    return it->second;
  };
  for (Operation &op : func.front()) {
    if (auto constant = dyn_cast<gpu::ConstantOp>(&op)) {
      unsigned slot = slotOf(constant->getResult(0));
      hostConstants[slot] = constant.getValue();
      continue;
    }
    if (!isa<gpu::DimOp, gpu::ExtractOp, gpu::RangeCountOp, gpu::ScaleDimOp,
             gpu::ReadCountOp, gpu::HostArithOp, gpu::SelectOp, gpu::AssertOp>(
            &op))
      continue;
    HostStep step{&op, 0, {}};
    // Dims, extracts and range counts read block arguments, and read counts
    // a view, which have no slot; an assert's operands are its condition,
    // then the values its message shows.
    for (Value operand : op.getOperands())
      if (!isa<BlockArgument>(operand) && operand.getType().isIndex())
        step.operands.push_back(slotOf(operand));
    if (op.getNumResults())
      step.result = slotOf(op.getResult(0));
    if (auto arith = dyn_cast<gpu::HostArithOp>(&op))
      step.arith = arith.getFunction();
    if (auto dim = dyn_cast<gpu::DimOp>(&op)) {
      step.kind = StepKind::Dim;
      step.argument = cast<BlockArgument>(dim.getTensor()).getArgNumber();
      step.dim = dim.getIndex();
    }
    if (isa<gpu::ExtractOp>(&op))
      step.kind = StepKind::Extract;
    if (isa<gpu::ScaleDimOp>(&op))
      step.kind = StepKind::ScaleDim;
    if (isa<gpu::RangeCountOp>(&op))
      step.kind = StepKind::RangeCount;
    if (isa<gpu::ReadCountOp>(&op))
      step.kind = StepKind::ReadCount;
    if (isa<gpu::SelectOp>(&op))
      step.kind = StepKind::Select;
    if (isa<gpu::AssertOp>(&op))
      step.kind = StepKind::Assert;
    hostProgram.push_back(std::move(step));
  }
  // Read where a value no host op defines is looked up by slot.
  zeroSlot = hostConstants.size();
  hostConstants.push_back(0);
}

LogicalResult Executable::evaluateHostOps(Recording &r,
                                          ArrayRef<HostTensorRef> inputs,
                                          ArrayRef<int64_t> counts,
                                          std::vector<bool> *known) {
  r.values.slots = &hostSlots;
  std::vector<int64_t> &v = r.values.data;
  v = hostConstants;
  if (known)
    known->assign(v.size(), true);
  unsigned readCount = 0;
  std::string error;
  for (const HostStep &step : hostProgram) {
    // Integer arithmetic, most of the program, first (planning for bounds
    // tracks what is known below).
    if (step.arith && !known) {
      int64_t lhs = v[step.operands[0]], rhs = v[step.operands[1]];
      std::optional<int64_t> result = step.arith(lhs, rhs, error);
      if (!result)
        return step.op->emitOpError()
               << "of " << lhs << " and " << rhs << " " << error;
      v[step.result] = *result;
      continue;
    }
    Operation &op = *step.op;
    if (known) {
      // Planning for bounds: only what the dims decide is known.
      if (step.kind == StepKind::Assert)
        continue;
      bool isKnown =
          step.kind != StepKind::ReadCount && step.kind != StepKind::Extract &&
          step.kind != StepKind::ScaleDim &&
          step.kind != StepKind::RangeCount &&
          llvm::all_of(step.operands, [&](unsigned s) { return (*known)[s]; });
      if (auto arith = dyn_cast<gpu::HostArithOp>(&op); arith && isKnown) {
        FailureOr<int64_t> result =
            arith.evaluate(v[step.operands[0]], v[step.operands[1]], error);
        isKnown = succeeded(result);
        if (isKnown)
          v[step.result] = *result;
        (*known)[step.result] = isKnown;
        continue;
      }
      if (!isKnown) {
        (*known)[step.result] = false;
        continue;
      }
    }
    switch (step.kind) {
    case StepKind::ReadCount:
      // The ops after a count not read yet wait for a later segment.
      if (readCount == counts.size())
        return success();
      v[step.result] = counts[readCount++];
      break;
    case StepKind::Dim:
      v[step.result] = inputs[step.argument].type.getShape()[step.dim];
      break;
    case StepKind::Extract: {
      std::optional<int64_t> value =
          evaluateExtract(cast<gpu::ExtractOp>(op), inputs, error);
      if (!value)
        return emitError(op.getLoc()) << error;
      v[step.result] = *value;
      break;
    }
    case StepKind::ScaleDim: {
      std::optional<int64_t> value = evaluateScaleDim(
          cast<gpu::ScaleDimOp>(op), v[step.operands[0]], inputs, error);
      if (!value)
        return emitError(op.getLoc()) << error;
      v[step.result] = *value;
      break;
    }
    case StepKind::RangeCount: {
      std::optional<int64_t> value =
          evaluateRangeCount(cast<gpu::RangeCountOp>(op), inputs, error);
      // The location is the onnx node's.
      if (!value)
        return emitError(op.getLoc()) << error;
      v[step.result] = *value;
      break;
    }
    case StepKind::Select:
      v[step.result] = v[step.operands[v[step.operands[0]] ? 1 : 2]];
      break;
    case StepKind::Assert: {
      if (v[step.operands[0]])
        break;
      SmallVector<int64_t> values;
      for (unsigned slot : ArrayRef<unsigned>(step.operands).drop_front())
        values.push_back(v[slot]);
      // The message names the op it checks for (the onnx node).
      return emitError(op.getLoc())
             << cast<gpu::AssertOp>(op).formatMessage(values);
    }
    default:
      break;
    }
  }
  return success();
}

std::vector<int64_t> getRecordingKey(ArrayRef<Operation *> readers,
                                     ArrayRef<HostTensorRef> inputs,
                                     const RunOptions &options) {
  std::vector<int64_t> key;
  for (const HostTensorRef &input : inputs) {
    key.push_back(input.type.getRank());
    llvm::append_range(key, input.type.getShape());
  }
  for (Operation *op : readers) {
    // An integer element is its value; a float one (gpu.extract of a
    // float, gpu.scale_dim) its bits as a double.
    Value tensor;
    int64_t index = 0;
    if (auto extract = dyn_cast<gpu::ExtractOp>(op)) {
      tensor = extract.getTensor();
      index = extract.getIndex();
    } else if (auto scale = dyn_cast<gpu::ScaleDimOp>(op)) {
      tensor = scale.getTensor();
      index = scale.getIndex();
    }
    if (tensor) {
      const HostTensorRef &t =
          inputs[cast<BlockArgument>(tensor).getArgNumber()];
      if (isa<FloatType>(t.type.getElementType())) {
        double value = readFloat(t, index);
        int64_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        key.push_back(bits);
      } else {
        key.push_back(readInteger(t, index));
      }
    }
    // A count that fails is reported when the host ops run.
    if (auto count = dyn_cast<gpu::RangeCountOp>(op)) {
      std::string error;
      key.push_back(evaluateRangeCount(count, inputs, error).value_or(-1));
    }
  }
  // Where arguments come from and results go: -1 separates the lists.
  key.push_back(-1);
  llvm::append_range(key, options.argumentsFromState);
  key.push_back(-1);
  llvm::append_range(key, options.resultsToState);
  for (auto [result, count] : options.lastElements) {
    key.push_back(-1);
    key.push_back(result);
    key.push_back(int64_t(count));
  }
  key.push_back(-2);
  llvm::append_range(key, options.resultsToStateAndHost);
  key.push_back(-2);
  llvm::append_range(key, options.discardedResults);
  return key;
}

} // namespace onyx::runtime
