//===- NpyFile.h - Reading and writing NumPy .npy files ---------*- C++ -*-===//
//
// Tensors as NumPy's .npy format stores them (format versions 1.0, 2.0 and
// 3.0; little-endian, C order), so that model inputs and reference outputs
// produced with NumPy or PyTorch feed onyx-run directly. Element types:
// f2 f4 f8, i1 i2 i4 i8, u1 u2 u4 u8 and b1 (bool); bf16 has no NumPy type.
// Malformed files are reported in `error`, never trusted: sizes are checked
// against the file before anything is allocated.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include <string>

namespace onyx::onnx {

/// Parses the bytes of a .npy file.
FailureOr<Tensor> parseNpy(StringRef bytes, std::string &error);
/// Reads the .npy file at `path`.
FailureOr<Tensor> readNpyFile(StringRef path, std::string &error);

/// The .npy bytes of `tensor`: format 1.0, or 2.0 when the header needs it.
/// Fails for element types NumPy has no type for (bf16).
FailureOr<std::string> serializeNpy(const Tensor &tensor, std::string &error);
/// Writes `tensor` to the .npy file at `path`.
LogicalResult writeNpyFile(StringRef path, const Tensor &tensor,
                           std::string &error);

} // namespace onyx::onnx
