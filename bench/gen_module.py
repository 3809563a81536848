#!/usr/bin/env python3
"""Write a large, seeded MLIR module for parse/verify/print and pass benchmarks.

    python3 bench/gen_module.py --ops 100000 --seed 1 -o /tmp/m.mlir
    python3 bench/gen_module.py --ops 100000 --seed 1 --dialect=arith -o /tmp/m.arith.mlir

The program is a set of functions `@f0 .. @fK` (at most 10,000 ops each, sizes as even as
possible), each taking `%arg0, %arg1: tensor<16xf32>` and returning one tensor<16xf32>.
Bodies are chains of elementwise ops whose operands are drawn, with a seeded RNG, from the
most recent live values (biased towards the newest, sometimes an argument), so the def-use
graph looks like a real model rather than a line or a star. Every other value gets a
user, so, as in a real model, nearly the whole function feeds its result. Mix: about 10%
constants, 50% binary and 35% unary ops, plus on purpose:

  * constants: splats drawn from a small set of values (so equal constants repeat) and
    non-splat `dense<[...]>` of 16 values (30% of the constants);
  * duplicated expressions: ~5% of ops repeat a recent op with the same operands (CSE);
  * dead values: ~5% of results are never used (DCE).

`--ops N` counts the body ops of the onnx form (func.func / return not counted).
The same seed always gives the same program, and both dialects render that same program.

The onnx form is generic op syntax (mlir-opt reads it with --allow-unregistered-dialect);
the arith form uses the custom syntax of the upstream arith and math dialects, so
`mlir-opt --canonicalize --cse` really optimizes it. Mapping:

    onnx.Constant {value = dense<..>}   arith.constant dense<..>
    onnx.Add / Sub / Mul / Div          arith.addf / subf / mulf / divf
    onnx.Max / Min                      arith.maximumf / minimumf
    onnx.Relu(x)                        arith.maximumf x, %zero
    onnx.Neg                            arith.negf
    onnx.Exp / Abs / Sqrt               math.exp / math.absf / math.sqrt

The only difference in op count: the arith form defines one extra
`%zero = arith.constant dense<0.0>` at the top of every function (used by relu).

Where the two dialects legitimately fold differently, the program avoids the case in
both forms, so that `--canonicalize --cse` leaves the same number of ops of each kind:
math.sqrt refuses to fold negative constants (onnx folds them to NaN) and math.exp
folds only splat constants, so Exp and Sqrt never read a value that folds to a constant
(a constant, or an op whose operands all fold); such a value gets Relu, Neg or Abs
instead. Div never combines only values that fold to constants either, since its folded
0/0 is a NaN of the processor's sign in onyx (x86: negative) and a positive one in
APFloat, so constants holding it would not merge alike. Max, Min and Relu need no such
care: onnx.Max and onnx.Min are IEEE 754-2019 maximum and minimum, as arith.maximumf and
arith.minimumf are, and onnx.Relu(x) is max(x, +0.0) (onyx rewrites Max(x, 0.0) to
Relu(x), which CSE then merges as mlir-opt merges the two maximumf).
"""
import argparse
import random

T = "tensor<16xf32>"
MAX_OPS_PER_FUNC = 10_000
WINDOW = 12          # operands come from the last WINDOW live values
P_CONST = 0.10       # fraction of ops that are constants (30% of them non-splat)
P_DUP = 0.05         # fraction of ops that repeat an earlier expression
P_DEAD = 0.05        # fraction of results that are never used
P_ARG = 0.04         # fraction of operands taken from the function arguments

BINARY = ["Add", "Sub", "Mul", "Div", "Max", "Min"]
UNARY = ["Relu", "Neg", "Exp", "Abs", "Sqrt"]
# math.sqrt does not fold negative constants (onnx folds them to NaN) and
# math.exp does not fold non-splat ones: these never read a value that folds
# to a constant, so that both forms fold the same ops (see the docstring).
NO_CONST_OPERAND = ("Exp", "Sqrt")
# Div of two folding values may make a NaN whose sign differs between the
# dialects (x86 arithmetic gives -NaN, APFloat +NaN); such a pair gets one of
# these instead.
BINARY_CONST_OK = ["Add", "Sub", "Mul", "Max", "Min"]
UNARY_CONST_OK = [k for k in UNARY if k not in NO_CONST_OPERAND]
# Exactly representable values, printed the way mlir-opt prints them.
VALUES = ["%.6e" % ((k - 16) * 0.125) for k in range(33)]
# A smaller set so that equal splats recur; -0.0 beside 0.0 makes the IEEE
# identity x + (-0.0) = x appear next to its near-miss x + 0.0.
SPLATS = VALUES[8:25] + ["-0.000000e+00"]

# Line templates (%-style: fastest in CPython) per dialect and op.
ONNX = {k: '    %%%d = "onnx.' + k + '"(%s, %s) : (' + T + ", " + T + ") -> " + T
        for k in BINARY}
ONNX.update({k: '    %%%d = "onnx.' + k + '"(%s) : (' + T + ") -> " + T for k in UNARY})
ONNX["const"] = '    %%%d = "onnx.Constant"() {value = dense<%s> : ' + T + "} : () -> " + T

ARITH_NAMES = {"Add": "arith.addf", "Sub": "arith.subf", "Mul": "arith.mulf",
               "Div": "arith.divf", "Max": "arith.maximumf", "Min": "arith.minimumf",
               "Neg": "arith.negf", "Exp": "math.exp", "Abs": "math.absf",
               "Sqrt": "math.sqrt"}
ARITH = {k: "    %%%d = " + ARITH_NAMES[k] + " %s, %s : " + T for k in BINARY}
ARITH.update({k: "    %%%d = " + ARITH_NAMES[k] + " %s : " + T for k in UNARY if k != "Relu"})
ARITH["Relu"] = "    %%%d = arith.maximumf %s, %%zero : " + T
ARITH["const"] = "    %%%d = arith.constant dense<%s> : " + T
ARITH_PROLOGUE = "    %zero = arith.constant dense<0.000000e+00> : " + T


def gen_function(rng, name, nops, tmpl, prologue):
    """Return the lines of one function with `nops` body ops."""
    rand = rng.random
    lines = ["  func.func @%s(%%arg0: %s, %%arg1: %s) -> %s {" % (name, T, T, T)]
    if prologue:
        lines.append(prologue)
    args = ["%arg0", "%arg1"]
    live = list(args)    # values later ops may use, newest last (only the tail is read)
    unused = {}          # live values without a user yet (a dict: ordered, O(1) removal)
    recent = []          # (template, operands) of recent ops, for duplicates
    folded = set()       # values that canonicalization folds to a constant

    def pick(consume):
        if rand() < P_ARG:
            return args[rand() < 0.5]
        r = rand()  # squared: biased towards the newest values
        v = live[-1 - int(r * r * min(WINDOW, len(live)))]
        if consume:
            unused.pop(v, None)
        return v

    def first():
        # Every live value gets a user, so apart from the intended dead values the whole
        # function feeds its result, as in a real model. Usually the newest unused value
        # is taken; when many are waiting, the oldest (a long "skip connection").
        if not unused:
            return pick(True)
        if len(unused) > WINDOW:
            v = next(iter(unused))
            del unused[v]
            return v
        return unused.popitem()[0]

    for i in range(nops):
        tail = nops - i <= len(unused)  # the last ops merge what is still unused
        dead = not tail and rand() < P_DEAD
        r = 1.0 if tail else rand()
        if recent and r < P_DUP:
            t, ops = recent[int(rand() * len(recent))]
        elif r < P_DUP + P_CONST:
            t = tmpl["const"]
            if rand() < 0.3:
                ops = ("[" + ", ".join([VALUES[int(rand() * 33)] for _ in range(16)]) + "]",)
            else:
                ops = (SPLATS[int(rand() * len(SPLATS))],)
        elif r < P_DUP + P_CONST + 0.50 or tail:  # 50% binary, the rest unary
            # A dead op only reads values (it must not be some value's only user).
            a = pick(False) if dead else first()
            b = first() if tail else pick(not dead)
            if b == a:
                b = pick(not dead)  # `x op x` is legal but should stay the exception
            k = BINARY[int(rand() * 6)]
            if a in folded and b in folded and k == "Div":
                k = BINARY_CONST_OK[int(rand() * len(BINARY_CONST_OK))]
            t, ops = tmpl[k], (a, b)
        else:
            a = pick(False) if dead else first()
            k = UNARY[int(rand() * 5)]
            if a in folded and k in NO_CONST_OPERAND:
                k = UNARY_CONST_OK[int(rand() * len(UNARY_CONST_OK))]
            t, ops = tmpl[k], (a,)
        lines.append(t % ((i,) + ops))
        # Constants, and ops whose operands all fold to constants, fold to one.
        if t is tmpl["const"] or all(o in folded for o in ops):
            folded.add("%%%d" % i)
        recent.append((t, ops))
        if len(recent) > 32:
            del recent[0]
        if not dead:
            v = "%%%d" % i
            live.append(v)
            unused[v] = None
            if len(live) > 4 * WINDOW:
                del live[:2 * WINDOW]
    lines.append("    return %s : %s" % (live[-1], T))
    lines.append("  }")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ops", type=int, default=100_000, help="number of body ops")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dialect", choices=["onnx", "arith"], default="onnx")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    tmpl, prologue = (ONNX, None) if a.dialect == "onnx" else (ARITH, ARITH_PROLOGUE)
    nfuncs = max(1, -(-a.ops // MAX_OPS_PER_FUNC))
    with open(a.output, "w") as f:
        f.write("module {\n")
        for k in range(nfuncs):
            # Even split: the first (ops % nfuncs) functions get one op more.
            n = a.ops // nfuncs + (k < a.ops % nfuncs)
            f.write("\n".join(gen_function(rng, "f%d" % k, n, tmpl, prologue)))
            f.write("\n")
        f.write("}\n")


if __name__ == "__main__":
    main()
