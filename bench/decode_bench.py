#!/usr/bin/env python3
"""Text generation: onyx against PyTorch eager and a CUDA-graph decode step.

For each architecture of examples/decoders/gen_decoders.py at its benchmark
size (GPT-2 small; a Llama of SmolLM-135M's shape), with the same random
weights, batch 1, a prompt of --prompt tokens and --new generated tokens:

  onyx      onyx-run MODEL.onnx --generate=NEW --prompt-ids=...: prefill ms
            and decode ms per token as onyx-run prints them;
  eager     PyTorch running the model's own forward (the cache concatenated
            each step), CUDA synchronized around each step;
  graph     the gpt-fast recipe: a static cache of max-seq positions written
            in place (index_copy_), scaled_dot_product_attention over it with
            a mask, and the decode step captured once in a CUDA graph and
            replayed for every token;
  bound     the bandwidth bound of a decode step: the weight bytes it reads
            divided by the device's measured copy bandwidth.

It also compares onyx's greedy ids with PyTorch's eager ones (fp32 on both,
so they agree unless two logits are within rounding of each other).

On the GPU machine (PyTorch with CUDA, and onyx-run):
  ONYX_RUN=.gpu/bin/onyx-run python3 bench/decode_bench.py --out=/tmp/dec
"""
import argparse
import inspect
import math
import os
import re
import subprocess
import sys
import time
import warnings

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "decoders"))
import gen_decoders as gd  # noqa: E402


def export(model, arch, c, path):
    """gen_decoders' export, with the TorchScript exporter where PyTorch
    defaults to another (the interface and op set stay those of the test
    models)."""
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        original = torch.onnx.export

        def legacy(*args, **kwargs):
            return original(*args, dynamo=False, **kwargs)
        torch.onnx.export = legacy
        try:
            gd.export(model, arch, c, path)
        finally:
            torch.onnx.export = original
    else:
        gd.export(model, arch, c, path)


def sync_time():
    torch.cuda.synchronize()
    return time.perf_counter()


def eager_generate(model, arch, c, prompt, new):
    cache = [torch.zeros(gd.cache_shape(arch, c, 0), device="cuda")
             for _ in range(2 * c["layers"])]
    ids, past, out, decode = list(prompt), 0, [], []
    prefill = 0.0
    # The model makes its masks with torch.arange: on the GPU too.
    with torch.no_grad(), torch.device("cuda"):
        for step in range(new):
            inputs = [t.cuda() for t in gd.step_inputs(ids, past, arch, c, [])]
            start = sync_time()
            results = model(*inputs, *cache)
            token = int(torch.argmax(results[0][0, -1]))
            elapsed = sync_time() - start
            if step == 0:
                prefill = elapsed
            else:
                decode.append(elapsed)
            past += len(ids)
            cache = list(results[1:])
            ids = [token]
            out.append(token)
    return out, prefill * 1e3, 1e3 * sum(decode) / max(len(decode), 1)


class StaticCache:
    """gpt-fast's layout: [1, kv_heads, max_seq, head_dim] per layer, written
    at the step's positions; attention reads all of it under a mask."""

    def __init__(self, arch, c, max_seq):
        shape = gd.cache_shape(arch, c, max_seq)
        self.k = [torch.zeros(shape, device="cuda") for _ in range(c["layers"])]
        self.v = [torch.zeros(shape, device="cuda") for _ in range(c["layers"])]
        self.max_seq = max_seq


def sdpa(q, k, v, mask, rep):
    if rep > 1:
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


def static_forward(model, arch, c, ids, pos, cache):
    """One step over the static cache: `ids` [1, s] at positions `pos` [s]."""
    s = ids.shape[1]
    keys = torch.arange(cache.max_seq, device="cuda")
    mask = keys.unsqueeze(0) <= pos.unsqueeze(1)           # [s, max_seq]
    mask = mask.unsqueeze(0).unsqueeze(0)
    if arch == "gpt2":
        x = model.wte(ids) + model.wpe(pos.unsqueeze(0))
        h = c["hidden"]
        for blk, kc, vc in zip(model.blocks, cache.k, cache.v):
            d = h // blk.heads
            q, k, v = blk.c_attn(blk.ln_1(x)).split(h, dim=2)
            q, k, v = (t.reshape(1, s, blk.heads, d).transpose(1, 2)
                       for t in (q, k, v))
            kc.index_copy_(2, pos, k)
            vc.index_copy_(2, pos, v)
            a = sdpa(q, kc, vc, mask, 1).transpose(1, 2).reshape(1, s, h)
            x = x + blk.c_proj(a)
            x = x + blk.mlp_proj(F.gelu(blk.c_fc(blk.ln_2(x)),
                                        approximate="tanh"))
        return torch.matmul(model.ln_f(x), model.wte.weight.t())
    x = model.embed_tokens(ids)
    freqs = pos.unsqueeze(-1).float() * model.inv_freq
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    for blk, kc, vc in zip(model.blocks, cache.k, cache.v):
        y = blk.input_layernorm(x)
        q = blk.q_proj(y).reshape(1, s, blk.heads, blk.d).transpose(1, 2)
        k = blk.k_proj(y).reshape(1, s, blk.kv_heads, blk.d).transpose(1, 2)
        v = blk.v_proj(y).reshape(1, s, blk.kv_heads, blk.d).transpose(1, 2)
        q = q * cos + gd.rotate_half(q) * sin
        k = k * cos + gd.rotate_half(k) * sin
        kc.index_copy_(2, pos, k)
        vc.index_copy_(2, pos, v)
        a = sdpa(q, kc, vc, mask, blk.heads // blk.kv_heads)
        x = x + blk.o_proj(a.transpose(1, 2).reshape(1, s, -1))
        y = blk.post_attention_layernorm(x)
        x = x + blk.down_proj(F.silu(blk.gate_proj(y)) * blk.up_proj(y))
    return model.lm_head(model.norm(x))


def graph_generate(model, arch, c, prompt, new):
    cache = StaticCache(arch, c, len(prompt) + new)
    with torch.no_grad():
        ids = torch.tensor([prompt], device="cuda")
        pos = torch.arange(len(prompt), device="cuda")
        start = sync_time()
        logits = static_forward(model, arch, c, ids, pos, cache)
        token = torch.argmax(logits[0, -1]).reshape(1, 1)
        prefill = sync_time() - start
        out = [int(token)]

        step_ids = token.clone()
        step_pos = torch.tensor([len(prompt)], device="cuda")
        # Warm up on a side stream, then capture one decode step.
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        saved = [(k.clone(), v.clone()) for k, v in zip(cache.k, cache.v)]
        with torch.cuda.stream(stream):
            for _ in range(3):
                static_forward(model, arch, c, step_ids, step_pos, cache)
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            step_logits = static_forward(model, arch, c, step_ids, step_pos,
                                         cache)
            step_token = torch.argmax(step_logits[0, -1]).reshape(1, 1)
        for (k, v), kc, vc in zip(saved, cache.k, cache.v):
            kc.copy_(k)
            vc.copy_(v)

        start = sync_time()
        for i in range(1, new):
            step_ids.copy_(token)
            step_pos.fill_(len(prompt) + i - 1)
            graph.replay()
            token = step_token
            out.append(int(token))
        decode = (sync_time() - start) / max(new - 1, 1)
    return out, prefill * 1e3, decode * 1e3


def copy_bandwidth():
    """Device-to-device copy of 1 GiB, counting read and write, in GB/s."""
    a = torch.empty(1 << 28, device="cuda")
    b = torch.empty_like(a)
    for _ in range(3):
        b.copy_(a)
    start = sync_time()
    for _ in range(20):
        b.copy_(a)
    elapsed = (sync_time() - start) / 20
    return 2 * a.numel() * 4 / elapsed / 1e9


def warm_up(seconds):
    a = torch.randn(4096, 4096, device="cuda")
    end = time.time() + seconds
    while time.time() < end:
        a = torch.matmul(a, a).clamp_(-1, 1)
    torch.cuda.synchronize()


def onyx_generate(onyx_run, path, prompt, new, extra):
    cmd = [onyx_run, path, f"--generate={new}",
           "--prompt-ids=" + ",".join(map(str, prompt)), *extra]
    result = subprocess.run(cmd, capture_output=True, text=True)
    text = result.stdout + result.stderr
    if result.returncode != 0:
        print(f"onyx-run failed ({result.returncode}):\n{text}")
        return None, None, None, text
    lines = result.stdout.splitlines()
    ids = [int(t) for t in lines[0].split()]
    prefill = float(re.search(r"prefill: \d+ tokens in ([0-9.]+) ms",
                              text).group(1))
    decode = re.search(r"decode: \d+ tokens, ([0-9.]+) ms/token", text)
    return ids, prefill, float(decode.group(1)) if decode else None, text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="/tmp/decoders")
    parser.add_argument("--arch", choices=("gpt2", "llama"), action="append")
    parser.add_argument("--prompt", type=int, default=128)
    parser.add_argument("--new", type=int, default=128)
    parser.add_argument("--warmup", type=float, default=4.0)
    parser.add_argument("--onyx-args", default="",
                        help="more onyx-run flags")
    parser.add_argument("--no-onyx", action="store_true",
                        help="PyTorch and the bound only")
    args = parser.parse_args()
    onyx_run = os.environ.get("ONYX_RUN", "build/bin/onyx-run")
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    rows = []
    for arch in args.arch or ("gpt2", "llama"):
        c = gd.SIZES["bench"][arch]
        model = gd.build(arch, c)
        path = os.path.join(args.out, f"{arch}_bench.onnx")
        if not os.path.exists(path):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                export(model, arch, c, path)
        weight_bytes = sum(p.numel() * 4 for p in model.parameters())
        if arch == "gpt2":
            # The position table is read one row per token, not whole.
            weight_bytes -= model.wpe.weight.numel() * 4
        model = model.cuda()
        gen = torch.Generator().manual_seed(1)
        prompt = torch.randint(0, c["vocab"], (args.prompt,),
                               generator=gen).tolist()

        warm_up(args.warmup)
        bandwidth = copy_bandwidth()
        # Untimed first calls: cuBLAS handles, kernels' first loads.
        eager_generate(model, arch, c, prompt, 3)
        eager_ids, eager_prefill, eager_decode = eager_generate(
            model, arch, c, prompt, args.new)
        graph_ids, graph_prefill, graph_decode = graph_generate(
            model, arch, c, prompt, args.new)
        ids = prefill = decode = None
        if not args.no_onyx:
            warm_up(args.warmup)
            ids, prefill, decode, text = onyx_generate(
                onyx_run, path, prompt, args.new, args.onyx_args.split())
            print(f"=== {arch}: onyx-run output\n{text}")
        bound = weight_bytes / (bandwidth * 1e9) * 1e3
        same = (sum(a == b for a, b in zip(ids, eager_ids))
                if ids else 0)
        graph_same = sum(a == b for a, b in zip(graph_ids, eager_ids))
        rows.append((arch, weight_bytes, bandwidth, bound, prefill, decode,
                     eager_prefill, eager_decode, graph_prefill, graph_decode,
                     same, graph_same, len(eager_ids)))

    print("\n| model | weights MiB | copy GB/s | bound ms/token | onyx prefill ms"
          " | onyx decode ms/token | eager prefill ms | eager decode ms/token"
          " | graph prefill ms | graph decode ms/token | onyx / graph decode"
          " | of bound | ids = eager (onyx, graph) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")

    def fmt(v, digits=3):
        return "n/a" if v is None else f"{v:.{digits}f}"
    for (arch, wb, bw, bound, pf, dc, epf, edc, gpf, gdc, same, gsame,
         n) in rows:
        ratio = None if dc is None else dc / gdc
        of_bound = None if dc is None else bound / dc
        print(f"| {arch} | {wb / 2**20:.0f} | {bw:.0f} | {fmt(bound)} | "
              f"{fmt(pf)} | {fmt(dc)} | {fmt(epf)} | {fmt(edc)} | {fmt(gpf)} | "
              f"{fmt(gdc)} | {fmt(ratio, 2)} | "
              f"{'n/a' if of_bound is None else f'{100 * of_bound:.0f}%'} | "
              f"{same}/{n}, {gsame}/{n} |")


if __name__ == "__main__":
    main()
