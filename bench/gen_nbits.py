#!/usr/bin/env python3
"""Write an onnx-dialect module of one com.microsoft MatMulNBits, the input of
the 4-bit GEMV benchmark (bench/nbits_bandwidth.sh).

    python3 bench/gen_nbits.py --m 1 --k 2048 --n 8192 -o /tmp/nbits.mlir
    python3 bench/gen_nbits.py --k 576 --n 1536 --block-size 128 --zero-points -o ...

The module is `func.func @main(%a: tensor<MxKxf32>) -> tensor<MxNxf32>`; B, the
scales and the zero points are splat constants (the values do not change the
time; the weights are uploaded at their full packed size). Run it with
`onyx-run MODULE --input=MxKxf32=0.5 --benchmark=50 --profile`.
"""
import argparse


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--m", type=int, default=1, help="rows of A (1: a decode step)")
    ap.add_argument("--k", type=int, default=2048, help="input features")
    ap.add_argument("--n", type=int, default=8192, help="output features")
    ap.add_argument("--bits", type=int, default=4, choices=(2, 4, 8))
    ap.add_argument("--block-size", type=int, default=32)
    ap.add_argument("--zero-points", action="store_true",
                    help="add packed uint8 zero points")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    blocks = -(-a.k // a.block_size)
    blob = a.block_size * a.bits // 8
    zp_row = -(-blocks * a.bits // 8)
    b_type = f"tensor<{a.n}x{blocks}x{blob}xui8>"
    s_type = f"tensor<{a.n}x{blocks}xf32>"
    z_type = f"tensor<{a.n}x{zp_row}xui8>"
    a_type = f"tensor<{a.m}x{a.k}xf32>"
    y_type = f"tensor<{a.m}x{a.n}xf32>"
    operands, types = "%a, %b, %s", f"{a_type}, {b_type}, {s_type}"
    lines = [f"func.func @main(%a: {a_type}) -> {y_type} {{",
             f"  %b = onnx.Constant dense<119> : {b_type}",
             f"  %s = onnx.Constant dense<0.01> : {s_type}"]
    if a.zero_points:
        lines.append(f"  %z = onnx.Constant dense<136> : {z_type}")
        operands += ", %z"
        types += f", {z_type}"
    lines.append(
        f'  %y = "onnx.com.microsoft.MatMulNBits"({operands}) {{K = {a.k} : si64, '
        f"N = {a.n} : si64, bits = {a.bits} : si64, block_size = {a.block_size} : si64}}"
        f" : ({types}) -> {y_type}")
    lines += [f"  return %y : {y_type}", "}"]
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
