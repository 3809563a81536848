"""A long-lived session survives a lost Vulkan device: a fault injected into
the runtime (onyx._set_gpu_faults, the plan of ONYX_VK_FAULT) makes a run
fail as a driver reset would; the run raises DeviceError saying the device
was lost and opened again, and the next run of the same session compiles
anew and gives the right outputs. Out-of-memory faults leave the device as
it was. ctest runs this with the validation layer on, so nothing of the lost
device may be left behind."""

import numpy as np
import pytest

import onyx
from conftest import EXAMPLES, assert_close

MODEL = EXAMPLES / "tiny_mlp.onnx"
X = np.load(EXAMPLES / "tiny_mlp.input_0.npy")
EXPECTED = np.load(EXAMPLES / "tiny_mlp.output_0.npy")


@pytest.fixture(autouse=True)
def no_faults_after():
    yield
    onyx._set_gpu_faults("")


@pytest.mark.parametrize("plan", ["submit:1:lost", "wait:1:lost", "wait:1:timeout"])
def test_session_recovers_after_device_lost(plan):
    session = onyx.InferenceSession(MODEL, device="vulkan")
    (probs,) = session.run(None, {"x": X})
    assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)
    onyx._set_gpu_faults(plan)
    with pytest.raises(onyx.DeviceError, match="the Vulkan device was lost; the session opened it again") as error:
        session.run(None, {"x": X})
    assert "validation" not in str(error.value)
    for _ in range(2):
        (probs,) = session.run(None, {"x": X})
        assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)


def test_out_of_memory_is_an_error_and_the_device_stays():
    session = onyx.InferenceSession(MODEL, device="vulkan")
    session.run(None, {"x": X})
    # Every allocation of a new session's load fails (its symbolic variant
    # and then the one for the run's shapes).
    onyx._set_gpu_faults(",".join(f"alloc:{n}" for n in range(1, 65)))
    with pytest.raises(onyx.DeviceError, match="VK_ERROR_OUT_OF_DEVICE_MEMORY"):
        onyx.InferenceSession(MODEL, device="vulkan").run(None, {"x": X})
    onyx._set_gpu_faults("")
    (probs,) = session.run(None, {"x": X})
    assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)


def test_malformed_plan():
    with pytest.raises(ValueError, match="unknown point 'free'"):
        onyx._set_gpu_faults("free:1")
