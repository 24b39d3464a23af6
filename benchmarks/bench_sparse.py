"""kumo.sparse versus scipy.sparse, side by side in one run.

    python benchmarks/bench_sparse.py [--repeat N] [--n N] [--nnz NNZ] [--spgemm-n N] [--spgemm-nnz NNZ]

A random n x n CSR matrix (default 10^6 x 10^6 with 10^7 nonzeros, float64,
int32 indices) in both libraries, and:
- SpMV: A @ x for a dense vector (target: kumo <= 0.6x SciPy's time; SciPy
  runs on one thread, kumo on all host threads);
- SpMM: A @ X for a dense (n, 64) matrix (target <= 0.6x);
- tocsr of the same entries as an unsorted COO matrix with duplicates
  (target <= 1.0x);
- SpGEMM: A @ B of two random 10^5 x 10^5 CSR matrices with 10^6
  nonzeros each (--spgemm-n, --spgemm-nnz; target <= 1.0x).
For each case: the best time of N runs of each library (alternating, after a
warm-up call) and the ratio kumo / SciPy (the "numpy" column is SciPy)."""
import argparse

import numpy
import scipy
import scipy.sparse as sps

import kumo
import kumo.sparse as ks
from _sidebyside import case


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--nnz", type=int, default=10**7)
    parser.add_argument("--spgemm-n", type=int, default=10**5)
    parser.add_argument("--spgemm-nnz", type=int, default=10**6)
    parser.add_argument("--only-spgemm", action="store_true", help="run the SpGEMM case alone")
    args = parser.parse_args()
    print("kumo %s on cpu, %d host threads; scipy %s, numpy %s"
          % (kumo.__version__, kumo._core.host_num_threads(), scipy.__version__, numpy.__version__))
    rng = numpy.random.default_rng(0)
    spgemm(args, rng)
    if args.only_spgemm:
        return
    n, nnz = args.n, args.nnz
    row = rng.integers(0, n, nnz).astype(numpy.int32)
    col = rng.integers(0, n, nnz).astype(numpy.int32)
    data = rng.standard_normal(nnz)

    s_coo = sps.coo_array((data, (row, col)), shape=(n, n))
    k_coo = ks.coo_array((kumo.asarray(data), (kumo.asarray(row), kumo.asarray(col))), shape=(n, n))
    s_csr = s_coo.tocsr()
    k_csr = ks.csr_array(s_csr)
    print("matrix %d x %d, %d stored entries after summing duplicates" % (n, n, s_csr.nnz))

    x = rng.standard_normal(n)
    kx = kumo.asarray(x)
    case("SpMV csr @ x float64", lambda: s_csr @ x, lambda: k_csr @ kx, args.repeat)
    X = rng.standard_normal((n, 64))
    kX = kumo.asarray(X)
    case("SpMM csr @ X (64 columns) float64", lambda: s_csr @ X, lambda: k_csr @ kX, max(2, args.repeat // 2))
    del X, kX
    case("tocsr of unsorted coo (duplicates)", lambda: s_coo.tocsr(), lambda: k_coo.tocsr(), args.repeat)


def spgemm(args, rng):
    n, nnz = args.spgemm_n, args.spgemm_nnz

    def random_csr():
        row = rng.integers(0, n, nnz).astype(numpy.int32)
        col = rng.integers(0, n, nnz).astype(numpy.int32)
        return sps.coo_array((rng.standard_normal(nnz), (row, col)), shape=(n, n)).tocsr()

    s_a, s_b = random_csr(), random_csr()
    k_a, k_b = ks.csr_array(s_a), ks.csr_array(s_b)
    print("SpGEMM operands %d x %d, %d and %d stored entries; product %d"
          % (n, n, s_a.nnz, s_b.nnz, (s_a @ s_b).nnz))
    case("SpGEMM csr @ csr float64", lambda: s_a @ s_b, lambda: k_a @ k_b, max(2, args.repeat // 2))


if __name__ == "__main__":
    main()
