#!/usr/bin/python3
"""Makes the node-level models of com.microsoft MatMulNBits and
GatherBlockQuantized that the block-quantized tests run, with NumPy reference
outputs (block_quant.py packs and dequantizes as ONNX Runtime specifies).

Run by hand with Debian's python3-numpy and python3-onnx:
    /usr/bin/python3 test/models/gen_block_quantized.py
and commit what changed: test/models/nbits/ (models, inputs, outputs) and
the RUN lines of test/lit/models/block-quantized{,-vulkan}.mlir.

MatMulNBits cases cover bits 2, 4 and 8, block sizes 16 to 256, no, uint8
and float zero points, a bias, K that is not a multiple of the block size
(odd K), N beyond one tile, and 3-D A; each model's A has a symbolic row
count and is run with 1 row (a decode step) and 5 rows (a prefill).
GatherBlockQuantized cases cover bits 2, 4 and 8, zero points or not, i32
and i64 indices with negative and out-of-range values, and a last block
shorter than the block size.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import block_quant as bq  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "nbits")
LIT = os.path.join(HERE, "..", "lit", "models")


def make_model(nodes, inputs, outputs, initializers, name):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    model.producer_name = "gen_block_quantized.py"
    return model


# (bits, block_size, zero points: none/u8/f32, K, N, bias, rank of A)
MATMUL_CASES = []
for bs in (16, 32, 64, 128, 256):
    MATMUL_CASES.append((4, bs, "none", 3 * bs, 20, False, 2))
    MATMUL_CASES.append((4, bs, "u8", 2 * bs + 5, 20, False, 2))
MATMUL_CASES += [
    (4, 32, "f32", 80, 20, True, 2),
    (4, 32, "u8", 64, 72, True, 3),
    (8, 32, "none", 96, 20, False, 2),
    (8, 64, "u8", 100, 20, True, 2),
    (2, 16, "none", 64, 20, False, 2),
    (2, 32, "u8", 70, 20, False, 2),
]

# (bits, block_size, zero points, rows, D, index type)
GATHER_CASES = [
    (4, 16, False, 10, 64, TensorProto.INT64),
    (4, 32, True, 10, 48, TensorProto.INT32),
    (4, 128, True, 12, 64, TensorProto.INT64),
    (8, 32, True, 9, 40, TensorProto.INT64),
    (2, 16, False, 8, 32, TensorProto.INT32),
]


def quantized_inputs(first_inputs, weights_name, weights, scales, zp):
    """The initializers and node inputs of a block-quantized op: its first
    inputs, then the packed weights (among them, named `weights_name`), the
    scales and the zero points where there are some."""
    inits = [numpy_helper.from_array(weights, weights_name),
             numpy_helper.from_array(scales, "scales")]
    node_inputs = first_inputs + ["scales"]
    if zp is not None:
        inits.append(numpy_helper.from_array(zp, "zero_points"))
        node_inputs.append("zero_points")
    return inits, node_inputs


def matmul_case(case, rng):
    bits, bs, zp_kind, k, n, bias, rank = case
    name = f"matmul_nbits_b{bits}_bs{bs}_{zp_kind}_k{k}_n{n}" + (
        "_bias" if bias else "") + ("_3d" if rank == 3 else "")
    w = rng.standard_normal((k, n)) * 0.1
    b, scales, zp = bq.quantize_matmul_weight(w, bits, bs, zp_kind == "u8")
    if zp_kind == "f32":
        zp = rng.uniform(0, (1 << bits) - 1, scales.shape).astype(np.float32)
    bias_value = (rng.standard_normal(n) * 0.1).astype(np.float32)
    inits, node_inputs = quantized_inputs(["A", "B"], "B", b, scales, zp)
    if bias:
        while len(node_inputs) < 5:
            node_inputs.append("")
        inits.append(numpy_helper.from_array(bias_value, "bias"))
        node_inputs.append("bias")
    lead = ["m"] if rank == 2 else ["b", "s"]
    node = helper.make_node("MatMulNBits", node_inputs, ["Y"],
                            domain="com.microsoft", K=k, N=n, bits=bits,
                            block_size=bs, name="matmul_nbits")
    model = make_model(
        [node], [helper.make_tensor_value_info("A", TensorProto.FLOAT,
                                               lead + [k])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, lead + [n])],
        inits, name)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))
    runs = []
    for m in (1, 5):
        shape = (m, k) if rank == 2 else (1, m, k)
        a = rng.standard_normal(shape).astype(np.float32)
        y = bq.matmul_nbits(a, b, scales, zp, k, n, bits, bs,
                            bias_value if bias else None)
        np.save(os.path.join(OUT, f"{name}.m{m}.input_0.npy"), a)
        np.save(os.path.join(OUT, f"{name}.m{m}.output_0.npy"), y)
        runs.append(f"{name}.m{m}")
    return name, runs


def gather_case(case, rng):
    bits, bs, zero_points, rows, d, index_type = case
    name = f"gather_block_quantized_b{bits}_bs{bs}_{'u8' if zero_points else 'none'}_d{d}_" + (
        "i64" if index_type == TensorProto.INT64 else "i32")
    table = rng.standard_normal((rows, d))
    data, scales, zp = bq.quantize_table(table, bits, bs, zero_points)
    inits, node_inputs = quantized_inputs(["data", "indices"], "data", data,
                                          scales, zp)
    node = helper.make_node("GatherBlockQuantized", node_inputs, ["Y"],
                            domain="com.microsoft", bits=bits, block_size=bs,
                            name="gather_block_quantized")
    model = make_model(
        [node], [helper.make_tensor_value_info("indices", index_type,
                                               [2, "s"])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, "s", d])],
        inits, name)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))
    dtype = np.int64 if index_type == TensorProto.INT64 else np.int32
    # Negative indices count from the end; those outside the table give 0.
    indices = np.array([[0, rows - 1, -1], [rows, -rows - 1, 3]], dtype)
    y = bq.gather_block_quantized(data, indices, scales, zp, bits, bs)
    np.save(os.path.join(OUT, f"{name}.input_0.npy"), indices)
    np.save(os.path.join(OUT, f"{name}.output_0.npy"), y)
    return name, [name]


def write_lit(path, header, run_lines):
    with open(path, "w") as f:
        f.write(header)
        for line in run_lines:
            f.write(line + "\n")
        f.write("\n// CHECK: PASS\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(20261126)
    ref, vulkan = [], []
    for case in MATMUL_CASES:
        name, runs = matmul_case(case, rng)
        for run in runs:
            io = (f"--input=@%models/nbits/{run}.input_0.npy "
                  f"--expected-output=@%models/nbits/{run}.output_0.npy")
            ref.append(f"// RUN: onyx-run %models/nbits/{name}.onnx --backend=ref {io} "
                       "--rtol=1e-5 --atol=1e-6 | FileCheck %s")
            vulkan.append(f"// RUN: onyx-run %models/nbits/{name}.onnx --validate {io} "
                          "--rtol=1e-3 --atol=1e-4 | FileCheck %s")
        # One process, the row count a run-time dimension: both kernels
        # are dispatched and the run picks one.
        sets = " ".join(f"--input-set=@%models/nbits/{run}.input_0.npy"
                        for run in runs)
        vulkan.append(f"// RUN: onyx-run %models/nbits/{name}.onnx --validate {sets} "
                      "--check --rtol=1e-3 --atol=1e-4 | FileCheck %s")
    for case in GATHER_CASES:
        name, runs = gather_case(case, rng)
        io = (f"--input=@%models/nbits/{name}.input_0.npy "
              f"--expected-output=@%models/nbits/{name}.output_0.npy")
        ref.append(f"// RUN: onyx-run %models/nbits/{name}.onnx --backend=ref {io} "
                   "--rtol=1e-5 --atol=1e-6 | FileCheck %s")
        vulkan.append(f"// RUN: onyx-run %models/nbits/{name}.onnx --validate {io} "
                      "--rtol=1e-4 --atol=1e-5 | FileCheck %s")
    common = ("// Generated by test/models/gen_block_quantized.py: com.microsoft\n"
              "// MatMulNBits and GatherBlockQuantized node models (bits 2/4/8, block\n"
              "// sizes 16-256, zero points or not, 1 and 5 rows of A, K not a multiple\n"
              "// of the block size) against NumPy's dequantize-then-multiply\n")
    write_lit(os.path.join(LIT, "block-quantized.mlir"),
              common + "// reference, on the reference backend.\n\n", ref)
    write_lit(os.path.join(LIT, "block-quantized-vulkan.mlir"),
              common + "// reference, lowered and run on the Vulkan device (lavapipe in CI)\n"
              "// with the validation layer; --input-set runs keep the row count a\n"
              "// run-time dimension and compare with the reference backend.\n\n",
              vulkan)


if __name__ == "__main__":
    main()
