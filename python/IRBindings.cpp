//===- IRBindings.cpp - onyx.ir, onyx.passes and import_onnx --------------===//
//
// The compiler from Python, in the manner of MLIR's bindings: parse and
// print modules, walk their operations (name, attributes, operands and
// results with their types, regions), run textual pass pipelines (the
// `lower` pipeline for a target included) and import ONNX models.
//
// Handles to operations, values, blocks and regions point into the module,
// which a pass may rewrite: each handle remembers the module's version when
// it was made and refuses to be used once a pass has run, rather than read
// freed memory. Types and attributes live as long as the module's Context
// and stay valid.
//
//===----------------------------------------------------------------------===//

#include "python/Bindings.h"
#include "python/Diagnostics.h"

#include "dialect/gpu/Target.h"
#include "dialect/onnx/Tensor.h"
#include "dialect/onnx/import/Importer.h"

#include "ir/Parser.h"
#include "ir/Verifier.h"
#include "rewrite/PassManager.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace onyx;
using namespace onyx::python;

namespace {

/// A module and the Context it lives in, shared by every handle into it.
struct ModuleState {
  /// Declared first, destroyed last.
  CapturingContext context;
  OwningOpRef<ModuleOp> module;
  /// Moves whenever a pass may have changed the module.
  uint64_t version = 0;
};
using StatePtr = std::shared_ptr<ModuleState>;

/// What every handle into the module's IR holds.
struct Handle {
  StatePtr state;
  uint64_t version;

  explicit Handle(StatePtr state)
      : state(std::move(state)), version(this->state->version) {}
  void check() const {
    if (version != state->version)
      throw Error(ErrorKind::IR,
                  "this handle predates a pass run on its module; walk the "
                  "module again");
  }
};

struct PyType {
  StatePtr state;
  Type type;
};

struct PyAttribute {
  StatePtr state;
  Attribute attr;
};

struct PyOperation : Handle {
  Operation *op;
  PyOperation(StatePtr state, Operation *op)
      : Handle(std::move(state)), op(op) {}
  Operation *get() const {
    check();
    return op;
  }
};

struct PyValue : Handle {
  Value value;
  PyValue(StatePtr state, Value value)
      : Handle(std::move(state)), value(value) {}
};

struct PyBlock : Handle {
  Block *block;
  PyBlock(StatePtr state, Block *block)
      : Handle(std::move(state)), block(block) {}
};

struct PyRegion : Handle {
  Region *region;
  PyRegion(StatePtr state, Region *region)
      : Handle(std::move(state)), region(region) {}
};

struct PyModule {
  StatePtr state;
};

} // namespace

template <typename T> static std::string print(const T &printable) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printable.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

static py::object getShape(const PyType &type) {
  auto shaped = dyn_cast<ShapedType>(type.type);
  if (!shaped || !shaped.hasRank())
    return py::none();
  py::list shape;
  for (int64_t dim : shaped.getShape())
    shape.append(ShapedType::isDynamic(dim) ? py::object(py::none())
                                            : py::object(py::int_(dim)));
  return shape;
}

static py::object getElementType(const PyType &type) {
  auto shaped = dyn_cast<ShapedType>(type.type);
  if (!shaped)
    return py::none();
  return py::cast(PyType{type.state, shaped.getElementType()});
}

/// A dense constant as a NumPy array; None for element types NumPy lacks.
static py::object toArray(DenseElementsAttr attr) {
  std::optional<onnx::Tensor> tensor = onnx::Tensor::fromAttr(attr);
  if (!tensor || tensor->getElementType() == onnx::ElementType::BF16)
    return py::none();
  static const char *const dtypes[] = {
      "float16", "",      "float32", "float64", "int8",   "int16", "int32",
      "int64",   "uint8", "uint16",  "uint32",  "uint64", "bool"};
  py::dtype dtype(dtypes[int(tensor->getElementType())]);
  std::vector<ssize_t> shape(tensor->getShape().begin(),
                             tensor->getShape().end());
  py::array array(dtype, shape);
  ArrayRef<char> bytes = tensor->getBytes();
  if (!bytes.empty())
    std::memcpy(array.mutable_data(), bytes.data(), bytes.size());
  return array;
}

/// The attribute as a Python value: int, bool, float, str, list, dict, a
/// Type, a NumPy array for dense elements; its text for anything else.
static py::object getValue(const StatePtr &state, Attribute attr) {
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return py::bool_(boolean.getValue());
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return py::int_(integer.getInt());
  if (auto floating = dyn_cast<FloatAttr>(attr))
    return py::float_(floating.getValueAsDouble());
  if (auto string = dyn_cast<StringAttr>(attr))
    return py::str(string.getValue().str());
  if (isa<UnitAttr>(attr))
    return py::bool_(true);
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    py::list list;
    for (Attribute element : array)
      list.append(getValue(state, element));
    return list;
  }
  if (auto dictionary = dyn_cast<DictionaryAttr>(attr)) {
    py::dict dict;
    for (const NamedAttribute &named : dictionary)
      dict[py::str(named.getName().str())] = getValue(state, named.value);
    return dict;
  }
  if (auto type = dyn_cast<TypeAttr>(attr))
    return py::cast(PyType{state, type.getValue()});
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    py::object array = toArray(dense);
    if (!array.is_none())
      return array;
  }
  return py::str(print(attr));
}

//===----------------------------------------------------------------------===//
// Operations, values, blocks, regions
//===----------------------------------------------------------------------===//

static py::dict getAttributes(const PyOperation &handle) {
  py::dict attributes;
  for (const NamedAttribute &named : handle.get()->getAttrs())
    attributes[py::str(named.getName().str())] =
        PyAttribute{handle.state, named.value};
  return attributes;
}

static std::vector<PyValue> getOperands(const PyOperation &handle) {
  std::vector<PyValue> values;
  for (Value value : handle.get()->getOperands())
    values.emplace_back(handle.state, value);
  return values;
}

static std::vector<PyValue> getResults(const PyOperation &handle) {
  std::vector<PyValue> values;
  for (Value value : handle.get()->getResults())
    values.emplace_back(handle.state, value);
  return values;
}

static std::vector<PyRegion> getRegions(const PyOperation &handle) {
  std::vector<PyRegion> regions;
  for (Region &region : handle.get()->getRegions())
    regions.emplace_back(handle.state, &region);
  return regions;
}

static std::vector<PyOperation> getOperations(const StatePtr &state,
                                              Block *block) {
  std::vector<PyOperation> ops;
  for (Operation &op : *block)
    ops.emplace_back(state, &op);
  return ops;
}

/// Every operation nested in `op`, in pre-order (an op before the ops in
/// its regions).
static std::vector<PyOperation> walk(const StatePtr &state, Operation *op) {
  std::vector<PyOperation> ops;
  SmallVector<Operation *> stack;
  auto pushNested = [&](Operation *parent) {
    size_t first = stack.size();
    for (Region &region : parent->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          stack.push_back(&nested);
    std::reverse(stack.begin() + first, stack.end());
  };
  pushNested(op);
  while (!stack.empty()) {
    Operation *next = stack.pop_back_val();
    ops.emplace_back(state, next);
    pushNested(next);
  }
  return ops;
}

static std::string getAsm(Operation *op, bool generic, bool debugInfo) {
  OpPrintingFlags flags;
  flags.printGenericOpForm(generic).enableDebugInfo(debugInfo);
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, flags);
  return text;
}

//===----------------------------------------------------------------------===//
// Modules, passes and the importer
//===----------------------------------------------------------------------===//

static PyModule parseModule(const std::string &text, bool allowUnregistered) {
  auto state = std::make_shared<ModuleState>();
  Context *ctx = state->context.get();
  ctx->allowUnregisteredDialects(allowUnregistered);
  llvm::SourceMgr &sourceMgr = state->context.getSourceMgr();
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "<string>"), llvm::SMLoc());
  state->module = parseSourceFile(sourceMgr, ctx);
  if (!state->module || failed(verify(*state->module)))
    state->context.fail(ErrorKind::IR, "the IR does not parse");
  return {state};
}

static llvm::StringMap<int64_t> getBindings(py::object bindDims) {
  llvm::StringMap<int64_t> bindings;
  if (bindDims.is_none())
    return bindings;
  if (!py::isinstance<py::dict>(bindDims))
    throw Error(ErrorKind::InvalidArgument,
                "bind_dims must be a dict of dimension names to sizes");
  for (auto [key, value] : bindDims.cast<py::dict>()) {
    if (!py::isinstance<py::str>(key) || !py::isinstance<py::int_>(value) ||
        value.cast<int64_t>() < 0)
      throw Error(ErrorKind::InvalidArgument,
                  "bind_dims must map dimension names (str) to non-negative "
                  "sizes (int)");
    bindings[key.cast<std::string>()] = value.cast<int64_t>();
  }
  return bindings;
}

static PyModule importOnnx(py::object model, py::object bindDims) {
  auto state = std::make_shared<ModuleState>();
  Context *ctx = state->context.get();
  onnx::ImportOptions options;
  options.dimBindings = getBindings(bindDims);
  if (py::isinstance<py::bytes>(model) ||
      py::isinstance<py::bytearray>(model) ||
      py::isinstance<py::memoryview>(model)) {
    std::string bytes = py::bytes(model).cast<std::string>();
    state->module = onnx::importOnnxBuffer(bytes, "<bytes>", "", ctx, options);
  } else {
    std::string path = py::str(py::module_::import("os").attr("fspath")(model))
                           .cast<std::string>();
    state->module = onnx::importOnnxFile(path, ctx, options);
  }
  if (!state->module)
    state->context.fail(ErrorKind::Model, "cannot import the model");
  // Warnings (a binding the model does not use) are not failures.
  state->context.take();
  return {state};
}

static void runPasses(PyModule &module, const std::string &pipeline,
                      py::object target) {
  ModuleState &state = *module.state;
  Context *ctx = state.context.get();
  if (!target.is_none()) {
    std::string error;
    FailureOr<gpu::TargetDesc> desc =
        gpu::TargetDesc::parse(py::str(target).cast<std::string>(), ctx, error);
    if (failed(desc))
      state.context.fail(ErrorKind::InvalidArgument, "target: " + error);
    state.module.get()->setAttr(gpu::TargetDesc::getAttrName(),
                                desc->toAttr(ctx));
  }
  PassManager pm(ctx);
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    while (!error.empty() && error.back() == '\n')
      error.pop_back();
    throw Error(ErrorKind::InvalidArgument, error);
  }
  // Handles made before this point may refer to ops the passes erase.
  ++state.version;
  if (failed(pm.run(*state.module)))
    state.context.fail(ErrorKind::IR, "the pass pipeline failed");
  state.context.take();
}

void onyx::python::bindIR(py::module_ &m) {
  py::module_ ir = m.def_submodule("ir", "onyx's IR");
  py::class_<PyType>(ir, "Type")
      .def("__str__", [](const PyType &t) { return print(t.type); })
      .def("__repr__",
           [](const PyType &t) { return "Type(" + print(t.type) + ")"; })
      .def("__eq__",
           [](const PyType &a, const PyType &b) { return a.type == b.type; })
      .def("__hash__", [](const PyType &t) { return size_t(t.type.getImpl()); })
      .def_property_readonly("shape", &getShape,
                             "Sizes (None where dynamic) of a ranked tensor "
                             "type; None for other types.")
      .def_property_readonly("element_type", &getElementType);

  py::class_<PyAttribute>(ir, "Attribute")
      .def("__str__", [](const PyAttribute &a) { return print(a.attr); })
      .def("__repr__",
           [](const PyAttribute &a) {
             return "Attribute(" + print(a.attr) + ")";
           })
      .def("__eq__", [](const PyAttribute &a,
                        const PyAttribute &b) { return a.attr == b.attr; })
      .def("__hash__",
           [](const PyAttribute &a) { return size_t(a.attr.getImpl()); })
      .def_property_readonly("value", [](const PyAttribute &a) {
        return getValue(a.state, a.attr);
      });

  py::class_<PyValue>(ir, "Value")
      .def_property_readonly("type",
                             [](const PyValue &v) {
                               v.check();
                               return PyType{v.state, v.value.getType()};
                             })
      .def_property_readonly(
          "owner",
          [](const PyValue &v) -> py::object {
            v.check();
            Operation *op = v.value.getDefiningOp();
            if (!op)
              return py::none();
            return py::cast(PyOperation(v.state, op));
          },
          "The operation that defines it; None for a "
          "block argument.")
      .def("__repr__", [](const PyValue &v) {
        v.check();
        return "Value(" + print(v.value.getType()) + ")";
      });

  py::class_<PyBlock>(ir, "Block")
      .def_property_readonly("operations",
                             [](const PyBlock &b) {
                               b.check();
                               return getOperations(b.state, b.block);
                             })
      .def_property_readonly("arguments", [](const PyBlock &b) {
        b.check();
        std::vector<PyValue> values;
        for (Value arg : b.block->getArguments())
          values.emplace_back(b.state, arg);
        return values;
      });

  py::class_<PyRegion>(ir, "Region")
      .def_property_readonly("blocks", [](const PyRegion &r) {
        r.check();
        std::vector<PyBlock> blocks;
        for (Block &block : *r.region)
          blocks.emplace_back(r.state, &block);
        return blocks;
      });

  py::class_<PyOperation>(ir, "Operation")
      .def_property_readonly("name",
                             [](const PyOperation &o) {
                               return o.get()->getName().getStringRef().str();
                             })
      .def_property_readonly("attributes", &getAttributes)
      .def_property_readonly("operands", &getOperands)
      .def_property_readonly("results", &getResults)
      .def_property_readonly("regions", &getRegions)
      .def_property_readonly(
          "location",
          [](const PyOperation &o) { return print(o.get()->getLoc()); })
      .def(
          "walk", [](const PyOperation &o) { return walk(o.state, o.get()); },
          "Every operation nested in this one, in pre-order.")
      .def(
          "get_asm",
          [](const PyOperation &o, bool generic, bool debugInfo) {
            return getAsm(o.get(), generic, debugInfo);
          },
          py::arg("generic") = false, py::arg("debug_info") = false)
      .def("__str__",
           [](const PyOperation &o) { return getAsm(o.get(), false, false); })
      .def("__eq__", [](const PyOperation &a,
                        const PyOperation &b) { return a.get() == b.get(); })
      .def("__hash__", [](const PyOperation &o) { return size_t(o.get()); });

  py::class_<PyModule>(ir, "Module")
      .def_static("parse", &parseModule, py::arg("text"),
                  py::arg("allow_unregistered_dialects") = false,
                  "Parses and verifies IR text.")
      .def_property_readonly(
          "operation",
          [](const PyModule &m) {
            return PyOperation(m.state, m.state->module.get().getOperation());
          })
      .def_property_readonly(
          "operations",
          [](const PyModule &m) {
            return getOperations(m.state, m.state->module.get().getBody());
          },
          "The operations directly in the module.")
      .def(
          "walk",
          [](const PyModule &m) {
            return walk(m.state, m.state->module.get().getOperation());
          },
          "Every operation in the module, in pre-order.")
      .def(
          "get_asm",
          [](const PyModule &m, bool generic, bool debugInfo) {
            return getAsm(m.state->module.get().getOperation(), generic,
                          debugInfo);
          },
          py::arg("generic") = false, py::arg("debug_info") = false)
      .def("__str__", [](const PyModule &m) {
        return getAsm(m.state->module.get().getOperation(), false, false);
      });

  py::module_ passes = m.def_submodule("passes", "onyx's pass pipelines");
  passes.def("run", &runPasses, py::arg("module"), py::arg("pipeline"),
             py::arg("target") = py::none(),
             "Runs a textual pipeline ('builtin.module(canonicalize,cse)') "
             "on the module in place; `target` (a name or a dictionary) is "
             "recorded as its gpu.target first.");
  passes.def(
      "lower",
      [](PyModule &module, py::object target) {
        runPasses(module, "builtin.module(lower)", target);
      },
      py::arg("module"), py::arg("target") = py::none(),
      "Lowers an onnx-dialect module to the gpu dialect for `target`.");

  m.def("import_onnx", &importOnnx, py::arg("path_or_bytes"),
        py::arg("bind_dims") = py::none(),
        "Imports an ONNX model into an onnx-dialect Module.");
}
