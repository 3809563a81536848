"""Shared paths and helpers of the onyx Python tests.

ctest runs them with PYTHONPATH pointing at the build's python/ folder,
ONYX_RUN at the onyx-run binary and ONYX_VULKAN_VALIDATION=1, so that any
message of the Khronos validation layer fails a run."""

import os
import pathlib
import subprocess
import tempfile

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
SHARED_MODELS = REPO.parent / "shared" / "models"
ONYX_RUN = os.environ.get("ONYX_RUN", str(REPO / "build" / "bin" / "onyx-run"))


def run_onyx_run(model, inputs, num_outputs, backend="vulkan"):
    """The outputs onyx-run writes for `inputs` (arrays, in order)."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [ONYX_RUN, str(model), f"--backend={backend}"]
        for i, array in enumerate(inputs):
            path = os.path.join(tmp, f"input_{i}.npy")
            np.save(path, array)
            args.append(f"--input=@{path}")
        outputs = [os.path.join(tmp, f"output_{i}.npy") for i in range(num_outputs)]
        args += [f"--output=@{path}" for path in outputs]
        result = subprocess.run(args, capture_output=True, text=True)
        assert result.returncode == 0, f"onyx-run failed: {result.stderr}"
        return [np.load(path) for path in outputs]


def assert_close(actual, expected, rtol, atol):
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


@pytest.fixture(params=["vulkan", "ref"])
def device(request):
    return request.param
