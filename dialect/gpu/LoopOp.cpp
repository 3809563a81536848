//===- LoopOp.cpp - gpu.loop ----------------------------------------------===//
//
// A loop whose trip count is a value of the host program. A recorded
// command buffer has no branch, so the runtime records the body once per
// iteration, the iteration number a constant of each copy; what the body
// may hold is what that copy can be: no transfer with the host, no kernel
// or buffer definition, no loop (a nested count could differ per
// iteration, and would multiply what is recorded).
//
//===----------------------------------------------------------------------===//

#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/HostOps.h"

#include "ir/Block.h"
#include "ir/Region.h"

namespace onyx::gpu {

void LoopOp::build(OpBuilder &builder, OperationState &state, Value tripCount) {
  state.addOperands({tripCount});
  Region *body = state.addRegion();
  Block *block = body->emplaceBlock();
  block->addArgument(builder.getIndexType(), state.location);
}

LogicalResult LoopOp::verify() {
  if (state->getNumOperands() != 1 || !getTripCount().getType().isIndex())
    return emitOpError("expects one index operand, the trip count");
  if (state->getNumResults() != 0)
    return emitOpError("has no results: the body writes memory defined "
                       "before the loop");
  Region &region = state->getRegion(0);
  if (region.empty() || region.front().getNumArguments() != 1 ||
      !region.front().getArgument(0).getType().isIndex())
    return emitOpError("expects a body whose one argument is the iteration "
                       "number, of type index");
  for (Operation &op : region.front()) {
    if (isa<UploadOp, DownloadOp, BufferOp, KernelOp, LoopOp, ReadCountOp>(
            &op) ||
        op.hasTrait(OpTrait::Terminator))
      return op.emitOpError()
             << "cannot be in the body of a gpu.loop, which the runtime "
                "records once per iteration";
    if (auto alloc = dyn_cast<AllocOp>(&op); alloc && alloc.getStateArgument())
      return op.emitOpError() << "allocates a state in the body of a "
                                 "gpu.loop";
  }
  return success();
}

void LoopOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getTripCount());
  p << " (";
  p.printRegionArgument(getIterationNumber());
  p << ")";
  p.printOptionalAttrDictWithKeyword(state->getAttrs());
  p << " ";
  p.printRegion(state->getRegion(0), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true, /*printEmptyBlock=*/true);
}

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand count;
  SmallVector<OpAsmParser::Argument> args;
  Type index = IndexType::get(parser.getContext());
  if (parser.parseOperand(count) ||
      parser.resolveOperand(count, index, result.operands) ||
      parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowAttrs=*/false) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  if (body->empty()) {
    Block *block = body->emplaceBlock();
    block->addArgument(index, result.location);
  }
  return success();
}

} // namespace onyx::gpu
