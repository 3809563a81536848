#!/usr/bin/env python3
"""Run a command REPS times; print "<best wall seconds> <peak RSS KiB>".

    python3 bench/measure.py 3 mlir-opt in.mlir -o /dev/null

Used instead of /usr/bin/time so the benchmark needs nothing beyond python3.
Output of the command is discarded; a failing command prints its stderr and exits 1.
"""
import resource
import subprocess
import sys
import time

reps, cmd = int(sys.argv[1]), sys.argv[2:]
best = float("inf")
for _ in range(reps):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.stderr.write("failed (exit %d): %s\n%s" % (p.returncode, " ".join(cmd),
                                                       p.stderr.decode()[-4000:]))
        sys.exit(1)
    best = min(best, wall)
# Max RSS over all waited-for children, in KiB on Linux. This process runs only the
# measured command, so it is that command's peak (the largest of the REPS runs).
print("%.3f %d" % (best, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
