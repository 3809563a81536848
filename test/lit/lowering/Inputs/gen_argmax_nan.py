#!/usr/bin/env python3
"""Writes the input of argmax-nan.mlir, a 4 x 600 f32 .npy, without numpy:
rows of random values with NaNs placed as the test describes; with a length
(argmax-long-rows.mlir), rows of that many elements, the repeated largest
value of row 1 at half and three quarters of it.

  python3 gen_argmax_nan.py OUT.npy [LENGTH]
"""
import random
import struct
import sys

n = int(sys.argv[2]) if len(sys.argv) > 2 else 600
rng = random.Random(7)
rows = [[rng.gauss(0, 1) for _ in range(n)] for _ in range(4)]
nan = float("nan")
rows[0][0] = nan
rows[0][5] = 9
for i in range(1, n, 7):
    rows[1][i] = nan
rows[1][n // 2] = 8
rows[1][n * 3 // 4] = 8
rows[2] = [nan] * n
rows[3][n - 1] = 5

header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, %d), }" % n
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
    out.write(header.encode("latin1"))
    for row in rows:
        out.write(struct.pack("<%df" % n, *row))
