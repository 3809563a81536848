#!/usr/bin/env python3
"""Writes the bundled example model and its reference input and output.

tiny_mlp.onnx is a two-layer classifier, Gemm -> Relu -> Gemm -> Softmax,
from 16 features to 4 class probabilities for a batch of 2, with fixed
weights. tiny_mlp.input_0.npy is a fixed input and tiny_mlp.output_0.npy
its output computed here with NumPy in float64, so that onyx-run can check
itself against something it did not compute. Running this again rewrites
the three files byte for byte.

Needs the onnx and numpy packages (Debian: python3-onnx, python3-numpy):
    /usr/bin/python3 examples/gen_tiny_mlp.py
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BATCH, FEATURES, HIDDEN, CLASSES = 2, 16, 32, 4
HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rng = np.random.default_rng(2026)
    w1 = (rng.standard_normal((FEATURES, HIDDEN)) / np.sqrt(FEATURES)).astype(np.float32)
    b1 = (0.1 * rng.standard_normal(HIDDEN)).astype(np.float32)
    w2 = (rng.standard_normal((HIDDEN, CLASSES)) / np.sqrt(HIDDEN)).astype(np.float32)
    b2 = (0.1 * rng.standard_normal(CLASSES)).astype(np.float32)
    x = rng.standard_normal((BATCH, FEATURES)).astype(np.float32)

    nodes = [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], name="fc1"),
        helper.make_node("Relu", ["h"], ["a"], name="relu"),
        helper.make_node("Gemm", ["a", "w2", "b2"], ["logits"], name="fc2"),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=-1),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", FEATURES])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", CLASSES])],
        initializer=[
            numpy_helper.from_array(w1, "w1"),
            numpy_helper.from_array(b1, "b1"),
            numpy_helper.from_array(w2, "w2"),
            numpy_helper.from_array(b2, "b2"),
        ],
    )
    model = helper.make_model(
        graph,
        producer_name="onyx examples/gen_tiny_mlp.py",
        opset_imports=[helper.make_opsetid("", 13)],
    )
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(HERE, "tiny_mlp.onnx"))

    # The reference, in float64 from the float32 weights.
    h = np.maximum(x.astype(np.float64) @ w1 + b1, 0)
    logits = h @ w2 + b2
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
    np.save(os.path.join(HERE, "tiny_mlp.input_0.npy"), x)
    np.save(os.path.join(HERE, "tiny_mlp.output_0.npy"), probs)


if __name__ == "__main__":
    main()
