#!/usr/bin/env python3
"""Dynamic (compiled once) against specialized kernels, shape by shape.

Runs one model at a list of sizes of its symbolic dimension both ways:
  dynamic:      one onyx-run process, one --input-set per size: lowered and
                loaded once, each size runs on the same kernels;
  specialized:  one onyx-run process per size with --input (the dims bound
                to that size, so every kernel bakes the shape in).
The GPU's clocks differ from one process to the next (identical kernels have
run three times slower in one process than in another), so one measurement
of each says little. Both are measured in --rounds rounds, the order of
dynamic and specialized alternating from round to round, and every timed
measurement (each size of the dynamic process, each specialized process)
is preceded in its own process by --warmup-seconds of untimed runs of the
same size (onyx-run --warmup-seconds), so that it starts at the clocks of
a busy GPU. For each size it prints the median over the rounds of each
round's median latency and device span (where the device has timestamps),
their ratios (and the range of the per-round span or latency ratio, a
measure of the noise left), the host time to switch to the size (the host
(shape) program, tensor placement, descriptor sets and command recording, in
microseconds: onyx-run's "recorded in", median over the rounds) and the
kernels compiled and pipelines created after the first size (the most over
the rounds; 0 expected).

Only the Python standard library and onyx-run are needed, so it runs from
stripped binaries on a machine with nothing but libvulkan.so.1:

  python3 bench/dynamic_shapes.py bench/dynamic_elementwise.mlir \\
      --inputs='{n}x1024xf32=0.5;1024xf32=0.25' --sizes=1,7,16,128,512
  ONYX_RUN=.gpu/bin/onyx-run python3 bench/dynamic_shapes.py MODEL.onnx ...

`--inputs` is the input set of one run with `{n}` for the size.

--dispatches adds the kernels that ran at each size, by kind, dynamic
against specialized (from --profile of the first round: a dynamic kernel's
variants that the run's sizes did not select are not counted), and the
device time of each kind, so that a difference in the span can be traced to
the kernels that differ.
"""
import argparse
import os
import re
import statistics
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
COMPILE = re.compile(r"^compile: ([0-9.]+) ms \((\d+) kernels compiled")


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


class Size:
    """What the rounds measured at one size."""

    def __init__(self, n):
        self.n = n
        self.dyn, self.dyn_span, self.spec, self.spec_span = [], [], [], []
        self.switch_us, self.compiled, self.created = [], 0, 0
        self.dyn_profile, self.spec_profile = None, None


def measure_dynamic(args, base, sizes, results, first):
    cmd = base + args.dynamic_extra.split()
    for n in sizes:
        cmd.append("--input-set=" + args.inputs.format(n=n))
    text = run(cmd)
    switches = [SET.match(l) for l in text.splitlines() if SET.match(l)]
    medians, spans = parse_benchmarks(text)
    if len(switches) != len(sizes) or len(medians) != len(sizes):
        sys.exit("unexpected onyx-run output:\n" + text)
    profiles = parse_profiles(text)
    for i, r in enumerate(results):
        r.dyn.append(medians[i])
        if spans[i] is not None:
            r.dyn_span.append(spans[i])
        if switches[i].group(3):
            r.switch_us.append(int(switches[i].group(3)))
        r.compiled = max(r.compiled, int(switches[i].group(4)))
        r.created = max(r.created, int(switches[i].group(5)))
        if first and i < len(profiles):
            r.dyn_profile = profiles[i]
    return next((m for l in text.splitlines() if (m := COMPILE.match(l))),
                None)


def measure_specialized(args, base, r, first):
    cmd = base + ["--input=" + t
                  for t in args.inputs.format(n=r.n).split(";")]
    text = run(cmd)
    medians, spans = parse_benchmarks(text)
    if len(medians) != 1:
        sys.exit("unexpected onyx-run output:\n" + text)
    r.spec.append(medians[0])
    if spans[0] is not None:
        r.spec_span.append(spans[0])
    profiles = parse_profiles(text)
    if first and profiles:
        r.spec_profile = profiles[-1]


def median(values):
    return statistics.median(values) if values else None


def ratios(a, b):
    """Per-round ratios a / b where both were measured."""
    return [x / y for x, y in zip(a, b) if y]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("--inputs", required=True,
                        help="one run's inputs, ';'-separated, {n} = size")
    parser.add_argument("--sizes", default="1,7,16,128")
    parser.add_argument("--runs", type=int, default=50,
                        help="timed runs of each size in each round")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of dynamic and specialized measurements, "
                             "their order alternating")
    parser.add_argument("--warmup-seconds", type=float, default=1.0,
                        help="untimed runs of the size, in the measuring "
                             "process, right before each measurement")
    parser.add_argument("--extra", default="",
                        help="more onyx-run flags, e.g. --validate")
    parser.add_argument("--dynamic-extra", default="",
                        help="flags of the dynamic run only, e.g. "
                             "--max-dims=seq=512")
    parser.add_argument("--dispatches", action="store_true",
                        help="also list the kernels that ran at each size, "
                             "dynamic against specialized")
    args = parser.parse_args()
    if args.rounds < 1 or args.runs < 1 or args.warmup_seconds < 0:
        sys.exit("--rounds and --runs must be at least 1, --warmup-seconds "
                 "not negative")
    onyx_run = os.environ.get("ONYX_RUN", "build/bin/onyx-run")
    sizes = [int(s) for s in args.sizes.split(",")]
    base = [onyx_run, args.model, f"--benchmark={args.runs}",
            *args.extra.split()]
    if args.warmup_seconds:
        base.append(f"--warmup-seconds={args.warmup_seconds}")
    if args.dispatches:
        base.append("--profile")

    results = [Size(n) for n in sizes]
    compile_line = None
    for round_ in range(args.rounds):
        first = round_ == 0
        # Even rounds measure dynamic first, odd ones specialized first, so
        # that a drift of the machine within a round weighs on both alike.
        if round_ % 2 == 0:
            compile_line = measure_dynamic(args, base, sizes, results, first)
        for r in results:
            measure_specialized(args, base, r, first)
        if round_ % 2 == 1:
            measure_dynamic(args, base, sizes, results, first)

    fmt = lambda v: "-" if v is None else f"{v:.3f}"
    spread = lambda rs: (f"{min(rs):.2f}-{max(rs):.2f}" if rs else "-")
    print(f"model: {args.model}")
    if compile_line:
        print(f"dynamic compile: {compile_line.group(1)} ms, "
              f"{compile_line.group(2)} kernels compiled once")
    print(f"{args.rounds} rounds of {args.runs} runs, each after "
          f"{args.warmup_seconds:g} s of warm-up runs; medians over the "
          f"rounds of each round's median")
    print("| size | dynamic ms | specialized ms | ratio | dynamic span ms "
          "| specialized span ms | span ratio | ratio range | switch us "
          "| kernels compiled | pipelines created |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        dyn, spec = median(r.dyn), median(r.spec)
        dyn_span, spec_span = median(r.dyn_span), median(r.spec_span)
        ratio = dyn / spec if spec else None
        span_ratio = dyn_span / spec_span if dyn_span and spec_span else None
        # The noise: the spread of the per-round ratios of the spans where
        # there are timestamps, else of the latencies.
        per_round = (ratios(r.dyn_span, r.spec_span) if span_ratio
                     else ratios(r.dyn, r.spec))
        switch = (f"{statistics.median(r.switch_us):.0f}" if r.switch_us
                  else "reused")
        print(f"| {r.n} | {fmt(dyn)} | {fmt(spec)} | "
              f"{'-' if ratio is None else f'{ratio:.2f}'} | "
              f"{fmt(dyn_span)} | {fmt(spec_span)} | "
              f"{'-' if span_ratio is None else f'{span_ratio:.2f}'} | "
              f"{spread(per_round)} | {switch} | {r.compiled} | "
              f"{r.created} |")
    if not args.dispatches:
        return
    for r in results:
        dyn, spec = r.dyn_profile or {}, r.spec_profile or {}
        count = lambda p: sum(c for c, _ in p.values())
        differ = sorted(k for k in set(dyn) | set(spec)
                        if dyn.get(k, [0])[0] != spec.get(k, [0])[0])
        same = "same kinds and counts" if not differ else "counts differ"
        print(f"\nsize {r.n}: dynamic ran {count(dyn)} dispatches, "
              f"specialized {count(spec)} ({same}); kinds whose counts "
              f"differ: {', '.join(differ) or 'none'}")
        print(f"  dynamic:     {describe_profile(dyn)}")
        print(f"  specialized: {describe_profile(spec)}")


if __name__ == "__main__":
    main()
