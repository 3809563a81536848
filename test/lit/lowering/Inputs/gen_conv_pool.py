#!/usr/bin/env python3
"""Writes the .npy inputs of conv-pool-dynamic-run.mlir: images of two
sizes for the Conv and pools compiled once with `?` batch and spatial dims.

Run from this directory with an interpreter that has numpy:
  python3 gen_conv_pool.py
"""
import numpy as np

rng = np.random.default_rng(7)
for shape in [(1, 2, 5, 5), (2, 2, 8, 6)]:
    np.save("conv_pool_%dx%dx%dx%d.npy" % shape,
            rng.standard_normal(shape).astype(np.float32))
