//===- FuzzDifferential.cpp - Canonicalization keeps what a graph computes ===//
//
// Builds a small random onnx function from the fuzz bytes, schema-aware:
// each step picks a registered op, an operand count within its schema's
// range, operands from the values made so far (float arguments, small
// integer constants for shape-like operands, earlier results), required
// attributes with small values and now and then an optional integer one
// (axis, keepdims, ...); createOp keeps only what inference accepts, so the
// graph is valid by construction. The reference backend runs it before and
// after canonicalize + cse on the same inputs; the results must agree
// (within ONNX's test tolerances: patterns may reassociate float math).
//
// The longer mode, ONYX_FUZZ_VULKAN=1 (off by default: a Vulkan driver,
// lavapipe on a machine without a GPU, compiles shaders for every input),
// also lowers the canonicalized function for the machine's Vulkan device
// and runs it there: its results must agree with the reference backend's
// (rtol 1e-3, atol 1e-4: the device's float math differs a little). A
// lowering error (an op or type without a GPU kernel) skips the input; a
// load or run error after a successful lowering, a difference, or with
// ONYX_VULKAN_VALIDATION=1 any message of the validation layer is a
// finding.
//
// ONYX_FUZZ_PRINT=1 prints each generated function before it runs, so that
// a crash's reproducer can be read (and turned into a lit test) as IR.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/io/TensorComparison.h"
#include "dialect/onnx/reference/ReferenceBackend.h"
#include "ir/Builder.h"
#include "ir/BuiltinOps.h"
#include "ir/Operation.h"
#include "ir/OwningOpRef.h"
#include "ir/Verifier.h"
#include "rewrite/PassManager.h"
#include "rewrite/Passes.h"
#include "tools/onyx-run/VulkanBackend.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace onyx;
using namespace onyx::onnx;

namespace {

/// The reference backend's memory budget for one input's runs.
constexpr uint64_t kMaxReferenceBytes = 256ull << 20;

/// Reads the fuzz bytes as a stream of small choices (zeros once empty).
class Choices {
public:
  Choices(const uint8_t *data, size_t size) : data(data), size(size) {}
  unsigned next(unsigned bound) {
    if (bound == 0)
      return 0;
    uint8_t byte = pos < size ? data[pos] : 0;
    ++pos;
    return byte % bound;
  }
  bool done() const { return pos >= size; }

private:
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};

Attribute makeAttr(Context *ctx, const AttrSpec &spec, Choices &c) {
  switch (spec.type) {
  case AttrType::Int:
    return getIntAttr(ctx, int64_t(c.next(5)) - 2);
  case AttrType::Float:
    return getFloatAttr(ctx, double(c.next(5)) / 2);
  case AttrType::String:
    if (spec.allowedValues.empty())
      return {};
    return StringAttr::get(
        ctx, spec.allowedValues[c.next(spec.allowedValues.size())]);
  case AttrType::Ints: {
    SmallVector<int64_t> values;
    for (unsigned i = 0, n = 1 + c.next(3); i < n; ++i)
      values.push_back(int64_t(c.next(4)) - 1);
    return getIntsAttr(ctx, values);
  }
  case AttrType::Floats:
    return getFloatsAttr(ctx, {double(c.next(4)) / 2});
  case AttrType::Strings:
    return {};
  case AttrType::Tensor:
    return Tensor::scalar(ElementType::F32, double(c.next(4))).toAttr(ctx);
  case AttrType::Type:
    return TypeAttr::get(c.next(2) ? Type(FloatType::getF32(ctx))
                                   : Type(IntegerType::get(ctx, 64)));
  }
  return {};
}

/// The Vulkan device of the longer mode, created once per process (null
/// when ONYX_FUZZ_VULKAN is unset or 0). The backend has a Context of its
/// own, which outlives it: members are destroyed in reverse order.
struct VulkanMode {
  Context ctx;
  std::unique_ptr<run::VulkanBackend> backend;

  static VulkanMode *get() {
    static VulkanMode *mode = [] {
      const char *env = std::getenv("ONYX_FUZZ_VULKAN");
      if (!env || !*env || std::strcmp(env, "0") == 0)
        return static_cast<VulkanMode *>(nullptr);
      static VulkanMode instance;
      ScopedDiagnosticCollector diagnostics(&instance.ctx);
      FailureOr<std::unique_ptr<run::VulkanBackend>> backend =
          run::VulkanBackend::create(&instance.ctx, run::VulkanOptions());
      if (failed(backend)) {
        fprintf(stderr, "ONYX_FUZZ_VULKAN: no Vulkan device:\n");
        for (const Diagnostic &diag : diagnostics.getDiagnostics())
          fprintf(stderr, "%s\n", diag.str().c_str());
        exit(1);
      }
      instance.backend = std::move(*backend);
      fprintf(stderr, "ONYX_FUZZ_VULKAN: comparing with %s\n",
              instance.backend->getDeviceInfo().describe().c_str());
      return &instance;
    }();
    return mode;
  }
};

/// Lowers the canonicalized `module` for the Vulkan device, runs it on
/// `inputs` and aborts where that goes wrong after lowering or the results
/// differ from `expected`. `original` is the function before
/// canonicalization, for the report.
void compareWithVulkan(VulkanMode &vulkan, ModuleOp module,
                       ArrayRef<Tensor> inputs, ArrayRef<Tensor> expected,
                       const std::string &original,
                       ScopedDiagnosticCollector &quiet) {
  run::VulkanBackend &backend = *vulkan.backend;
  ScopedDiagnosticCollector deviceDiagnostics(&vulkan.ctx);
  auto fail = [&](const char *what) {
    fprintf(stderr, "%s on Vulkan (%s) in:\n%s\n", what,
            backend.getDeviceInfo().describe().c_str(), original.c_str());
    for (const Diagnostic &diag : quiet.getDiagnostics())
      fprintf(stderr, "%s\n", diag.str().c_str());
    for (const Diagnostic &diag : deviceDiagnostics.getDiagnostics())
      fprintf(stderr, "%s\n", diag.str().c_str());
    for (const std::string &message : backend.getValidationMessages())
      fprintf(stderr, "validation: %s\n", message.c_str());
    abort();
  };
  size_t messagesBefore = backend.getValidationMessageCount();
  // An op or a type that no GPU kernel handles is a located error, not a
  // finding.
  if (failed(backend.lower(module, /*irDump=*/nullptr)))
    return;
  {
    FailureOr<std::unique_ptr<runtime::Executable>> exe =
        runtime::Executable::load(backend.getDevice(), module);
    if (failed(exe))
      fail("the lowered function fails to load");
    FailureOr<SmallVector<Tensor>> results = run::runExecutable(**exe, inputs);
    if (failed(results))
      fail("the lowered function fails to run");
    Tolerance tolerance;
    tolerance.atol = 1e-4;
    for (size_t i = 0; i < expected.size(); ++i) {
      ComparisonResult r =
          compareTensors((*results)[i], expected[i], tolerance);
      if (!r.passed()) {
        fprintf(stderr,
                "result %zu: %s%lld elements out of tolerance, the first at "
                "index %lld; max abs error %g\n",
                i, r.mismatch.c_str(), (long long)r.numMismatched,
                (long long)r.firstMismatched, r.maxAbsError);
        fail("a result differs from the reference backend's");
      }
    }
  }
  // After the Executable is gone, so that its destruction is validated too.
  if (backend.getValidationMessageCount() > messagesBefore)
    fail("the validation layer reported");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Choices c(data, size);
  Context ctx;
  ctx.loadDialect<OnnxDialect>();
  ScopedDiagnosticCollector quiet(&ctx);
  Location loc = UnknownLoc::get(&ctx);
  OpBuilder builder(&ctx);
  OwningOpRef<ModuleOp> module(ModuleOp::create(loc));
  builder.setInsertionPointToEnd(module.get().getBody());

  // Arguments: 1-3 float tensors of rank 0-3, dims 1-3.
  SmallVector<Type> argTypes;
  for (unsigned i = 0, n = 1 + c.next(3); i < n; ++i) {
    SmallVector<int64_t> shape;
    for (unsigned d = 0, rank = c.next(4); d < rank; ++d)
      shape.push_back(1 + c.next(3));
    argTypes.push_back(RankedTensorType::get(shape, FloatType::getF32(&ctx)));
  }
  auto func = builder.create<FuncOp>(loc, "main",
                                     builder.getFunctionType(argTypes, {}));
  Block *entry = builder.createBlock(
      &func.getBody(), argTypes, SmallVector<Location>(argTypes.size(), loc));
  SmallVector<Value> pool(entry->getArguments().begin(),
                          entry->getArguments().end());
  // Small integer constants: shapes, axes, indices, repeats.
  for (unsigned i = 0, n = c.next(3); i < n; ++i) {
    SmallVector<int64_t> values;
    unsigned length = c.next(4);
    for (unsigned j = 0; j < length; ++j)
      values.push_back(int64_t(c.next(5)) - 1);
    Tensor t = Tensor::fromInts(ElementType::I64, {int64_t(length)}, values);
    OperationState state(loc, "onnx.Constant");
    state.addAttribute("value", t.toAttr(&ctx));
    state.addTypes(t.getType(&ctx));
    pool.push_back(builder.create(state)->getResult(0));
  }

  ArrayRef<const OpSchema *> schemas = getOpSchemas();
  SmallVector<Value> results;
  for (unsigned step = 0; step < 8 && !c.done(); ++step) {
    const OpSchema &schema = *schemas[c.next(schemas.size())];
    if (uint32_t(schema.traits) & uint32_t(OpTrait::ConstantLike))
      continue;
    unsigned lo = schema.getMinOperands();
    unsigned hi = std::min(schema.getMaxOperands(), lo + 3);
    unsigned n = lo + c.next(hi - lo + 1);
    SmallVector<Value> operands;
    for (unsigned i = 0; i < n; ++i)
      operands.push_back(pool[c.next(pool.size())]);
    SmallVector<NamedAttribute> attrs;
    for (const AttrSpec &spec : schema.attributes) {
      if (!spec.required && c.next(4) != 0)
        continue;
      if (Attribute value = makeAttr(&ctx, spec, c))
        attrs.push_back({StringAttr::get(&ctx, spec.name), value});
    }
    Operation *op = createOp(builder, loc, schema.name, operands, attrs);
    if (!op)
      continue;
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      // Keep graphs small: huge results (a Tile of a Tile) are left out.
      if (!type || !type.hasStaticShape() || type.getNumElements() > 4096)
        continue;
      pool.push_back(result);
      results.push_back(result);
    }
  }
  if (results.empty())
    return 0;
  SmallVector<Type> resultTypes;
  for (Value v : results)
    resultTypes.push_back(v.getType());
  builder.create<ReturnOp>(loc, results);
  func.setFunctionType(builder.getFunctionType(argTypes, resultTypes));
  if (failed(verify(*module))) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    fprintf(stderr, "the generated function does not verify:\n%s\n",
            text.c_str());
    for (const Diagnostic &diag : quiet.getDiagnostics())
      fprintf(stderr, "%s\n", diag.str().c_str());
    abort();
  }

  if (const char *print = std::getenv("ONYX_FUZZ_PRINT");
      print && *print && std::strcmp(print, "0") != 0) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    fprintf(stderr, "%s\n", text.c_str());
  }

  SmallVector<Tensor> inputs;
  for (Type type : argTypes) {
    auto shaped = cast<RankedTensorType>(type);
    SmallVector<double> values;
    for (int64_t i = 0, e = shaped.getNumElements(); i < e; ++i)
      values.push_back(double(int(c.next(9)) - 4) / 2);
    inputs.push_back(
        Tensor::fromDoubles(ElementType::F32, shaped.getShape(), values));
  }
  // A small graph whose shape values grow (a Pow of a shape, say) can ask
  // for gigabytes; filling them finds nothing and stalls the fuzzer, so the
  // budget refuses them as --max-memory would.
  ReferenceOptions options;
  options.maxMemory = kMaxReferenceBytes;
  FailureOr<SmallVector<Tensor>> before = runReference(func, inputs, options);
  if (failed(before))
    return 0; // An evaluation error (an index out of range) is fine.

  std::string original;
  llvm::raw_string_ostream os(original);
  module->print(os);
  PassManager pm(&ctx);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(pm.run(*module))) {
    fprintf(stderr, "canonicalization failed on:\n%s\n", original.c_str());
    for (const Diagnostic &diag : quiet.getDiagnostics())
      fprintf(stderr, "%s\n", diag.str().c_str());
    abort();
  }
  FailureOr<SmallVector<Tensor>> after = runReference(func, inputs, options);
  if (failed(after)) {
    fprintf(stderr,
            "canonicalized IR fails to run where the original ran:\n"
            "%s\n",
            original.c_str());
    for (const Diagnostic &diag : quiet.getDiagnostics())
      fprintf(stderr, "%s\n", diag.str().c_str());
    abort();
  }
  for (size_t i = 0; i < before->size(); ++i) {
    ComparisonResult r = compareTensors((*after)[i], (*before)[i], Tolerance());
    if (!r.passed()) {
      fprintf(stderr,
              "result %zu differs after canonicalization (%s; max abs error "
              "%g) in:\n%s\n",
              i, r.mismatch.c_str(), r.maxAbsError, original.c_str());
      abort();
    }
  }
  if (VulkanMode *vulkan = VulkanMode::get())
    compareWithVulkan(*vulkan, *module, inputs, *before, original, quiet);
  return 0;
}
