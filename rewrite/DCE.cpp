//===- DCE.cpp - Dead code elimination ------------------------------------===//
//
// Erases pure ops whose results are unused. Each block is swept once from
// its end to its start, and an op's regions are swept before the op itself:
// a value is only used after its definition, in its block or in regions
// nested there, so by the time the sweep reaches an op, every op that could
// use it has already been kept or erased. One sweep therefore reaches the
// fixpoint, and use-lists make each check O(1).
//
// Side-effecting and unregistered ops (whose effects are unknown) stay, and
// so do terminators, which no value flows out of but which say where
// control goes. An op with regions goes only if everything inside it is
// pure too.
//
//===----------------------------------------------------------------------===//

#include "rewrite/Passes.h"

#include "ir/Region.h"

using namespace onyx;

namespace {

class DCE : public PassWrapper<DCE> {
public:
  DCE()
      : PassWrapper(
            "dce",
            "Erase operations without side effects whose results are unused") {}
  StringRef getName() const override { return "DCE"; }
  void runOnOperation() override;

private:
  void eraseIfDead(Operation *op);

  PassStatistic numDCE{this, "num-dce'd", "Number of operations DCE'd"};
};

/// A block being swept backwards from `next`, or (with no block) an op
/// whose regions have been swept and which is now decided on.
struct Frame {
  Block *block;
  Operation *next;
};

} // namespace

static bool isPureWithoutEffects(Operation *op) {
  return op->hasTrait(OpTrait::Pure) && !op->hasTrait(OpTrait::Terminator);
}

void DCE::eraseIfDead(Operation *op) {
  if (!isPureWithoutEffects(op) || !op->use_empty())
    return;
  // Nested terminators only hand values to the op being erased.
  if (op->getNumRegions() != 0) {
    bool allPure = !op->walk([&](Operation *nested) {
                        return nested == op || nested->hasTrait(OpTrait::Pure)
                                   ? WalkResult::advance()
                                   : WalkResult::interrupt();
                      }).wasInterrupted();
    if (!allPure)
      return;
  }
  op->erase();
  ++numDCE;
}

void DCE::runOnOperation() {
  SmallVector<Frame> stack;
  auto pushRegions = [&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        stack.push_back({&block, block.empty() ? nullptr : &block.back()});
  };
  pushRegions(getOperation());
  while (!stack.empty()) {
    Frame &frame = stack.back();
    if (!frame.block) {
      Operation *op = frame.next;
      stack.pop_back();
      eraseIfDead(op);
      continue;
    }
    Operation *op = frame.next;
    if (!op) {
      stack.pop_back();
      continue;
    }
    // Taken before `op` may be erased; erasing `op` never erases ops before
    // it, those are only visited later.
    frame.next = op->getPrevNode();
    if (op->getNumRegions() == 0) {
      eraseIfDead(op);
      continue;
    }
    stack.push_back({nullptr, op});
    pushRegions(op);
  }
}

std::unique_ptr<Pass> onyx::createDCEPass() { return std::make_unique<DCE>(); }
