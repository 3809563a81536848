#!/usr/bin/env python3
"""Write an onnx-dialect module of one MatMul, the input of GEMM benchmarks.

    python3 bench/gen_matmul.py -o /tmp/bench-matmul.mlir                  # 4096^3 f32
    python3 bench/gen_matmul.py --m 1 --n 4096 --k 4096 -o /tmp/gemv.mlir  # a GEMV
    python3 bench/gen_matmul.py --batch 8 --m 512 -o /tmp/bmm.mlir         # a batched MatMul
    python3 bench/gen_matmul.py --m 1 --trans-b -o /tmp/gemv-nk.mlir       # B stored [n, k]

The module is `func.func @main(%a: tensor<[B x]MxKxT>, %b: tensor<[B x]KxNxT>) ->
tensor<[B x]MxNxT>` returning one `onnx.MatMul`; with --trans-b, B is given as
tensor<NxKxT> and the product is an `onnx.Gemm` with transB (no batch). Time it with onyx-run, with literal
inputs (one value filling the tensor), e.g.

    onyx-run /tmp/bench-matmul.mlir --backend=vulkan \\
        --input=4096x4096xf32=0.5 --input=4096x4096xf32=0.25 --benchmark=20

A product of M x N x K takes 2 * M * N * K floating-point operations (137.4 GFLOP at
4096^3), so TFLOP/s = 2 * M * N * K / seconds per run / 1e12. `--print-inputs` prints the
`--input=` arguments that match the module.
"""
import argparse


def shape(dims, elem):
    return "tensor<" + "x".join(str(d) for d in dims) + "x" + elem + ">"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--m", type=int, default=4096, help="rows of A and of the result")
    ap.add_argument("--n", type=int, default=4096, help="columns of B and of the result")
    ap.add_argument("--k", type=int, default=4096, help="the inner dimension")
    ap.add_argument("--batch", type=int, default=0,
                    help="a leading batch dimension of both operands (0: none)")
    ap.add_argument("--type", default="f32", help="element type (f32, f16, ...)")
    ap.add_argument("--trans-b", action="store_true",
                    help="B stored [n, k] (each column's k contiguous), an onnx.Gemm "
                         "with transB")
    ap.add_argument("--print-inputs", action="store_true",
                    help="print the matching --input= arguments instead")
    ap.add_argument("-o", "--output", help="the module to write")
    a = ap.parse_args()

    batch = [a.batch] if a.batch else []
    ta = shape(batch + [a.m, a.k], a.type)
    if a.trans_b and batch:
        ap.error("--trans-b takes no --batch")
    bDims = [a.n, a.k] if a.trans_b else batch + [a.k, a.n]
    tb = shape(bDims, a.type)
    ty = shape(batch + [a.m, a.n], a.type)
    if a.print_inputs:
        lit = lambda dims, v: "--input=" + "x".join(map(str, dims)) + "x" + a.type + "=" + v
        print(lit(batch + [a.m, a.k], "0.5"), lit(bDims, "0.25"))
        return
    if not a.output:
        ap.error("-o is required")
    flop = 2 * a.m * a.n * a.k * max(a.batch, 1)
    text = (
        f"// One MatMul ({flop / 1e9:.1f} GFLOP), written by bench/gen_matmul.py.\n"
        "module {\n"
        f"  func.func @main(%a: {ta}, %b: {tb}) -> {ty} {{\n"
        + (f'    %0 = "onnx.Gemm"(%a, %b) {{transB = 1 : si64}} : ({ta}, {tb}) -> {ty}\n'
           if a.trans_b else
           f'    %0 = "onnx.MatMul"(%a, %b) : ({ta}, {tb}) -> {ty}\n')
        + f"    return %0 : {ty}\n"
        "  }\n"
        "}\n"
    )
    with open(a.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
