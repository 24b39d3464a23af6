"""Peak memory of operations on arrays past the 32-bit index boundary.

Each operation runs in its own child process, once with NumPy and once with
kumo, on an int8 array of N elements (default 2**31 + 7, just past the
32-bit boundary); the figure is the growth of the process's peak resident
memory over what it held once the input existed, in GiB, beside the size
of the result NumPy returns. The ratio column is kumo's growth over NumPy's.

    python benchmarks/bench_peak_memory.py [--n N] [--only NAME ...]

Needs about 3 x N bytes of free memory per run (the input, a result of the
input's size, and a margin); the operations keep their results small or
the size of the input so that a 24 GiB machine can run all of them.
"""
import argparse
import json
import os
import resource
import subprocess
import sys

# name -> statement over `a` (int8, N elements, ones but a few twos) and `xp`.
OPERATIONS = {
    "sum": "r = a.sum()",
    "sum(dtype=int8)": "r = a.sum(dtype=xp.int8)",
    "max": "r = a.max()",
    "argmax": "r = a.argmax()",
    "count_nonzero": "r = xp.count_nonzero(a)",
    "any(a == 2)": "r = (a == 2).any()",
    "a == 2": "r = a == 2",
    "a + a": "r = a + a",
    "a[::2].copy()": "r = a[::2].copy()",
    "a[::-1] + 0": "r = a[::-1] + 0",
    "sum(axis=0) of (2**16, -1)": "r = a[:(a.size // 65536) * 65536].reshape(65536, -1).sum(axis=0)",
    "sum(axis=1) of (2**16, -1)": "r = a[:(a.size // 65536) * 65536].reshape(65536, -1).sum(axis=1)",
    "nonzero(a == 2)": "r = xp.nonzero(a == 2)",
    "flatnonzero(a - 1)": "r = xp.flatnonzero(a - 1)",
    "a[a == 2]": "r = a[a == 2]",
    "a[a == 2] = 3": "a[a == 2] = 3; r = a",
    "a[[0, -1]]": "r = a[xp.asarray([0, a.size - 1])]",
    "where(a == 2, a, 0)": "r = xp.where(a == 2, a, 0)",
    "sort": "a.sort(); r = a",
    "copy": "r = a.copy()",
    "concatenate((a, a[:8]))": "r = xp.concatenate((a, a[:8]))",
    "cumsum(dtype=int8)": "r = a.cumsum(dtype=xp.int8)",
    "mean": "r = a.mean()",
    "unique": "r = xp.unique(a)",
}

CHILD = r"""
import json, resource, sys
import importlib
xp = importlib.import_module(sys.argv[1])
n = int(sys.argv[2])
a = xp.ones(n, dtype=xp.int8)
a[n // 3] = 2
a[n - 5] = 2
import numpy
float(numpy.asarray(a[:1].tolist()).sum())  # touch the library's lazy state
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
stmt = sys.argv[3]
scope = {"a": a, "xp": xp}
exec(stmt, scope)
r = scope["r"]
size = sum(getattr(x, "nbytes", 0) for x in (r if isinstance(r, tuple) else (r,)))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"base_kib": base, "peak_kib": peak, "result_bytes": size}))
"""


def measure(module, n, stmt):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", CHILD, module, str(n), stmt], capture_output=True, text=True,
                          env=env)
    if proc.returncode != 0:
        return None, proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "exit %d" % proc.returncode
    return json.loads(proc.stdout.strip().splitlines()[-1]), None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2**31 + 7)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    gib = float(1 << 30)
    print("N = %d int8 elements (%.2f GiB); growth of peak RSS over the input, GiB" % (args.n, args.n / gib))
    print("%-28s %10s %10s %10s %8s" % ("operation", "result", "numpy", "kumo", "ratio"))
    for name, stmt in OPERATIONS.items():
        if args.only and name not in args.only:
            continue
        row = []
        for module in ("numpy", "kumo"):
            res, err = measure(module, args.n, stmt)
            row.append((res, err))
        (np_res, np_err), (k_res, k_err) = row
        if np_err or k_err:
            print("%-28s numpy: %s | kumo: %s" % (name, np_err or "ok", k_err or "ok"))
            continue
        np_growth = (np_res["peak_kib"] - np_res["base_kib"]) * 1024 / gib
        k_growth = (k_res["peak_kib"] - k_res["base_kib"]) * 1024 / gib
        ratio = k_growth / np_growth if np_growth > 0.01 else float("nan")
        print("%-28s %10.2f %10.2f %10.2f %8.2f" % (name, np_res["result_bytes"] / gib, np_growth, k_growth, ratio),
              flush=True)


if __name__ == "__main__":
    main()
