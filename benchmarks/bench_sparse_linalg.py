"""kumo.sparse.linalg versus scipy.sparse.linalg, side by side in one run.

    python benchmarks/bench_sparse_linalg.py [--grid G] [--repeat N] [--rtol R]

cg on the 2-D Poisson matrix (the 5-point Laplacian of a G x G grid, default
G = 1000: 10^6 unknowns, about 5 * 10^6 nonzeros, float64 CSR) with b = 1,
to rtol 1e-8, in both libraries (target: kumo <= 1.0x SciPy's time). SciPy's
cg is NumPy vector operations around a single-threaded SpMV; kumo's runs the
SpMV and fused vector updates in C++ on all host threads. Both take the same
iterations; the line after the timing reports them and the true residuals.
Each solve takes tens of seconds: by default one timed run each after a warm-up run.
The timing line's "numpy" column is SciPy."""
import argparse
import time

import numpy
import scipy
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse as ks
import kumo.sparse.linalg as kla
from _sidebyside import case


def poisson2d(g):
    """The 5-point Laplacian on a g x g grid with Dirichlet boundaries (CSR)."""
    t = sps.diags([-numpy.ones(g - 1), 4 * numpy.ones(g), -numpy.ones(g - 1)], [-1, 0, 1])
    s = sps.diags([-numpy.ones(g - 1), -numpy.ones(g - 1)], [-1, 1])
    return (sps.kron(sps.identity(g), t) + sps.kron(s, sps.identity(g))).tocsr()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--grid", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--rtol", type=float, default=1e-8)
    args = parser.parse_args()
    print("kumo %s on cpu, %d host threads; scipy %s, numpy %s"
          % (kumo.__version__, kumo._core.host_num_threads(), scipy.__version__, numpy.__version__))
    a = poisson2d(args.grid)
    ka = ks.csr_matrix(a)
    n = a.shape[0]
    b = numpy.ones(n)
    kb = kumo.asarray(b)
    print("2-D Poisson %d x %d grid: %d unknowns, %d nonzeros" % (args.grid, args.grid, n, a.nnz))
    result = {}

    def run_scipy():
        result["scipy"] = spla.cg(a, b, rtol=args.rtol)

    def run_kumo():
        result["kumo"] = kla.cg(ka, kb, rtol=args.rtol)

    # One solve each first, counting iterations (with a callback: not timed).
    counts = {"scipy": 0, "kumo": 0}
    t0 = time.perf_counter()
    spla.cg(a, b, rtol=args.rtol, callback=lambda xk: counts.__setitem__("scipy", counts["scipy"] + 1))
    t1 = time.perf_counter()
    kla.cg(ka, kb, rtol=args.rtol, callback=lambda xk: counts.__setitem__("kumo", counts["kumo"] + 1))
    t2 = time.perf_counter()
    print("iterations: scipy %d, kumo %d (counting runs: scipy %.2f s, kumo %.2f s)"
          % (counts["scipy"], counts["kumo"], t1 - t0, t2 - t1))
    case("cg 2-D Poisson rtol=%g float64" % args.rtol, run_scipy, run_kumo, args.repeat)
    sx, sinfo = result["scipy"]
    kx, kinfo = result["kumo"]
    kx = kumo.asnumpy(kx)
    rel = lambda x: numpy.linalg.norm(b - a @ x) / numpy.linalg.norm(b)  # noqa: E731
    print("info: scipy %d, kumo %d; true relative residuals: scipy %.2e, kumo %.2e; max |x_kumo - x_scipy| %.2e"
          % (sinfo, kinfo, rel(sx), rel(kx), numpy.abs(kx - sx).max()))


if __name__ == "__main__":
    main()
