"""Black-Scholes option pricing written in plain NumPy style.

Runs the same function with NumPy and with Kumo (``import kumo as np``
style: the module is a parameter) and prints both results and timings.

    python examples/black_scholes.py [n_options]
"""
import math
import sys
import time

import numpy

import kumo


def black_scholes(xp, s, k, t, r, v):
    """Prices of European calls and puts; `xp` is numpy or kumo."""
    sqrt_t = xp.sqrt(t)
    d1 = (xp.log(s / k) + (r + 0.5 * v * v) * t) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    cdf_d1 = normal_cdf(xp, d1)
    cdf_d2 = normal_cdf(xp, d2)
    discount = xp.exp(-r * t)
    call = s * cdf_d1 - k * discount * cdf_d2
    put = k * discount * (1.0 - cdf_d2) - s * (1.0 - cdf_d1)
    return call, put


def normal_cdf(xp, x):
    """Standard normal CDF (Abramowitz-Stegun 26.2.17, |error| < 7.5e-8)."""
    a1, a2, a3, a4, a5 = 0.319381530, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    z = xp.abs(x)
    k = 1.0 / (1.0 + 0.2316419 * z)
    poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))))
    pdf = xp.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    upper = 1.0 - pdf * poly
    return xp.where(x >= 0, upper, 1.0 - upper)


def make_inputs(n, seed=0):
    rng = numpy.random.default_rng(seed)
    s = rng.uniform(10.0, 100.0, n)
    k = rng.uniform(10.0, 100.0, n)
    t = rng.uniform(0.25, 2.0, n)
    return s, k, t


def run(xp, inputs, r=0.02, v=0.3, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        call, put = black_scholes(xp, *inputs, r, v)
        total = float(call.sum()) + float(put.sum())
        best = min(best, time.perf_counter() - t0)
    return call, put, total, best


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    host = make_inputs(n)
    dev = tuple(kumo.asarray(a) for a in host)
    # Warm-up compiles Kumo's kernels once (they are cached on disk afterwards).
    t0 = time.perf_counter()
    run(kumo, tuple(a[:16] for a in dev), repeat=1)
    warm = time.perf_counter() - t0

    call_n, put_n, total_n, t_numpy = run(numpy, host)
    call_k, put_k, total_k, t_kumo = run(kumo, dev)
    err = max(float(numpy.max(numpy.abs(kumo.asnumpy(call_k) - call_n))),
              float(numpy.max(numpy.abs(kumo.asnumpy(put_k) - put_n))))
    print("Black-Scholes, %d options on %s" % (n, kumo.get_device()))
    print("  numpy: sum of prices %.6f   %.1f ms" % (total_n, t_numpy * 1e3))
    print("  kumo : sum of prices %.6f   %.1f ms   (%.2fx numpy)" % (total_k, t_kumo * 1e3, t_numpy / t_kumo))
    print("  max abs difference %.3g; first-use kernel compile/warm-up %.2f s" % (err, warm))
    if err > 1e-9 * max(1.0, abs(total_n)):
        print("results differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
