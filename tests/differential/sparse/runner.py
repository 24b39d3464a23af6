"""Run a kumo.sparse vs scipy.sparse campaign: calls i = start .. start+calls-1
of `seed`, in worker processes (sparse/worker.py) through the NumPy
harness's runner (crash and hang isolation, retries, reports).

    python -m tests.differential.sparse.runner --calls 2000 --seed 1 --jobs 2 [--ops 'getitem,sum*']
        [--start I] [--time-limit S] [--timeout S] [--report FILE] [--show]

(from the repository root; `--seed S --start I --calls 1 --show` replays one call).
"""
import argparse
import os
import sys
import time

from .. import runner
from . import worker


def campaign(seed, calls, start=0, jobs=2, pattern=None, time_limit=None, timeout=20.0, progress=None, min_calls=0):
    return runner.campaign(seed, calls, start, jobs, pattern, time_limit, timeout, progress, impl=worker,
                           min_calls=min_calls)


def summary(records, seed, elapsed=None):
    text = runner.summary(records, seed, elapsed)
    return text.replace("differential campaign", "kumo.sparse vs scipy.sparse campaign", 1) \
               .replace("NumPy itself crashed", "SciPy itself crashed")


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
        runner.write_report(a.report, recs, a.seed, a.ops)
        print(f"findings: {a.report}")
    if a.show:
        for r in recs:
            if r["cls"] != "match":
                print(f"[{r['cls']}] {r['op']} call {r['i']}: {r.get('detail')}\n  known: {r.get('known')}\n  {r.get('repro')}")
    return 1 if runner.failures(recs) else 0


if __name__ == "__main__":
    sys.exit(main())
