#!/usr/bin/env python3
"""Dynamic (compiled once) against specialized kernels, shape by shape.

Runs one model at a list of sizes of its symbolic dimension twice:
  dynamic:      one onyx-run process, one --input-set per size: lowered and
                loaded once, each size runs on the same kernels;
  specialized:  one onyx-run process per size with --input (the dims bound
                to that size, so every kernel bakes the shape in).
For each size it prints the median latency of --benchmark runs of both (and
the device span where the device has timestamps), their ratio, the host time
to switch to the size (the host (shape) program, tensor placement,
descriptor sets and command recording, in microseconds: onyx-run's
"recorded in") and the kernels compiled and pipelines created after the
first size (0 expected of both).

Only the Python standard library and onyx-run are needed, so it runs from
stripped binaries on a machine with nothing but libvulkan.so.1:

  python3 bench/dynamic_shapes.py bench/dynamic_elementwise.mlir \\
      --inputs='{n}x1024xf32=0.5;1024xf32=0.25' --sizes=1,7,16,128,512
  ONYX_RUN=.gpu/bin/onyx-run python3 bench/dynamic_shapes.py MODEL.onnx ...

`--inputs` is the input set of one run with `{n}` for the size.

--dispatches adds the kernels that ran at each size, by kind, dynamic
against specialized (from --profile: a dynamic kernel's variants that the
run's sizes did not select are not counted), and the device time of each
kind, so that a difference in the span can be traced to the kernels that
differ. --warmup=N runs the largest size N times in a process of its own
first, so that the first sizes measured do not run at the clocks of an
idle GPU.
"""
import argparse
import os
import re
import subprocess
import sys


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(cmd)}\n"
                 f"{result.stdout}{result.stderr}")
    return result.stdout


MEDIAN = re.compile(r"^benchmark: .* median ([0-9.]+) ms")
SPAN = re.compile(r"^gpu span: median ([0-9.]+) ms")
SET = re.compile(r"^input set (\d+): run [0-9.]+ ms \((recorded in ([0-9]+) us|"
                 r"recording reused)\), (\d+) kernels compiled, (\d+) "
                 r"pipelines created")
COMPILE = re.compile(r"^compile: ([0-9.]+) ms \((\d+) kernels compiled\)")


PROFILE = re.compile(r"^profile: (\d+) dispatches")
PROFILE_ROW = re.compile(r"^\s+\d+\s+@(\S+)\s+([0-9.]+)\s")


def parse_profiles(text):
    """For each --profile table in order, {kernel kind: [count, us]}: a
    kernel's kind is its name without the generator's number (matmul_3 is
    a matmul)."""
    profiles = []
    for line in text.splitlines():
        if PROFILE.match(line):
            profiles.append({})
        elif (m := PROFILE_ROW.match(line)) and profiles:
            kind = re.sub(r"_\d+$", "", m.group(1))
            entry = profiles[-1].setdefault(kind, [0, 0.0])
            entry[0] += 1
            entry[1] += float(m.group(2))
    return profiles


def describe_profile(profile):
    return ", ".join(f"{kind} {count} ({us:.1f} us)" for kind, (count, us)
                     in sorted(profile.items(), key=lambda e: -e[1][1]))


def parse_benchmarks(text):
    """Median latency and span (or None) of each --benchmark in order."""
    medians, spans = [], []
    for line in text.splitlines():
        if m := MEDIAN.match(line):
            medians.append(float(m.group(1)))
            spans.append(None)
        elif (m := SPAN.match(line)) and spans:
            spans[-1] = float(m.group(1))
    return medians, spans


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("--inputs", required=True,
                        help="one run's inputs, ';'-separated, {n} = size")
    parser.add_argument("--sizes", default="1,7,16,128")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--extra", default="",
                        help="more onyx-run flags, e.g. --validate")
    parser.add_argument("--dynamic-extra", default="",
                        help="flags of the dynamic run only, e.g. "
                             "--max-dims=seq=512")
    parser.add_argument("--dispatches", action="store_true",
                        help="also list the kernels that ran at each size, "
                             "dynamic against specialized")
    parser.add_argument("--warmup", type=int, default=0,
                        help="runs of the largest size before measuring")
    args = parser.parse_args()
    onyx_run = os.environ.get("ONYX_RUN", "build/bin/onyx-run")
    sizes = [int(s) for s in args.sizes.split(",")]
    extra = args.extra.split()
    if args.dispatches:
        extra.append("--profile")
    if args.warmup:
        run([onyx_run, args.model, f"--benchmark={args.warmup}",
             *args.extra.split(), *args.dynamic_extra.split(),
             "--input-set=" + args.inputs.format(n=max(sizes))])

    dynamic_cmd = [onyx_run, args.model, f"--benchmark={args.runs}", *extra,
                   *args.dynamic_extra.split()]
    for n in sizes:
        dynamic_cmd.append("--input-set=" + args.inputs.format(n=n))
    text = run(dynamic_cmd)
    compile_line = next(
        (COMPILE.match(l) for l in text.splitlines() if COMPILE.match(l)), None)
    switches = [SET.match(l) for l in text.splitlines() if SET.match(l)]
    dyn_medians, dyn_spans = parse_benchmarks(text)
    dyn_profiles = parse_profiles(text)
    if len(switches) != len(sizes) or len(dyn_medians) != len(sizes):
        sys.exit("unexpected onyx-run output:\n" + text)

    print(f"model: {args.model}")
    if compile_line:
        print(f"dynamic compile: {compile_line.group(1)} ms, "
              f"{compile_line.group(2)} kernels compiled once")
    print("| size | dynamic ms | specialized ms | ratio | dynamic span ms "
          "| specialized span ms | switch us | kernels compiled "
          "| pipelines created |")
    print("|---|---|---|---|---|---|---|---|---|")
    dispatches = []
    for i, n in enumerate(sizes):
        spec_cmd = [onyx_run, args.model, f"--benchmark={args.runs}", *extra]
        spec_cmd += ["--input=" + t for t in args.inputs.format(n=n).split(";")]
        spec_text = run(spec_cmd)
        spec_medians, spec_spans = parse_benchmarks(spec_text)
        if args.dispatches:
            spec_profiles = parse_profiles(spec_text)
            dispatches.append((n, dyn_profiles[i] if i < len(dyn_profiles)
                               else {}, spec_profiles[-1] if spec_profiles
                               else {}))
        switch = switches[i]
        switch_us = switch.group(3) or "reused"
        ratio = dyn_medians[i] / spec_medians[0] if spec_medians[0] else 0
        fmt = lambda v: "-" if v is None else f"{v:.3f}"
        print(f"| {n} | {dyn_medians[i]:.3f} | {spec_medians[0]:.3f} | "
              f"{ratio:.2f} | {fmt(dyn_spans[i])} | {fmt(spec_spans[0])} | "
              f"{switch_us} | {switch.group(4)} | {switch.group(5)} |")
    for n, dyn, spec in dispatches:
        count = lambda p: sum(c for c, _ in p.values())
        differ = sorted(k for k in set(dyn) | set(spec)
                        if dyn.get(k, [0])[0] != spec.get(k, [0])[0])
        same = "same kinds and counts" if not differ else "counts differ"
        print(f"\nsize {n}: dynamic ran {count(dyn)} dispatches, specialized "
              f"{count(spec)} ({same}); kinds whose counts differ: "
              f"{', '.join(differ) or 'none'}")
        print(f"  dynamic:     {describe_profile(dyn)}")
        print(f"  specialized: {describe_profile(spec)}")


if __name__ == "__main__":
    main()
