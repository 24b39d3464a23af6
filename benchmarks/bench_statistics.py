"""kumo's histogram, median, percentile and bincount versus NumPy's, side by
side in one run.

    python benchmarks/bench_statistics.py [--repeat N] [--n N]

For each case: the best of N alternating runs of each library after a
warm-up call, and the ratio kumo / numpy (below 1: kumo is faster; the
target is <= 1.0)."""
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
    x = rng.standard_normal(n)
    kx = kumo.asarray(x)
    ratios = [
        case("histogram float64, 100 bins", lambda: numpy.histogram(x, 100), lambda: kumo.histogram(kx, 100), r),
        case("histogram float64, 100 bins, range=(-2, 2)", lambda: numpy.histogram(x, 100, range=(-2, 2)),
             lambda: kumo.histogram(kx, 100, range=(-2, 2)), r),
        case("histogram float64, 10 given edges", lambda: numpy.histogram(x, numpy.linspace(-3, 3, 11)),
             lambda: kumo.histogram(kx, kumo.linspace(-3, 3, 11)), r),
        case("median float64", lambda: numpy.median(x), lambda: kumo.median(kx), r),
        case("percentile float64 q=[25, 50, 75]", lambda: numpy.percentile(x, [25, 50, 75]),
             lambda: kumo.percentile(kx, [25, 50, 75]), r),
        case("median float64 (1000, 10^4) axis=1",
             lambda: numpy.median(x.reshape(1000, -1), axis=1), lambda: kumo.median(kx.reshape(1000, -1), axis=1), r),
    ]
    i = rng.integers(0, 1000, n)
    ki = kumo.asarray(i)
    w = rng.random(n)
    kw = kumo.asarray(w)
    ratios.append(case("bincount int64 (1000 values)", lambda: numpy.bincount(i), lambda: kumo.bincount(ki), r))
    ratios.append(case("bincount int64 (1000 values), float64 weights", lambda: numpy.bincount(i, w),
                       lambda: kumo.bincount(ki, kw), r))
    g = numpy.exp(numpy.mean(numpy.log(ratios)))
    print("geometric mean %.2f, worst %.2f" % (g, max(ratios)))


if __name__ == "__main__":
    main()
