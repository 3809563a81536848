//===- Einsum.cpp - onnx.Einsum -------------------------------------------===//
//
// The equation's parsing (Einsum.h), shape inference and the reference
// evaluator: every output element sums, over all values of the summed
// labels, the product of the operands' elements those labels and the
// output's select (integers exactly in 64 bits, floats in double).
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Einsum.h"

#include "ir/Operation.h"

#include "llvm/ADT/StringExtras.h"

#include <array>

namespace onyx::onnx {

namespace {

/// One term of the equation: its letters, and where "..." stands (-1 if it
/// does not).
struct Term {
  std::string letters;
  int ellipsisAt = -1;
};

FailureOr<Term> parseTerm(StringRef text,
                          llvm::function_ref<InFlightDiagnostic()> emitError) {
  Term term;
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i).starts_with("...")) {
      if (term.ellipsisAt >= 0)
        return emitError() << "equation term '" << text
                           << "' has more than one '...'";
      term.ellipsisAt = term.letters.size();
      i += 3;
      continue;
    }
    char c = text[i++];
    if (!llvm::isAlpha(c))
      return emitError() << "equation term '" << text << "' has '"
                         << StringRef(&c, 1) << "', not a letter or '...'";
    term.letters.push_back(c);
  }
  return term;
}

} // namespace

FailureOr<EinsumEquation>
parseEinsum(StringRef equation, ArrayRef<int64_t> ranks,
            llvm::function_ref<InFlightDiagnostic()> emitError) {
  std::string compact;
  for (char c : equation)
    if (c != ' ')
      compact.push_back(c);
  StringRef eq = compact;
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  if (explicitOutput && rhs.contains("->"))
    return emitError() << "equation '" << equation
                       << "' has more than one '->'";
  SmallVector<StringRef> texts;
  lhs.split(texts, ',');
  if (texts.size() != ranks.size())
    return emitError() << "equation '" << equation << "' has "
                       << uint64_t(texts.size()) << " input terms for "
                       << uint64_t(ranks.size()) << " operands";
  SmallVector<Term> terms;
  int64_t ellipsisRank = 0;
  std::array<int, 128> counts{};
  for (auto [i, text] : llvm::enumerate(texts)) {
    FailureOr<Term> term = parseTerm(text, emitError);
    if (failed(term))
      return failure();
    int64_t named = term->letters.size();
    if (term->ellipsisAt < 0 ? named != ranks[i] : named > ranks[i])
      return emitError() << "equation term '" << text
                         << "' does not fit operand " << uint64_t(i)
                         << " of rank " << ranks[i];
    if (term->ellipsisAt >= 0)
      ellipsisRank = std::max(ellipsisRank, ranks[i] - named);
    for (char c : term->letters)
      ++counts[c];
    terms.push_back(*term);
  }
  Term out;
  if (explicitOutput) {
    FailureOr<Term> term = parseTerm(rhs, emitError);
    if (failed(term))
      return failure();
    out = *term;
    std::array<bool, 128> seen{};
    for (char c : out.letters) {
      if (!counts[c])
        return emitError() << "equation output '" << rhs << "' has '"
                           << StringRef(&c, 1) << "', which no input term has";
      if (seen[c])
        return emitError() << "equation output '" << rhs << "' repeats '"
                           << StringRef(&c, 1) << "'";
      seen[c] = true;
    }
  } else {
    out.ellipsisAt = 0;
    for (int c = 0; c < 128; ++c)
      if (counts[c] == 1)
        out.letters.push_back(char(c));
  }
  // Label numbers: ellipsis dims, then the letters used, in ASCII order.
  EinsumEquation result;
  result.numEllipsisLabels = ellipsisRank;
  std::array<int, 128> labelOf;
  labelOf.fill(-1);
  unsigned next = ellipsisRank;
  for (int c = 0; c < 128; ++c)
    if (counts[c])
      labelOf[c] = next++;
  result.numLabels = next;
  auto labelsOf = [&](const Term &term, int64_t rank) {
    SmallVector<unsigned> labels;
    int64_t dims = rank - int64_t(term.letters.size());
    for (size_t i = 0; i <= term.letters.size(); ++i) {
      if (int(i) == term.ellipsisAt)
        for (int64_t d = 0; d < dims; ++d)
          labels.push_back(ellipsisRank - dims + d);
      if (i < term.letters.size())
        labels.push_back(labelOf[term.letters[i]]);
    }
    return labels;
  };
  for (auto [term, rank] : llvm::zip(terms, ranks))
    result.inputs.push_back(labelsOf(term, rank));
  result.output = labelsOf(out, int64_t(out.letters.size()) +
                                    (out.ellipsisAt >= 0 ? ellipsisRank : 0));
  for (unsigned l = 0; l < result.numLabels; ++l)
    if (!llvm::is_contained(result.output, l))
      result.summed.push_back(l);
  return result;
}

FailureOr<SmallVector<int64_t>> EinsumEquation::getLabelSizes(
    ArrayRef<ArrayRef<int64_t>> shapes,
    llvm::function_ref<InFlightDiagnostic()> emitError) const {
  // 0: not seen yet. An ellipsis label of size 1 is overridden by another.
  SmallVector<int64_t> sizes(numLabels, 0);
  for (auto [i, shape] : llvm::enumerate(shapes))
    for (auto [label, size] : llvm::zip(inputs[i], shape)) {
      int64_t &known = sizes[label];
      if (ShapedType::isDynamic(size)) {
        if (!known)
          known = ShapedType::kDynamic;
        continue;
      }
      bool broadcasts = label < numEllipsisLabels;
      if (!known || ShapedType::isDynamic(known) ||
          (broadcasts && known == 1)) {
        known = size;
        continue;
      }
      if (known != size && !(broadcasts && size == 1))
        return emitError() << "operand " << uint64_t(i) << " has size " << size
                           << " for an index whose size is " << known
                           << " elsewhere";
    }
  return sizes;
}

namespace {

const ValueSpec einsumOperands[] = {{"Inputs", Presence::Variadic}};
const ValueSpec einsumResults[] = {{"Output"}};
const AttrSpec einsumAttrs[] = {requiredAttr("equation", AttrType::String)};

LogicalResult inferEinsum(InferState &s) {
  SmallVector<int64_t> ranks;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (unsigned i = 0; i < s.getNumOperands(); ++i) {
    if (failed(s.checkNumeric(i)) ||
        (i && failed(s.checkSameElementType(0, i))))
      return failure();
    ranks.push_back(s.getRank(i));
    shapes.push_back(s.getShape(i));
  }
  if (ranks.empty())
    return s.emitError() << "needs at least one operand";
  auto emitError = [&] { return s.emitAttrError("equation"); };
  FailureOr<EinsumEquation> eq =
      parseEinsum(s.getAttrs().getString("equation"), ranks, emitError);
  if (failed(eq))
    return failure();
  FailureOr<SmallVector<int64_t>> sizes =
      eq->getLabelSizes(shapes, [&] { return s.emitError(); });
  if (failed(sizes))
    return failure();
  SmallVector<int64_t> shape;
  for (unsigned label : eq->output)
    shape.push_back((*sizes)[label]);
  s.addResult(shape, s.getElementType(0));
  return success();
}

template <typename T>
void contract(const EinsumEquation &eq, ArrayRef<int64_t> sizes,
              ArrayRef<ArrayRef<T>> in, ArrayRef<ArrayRef<int64_t>> shapes,
              MutableArrayRef<T> out) {
  // Per operand, the stride of each label (0 where a dim broadcasts; a
  // label repeated in a term adds its strides: the diagonal).
  SmallVector<SmallVector<int64_t>> strides;
  for (auto [labels, shape] : llvm::zip(eq.inputs, shapes)) {
    SmallVector<int64_t> perLabel(eq.numLabels, 0);
    int64_t stride = 1;
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      if (shape[d] != 1 || sizes[labels[d]] == 1)
        perLabel[labels[d]] += stride;
      stride *= shape[d];
    }
    strides.push_back(std::move(perLabel));
  }
  SmallVector<int64_t> value(eq.numLabels, 0);
  int64_t outCount = out.size(), sumCount = 1;
  for (unsigned l : eq.summed)
    sumCount *= sizes[l];
  for (int64_t o = 0; o < outCount; ++o) {
    for (int64_t rest = o, d = int64_t(eq.output.size()) - 1; d >= 0; --d) {
      value[eq.output[d]] = rest % sizes[eq.output[d]];
      rest /= sizes[eq.output[d]];
    }
    T acc = T(0);
    for (int64_t k = 0; k < sumCount; ++k) {
      for (int64_t rest = k, j = int64_t(eq.summed.size()) - 1; j >= 0; --j) {
        value[eq.summed[j]] = rest % sizes[eq.summed[j]];
        rest /= sizes[eq.summed[j]];
      }
      T product = T(1);
      for (size_t i = 0; i < in.size(); ++i) {
        int64_t at = 0;
        for (unsigned l = 0; l < eq.numLabels; ++l)
          at += value[l] * strides[i][l];
        product *= in[i][at];
      }
      acc += product;
    }
    out[o] = acc;
  }
}

LogicalResult evalEinsum(EvalState &s) {
  ArrayRef<Tensor> inputs = s.getInputs();
  SmallVector<int64_t> ranks;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (const Tensor &t : inputs) {
    ranks.push_back(t.getShape().size());
    shapes.push_back(t.getShape());
  }
  auto emitError = [&] { return s.emitError(); };
  FailureOr<EinsumEquation> eq =
      parseEinsum(s.getAttrs().getString("equation"), ranks, emitError);
  if (failed(eq))
    return failure();
  FailureOr<SmallVector<int64_t>> sizes = eq->getLabelSizes(shapes, emitError);
  if (failed(sizes))
    return failure();
  SmallVector<int64_t> shape;
  for (unsigned label : eq->output)
    shape.push_back((*sizes)[label]);
  ElementType type = inputs[0].getElementType();
  bool isInt = !isFloat(type);
  ElementType wide = isInt ? ElementType::I64 : ElementType::F64;
  SmallVector<Tensor> wideInputs;
  for (const Tensor &t : inputs)
    wideInputs.push_back(convertTensor(t, wide));
  Tensor out(wide, shape);
  if (isInt) {
    SmallVector<ArrayRef<int64_t>> values;
    for (const Tensor &t : wideInputs)
      values.push_back(t.getValues<int64_t>());
    contract<int64_t>(*eq, *sizes, values, shapes,
                      out.getMutableValues<int64_t>());
  } else {
    SmallVector<ArrayRef<double>> values;
    for (const Tensor &t : wideInputs)
      values.push_back(t.getValues<double>());
    contract<double>(*eq, *sizes, values, shapes,
                     out.getMutableValues<double>());
  }
  s.addOutput(convertTensor(out, type));
  return success();
}

const OpDef einsumDef = {
    {"onnx.Einsum", einsumOperands, einsumResults, einsumAttrs, OpTrait::Pure},
    inferEinsum,
    evalEinsum,
};

} // namespace

void appendEinsumOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&einsumDef);
}

} // namespace onyx::onnx
