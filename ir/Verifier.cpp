//===- Verifier.cpp - Checking that IR is well formed ---------------------===//
//
// One depth-first walk over the IR with an explicit stack, so that deeply
// nested programs cannot overflow the native stack. Each op is checked on
// the way down, each block on the way out, and an op's verifyRegions hook
// runs once its regions are done.
//
// Dominance needs no dominator tree: there are no branches between blocks,
// so a value is visible exactly in its own block after its definition and in
// the regions nested there. The stack of blocks being walked is therefore
// the scope of visible values, and checking an operand is a map lookup plus
// an order-index comparison, linear in the size of the program overall.
//
//===----------------------------------------------------------------------===//

#include "ir/Verifier.h"

#include "ir/AsmPrinter.h"
#include "ir/Context.h"
#include "ir/Dialect.h"
#include "ir/Region.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace onyx;

namespace {

constexpr StringRef kSymbolNameAttr = "sym_name";
constexpr StringRef kVisibilityAttr = "sym_visibility";

/// An op whose regions are being walked, and the block of them being walked.
struct Frame {
  Operation *op;
  Block *block = nullptr;
  Block::iterator nextOp;
  /// The op of `block` being checked, or the one containing it.
  Operation *current = nullptr;
  /// Index of the next region of `op` to walk once `block` is done.
  unsigned nextRegion = 0;
  /// Index of the innermost frame whose op is IsolatedFromAbove (this one or
  /// an outer one): values of blocks in frames below it are out of reach.
  unsigned isolationFloor = 0;
  /// Failures counted when the walk entered `op`; more at exit mean that
  /// its regions did not verify.
  unsigned failuresAtEntry = 0;
};

class Verifier {
public:
  LogicalResult run(Operation &root);

private:
  void pushContext(Block &block, Operation &current);
  void pushOp(Operation *op);
  void enterBlock(Block &block);
  void exitBlock(Block &block);
  void exitOp(Frame &frame);
  Block *nextBlock(Frame &frame);

  /// Checks `op` before its regions; returns whether its regions should be
  /// walked, which they are not once the op's own invariants fail since
  /// nested verifiers may rely on their parent being valid.
  bool enterOp(Operation &op);
  LogicalResult verifyTypeSizes(Operation &op);
  LogicalResult verifyOwnInvariants(Operation &op);
  LogicalResult verifyRegistration(Operation &op);
  LogicalResult verifySymbol(Operation &op);
  LogicalResult verifySymbolTableShape(Operation &op);
  LogicalResult verifyUniqueSymbols(Operation &op);
  LogicalResult verifyOperandScopes(Operation &op);
  LogicalResult verifyOperandScope(Operation &op, unsigned index);

  LogicalResult fail() {
    ++numFailures;
    return failure();
  }
  /// Takes the diagnostic that reports the failure so that reporting and
  /// counting go together; it is reported at the end of the caller's
  /// full expression.
  LogicalResult fail(InFlightDiagnostic &&) { return fail(); }

  SmallVector<Frame> frames;
  /// The frame walking each block on the stack.
  llvm::DenseMap<Block *, unsigned> frameOfBlock;
  unsigned numFailures = 0;
};

} // namespace

LogicalResult Verifier::run(Operation &root) {
  // The blocks enclosing the root are scopes too: the root's operands and
  // the values its regions use from outside are checked against them.
  SmallVector<Operation *> ancestors;
  for (Operation *op = &root; op && op->getBlock();
       op = op->getBlock()->getParentOp())
    ancestors.push_back(op);
  for (Operation *op : llvm::reverse(ancestors))
    pushContext(*op->getBlock(), *op);
  const size_t numContextFrames = frames.size();

  if (enterOp(root) && root.getNumRegions() != 0)
    pushOp(&root);
  while (frames.size() > numContextFrames) {
    Frame &frame = frames.back();
    if (frame.block && frame.nextOp != frame.block->end()) {
      Operation &op = *frame.nextOp++;
      frame.current = &op;
      if (enterOp(op) && op.getNumRegions() != 0)
        pushOp(&op);
      continue;
    }
    if (frame.block) {
      exitBlock(*frame.block);
      frameOfBlock.erase(frame.block);
    }
    if (Block *next = nextBlock(frame)) {
      frame.block = next;
      enterBlock(*next);
      continue;
    }
    exitOp(frame);
    frames.pop_back();
  }
  return success(numFailures == 0);
}

void Verifier::pushContext(Block &block, Operation &current) {
  pushOp(block.getParentOp());
  Frame &frame = frames.back();
  frame.block = &block;
  frame.nextOp = block.end();
  frame.current = &current;
  frameOfBlock[&block] = frames.size() - 1;
}

/// `op` is null only for the context frame of a block outside any op.
void Verifier::pushOp(Operation *op) {
  Frame frame;
  frame.op = op;
  if (op && op->hasTrait(OpTrait::IsolatedFromAbove))
    frame.isolationFloor = frames.size();
  else if (!frames.empty())
    frame.isolationFloor = frames.back().isolationFloor;
  frame.failuresAtEntry = numFailures;
  frames.push_back(frame);
}

Block *Verifier::nextBlock(Frame &frame) {
  if (frame.block)
    if (Block *next = frame.block->getNextNode())
      return next;
  while (frame.nextRegion < frame.op->getNumRegions()) {
    Region &region = frame.op->getRegion(frame.nextRegion++);
    if (!region.empty())
      return &region.front();
  }
  return nullptr;
}

/// Whether `block` may end without a terminator: only the single block of a
/// region whose op says so, or whose op is unregistered (it might say so).
static bool mayOmitTerminator(Block &block) {
  Region *region = block.getParent();
  if (!region)
    return true;
  if (!region->hasOneBlock())
    return false;
  Operation *op = region->getParentOp();
  return !op || !op->isRegistered() || op->hasTrait(OpTrait::NoTerminator);
}

void Verifier::enterBlock(Block &block) {
  Frame &frame = frames.back();
  frame.nextOp = block.begin();
  frame.current = nullptr;
  frameOfBlock[&block] = frames.size() - 1;
  // Operand checks compare positions; number the ops once up front.
  if (!block.isOpOrderValid())
    block.recomputeOpOrder();
  if (block.empty() && !mayOmitTerminator(block))
    (void)fail(emitError(frame.op->getLoc(),
                         "empty block: expect at least a terminator"));
}

void Verifier::exitBlock(Block &block) {
  if (block.empty() || mayOmitTerminator(block))
    return;
  // An unregistered op might be a terminator; give it the benefit of doubt.
  Operation &last = block.back();
  if (!last.isRegistered() || last.hasTrait(OpTrait::Terminator))
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  last.print(os, OpPrintingFlags().printGenericOpForm());
  StringRef printed = StringRef(text).rtrim('\n');
  InFlightDiagnostic diag = last.emitError("block with no terminator, has ");
  // An op spanning several lines reads better starting on its own line.
  if (printed.contains('\n'))
    diag << '\n';
  (void)fail(std::move(diag << printed));
}

void Verifier::exitOp(Frame &frame) {
  Operation &op = *frame.op;
  if (numFailures != frame.failuresAtEntry || !op.isRegistered())
    return;
  if (OpInfo::VerifyFn verifyRegions = op.getInfo()->verifyRegions)
    if (failed(verifyRegions(&op)))
      (void)fail();
}

bool Verifier::enterOp(Operation &op) {
  // Op hooks may look at operands, so null ones stop everything else.
  for (Value operand : op.getOperands()) {
    if (!operand) {
      (void)fail(op.emitError("null operand found"));
      return false;
    }
  }
  if (failed(verifyTypeSizes(op)))
    return false;
  if (failed(verifyOwnInvariants(op)))
    return false;
  // Neither misplaced operands nor clashing symbols make nested ops unsafe
  // to verify, so the walk goes on below this op.
  (void)verifyOperandScopes(op);
  if (op.hasTrait(OpTrait::SymbolTable))
    (void)verifyUniqueSymbols(op);
  return true;
}

/// Sizes are computed from tensor types everywhere (folding, buffer
/// planning, allocation): a type whose size overflows int64 is refused here
/// once, so that none of them needs to guard a plain product.
LogicalResult Verifier::verifyTypeSizes(Operation &op) {
  for (OpResult result : op.getResults()) {
    auto shaped = dyn_cast<ShapedType>(result.getType());
    if (shaped && !hasRepresentableSize(shaped))
      return fail(op.emitOpError()
                  << "result #" << result.getResultNumber() << " has type "
                  << shaped << ", whose size in bytes does not fit in 64 bits");
  }
  for (Region &region : op.getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments()) {
        auto shaped = dyn_cast<ShapedType>(arg.getType());
        if (shaped && !hasRepresentableSize(shaped))
          return fail(op.emitOpError()
                      << "block argument #" << arg.getArgNumber()
                      << " has type " << shaped
                      << ", whose size in bytes does not fit in 64 bits");
      }
  return success();
}

LogicalResult Verifier::verifyOwnInvariants(Operation &op) {
  if (failed(verifyRegistration(op)))
    return failure();
  if (!op.isRegistered())
    return success();

  if (op.hasTrait(OpTrait::Terminator) && op.getBlock() &&
      &op != &op.getBlock()->back())
    return fail(
        op.emitOpError("must be the last operation in the parent block"));

  if (op.hasTrait(OpTrait::SingleBlock)) {
    for (Region &region : op.getRegions()) {
      if (!region.empty() && !region.hasOneBlock())
        return fail(op.emitOpError()
                    << "expects region #" << region.getRegionNumber()
                    << " to have 0 or 1 blocks");
    }
  }
  if (op.hasTrait(OpTrait::Symbol) && failed(verifySymbol(op)))
    return failure();
  if (op.hasTrait(OpTrait::SymbolTable) && failed(verifySymbolTableShape(op)))
    return failure();

  if (OpInfo::VerifyFn verifyOp = op.getInfo()->verify)
    if (failed(verifyOp(&op)))
      return fail();
  return success();
}

LogicalResult Verifier::verifyRegistration(Operation &op) {
  if (op.isRegistered())
    return success();
  Context *ctx = op.getContext();
  StringRef dialect = op.getName().getDialectNamespace();
  // A loaded dialect knows all its ops: an unknown one is a typo, not an op
  // from elsewhere, even when unregistered dialects are allowed.
  if (Dialect *loaded = ctx->getLoadedDialect(dialect)) {
    if (loaded->allowsUnknownOperations())
      return success();
    return fail(op.emitError()
                << "unregistered operation '" << op.getName().getStringRef()
                << "' found in dialect ('" << dialect
                << "') that does not allow unknown operations");
  }
  if (!ctx->allowsUnregisteredDialects())
    return fail(op.emitOpError()
                << "created with unregistered dialect. If this is intended, "
                   "please call allowUnregisteredDialects() on the Context, "
                   "or use --allow-unregistered-dialect with onyx-opt");
  return success();
}

LogicalResult Verifier::verifySymbol(Operation &op) {
  if (!op.getAttrOfType<StringAttr>(kSymbolNameAttr))
    return fail(op.emitOpError()
                << "requires string attribute '" << kSymbolNameAttr << "'");
  if (Attribute visibility = op.getAttr(kVisibilityAttr)) {
    auto name = dyn_cast<StringAttr>(visibility);
    if (!name)
      return fail(op.emitOpError()
                  << "requires visibility attribute '" << kVisibilityAttr
                  << "' to be a string attribute, but got " << visibility);
    if (!llvm::is_contained(ArrayRef<StringRef>{"public", "private", "nested"},
                            name.getValue()))
      return fail(op.emitOpError() << "visibility expected to be one of "
                                      "[\"public\", \"private\", \"nested\"], "
                                      "but got "
                                   << visibility);
  }
  // A detached symbol is checked on its own; an unregistered parent might
  // be a symbol table.
  Operation *parent = op.getParentOp();
  if (parent && parent->isRegistered() &&
      !parent->hasTrait(OpTrait::SymbolTable))
    return fail(
        op.emitOpError("symbol's parent must have the SymbolTable trait"));
  return success();
}

LogicalResult Verifier::verifySymbolTableShape(Operation &op) {
  if (op.getNumRegions() != 1)
    return fail(
        op.emitOpError("Operations with a 'SymbolTable' must have exactly "
                       "one region"));
  if (!op.getRegion(0).hasOneBlock())
    return fail(
        op.emitOpError("Operations with a 'SymbolTable' must have exactly "
                       "one block"));
  return success();
}

LogicalResult Verifier::verifyUniqueSymbols(Operation &op) {
  llvm::DenseMap<Attribute, Operation *> firstDefinition;
  LogicalResult result = success();
  for (Operation &symbol : op.getRegion(0).front()) {
    auto name = symbol.getAttrOfType<StringAttr>(kSymbolNameAttr);
    if (!name)
      continue;
    auto [it, inserted] = firstDefinition.try_emplace(name, &symbol);
    if (inserted)
      continue;
    InFlightDiagnostic diag = symbol.emitError();
    diag << "redefinition of symbol named '" << name.getValue() << "'";
    diag.attachNote(it->second->getLoc())
        << "see existing symbol definition here";
    result = fail(std::move(diag));
  }
  return result;
}

LogicalResult Verifier::verifyOperandScopes(Operation &op) {
  for (unsigned i = 0, e = op.getNumOperands(); i != e; ++i)
    if (failed(verifyOperandScope(op, i)))
      return failure();
  return success();
}

namespace {
/// Where a value is defined relative to a use it does not dominate.
enum class Relation { SameBlock, SameRegion, ParentRegion, ChildRegion, None };
} // namespace

static Relation relate(Block *useBlock, Block *defBlock) {
  if (useBlock && useBlock == defBlock)
    return Relation::SameBlock;
  Region *useRegion = useBlock ? useBlock->getParent() : nullptr;
  Region *defRegion = defBlock ? defBlock->getParent() : nullptr;
  if (!useRegion || !defRegion)
    return Relation::None;
  if (useRegion == defRegion)
    return Relation::SameRegion;
  if (defRegion->isAncestor(useRegion))
    return Relation::ParentRegion;
  if (useRegion->isAncestor(defRegion))
    return Relation::ChildRegion;
  return Relation::None;
}

/// Reports a use that its operand does not dominate, with a note saying
/// where the operand is defined, in the words of MLIR's verifier.
static InFlightDiagnostic emitDominanceError(Operation &user, unsigned index) {
  Value value = user.getOperand(index);
  InFlightDiagnostic diag = user.emitError();
  diag << "operand #" << index << " does not dominate this use";
  Relation relation = relate(user.getBlock(), value.getParentBlock());
  if (Operation *def = value.getDefiningOp()) {
    static constexpr const char *kWhere[] = {
        "in the same block", "in the same region", "in a parent region",
        "in a child region", "is neither in a parent nor in a child region"};
    diag.attachNote(def->getLoc())
        << "operand defined here (op " << kWhere[unsigned(relation)] << ")";
    return diag;
  }
  Block *owner = cast<BlockArgument>(value).getOwner();
  Operation *ownerOp = owner->getParentOp();
  Diagnostic &note =
      diag.attachNote(ownerOp ? ownerOp->getLoc()
                              : Location(UnknownLoc::get(user.getContext())));
  Region *region = owner->getParent();
  if (!region) {
    note << "operand defined as a block argument (block without parent)";
    return diag;
  }
  // A block argument is in scope throughout its block, so the use is never
  // in the same block.
  static constexpr const char *kWhere[] = {
      "", "in the same region", "in a parent region", "in a child region",
      "neither in a parent nor in a child region"};
  note << "operand defined as a block argument (block #"
       << unsigned(std::distance(region->begin(), owner->getIterator())) << " "
       << kWhere[unsigned(relation)] << ")";
  return diag;
}

LogicalResult Verifier::verifyOperandScope(Operation &op, unsigned index) {
  Value value = op.getOperand(index);
  Block *defBlock = value.getParentBlock();
  Operation *def = value.getDefiningOp();

  Operation *isolated = nullptr;
  unsigned floor = 0;
  if (!frames.empty()) {
    floor = frames.back().isolationFloor;
    Operation *candidate = frames[floor].op;
    if (candidate && candidate->hasTrait(OpTrait::IsolatedFromAbove))
      isolated = candidate;
  }
  auto emitIsolationError = [&] {
    InFlightDiagnostic diag =
        op.emitOpError("using value defined outside the region");
    diag.attachNote(isolated->getLoc())
        << "required by region isolation constraints";
    return fail(std::move(diag));
  };

  // Most operands come from the block of their user.
  unsigned scope;
  if (!frames.empty() && defBlock == frames.back().block) {
    scope = frames.size() - 1;
  } else {
    auto it = defBlock ? frameOfBlock.find(defBlock) : frameOfBlock.end();
    if (it == frameOfBlock.end()) {
      // Not in scope here. Inside an isolated op, a value from outside of it
      // breaks isolation rather than dominance.
      bool definedInside =
          isolated && (def ? isolated->isProperAncestor(def)
                           : defBlock->getParentOp() &&
                                 isolated->isAncestor(defBlock->getParentOp()));
      if (isolated && !definedInside)
        return emitIsolationError();
      return fail(emitDominanceError(op, index));
    }
    scope = it->second;
  }
  if (isolated && scope < floor)
    return emitIsolationError();
  if (def && !def->isBeforeInBlock(frames[scope].current))
    return fail(emitDominanceError(op, index));
  return success();
}

LogicalResult onyx::verify(Operation *op) { return Verifier().run(*op); }
