// All eigenpairs of a small dense Hermitian pencil A x = lambda M x: what
// eigsh does when k >= n and M is given (SciPy hands that case to
// scipy.linalg.eigh(A, b=M)).
//
//   auto r = dense_pencil_eigh(a, m, true);  // r.w ascending, r.v (n, n)
#pragma once
#include "core/array.h"
#include "sparse/linalg/eigsh.h"

namespace kumo {
namespace sparse {
namespace linalg {

// Hermitian A and Hermitian positive definite M, both dense (n, n): M = L
// L^H by Cholesky, then eigh of L^-1 A L^-H and x = L^-H y, so the
// eigenvectors are M-orthonormal. Computed in the floating promotion of both
// dtypes; values real. ValueError for other shapes, LinAlgError when M is
// not positive definite.
EigshResult dense_pencil_eigh(const Array& a, const Array& m, bool vectors);

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
