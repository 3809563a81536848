"""Determinism on one device: the same session run again and again on the
same inputs gives bit-identical outputs, also after runs at other shapes in
between (which move the tensors in the arena and make new recordings), and
a second session of the same model gives the same bits."""

import numpy as np
import pytest

import onyx
from conftest import REPO

MODELS = REPO / "test" / "models"


def load(name):
    return np.load(MODELS / f"{name}.npy")


@pytest.mark.parametrize(
    "model,inputs,other",
    [
        ("transformer_block", ["transformer_block.input_0"], ["transformer_block.case1.input_0"]),
        ("cnn_small", ["cnn_small.input_0"], None),
    ],
)
def test_repeated_runs_are_bit_identical(model, inputs, other):
    session = onyx.InferenceSession(MODELS / f"{model}.onnx", device="vulkan")
    names = [i.name for i in session.get_inputs()]
    feed = dict(zip(names, [load(i) for i in inputs]))
    first = [o.tobytes() for o in session.run(None, feed)]
    assert all(first)
    for _ in range(3):
        if other:
            session.run(None, dict(zip(names, [load(i) for i in other])))
        assert [o.tobytes() for o in session.run(None, feed)] == first
    again = onyx.InferenceSession(MODELS / f"{model}.onnx", device="vulkan")
    assert [o.tobytes() for o in again.run(None, feed)] == first
