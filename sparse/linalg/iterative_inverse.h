// The inverse of an operator applied by an iterative solve: x -> A^-1 x by
// GMRES, each product one solve. eigsh uses it for M^-1 and
// (A - sigma M)^-1 when they are operators with no factorization (as SciPy's
// eigsh falls back to GMRES then).
//
//   LinearOperator minv = iterative_inverse(m, 0, "M");
//   Array x = minv.matvec(b);  // M x = b to rtol max(2 eps, 1000 sqrt(n) eps)
#pragma once
#include <string>

#include "sparse/linalg/linear_operator.h"

namespace kumo {
namespace sparse {
namespace linalg {

// Square a: ValueError otherwise. Each solve runs to the relative residual
// max(tol, 1000 sqrt(n) eps) with eps that of the right-hand side's dtype
// (tol <= 0: 2 eps of a's dtype, ARPACK's machine tolerance); a solve that
// does not converge is a ValueError naming `what`. rmatvec solves with A^H.
LinearOperator iterative_inverse(const LinearOperator& a, double tol, const std::string& what);

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
