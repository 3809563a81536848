"""Pass pipelines on an onyx.ir.Module: run(module, "builtin.module(canonicalize,cse)"),
lower(module, target="lavapipe")."""

from ._onyx import passes as _passes

run = _passes.run
lower = _passes.lower

__all__ = ["run", "lower"]
