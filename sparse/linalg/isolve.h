// Iterative solvers of scipy.sparse.linalg (SciPy 1.14+ semantics):
//
//   using namespace kumo::sparse::linalg;
//   SolverOptions o;
//   o.rtol = 1e-8;
//   auto [x, info] = cg(aslinearoperator(csr), b, o);
//
// Every solver takes a LinearOperator (aslinearoperator makes one from a
// matrix), a right-hand side b of shape (n,) or (n, 1), and returns x of
// shape (n,) in the computation dtype: numpy.promote_types of A's and b's
// dtypes after non-floating dtypes became float64 (SciPy's make_system).
// info is SciPy's: 0 converged; > 0 the iteration limit (maxiter) was
// reached without convergence, x is the last iterate; < 0 a breakdown
// (-10: rho breakdown, -11: another quantity vanished).
//
// Stopping test (cg, bicg, bicgstab, cgs, gmres): ||r|| < max(atol,
// rtol * ||b||) on the recursively updated residual (cgs recomputes it),
// checked before each iteration; b = 0 returns x = 0 at once. maxiter
// defaults to 10 n. M is a preconditioner approximating A^-1 (applied as
// M.matvec, and M.rmatvec in bicg).
//
// The vector updates run fused on all host cores for host arrays, and as
// generated kernels on the arrays' device otherwise (sparse/linalg/host/
// vector_ops.h), so a solve on CUDA arrays keeps its vectors on the device
// and only scalars (dot products, norms) come back. Products go through the
// operator, so a sparse matrix's own SpMV (cuSPARSE on CUDA) runs without a
// callback. b, x0 and the operators' results must share b's device.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>

#include "core/array.h"
#include "sparse/linalg/linear_operator.h"

namespace kumo {
namespace sparse {
namespace linalg {

struct SolveResult {
  Array x;
  int64_t info = 0;
};

// Called with (a copy of) the current iterate after each iteration.
using IterateCallback = std::function<void(const Array& xk)>;

struct SolverOptions {
  std::optional<Array> x0;  // initial guess (n,) or (n, 1); zeros when absent
  double rtol = 1e-5;
  double atol = 0.0;
  std::optional<int64_t> maxiter;      // 10 n when absent
  std::optional<LinearOperator> M;     // preconditioner
  IterateCallback callback;
};

SolveResult cg(const LinearOperator& a, const Array& b, const SolverOptions& options = {});
SolveResult bicg(const LinearOperator& a, const Array& b, const SolverOptions& options = {});
SolveResult bicgstab(const LinearOperator& a, const Array& b, const SolverOptions& options = {});
SolveResult cgs(const LinearOperator& a, const Array& b, const SolverOptions& options = {});

// GMRES(restart) with SciPy's callback_type: kX calls `callback` with the
// iterate after each restart cycle; kPrNorm and kLegacy call
// `residual_callback` with the preconditioned residual norm relative to
// ||b|| after each inner step. kLegacy also ends after maxiter inner steps
// in all (SciPy's legacy behaviour); otherwise maxiter counts restart
// cycles. kNone (SciPy without a callback) calls neither.
enum class GmresCallbackType { kNone, kLegacy, kPrNorm, kX };
struct GmresOptions : SolverOptions {
  std::optional<int64_t> restart;  // 20 when absent (at most n)
  GmresCallbackType callback_type = GmresCallbackType::kNone;
  std::function<void(double)> residual_callback;
};
SolveResult gmres(const LinearOperator& a, const Array& b, const GmresOptions& options = {});

// MINRES for symmetric (Hermitian) A - shift I, Paige and Saunders' method
// with SciPy's stopping rules: info 0 when one of its tests passed
// (residual, ||A r||, condition, x too large), maxiter (default 5 n) when
// the limit was reached. atol is unused (SciPy's minres has none).
struct MinresOptions : SolverOptions {
  double shift = 0.0;
  bool check = false;  // check A and M for symmetry first (ValueError if not)
};
SolveResult minres(const LinearOperator& a, const Array& b, const MinresOptions& options = {});

// LSQR and LSMR for min ||A x - b||^2 + damp^2 ||x||^2 (rectangular A),
// with SciPy's results.
struct LeastSquaresOptions {
  double damp = 0.0;
  double atol = 1e-6;
  double btol = 1e-6;
  double conlim = 1e8;
  std::optional<int64_t> iter_lim;  // lsqr: 2 n, lsmr: min(m, n)
  bool calc_var = false;            // lsqr only
  std::optional<Array> x0;
};
struct LsqrResult {
  Array x;
  int64_t istop = 0, itn = 0;
  double r1norm = 0, r2norm = 0, anorm = 0, acond = 0, arnorm = 0, xnorm = 0;
  Array var;
};
struct LsmrResult {
  Array x;
  int64_t istop = 0, itn = 0;
  double normr = 0, normar = 0, norma = 0, conda = 0, normx = 0;
};
LsqrResult lsqr(const LinearOperator& a, const Array& b, const LeastSquaresOptions& options = {});
LsmrResult lsmr(const LinearOperator& a, const Array& b, const LeastSquaresOptions& options = {});

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
