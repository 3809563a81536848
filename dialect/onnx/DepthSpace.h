//===- DepthSpace.h - DepthToSpace and SpaceToDepth -------------*- C++ -*-===//
//
// Both move b x b blocks between the channels and the spatial dimensions
// of an N x C x H x W tensor. Output element (n, c, y, x) reads one input
// element; sourceOf() says which (the kernel generator spells the same
// arithmetic in GLSL).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpDef.h"

namespace onyx::onnx {

/// An input element: channel and spatial position (of the same image).
struct DepthSpaceSource {
  int64_t channel, y, x;
};

enum class DepthSpaceKind { DepthToSpaceDCR, DepthToSpaceCRD, SpaceToDepth };

/// The input (channel, y, x) that output (c, y, x) reads; `inChannels` is
/// C of the input.
inline DepthSpaceSource sourceOf(DepthSpaceKind kind, int64_t b,
                                 int64_t inChannels, int64_t c, int64_t y,
                                 int64_t x) {
  switch (kind) {
  case DepthSpaceKind::DepthToSpaceDCR:
    return {(y % b * b + x % b) * (inChannels / (b * b)) + c, y / b, x / b};
  case DepthSpaceKind::DepthToSpaceCRD:
    return {c * b * b + y % b * b + x % b, y / b, x / b};
  case DepthSpaceKind::SpaceToDepth: {
    int64_t block = c / inChannels;
    return {c % inChannels, y * b + block / b, x * b + block % b};
  }
  }
  llvm_unreachable("unknown kind");
}

/// The kind of DepthToSpace / SpaceToDepth op `op`.
DepthSpaceKind getDepthSpaceKind(Operation *op);

} // namespace onyx::onnx
