#!/usr/bin/python3
"""Makes node-level models of ONNX Runtime's contrib ops (the ones ONNX
Runtime GenAI's model builder writes) with NumPy reference outputs, for the
tests of docs/CONTRIB-OPS.md:

    contrib/NAME.onnx, contrib/NAME.input_K.npy, contrib/NAME.output_K.npy
    contrib/cases.txt   one line per case: NAME NUM_INPUTS NUM_OUTPUTS

One case per op and attribute combination. The NumPy functions below are
written from ONNX Runtime's operator specification (docs/ContribOperators.md
in the onnxruntime repository), independently of onyx's evaluator; a
second check runs the same models on ONNX Runtime itself
(test/models/ort_contrib_cases.js, when onnxruntime-node is installed by
scripts/fetch-onnxruntime-node.sh).

Run by hand with Debian's python3-onnx and python3-numpy:
    /usr/bin/python3 test/models/gen_contrib_ops.py [OUTPUT_DIR]
and commit what changed. OUTPUT_DIR defaults to contrib/ beside this script.
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(12)
F32 = TensorProto.FLOAT


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def onnx_type(array):
    return {np.float32: TensorProto.FLOAT, np.int32: TensorProto.INT32,
            np.int64: TensorProto.INT64}[array.dtype.type]


def write_case(out_dir, name, op_type, domain, inputs, outputs, attrs,
               opset=21, shapes=None):
    """inputs: list of (name, array or None); a None array is an absent
    optional input. outputs: list of (name, array or None); None leaves the
    output unused. Arrays of names starting with 'w_' become initializers.
    shapes: declared shapes (with symbolic dims) of some inputs and outputs
    by name."""
    shapes = shapes or {}
    node_inputs = [n if a is not None else "" for n, a in inputs]
    while node_inputs and not node_inputs[-1]:
        node_inputs.pop()
    node_outputs = [n if a is not None else "" for n, a in outputs]
    while node_outputs and not node_outputs[-1]:
        node_outputs.pop()
    node = helper.make_node(op_type, node_inputs, node_outputs, name=name,
                            domain=domain, **attrs)
    graph_inputs, initializers, feeds = [], [], []
    for n, a in inputs:
        if a is None:
            continue
        if n.startswith("w_"):
            initializers.append(numpy_helper.from_array(a, n))
            continue
        graph_inputs.append(helper.make_tensor_value_info(
            n, onnx_type(a), shapes.get(n, list(a.shape))))
        feeds.append(a)
    graph_outputs = [
        helper.make_tensor_value_info(n, onnx_type(a),
                                      shapes.get(n, list(a.shape)))
        for n, a in outputs if a is not None]
    graph = helper.make_graph([node], name, graph_inputs, graph_outputs,
                              initializers)
    opsets = [helper.make_opsetid("", opset)]
    if domain:
        opsets.append(helper.make_opsetid(domain, 1))
    model = helper.make_model(graph, opset_imports=opsets,
                              producer_name="gen_contrib_ops")
    model.ir_version = 8
    with open(os.path.join(out_dir, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())
    results = [a for _, a in outputs if a is not None]
    for i, a in enumerate(feeds):
        np.save(os.path.join(out_dir, f"{name}.input_{i}.npy"), a)
    for i, a in enumerate(results):
        np.save(os.path.join(out_dir, f"{name}.output_{i}.npy"), a)
    return f"{name} {len(feeds)} {len(results)}"


# --- NumPy references -----------------------------------------------------


def rms_norm(x, gamma, eps):
    inv = 1.0 / np.sqrt(np.mean(np.square(x, dtype=np.float64), axis=-1,
                                keepdims=True) + eps)
    return x * inv * gamma, inv


def layer_norm(x, gamma, beta, eps):
    mean = np.mean(x.astype(np.float64), axis=-1, keepdims=True)
    var = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(var + eps)
    y = (x - mean) * inv * gamma
    if beta is not None:
        y = y + beta
    return y, mean, inv


def rotate(x, cos, sin, interleaved):
    """x [..., rd] rotated by cos, sin [..., rd / 2] (broadcast)."""
    half = cos.shape[-1]
    if interleaved:
        a, b = x[..., 0:2 * half:2], x[..., 1:2 * half:2]
    else:
        a, b = x[..., :half], x[..., half:2 * half]
    ra, rb = a * cos - b * sin, b * cos + a * sin
    out = x.copy()
    if interleaved:
        out[..., 0:2 * half:2], out[..., 1:2 * half:2] = ra, rb
    else:
        out[..., :half], out[..., half:2 * half] = ra, rb
    return out


def rotary_cache(max_pos, half, base=10000.0):
    inv = 1.0 / base ** (np.arange(half, dtype=np.float64) / half)
    angles = np.outer(np.arange(max_pos), inv)
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def gqa(q, k, v, past_k, past_v, seqlens, total, heads, kv_heads, scale,
        cos=None, sin=None, interleaved=False):
    """q [B, S, H, D], k, v [B, S, Hkv, D], past [B, Hkv, P, D]."""
    b_, s_, _, d = q.shape
    p = past_k.shape[2] if past_k is not None else 0
    length = max(p, total)
    pk = np.zeros((b_, kv_heads, length, d), np.float64)
    pv = np.zeros_like(pk)
    if past_k is not None:
        pk[:, :, :p], pv[:, :, :p] = past_k, past_v
    out = np.zeros((b_, s_, heads, d), np.float64)
    scale = scale or 1.0 / np.sqrt(d)
    for b in range(b_):
        start = 0 if s_ == total else seqlens[b] + 1 - s_
        pos = np.arange(start, start + s_)
        qb, kb = q[b].astype(np.float64), k[b].astype(np.float64)
        if cos is not None:
            rd = 2 * cos.shape[1]
            c, s = cos[pos][:, None, :], sin[pos][:, None, :]
            qb[..., :rd] = rotate(qb[..., :rd], c, s, interleaved)
            kb[..., :rd] = rotate(kb[..., :rd], c, s, interleaved)
        pk[b, :, start:start + s_] = kb.transpose(1, 0, 2)
        pv[b, :, start:start + s_] = v[b].transpose(1, 0, 2)
        for h in range(heads):
            g = h // (heads // kv_heads)
            for t in range(s_):
                last = min(start + t, seqlens[b])
                scores = pk[b, g, :last + 1] @ qb[t, h] * scale
                w = np.exp(scores - scores.max())
                out[b, t, h] = (w / w.sum()) @ pv[b, g, :last + 1]
    f = lambda a: a.astype(np.float32)
    return f(out.reshape(b_, s_, heads * d)), f(pk), f(pv)


# --- cases ----------------------------------------------------------------


def norm_cases(out_dir):
    lines = []
    x, g = rand(2, 3, 16), rand(16)
    y, inv = rms_norm(x, g, 1e-5)
    lines.append(write_case(
        out_dir, "simplified_layer_norm", "SimplifiedLayerNormalization", "",
        [("x", x), ("w_scale", g)],
        [("y", y.astype(np.float32)), ("inv_std_var", inv.astype(np.float32))],
        dict(axis=-1, epsilon=1e-5, stash_type=1)))
    x2, g2 = rand(2, 4, 6), rand(4, 6)
    inv2 = 1.0 / np.sqrt(np.mean(np.square(x2.astype(np.float64)),
                                 axis=(1, 2), keepdims=True) + 1e-3)
    lines.append(write_case(
        out_dir, "simplified_layer_norm_axis1", "SimplifiedLayerNormalization",
        "", [("x", x2), ("w_scale", g2)],
        [("y", (x2 * inv2 * g2).astype(np.float32)), ("inv_std_var", None)],
        dict(axis=1, epsilon=1e-3)))

    for bias in (False, True):
        x, skip, g, b = rand(2, 3, 32), rand(2, 3, 32), rand(32), rand(32)
        s = x + skip + (b if bias else 0)
        y, inv = rms_norm(s, g, 1e-6)
        name = "skip_simplified_layer_norm" + ("_bias" if bias else "")
        lines.append(write_case(
            out_dir, name, "SkipSimplifiedLayerNormalization",
            "com.microsoft",
            [("input", x), ("skip", skip), ("w_gamma", g),
             ("w_bias", b if bias else None)],
            [("output", y.astype(np.float32)), ("mean", None),
             ("inv_std_var", inv.astype(np.float32)),
             ("input_skip_bias_sum", s.astype(np.float32))],
            dict(epsilon=1e-6)))
    # 2-D input, the epsilon left at its default (1e-12), only the output.
    x, skip, g = rand(5, 8), rand(5, 8), rand(8)
    y, _ = rms_norm(x + skip, g, 1e-12)
    lines.append(write_case(
        out_dir, "skip_simplified_layer_norm_2d",
        "SkipSimplifiedLayerNormalization", "com.microsoft",
        [("input", x), ("skip", skip), ("w_gamma", g)],
        [("output", y.astype(np.float32))], {}))

    for beta, bias in ((False, False), (True, False), (True, True)):
        x, skip = rand(2, 3, 24), rand(2, 3, 24)
        g, be, b = rand(24), rand(24), rand(24)
        s = x + skip + (b if bias else 0)
        y, mean, inv = layer_norm(s, g, be if beta else None, 1e-5)
        name = "skip_layer_norm" + ("_beta" if beta else "") + (
            "_bias" if bias else "")
        lines.append(write_case(
            out_dir, name, "SkipLayerNormalization", "com.microsoft",
            [("input", x), ("skip", skip), ("w_gamma", g),
             ("w_beta", be if beta else None), ("w_bias", b if bias else None)],
            [("output", y.astype(np.float32)),
             ("mean", mean.astype(np.float32)),
             ("inv_std_var", inv.astype(np.float32)),
             ("input_skip_bias_sum", s.astype(np.float32))],
            dict(epsilon=1e-5)))
    # skip of [seq, hidden] broadcast over the batch.
    x, skip, g = rand(2, 3, 8), rand(3, 8), rand(8)
    y, _, _ = layer_norm(x + skip, g, None, 1e-5)
    lines.append(write_case(
        out_dir, "skip_layer_norm_broadcast_skip", "SkipLayerNormalization",
        "com.microsoft", [("input", x), ("skip", skip), ("w_gamma", g)],
        [("output", y.astype(np.float32))], dict(epsilon=1e-5)))
    return lines


def rotary_cases(out_dir):
    lines = []
    b, s, heads, d = 2, 3, 2, 8
    for interleaved in (0, 1):
        for form in ("3d", "4d", "offset", "partial"):
            rd = 4 if form == "partial" else d
            cos, sin = rotary_cache(16, rd // 2)
            if form == "4d":
                x = rand(b, heads, s, d)
            else:
                x = rand(b, s, heads * d)
            if form == "offset":
                ids = np.array([5], np.int64)
                pos = np.tile(np.arange(5, 5 + s), (b, 1))
            else:
                ids = RNG.integers(0, 16, (b, s)).astype(np.int64)
                pos = ids
            c, sn = cos[pos], sin[pos]  # [b, s, rd / 2]
            if form == "4d":
                y = x.copy()
                y[..., :rd] = rotate(x[..., :rd], c[:, None], sn[:, None],
                                     interleaved)
            else:
                xh = x.reshape(b, s, heads, d)
                yh = xh.copy()
                yh[..., :rd] = rotate(xh[..., :rd], c[:, :, None],
                                      sn[:, :, None], interleaved)
                y = yh.reshape(b, s, heads * d)
            attrs = dict(interleaved=interleaved)
            if form == "partial":
                attrs.update(num_heads=heads, rotary_embedding_dim=rd)
            name = f"rotary_{form}" + ("_interleaved" if interleaved else "")
            lines.append(write_case(
                out_dir, name, "RotaryEmbedding", "com.microsoft",
                [("x", x), ("position_ids", ids), ("w_cos", cos),
                 ("w_sin", sin)], [("y", y.astype(np.float32))], attrs))
    return lines


def gqa_case(out_dir, name, b, s, heads, kv_heads, d, past_len, seqlens,
             total, packed=False, rotary=None, scale=0.0, growing=False):
    """growing: the cache's length is symbolic (a cache that grows by the
    new tokens each step), not a max-length buffer."""
    q, k, v = rand(b, s, heads, d), rand(b, s, kv_heads, d), rand(b, s,
                                                                  kv_heads, d)
    past_k = rand(b, kv_heads, past_len, d) if past_len else None
    past_v = rand(b, kv_heads, past_len, d) if past_len else None
    seqlens = np.array(seqlens, np.int32)
    # A cache holds zeros past what earlier steps wrote (the buffer starts
    # zeroed), which ONNX Runtime's present, a buffer of its own here, has.
    for i in range(b if past_len else 0):
        valid = 0 if s == total else seqlens[i] + 1 - s
        past_k[i, :, valid:] = 0
        past_v[i, :, valid:] = 0
    cos = sin = None
    attrs = dict(num_heads=heads, kv_num_heads=kv_heads)
    if scale:
        attrs["scale"] = scale
    if rotary is not None:
        cos, sin = rotary_cache(32, rotary["rd"] // 2)
        attrs.update(do_rotary=1, rotary_interleaved=rotary["interleaved"])
    out, pk, pv = gqa(q, k, v, past_k, past_v, seqlens, total, heads,
                      kv_heads, scale, cos, sin,
                      rotary and rotary["interleaved"])
    qf = q.reshape(b, s, heads * d)
    kf, vf = k.reshape(b, s, kv_heads * d), v.reshape(b, s, kv_heads * d)
    if packed:
        inputs = [("query", np.concatenate([qf, kf, vf], axis=2)),
                  ("key", None), ("value", None)]
    else:
        inputs = [("query", qf), ("key", kf), ("value", vf)]
    inputs += [("past_key", past_k), ("past_value", past_v),
               ("seqlens_k", seqlens),
               ("total_sequence_length", np.array(total, np.int32)),
               ("w_cos", cos), ("w_sin", sin)]
    shapes = {}
    if growing:
        for n in ("past_key", "past_value"):
            shapes[n] = [b, kv_heads, "past_sequence_length", d]
        for n in ("present_key", "present_value"):
            shapes[n] = [b, kv_heads, "total_sequence_length", d]
    return write_case(out_dir, name, "GroupQueryAttention", "com.microsoft",
                      inputs,
                      [("output", out), ("present_key", pk),
                       ("present_value", pv)], attrs, shapes=shapes)


def gqa_cases(out_dir):
    return [
        # First prompt, no past: causal over the prompt.
        gqa_case(out_dir, "gqa_prompt", 1, 4, 4, 2, 8, 0, [3], 4),
        # Decode step into a shared max-length buffer (past = present).
        gqa_case(out_dir, "gqa_decode_shared", 2, 1, 4, 2, 8, 16, [5, 5], 6),
        # Two new tokens after a past of 4 in a shared buffer of 8.
        gqa_case(out_dir, "gqa_chunk_shared", 1, 2, 2, 1, 8, 8, [5], 6),
        # A growing cache (past of the length before the step, symbolic):
        # present grows to the total.
        gqa_case(out_dir, "gqa_decode_grow", 1, 1, 4, 4, 8, 3, [3], 4,
                 growing=True),
        # Packed QKV, rotary (rotate-half and interleaved), a partial
        # rotary dim, a custom scale.
        gqa_case(out_dir, "gqa_packed", 1, 3, 4, 2, 8, 8, [2], 3,
                 packed=True),
        # (ONNX Runtime's CPU kernel rotates heads of a multiple of 16, and
        # caches of a multiple of 8 columns.)
        gqa_case(out_dir, "gqa_rotary", 1, 1, 4, 2, 16, 16, [7], 8,
                 rotary=dict(rd=16, interleaved=0)),
        gqa_case(out_dir, "gqa_rotary_interleaved_prompt", 1, 3, 2, 2, 16, 8,
                 [2], 3, rotary=dict(rd=16, interleaved=1)),
        gqa_case(out_dir, "gqa_rotary_partial_packed", 1, 1, 4, 2, 32, 16,
                 [9], 10, packed=True, rotary=dict(rd=16, interleaved=0),
                 scale=0.25),
    ]


def opset23_cases(out_dir):
    """Opset 23's standard forms of the same ops, in files that declare
    opset 23 (the ONNX library onyx links does not know it)."""
    lines = []
    x, g = rand(2, 3, 16), rand(16)
    y, _ = rms_norm(x, g, 1e-5)
    lines.append(write_case(
        out_dir, "onnx23_rms_normalization", "RMSNormalization", "",
        [("x", x), ("w_scale", g)], [("y", y.astype(np.float32))],
        dict(epsilon=1e-5), opset=23))
    b, s, heads, d = 1, 3, 2, 8
    x = rand(b, heads, s, d)
    cos, sin = rotary_cache(16, d // 2)
    ids = np.array([[2, 3, 4]], np.int64)
    y = rotate(x, cos[ids][:, None], sin[ids][:, None], False)
    lines.append(write_case(
        out_dir, "onnx23_rotary_embedding", "RotaryEmbedding", "",
        [("x", x), ("w_cos", cos), ("w_sin", sin), ("position_ids", ids)],
        [("y", y.astype(np.float32))], {}, opset=23))
    q, k, v = rand(1, 4, 3, 8), rand(1, 2, 5, 8), rand(1, 2, 5, 8)
    kr, vr = np.repeat(k, 2, axis=1), np.repeat(v, 2, axis=1)
    scores = q.astype(np.float64) @ kr.transpose(0, 1, 3, 2) / np.sqrt(8)
    w = np.exp(scores - scores.max(-1, keepdims=True))
    y = (w / w.sum(-1, keepdims=True)) @ vr
    lines.append(write_case(
        out_dir, "onnx23_attention_gqa", "Attention", "",
        [("q", q), ("k", k), ("v", v)], [("y", y.astype(np.float32))], {},
        opset=23))
    return lines


def genai_decoder(out_dir):
    """A tiny decoder in ONNX Runtime GenAI's layout (its model builder's op
    choices): inputs input_ids, attention_mask, past_key_values.{i}.key/value
    [1, kv_heads, past, head]; outputs logits and present.{i}.key/value.
    SimplifiedLayerNormalization first, SkipSimplifiedLayerNormalization for
    every residual Add + norm after it, GroupQueryAttention with rotary
    caches, seqlens_k = ReduceSum(attention_mask) - 1 and
    total_sequence_length = its length, SiLU-gated MLP. Random weights.
    test/models/ort_greedy.js gives ONNX Runtime's greedy ids for it."""
    # (ONNX Runtime's CPU kernel rotates heads of a multiple of 16.)
    vocab, hidden, heads, kv_heads, head, inter, layers = 64, 64, 4, 2, 16, 96, 2
    max_pos = 64
    w = lambda *shape: (RNG.standard_normal(shape) * 0.2).astype(np.float32)
    inits = []

    def init(name, array):
        inits.append(numpy_helper.from_array(array, name))
        return name

    nodes = []

    def node(op, inputs, outputs, domain="", **attrs):
        nodes.append(helper.make_node(op, inputs, outputs, domain=domain,
                                      **attrs))
        return outputs[0]

    cos, sin = rotary_cache(max_pos, head // 2)
    init("cos_cache", cos)
    init("sin_cache", sin)
    init("embed", w(vocab, hidden))
    init("one", np.array([1], np.int64))
    init("axis1", np.array([1], np.int64))
    node("Gather", ["embed", "input_ids"], ["x0"])
    node("ReduceSum", ["attention_mask", "axis1"], ["mask_sum"], keepdims=0)
    node("Sub", ["mask_sum", "one"], ["seqlens_i64"])
    node("Cast", ["seqlens_i64"], ["seqlens_k"], to=TensorProto.INT32)
    node("Shape", ["attention_mask"], ["mask_shape"])
    node("Gather", ["mask_shape", init("one_scalar", np.array(1, np.int64))],
         ["total_i64"], axis=0)
    node("Cast", ["total_i64"], ["total_sequence_length"],
         to=TensorProto.INT32)
    residual, mlp_out = "x0", None
    outputs = []
    for i in range(layers):
        ln1 = init(f"ln1_{i}", (1 + w(hidden)).astype(np.float32))
        if mlp_out is None:
            n = node("SimplifiedLayerNormalization", [residual, ln1],
                     [f"n1_{i}"], epsilon=1e-6)
        else:
            node("SkipSimplifiedLayerNormalization", [mlp_out, residual, ln1],
                 [f"n1_{i}", "", "", f"res1_{i}"], domain="com.microsoft",
                 epsilon=1e-6)
            n, residual = f"n1_{i}", f"res1_{i}"
        q = node("MatMul", [n, init(f"wq_{i}", w(hidden, heads * head))],
                 [f"q_{i}"])
        k = node("MatMul", [n, init(f"wk_{i}", w(hidden, kv_heads * head))],
                 [f"k_{i}"])
        v = node("MatMul", [n, init(f"wv_{i}", w(hidden, kv_heads * head))],
                 [f"v_{i}"])
        node("GroupQueryAttention",
             [q, k, v, f"past_key_values.{i}.key",
              f"past_key_values.{i}.value", "seqlens_k",
              "total_sequence_length", "cos_cache", "sin_cache"],
             [f"attn_{i}", f"present.{i}.key", f"present.{i}.value"],
             domain="com.microsoft", num_heads=heads, kv_num_heads=kv_heads,
             do_rotary=1, rotary_interleaved=0, scale=1.0 / np.sqrt(head))
        o = node("MatMul", [f"attn_{i}",
                            init(f"wo_{i}", w(heads * head, hidden))],
                 [f"o_{i}"])
        node("SkipSimplifiedLayerNormalization",
             [o, residual, init(f"ln2_{i}", (1 + w(hidden)).astype(np.float32))],
             [f"n2_{i}", "", "", f"res2_{i}"], domain="com.microsoft",
             epsilon=1e-6)
        residual = f"res2_{i}"
        g = node("MatMul", [f"n2_{i}", init(f"wg_{i}", w(hidden, inter))],
                 [f"g_{i}"])
        u = node("MatMul", [f"n2_{i}", init(f"wu_{i}", w(hidden, inter))],
                 [f"u_{i}"])
        sg = node("Sigmoid", [g], [f"sg_{i}"])
        silu = node("Mul", [g, sg], [f"silu_{i}"])
        gu = node("Mul", [silu, u], [f"gu_{i}"])
        mlp_out = node("MatMul", [gu, init(f"wd_{i}", w(inter, hidden))],
                       [f"mlp_{i}"])
        for kind in ("key", "value"):
            outputs.append(helper.make_tensor_value_info(
                f"present.{i}.{kind}", F32,
                [1, kv_heads, "total_sequence_length", head]))
    node("SkipSimplifiedLayerNormalization",
         [mlp_out, residual, init("ln_f", (1 + w(hidden)).astype(np.float32))],
         ["nf"], domain="com.microsoft", epsilon=1e-6)
    node("MatMul", ["nf", init("lm_head", w(hidden, vocab))], ["logits"])
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64,
                                      [1, "sequence_length"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64,
                                      [1, "total_sequence_length"])]
    for i in range(layers):
        for kind in ("key", "value"):
            inputs.append(helper.make_tensor_value_info(
                f"past_key_values.{i}.{kind}", F32,
                [1, kv_heads, "past_sequence_length", head]))
    outputs.insert(0, helper.make_tensor_value_info(
        "logits", F32, [1, "sequence_length", vocab]))
    graph = helper.make_graph(nodes, "genai_decoder", inputs, outputs, inits)
    model = helper.make_model(
        graph, producer_name="gen_contrib_ops",
        opset_imports=[helper.make_opsetid("", 21),
                       helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    with open(os.path.join(out_dir, "genai_decoder.onnx"), "wb") as f:
        f.write(model.SerializeToString())


def gqa_split_cases(out_dir):
    return [
        # A decode step over a long cache: the keys of a row are split among
        # workgroups (561 keys in 9 parts of 63; the second sequence's 451
        # keys leave its last part empty).
        gqa_case(out_dir, "gqa_decode_split", 2, 1, 2, 1, 8, 600, [560, 450],
                 561),
    ]


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "contrib")
    os.makedirs(out_dir, exist_ok=True)
    lines = (norm_cases(out_dir) + rotary_cases(out_dir) + gqa_cases(out_dir)
             + opset23_cases(out_dir))
    genai_decoder(out_dir)
    # Cases added later draw from the generator after the ones above, which
    # therefore stay as they were.
    lines += gqa_split_cases(out_dir)
    with open(os.path.join(out_dir, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
