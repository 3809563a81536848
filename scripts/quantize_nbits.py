#!/usr/bin/python3
"""Rewrites the MatMuls of an ONNX model whose right operand is a 2-D weight
initializer [K, N] into ONNX Runtime's 4-bit com.microsoft.MatMulNBits, the
form ONNX Runtime GenAI distributes LLMs in, with the NumPy packer of
test/models/block_quant.py. Used to compare a decoder's generation in f32
and in 4 bits on the same weights.

    /usr/bin/python3 scripts/quantize_nbits.py IN.onnx OUT.onnx \
        [--bits 4] [--block-size 32] [--zero-points] [--min-k 64]

Weights with K below --min-k, or used by anything but MatMuls' right
operand, stay f32. Prints how many MatMuls it rewrote and the weight bytes
before and after.
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "models"))
import block_quant as bq  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--bits", type=int, default=4, choices=(2, 4, 8))
    ap.add_argument("--block-size", type=int, default=32)
    ap.add_argument("--zero-points", action="store_true",
                    help="asymmetric blocks with uint8 zero points")
    ap.add_argument("--min-k", type=int, default=64)
    a = ap.parse_args()

    model = onnx.load(a.input)
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    uses = {}
    for node in graph.node:
        for i, name in enumerate(node.input):
            uses.setdefault(name, []).append((node, i))

    rewritten, before, after = 0, 0, 0
    new_nodes, dropped = [], set()
    for node in graph.node:
        w_name = node.input[1] if node.op_type == "MatMul" else None
        tensor = inits.get(w_name) if w_name else None
        if (tensor is None or len(tensor.dims) != 2 or tensor.dims[0] < a.min_k
                or any(n.op_type != "MatMul" or i != 1
                       for n, i in uses.get(w_name, []))
                or tensor.data_type != onnx.TensorProto.FLOAT):
            new_nodes.append(node)
            continue
        w = numpy_helper.to_array(tensor).astype(np.float64)
        k, n = w.shape
        b, scales, zp = bq.quantize_matmul_weight(w, a.bits, a.block_size,
                                                  a.zero_points)
        prefix = w_name + "_q"
        extra = [numpy_helper.from_array(b, prefix + "_B"),
                 numpy_helper.from_array(scales, prefix + "_scales")]
        inputs = [node.input[0], prefix + "_B", prefix + "_scales"]
        if zp is not None:
            extra.append(numpy_helper.from_array(zp, prefix + "_zero_points"))
            inputs.append(prefix + "_zero_points")
        if w_name not in dropped:
            graph.initializer.extend(extra)
            dropped.add(w_name)
            before += w.size * 4
            after += sum(t.nbytes for t in (b, scales)) + (
                zp.nbytes if zp is not None else 0)
        new_nodes.append(helper.make_node(
            "MatMulNBits", inputs, list(node.output), name=node.name,
            domain="com.microsoft", K=k, N=n, bits=a.bits,
            block_size=a.block_size))
        rewritten += 1
    del graph.node[:]
    graph.node.extend(new_nodes)
    kept = [t for t in graph.initializer if t.name not in dropped]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    onnx.save(model, a.output)
    print(f"{rewritten} MatMuls rewritten to MatMulNBits ({a.bits} bits, block "
          f"{a.block_size}{', zero points' if a.zero_points else ''}): weights "
          f"{before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
