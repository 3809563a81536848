"""NumPy implementation of ONNX Runtime's block quantization (com.microsoft
MatMulNBits and GatherBlockQuantized, docs/CONTRIB-OPS.md).

A K x N weight W (MatMul's B) is stored as N rows, one per output column,
each of ceil(K / block_size) blocks of block_size values of `bits` bits,
packed along K low bits first (4 bits: value 2i in the low nibble of byte
i). Value k of column n is (q[n, k] - zero[n, b]) * scale[n, b] with b = k //
block_size; values past K in the last block are padding (0 here). Zero
points are uint8, packed per row the same way, or absent (then 2^(bits-1)).

GatherBlockQuantized's table is the same packing of each row of an
embedding table along its last axis.
"""

import numpy as np


def pack(values, bits):
    """Packs unsigned integers < 2^bits along the last axis, low bits first;
    the last axis' length must be a multiple of 8 // bits."""
    per_byte = 8 // bits
    values = values.astype(np.uint8)
    shape = values.shape[:-1] + (values.shape[-1] // per_byte, per_byte)
    grouped = values.reshape(shape)
    out = np.zeros(shape[:-1], np.uint8)
    for i in range(per_byte):
        out |= grouped[..., i] << (i * bits)
    return out


def unpack(packed, bits):
    """The inverse of pack."""
    per_byte = 8 // bits
    mask = (1 << bits) - 1
    parts = [(packed >> (i * bits)) & mask for i in range(per_byte)]
    return np.stack(parts, axis=-1).reshape(packed.shape[:-1] +
                                            (packed.shape[-1] * per_byte,))


def quantize_rows(rows, bits, block_size, zero_points):
    """Block-quantizes each row of `rows` [R, L] along L.

    Returns (q [R, blocks, block_size] as unsigned ints, scales [R, blocks]
    float32, zeros [R, blocks] ints or None). With zero points a block maps
    [min, max] onto [0, 2^bits - 1]; without, it is symmetric around the
    default zero point 2^(bits - 1).
    """
    r, length = rows.shape
    blocks = -(-length // block_size)
    padded = np.zeros((r, blocks * block_size), np.float64)
    padded[:, :length] = rows
    grouped = padded.reshape(r, blocks, block_size)
    top = (1 << bits) - 1
    if zero_points:
        lo = np.minimum(grouped.min(axis=2), 0.0)
        hi = np.maximum(grouped.max(axis=2), 0.0)
        scales = (hi - lo) / top
        scales[scales == 0] = 1.0
        zeros = np.clip(np.round(-lo / scales), 0, top).astype(np.int64)
    else:
        half = 1 << (bits - 1)
        amax = np.abs(grouped).max(axis=2)
        scales = amax / max(half - 1, 1)
        scales[scales == 0] = 1.0
        zeros = None
    scales = scales.astype(np.float32)
    zero = zeros if zeros is not None else np.full(scales.shape, 1 << (bits - 1))
    q = np.clip(np.round(grouped / scales[:, :, None] + zero[:, :, None]), 0,
                top).astype(np.int64)
    # Padding past the row's end quantizes to the zero point (a value of 0).
    q.reshape(r, -1)[:, length:] = np.repeat(zero, block_size,
                                             axis=1)[:, length:]
    return q, scales, zeros


def pack_zero_points(zeros, bits):
    """uint8 zero points [R, ceil(blocks * bits / 8)], packed like data."""
    per_byte = 8 // bits
    r, blocks = zeros.shape
    padded = np.zeros((r, -(-blocks // per_byte) * per_byte), np.int64)
    padded[:, :blocks] = zeros
    return pack(padded, bits)


def quantize_matmul_weight(w, bits, block_size, zero_points=False):
    """MatMulNBits inputs for MatMul weight `w` [K, N]: B [N, blocks,
    block_size * bits / 8] uint8, scales [N, blocks] float32 and packed zero
    points [N, ceil(blocks * bits / 8)] uint8 (or None)."""
    k, n = w.shape
    q, scales, zeros = quantize_rows(w.T, bits, block_size, zero_points)
    b = pack(q, bits)
    zp = pack_zero_points(zeros, bits) if zeros is not None else None
    return b, scales, zp


def dequantize_matmul_weight(b, scales, zp, k, bits, block_size):
    """The K x N weight MatMulNBits computes with, as float64; `zp` packed
    uint8, a float array [N, blocks], or None."""
    n, blocks, _ = b.shape
    q = unpack(b, bits).reshape(n, blocks * block_size).astype(np.float64)
    scales = scales.reshape(n, blocks).astype(np.float64)
    if zp is None:
        zero = np.full((n, blocks), float(1 << (bits - 1)))
    elif zp.dtype == np.uint8:
        zero = unpack(zp.reshape(n, -1), bits)[:, :blocks].astype(np.float64)
    else:
        zero = zp.reshape(n, blocks).astype(np.float64)
    w = (q - np.repeat(zero, block_size, axis=1)) * np.repeat(
        scales, block_size, axis=1)
    return w[:, :k].T


def matmul_nbits(a, b, scales, zp, k, n, bits, block_size, bias=None):
    """The reference MatMulNBits: A [..., K] times the dequantized weight,
    plus the bias, computed in float64 and returned as A's type."""
    w = dequantize_matmul_weight(b, scales, zp, k, bits, block_size)
    y = a.astype(np.float64) @ w
    if bias is not None:
        y = y + bias.astype(np.float64)
    return y.astype(a.dtype)


def quantize_table(table, bits, block_size, zero_points=False):
    """GatherBlockQuantized inputs for an embedding table [V, D] (D a
    multiple of 8 // bits): data [V, D * bits / 8] uint8, scales [V, blocks]
    float32, zero points [V, ceil(blocks * bits / 8)] uint8 or None."""
    v, d = table.shape
    q, scales, zeros = quantize_rows(table, bits, block_size, zero_points)
    data = pack(q.reshape(v, -1)[:, :d], bits)
    zp = pack_zero_points(zeros, bits) if zeros is not None else None
    return data, scales, zp


def gather_block_quantized(data, indices, scales, zp, bits, block_size):
    """The reference GatherBlockQuantized for uint8 data (gather_axis 0,
    quantize_axis last): rows outside the table give zeros."""
    rows = data.shape[0]
    q = unpack(data, bits).astype(np.float64)
    length = q.shape[-1]
    blocks = scales.shape[-1]
    if zp is None:
        zero = np.full(scales.shape, float(1 << (bits - 1)))
    else:
        zero = unpack(zp, bits)[..., :blocks].astype(np.float64)
    expand = lambda t: np.repeat(t, block_size, axis=-1)[..., :length]
    table = (q - expand(zero)) * expand(scales.astype(np.float64))
    flat = indices.reshape(-1).astype(np.int64)
    out = np.zeros((flat.size,) + table.shape[1:], np.float64)
    for i, index in enumerate(flat):
        if -rows <= index < rows:
            out[i] = table[index]
    return out.reshape(indices.shape + table.shape[1:]).astype(scales.dtype)
