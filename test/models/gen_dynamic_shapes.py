#!/usr/bin/python3
"""Makes dynamic_shapes.onnx, a tiny model whose sizes are known only at run
time, for the tests of the host shape program.

The graph takes x of shape [B, S, 8] (symbolic B and S) and t, an int64[2]
shape a user gives, and computes every size from them: Shape -> Slice ->
Mul -> Concat -> Reshape (a data-dependent Reshape), Expand to a shape
computed from x's dims, a Reshape to the user's shape t (0 and -1 resolved at
run time), Range up to S, ConstantOfShape of [B, S] then Unsqueeze, and
Shape returned as an output. Writes, with numpy's outputs for three shapes:
    dynamic_shapes.onnx
    dynamic_shapes.caseK.input_{0,1}.npy, dynamic_shapes.caseK.output_{0..3}.npy

Run by hand with Debian's python3-onnx and python3-numpy:
    /usr/bin/python3 test/models/gen_dynamic_shapes.py [OUTPUT_DIR]
and commit what changed. OUTPUT_DIR defaults to this script's folder.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# (B, S, t) per case: t exercises a plain shape, -1, and 0 with -1.
CASES = [(2, 3, [12, 4]), (1, 1, [-1, 2]), (3, 5, [0, -1])]

W = np.linspace(-0.5, 0.5, 8, dtype=np.float32)
W2 = np.linspace(1.0, 2.0, 8, dtype=np.float32).reshape(1, 8)


def const(name, array):
    return helper.make_node(
        "Constant", [], [name], value=numpy_helper.from_array(array, name))


def make_model():
    i64 = lambda *v: np.array(v, dtype=np.int64)
    nodes = [
        const("w", W),
        const("w2", W2),
        const("zero", i64(0)),
        const("one", i64(1)),
        const("starts", i64(0)),
        const("ends", i64(2)),
        const("minus_one", i64(-1)),
        const("eight", i64(8)),
        const("s_index", np.array(1, dtype=np.int64)),
        const("range_start", np.array(0, dtype=np.int64)),
        const("range_delta", np.array(1, dtype=np.int64)),
        const("axes2", i64(2)),
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Slice", ["s", "starts", "ends", "zero"], ["bs"]),
        helper.make_node("Slice", ["s", "starts", "one"], ["b"]),
        helper.make_node("Slice", ["s", "one", "ends"], ["sl"]),
        helper.make_node("Mul", ["b", "sl"], ["n"]),
        helper.make_node("Concat", ["n", "minus_one"], ["flat"], axis=0),
        helper.make_node("Reshape", ["x", "flat"], ["y"]),
        helper.make_node("Add", ["y", "w"], ["yb"]),
        helper.make_node("Relu", ["yb"], ["z"]),
        helper.make_node("Concat", ["n", "eight"], ["e_shape"], axis=0),
        helper.make_node("Expand", ["w2", "e_shape"], ["e"]),
        helper.make_node("Mul", ["z", "e"], ["m"]),
        helper.make_node("Reshape", ["m", "t"], ["out0"]),
        helper.make_node("Gather", ["s", "s_index"], ["seq"], axis=0),
        helper.make_node("Range", ["range_start", "seq", "range_delta"],
                         ["out1"]),
        helper.make_node("Shape", ["out0"], ["out2"]),
        helper.make_node(
            "ConstantOfShape", ["bs"], ["half"],
            value=numpy_helper.from_array(np.array([0.5], dtype=np.float32))),
        helper.make_node("Unsqueeze", ["half", "axes2"], ["out3"]),
    ]
    graph = helper.make_graph(
        nodes, "dynamic_shapes",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", "S", 8]),
         helper.make_tensor_value_info("t", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("out0", TensorProto.FLOAT,
                                       ["R0", "R1"]),
         helper.make_tensor_value_info("out1", TensorProto.INT64, ["S"]),
         helper.make_tensor_value_info("out2", TensorProto.INT64, [2]),
         helper.make_tensor_value_info("out3", TensorProto.FLOAT,
                                       ["B", "S", 1])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def reference(x, t):
    b, s, _ = x.shape
    z = np.maximum(x.reshape(b * s, -1) + W, 0)
    m = z * np.broadcast_to(W2, (b * s, 8))
    shape = [m.shape[i] if v == 0 else v for i, v in enumerate(t)]
    out0 = m.reshape(shape)
    return [out0, np.arange(0, s, 1, dtype=np.int64),
            np.array(out0.shape, dtype=np.int64),
            np.full((b, s, 1), 0.5, dtype=np.float32)]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.abspath(__file__))
    onnx.save(make_model(), os.path.join(out, "dynamic_shapes.onnx"))
    rng = np.random.default_rng(7)
    for k, (b, s, t) in enumerate(CASES):
        x = rng.standard_normal((b, s, 8)).astype(np.float32)
        t = np.array(t, dtype=np.int64)
        prefix = os.path.join(out, f"dynamic_shapes.case{k}")
        np.save(f"{prefix}.input_0.npy", x)
        np.save(f"{prefix}.input_1.npy", t)
        for i, y in enumerate(reference(x, t)):
            np.save(f"{prefix}.output_{i}.npy", y)


if __name__ == "__main__":
    main()
