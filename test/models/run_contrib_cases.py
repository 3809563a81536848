#!/usr/bin/env python3
"""Runs the node-level contrib-op models of gen_contrib_ops.py (listed in
contrib/cases.txt) with onyx-run and prints NAME: PASS or NAME: FAIL with
onyx-run's output. On the reference backend the outputs are compared with
NumPy's; on Vulkan (with the validation layer) the model is compiled once
with its symbolic dimensions kept (--input-set) and compared with the
reference backend (--check). Exits with 1 if any case fails. Needs no
Python packages (onyx-run reads the .npy files).

    run_contrib_cases.py --backend=ref|vulkan [--onyx-run=PATH] CASES_DIR
"""

import argparse
import os
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", required=True, choices=["ref", "vulkan"])
    parser.add_argument("--onyx-run", default="onyx-run")
    parser.add_argument("--filter", default="",
                        help="only names with one of these comma-separated prefixes")
    parser.add_argument("--rtol", default="1e-4")
    parser.add_argument("--atol", default="1e-5")
    parser.add_argument("cases_dir")
    args = parser.parse_args()
    failed = 0
    with open(os.path.join(args.cases_dir, "cases.txt")) as f:
        cases = [line.split() for line in f if line.strip()]
    for name, num_inputs, num_outputs in cases:
        if not name.startswith(tuple(args.filter.split(","))):
            continue
        path = lambda kind, i: "@" + os.path.join(args.cases_dir,
                                                  f"{name}.{kind}_{i}.npy")
        command = [args.onyx_run, os.path.join(args.cases_dir, name + ".onnx"),
                   "--backend=" + args.backend, "--rtol=" + args.rtol,
                   "--atol=" + args.atol]
        inputs = [path("input", i) for i in range(int(num_inputs))]
        if args.backend == "vulkan":
            command += ["--validate", "--check", "--input-set=" + ";".join(inputs)]
        else:
            command += ["--input=" + i for i in inputs]
            command += ["--expected-output=" + path("output", i)
                        for i in range(int(num_outputs))]
        run = subprocess.run(command, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        if run.returncode == 0:
            print(f"{name}: PASS")
            continue
        failed += 1
        print(f"{name}: FAIL")
        print("  " + "\n  ".join(run.stdout.splitlines()))
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
