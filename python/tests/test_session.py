"""onyx.InferenceSession on the repository's own model, examples/tiny_mlp.onnx
(a classifier with a symbolic batch dimension): onnxruntime's API, outputs
that match the reference and onyx-run, symbolic dimensions, and errors for
every kind of wrong input."""

import numpy as np
import pytest

import onyx
from conftest import EXAMPLES, assert_close, run_onyx_run

MODEL = EXAMPLES / "tiny_mlp.onnx"
X = np.load(EXAMPLES / "tiny_mlp.input_0.npy")
EXPECTED = np.load(EXAMPLES / "tiny_mlp.output_0.npy")


@pytest.fixture(scope="module")
def sessions():
    return {device: onyx.InferenceSession(MODEL, device=device) for device in ("vulkan", "ref")}


def test_signature(sessions):
    for session in sessions.values():
        (x,) = session.get_inputs()
        assert (x.name, x.shape, x.type, x.dtype) == ("x", ["batch", 16], "tensor(float)", np.float32)
        (probs,) = session.get_outputs()
        assert (probs.name, probs.shape, probs.type) == ("probs", ["batch", 4], "tensor(float)")
        assert "batch" in repr(x)


def test_matches_reference_and_onyx_run(sessions, device):
    (probs,) = sessions[device].run(None, {"x": X})
    assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)
    (from_tool,) = run_onyx_run(MODEL, [X], 1, backend=device)
    assert_close(probs, from_tool, rtol=1e-5, atol=1e-7)


def test_default_device_is_vulkan(sessions):
    assert sessions["ref"].device == "reference"
    default = [d for d in onyx.list_devices() if d.is_default]
    assert len(default) == 1
    assert sessions["vulkan"].device == default[0].description


def test_list_devices():
    devices = onyx.list_devices()
    assert devices, "CI has lavapipe"
    for i, device in enumerate(devices):
        assert device.index == i
        assert device.usable == (device.unusable_reason == "")
        assert device.name in device.description


def test_device_by_number():
    index = next(d.index for d in onyx.list_devices() if d.is_default)
    for device in (index, f"vulkan:{index}"):
        (probs,) = onyx.InferenceSession(MODEL, device=device).run(None, {"x": X})
        assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)


def test_model_from_bytes(device):
    session = onyx.InferenceSession(MODEL.read_bytes(), device=device)
    (probs,) = session.run(["probs"], {"x": X})
    assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)


def test_symbolic_batch(sessions, device):
    # Rows are independent: the reference rows must come back unchanged
    # whatever the batch, and each batch size is its own compilation.
    rng = np.random.default_rng(0)
    for batch in (5, 1, 2, 3):
        extra = rng.standard_normal((max(batch - 2, 0), 16)).astype(np.float32)
        x = np.concatenate([X, extra])[:batch]
        (probs,) = sessions[device].run(None, {"x": x})
        assert probs.shape == (batch, 4)
        assert_close(probs[: min(batch, 2)], EXPECTED[:batch], rtol=1e-3, atol=1e-5)
        np.testing.assert_allclose(probs.sum(axis=1), 1, rtol=1e-5)


def test_bind_dims(device):
    session = onyx.InferenceSession(MODEL, device=device, bind_dims={"batch": 2})
    assert session.get_inputs()[0].shape == [2, 16]
    (probs,) = session.run(None, {"x": X})
    assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)
    with pytest.raises(onyx.InvalidArgument, match="bind_dims sets 'batch' to 2"):
        session.run(None, {"x": X[:1]})


def test_outputs_are_owned(sessions, device):
    session = sessions[device]
    (first,) = session.run(None, {"x": X})
    kept = first.copy()
    first[...] = 0  # writable, and writing does not reach the session
    (second,) = session.run(None, {"x": X})
    np.testing.assert_array_equal(second, kept)
    (third,) = session.run(None, {"x": X[::-1].copy()})
    np.testing.assert_array_equal(second, kept)  # a later run leaves it alone
    assert not np.shares_memory(second, third)


def test_strided_input(sessions, device):
    wide = np.zeros((2, 32), np.float32)
    wide[:, ::2] = X
    (probs,) = sessions[device].run(None, {"x": wide[:, ::2]})
    assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize(
    "feed, message",
    [
        ({}, "missing input 'x'"),
        ({"x": X, "y": X}, "'y' is not an input of the model"),
        ({"X": X}, "'X' is not an input of the model"),
        ({"x": X.astype(np.float64)}, r"input 'x' must have dtype float32 \(tensor\(float\)\), got float64"),
        ({"x": X.astype(">f4")}, "input 'x' must have dtype float32"),
        ({"x": X[:, :8]}, r"input 'x' must have shape \['batch', 16\], got \(2, 8\)"),
        ({"x": X[0]}, r"input 'x' must have shape \['batch', 16\], got \(16,\)"),
        ({"x": X.tolist()}, "input 'x' must be a numpy.ndarray, got list"),
        ([X], "input_feed must be a dict"),
    ],
)
def test_wrong_inputs_raise(sessions, device, feed, message):
    with pytest.raises(onyx.InvalidArgument, match=message) as error:
        sessions[device].run(None, feed)
    assert isinstance(error.value, onyx.Error) and isinstance(error.value, ValueError)


def test_wrong_output_names_raise(sessions, device):
    with pytest.raises(onyx.InvalidArgument, match="'logits' is not an output"):
        sessions[device].run(["logits"], {"x": X})
    with pytest.raises(onyx.InvalidArgument, match="output_names must be a list"):
        sessions[device].run("probs", {"x": X})


def test_bad_models_raise(tmp_path, device):
    data = MODEL.read_bytes()
    with pytest.raises(onyx.ModelError, match=r"<bytes>: error: not a valid ONNX model"):
        onyx.InferenceSession(data[: len(data) // 2], device=device)
    with pytest.raises(onyx.ModelError, match="error: not a valid ONNX model"):
        onyx.InferenceSession(b"", device=device)
    missing = tmp_path / "missing.onnx"
    with pytest.raises(onyx.ModelError, match="missing.onnx: error: cannot read the file"):
        onyx.InferenceSession(missing, device=device)
    garbage = tmp_path / "garbage.onnx"
    garbage.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(onyx.ModelError, match="garbage.onnx: error:"):
        onyx.InferenceSession(str(garbage), device=device)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"device": "cuda"}, "device must be 'ref', 'vulkan', 'vulkan:N' or a device number"),
        ({"device": -1}, "device must be a non-negative device number"),
        ({"device": 1.5}, "device must be None, a string or a device number"),
        ({"bind_dims": {"batch": -1}}, "bind_dims must map"),
        ({"bind_dims": [("batch", 1)]}, "bind_dims must be a dict"),
    ],
)
def test_bad_options_raise(kwargs, message):
    with pytest.raises(onyx.InvalidArgument, match=message):
        onyx.InferenceSession(MODEL, **kwargs)


def test_missing_device_raises():
    with pytest.raises(onyx.DeviceError, match="device 99"):
        onyx.InferenceSession(MODEL, device=99)


def test_warnings_are_python_warnings(device):
    # An unused binding is a warning of the import, not an error.
    with pytest.warns(UserWarning, match="'nope' is not a symbolic dimension of the model"):
        session = onyx.InferenceSession(MODEL, device=device, bind_dims={"batch": 2, "nope": 3})
    (probs,) = session.run(None, {"x": X})
    assert_close(probs, EXPECTED, rtol=1e-3, atol=1e-5)
