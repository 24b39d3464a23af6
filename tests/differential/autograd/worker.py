"""The autograd harness's worker process (the protocol of ../worker.py):
JSON lines {"seed", "i", "ops"} in, one JSON result line per call out.
Call i of a seed depends on (seed, i) alone (check.draw), so the parent can
rebuild the reproducer of a call that killed its worker.
"""
import json
import os
import sys

from . import check

WORKER_MODULE = "differential.autograd.worker"
draw = check.draw
call_source = check.call_source


class Info:
    """What a known-defect predicate sees."""
    def __init__(self, call, cls, detail):
        self.call, self.cls, self.detail = call, cls, detail or ""
        self.dtype, self.kw, self.name = call.dtype, call.kw, call.row.name


def known_defect(call, cls, detail, _unused=None):
    from . import table
    info = Info(call, cls, detail)
    for desc, pred in list(call.row.known) + table.GLOBAL_KNOWN:
        try:
            if pred(info):
                return desc
        except Exception:  # noqa: BLE001 - a predicate that cannot decide does not apply
            pass
    return None


def run_one(seed, i, pattern=None):
    try:
        call = draw(seed, i, pattern)
    except Exception as e:  # noqa: BLE001
        return {"i": i, "op": "?", "cls": "harness_error", "detail": f"generation: {check.describe_exception(e)}"}
    res = {"i": i, "op": call.row.name, "cls": "match"}
    try:
        cls, detail = check.run(call)
    except Exception as e:  # noqa: BLE001 - the harness itself failed on this call
        cls, detail = "harness_error", check.describe_exception(e)
    if cls != "match":
        res.update(cls=cls, detail=detail, known=known_defect(call, cls, detail))
        try:
            res["repro"] = call_source(call)
        except Exception as e:  # noqa: BLE001
            res["repro"] = f"# reproducer failed: {check.describe_exception(e)}"
    return res


def main():
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)                      # stray prints from the libraries go to stderr
    import kumo.autograd  # noqa: F401 - import once, before the first call is timed
    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("numpy_only"):       # the parent asks whether the reference alone dies: it never does here
            res = {"i": req["i"], "op": "?", "cls": "match"}
        else:
            res = run_one(req["seed"], req["i"], req.get("ops"))
        out.write(json.dumps(res) + "\n")


if __name__ == "__main__":
    main()
