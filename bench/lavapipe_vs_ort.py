#!/usr/bin/env python3
"""Times the pretrained models of test/models/thirdparty/models.txt with
onyx on lavapipe (Mesa's Vulkan on the CPU) and with ONNX Runtime's CPU
build (onnxruntime-node, through ort_reference.js --benchmark) on the same
inputs, with the same number of threads, and prints a Markdown table: each
runtime's median latency in ms and their ratio (onyx / ONNX Runtime).

    bench/lavapipe_vs_ort.py [--onyx-run=PATH] [--dir=DIR] [--ort-prefix=DIR]
                             [--threads=2] [--rounds=3] [--runs=5]
                             [--warmup-seconds=0.5] [--device=N] [NAME...]

The models, their inputs and ONNX Runtime come from
scripts/fetch-thirdparty-models.sh (.thirdparty/ and .ort/ at the
repository root). A machine shared with other jobs gives each process a
different share of its cores, so the two runtimes are measured in --rounds
rounds, their order alternating, each measurement --runs timed runs after
--warmup-seconds of untimed ones in a fresh process; the table gives the
median over the rounds of each round's median, and the range of the
per-round ratios. lavapipe's threads are set with LP_NUM_THREADS, ONNX
Runtime's intra-op threads with --threads. onyx-run runs on --device, by
default the first CPU device it lists, and also checks its outputs
against ONNX Runtime's (a model that fails is reported, not timed).
Standard library only.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
THIRDPARTY = os.path.join(ROOT, "test", "models", "thirdparty")
sys.path.insert(0, THIRDPARTY)
from run_thirdparty import numbered, read_manifest  # noqa: E402


def find_cpu_device(onyx_run):
    """The number of the first CPU device onyx-run lists (lavapipe), or an
    error text."""
    try:
        run = subprocess.run([onyx_run, "--list-devices"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    except OSError as error:
        return None, f"cannot run {onyx_run}: {error}"
    for line in run.stdout.splitlines():
        device = re.match(r"(\d+): .*: CPU,", line)
        if device:
            return int(device.group(1)), None
    return None, "onyx-run lists no CPU device (lavapipe):\n" + run.stdout


def time_onyx(args, model, folder):
    """onyx-run's median wall time of a run in ms, or an error text."""
    command = [args.onyx_run, os.path.join(folder, "model.onnx"),
               f"--benchmark={args.runs}",
               f"--warmup-seconds={args.warmup_seconds}",
               "--rtol=" + model["rtol"], "--atol=" + model["atol"]]
    command.append(f"--device={args.device}")
    command += ["--input=@" + f for f in numbered(folder, "input")]
    command += ["--expected-output=@" + f for f in numbered(folder, "output")]
    env = dict(os.environ, LP_NUM_THREADS=str(args.threads))
    run = subprocess.run(command, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env)
    median = re.search(r"benchmark: .*median ([0-9.]+) ms", run.stdout)
    if run.returncode != 0 or not median:
        return None, "onyx-run failed:\n  " + "\n  ".join(
            run.stdout.splitlines()[-10:])
    return float(median.group(1)), None


def time_ort(args, name):
    """ONNX Runtime's median wall time of a run in ms, or an error text."""
    command = ["node", os.path.join(THIRDPARTY, "ort_reference.js"), args.dir,
               args.ort_prefix, f"--benchmark={args.runs}",
               f"--threads={args.threads}",
               f"--warmup-seconds={args.warmup_seconds}", f"--only={name}"]
    run = subprocess.run(command, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    median = re.search(r"ONNX Runtime median ([0-9.]+) ms", run.stdout)
    if run.returncode != 0 or not median:
        return None, "ONNX Runtime failed:\n  " + "\n  ".join(
            run.stdout.splitlines()[-10:])
    return float(median.group(1)), None


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onyx-run", default=os.environ.get(
        "ONYX_RUN", os.path.join(ROOT, "build", "bin", "onyx-run")))
    parser.add_argument("--dir", default=os.path.join(ROOT, ".thirdparty"))
    parser.add_argument("--ort-prefix", default=os.path.join(ROOT, ".ort"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup-seconds", type=float, default=0.5)
    parser.add_argument("--device", type=int,
                        help="onyx-run's --device (default: the first CPU one)")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    for value, what in [(args.threads, "--threads"), (args.rounds, "--rounds"),
                        (args.runs, "--runs")]:
        if value < 1:
            parser.error(f"{what} must be at least 1")
    if args.warmup_seconds < 0:
        parser.error("--warmup-seconds must not be negative")
    if args.device is None:
        args.device, error = find_cpu_device(args.onyx_run)
        if error:
            print("error: " + error, file=sys.stderr)
            return 1
    models = read_manifest()
    unknown = set(args.names) - {m["name"] for m in models}
    if unknown:
        parser.error("not in models.txt: " + ", ".join(sorted(unknown)))
    if args.names:
        models = [m for m in models if m["name"] in args.names]

    print("| model | onyx lavapipe (ms) | ONNX Runtime CPU (ms) | ratio | "
          "ratio range |")
    print("|---|---:|---:|---:|---|")
    failed = 0
    for model in models:
        name = model["name"]
        folder = os.path.join(args.dir, name)
        if not numbered(folder, "output"):
            print(f"| {name} | not fetched (scripts/fetch-thirdparty-models.sh)"
                  " | | | |", flush=True)
            continue
        onyx, ort, error = [], [], None
        for round in range(args.rounds):
            order = [time_onyx, time_ort]
            if round % 2:
                order.reverse()
            for timer in order:
                if timer is time_onyx:
                    ms, error = time_onyx(args, model, folder)
                    onyx.append(ms)
                else:
                    ms, error = time_ort(args, name)
                    ort.append(ms)
                if error:
                    break
            if error:
                break
        if error:
            failed += 1
            print(f"| {name} | {error.splitlines()[0]} | | | |", flush=True)
            print(error, file=sys.stderr)
            continue
        ratios = [a / b for a, b in zip(onyx, ort)]
        a, b = statistics.median(onyx), statistics.median(ort)
        print(f"| {name} | {a:.3f} | {b:.3f} | {a / b:.1f} | "
              f"{min(ratios):.1f}-{max(ratios):.1f} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
