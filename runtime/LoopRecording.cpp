//===- LoopRecording.cpp - Functions with gpu.loops -----------------------===//

#include "runtime/LoopRecording.h"

#include "runtime/ModuleValidation.h"
#include "runtime/Recording.h"

#include "ir/Block.h"
#include "ir/Diagnostics.h"
#include "ir/Region.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstring>

namespace onyx::runtime {

bool LoopRuns::hasLoops(FuncOp func) {
  return llvm::any_of(func.front(),
                      [](Operation &op) { return isa<gpu::LoopOp>(&op); });
}

FailureOr<std::unique_ptr<Executable>>
LoopRuns::load(const Device &device, ModuleOp module, FuncOp func,
               const LoadOptions &options) {
  std::unique_ptr<LoopRuns> runs(new LoopRuns(device, module, func, options));
  // The host ops that compute the trip counts, found backwards from them;
  // they may read the arguments (their shapes and values) only.
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> worklist;
  for (Operation &op : func.front())
    if (auto loop = dyn_cast<gpu::LoopOp>(&op)) {
      runs->loops.push_back(loop);
      worklist.push_back(loop.getTripCount());
    }
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || !needed.insert(def).second)
      continue;
    if (isa<gpu::ReadCountOp>(def))
      continue;
    if (!isa<gpu::ConstantOp, gpu::DimOp, gpu::ExtractOp, gpu::HostArithOp,
             gpu::SelectOp, gpu::ScaleDimOp, gpu::RangeCountOp>(def))
      return def->emitOpError()
             << "computes a gpu.loop's trip count, which only host ops of "
                "the arguments' shapes and values may";
    for (Value operand : def->getOperands())
      if (operand.getType().isIndex())
        worklist.push_back(operand);
  }
  for (Operation &op : func.front())
    if (needed.contains(&op)) {
      runs->program.push_back(&op);
      if (isa<gpu::ReadCountOp>(&op))
        runs->readCounts.push_back(&op);
    }
  if (!runs->readCounts.empty() && failed(runs->loadProbe()))
    return failure();

  std::unique_ptr<Executable> exe(
      new Executable(device, func, std::max(2u, options.maxRecordings)));
  exe->loops = std::move(runs);
  return exe;
}

LogicalResult LoopRuns::loadProbe() {
  // The function up to the last count a trip count needs, returning the
  // counts' views instead of its results.
  probeModule = OwningOpRef<ModuleOp>(cast<ModuleOp>(module->clone()));
  FailureOr<FuncOp> probe = findFunction(*probeModule, func.getSymName());
  if (failed(probe))
    return failure();
  SmallVector<Operation *> ops;
  for (Operation &op : probe->front())
    ops.push_back(&op);
  SmallVector<Operation *> counts;
  unsigned position = 0, last = 0;
  for (Operation &op : func.front()) {
    if (llvm::is_contained(readCounts, &op)) {
      counts.push_back(ops[position]);
      last = position;
    }
    ++position;
  }
  OpBuilder builder(module->getContext());
  builder.setInsertionPointAfter(ops[last]);
  SmallVector<Value> results;
  SmallVector<Type> types;
  for (Operation *count : counts) {
    results.push_back(
        builder.create<gpu::DownloadOp>(count->getLoc(), count->getOperand(0))
            ->getResult(0));
    types.push_back(results.back().getType());
  }
  builder.create<ReturnOp>(func.getLoc(), ValueRange(results));
  for (Operation *op : llvm::reverse(ArrayRef(ops).drop_front(last + 1))) {
    for (Value result : op->getResults())
      result.dropAllUses();
    op->erase();
  }
  // What only the counts read back used is gone: nothing reads them now.
  for (Operation *op : llvm::reverse(ArrayRef(ops).take_front(last + 1)))
    if (isa<gpu::ReadCountOp>(op) && op->use_empty())
      op->erase();
  probe->setFunctionType(FunctionType::get(
      module->getContext(), probe->getFunctionType().getInputs(), types));
  LoadOptions probeOptions = options;
  probeOptions.function = func.getSymName().str();
  FailureOr<std::unique_ptr<Executable>> exe =
      Executable::load(device, *probeModule, probeOptions);
  if (failed(exe))
    return failure();
  probeExe = std::move(*exe);
  return success();
}

FailureOr<SmallVector<int64_t>>
LoopRuns::getTripCounts(ArrayRef<HostTensorRef> inputs) {
  // The copy checks the inputs in full; the trip counts need the ones
  // their host ops read.
  ArrayRef<Type> types = func.getFunctionType().getInputs();
  if (inputs.size() != types.size())
    return emitError(func.getLoc())
           << "@" << func.getSymName() << " takes " << types.size()
           << " inputs, got " << inputs.size();
  llvm::DenseMap<Value, int64_t> values;
  if (probeExe) {
    // The counts the trip counts need, read back by a run of the function
    // up to them; the copy recorded for these trip counts reads them again
    // where it splits.
    FailureOr<std::vector<HostTensor>> counts = probeExe->runViews(inputs);
    if (failed(counts))
      return failure();
    for (auto [op, count] : llvm::zip(readCounts, *counts)) {
      int64_t value = 0;
      if (count.data.size() == 4) {
        int32_t v;
        std::memcpy(&v, count.data.data(), 4);
        value = v;
      } else {
        std::memcpy(&value, count.data.data(), 8);
      }
      if (value < 0)
        return op->emitOpError() << "read a negative count, " << value;
      values[op->getResult(0)] = value;
    }
  }
  auto input = [&](Value tensor) -> FailureOr<const HostTensorRef *> {
    unsigned arg = cast<BlockArgument>(tensor).getArgNumber();
    const HostTensorRef &ref = inputs[arg];
    auto declared = cast<RankedTensorType>(types[arg]);
    if (ref.type.getElementType() != declared.getElementType() ||
        ref.type.getRank() != declared.getRank())
      return emitError(func.getLoc()) << "input #" << arg << " is a "
                                      << ref.type << ", not a " << declared;
    return &ref;
  };
  for (Operation *op : program) {
    std::string error;
    std::optional<int64_t> value;
    if (isa<gpu::ReadCountOp>(op))
      continue;
    if (auto constant = dyn_cast<gpu::ConstantOp>(op)) {
      value = constant.getValue();
    } else if (auto dim = dyn_cast<gpu::DimOp>(op)) {
      FailureOr<const HostTensorRef *> ref = input(dim.getTensor());
      if (failed(ref))
        return failure();
      value = (*ref)->type.getShape()[dim.getIndex()];
    } else if (auto arith = dyn_cast<gpu::HostArithOp>(op)) {
      int64_t lhs = values.lookup(op->getOperand(0));
      int64_t rhs = values.lookup(op->getOperand(1));
      FailureOr<int64_t> result = arith.evaluate(lhs, rhs, error);
      if (failed(result))
        return op->emitOpError()
               << "of " << lhs << " and " << rhs << " " << error;
      value = *result;
    } else if (isa<gpu::SelectOp>(op)) {
      value = values.lookup(
          op->getOperand(values.lookup(op->getOperand(0)) ? 1 : 2));
    } else {
      // The ops that read argument values: the data must be there.
      for (Value operand : op->getOperands()) {
        if (!isa<RankedTensorType>(operand.getType()))
          continue;
        FailureOr<const HostTensorRef *> ref = input(operand);
        if (failed(ref))
          return failure();
        uint64_t bytes = getElementByteSize((*ref)->type.getElementType()) *
                         uint64_t((*ref)->type.getNumElements());
        if ((*ref)->data.size() != bytes)
          return emitError(op->getLoc())
                 << "reads the values of input #"
                 << cast<BlockArgument>(operand).getArgNumber()
                 << " for a gpu.loop's trip count, and the input has "
                 << (*ref)->data.size() << " bytes where its shape needs "
                 << bytes;
      }
      if (auto extract = dyn_cast<gpu::ExtractOp>(op))
        value = evaluateExtract(extract, inputs, error);
      else if (auto scale = dyn_cast<gpu::ScaleDimOp>(op))
        value = evaluateScaleDim(scale, values.lookup(op->getOperand(0)),
                                 inputs, error);
      else
        value = evaluateRangeCount(cast<gpu::RangeCountOp>(op), inputs, error);
      if (!value)
        return emitError(op->getLoc()) << error;
    }
    values[op->getResult(0)] = *value;
  }
  SmallVector<int64_t> counts;
  for (gpu::LoopOp loop : loops) {
    int64_t count = values.lookup(loop.getTripCount());
    if (count < 0)
      return loop.emitOpError() << "has a trip count of " << count;
    counts.push_back(count);
  }
  return counts;
}

FailureOr<Executable *> LoopRuns::getCopy(ArrayRef<int64_t> counts) {
  for (auto it = copies.begin(); it != copies.end(); ++it)
    if (ArrayRef(it->counts) == counts) {
      std::rotate(copies.begin(), it, it + 1);
      return copies.front().exe.get();
    }
  // Every body recorded once per iteration, within a bound: a count far
  // beyond what the memory could hold would otherwise clone for long.
  int64_t recorded = 0;
  for (auto [loop, count] : llvm::zip(loops, counts)) {
    int64_t ops = 0;
    for (Operation &op : loop.getBody())
      op.walk([&](Operation *) { ++ops; });
    if (count > 0 && ops > (kMaxRecordedOps - recorded) / count)
      return loop.emitOpError()
             << "runs " << count << " iterations of a body of " << ops
             << " ops, each recorded on its own: more than the "
             << kMaxRecordedOps << " ops a run's loops may be recorded as";
    recorded += ops * count;
  }

  Copy copy;
  copy.counts.assign(counts.begin(), counts.end());
  copy.module = OwningOpRef<ModuleOp>(cast<ModuleOp>(module->clone()));
  FailureOr<FuncOp> clone = findFunction(*copy.module, func.getSymName());
  if (failed(clone))
    return failure();
  SmallVector<gpu::LoopOp> cloned;
  for (Operation &op : clone->front())
    if (auto loop = dyn_cast<gpu::LoopOp>(&op))
      cloned.push_back(loop);
  OpBuilder builder(module->getContext());
  for (auto [loop, count] : llvm::zip(cloned, counts)) {
    builder.setInsertionPoint(loop);
    for (int64_t i = 0; i < count; ++i) {
      IRMapping map;
      map.map(loop.getIterationNumber(),
              builder.create<gpu::ConstantOp>(loop.getLoc(), i)->getResult(0));
      for (Operation &op : loop.getBody())
        builder.clone(op, map);
    }
    loop->erase();
  }
  LoadOptions copyOptions = options;
  copyOptions.function = func.getSymName().str();
  FailureOr<std::unique_ptr<Executable>> exe =
      Executable::load(device, *copy.module, copyOptions);
  if (failed(exe))
    return failure();
  copy.exe = std::move(*exe);
  // The last two sets of counts keep their copies (the one a run uses and
  // the one before it), never the one in flight.
  while (copies.size() >= 2) {
    auto victim = llvm::find_if(llvm::reverse(copies), [&](const Copy &c) {
      return c.exe.get() != inFlight;
    });
    if (victim == copies.rend())
      break;
    copies.erase(std::next(victim).base());
  }
  copies.insert(copies.begin(), std::move(copy));
  return copies.front().exe.get();
}

LogicalResult LoopRuns::launch(Executable &self, ArrayRef<HostTensorRef> inputs,
                               const RunOptions &options) {
  if (inFlight)
    return emitError(func.getLoc()) << "a run of @" << func.getSymName()
                                    << " is in flight; finish it before the "
                                       "next";
  FailureOr<SmallVector<int64_t>> counts = getTripCounts(inputs);
  if (failed(counts))
    return failure();
  FailureOr<Executable *> exe = getCopy(*counts);
  if (failed(exe) || failed((*exe)->launch(inputs, options)))
    return failure();
  inFlight = *exe;
  self.lastStats = inFlight->getStats();
  return success();
}

FailureOr<std::vector<HostTensor>> LoopRuns::finish(Executable &self) {
  if (!inFlight)
    return emitError(func.getLoc())
           << "no run of @" << func.getSymName() << " to finish";
  Executable *exe = inFlight;
  inFlight = nullptr;
  FailureOr<std::vector<HostTensor>> outputs = exe->finish();
  self.lastStats = exe->getStats();
  return outputs;
}

LogicalResult LoopRuns::prepare(ArrayRef<HostTensorRef> inputs,
                                const RunOptions &options) {
  FailureOr<SmallVector<int64_t>> counts = getTripCounts(inputs);
  if (failed(counts))
    return failure();
  FailureOr<Executable *> exe = getCopy(*counts);
  return failure(failed(exe) || failed((*exe)->prepare(inputs, options)));
}

} // namespace onyx::runtime
