// dense_pencil_eigh: the pencil reduced to a standard Hermitian problem by
// the Cholesky factor of M, solved by LAPACK through kumo::linalg.
#include "sparse/linalg/dense_pencil.h"

#include <string>

#include "core/errors.h"
#include "linalg/linalg.h"
#include "routines/elementwise.h"
#include "sparse/linalg/host/krylov_system.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace {
Array herm(const Array& x) { return is_complex(x.dtype()) ? kumo::conj(x.transpose()) : x.transpose(); }
}  // namespace

EigshResult dense_pencil_eigh(const Array& a, const Array& m, bool vectors) {
  const auto square = [](const Array& x) { return x.ndim() == 2 && x.shape()[0] == x.shape()[1]; };
  if (!square(a) || !square(m) || a.shape() != m.shape())
    throw ValueError(host::call_name("eigsh") + ": A and M must be square matrices of the same shape");
  const Dtype dtype = host::floating(promote_types(a.dtype(), m.dtype()));
  const Array l = kumo::linalg::cholesky(m.astype(dtype));
  // C = L^-1 A L^-H, as L^-1 (L^-1 A)^H since A is Hermitian.
  const Array c = kumo::linalg::solve(l, herm(kumo::linalg::solve(l, a.astype(dtype))));
  EigshResult r;
  if (!vectors) {
    r.w = kumo::linalg::eigvalsh(c);
    return r;
  }
  auto [w, y] = kumo::linalg::eigh(c);
  r.w = w;
  r.v = kumo::linalg::solve(herm(l), y);
  return r;
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
