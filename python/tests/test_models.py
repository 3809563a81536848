"""The repository's own PyTorch exports (test/models) and every model of
../shared/models (opsets 13 and 17, with reference inputs and outputs)
through onyx.InferenceSession on both backends, against PyTorch's outputs
and onyx-run's. The ../shared ones are skipped where it is absent."""

import re

import numpy as np
import pytest

import onyx
from conftest import REPO, SHARED_MODELS, assert_close, run_onyx_run

# The tolerances the models' README gives for a CPU and a GPU.
TOLERANCES = {"ref": (1e-4, 1e-5), "vulkan": (1e-3, 1e-4)}


def cases(directory):
    """(model path, input files, output files) for every export of every
    model in `directory` (NAME.onnx, NAME.opsetN.onnx) and each of its cases
    (NAME.input_K.npy, NAME.caseN.input_K.npy and their outputs)."""
    if not directory.is_dir():
        return
    for model in sorted(directory.glob("*.onnx")):
        name = model.name.split(".")[0]
        prefixes = {name} | {
            m.group(1) for f in directory.glob(f"{name}.case*.input_0.npy")
            if (m := re.match(r"(.*)\.input_0\.npy$", f.name))
        }
        for prefix in sorted(prefixes):
            inputs = sorted(directory.glob(f"{prefix}.input_*.npy"))
            outputs = sorted(directory.glob(f"{prefix}.output_*.npy"))
            if inputs and outputs:
                yield pytest.param(model, inputs, outputs, id=f"{directory.parent.name}/{model.name}-{prefix}")


OWN = list(cases(REPO / "test" / "models"))
SHARED = list(cases(SHARED_MODELS))


_sessions = {}


def session_for(model, device):
    # One session per model and backend serves every case of the model.
    key = (model, device)
    if key not in _sessions:
        _sessions[key] = onyx.InferenceSession(model, device=device)
    return _sessions[key]


def check_model(model, input_files, output_files, device):
    session = session_for(model, device)
    inputs = [np.load(f) for f in input_files]
    feed = {arg.name: array for arg, array in zip(session.get_inputs(), inputs)}
    outputs = session.run(None, feed)
    assert len(outputs) == len(output_files)
    rtol, atol = TOLERANCES[device]
    for actual, expected_file in zip(outputs, output_files):
        assert_close(actual, np.load(expected_file), rtol, atol)
    for actual, from_tool in zip(outputs, run_onyx_run(model, inputs, len(outputs), device)):
        assert_close(actual, from_tool, rtol=1e-5, atol=1e-6)


def test_own_models_exist():
    assert OWN, "test/models holds the repository's own exports"


@pytest.mark.parametrize("model, input_files, output_files", OWN)
def test_own_model(model, input_files, output_files, device):
    check_model(model, input_files, output_files, device)


@pytest.mark.skipif(not SHARED, reason=f"{SHARED_MODELS} is absent")
@pytest.mark.parametrize("model, input_files, output_files", SHARED or [pytest.param(None, None, None)])
def test_shared_model(model, input_files, output_files, device):
    check_model(model, input_files, output_files, device)


@pytest.mark.parametrize("directory", [REPO / "test" / "models", SHARED_MODELS])
def test_symbolic_sequence(directory):
    if not (directory / "transformer_block.onnx").exists():
        pytest.skip(f"{directory} is absent")
    session = onyx.InferenceSession(directory / "transformer_block.onnx")
    width = np.load(directory / "transformer_block.input_0.npy").shape[2]
    (x,) = session.get_inputs()
    assert x.shape == [1, "seq", width]
    assert session.get_outputs()[0].shape == [1, "seq", width]
    with pytest.raises(onyx.InvalidArgument, match=rf"must have shape \[1, 'seq', {width}\], got \(1, 4, 3\)"):
        session.run(None, {"x": np.zeros((1, 4, 3), np.float32)})
    bound = onyx.InferenceSession(directory / "transformer_block.onnx", bind_dims={"seq": 7})
    assert bound.get_inputs()[0].shape == [1, 7, width]
    x7 = np.load(directory / "transformer_block.case1.input_0.npy")
    (y7,) = bound.run(None, {"x": x7})
    assert_close(y7, np.load(directory / "transformer_block.case1.output_0.npy"), 1e-3, 1e-4)
