"""Writes a float32 .npy file of the given shape with values in [-0.5, 0.5)
from a fixed linear congruential sequence, so that tests need no numpy.

usage: make_npy.py OUT.npy SEED DIM [DIM ...]
"""
import struct
import sys


def main():
    out, seed, dims = sys.argv[1], int(sys.argv[2]), [int(d) for d in sys.argv[3:]]
    count = 1
    for d in dims:
        count *= d
    shape = "(" + "".join(f"{d}, " for d in dims) + ")"
    if len(dims) > 1:
        shape = shape[:-2] + ")"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
    # Magic, version 1.0, header padded with spaces to a multiple of 64.
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * pad + "\n"
    state = seed * 7919 + 1
    values = []
    for _ in range(count):
        state = (state * 1103515245 + 12345) % 2**31
        values.append(state / 2**31 - 0.5)
    with open(out, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack(f"<{count}f", *values))


if __name__ == "__main__":
    main()
