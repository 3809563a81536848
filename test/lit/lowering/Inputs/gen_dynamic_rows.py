#!/usr/bin/env python3
"""Writes the .npy inputs of dynamic-rows-run.mlir: tensors of several shapes
for the reduction and normalization kernels compiled once for dims known only
at run time (rows of length 1, and longer than a workgroup of 256).

Run from this directory with an interpreter that has numpy:
  python3 gen_dynamic_rows.py
"""
import numpy as np

rng = np.random.default_rng(10)


def save(name, shape, scale=3.0):
    np.save(name, (rng.standard_normal(shape) * scale).astype(np.float32))


# Rows of any length: Softmax, LogSoftmax, ReduceMean/Sum/Max, ArgMax.
for shape in [(2, 1), (3, 300), (5, 7), (4, 0), (0, 6)]:
    save("rows_%dx%d.npy" % shape, shape)
# LayerNorm / RMSNorm over a dynamic hidden size, with scale and bias.
for rows, hidden in [(3, 16), (2, 1), (1, 300)]:
    save("ln_x_%dx%d.npy" % (rows, hidden), (rows, hidden))
    save("ln_scale_%d.npy" % hidden, (hidden,), 1.0)
    save("ln_bias_%d.npy" % hidden, (hidden,), 1.0)
# Dynamic rows of a static hidden size (the decoder case).
for rows in [1, 5, 40]:
    save("h16_%dx16.npy" % rows, (1, rows, 16))
# Global pools over dynamic spatial dims.
for shape in [(1, 3, 1, 1), (2, 3, 4, 5), (1, 3, 17, 19)]:
    save("pool_%dx%dx%dx%d.npy" % shape, shape)
# RotaryEmbedding at several batch and sequence lengths.
for batch, seq in [(1, 1), (2, 3), (1, 5)]:
    save("rot_x_%dx%d.npy" % (batch, seq), (batch, 2, seq, 8))
    angles = rng.standard_normal((batch, seq, 4)).astype(np.float32)
    np.save("rot_cos_%dx%d.npy" % (batch, seq), np.cos(angles))
    np.save("rot_sin_%dx%d.npy" % (batch, seq), np.sin(angles))
