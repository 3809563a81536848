#!/usr/bin/env python3
"""Writes onyx's own ONNX node test cases, in the layout of ONNX's backend
node tests (CASE/model.onnx, CASE/test_data_set_0/{input,output}_N.pb), for
behaviour the node tests of the ONNX release this repository tests against
(1.12) do not cover: QuantizeLinear and DequantizeLinear with a scale per
block (opset 21's block_size). The expected outputs are computed here with
NumPy from the ONNX specification's formulas, independently of onyx:

    repeat each block's scale (and zero point) over its block_size indices
    along `axis`, the last block cut to the axis' size;
    DequantizeLinear: y = (x - zero_point) * scale, in float32;
    QuantizeLinear:   y = saturate(round_half_even(x / scale) + zero_point).

Run with Debian's python3 (python3-onnx, python3-numpy) from this folder:
    /usr/bin/python3 generate.py
"""
import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper

OPSET = 21
HERE = os.path.dirname(os.path.abspath(__file__))


def per_index(param, axis, block_size, size):
    """`param` (one value per block along `axis`) repeated per index."""
    return np.repeat(param, block_size, axis=axis).take(range(size), axis=axis)


def dequantize(x, scale, zero_point, axis, block_size):
    s = per_index(scale, axis, block_size, x.shape[axis])
    zp = (per_index(zero_point, axis, block_size, x.shape[axis])
          if zero_point is not None else np.zeros_like(s))
    return ((x.astype(np.float32) - zp.astype(np.float32)) * s).astype(
        np.float32)


def quantize(x, scale, zero_point, axis, block_size, dtype):
    s = per_index(scale, axis, block_size, x.shape[axis])
    q = np.rint(x / s)
    if zero_point is not None:
        q += per_index(zero_point, axis, block_size,
                       x.shape[axis]).astype(np.float32)
    info = np.iinfo(dtype)
    return np.clip(q, info.min, info.max).astype(dtype)


def write_case(name, op, attrs, inputs, output):
    """inputs: (name, array) pairs in the op's operand order."""
    folder = os.path.join(HERE, name)
    os.makedirs(os.path.join(folder, "test_data_set_0"), exist_ok=True)
    names = [n for n, _ in inputs]
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(
            n, numpy_helper.from_array(a).data_type, a.shape)
         for n, a in inputs],
        [helper.make_tensor_value_info(
            "y", numpy_helper.from_array(output).data_type, output.shape)])
    model = helper.make_model(
        graph, producer_name="onyx-conformance-cases",
        opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 10
    with open(os.path.join(folder, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for i, (n, a) in enumerate(inputs):
        with open(os.path.join(folder, "test_data_set_0",
                               f"input_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a, n).SerializeToString())
    with open(os.path.join(folder, "test_data_set_0", "output_0.pb"),
              "wb") as f:
        f.write(numpy_helper.from_array(output, "y").SerializeToString())


def main():
    # Blocks of 2 along axis 1 of 4, int8 with zero points.
    x = np.array([[-128, -1, 0, 7], [5, 127, -20, 3], [1, 2, 3, 4]], np.int8)
    scale = np.array([[0.5, 2.0], [1.5, 0.25], [3.0, 1.0]], np.float32)
    zp = np.array([[0, -3], [10, 1], [-128, 127]], np.int8)
    write_case("test_dequantizelinear_blocked_int8", "DequantizeLinear",
               {"axis": 1, "block_size": 2},
               [("x", x), ("x_scale", scale), ("x_zero_point", zp)],
               dequantize(x, scale, zp, 1, 2))
    # Blocks of 2 along axis 0 of 5 (the last block has one row), uint8.
    x = np.array([[0, 255], [17, 128], [200, 3], [64, 65], [9, 250]], np.uint8)
    scale = np.array([[0.1, 0.2], [1.0, 4.0], [0.5, 0.125]], np.float32)
    zp = np.array([[128, 0], [3, 250], [9, 255]], np.uint8)
    write_case("test_dequantizelinear_blocked_axis0_uint8", "DequantizeLinear",
               {"axis": 0, "block_size": 2},
               [("x", x), ("x_scale", scale), ("x_zero_point", zp)],
               dequantize(x, scale, zp, 0, 2))
    # Blocks of 3 along axis 1 of 6, to uint8 with zero points; halves
    # round to even and values past the range saturate.
    x = np.array([[0.0, 1.5, 2.5, -7.0, 300.0, 12.0],
                  [-1.0, -2.5, 3.75, 1000.0, -1000.0, 0.5]], np.float32)
    scale = np.array([[1.0, 2.0], [0.5, 4.0]], np.float32)
    zp = np.array([[128, 3], [0, 255]], np.uint8)
    write_case("test_quantizelinear_blocked_asymmetric", "QuantizeLinear",
               {"axis": 1, "block_size": 3},
               [("x", x), ("y_scale", scale), ("y_zero_point", zp)],
               quantize(x, scale, zp, 1, 3, np.uint8))
    # Blocks of 2 along the last axis of 5, to int8 without a zero point
    # (output_dtype), the last block of one index.
    x = np.array([[[0.25, -0.75, 1.0, 9.0, -130.0],
                   [2.0, 3.0, -4.5, 5.5, 6.0]]], np.float32)
    scale = np.array([[[0.5, 1.0, 1.0], [2.0, 0.5, 0.25]]], np.float32)
    write_case("test_quantizelinear_blocked_symmetric_int8", "QuantizeLinear",
               {"axis": -1, "block_size": 2,
                "output_dtype": TensorProto.INT8},
               [("x", x), ("y_scale", scale)],
               quantize(x, scale, None, 2, 2, np.int8))


if __name__ == "__main__":
    main()
