"""kumo.linalg: numpy.linalg on OpenBLAS/LAPACK (host) and cuBLAS/cuSOLVER (CUDA)."""
from numpy.linalg import LinAlgError  # the same class, so `except numpy.linalg.LinAlgError` works

# products (matmul, dot, einsum, ...)
from kumo.linalg._products import (matrix_transpose, linalg_matmul as matmul,  # noqa: E402
                                   linalg_vecdot as vecdot, linalg_cross as cross, linalg_outer as outer,
                                   linalg_tensordot as tensordot, linalg_trace as trace)
from kumo.linalg._products import multi_dot, linalg_diagonal as diagonal  # noqa: E402
# decompositions, solvers, norms
from kumo.linalg._decompositions import (cholesky, qr, svd, svdvals, eigh, eigvalsh, eig, eigvals,  # noqa: E402
                                         EigResult, EighResult, QRResult, SVDResult)
from kumo.linalg._solvers import (solve, inv, pinv, lstsq, det, slogdet, matrix_rank, cond,  # noqa: E402
                                  tensorsolve, tensorinv, matrix_power, SlogdetResult)
from kumo.linalg._norms import norm, vector_norm, matrix_norm  # noqa: E402
