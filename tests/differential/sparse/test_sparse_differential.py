"""pytest entry of the kumo.sparse vs scipy.sparse campaign (docs/differential.md).

As the NumPy one: a fixed seed (strict: any mismatch no known defect or
documented SciPy divergence covers fails) and a fresh seed (printed; fails
on crashes and hangs only, unless KUMO_DIFF_STRICT=1). Calls per seed:
KUMO_SPARSE_DIFF_CALLS (default 8000), never more than KUMO_DIFF_CALLS when
that is set (the AddressSanitizer stage sets it to 10000; a smaller value
scales this entry down with the NumPy one); time limit per seed
KUMO_SPARSE_DIFF_TIME_LIMIT (default 15 s), jobs KUMO_DIFF_JOBS.
"""
import os
import random
import tempfile
import time

from .. import runner as base_runner
from . import runner

FIXED_SEED = 20240612
CALLS = int(os.environ.get("KUMO_SPARSE_DIFF_CALLS", "8000"))
if os.environ.get("KUMO_DIFF_CALLS"):
    CALLS = min(CALLS, int(os.environ["KUMO_DIFF_CALLS"]))
# The time limit ends a campaign only after MIN_CALLS calls (runner.campaign).
MIN_CALLS = 300
TIME_LIMIT = float(os.environ.get("KUMO_SPARSE_DIFF_TIME_LIMIT", "15"))
JOBS = int(os.environ.get("KUMO_DIFF_JOBS", str(min(2, os.cpu_count() or 1))))


def _campaign(seed, strict=True):
    t0 = time.monotonic()
    recs = runner.campaign(seed, CALLS, jobs=JOBS, time_limit=TIME_LIMIT, min_calls=MIN_CALLS)
    print(runner.summary(recs, seed, time.monotonic() - t0))
    bad = base_runner.failures(recs)
    path = os.path.join(tempfile.gettempdir(), f"kumo-sparse-differential-{seed}.txt")
    if bad:
        base_runner.write_report(path, recs, seed, None)
    lines = [f"[{r['cls']}] {r['op']} (python -m tests.differential.sparse.runner --seed {seed} --start {r['i']} "
             f"--calls 1 --show): {r.get('detail')}\n    {r.get('repro')}" for r in bad[:15]]
    if bad and not strict and not any(r["cls"] in ("crash", "hang") for r in bad):
        print(f"{len(bad)} new mismatches of seed {seed} (not failing: fresh seed), in {path}:\n" + "\n".join(lines))
        bad = []
    if bad:
        raise AssertionError(f"{len(bad)} calls of seed {seed} differ from scipy.sparse (all in {path}):\n"
                             + "\n".join(lines))
    assert len(recs) >= min(CALLS, MIN_CALLS), f"only {len(recs)} of {min(CALLS, MIN_CALLS)} calls ran"


def test_sparse_fixed_seed():
    _campaign(FIXED_SEED)


def test_sparse_fresh_seed():
    seed = int(os.environ.get("KUMO_DIFF_SEED", random.SystemRandom().randrange(1 << 31)))
    print(f"fresh seed {seed} (KUMO_DIFF_SEED={seed} reruns it)")
    _campaign(seed, strict=os.environ.get("KUMO_DIFF_STRICT") == "1")
