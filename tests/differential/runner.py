"""Run a differential campaign: calls i = start .. start+calls-1 of `seed`,
each in a worker process (worker.py), `jobs` workers in parallel. A worker
that dies (SIGSEGV, abort, ...) or hangs past the per-call timeout is
recorded as a crash/hang of that call, with its reproducer, and restarted.

    python -m tests.differential.runner --calls 2000 --seed 1 --jobs 2 [--ops 'getitem,sum*']
        [--start I] [--time-limit S] [--timeout S] [--report FILE]

(from the repository root; `--seed S --start I --calls 1` replays one call).
"""
import argparse
import collections
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

from . import compare, repro, worker

TESTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKER = "import sys; sys.path.insert(0, %r); from %s import main; main()"


class Worker:
    def __init__(self, module="differential.worker"):
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER % (TESTS_DIR, module)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.err, cwd=TESTS_DIR, bufsize=0)
        self.buf = b""
        ready = self.read(120)
        if not isinstance(ready, dict) or "ready" not in ready:
            raise RuntimeError(f"worker did not start: {ready!r} {self.stderr_tail()}")

    def read(self, timeout):
        """The next JSON line, "eof" when the worker died, "timeout"."""
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return "eof"
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def send(self, req):
        try:
            self.proc.stdin.write((json.dumps(req) + "\n").encode())
            return True
        except (BrokenPipeError, OSError):
            return False

    def stderr_tail(self):
        self.err.seek(0)
        lines = [x for x in self.err.read().decode(errors="replace").splitlines() if x.strip()]
        return " | ".join(lines[-2:])[-300:]

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.err.close()


def _death(w, i, seed, pattern, cls, impl=worker):
    """The record of call i that crashed or hung its worker (`impl`: the
    worker module, with draw, call_source and known_defect)."""
    rc = w.proc.wait() if cls == "crash" else None
    sig = -rc if rc is not None and rc < 0 else None
    how = (f"signal {signal.Signals(sig).name}" if sig else f"exit status {rc}") if cls == "crash" else "timed out"
    tail = w.stderr_tail() if cls == "crash" else ""
    rec = {"i": i, "cls": cls, "op": "?", "detail": f"worker {how}" + (f": {tail}" if tail else ""), "known": None}
    try:
        call = impl.draw(seed, i, pattern)
        rec["op"] = call.row.name
        rec["repro"] = getattr(impl, "call_source", repro.call_source)(call)
        rec["known"] = impl.known_defect(call, cls, None, None)
    except Exception as e:  # noqa: BLE001
        rec["repro"] = f"# could not rebuild the call: {compare.short(e)}"
    return rec


def campaign(seed, calls, start=0, jobs=2, pattern=None, time_limit=None, timeout=20.0, progress=None, impl=None,
             min_calls=0):
    """Run the campaign; returns the list of per-call records (match records
    are {"i", "op", "cls"} only). `impl`: another worker module (draw,
    known_defect, call_source, WORKER_MODULE: its import name from tests/),
    e.g. the kumo.sparse harness's; default the NumPy one. `time_limit`
    stops the campaign only once `min_calls` calls have started, so a slow
    machine (a cold kernel cache, the sanitizers) runs longer instead of
    checking less."""
    impl = impl or worker
    module = getattr(impl, "WORKER_MODULE", "differential.worker")
    todo = iter(range(start, start + calls))
    lock = threading.Lock()
    records = []
    t_end = time.monotonic() + time_limit if time_limit else None
    started = [0]

    def next_index():
        with lock:
            if t_end and started[0] >= min_calls and time.monotonic() > t_end:
                return None
            i = next(todo, None)
            started[0] += i is not None
            return i

    def run():
        w = Worker(module)
        try:
            while True:
                i = next_index()
                if i is None:
                    return
                ok = w.send({"seed": seed, "i": i, "ops": pattern})
                res = w.read(timeout) if ok else "eof"
                if isinstance(res, dict):
                    rec = res
                else:
                    if res == "timeout":
                        w.proc.kill()
                    rec = _death(w, i, seed, pattern, "crash" if res == "eof" else "hang", impl)
                    w.kill()
                    w = Worker(module)
                    # Once more in a fresh worker: a crash that does not repeat
                    # came from an earlier call's damage or from the library
                    # being replaced under the worker (a rebuild); it is kept
                    # as "crash_once" with the call's own result.
                    again = w.read(timeout) if w.send({"seed": seed, "i": i, "ops": pattern}) else "eof"
                    if isinstance(again, dict):
                        again["first_try"] = rec["detail"]
                        if again["cls"] == "match":
                            again.update(cls="crash_once", detail=f"first try: {rec['detail']}; alone: match",
                                         repro=rec.get("repro"), known=None)
                        rec = again
                    else:
                        # It crashes again: NumPy runs in the same worker,
                        # and NumPy itself dies on some legal calls (2.4:
                        # a comparison with an out-of-range Python int under
                        # where=). Such a call tells nothing about kumo.
                        w.kill()
                        w = Worker(module)
                        alone = (w.read(timeout) if w.send({"seed": seed, "i": i, "ops": pattern, "numpy_only": True})
                                 else "eof")
                        if not isinstance(alone, dict):
                            rec.update(cls="reference_crash", known=None,
                                       detail=f"NumPy itself dies on this call ({rec['detail']})")
                            w.kill()
                            w = Worker(module)
                with lock:
                    records.append(rec)
                    if progress and len(records) % 1000 == 0:
                        progress(len(records))
        finally:
            w.kill()

    threads = [threading.Thread(target=run, daemon=True) for _ in range(max(1, jobs))]
    errors = []

    def guarded(t):
        try:
            t()
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    threads = [threading.Thread(target=guarded, args=(run,), daemon=True) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    records.sort(key=lambda r: r["i"])
    return records


LABELS = [("match", "matches"), ("crash", "crashes"), ("hang", "hangs"), ("wrong_value", "wrong values"),
          ("wrong_shape", "wrong shape"), ("wrong_dtype", "wrong dtype"), ("wrong_type", "wrong result type"),
          ("wrong_exception", "wrong exception type"), ("raised_not_numpy", "raised where NumPy returns"),
          ("returned_not_raised", "returned where NumPy raises"), ("wrong_mutation", "wrong inputs after the call"),
          ("wrong_warning", "wrong warnings"), ("layout", "layout not reproduced"),
          ("crash_once", "crashed once, not alone"), ("reference_crash", "NumPy itself crashed"),
          ("harness_error", "harness errors")]


def failures(records):
    """Mismatches not covered by a known defect (a crash that did not repeat
    in a fresh worker, or one of NumPy's own, is reported, not failed: see
    campaign)."""
    return [r for r in records if r["cls"] not in ("match", "crash_once", "reference_crash") and not r.get("known")]


def summary(records, seed, elapsed=None):
    lines = [f"differential campaign: seed {seed}, {len(records)} calls"
             + (f" in {elapsed:.1f} s" if elapsed is not None else "")]
    new = collections.Counter(r["cls"] for r in records if not r.get("known"))
    known = collections.Counter(r["cls"] for r in records if r.get("known"))
    for cls, label in LABELS:
        if new[cls] or known[cls] or cls in ("match", "crash", "hang"):
            lines.append(f"  {label:32s} {new[cls]:7d}" + (f"   (+{known[cls]} known defects)" if known[cls] else ""))
    by_op = collections.defaultdict(collections.Counter)
    for r in records:
        by_op[r["op"]]["calls"] += 1
        if r["cls"] != "match":
            by_op[r["op"]]["known" if r.get("known") else r["cls"]] += 1
    bad = sorted((op for op, c in by_op.items() if len(c) > 1), key=lambda op: -sum(by_op[op].values()))
    if bad:
        lines.append("  per op (calls, then mismatches by class):")
        for op in bad:
            c = by_op[op]
            rest = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k != "calls")
            lines.append(f"    {op:28s} {c['calls']:6d}  {rest}")
    kd = collections.Counter(r["known"] for r in records if r.get("known"))
    if kd:
        lines.append("  known defects hit:")
        for d, n in kd.most_common():
            lines.append(f"    {n:6d}  {d}")
    lines.append(f"  ops exercised: {len(by_op)}")
    return "\n".join(lines)


def write_report(path, records, seed, pattern):
    ops_arg = f" --ops '{pattern}'" if pattern else ""
    with open(path, "w") as f:
        for r in sorted((r for r in records if r["cls"] != "match"),
                        key=lambda r: (bool(r.get("known")), r["cls"], r["op"], r["i"])):
            f.write(f"# [{r['cls']}] {r['op']}  (--seed {seed} --start {r['i']} --calls 1{ops_arg})"
                    + (f"  known: {r['known']}" if r.get("known") else "") + "\n")
            f.write(f"# {r.get('detail', '')}\n{r.get('repro', '')}\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--calls", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--ops", default=None, help="fnmatch patterns of row names, comma-separated")
    p.add_argument("--time-limit", type=float, default=None, help="stop starting calls after this many seconds")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds one call may take")
    p.add_argument("--report", default=None, help="write every mismatch with its reproducer here")
    p.add_argument("--show", action="store_true", help="print each mismatch and its reproducer")
    a = p.parse_args(argv)
    t0 = time.monotonic()
    recs = campaign(a.seed, a.calls, a.start, a.jobs, a.ops, a.time_limit, a.timeout,
                    progress=lambda n: print(f"  ... {n} calls", file=sys.stderr, flush=True))
    print(summary(recs, a.seed, time.monotonic() - t0))
    if a.report:
        write_report(a.report, recs, a.seed, a.ops)
        print(f"findings: {a.report}")
    if a.show:
        for r in recs:
            if r["cls"] != "match":
                print(f"[{r['cls']}] {r['op']} call {r['i']}: {r.get('detail')}\n  known: {r.get('known')}\n  {r.get('repro')}")
    return 1 if failures(recs) else 0


if __name__ == "__main__":
    sys.exit(main())
