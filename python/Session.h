//===- Session.h - A model loaded for running from Python -------*- C++ -*-===//
//
// The engine behind onyx.InferenceSession, free of Python types: an ONNX
// model (its bytes, kept for later imports), its declared signature, and
// the backend it runs on: the reference evaluator or a Vulkan device, the
// one onyx-run picks by default. It goes through the same steps as
// onyx-run (import, canonicalize and cse; for Vulkan, lower for the device
// and load). On Vulkan the model is compiled once with its symbolic
// dimensions where every op has a kernel for sizes known at run time, and
// that one variant serves every shape; otherwise (and on the reference
// backend) once per distinct set of input shapes, bound: compiled variants
// are kept, the least recently used dropped beyond a few. Inputs arrive as
// views of the caller's memory and are copied once: into staging memory on
// Vulkan, into the evaluator's tensors on the reference backend. Failures throw
// python::Error with the diagnostics' text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "python/Diagnostics.h"

#include "dialect/onnx/import/Signature.h"
#include "tools/onyx-run/Generation.h"
#include "tools/onyx-run/VulkanBackend.h"

#include "ir/BuiltinOps.h"
#include "ir/OwningOpRef.h"

#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace onyx::python {

struct SessionOptions {
  /// Run on the reference backend rather than Vulkan.
  bool reference = false;
  /// The Vulkan device (a number of list_devices()); the default one
  /// without.
  std::optional<unsigned> deviceIndex;
  /// Sizes of symbolic dimensions fixed for every run.
  llvm::StringMap<int64_t> dimBindings;
};

/// An input in the order of the model's inputs, viewed in place.
struct InputView {
  onnx::ElementType elementType;
  ArrayRef<int64_t> shape;
  ArrayRef<char> bytes;
};

/// An output, its bytes owned (the bindings hand them to NumPy as they
/// are).
struct OutputTensor {
  onnx::ElementType elementType;
  SmallVector<int64_t> shape;
  std::vector<char> bytes;
};

class Session {
public:
  /// Reads the model's signature and opens the device; compiles at once if
  /// every input dimension is known. `name` names the model in messages;
  /// external data is looked up in `baseDir`.
  Session(std::string bytes, std::string name, std::string baseDir,
          SessionOptions options);
  ~Session();

  const onnx::ModelSignature &getSignature() const { return signature; }
  const SessionOptions &getOptions() const { return options; }
  /// "reference", or the Vulkan device's description.
  std::string getDeviceDescription() const;

  /// What was reported without failing (warnings) since the last call.
  std::string takeWarnings();

  /// Runs the model on `inputs`, one per input of the signature whose
  /// element types the caller checked, and returns every output.
  std::vector<OutputTensor> run(ArrayRef<InputView> inputs);

  /// Generates tokens after `prompts` (one batch, left-padded) with a
  /// decoder in the exporters' cache interface (onyx_generate's loop) and
  /// returns each sequence's new ids. With a variant compiled for symbolic
  /// dimensions the cache stays on the device (DeviceCacheSession);
  /// otherwise each step runs through run(), the cache through the host. A
  /// model without the interface or a bad prompt throws InvalidArgument.
  std::vector<std::vector<int64_t>>
  generate(ArrayRef<SmallVector<int64_t>> prompts,
           const run::GenerationOptions &options);

private:
  struct Variant;
  using ShapeKey = std::vector<std::vector<int64_t>>;

  /// The variant compiled for `shapes`, compiled now if there is none.
  Variant &getVariant(const ShapeKey &shapes);
  std::unique_ptr<Variant> compile(const ShapeKey &shapes);
  /// The model lowered and loaded with its symbolic dimensions; null if an
  /// op needs its sizes bound (what it reported is dropped).
  std::unique_ptr<Variant> compileSymbolic();
  std::vector<OutputTensor> runReference(Variant &variant,
                                         ArrayRef<InputView> inputs);
  std::vector<OutputTensor> runVulkan(Variant &variant,
                                      ArrayRef<InputView> inputs);
  /// Throws if the validation layer reported anything since the last check.
  void checkValidation();
  /// Opens the Vulkan device of the options (throws DeviceError if it
  /// cannot).
  void openDevice();
  /// Called when a run fails: if the device was lost (a driver reset, a
  /// hung kernel), frees every variant loaded on it and opens the device
  /// again, so that the session goes on (the next run compiles anew), and
  /// throws a DeviceError saying so; returns otherwise.
  void recoverIfLost(Variant *variant);
  /// Throws an Error of `kind` with what the session's Context and
  /// `variant`'s (if given) printed, or `fallback` if they printed nothing.
  [[noreturn]] void fail(Variant *variant, ErrorKind kind,
                         const std::string &fallback);

  std::string bytes, name, baseDir;
  SessionOptions options;
  /// The signature's diagnostics and the Vulkan instance's; must outlive
  /// the backend.
  CapturingContext context;
  onnx::ModelSignature signature;
  std::unique_ptr<run::VulkanBackend> backend;
  size_t validationMessagesSeen = 0;
  /// Compiled variants, most recently used first; each holds its Context,
  /// so dropping one frees its weights.
  std::list<std::pair<ShapeKey, std::unique_ptr<Variant>>> variants;
  /// On Vulkan, the variant for every shape, if the model compiles so.
  std::unique_ptr<Variant> symbolic;
  bool triedSymbolic = false;
  /// One run at a time: variants and the device's queue are shared.
  std::mutex mutex;
};

} // namespace onyx::python
