"""kumo's sort, argsort, unique and searchsorted versus NumPy's, side by side
in one run.

    python benchmarks/bench_sorting.py [--repeat N] [--n N]

NumPy sorts with its vectorized (x86-simd-sort / Highway) quicksorts; kumo
with a least-significant-digit radix sort on order-preserving integer keys
split over its host threads. For each case: the best of N alternating runs
of each library after a warm-up call, and the ratio kumo / numpy (below 1:
kumo is faster; the target is <= 1.0)."""
import argparse

import numpy

import kumo
from _sidebyside import case


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
