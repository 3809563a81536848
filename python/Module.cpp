//===- Module.cpp - The onyx Python extension module ----------------------===//

#include "python/Bindings.h"
#include "python/Diagnostics.h"

#include "lowering/Passes.h"
#include "rewrite/Passes.h"

namespace py = pybind11;
using namespace onyx;
using namespace onyx::python;

/// The exception classes, by ErrorKind.
static PyObject *errorBase;
static PyObject *errorTypes[5];

/// A new exception class `onyx.NAME` deriving from `bases`.
static PyObject *addError(py::module_ &m, const char *name, PyObject *bases,
                          const char *doc) {
  std::string qualified = std::string("onyx.") + name;
  PyObject *type =
      PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (!type)
    throw py::error_already_set();
  m.attr(name) = py::reinterpret_borrow<py::object>(type);
  return type;
}

void onyx::python::bindErrors(py::module_ &m) {
  errorBase = addError(m, "Error", PyExc_Exception,
                       "Every error onyx reports; the message is the "
                       "diagnostics' text.");
  py::tuple invalidBases =
      py::make_tuple(py::handle(errorBase), py::handle(PyExc_ValueError));
  errorTypes[int(ErrorKind::InvalidArgument)] =
      addError(m, "InvalidArgument", invalidBases.ptr(),
               "Wrong arguments: input names, dtypes, shapes, options.");
  errorTypes[int(ErrorKind::Model)] =
      addError(m, "ModelError", errorBase,
               "A model that cannot be read, imported or compiled.");
  errorTypes[int(ErrorKind::IR)] =
      addError(m, "IRError", errorBase,
               "IR text that does not parse or verify, or a failing pass.");
  errorTypes[int(ErrorKind::Device)] =
      addError(m, "DeviceError", errorBase,
               "No Vulkan loader, driver or device, or a module the device "
               "cannot load.");
  errorTypes[int(ErrorKind::Run)] =
      addError(m, "RunError", errorBase,
               "A run that failed, or a message of the Vulkan validation "
               "layer.");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const Error &e) {
      // Quoted source lines may hold anything: NULs, invalid UTF-8.
      const std::string &message = e.getMessage();
      PyObject *text =
          PyUnicode_DecodeUTF8(message.data(), message.size(), "replace");
      if (!text)
        return;
      PyErr_SetObject(errorTypes[int(e.getKind())], text);
      Py_DECREF(text);
    }
  });
}

PYBIND11_MODULE(_onyx, m) {
  m.doc() = "onyx: run ONNX models on Vulkan and drive the compiler";
  registerRewritePasses();
  lowering::registerLoweringPasses();
  bindErrors(m);
  bindSession(m);
  bindIR(m);
}
