#!/usr/bin/env python3
"""Runs the pretrained models of models.txt with onyx-run and compares each
output with ONNX Runtime's (written by ort_reference.js beside the model)
within the manifest's tolerances. Prints one line per model and backend:
NAME BACKEND: PASS (with the largest absolute error over the outputs) or
FAIL (with onyx-run's output). A model that is not fetched is skipped; when
every named model is skipped the exit status is 77, so that ctest reports
the test as skipped. Needs no Python packages (onyx-run reads the .npy
files).

    run_thirdparty.py [--backend=ref|vulkan] [--onyx-run=PATH] [--dir=DIR]
                      [--validate] [--benchmark=N]
                      [--onnxruntime-benchmark=N] [NAME...]

--onyx-run defaults to $ONYX_RUN, else onyx-run on the PATH; --dir to
$ONYX_THIRDPARTY_DIR, else .thirdparty at the repository root. With
--benchmark, onyx-run also times N runs after a warm-up run and the line
gives the median; with --onnxruntime-benchmark=N, where Python's
onnxruntime and NumPy import, ONNX Runtime's CPU provider is timed alike on
the same inputs (a machine without node), and the line gives the ratio.
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def read_manifest():
    models = []
    with open(os.path.join(HERE, "models.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, package, path, sha, rtol, atol = line.split()
                models.append(dict(name=name, package=package, path=path,
                                   sha=sha, rtol=rtol, atol=atol))
    return models


def sha256(file):
    digest = hashlib.sha256()
    with open(file, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def numbered(folder, kind):
    files = []
    while os.path.exists(os.path.join(folder, f"{kind}_{len(files)}.npy")):
        files.append(os.path.join(folder, f"{kind}_{len(files)}.npy"))
    return files


def time_onnxruntime(onnx, inputs, runs):
    """ONNX Runtime's median wall time of a run in ms (CPU provider, after a
    warm-up run), or None with a reason."""
    try:
        import numpy
        import onnxruntime
    except ImportError as error:
        return None, f"no onnxruntime in Python ({error})"
    import time
    session = onnxruntime.InferenceSession(
        onnx, providers=["CPUExecutionProvider"])
    feeds = {i.name: numpy.load(f) for i, f in zip(session.get_inputs(), inputs)}
    session.run(None, feeds)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, feeds)
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2], None


def run_model(model, args):
    """Returns (status, message): status is PASS, FAIL or SKIP."""
    folder = os.path.join(args.dir, model["name"])
    onnx = os.path.join(folder, "model.onnx")
    inputs, outputs = numbered(folder, "input"), numbered(folder, "output")
    if not os.path.exists(onnx) or not outputs:
        return "SKIP", (f"{folder} has no model.onnx and ONNX Runtime's outputs: "
                        "run scripts/fetch-thirdparty-models.sh")
    if sha256(onnx) != model["sha"]:
        return "FAIL", (f"{onnx} is not the file of models.txt (SHA-256 differs): "
                        "run scripts/fetch-thirdparty-models.sh again")
    command = [args.onyx_run, onnx, "--backend=" + args.backend,
               "--rtol=" + model["rtol"], "--atol=" + model["atol"]]
    command += ["--input=@" + i for i in inputs]
    command += ["--expected-output=@" + o for o in outputs]
    if args.validate:
        command.append("--validate")
    if args.benchmark:
        command.append(f"--benchmark={args.benchmark}")
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    except OSError as error:
        return "FAIL", f"cannot run {args.onyx_run}: {error}"
    errors = [float(e) for e in re.findall(r"max abs error ([0-9.eE+-]+)",
                                           run.stdout)]
    ok = run.returncode == 0 and len(errors) == len(outputs)
    message = (f"max abs error {max(errors):.2g}" if errors else "")
    median = re.search(r"benchmark: .*median ([0-9.]+) ms", run.stdout)
    if median:
        message += f", median {median.group(1)} ms"
    if ok and args.onnxruntime_benchmark:
        ort, why = time_onnxruntime(onnx, inputs, args.onnxruntime_benchmark)
        if ort is None:
            message += f", ONNX Runtime not timed: {why}"
        else:
            message += f", ONNX Runtime (Python, CPU) median {ort:.3f} ms"
            if median:
                message += f", ratio {float(median.group(1)) / ort:.1f}"
    if not ok:
        message += "\n  " + "\n  ".join(run.stdout.splitlines()[-20:])
    return ("PASS" if ok else "FAIL"), message


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="ref", choices=["ref", "vulkan"])
    parser.add_argument("--onyx-run", default=os.environ.get("ONYX_RUN", "onyx-run"))
    parser.add_argument("--dir", default=os.environ.get(
        "ONYX_THIRDPARTY_DIR", os.path.join(ROOT, ".thirdparty")))
    parser.add_argument("--validate", action="store_true")
    parser.add_argument("--benchmark", type=int, default=0)
    parser.add_argument("--onnxruntime-benchmark", type=int, default=0)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    models = read_manifest()
    known = {m["name"] for m in models}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error("not in models.txt: " + ", ".join(unknown))
    if args.names:
        models = [m for m in models if m["name"] in args.names]
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for model in models:
        status, message = run_model(model, args)
        counts[status] += 1
        label = "skipped" if status == "SKIP" else status
        print(f"{model['name']} {args.backend}: {label}" +
              (f": {message}" if message else ""), flush=True)
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['SKIP']} skipped")
    if counts["FAIL"]:
        return 1
    return 77 if counts["SKIP"] == len(models) else 0


if __name__ == "__main__":
    sys.exit(main())
