"""Writes a module with one com.microsoft MatMulNBits of constant random
weights (4 bits unless --bits says otherwise), optionally after an
RMSNormalization or a LayerNormalization of its input, for the tests of the
matrix-vector kernel (lowering/NBitsGemv.cpp). Values come from a fixed
linear congruential sequence, so that tests need no numpy.

With --n N1,N2,... it writes one product of each width, all of the same
(normalized) input, each of its own random weights, and returns them all:
the Q, K and V projections that onnx-merge-projections merges.

usage: gen_nbits_gemv.py OUT.mlir --k K --n N[,N...] --block B [--bits 4]
           [--zeros none|u8|f32] [--rows R|?] [--bias] [--norm none|rms|layer]
           [--residual]   (the input added to the product: K must equal N)
"""
import argparse
import struct


def sequence(seed, count):
    state = seed * 7919 + 1
    out = []
    for _ in range(count):
        state = (state * 1103515245 + 12345) % 2**31
        out.append(state)
    return out


def floats(seed, count, low, high):
    return [low + (high - low) * v / 2**31 for v in sequence(seed, count)]


def constant(name, data, shape, element):
    dims = "x".join(str(d) for d in shape)
    return f'  %{name} = onnx.Constant dense<"0x{data.hex().upper()}"> : tensor<{dims}x{element}>\n'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--n", required=True)
    parser.add_argument("--block", type=int, required=True)
    parser.add_argument("--bits", type=int, default=4)
    parser.add_argument("--zeros", choices=["none", "u8", "f32"], default="none")
    parser.add_argument("--rows", default="1")
    parser.add_argument("--bias", action="store_true")
    parser.add_argument("--norm", choices=["none", "rms", "layer"], default="none")
    parser.add_argument("--residual", action="store_true")
    a = parser.parse_args()
    k, block, bits = a.k, a.block, a.bits
    widths = [int(n) for n in a.n.split(",")]
    blocks = -(-k // block)
    blob = block * bits // 8
    x_type = f"tensor<{a.rows}x{k}xf32>"
    body = ""
    if a.norm == "none":
        body += f'  %xn = "onnx.Identity"(%x) : ({x_type}) -> {x_type}\n'
    else:
        scale = struct.pack(f"<{k}f", *floats(5, k, 0.5, 1.5))
        body += constant("g", scale, [k], "f32")
        if a.norm == "rms":
            body += (f'  %xn = "onnx.RMSNormalization"(%x, %g) {{axis = -1 : si64, '
                     f'epsilon = 1.0e-05 : f32}} : ({x_type}, tensor<{k}xf32>) -> {x_type}\n')
        else:
            shift = struct.pack(f"<{k}f", *floats(6, k, -0.5, 0.5))
            body += constant("nb", shift, [k], "f32")
            body += (f'  %xn = "onnx.LayerNormalization"(%x, %g, %nb) {{axis = -1 : si64, '
                     f'epsilon = 1.0e-05 : f32}} : ({x_type}, tensor<{k}xf32>, '
                     f'tensor<{k}xf32>) -> {x_type}\n')
    body += '  %none = "onnx.NoValue"() {value} : () -> none\n'
    results, result_types = [], []
    for part, n in enumerate(widths):
        # The first part's values are those of the single product.
        seed = 10 * part
        y_type = f"tensor<{a.rows}x{n}xf32>"
        p = f"p{part}_" if len(widths) > 1 else ""
        # Packed bytes of any value: the values past K in the last block are
        # padding the kernels must not use.
        weights = bytes(v >> 23 for v in sequence(seed + 1, n * blocks * blob))
        body += constant(p + "b", weights, [n, blocks, blob], "ui8")
        scales = struct.pack(f"<{n * blocks}f",
                             *floats(seed + 2, n * blocks, 0.01, 0.05))
        body += constant(p + "sc", scales, [n * blocks], "f32")
        zeros = "%none"
        if a.zeros == "u8":
            per_row = -(-blocks * bits // 8)
            zp = bytes(v >> 23 for v in sequence(seed + 3, n * per_row))
            body += constant(p + "zp", zp, [n * per_row], "ui8")
            zeros = f"%{p}zp"
        elif a.zeros == "f32":
            zp = struct.pack(f"<{n * blocks}f",
                             *floats(seed + 3, n * blocks, 0.0, 2.0**bits - 1))
            body += constant(p + "zp", zp, [n * blocks], "f32")
            zeros = f"%{p}zp"
        operands = f"%xn, %{p}b, %{p}sc, {zeros}"
        types = f"{x_type}, tensor<{n}x{blocks}x{blob}xui8>, tensor<{n * blocks}xf32>, "
        types += "none" if zeros == "%none" else (
            f"tensor<{n * blocks}xf32>" if a.zeros == "f32"
            else f"tensor<{n * (-(-blocks * bits // 8))}xui8>")
        if a.bias:
            bias = struct.pack(f"<{n}f", *floats(seed + 4, n, -1.0, 1.0))
            body += constant(p + "bias", bias, [n], "f32")
            operands += f", %none, %{p}bias"
            types += f", none, tensor<{n}xf32>"
        body += (f'  %{p}y = "onnx.com.microsoft.MatMulNBits"({operands}) {{K = {k} : si64, '
                 f'N = {n} : si64, bits = {bits} : si64, block_size = {block} : si64}} '
                 f': ({types}) -> {y_type}\n')
        result = f"%{p}y"
        if a.residual:
            body += f'  %{p}r = "onnx.Add"(%{p}y, %x) : ({y_type}, {x_type}) -> {y_type}\n'
            result = f"%{p}r"
        results.append(result)
        result_types.append(y_type)
    types = ", ".join(result_types)
    if len(result_types) > 1:
        types = f"({types})"
    with open(a.out, "w") as f:
        f.write(f"func.func @main(%x: {x_type}) -> {types} {{\n{body}"
                f"  return {', '.join(results)} : {', '.join(result_types)}\n}}\n")

if __name__ == "__main__":
    main()
