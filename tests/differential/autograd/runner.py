"""Run an autograd campaign: calls i = start .. start+calls-1 of `seed`, in
worker processes (../runner.py: crash isolation, one retry in a fresh
worker, seeding by (seed, i)).

    python -m tests.differential.autograd.runner --calls 2000 --seed 1 --jobs 2 [--ops 'conv*,get_item*']
        [--start I] [--time-limit S] [--timeout S] [--report FILE] [--show]

(from the repository root; `--seed S --start I --calls 1 --show` replays one call).
"""
import argparse
import collections
import os
import sys
import time

from .. import runner
from . import check, worker

LABELS = [("match", "matches"), ("crash", "crashes"), ("hang", "hangs")] + [(c, c.replace("_", " ")) for c in
                                                                            check.CLASSES] + [
    ("crash_once", "crashed once, not alone"), ("harness_error", "harness errors")]


def campaign(seed, calls, start=0, jobs=2, pattern=None, time_limit=None, timeout=20.0, progress=None, min_calls=0):
    return runner.campaign(seed, calls, start, jobs, pattern, time_limit, timeout, progress, impl=worker,
                           min_calls=min_calls)


failures = runner.failures


def summary(records, seed, elapsed=None):
    lines = [f"autograd campaign: seed {seed}, {len(records)} calls"
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
        lines.append("  per row (calls, then mismatches by class):")
        for op in bad:
            c = by_op[op]
            rest = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k != "calls")
            lines.append(f"    {op:34s} {c['calls']:6d}  {rest}")
    kd = collections.Counter(r["known"] for r in records if r.get("known"))
    if kd:
        lines.append("  known defects hit:")
        for d, n in kd.most_common():
            lines.append(f"    {n:6d}  {d}")
    lines.append(f"  rows exercised: {len(by_op)}")
    return "\n".join(lines)


def write_report(path, records, seed, pattern):
    ops_arg = f" --ops '{pattern}'" if pattern else ""
    with open(path, "w") as f:
        for r in sorted((r for r in records if r["cls"] != "match"),
                        key=lambda r: (bool(r.get("known")), r["cls"], r["op"], r["i"])):
            f.write(f"# [{r['cls']}] {r['op']}  (python -m tests.differential.autograd.runner --seed {seed} "
                    f"--start {r['i']} --calls 1{ops_arg} --show)"
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
                print(f"[{r['cls']}] {r['op']} call {r['i']}: {r.get('detail')}\n  known: {r.get('known')}\n"
                      f"  {r.get('repro')}")
    return 1 if failures(recs) else 0


if __name__ == "__main__":
    sys.exit(main())
