#!/usr/bin/env python3
"""Writes the .npy inputs of read-back-run.mlir: data larger than the
workgroup that scans it (128), so that the scan crosses chunks.

Run from this directory with an interpreter that has numpy:
  python3 gen_read_back.py
"""
import numpy as np

rng = np.random.default_rng(0)
np.save("read_back_x.npy", rng.random((700, 3)).astype(np.float32))
np.save("read_back_y.npy", rng.random(700).astype(np.float32))
