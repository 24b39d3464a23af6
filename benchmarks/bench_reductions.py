"""Reductions: Kumo (CPU backend) versus NumPy, side by side in one run.

    python benchmarks/bench_reductions.py [--quick]

For each routine, whole-array and along each axis of a 2-D float64 array
(10^6 and 10^7 elements), prints the best of several runs and the ratio
kumo_time / numpy_time (< 1: Kumo is faster). Kernels are warmed up first.
"""
import sys
import time

import numpy

import kumo


def best_time(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def case(rows, name, np_fn, k_fn, repeat):
    k_fn()  # compile / warm up
    np_fn()
    tn = best_time(np_fn, repeat)
    tk = best_time(k_fn, repeat)
    print("%-34s numpy %9.1f us   kumo %9.1f us   kumo/numpy %5.2f" % (name, tn * 1e6, tk * 1e6, tk / tn), flush=True)
    rows.append((name, tn, tk))


def main():
    quick = "--quick" in sys.argv
    shapes = [(1000, 1000)] if quick else [(1000, 1000), (4000, 2500)]
    rng = numpy.random.default_rng(0)
    rows = []
    for shape in shapes:
        h = rng.standard_normal(shape)
        k = kumo.asarray(h)
        n = "%dx%d" % shape
        repeat = 7 if h.size <= 10**6 else 5
        for fname in ("sum", "mean", "std", "var", "min", "max", "argmin", "argmax"):
            nf, kf = getattr(numpy, fname), getattr(kumo, fname)
            for axis in (None, 0, 1):
                case(rows, "%s(%s, axis=%s)" % (fname, n, axis),
                     lambda nf=nf, axis=axis: nf(h, axis=axis), lambda kf=kf, axis=axis: kf(k, axis=axis), repeat)
        flat_h, flat_k = h.ravel(), k.ravel()
        case(rows, "cumsum(%d)" % h.size, lambda: numpy.cumsum(flat_h), lambda: kumo.cumsum(flat_k), repeat)
        for axis in (0, 1):
            case(rows, "cumsum(%s, axis=%d)" % (n, axis), lambda axis=axis: numpy.cumsum(h, axis=axis),
                 lambda axis=axis: kumo.cumsum(k, axis=axis), repeat)
    ratios = [tk / tn for _, tn, tk in rows]
    geo = float(numpy.exp(numpy.mean(numpy.log(ratios))))
    print("geometric mean kumo/numpy: %.2f   worst: %.2f (%s)" %
          (geo, max(ratios), rows[int(numpy.argmax(ratios))][0]))


if __name__ == "__main__":
    main()
