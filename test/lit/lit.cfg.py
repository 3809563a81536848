# lit configuration of onyx's regression tests: IR text files checked with
# FileCheck, as LLVM and MLIR do it.
import os
import sys

import lit.formats

config.name = "onyx"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.onyx_obj_root, "test", "lit")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

# Our tools first, then FileCheck, not, count, split-file and mlir-opt.
config.environment["PATH"] = os.pathsep.join(
    [config.onyx_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# onyx-run's Vulkan backend runs the tests on the machine's device (lavapipe
# in CI): keep what tells the Vulkan loader where drivers and layers are.
for name, value in os.environ.items():
    if name.startswith("VK_") or name.startswith("ONYX_VULKAN"):
        config.environment[name] = value
# No test reads or writes a persistent kernel cache unless it names one
# (--cache-dir): counts of kernels compiled stay what each test says, and
# nothing is written under the user's home.
config.environment["ONYX_CACHE_DIR"] = "none"
# The models the repository ships (test/models, made by its gen_models.py).
config.substitutions.append(
    ("%models", os.path.join(config.onyx_src_root, "test", "models")))
# Shared test data beside the checkout (full-size models, ONNX 1.22's node
# tests). A plain clone has none: the tests that read it live in shared/ and
# say `REQUIRES: shared`, so that they are UNSUPPORTED there, not failures;
# ctest runs them as the separate `lit-shared` test (label `shared`).
shared_dir = os.path.join(os.path.dirname(config.onyx_src_root), "shared")
config.substitutions.append(("%shared", shared_dir))
if os.path.isdir(shared_dir):
    config.available_features.add("shared")
# The Python running lit, for RUN lines that generate inputs.
config.substitutions.append(("%python", sys.executable))
# ONNX's backend test data of ONNX 1.12 (Debian's libonnx-testdata).
config.substitutions.append(
    ("%libonnx_testdata", "/usr/share/libonnx-testdata/data"))
