"""kumo's concatenate and pad versus NumPy's, side by side in one run.

    python benchmarks/bench_manipulation.py [--repeat N] [--n N]

Inputs of about n elements in all (default 10^7, float64). concatenate
joins three arrays along axis 0 and along axis 1 of 2-D arrays; pad widens
a square 2-D array by 16 on every side in the constant, reflect and edge
modes. Both libraries write a new result each call. For each case: the best
of N alternating runs of each library after a warm-up call, and the ratio
kumo / numpy (below 1: kumo is faster; the target is <= 1.0)."""
import argparse
import math

import numpy

import kumo
from _sidebyside import case


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--n", type=int, default=10**7)
    args = parser.parse_args()
    n, r = args.n, args.repeat
    print("kumo %s on cpu, %d host threads; numpy %s; n = %d"
          % (kumo.__version__, kumo._core.host_num_threads(), numpy.__version__, n))
    rng = numpy.random.default_rng(0)
    ratios = []

    for dtype in (numpy.float32, numpy.float64):
        name = numpy.dtype(dtype).name
        rows = int(math.sqrt(n / 3))
        parts = [rng.standard_normal((rows, rows)).astype(dtype) for _ in range(3)]
        kparts = [kumo.asarray(p) for p in parts]
        for axis in (0, 1):
            ratios.append(case("concatenate 3x(%d,%d) %s axis=%d" % (rows, rows, name, axis),
                               lambda: numpy.concatenate(parts, axis=axis),
                               lambda: kumo.concatenate(kparts, axis=axis), r))

        side = int(math.sqrt(n))
        x = rng.standard_normal((side, side)).astype(dtype)
        kx = kumo.asarray(x)
        for mode in ("constant", "reflect", "edge"):
            ratios.append(case("pad (%d,%d) %s by 16 %s" % (side, side, name, mode),
                               lambda: numpy.pad(x, 16, mode), lambda: kumo.pad(kx, 16, mode), r))
    geo = math.exp(sum(math.log(v) for v in ratios) / len(ratios))
    print("geometric mean %.2f, worst %.2f" % (geo, max(ratios)))


if __name__ == "__main__":
    main()
