// iterative_inverse: each product a GMRES solve, to SciPy's eigsh tolerance
// (its gmres_loose: the requested tolerance, but never below what the
// dtype can reach on n entries).
#include "sparse/linalg/iterative_inverse.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"
#include "sparse/linalg/host/krylov_system.h"
#include "sparse/linalg/isolve.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace {

double epsilon(Dtype d) {
  const bool single = d == Dtype::kFloat32 || d == Dtype::kComplex64;
  return single ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

Array solve(const LinearOperator& a, const Array& b, double tol, const std::string& what) {
  GmresOptions o;
  const double eps = epsilon(host::floating(b.dtype()));
  o.rtol = std::max(tol, 1000.0 * std::sqrt(static_cast<double>(b.size())) * eps);
  o.atol = 0;
  const SolveResult r = gmres(a, b, o);
  if (r.info != 0)
    throw ValueError(host::call_name("eigsh") + ": the GMRES solve with " + what + " did not converge (info = " +
                     std::to_string(r.info) + ")");
  return r.x;
}

}  // namespace

LinearOperator iterative_inverse(const LinearOperator& a, double tol, const std::string& what) {
  if (a.shape().rows != a.shape().cols)
    throw ValueError(host::call_name("eigsh") + ": " + what + " must be square to be inverted");
  const double t = tol > 0 ? tol : 2 * epsilon(host::floating(a.dtype()));
  const LinearOperator ah = adjoint(a);
  return LinearOperator(
      a.shape(), host::floating(a.dtype()), [a, t, what](const Array& b) { return solve(a, b, t, what); },
      [ah, t, what](const Array& b) { return solve(ah, b, t, what); }, {}, {}, "IterativeInverse");
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
