"""A broad benchmark: everyday NumPy operations, Kumo (CPU backend) and NumPy
side by side in one run.

    python benchmarks/bench_broad.py [--quick]

For each case it prints the best time of several runs of each library and the
ratio kumo_time / numpy_time (< 1: Kumo is faster), then the geometric mean
of the ratios, the machine's copy bandwidth with every core (NumPy copies in
one thread per core, which release the GIL), the bandwidth large elementwise
operations reach, and the per-call time of small operations.
"""
import math
import os
import sys
import threading
import time

import numpy

import kumo

QUICK = "--quick" in sys.argv


def best_time(fn, repeat, number=1):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def best_times(np_fn, k_fn, repeat, number=1):
    """Best time of each, the runs of the two interleaved: on a shared
    (virtual) machine the speed drifts over seconds, and interleaving lets
    both libraries see the same conditions."""
    tn = tk = float("inf")
    for _ in range(repeat):
        tn = min(tn, best_time(np_fn, 1, number))
        tk = min(tk, best_time(k_fn, 1, number))
    return tn, tk


RESULTS = []


def case(name, np_fn, k_fn, repeat=5, number=1):
    k_fn()  # compile / warm up
    np_fn()
    tn, tk = best_times(np_fn, k_fn, repeat, number)
    RESULTS.append((name, tn, tk))
    print("%-40s numpy %10.1f us  kumo %10.1f us  kumo/numpy %5.2f" % (name, tn * 1e6, tk * 1e6, tk / tn),
          flush=True)


def copy_bandwidth(n_bytes):
    """GB/s of a plain copy (read + write) with one thread per core."""
    cores = os.cpu_count() or 1
    src = numpy.ones(n_bytes // 8)
    dst = numpy.empty_like(src)
    parts = numpy.array_split(numpy.arange(src.size), cores)
    bounds = [(p[0], p[-1] + 1) for p in parts]

    def run():
        threads = [threading.Thread(target=numpy.copyto, args=(dst[b:e], src[b:e])) for b, e in bounds]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    t = best_time(run, 7)
    return 2 * src.nbytes / t / 1e9


def main():
    rng = numpy.random.default_rng(0)
    sizes = [10**6] if QUICK else [10**6, 10**7]
    for n in sizes:
        tag = "1e%d" % round(math.log10(n))
        arrays = {}
        for dt in ("float32", "float64", "int64"):
            if dt == "int64":
                x, y = rng.integers(1, 100, n), rng.integers(1, 100, n)
            else:
                x, y = rng.random(n).astype(dt), rng.random(n).astype(dt)
            arrays[dt] = (x, y, kumo.asarray(x), kumo.asarray(y))
        for dt, (x, y, kx, ky) in arrays.items():
            s = "%s %s" % (tag, dt)
            case("a + b " + s, lambda: x + y, lambda: kx + ky)
            case("a * b " + s, lambda: x * y, lambda: kx * ky)
            if dt == "int64":
                case("a + 1 " + s, lambda: x + 1, lambda: kx + 1)
                case("a * 3 " + s, lambda: x * 3, lambda: kx * 3)
                case("a > 50 " + s, lambda: x > 50, lambda: kx > 50)
                case("a.astype(float64) " + s, lambda: x.astype(numpy.float64), lambda: kx.astype(numpy.float64))
            else:
                case("a * 2.0 " + s, lambda: x * 2.0, lambda: kx * 2.0)
                case("a + 1.0 " + s, lambda: x + 1.0, lambda: kx + 1.0)
                case("a / b " + s, lambda: x / y, lambda: kx / ky)
                case("a > 0.5 " + s, lambda: x > 0.5, lambda: kx > 0.5)
                case("where(a > 0.5, a, b) " + s, lambda: numpy.where(x > 0.5, x, y),
                     lambda: kumo.where(kx > 0.5, kx, ky))
                other = "float32" if dt == "float64" else "float64"
                case("a.astype(%s) %s" % (other, s), lambda: x.astype(other), lambda: kx.astype(other))
                case("sqrt " + s, lambda: numpy.sqrt(x), lambda: kumo.sqrt(kx))
                case("exp " + s, lambda: numpy.exp(x), lambda: kumo.exp(kx))
                case("log " + s, lambda: numpy.log(x), lambda: kumo.log(kx))
        x, _, kx, _ = arrays["float64"]
        for fname in ("sum", "mean", "std", "var", "min", "max", "argmin", "argmax"):
            case("%s %s float64" % (fname, tag), lambda: getattr(numpy, fname)(x), lambda: getattr(kumo, fname)(kx))
        side = int(math.isqrt(n))
        m = x[: side * side].reshape(side, side)
        km = kx[: side * side].reshape(side, side)
        for fname in ("sum", "mean", "std", "min", "max", "argmax"):
            for axis in (0, 1):
                case("%s(axis=%d) %dx%d float64" % (fname, axis, side, side),
                     lambda: getattr(numpy, fname)(m, axis=axis), lambda: getattr(kumo, fname)(km, axis=axis))
        case("cumsum %s float64" % tag, lambda: numpy.cumsum(x), lambda: kumo.cumsum(kx))
        case("transposed copy %dx%d float64" % (side, side), lambda: m.T.copy(), lambda: km.T.copy())
        case("concatenate %s float64" % tag, lambda: numpy.concatenate([x, x]), lambda: kumo.concatenate([kx, kx]))
        xf, _, kxf, _ = arrays["float32"]
        case("sum %s float32" % tag, lambda: numpy.sum(xf), lambda: kumo.sum(kxf))
        case("max %s float32" % tag, lambda: numpy.max(xf), lambda: kumo.max(kxf))
    a = rng.random((64, 64))
    ka = kumo.asarray(a)
    case("small matmul 64x64 float64", lambda: a @ a, lambda: ka @ ka, repeat=7, number=20)

    ratios = [tk / tn for _, tn, tk in RESULTS]
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    worst = max(RESULTS, key=lambda r: r[2] / r[1])
    print("\n%d operations; geometric mean of kumo/numpy %.2f; slowest %s at %.2f" %
          (len(RESULTS), geo, worst[0], worst[2] / worst[1]))

    # Bandwidth: a large contiguous elementwise op against a plain copy.
    n = 10**7 if QUICK else 4 * 10**7
    bw = copy_bandwidth(n * 8)
    x = kumo.asarray(numpy.random.default_rng(1).random(n))
    y = x + 1.0
    t_add = best_time(lambda: kumo.add(x, y, out=y), 7)
    t_scale = best_time(lambda: kumo.multiply(x, 2.0, out=y), 7)
    print("copy bandwidth (%d threads): %.1f GB/s" % (os.cpu_count(), bw))
    print("kumo a + b into out (3 streams): %.1f GB/s = %.0f%% of copy" % (3 * n * 8 / t_add / 1e9,
                                                                            300 * n * 8 / t_add / 1e9 / bw))
    print("kumo a * 2.0 into out (2 streams): %.1f GB/s = %.0f%% of copy" % (2 * n * 8 / t_scale / 1e9,
                                                                              200 * n * 8 / t_scale / 1e9 / bw))

    # Per-call time of small operations (Python -> C++ -> launch).
    a, b = numpy.arange(10.0), numpy.arange(10.0)
    ka, kb = kumo.asarray(a), kumo.asarray(b)
    print()
    for name, fn, kfn in [("add 10 elements", lambda: numpy.add(a, b), lambda: kumo.add(ka, kb)),
                          ("a + b 10 elements", lambda: a + b, lambda: ka + kb),
                          ("a * 2.0 10 elements", lambda: a * 2.0, lambda: ka * 2.0),
                          ("sum 10 elements", lambda: a.sum(), lambda: ka.sum()),
                          ("a[1:5]", lambda: a[1:5], lambda: ka[1:5])]:
        kfn()
        tn, tk = best_times(fn, kfn, 40, 2000)
        print("%-40s numpy %8.0f ns  kumo %8.0f ns  kumo/numpy %5.2f" % (name, tn * 1e9, tk * 1e9, tk / tn))


if __name__ == "__main__":
    main()
