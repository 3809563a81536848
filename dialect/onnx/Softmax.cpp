//===- Softmax.cpp - onnx.Softmax and onnx.LogSoftmax ---------------------===//
//
// Both normalize along the single dimension `axis` (opset 13 semantics; the
// importer rewrites the older "flatten to 2-D at axis" form), subtracting
// the maximum first so that exp never overflows.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <cmath>
#include <limits>

namespace onyx::onnx {

namespace {

const ValueSpec softmaxOperands[] = {{"input"}};
const ValueSpec softmaxResults[] = {{"output"}};
const AttrSpec softmaxAttrs[] = {intAttr("axis", -1)};

LogicalResult inferSoftmax(InferState &s) {
  if (failed(s.checkFloat(0)))
    return failure();
  int64_t axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, s.getRank(0), "axis")))
    return failure();
  s.addResult(s.getType(0));
  return success();
}

LogicalResult evalSoftmax(EvalState &s) {
  ArrayRef<int64_t> shape = s.input(0).getShape();
  int64_t axis = s.getAttrs().getInt("axis");
  if (axis < 0)
    axis += shape.size();
  bool isLog = s.getAttrs().getSchema().name == "onnx.LogSoftmax";
  int64_t outer = getNumElements(shape.take_front(axis));
  int64_t n = shape[axis];
  int64_t inner = getNumElements(shape.drop_front(axis + 1));
  F64Evaluation f(s);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t j) { return (o * n + j) * inner + i; };
      double max = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < n; ++j)
        max = std::max(max, f.x[at(j)]);
      double sum = 0;
      for (int64_t j = 0; j < n; ++j)
        sum += std::exp(f.x[at(j)] - max);
      for (int64_t j = 0; j < n; ++j)
        f.y[at(j)] = isLog ? f.x[at(j)] - max - std::log(sum)
                           : std::exp(f.x[at(j)] - max) / sum;
    }
  }
  f.addOutput();
  return success();
}

const OpDef softmaxDefs[] = {
    {{"onnx.Softmax", softmaxOperands, softmaxResults, softmaxAttrs,
      OpTrait::Pure},
     inferSoftmax,
     evalSoftmax},
    {{"onnx.LogSoftmax", softmaxOperands, softmaxResults, softmaxAttrs,
      OpTrait::Pure},
     inferSoftmax,
     evalSoftmax},
};

} // namespace

void appendSoftmaxOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : softmaxDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx
