//===- Bindings.h - The parts of the onyx Python module ---------*- C++ -*-===//
//
// Each part adds its classes and functions to the extension module
// `onyx._onyx`, which the `onyx` package re-exports.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <pybind11/pybind11.h>

namespace onyx::python {

/// onyx.Error and its subclasses, and the translation of python::Error.
void bindErrors(pybind11::module_ &m);
/// InferenceSession, NodeArg, list_devices.
void bindSession(pybind11::module_ &m);
/// Module, Operation, Value, Type, Attribute, Block, Region; the passes;
/// import_onnx.
void bindIR(pybind11::module_ &m);

} // namespace onyx::python
