"""kumo.sparse.linalg: scipy.sparse.linalg over kumo's C++ (kumo::sparse::linalg).

LinearOperator/aslinearoperator and the iterative solvers cg, bicg,
bicgstab, cgs, gmres, minres, lsqr and lsmr; norm and onenormest;
spsolve, splu, factorized (SuperLU 5) and spsolve_triangular; eigsh and svds
(thick-restarted Lanczos); expm_multiply (Al-Mohy and Higham). See docs/sparse_linalg.md.
"""
from kumo.sparse.linalg._dsolve import factorized, MatrixRankWarning, splu, spsolve, spsolve_triangular, SuperLU
from kumo.sparse.linalg._eigen import ArpackError, ArpackNoConvergence, eigsh, svds
from kumo.sparse.linalg._expm_multiply import expm_multiply
from kumo.sparse.linalg._interface import aslinearoperator, IdentityOperator, LinearOperator, MatrixLinearOperator
from kumo.sparse.linalg._isolve import bicg, bicgstab, cg, cgs, gmres, lsmr, lsqr, minres
from kumo.sparse.linalg._matfuncs import matrix_power
from kumo.sparse.linalg._norm import norm, onenormest

__all__ = ["LinearOperator", "aslinearoperator", "cg", "bicg", "bicgstab", "cgs", "gmres", "minres", "lsqr", "lsmr",
           "norm", "onenormest", "spsolve", "spsolve_triangular", "splu", "factorized", "SuperLU", "MatrixRankWarning",
           "eigsh", "svds", "ArpackError", "ArpackNoConvergence",
           "expm_multiply", "matrix_power"]
