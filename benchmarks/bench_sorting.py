"""kumo's sort, argsort, unique and searchsorted versus NumPy's, side by side
in one run.

    python benchmarks/bench_sorting.py [--repeat N] [--n N]

NumPy sorts with its vectorized (x86-simd-sort / Highway) quicksorts; kumo
with a least-significant-digit radix sort on order-preserving integer keys
split over its host threads. For each case: the best of N alternating runs
of each library after a warm-up call, and the ratio kumo / numpy (below 1:
kumo is faster; the target is <= 1.0)."""
import argparse
import time

import numpy

import kumo


def case(label, numpy_fn, kumo_fn, repeat):
    numpy_fn()
    kumo_fn()
    tn = tk = float("inf")
    for _ in range(repeat):  # alternate, so both see the same machine load
        t0 = time.perf_counter()
        numpy_fn()
        tn = min(tn, time.perf_counter() - t0)
        t0 = time.perf_counter()
        kumo_fn()
        tk = min(tk, time.perf_counter() - t0)
    print("%-44s numpy %9.2f ms   kumo %9.2f ms   kumo/numpy %5.2f" % (label, tn * 1e3, tk * 1e3, tk / tn),
          flush=True)
    return tk / tn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--n", type=int, default=10**7)
    args = parser.parse_args()
    n, r = args.n, args.repeat
    rng = numpy.random.default_rng(0)
    print("kumo %s on cpu, %d host threads; numpy %s; n = %d"
          % (kumo.__version__, kumo._core.host_num_threads(), numpy.__version__, n))

    inputs = {
        "float32 normal": rng.standard_normal(n).astype(numpy.float32),
        "float64 normal": rng.standard_normal(n),
        "int64 full range": rng.integers(numpy.iinfo(numpy.int64).min, numpy.iinfo(numpy.int64).max, n),
    }
    for label, x in inputs.items():
        kx = kumo.asarray(x)
        case("sort %s" % label, lambda: numpy.sort(x), lambda: kumo.sort(kx), r)
        case("argsort %s" % label, lambda: numpy.argsort(x), lambda: kumo.argsort(kx), r)

    for distinct in (10**3, 10**6):
        x = rng.integers(0, distinct, n)
        kx = kumo.asarray(x)
        case("unique int64, %d distinct" % distinct, lambda: numpy.unique(x), lambda: kumo.unique(kx), r)

    haystack = numpy.sort(rng.standard_normal(n))
    needles = rng.standard_normal(10**6)
    kh, kn = kumo.asarray(haystack), kumo.asarray(needles)
    case("searchsorted 10^6 float64 keys in n", lambda: numpy.searchsorted(haystack, needles),
         lambda: kumo.searchsorted(kh, kn), r)


if __name__ == "__main__":
    main()
