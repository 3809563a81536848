//===- Recurrent.h - onnx.RNN, onnx.GRU and onnx.LSTM -----------*- C++ -*-===//
//
// The recurrent layers (Recurrent.cpp: inference and the reference
// evaluator) and their unrolling into MatMul and elementwise ops for the
// GPU (RecurrentUnroll.cpp), which share the cell kinds and the resolution
// of the activation list.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpDef.h"

#include <string>

namespace onyx::onnx {

enum class Cell { RNN, GRU, LSTM };

/// The cell of op `name` (onnx.RNN, onnx.GRU or onnx.LSTM).
Cell getRecurrentCell(StringRef name);
/// 1, 3 or 4: the gates whose weights W and R stack.
unsigned getNumGates(Cell cell);
/// The activations a cell applies per direction: 1, 2 or 3.
unsigned getNumActivations(Cell cell);
/// 2 for a bidirectional op, else 1 (the attribute was verified).
int64_t getNumDirections(const OpAttrs &attrs);

/// One activation of a recurrent cell, its name in lower case, with the
/// alpha and beta it takes.
struct Activation {
  std::string name;
  double alpha = 0, beta = 0;

  double operator()(double x) const;
};

/// The activations of every direction (getNumActivations per direction),
/// alpha and beta consumed in order by the activations that take them
/// (ONNX's defaults where the lists end).
SmallVector<Activation> getActivations(Cell cell, const OpAttrs &attrs,
                                       int64_t dirs);

/// Replaces `op`, an onnx.RNN, onnx.GRU or onnx.LSTM of static sequence
/// length, batch and hidden sizes, by its steps unrolled into MatMul,
/// Slice and elementwise ops (a step past a batch entry's sequence_lens a
/// Where keeping the state and writing zeros), with at most `maxOps` ops.
/// Fails with an error at `op` saying why it cannot (then nothing changed).
LogicalResult unrollRecurrentOp(Operation *op, int64_t maxOps);

} // namespace onyx::onnx
