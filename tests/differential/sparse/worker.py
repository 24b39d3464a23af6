"""The child process of the sparse harness: the same protocol as
differential/worker.py (JSON lines {"seed", "i", "ops"[, "numpy_only"]} in,
one JSON record out per call), for the rows of sparse/ops.py. `numpy_only`
runs the SciPy half alone (does SciPy itself die on the call?).
"""
import json
import os
import sys

import numpy

from ..compare import short
from . import calls, compare, ops, repro
from .specs import SparseSpec

WORKER_MODULE = "differential.sparse.worker"
call_source = repro.call_source


def draw(seed, i, pattern=None):
    """Call number i of campaign `seed` (deterministic; a stream apart from
    the NumPy harness's: the generator is seeded with [seed, i, 1])."""
    rows = ops.select(pattern)
    rng = numpy.random.default_rng([seed, i, 1])
    w = numpy.array([r.weight for r in rows])
    row = rows[int(rng.choice(len(rows), p=w / w.sum()))]
    return calls.generate(row, rng)


def _first_sparse(x):
    if isinstance(x, SparseSpec):
        return x
    if isinstance(x, (list, tuple)):
        for e in x:
            s = _first_sparse(e)
            if s is not None:
                return s
    return None


class Info:
    """What a known-defect predicate sees: the call, the outcome class and
    detail, both Outcomes (None for a crash), the first sparse operand's
    spec (`first`: fmt, kind, how, shape) and the dtypes of the operands."""
    def __init__(self, call, cls, n, k, detail=""):
        self.call, self.cls, self.n, self.k, self.detail = call, cls, n, k, detail
        self.first = _first_sparse(call.args)
        self.dtypes = []
        for a in call.args:
            s = _first_sparse([a])
            if s is not None:
                self.dtypes.append(calls.spec_dtype(s))
            elif hasattr(a, "dtype"):
                self.dtypes.append(str(a.dtype))


def known_defect(call, cls, n, k, detail=""):
    info = Info(call, cls, n, k, detail)
    for desc, pred in list(call.row.known) + ops.GLOBAL_KNOWN + ops.SCIPY_DIVERGES:
        try:
            if pred(info):
                return desc
        except Exception:  # noqa: BLE001 - a predicate that cannot decide does not apply
            pass
    return None


def dense_inputs(call):
    """Dense NumPy values of the call's operands (the tolerances' scale)."""
    lib = calls.Lib.get("scipy")
    out = []

    def walk(x):
        if isinstance(x, (SparseSpec,)):
            try:
                out.append(compare.dense_of(x.build(lib)))
            except Exception:  # noqa: BLE001
                pass
        elif hasattr(x, "steps"):
            out.append(x.numpy())
        elif isinstance(x, (list, tuple)):
            for e in x:
                walk(e)
    walk(list(call.args) + list(call.kwargs.values()))
    return [a for a in out if a.dtype.kind in "biufc"] or [numpy.zeros(1)]


def run_numpy_only(seed, i, pattern=None):
    call = draw(seed, i, pattern)
    calls.execute(call, calls.Lib.get("scipy"))
    return {"i": i, "op": call.row.name, "cls": "match"}


def run_one(seed, i, pattern=None):
    try:
        call = draw(seed, i, pattern)
    except Exception as e:  # noqa: BLE001
        return {"i": i, "op": "?", "cls": "harness_error", "detail": f"generation: {short(e)}"}
    res = {"i": i, "op": call.row.name, "cls": "match"}
    n = k = None
    try:
        n = calls.execute(call, calls.Lib.get("scipy"))
        k = calls.execute(call, calls.Lib.get("kumo"))
        cls, detail = compare.judge(call, n, k, dense_inputs(call))
    except Exception as e:  # noqa: BLE001 - the harness itself failed on this call
        cls, detail = "harness_error", short(e)
    if cls != "match":
        res.update(cls=cls, detail=detail, known=known_defect(call, cls, n, k, detail) if n is not None else None)
        try:
            res["repro"] = repro.call_source(call)
        except Exception as e:  # noqa: BLE001
            res["repro"] = f"# reproducer failed: {short(e)}"
    return res


def main():
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)                      # stray prints from the libraries go to stderr
    calls.Lib.get("scipy")
    calls.Lib.get("kumo")              # import both once, before the first call is timed
    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        run = run_numpy_only if req.get("numpy_only") else run_one
        res = run(req["seed"], req["i"], req.get("ops"))
        out.write(json.dumps(res) + "\n")


if __name__ == "__main__":
    main()
