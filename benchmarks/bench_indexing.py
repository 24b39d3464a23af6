"""Advanced indexing: kumo versus NumPy on the host, side by side in one run.

    python benchmarks/bench_indexing.py [--repeat N]

Arrays of 10^7 elements. For each case: the best time of N alternating runs
of each library (after a warm-up call) and the ratio kumo / numpy (below 1:
kumo is faster; the target is <= 1.0)."""
import argparse

import numpy

import kumo
from _sidebyside import case


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    rng = numpy.random.default_rng(0)
    print("kumo %s on cpu, %d host threads; numpy %s"
          % (kumo.__version__, kumo._core.host_num_threads(), numpy.__version__))
    n = 10 ** 7
    ratios = []
    for dtype in (numpy.float32, numpy.float64):
        x = rng.standard_normal(n).astype(dtype)
        kx = kumo.asarray(x)
        m = x > 0.5
        km = kumo.asarray(m)
        name = numpy.dtype(dtype).name
        ratios.append(case("a[mask] %s (31%% true)" % name, lambda: x[m], lambda: kx[km], args.repeat))
        xs, kxs = x.copy(), kx.copy()

        def nset():
            xs[m] = 0

        def kset():
            kxs[km] = 0
        ratios.append(case("a[mask] = 0 %s" % name, nset, kset, args.repeat))
        idx = rng.integers(0, n, n)
        kidx = kumo.asarray(idx)
        ratios.append(case("a[int64 indices] %s (random)" % name, lambda: x[idx], lambda: kx[kidx], args.repeat))
        ratios.append(case("take(a, indices) %s (random)" % name, lambda: numpy.take(x, idx),
                           lambda: kumo.take(kx, kidx), args.repeat))
        sidx = numpy.sort(idx)
        ksidx = kumo.asarray(sidx)
        ratios.append(case("take(a, indices) %s (sorted)" % name, lambda: numpy.take(x, sidx),
                           lambda: kumo.take(kx, ksidx), args.repeat))
    ratios.append(case("nonzero(mask) (31% true)", lambda: numpy.nonzero(m), lambda: kumo.nonzero(km), args.repeat))
    g = numpy.zeros(1000)
    kg = kumo.zeros(1000)
    small = rng.integers(0, 1000, n)
    ksmall = kumo.asarray(small)
    ratios.append(case("add.at(g[1000], 10^7 indices, 1.0)", lambda: numpy.add.at(g, small, 1.0),
                       lambda: kumo.add.at(kg, ksmall, 1.0), max(2, args.repeat // 3)))
    print("geometric mean %.2f, worst %.2f" % (numpy.exp(numpy.mean(numpy.log(ratios))), max(ratios)))


if __name__ == "__main__":
    main()
