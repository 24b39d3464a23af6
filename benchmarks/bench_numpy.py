"""Kumo (CPU backend) versus NumPy, side by side in one run.

    python benchmarks/bench_numpy.py [--quick]

Prints, for each case, the best time of several runs for NumPy and Kumo and
the ratio numpy_time / kumo_time (> 1: Kumo is faster). Kernels are warmed up
before timing; first-use compile latency is measured separately in a fresh
process with an empty kernel cache.
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy

import kumo


def best_time(fn, repeat, number=1):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def case(name, np_fn, k_fn, repeat=7, number=1):
    k_fn()  # compile / warm up
    np_fn()
    tn = best_time(np_fn, repeat, number)
    tk = best_time(k_fn, repeat, number)
    print("%-44s numpy %10.3f us   kumo %10.3f us   ratio %5.2f" % (name, tn * 1e6, tk * 1e6, tn / tk))
    return name, tn, tk


def first_use_latency():
    code = ("import time, kumo; a = kumo.ones(8, dtype=kumo.float32); t = time.perf_counter(); "
            "kumo.ElementwiseKernel('T x', 'T y', 'y = x * 3 + 1', 'bench_first')(a); "
            "print(time.perf_counter() - t)")
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, KUMO_CACHE_DIR=d)
        env.pop("KUMO_VERIFY_CUDA", None)
        cold = float(subprocess.check_output([sys.executable, "-c", code], env=env))
        disk = float(subprocess.check_output([sys.executable, "-c", code], env=env))
    a = kumo.ones(8, dtype=kumo.float32)
    k = kumo.ElementwiseKernel("T x", "T y", "y = x * 3 + 1", "bench_first_mem")
    k(a)
    mem = best_time(lambda: k(a), repeat=5, number=1000)
    print("%-44s compile %.3f s   disk-cached %.4f s   memory-cached call %.1f us" %
          ("first use of a new kernel", cold, disk, mem * 1e6))


def main():
    quick = "--quick" in sys.argv
    n = 10**6 if quick else 10**7
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal(n).astype(numpy.float32)
    y = rng.standard_normal(n).astype(numpy.float32)
    kx, ky = kumo.asarray(x), kumo.asarray(y)
    m2 = rng.standard_normal((1000, n // 1000)).astype(numpy.float32)
    km2 = kumo.asarray(m2)
    t2 = rng.standard_normal((2000, 2000)).astype(numpy.float32)
    u2 = rng.standard_normal((2000, 2000)).astype(numpy.float32)
    kt2, ku2 = kumo.asarray(t2), kumo.asarray(u2)
    s10, ks10 = numpy.arange(10, dtype=numpy.float32), kumo.arange(10, dtype=kumo.float32)

    print("kumo %s on %s, %d host threads; numpy %s" % (kumo.__version__, kumo.get_device(),
                                                       kumo._core.host_num_threads(), numpy.__version__))
    case("add float32 (%d)" % n, lambda: x + y, lambda: kx + ky)
    case("exp float32 (%d)" % n, lambda: numpy.exp(x), lambda: kumo.exp(kx))
    case("sum float32 (%d)" % n, lambda: x.sum(), lambda: kx.sum())
    case("sum axis=1 float32 %s" % (m2.shape,), lambda: m2.sum(axis=1), lambda: km2.sum(axis=1))
    case("sum axis=0 float32 %s" % (m2.shape,), lambda: m2.sum(axis=0), lambda: km2.sum(axis=0))
    case("transposed add float32 (2000, 2000)", lambda: t2.T + u2.T, lambda: kt2.T + ku2.T)
    case("add float32 (10) per call", lambda: s10 + s10, lambda: ks10 + ks10, repeat=5, number=20000)
    first_use_latency()


if __name__ == "__main__":
    main()
