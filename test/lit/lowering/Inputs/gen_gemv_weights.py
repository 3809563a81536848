"""Writes a module whose products of a run-time number of rows read constant
weights large enough for the matrix-vector kernel (lowering/Gemv.cpp), so
that onnx-transpose-gemv-weights stores them transposed: a MatMul of an
RMSNorm's rows, a Gemm with alpha and a bias, and a weight that a MatMul and
an Add both read (which stays as it is). Values come from a fixed linear
congruential sequence, so that tests need no numpy.

usage: gen_gemv_weights.py OUT.mlir [ROWS]   (rows known only at run time
                                            without ROWS)
"""
import struct
import sys


def values(seed, count):
    state = seed * 7919 + 1
    out = []
    for _ in range(count):
        state = (state * 1103515245 + 12345) % 2**31
        out.append(state / 2**31 - 0.5)
    return out


def constant(name, seed, dims):
    count = 1
    for d in dims:
        count *= d
    data = struct.pack(f"<{count}f", *values(seed, count)).hex().upper()
    shape = "x".join(str(d) for d in dims)
    return f'  %{name} = onnx.Constant dense<"0x{data}"> : tensor<{shape}xf32>\n'


def main():
    rows = sys.argv[2] if len(sys.argv) > 2 else "?"
    s = "func.func @main(%x: tensor<?x256xf32>, %g: tensor<256xf32>) -> " \
        "(tensor<?x192xf32>, tensor<?x128xf32>, tensor<?x64xf32>, tensor<256x64xf32>) {\n"
    s += constant("w1", 1, [256, 192])
    s += constant("w2", 2, [256, 128])
    s += constant("b2", 3, [128])
    s += constant("w3", 4, [256, 64])
    s += '  %n = "onnx.RMSNormalization"(%x, %g) {epsilon = 1.0e-06 : f32} : ' \
         "(tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>\n"
    s += '  %y1 = "onnx.MatMul"(%n, %w1) : (tensor<?x256xf32>, tensor<256x192xf32>) ' \
         "-> tensor<?x192xf32>\n"
    s += '  %y2 = "onnx.Gemm"(%x, %w2, %b2) {alpha = 0.5 : f32} : (tensor<?x256xf32>, ' \
         "tensor<256x128xf32>, tensor<128xf32>) -> tensor<?x128xf32>\n"
    s += '  %y3 = "onnx.MatMul"(%x, %w3) : (tensor<?x256xf32>, tensor<256x64xf32>) ' \
         "-> tensor<?x64xf32>\n"
    s += '  %y4 = "onnx.Add"(%w3, %w3) : (tensor<256x64xf32>, tensor<256x64xf32>) ' \
         "-> tensor<256x64xf32>\n"
    s += "  return %y1, %y2, %y3, %y4 : tensor<?x192xf32>, tensor<?x128xf32>, " \
         "tensor<?x64xf32>, tensor<256x64xf32>\n}\n"
    with open(sys.argv[1], "w") as f:
        f.write(s.replace("?x", rows + "x"))


if __name__ == "__main__":
    main()
