// Sparse direct solvers: SuperLU's supernodal LU with partial pivoting
// (SuperLU 5, the library SciPy's splu/spsolve wrap; Debian's libsuperlu),
// and triangular solves.
//
//   using namespace kumo::sparse::linalg;
//   SuperLU lu = splu(csc);                    // Pr A Pc = L U
//   Array x = lu.solve(b);                     // A x = b, b (n,) or (n, k)
//   Array y = spsolve(csr, b);                 // one-shot
//
// Values are float32/64 or complex64/128 (other dtypes are converted as
// SciPy's _asfptype does: bool and 8/16-bit integers to float32, the others
// to float64). Duplicates are summed first. SuperLU runs on one core; its
// own BLAS calls go to the system BLAS (libblas.so.3), whose unprefixed
// symbols do not meet the scipy_-prefixed OpenBLAS kumo uses.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/array.h"
#include "sparse/linalg/linear_operator.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {
namespace linalg {

// SciPy's splu options. permc_spec: "COLAMD" (default), "NATURAL",
// "MMD_ATA", "MMD_AT_PLUS_A". diag_pivot_thresh in [0, 1] (1: partial
// pivoting; smaller prefers the diagonal). relax / panel_size: SuperLU's
// defaults when 0. symmetric_mode is set when permc_spec is NATURAL, so no
// column permutation happens then (as SciPy).
struct SuperLUOptions {
  std::string permc_spec = "COLAMD";
  double diag_pivot_thresh = 1.0;
  int relax = 0;
  int panel_size = 0;
  bool symmetric_mode = false;
};

// A factorization Pr A Pc = L U of a square matrix (SciPy's SuperLU object).
class SuperLU {
 public:
  Shape2 shape() const;
  Dtype dtype() const;
  // Stored entries of L and U in SuperLU's storage.
  int64_t nnz() const;
  // perm_r[i] = j: row i of A is row j of Pr A; perm_c[i] = j: column i of
  // A is column j of A Pc (int32 arrays).
  Array perm_r() const;
  Array perm_c() const;
  // The unit lower triangular L and upper triangular U as CSC matrices.
  CscMatrix L() const;
  CscMatrix U() const;
  // Solves A x = b ('N'), A^T x = b ('T') or A^H x = b ('H') for b of shape
  // (n,) or (n, k); x has b's shape and the factor's dtype.
  Array solve(const Array& b, char trans = 'N') const;

  struct Factors;  // SuperLU's matrices, freed with the last copy

 private:
  friend SuperLU splu(const CscMatrix& a, const SuperLUOptions& options);
  std::shared_ptr<const Factors> f_;
};

// Factors a square matrix: ValueError when it is not square,
// RuntimeError("Factor is exactly singular") when U has a zero pivot.
SuperLU splu(const CscMatrix& a, const SuperLUOptions& options = {});

// The inverse of a factored A as an operator: matvec / matmat solve A x = b,
// rmatvec / rmatmat A^H x = b (SciPy's SpLuInv; eigsh's (A - sigma M)^-1).
LinearOperator inverse_operator(const SuperLU& lu);

// x with A x = b for dense b ((n,) or (n, k)), through SuperLU's gssv on the
// matrix as it is stored (CSR is solved as the transpose of its CSC form,
// as SciPy does). The dtype is numpy.promote_types of A's (made floating)
// and b's. `singular` is set when A is exactly singular; x is then NaN
// (SciPy's MatrixRankWarning case).
struct SpsolveResult {
  Array x;
  bool singular = false;
};
SpsolveResult spsolve(const CsrMatrix& a, const Array& b, const std::string& permc_spec = "COLAMD");
SpsolveResult spsolve(const CscMatrix& a, const Array& b, const std::string& permc_spec = "COLAMD");

// x with T x = b for a lower (or upper) triangular T stored in CSR, by
// substitution over its rows; entries outside the triangle are ignored
// (SciPy 1.17). unit_diagonal takes the diagonal as ones. A zero (or
// missing) diagonal entry is LinAlgError("A is singular: zero entry on
// diagonal."); b is (n,) or (n, k).
Array spsolve_triangular(const CsrMatrix& a, const Array& b, bool lower = true, bool unit_diagonal = false);

// SciPy's _asfptype: the floating dtype a matrix of dtype d is solved in.
Dtype solver_value_dtype(Dtype d);

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
