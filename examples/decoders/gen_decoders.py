#!/usr/bin/python3
"""Writes decoder-only language models with a key/value cache, and PyTorch's
greedy continuation of a fixed prompt as reference ids.

Two architectures, in the cache interface that ONNX exporters use for
decoders (symbolic batch, seq and past dims):

  inputs   input_ids                 int64 [batch, seq]
           attention_mask            int64 [batch, past+seq]
           position_ids              int64 [batch, seq]
           past_key_values.{i}.key   f32   [batch, kv_heads, past, head_dim]
           past_key_values.{i}.value f32   [batch, kv_heads, past, head_dim]
  outputs  logits                    f32   [batch, seq, vocab]
           present.{i}.key           f32   [batch, kv_heads, past+seq, head_dim]
           present.{i}.value         f32   [batch, kv_heads, past+seq, head_dim]

  gpt2   learned position embeddings, LayerNorm, GELU (tanh form), multi-head
         attention, fused QKV projection, tied output embedding
  llama  RMSNorm, rotary embeddings (rotate-half form), grouped-query
         attention, SiLU-gated MLP, untied output embedding

Weights are random from fixed seeds. For each model it writes NAME.onnx,
NAME.greedy.txt:

  prompt: ID,ID,...          (the --prompt-ids of onyx-run)
  ids: ID ID ...             (PyTorch's greedy continuation)
  min-margin: X              (smallest gap between the best and second-best
                              logit over the steps: how far from a tie)

and NAME.batch.txt, the greedy continuation of a batch of prompts of
different lengths run together, left-padded as Hugging Face's generate pads
for decoder-only models (pad id PAD_ID, attention_mask 0 on the padding,
position_ids counting only the real tokens, the padding at position 1):

  prompt: ID,ID,...          (one line per sequence, in batch order)
  ids: ID ID ...             (one line per sequence, in batch order)
  min-margin: X

The continuation starts with a prefill from an empty cache (past = 0), then
decodes one token per step feeding present back as past.

  /usr/bin/python3 examples/decoders/gen_decoders.py            # tiny, here
  /usr/bin/python3 examples/decoders/gen_decoders.py --size=bench --out=DIR

--size=tiny writes the committed test models (well under 1 MB each);
--size=bench the benchmark sizes: GPT-2 small (12 layers, 768 wide, 12
heads, 50257 tokens) and a Llama of SmolLM-135M's shape (30 layers, 576
wide, 9 query and 3 key/value heads, 1536 MLP, 49152 tokens), ~0.5 GB each;
--size=layers the benchmark's widths with 2 layers and 512 tokens (~60 MB
each): a decode step's kernels at those widths, small enough for lavapipe.
Needs Debian's python3-torch (1.13), python3-onnx and python3-numpy.
"""

import argparse
import math
import os
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OPSET = 17

SIZES = {
    "tiny": {
        "gpt2": dict(vocab=96, layers=2, hidden=32, heads=4, positions=64),
        "llama": dict(vocab=96, layers=2, hidden=32, heads=4, kv_heads=2,
                      mlp=64, positions=64),
    },
    "bench": {
        "gpt2": dict(vocab=50257, layers=12, hidden=768, heads=12,
                     positions=1024),
        "llama": dict(vocab=49152, layers=30, hidden=576, heads=9, kv_heads=3,
                      mlp=1536, positions=2048),
    },
    # The benchmark's widths with 2 layers and 512 tokens: the kernels (and
    # dispatches per layer) of the benchmark sizes, in models that lavapipe
    # runs in seconds.
    "layers": {
        "gpt2": dict(vocab=512, layers=2, hidden=768, heads=12,
                     positions=1024),
        "llama": dict(vocab=512, layers=2, hidden=576, heads=9, kv_heads=3,
                      mlp=1536, positions=2048),
    },
}
SEEDS = {"gpt2": 11, "llama": 12}
PROMPT = [5, 17, 42, 8, 3, 29, 11]
# The shorter prompt first, so that the padded row is not the last one.
BATCH_PROMPTS = [[60, 9, 33], PROMPT]
PAD_ID = 0
NEW_TOKENS = 12
GAIN = 4.0


def attention_bias(attention_mask, seq, dtype):
    """Additive mask [batch, 1, seq, past+seq]: 0 where query i (at absolute
    position past+i) may attend key j (j <= past+i and attention_mask[j]
    is 1), a large negative number elsewhere."""
    total = attention_mask.shape[1]
    past = total - seq
    query = torch.arange(seq).unsqueeze(1) + past
    key = torch.arange(total).unsqueeze(0)
    causal = key < query + 1
    allowed = causal.unsqueeze(0) & (attention_mask.unsqueeze(1) > 0)
    return torch.where(allowed, 0.0, torch.finfo(dtype).min).unsqueeze(1).to(dtype)


def attend(q, k, v, bias):
    """Scaled dot-product attention, [b, h, s, d] x [b, h, t, d]."""
    scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    return torch.matmul(torch.softmax(scores + bias, dim=-1), v)


class Gpt2Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.heads = c["heads"]
        h = c["hidden"]
        self.ln_1 = nn.LayerNorm(h)
        self.c_attn = nn.Linear(h, 3 * h)
        self.c_proj = nn.Linear(h, h)
        self.ln_2 = nn.LayerNorm(h)
        self.c_fc = nn.Linear(h, 4 * h)
        self.mlp_proj = nn.Linear(4 * h, h)

    def forward(self, x, bias, past_k, past_v):
        b, s, h = x.shape
        d = h // self.heads
        q, k, v = self.c_attn(self.ln_1(x)).split(h, dim=2)
        q, k, v = (t.reshape(b, s, self.heads, d).transpose(1, 2)
                   for t in (q, k, v))
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        a = attend(q, k, v, bias).transpose(1, 2).reshape(b, s, h)
        x = x + self.c_proj(a)
        x = x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)),
                                     approximate="tanh"))
        return x, k, v


class Gpt2(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.wte = nn.Embedding(c["vocab"], c["hidden"])
        self.wpe = nn.Embedding(c["positions"], c["hidden"])
        self.blocks = nn.ModuleList(Gpt2Block(c) for _ in range(c["layers"]))
        self.ln_f = nn.LayerNorm(c["hidden"])

    def forward(self, input_ids, attention_mask, position_ids, *past):
        x = self.wte(input_ids) + self.wpe(position_ids)
        bias = attention_bias(attention_mask, input_ids.shape[1], x.dtype)
        presents = []
        for i, block in enumerate(self.blocks):
            x, k, v = block(x, bias, past[2 * i], past[2 * i + 1])
            presents += [k, v]
        logits = torch.matmul(self.ln_f(x), self.wte.weight.t())
        return (logits, *presents)


class RMSNorm(nn.Module):
    """As Llama's modelling code writes it (and torch exports it: Pow,
    ReduceMean, Add, Sqrt, Reciprocal, Mul)."""

    def __init__(self, h, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(h))
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        h = c["hidden"]
        self.heads, self.kv_heads = c["heads"], c["kv_heads"]
        self.d = h // self.heads
        self.input_layernorm = RMSNorm(h)
        self.q_proj = nn.Linear(h, self.heads * self.d, bias=False)
        self.k_proj = nn.Linear(h, self.kv_heads * self.d, bias=False)
        self.v_proj = nn.Linear(h, self.kv_heads * self.d, bias=False)
        self.o_proj = nn.Linear(self.heads * self.d, h, bias=False)
        self.post_attention_layernorm = RMSNorm(h)
        self.gate_proj = nn.Linear(h, c["mlp"], bias=False)
        self.up_proj = nn.Linear(h, c["mlp"], bias=False)
        self.down_proj = nn.Linear(c["mlp"], h, bias=False)

    def forward(self, x, bias, cos, sin, past_k, past_v):
        b, s, _ = x.shape
        y = self.input_layernorm(x)
        q = self.q_proj(y).reshape(b, s, self.heads, self.d).transpose(1, 2)
        k = self.k_proj(y).reshape(b, s, self.kv_heads, self.d).transpose(1, 2)
        v = self.v_proj(y).reshape(b, s, self.kv_heads, self.d).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        # Grouped-query attention: each key/value head serves `rep` query
        # heads, repeated as the reference implementation does.
        rep = self.heads // self.kv_heads
        t = k.shape[2]
        kr = k[:, :, None].expand(b, self.kv_heads, rep, t, self.d)
        vr = v[:, :, None].expand(b, self.kv_heads, rep, t, self.d)
        kr = kr.reshape(b, self.heads, t, self.d)
        vr = vr.reshape(b, self.heads, t, self.d)
        a = attend(q, kr, vr, bias).transpose(1, 2).reshape(b, s, -1)
        x = x + self.o_proj(a)
        y = self.post_attention_layernorm(x)
        x = x + self.down_proj(F.silu(self.gate_proj(y)) * self.up_proj(y))
        return x, k, v


class Llama(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.d = c["hidden"] // c["heads"]
        self.embed_tokens = nn.Embedding(c["vocab"], c["hidden"])
        self.blocks = nn.ModuleList(LlamaBlock(c) for _ in range(c["layers"]))
        self.norm = RMSNorm(c["hidden"])
        self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.d, 2).float() / self.d))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, input_ids, attention_mask, position_ids, *past):
        x = self.embed_tokens(input_ids)
        bias = attention_bias(attention_mask, input_ids.shape[1], x.dtype)
        freqs = position_ids.unsqueeze(-1).float() * self.inv_freq
        emb = torch.cat((freqs, freqs), dim=-1).unsqueeze(1)
        cos, sin = emb.cos(), emb.sin()
        presents = []
        for i, block in enumerate(self.blocks):
            x, k, v = block(x, bias, cos, sin, past[2 * i], past[2 * i + 1])
            presents += [k, v]
        return (self.lm_head(self.norm(x)), *presents)


def build(arch, c):
    torch.manual_seed(SEEDS[arch])
    model = Gpt2(c) if arch == "gpt2" else Llama(c)
    with torch.no_grad():
        # Random norm weights and biases, so that a lowering dropping one
        # shows. Projections GAIN times PyTorch's default scale so that the
        # next token depends on the whole context: at the default scale a
        # tiny random model repeats one token, which a broken cache would
        # reproduce too.
        for name, p in model.named_parameters():
            if p.dim() == 2 and not any(e in name for e in ("embed", "wte", "wpe")):
                p.mul_(GAIN)
            elif "norm" in name or "ln_" in name:
                p.copy_(torch.rand(p.shape) + 0.5 if name.endswith("weight")
                        else torch.randn(p.shape) * 0.1)
            elif "embed" in name or "wte" in name or "wpe" in name:
                p.copy_(torch.randn(p.shape))
    return model.eval()


def cache_shape(arch, c, past):
    heads = c["kv_heads"] if arch == "llama" else c["heads"]
    return (1, heads, past, c["hidden"] // c["heads"])


def step_inputs(ids, past, arch, c, cache):
    seq = len(ids)
    return [torch.tensor([ids], dtype=torch.int64),
            torch.ones(1, past + seq, dtype=torch.int64),
            torch.arange(past, past + seq, dtype=torch.int64).unsqueeze(0),
            *cache]


def greedy(model, arch, c, prompt, new_tokens, forget=False):
    """PyTorch's greedy continuation, and the smallest top-1/top-2 gap.
    With `forget`, each step sees only its own tokens (an empty cache)."""
    cache = [torch.zeros(cache_shape(arch, c, 0))
             for _ in range(2 * c["layers"])]
    ids, past, out, margin = list(prompt), 0, [], math.inf
    with torch.no_grad():
        for _ in range(new_tokens):
            results = model(*step_inputs(ids, past, arch, c, cache))
            last = results[0][0, -1]
            top = torch.topk(last, 2).values
            margin = min(margin, float(top[0] - top[1]))
            token = int(torch.argmax(last))
            past += len(ids)
            cache = list(results[1:]) if not forget else [
                torch.zeros(cache_shape(arch, c, past)) for _ in results[1:]]
            ids = [token]
            out.append(token)
    return out, margin


def batched_step_inputs(prompts, arch, c):
    """The prefill of a left-padded batch: ids, attention_mask and
    position_ids [batch, longest] as Hugging Face's generate makes them
    (position_ids = cumsum(mask) - 1, and 1 on the padding)."""
    longest = max(len(p) for p in prompts)
    ids = [[PAD_ID] * (longest - len(p)) + p for p in prompts]
    mask = [[0] * (longest - len(p)) + [1] * len(p) for p in prompts]
    mask = torch.tensor(mask, dtype=torch.int64)
    positions = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 1)
    return torch.tensor(ids, dtype=torch.int64), mask, positions


def batched_greedy(model, arch, c, prompts, new_tokens, wrong=None):
    """PyTorch's greedy continuation of `prompts` run as one batch, and the
    smallest top-1/top-2 gap of any sequence. `wrong` pads wrongly, for the
    check that the reference ids tell right padding from wrong:
    "mask" attends to the padding, "positions" counts it."""
    batch = len(prompts)
    ids, mask, positions = batched_step_inputs(prompts, arch, c)
    if wrong == "mask":
        mask = torch.ones_like(mask)
    elif wrong == "positions":
        positions = torch.arange(ids.shape[1]).expand(batch, -1)
    shape = cache_shape(arch, c, 0)
    cache = [torch.zeros((batch,) + shape[1:]) for _ in range(2 * c["layers"])]
    out, margin = [[] for _ in prompts], math.inf
    with torch.no_grad():
        for _ in range(new_tokens):
            results = model(ids, mask, positions, *cache)
            last = results[0][:, -1]
            top = torch.topk(last, 2).values
            margin = min(margin, float((top[:, 0] - top[:, 1]).min()))
            tokens = torch.argmax(last, dim=-1)
            for row, token in enumerate(tokens.tolist()):
                out[row].append(token)
            cache = list(results[1:])
            ids = tokens.unsqueeze(1)
            mask = torch.cat([mask, torch.ones(batch, 1, dtype=torch.int64)], 1)
            positions = positions[:, -1:] + 1
    return out, margin


def export(model, arch, c, path):
    layers = c["layers"]
    past_names = [f"past_key_values.{i}.{kind}" for i in range(layers)
                  for kind in ("key", "value")]
    present_names = [f"present.{i}.{kind}" for i in range(layers)
                     for kind in ("key", "value")]
    inputs = ["input_ids", "attention_mask", "position_ids", *past_names]
    outputs = ["logits", *present_names]
    axes = {"input_ids": {0: "batch", 1: "seq"},
            "attention_mask": {0: "batch", 1: "total"},
            "position_ids": {0: "batch", 1: "seq"},
            "logits": {0: "batch", 1: "seq"}}
    for name in past_names:
        axes[name] = {0: "batch", 2: "past"}
    for name in present_names:
        axes[name] = {0: "batch", 2: "total"}
    # Traced with a non-empty cache so that no size folds to a constant.
    cache = [torch.randn(cache_shape(arch, c, 3)) for _ in range(2 * layers)]
    example = tuple(step_inputs([1, 2], 3, arch, c, cache))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, example, path, input_names=inputs,
                          output_names=outputs, dynamic_axes=axes,
                          opset_version=OPSET, do_constant_folding=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="tiny")
    parser.add_argument("--out", default=HERE)
    parser.add_argument("--arch", choices=("gpt2", "llama"), action="append")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for arch in args.arch or ("gpt2", "llama"):
        c = SIZES[args.size][arch]
        name = f"{arch}_{args.size}"
        model = build(arch, c)
        export(model, arch, c, os.path.join(args.out, name + ".onnx"))
        ids, margin = greedy(model, arch, c, PROMPT, NEW_TOKENS)
        # The test must fail when the cache is lost: the continuation
        # without one has to differ.
        forgetful, _ = greedy(model, arch, c, PROMPT, NEW_TOKENS, forget=True)
        assert forgetful != ids, f"{name}: the cache does not change the ids"
        with open(os.path.join(args.out, name + ".greedy.txt"), "w") as f:
            f.write(f"prompt: {','.join(map(str, PROMPT))}\n")
            f.write(f"ids: {' '.join(map(str, ids))}\n")
            f.write(f"min-margin: {margin:.4f}\n")
        print(f"{name}: {' '.join(map(str, ids))} (min margin {margin:.4f})")
        rows, margin = batched_greedy(model, arch, c, BATCH_PROMPTS, NEW_TOKENS)
        # Padding must not change a sequence: each row is what its prompt
        # alone continues with.
        for prompt, row in zip(BATCH_PROMPTS, rows):
            alone, _ = greedy(model, arch, c, prompt, NEW_TOKENS)
            assert row == alone, f"{name}: the padded batch differs from {prompt}"
        # Rotary embeddings see only differences of positions, so positions
        # that count the padding (shifted by a row's padding) change a
        # Llama's ids only by rounding: that check is GPT-2's.
        for wrong in ("mask", "positions") if arch == "gpt2" else ("mask",):
            bad, _ = batched_greedy(model, arch, c, BATCH_PROMPTS, NEW_TOKENS,
                                    wrong)
            assert bad != rows, \
                f"{name}: padding with the wrong {wrong} gives the same ids"
        with open(os.path.join(args.out, name + ".batch.txt"), "w") as f:
            for prompt in BATCH_PROMPTS:
                f.write(f"prompt: {','.join(map(str, prompt))}\n")
            for row in rows:
                f.write(f"ids: {' '.join(map(str, row))}\n")
            f.write(f"min-margin: {margin:.4f}\n")
        print(f"{name} batch: {' / '.join(' '.join(map(str, r)) for r in rows)}"
              f" (min margin {margin:.4f})")


if __name__ == "__main__":
    main()
