// exp(t A) B without forming exp(A) (scipy.sparse.linalg.expm_multiply):
// Al-Mohy and Higham's algorithm ("Computing the action of the matrix
// exponential, with an application to exponential integrators", SIAM J.
// Sci. Comput. 33(2), 2011, Algorithms 3.2 and 5.2's stepping): A is
// shifted by mu = trace(A) / n, a truncated Taylor series of degree m* is
// applied s times, with (m*, s) chosen from the 1-norms of powers of A
// (exact ||A||_1, estimated ||A^p||_1 by onenormest) so that the backward
// error stays below 2^-53; each series stops early once its terms are
// negligible.
#pragma once
#include <complex>
#include <optional>

#include "core/array.h"
#include "sparse/linalg/linear_operator.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {
namespace linalg {

// exp(t A) B for B of shape (n,) or (n, k), computed in float64 /
// complex128 and returned in the promoted dtype of A and B (float64 for
// integers), as SciPy's. trace: trace(A) (the shift;
// exp(A) = e^mu exp(A - mu I) holds for any mu, so it only affects the
// cost); onenorm: ||A - mu I||_1 when known, else estimated.
Array expm_multiply(const LinearOperator& a, const Array& b, double t, std::complex<double> trace,
                    std::optional<double> onenorm = std::nullopt);
// For sparse matrices the trace and the exact 1-norm come from the matrix.
Array expm_multiply(const CsrMatrix& a, const Array& b, double t = 1.0);

// exp(t_q A) B at num points t_q evenly spaced from start to stop (stop
// included when endpoint): an array (num,) + b.shape; num >= 2. Each point
// is the previous one advanced by exp(h A).
Array expm_multiply_interval(const CsrMatrix& a, const Array& b, double start, double stop, int64_t num,
                             bool endpoint);

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
