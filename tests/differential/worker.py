"""The child process that runs calls: reads JSON lines {"seed", "i", "ops"}
from stdin, writes one JSON line per call to its private result pipe.

A call is drawn from (seed, i) alone (`draw`), so the parent can rebuild the
reproducer of a call that killed its worker.
"""
import json
import os
import sys

import numpy

from . import calls, compare, layouts, ops, repro


def draw(seed, i, pattern=None):
    """The call number i of the campaign `seed` (deterministic)."""
    rows = ops.select(pattern)
    rng = numpy.random.default_rng([seed, i])
    w = numpy.array([r.weight for r in rows])
    row = rows[int(rng.choice(len(rows), p=w / w.sum()))]
    return calls.generate(row, rng)


def _specs(call):
    out = []
    repro._collect(call.args, out)
    repro._collect(call.kwargs, out)
    return out


class Info:
    """What a known-defect predicate sees."""
    def __init__(self, call, cls, n, k):
        self.call, self.cls, self.n, self.k = call, cls, n, k
        self.dtypes = [str(s.dtype) for s in _specs(call)]


def known_defect(call, cls, n, k):
    info = Info(call, cls, n, k)
    for desc, pred in list(call.row.known) + ops.GLOBAL_KNOWN:
        try:
            if pred(info):
                return desc
        except Exception:  # noqa: BLE001 - a predicate that cannot decide does not apply
            pass
    return None


def run_numpy_only(seed, i, pattern=None):
    """Call i on NumPy alone: tells whether NumPy itself dies on it."""
    call = draw(seed, i, pattern)
    try:
        with numpy.errstate(all="ignore"):
            calls.execute(call, numpy)
    except Exception:  # noqa: BLE001 - an exception is not a crash
        pass
    return {"i": i, "op": call.row.name, "cls": "match"}


def run_one(seed, i, pattern=None):
    import kumo
    try:
        call = draw(seed, i, pattern)
    except Exception as e:  # noqa: BLE001
        return {"i": i, "op": "?", "cls": "harness_error", "detail": f"generation: {compare.short(e)}"}
    row = call.row
    res = {"i": i, "op": row.name, "cls": "match"}
    try:
        with numpy.errstate(all="warn"):
            n = calls.execute(call, numpy)
        inputs = [s.numpy() for s in _specs(call)]
        for s in _specs(call):
            bad = layouts.check_strides(s.numpy(), s.build(kumo)[1])
            if bad:
                cls, detail = "layout", bad
                break
        else:
            with kumo.errstate(all="warn"):   # as NumPy's above: underflow warns too
                k = calls.execute(call, kumo)
            operands = []
            repro._collect(call.args, operands)
            cls, detail = compare.judge(call, n, k, inputs, [s.numpy() for s in operands])
    except Exception as e:  # noqa: BLE001 - the harness itself failed on this call
        cls, detail = "harness_error", compare.short(e)
        n = k = None
    if cls != "match":
        res.update(cls=cls, detail=detail, known=known_defect(call, cls, n, k) if n is not None else None)
        try:
            res["repro"] = repro.call_source(call)
        except Exception as e:  # noqa: BLE001
            res["repro"] = f"# reproducer failed: {compare.short(e)}"
    return res


def main():
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)                      # stray prints from the libraries go to stderr
    import kumo  # noqa: F401 - import once, before the first call is timed
    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        run = run_numpy_only if req.get("numpy_only") else run_one
        res = run(req["seed"], req["i"], req.get("ops"))
        out.write(json.dumps(res) + "\n")


if __name__ == "__main__":
    main()
