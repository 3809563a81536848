//===- ModelLoader.h - An ONNX model ready to run ---------------*- C++ -*-===//
//
// The front half of onyx-run, shared by every backend and by the
// conformance runner: import an ONNX model with its symbolic dimensions
// bound (from the user, else from the shapes of the actual inputs, so that
// shape computations fold and later stages see static shapes), then
// canonicalize and CSE it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include "ir/BuiltinOps.h"
#include "ir/OwningOpRef.h"

#include "llvm/ADT/StringMap.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace onyx::onnx {

struct ModelLoadOptions {
  /// Sizes of symbolic dimensions chosen by the user; the others are taken
  /// from the inputs.
  llvm::StringMap<int64_t> dimBindings;
  /// Graph inputs imported as constants of these values rather than as
  /// arguments of @main (see ImportOptions::constantInputs).
  llvm::StringMap<Tensor> constantInputs;
  /// Import for the runs on the given inputs: an If whose condition is
  /// computed from inputs of one element takes its branch while importing
  /// (ImportOptions::inputValues), so that the module holds for these
  /// inputs' values only.
  bool decideControlFlow = false;
  /// Where to print the IR after the import and after each pass, if set.
  llvm::raw_ostream *irDump = nullptr;
};

/// Imports the model at `path` for running on `inputs` (the arguments of
/// @main in order: the graph inputs that are not constant inputs; fewer or
/// none leaves their dimensions to the user's bindings) and canonicalizes
/// it. Null after reporting errors through `ctx`.
OwningOpRef<ModuleOp> loadOnnxModel(StringRef path, Context *ctx,
                                    ArrayRef<Tensor> inputs,
                                    const ModelLoadOptions &options);

/// Imports the model for runs on each of `inputSets` (each the arguments of
/// @main in order) and canonicalizes it: one module for all of them, whose
/// named dimensions stay symbolic. A dimension without a name takes the
/// size every set gives it (else it stays `?`), and with decideControlFlow,
/// an If decided by an input of one element takes its branch where every
/// set gives that input the same value.
OwningOpRef<ModuleOp>
loadOnnxModelForInputSets(StringRef path, Context *ctx,
                          ArrayRef<SmallVector<Tensor>> inputSets,
                          const ModelLoadOptions &options);

/// The same for a model held in memory, given the shapes of @main's
/// arguments rather than their values: `bufferName` names it in
/// diagnostics and `baseDir` is where its external data lies.
OwningOpRef<ModuleOp>
loadOnnxModelBuffer(StringRef bytes, StringRef bufferName, StringRef baseDir,
                    Context *ctx, ArrayRef<SmallVector<int64_t>> inputShapes,
                    const ModelLoadOptions &options);

} // namespace onyx::onnx
