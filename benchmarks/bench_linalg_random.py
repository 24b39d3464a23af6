"""Kumo's linear algebra and random numbers versus NumPy, side by side in one run.

    python benchmarks/bench_linalg_random.py [--quick] [--only linalg|random]

Prints, for each case, the best time of several runs for NumPy and Kumo and
the ratio numpy_time / kumo_time (> 1: Kumo is faster). Both libraries use
OpenBLAS on the host (NumPy its bundled scipy-openblas64, kumo the
scipy-openblas32 wheel); random numbers come from cuRAND's host generators.
"""
import sys

import numpy

import kumo
from bench_numpy import case


def linalg_cases(quick):
    rng = numpy.random.default_rng(0)
    sizes = (256, 1024) if quick else (256, 1024, 4096)
    for dt in (numpy.float32, numpy.float64):
        for n in sizes:
            a = rng.standard_normal((n, n)).astype(dt)
            b = rng.standard_normal((n, n)).astype(dt)
            ka, kb = kumo.asarray(a), kumo.asarray(b)
            repeat = 3 if n >= 4096 else 7
            case("matmul %s %dx%d" % (numpy.dtype(dt).name, n, n), lambda: a @ b, lambda: ka @ kb, repeat=repeat)
    for dt in (numpy.float32, numpy.float64):
        a = rng.standard_normal((10000, 8, 8)).astype(dt)
        b = rng.standard_normal((10000, 8, 8)).astype(dt)
        ka, kb = kumo.asarray(a), kumo.asarray(b)
        case("batched matmul %s 10000 x (8x8)" % numpy.dtype(dt).name, lambda: a @ b, lambda: ka @ kb)
    n = 512
    a = rng.standard_normal((n, n)) + n ** 0.5 * numpy.eye(n)
    spd = a @ a.T
    rhs = rng.standard_normal(n)
    rhs_m = rng.standard_normal((n, n))
    ka, kspd, krhs, krhs_m = kumo.asarray(a), kumo.asarray(spd), kumo.asarray(rhs), kumo.asarray(rhs_m)
    case("solve float64 512 (vector rhs)", lambda: numpy.linalg.solve(a, rhs), lambda: kumo.linalg.solve(ka, krhs))
    case("solve float64 512 (512 rhs)", lambda: numpy.linalg.solve(a, rhs_m),
         lambda: kumo.linalg.solve(ka, krhs_m))
    case("inv float64 512", lambda: numpy.linalg.inv(a), lambda: kumo.linalg.inv(ka))
    case("svd float64 512", lambda: numpy.linalg.svd(a), lambda: kumo.linalg.svd(ka), repeat=5)
    case("eigh float64 512", lambda: numpy.linalg.eigh(spd), lambda: kumo.linalg.eigh(kspd), repeat=5)
    case("cholesky float64 512", lambda: numpy.linalg.cholesky(spd), lambda: kumo.linalg.cholesky(kspd))
    case("einsum 'bij,bjk->bik' float64 (64, 128, 128)",
         lambda: numpy.einsum("bij,bjk->bik", e1, e2), lambda: kumo.einsum("bij,bjk->bik", ke1, ke2))


def random_cases(quick):
    n = 10**6 if quick else 10**7
    nrng = numpy.random.default_rng(0)
    krng = kumo.random.default_rng(0)
    case("standard_normal float64 (%d)" % n, lambda: nrng.standard_normal(n), lambda: krng.standard_normal(n),
         repeat=5)
    case("standard_normal float32 (%d)" % n, lambda: nrng.standard_normal(n, dtype=numpy.float32),
         lambda: krng.standard_normal(n, dtype=kumo.float32), repeat=5)
    case("random float64 (%d)" % n, lambda: nrng.random(n), lambda: krng.random(n), repeat=5)
    case("integers [0, 1000) int64 (%d)" % n, lambda: nrng.integers(0, 1000, n), lambda: krng.integers(0, 1000, n),
         repeat=5)
    case("exponential float64 (%d)" % n, lambda: nrng.exponential(2.0, n), lambda: krng.exponential(2.0, n),
         repeat=5)
    case("gamma(2.5) float64 (%d)" % n, lambda: nrng.gamma(2.5, size=n), lambda: krng.gamma(2.5, size=n), repeat=5)
    case("binomial(100, 0.3) (%d)" % n, lambda: nrng.binomial(100, 0.3, n), lambda: krng.binomial(100, 0.3, n),
         repeat=5)
    case("poisson(4.0) (%d)" % n, lambda: nrng.poisson(4.0, n), lambda: krng.poisson(4.0, n), repeat=5)


_e_rng = numpy.random.default_rng(1)
e1 = _e_rng.standard_normal((64, 128, 128))
e2 = _e_rng.standard_normal((64, 128, 128))
ke1, ke2 = kumo.asarray(e1), kumo.asarray(e2)


def main():
    quick = "--quick" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    print("kumo %s on %s, %d host threads; numpy %s" % (kumo.__version__, kumo.get_device(),
                                                       kumo._core.host_num_threads(), numpy.__version__))
    if only in (None, "linalg"):
        linalg_cases(quick)
    if only in (None, "random"):
        random_cases(quick)


if __name__ == "__main__":
    main()
