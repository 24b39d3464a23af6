// Eigenvalues of symmetric / Hermitian operators and singular values of
// general ones (scipy.sparse.linalg.eigsh and svds), by a thick-restarted
// Lanczos method (Wu and Simon 2000) with full reorthogonalization; the
// projected problems are solved by kumo::linalg::eigh (LAPACK).
//
//   EigshOptions o;
//   o.k = 4;
//   o.which = Which::kSA;
//   auto r = eigsh(aslinearoperator(csr), o);  // r.w ascending, r.v (n, k)
#pragma once
#include <cstdint>
#include <optional>

#include "core/array.h"
#include "sparse/linalg/linear_operator.h"

namespace kumo {
namespace sparse {
namespace linalg {

// Which eigenvalues: largest / smallest magnitude, largest / smallest
// algebraic, or both ends (k/2 from each, one more from the high end when
// k is odd), as ARPACK's which.
enum class Which { kLM, kSM, kLA, kSA, kBE };

// The spectral transformation of shift-invert (ARPACK's modes 3, 4 and 5),
// with OPinv = (A - sigma M)^-1 (M = I when absent). Lanczos finds
// eigenvalues nu of OP in the B inner product, `which` applies to nu, and
// lambda comes back from nu:
//   kNormal:   OP = OPinv M,             B = M, lambda = sigma + 1 / nu
//   kBuckling: OP = OPinv A,             B = A, lambda = sigma nu / (nu - 1)
//   kCayley:   OP = OPinv (A + sigma M), B = M, lambda = sigma (nu + 1) / (nu - 1)
// Buckling needs A positive (semi)definite (it is the inner product; M is
// the indefinite geometric stiffness) and eigenvectors are A-orthonormal;
// the others give M-orthonormal ones (M may be singular). Eigenvectors get
// one step of inverse iteration with (A - sigma M)^-1 M (ARPACK's
// purification), k more products with opinv.
enum class ShiftInvertMode { kNormal, kBuckling, kCayley };

struct EigshOptions {
  int64_t k = 6;
  Which which = Which::kLM;
  std::optional<Array> v0;          // starting vector; a fixed-seed random one when absent
  std::optional<int64_t> ncv;       // Lanczos basis size, k < ncv <= n; min(n, max(2k + 1, 20))
  std::optional<int64_t> maxiter;   // restarts; 10 n
  double tol = 0;                   // relative accuracy of the Ritz values; 0: machine precision
  bool return_eigenvectors = true;
  // Shift-invert: with sigma, opinv = (A - sigma M)^-1 (when absent, each
  // product is a GMRES solve with A - sigma M, as SciPy's fallback for
  // operators) and `mode` picks the transformation (ignored without sigma,
  // as SciPy).
  std::optional<double> sigma;
  std::optional<LinearOperator> opinv;
  ShiftInvertMode mode = ShiftInvertMode::kNormal;
  // The generalized problem A x = lambda M x for Hermitian M: positive
  // definite without sigma (ARPACK's mode 2 with minv = M^-1, or a GMRES
  // solve with M per product when minv is absent),
  // positive semi-definite with it (minv is then a ValueError, as SciPy's).
  // Eigenvectors are M-orthonormal.
  std::optional<LinearOperator> m, minv;
};

struct EigshResult {
  Array w;  // eigenvalues, ascending; the converged ones when !converged
  Array v;  // eigenvectors as columns (n, k) (undefined without return_eigenvectors)
  bool converged = true;
};

// Hermitian A (n x n): ValueError for non-square A, k outside (0, n), ncv
// outside (k, n], operators of another shape, opinv without sigma, minv
// without m or with sigma, buckling / cayley with sigma = 0 (the
// transformation is then the identity) or with complex A (as SciPy's).
// Values are in A's dtype (real for complex A; float64 for
// integer A). Not converging within maxiter gives converged = false with
// the Ritz pairs that did converge.
EigshResult eigsh(const LinearOperator& a, const EigshOptions& options = {});

struct SvdsResult {
  Array u, s, vh;  // s ascending; u (m, k), vh (k, n)
  bool converged = true;
};
// The k largest (kLM) or smallest (kSM) singular triplets of A (m x n), from
// eigsh of A^H A or A A^H (the smaller), as SciPy's svds with the arpack
// solver. tol applies to the singular values (tol^2 to the eigenvalues).
SvdsResult svds(const LinearOperator& a, int64_t k = 6, Which which = Which::kLM, std::optional<Array> v0 = {},
                std::optional<int64_t> ncv = {}, std::optional<int64_t> maxiter = {}, double tol = 0,
                bool return_singular_vectors = true);

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
