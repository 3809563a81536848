"""Writes the inputs of attention-run.mlir: Q [1, 4, s, 8], K and V
[1, 2, t, 8] (grouped-query: two query heads per kv head), an additive mask
[1, 1, s, t] with some keys at -inf (never a whole row), and a bool mask
[1, 1, s, t], for each (s, t) below (s = 1 and t = 700: the keys split
among workgroups, some parts wholly masked). Run from this folder:
    python3 gen_attention_inputs.py
"""
import numpy as np

SIZES = [(1, 1), (1, 7), (1, 70), (16, 16), (3, 130), (1, 700)]

rng = np.random.default_rng(11)
for s, t in SIZES:
    name = f"s{s}_t{t}"
    np.save(f"q_{name}.npy", rng.standard_normal((1, 4, s, 8)).astype(np.float32))
    np.save(f"k_{name}.npy", rng.standard_normal((1, 2, t, 8)).astype(np.float32))
    np.save(f"v_{name}.npy", rng.standard_normal((1, 2, t, 8)).astype(np.float32))
    keep = rng.random((1, 1, s, t)) > 0.3
    if t == 700:
        # Whole parts of a split row masked (keys 64 to 191 of the parts of
        # 64), and one key of the first.
        keep[..., 1:200] = False
    keep[..., 0] = True
    np.save(f"mask_{name}.npy", np.where(keep, 0.0, -np.inf).astype(np.float32))
    np.save(f"bool_{name}.npy", keep)
