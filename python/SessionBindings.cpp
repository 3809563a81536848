//===- SessionBindings.cpp - onyx.InferenceSession and list_devices -------===//
//
// The onnxruntime-shaped front: InferenceSession(path_or_bytes, device,
// bind_dims) with get_inputs()/get_outputs() (NodeArgs whose shapes name
// symbolic dimensions) and run(output_names, {name: array}). NumPy arrays
// are checked against the model's declared inputs (names, dtypes, ranks,
// sizes, symbolic dimensions bound consistently) before anything runs, and
// read in place; outputs are NumPy arrays that own the bytes the run
// produced.
//
//===----------------------------------------------------------------------===//

#include "python/Bindings.h"
#include "python/Session.h"
#include "runtime/FaultInjection.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace onyx;
using namespace onyx::python;
using onnx::ElementType;

[[noreturn]] static void invalid(const std::string &message) {
  throw Error(ErrorKind::InvalidArgument, message);
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// onnxruntime's name of the type: `tensor(float)`.
static std::string getOnnxTypeName(std::optional<ElementType> type) {
  if (!type)
    return "tensor(unknown)";
  switch (*type) {
  case ElementType::F16:
    return "tensor(float16)";
  case ElementType::BF16:
    return "tensor(bfloat16)";
  case ElementType::F32:
    return "tensor(float)";
  case ElementType::F64:
    return "tensor(double)";
  case ElementType::Bool:
    return "tensor(bool)";
  default:
    break;
  }
  StringRef name = onnx::getTypeName(*type); // i8 ... i64, ui8 ... ui64
  bool isUnsigned = name.consume_front("ui");
  if (!isUnsigned)
    name.consume_front("i");
  return fmt::format("tensor({}int{})", isUnsigned ? "u" : "", name.str());
}

/// The NumPy dtype of `type`; nullopt for bfloat16, which has none.
static std::optional<py::dtype> getDtype(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return py::dtype("float16");
  case ElementType::BF16:
    return std::nullopt;
  case ElementType::F32:
    return py::dtype::of<float>();
  case ElementType::F64:
    return py::dtype::of<double>();
  case ElementType::I8:
    return py::dtype::of<int8_t>();
  case ElementType::I16:
    return py::dtype::of<int16_t>();
  case ElementType::I32:
    return py::dtype::of<int32_t>();
  case ElementType::I64:
    return py::dtype::of<int64_t>();
  case ElementType::U8:
    return py::dtype::of<uint8_t>();
  case ElementType::U16:
    return py::dtype::of<uint16_t>();
  case ElementType::U32:
    return py::dtype::of<uint32_t>();
  case ElementType::U64:
    return py::dtype::of<uint64_t>();
  case ElementType::Bool:
    return py::dtype::of<bool>();
  }
  return std::nullopt;
}

/// Whether arrays of `dtype` hold elements of `type` as onyx stores them
/// (little-endian, a bool in a byte).
static bool matchesDtype(const py::dtype &dtype, ElementType type) {
  std::optional<py::dtype> expected = getDtype(type);
  return expected && dtype.kind() == expected->kind() &&
         dtype.itemsize() == expected->itemsize() && dtype.byteorder() != '>';
}

//===----------------------------------------------------------------------===//
// NodeArg
//===----------------------------------------------------------------------===//

namespace {

/// A model input or output as onnxruntime describes it.
struct NodeArg {
  std::string name;
  /// Sizes (int), names of symbolic dimensions (str), None for unknown
  /// ones; None for an unknown rank.
  py::object shape;
  std::string type;
  py::object dtype;
};

} // namespace

static NodeArg makeNodeArg(const onnx::ValueSignature &value,
                           const llvm::StringMap<int64_t> &bindings) {
  NodeArg arg;
  arg.name = value.name;
  arg.type = getOnnxTypeName(value.elementType);
  arg.shape = py::none();
  if (value.hasShape) {
    py::list shape;
    for (auto [dim, dimName] : llvm::zip(value.shape, value.dimNames)) {
      auto bound = bindings.find(dimName);
      if (!ShapedType::isDynamic(dim))
        shape.append(dim);
      else if (!dimName.empty() && bound != bindings.end())
        shape.append(bound->second);
      else if (!dimName.empty())
        shape.append(dimName);
      else
        shape.append(py::none());
    }
    arg.shape = shape;
  }
  std::optional<py::dtype> dtype;
  if (value.elementType)
    dtype = getDtype(*value.elementType);
  arg.dtype = dtype ? py::object(*dtype) : py::none();
  return arg;
}

/// `[1, 'seq', 128]`, as Python prints the NodeArg's shape.
static std::string describeShape(const onnx::ValueSignature &value) {
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(value.shape)) {
    if (i)
      text += ", ";
    if (!ShapedType::isDynamic(dim))
      text += std::to_string(dim);
    else if (!value.dimNames[i].empty())
      text += "'" + value.dimNames[i] + "'";
    else
      text += "None";
  }
  return text + "]";
}

//===----------------------------------------------------------------------===//
// InferenceSession
//===----------------------------------------------------------------------===//

namespace {

class PySession {
public:
  PySession(py::object model, py::object device, py::object bindDims);

  std::vector<NodeArg> getInputs() const;
  std::vector<NodeArg> getOutputs() const;
  py::list run(py::object outputNames, py::object feed);
  std::string getDevice() const { return session->getDeviceDescription(); }
  py::object generate(py::object prompts, unsigned maxNewTokens,
                      double temperature, unsigned topK, double topP,
                      uint64_t seed, int64_t maxSeq, py::object eosId);

private:
  /// The array given for `input`, checked against its declaration; `sizes`
  /// binds the symbolic dimensions across inputs.
  py::array checkInput(const onnx::ValueSignature &input, py::handle value,
                       llvm::StringMap<int64_t> &sizes) const;

  /// Issues what the session reported without failing as a Python warning.
  void warn();

  std::unique_ptr<Session> session;
};

} // namespace

static SessionOptions parseOptions(py::object device, py::object bindDims) {
  SessionOptions options;
  if (py::isinstance<py::int_>(device) && !py::isinstance<py::bool_>(device)) {
    int64_t index = device.cast<int64_t>();
    if (index < 0)
      invalid("device must be a non-negative device number");
    options.deviceIndex = unsigned(index);
  } else if (py::isinstance<py::str>(device)) {
    StringRef text = device.cast<std::string>();
    unsigned index;
    if (text == "ref" || text == "reference")
      options.reference = true;
    else if (text.consume_front("vulkan:") && !text.getAsInteger(10, index))
      options.deviceIndex = index;
    else if (text != "vulkan")
      invalid(fmt::format("device must be 'ref', 'vulkan', 'vulkan:N' or a "
                          "device number, got '{}'",
                          device.cast<std::string>()));
  } else if (!device.is_none()) {
    invalid("device must be None, a string or a device number");
  }
  if (bindDims.is_none())
    return options;
  if (!py::isinstance<py::dict>(bindDims))
    invalid("bind_dims must be a dict of dimension names to sizes");
  for (auto [key, value] : bindDims.cast<py::dict>()) {
    if (!py::isinstance<py::str>(key) || !py::isinstance<py::int_>(value) ||
        value.cast<int64_t>() < 0)
      invalid("bind_dims must map dimension names (str) to non-negative "
              "sizes (int)");
    options.dimBindings[key.cast<std::string>()] = value.cast<int64_t>();
  }
  return options;
}

PySession::PySession(py::object model, py::object device, py::object bindDims) {
  SessionOptions options = parseOptions(device, bindDims);
  std::string bytes, name, baseDir;
  if (py::isinstance<py::bytes>(model) ||
      py::isinstance<py::bytearray>(model) ||
      py::isinstance<py::memoryview>(model)) {
    bytes = py::bytes(model).cast<std::string>();
    name = "<bytes>";
  } else {
    py::object os = py::module_::import("os");
    name = py::str(os.attr("fspath")(model)).cast<std::string>();
    auto buffer = llvm::MemoryBuffer::getFile(name, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      throw Error(ErrorKind::Model,
                  fmt::format("{}: error: cannot read the file: {}", name,
                              buffer.getError().message()));
    bytes = (*buffer)->getBuffer().str();
    baseDir = llvm::sys::path::parent_path(name).str();
  }
  {
    py::gil_scoped_release release;
    session = std::make_unique<Session>(std::move(bytes), std::move(name),
                                        std::move(baseDir), std::move(options));
  }
  warn();
}

void PySession::warn() {
  std::string text = session->takeWarnings();
  if (!text.empty() && PyErr_WarnEx(PyExc_UserWarning, text.c_str(), 1) < 0)
    throw py::error_already_set();
}

std::vector<NodeArg> PySession::getInputs() const {
  std::vector<NodeArg> args;
  for (const onnx::ValueSignature &input : session->getSignature().inputs)
    args.push_back(makeNodeArg(input, session->getOptions().dimBindings));
  return args;
}

std::vector<NodeArg> PySession::getOutputs() const {
  std::vector<NodeArg> args;
  for (const onnx::ValueSignature &output : session->getSignature().outputs)
    args.push_back(makeNodeArg(output, session->getOptions().dimBindings));
  return args;
}

py::array PySession::checkInput(const onnx::ValueSignature &input,
                                py::handle value,
                                llvm::StringMap<int64_t> &sizes) const {
  if (!py::isinstance<py::array>(value))
    invalid(fmt::format(
        "input '{}' must be a numpy.ndarray, got {}", input.name,
        py::str(py::type::of(value).attr("__name__")).cast<std::string>()));
  auto array = py::reinterpret_borrow<py::array>(value);
  ElementType type = *input.elementType;
  if (!matchesDtype(array.dtype(), type)) {
    std::optional<py::dtype> expected = getDtype(type);
    invalid(fmt::format(
        "input '{}' must have dtype {} ({}), got {}", input.name,
        expected ? py::str(*expected).cast<std::string>() : "bfloat16",
        getOnnxTypeName(type), py::str(array.dtype()).cast<std::string>()));
  }
  auto mismatch = [&]() {
    py::tuple shape = py::cast(
        std::vector<ssize_t>(array.shape(), array.shape() + array.ndim()));
    invalid(fmt::format("input '{}' must have shape {}, got {}", input.name,
                        describeShape(input),
                        py::str(shape).cast<std::string>()));
  };
  if (array.ndim() != ssize_t(input.shape.size()))
    mismatch();
  const llvm::StringMap<int64_t> &bindings = session->getOptions().dimBindings;
  for (auto [i, dim] : llvm::enumerate(input.shape)) {
    int64_t size = array.shape(i);
    const std::string &dimName = input.dimNames[i];
    if (!ShapedType::isDynamic(dim)) {
      if (size != dim)
        mismatch();
      continue;
    }
    if (dimName.empty())
      continue;
    auto bound = bindings.find(dimName);
    if (bound != bindings.end() && bound->second != size)
      invalid(fmt::format("input '{}' has size {} in dimension {}, but "
                          "bind_dims sets '{}' to {}",
                          input.name, size, i, dimName, bound->second));
    auto [it, inserted] = sizes.try_emplace(dimName, size);
    if (!inserted && it->second != size)
      invalid(fmt::format("input '{}' has size {} in dimension {}, but "
                          "another input has bound '{}' to {}",
                          input.name, size, i, dimName, it->second));
  }
  // Strided or non-native arrays are made contiguous: the one case that
  // costs a copy before the copy into staging.
  if (!(array.flags() & py::array::c_style)) {
    py::object contiguous =
        py::module_::import("numpy").attr("ascontiguousarray")(array);
    array = py::reinterpret_borrow<py::array>(contiguous);
  }
  return array;
}

/// A NumPy array that owns the output's bytes.
static py::array toArray(OutputTensor &output, const std::string &name) {
  std::optional<py::dtype> dtype = getDtype(output.elementType);
  if (!dtype)
    throw Error(ErrorKind::Run,
                fmt::format("output '{}' is bfloat16, which NumPy has no "
                            "dtype for",
                            name));
  std::vector<ssize_t> shape(output.shape.begin(), output.shape.end());
  if (output.bytes.empty())
    return py::array(*dtype, shape);
  auto *bytes = new std::vector<char>(std::move(output.bytes));
  py::capsule owner(
      bytes, [](void *p) { delete static_cast<std::vector<char> *>(p); });
  return py::array(*dtype, shape, bytes->data(), owner);
}

py::list PySession::run(py::object outputNames, py::object feed) {
  const onnx::ModelSignature &signature = session->getSignature();
  if (!py::isinstance<py::dict>(feed))
    invalid("input_feed must be a dict of input names to numpy arrays");
  auto feedDict = feed.cast<py::dict>();
  std::string known;
  for (const onnx::ValueSignature &input : signature.inputs)
    known += (known.empty() ? "'" : ", '") + input.name + "'";
  for (auto [key, value] : feedDict) {
    std::string name = py::str(key).cast<std::string>();
    if (!llvm::any_of(signature.inputs, [&](const onnx::ValueSignature &in) {
          return py::isinstance<py::str>(key) && in.name == name;
        }))
      invalid(fmt::format("'{}' is not an input of the model (its inputs: {})",
                          name, known));
  }

  // The outputs asked for, by index.
  std::vector<size_t> selected;
  if (outputNames.is_none()) {
    for (size_t i = 0; i < signature.outputs.size(); ++i)
      selected.push_back(i);
  } else {
    if (py::isinstance<py::str>(outputNames))
      invalid("output_names must be a list of names or None");
    for (py::handle item : outputNames) {
      std::string name = py::str(item).cast<std::string>();
      auto it = llvm::find_if(
          signature.outputs,
          [&](const onnx::ValueSignature &out) { return out.name == name; });
      if (it == signature.outputs.end())
        invalid(fmt::format("'{}' is not an output of the model", name));
      selected.push_back(it - signature.outputs.begin());
    }
  }

  std::vector<py::array> arrays;
  llvm::StringMap<int64_t> sizes;
  for (const onnx::ValueSignature &input : signature.inputs) {
    py::str key(input.name);
    if (!feedDict.contains(key))
      invalid(fmt::format("missing input '{}' (the model's inputs: {})",
                          input.name, known));
    arrays.push_back(checkInput(input, feedDict[key], sizes));
  }
  std::vector<SmallVector<int64_t>> shapes;
  std::vector<InputView> views;
  for (auto [array, input] : llvm::zip(arrays, signature.inputs)) {
    shapes.emplace_back(array.shape(), array.shape() + array.ndim());
    views.push_back({*input.elementType, shapes.back(),
                     ArrayRef<char>(static_cast<const char *>(array.data()),
                                    size_t(array.nbytes()))});
  }
  // The shapes' storage must not move once views point at it.
  for (auto [view, shape] : llvm::zip(views, shapes))
    view.shape = shape;

  std::vector<OutputTensor> outputs;
  {
    py::gil_scoped_release release;
    outputs = session->run(views);
  }
  warn();
  py::list results;
  for (size_t i : selected)
    results.append(toArray(outputs[i], signature.outputs[i].name));
  return results;
}

py::object PySession::generate(py::object prompts, unsigned maxNewTokens,
                               double temperature, unsigned topK, double topP,
                               uint64_t seed, int64_t maxSeq,
                               py::object eosId) {
  if (topP <= 0 || topP > 1 || temperature < 0 || maxSeq < 0)
    invalid("top_p must be in (0, 1], temperature and max_seq at least 0");
  // A list of ids is one prompt; a list of lists of ids, a batch.
  if (!py::isinstance<py::sequence>(prompts) ||
      py::isinstance<py::str>(prompts))
    invalid("prompt_ids must be a list of ids or a list of lists of ids");
  auto sequence = prompts.cast<py::sequence>();
  bool batched = py::len(sequence) > 0 &&
                 py::isinstance<py::sequence>(sequence[0]) &&
                 !py::isinstance<py::str>(sequence[0]);
  SmallVector<SmallVector<int64_t>> batch;
  try {
    if (batched)
      for (py::handle prompt : sequence)
        batch.push_back(llvm::to_vector(prompt.cast<std::vector<int64_t>>()));
    else
      batch.push_back(llvm::to_vector(prompts.cast<std::vector<int64_t>>()));
  } catch (const py::cast_error &) {
    invalid("prompt_ids must be a list of ids or a list of lists of ids");
  }
  run::GenerationOptions options;
  options.newTokens = maxNewTokens;
  options.maxSeq = maxSeq;
  options.sampling = {temperature, topK, topP, seed};
  if (!eosId.is_none())
    options.eosId = eosId.cast<int64_t>();
  std::vector<std::vector<int64_t>> ids;
  {
    py::gil_scoped_release release;
    ids = session->generate(batch, options);
  }
  warn();
  if (!batched)
    return py::cast(ids.front());
  return py::cast(ids);
}

//===----------------------------------------------------------------------===//
// list_devices
//===----------------------------------------------------------------------===//

namespace {

struct PyDevice {
  unsigned index;
  std::string name, description, unusableReason;
  bool usable, isDefault;
};

} // namespace

static std::vector<PyDevice> listDevices() {
  CapturingContext context;
  FailureOr<std::vector<run::ListedDevice>> devices =
      run::listDevices(context.get(), run::VulkanOptions());
  if (failed(devices))
    context.fail(ErrorKind::Device, "cannot list the Vulkan devices");
  std::vector<PyDevice> result;
  for (const run::ListedDevice &device : *devices)
    result.push_back({device.info.index, device.info.name,
                      device.info.describe(), device.info.unusableReason,
                      device.info.isUsable(), device.isDefault});
  return result;
}

void onyx::python::bindSession(py::module_ &m) {
  py::class_<NodeArg>(m, "NodeArg",
                      "A model input or output: name, shape (int sizes, str "
                      "names of symbolic dimensions, None where unknown), "
                      "type (onnxruntime's 'tensor(float)') and NumPy dtype.")
      .def_readonly("name", &NodeArg::name)
      .def_readonly("shape", &NodeArg::shape)
      .def_readonly("type", &NodeArg::type)
      .def_readonly("dtype", &NodeArg::dtype)
      .def("__repr__", [](const NodeArg &arg) {
        return fmt::format("NodeArg(name='{}', type='{}', shape={})", arg.name,
                           arg.type, py::repr(arg.shape).cast<std::string>());
      });

  py::class_<PySession>(m, "InferenceSession",
                        "An ONNX model loaded to run on a Vulkan device (the "
                        "default) or the reference backend (device='ref').")
      .def(py::init<py::object, py::object, py::object>(),
           py::arg("path_or_bytes"), py::arg("device") = py::none(),
           py::arg("bind_dims") = py::none())
      .def("get_inputs", &PySession::getInputs)
      .def("get_outputs", &PySession::getOutputs)
      .def("run", &PySession::run, py::arg("output_names"),
           py::arg("input_feed"))
      .def_property_readonly("device", &PySession::getDevice)
      .def("generate", &PySession::generate, py::arg("prompt_ids"),
           py::arg("max_new_tokens"), py::kw_only(),
           py::arg("temperature") = 0.0, py::arg("top_k") = 0,
           py::arg("top_p") = 1.0, py::arg("seed") = 0, py::arg("max_seq") = 0,
           py::arg("eos_id") = py::none(),
           "Continues `prompt_ids` with a decoder in the exporters' cache "
           "interface; greedy unless temperature > 0. Returns the new ids. "
           "A list of prompts (lists of ids) runs as one left-padded batch "
           "and returns a list of ids per prompt; a sequence that emits "
           "`eos_id` stops there.");

  py::class_<PyDevice>(m, "Device", "A Vulkan device of the machine.")
      .def_readonly("index", &PyDevice::index)
      .def_readonly("name", &PyDevice::name)
      .def_readonly("description", &PyDevice::description)
      .def_readonly("usable", &PyDevice::usable)
      .def_readonly("unusable_reason", &PyDevice::unusableReason)
      .def_readonly("is_default", &PyDevice::isDefault)
      .def("__repr__", [](const PyDevice &device) {
        return fmt::format("Device({}: {}{}{})", device.index,
                           device.description,
                           device.usable ? "" : ", unusable",
                           device.isDefault ? ", default" : "");
      });
  m.def("list_devices", &listDevices,
        "Every Vulkan device, in the order of device numbers.");
  // For tests: makes a later Vulkan call fail as on a real GPU
  // (runtime/FaultInjection.h; the plan of ONYX_VK_FAULT).
  m.def(
      "_set_gpu_faults",
      [](const std::string &spec) {
        std::string error;
        if (failed(runtime::setFaultPlan(spec, error)))
          throw Error(ErrorKind::InvalidArgument, error);
      },
      py::arg("plan"));
}
