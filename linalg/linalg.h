// numpy.linalg in C++ (namespace kumo::linalg), over stacks of matrices in
// the last two axes, on the arrays' device (LAPACK on the host, cuSOLVER on
// CUDA). Results with several parts are structs with NumPy's field names, so
// structured bindings read like NumPy's namedtuples:
//
//   kumo::Array x = kumo::linalg::solve(a, b);
//   auto [q, r] = kumo::linalg::qr(a);
//   auto [u, s, vh] = kumo::linalg::svd(a, /*full_matrices=*/false);
//   auto [w, v] = kumo::linalg::eigh(a);
//   auto [sign, logabsdet] = kumo::linalg::slogdet(a);
//   kumo::Array n = kumo::linalg::norm(x, kumo::linalg::NormOrder::fro());
//
// Dtypes follow numpy.linalg: bool and integers compute in float64, float16
// is refused (TypeError), single precision stays single. Failures are
// kumo::LinAlgError with NumPy's messages ("Singular matrix", "Matrix is not
// positive definite", "SVD did not converge", "Last 2 dimensions of the array
// must be square", ...); shape mismatches of solve are kumo::ValueError.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"

namespace kumo {
namespace linalg {

struct QRResult {
  Array Q, R;
};
struct SVDResult {
  Array U, S, Vh;
};
struct EighResult {
  Array eigenvalues, eigenvectors;
};
struct SlogdetResult {
  Array sign, logabsdet;
};

enum class QRMode { kReduced, kComplete, kR, kRaw };

// x with a @ x == b. b is one vector per matrix only when b.ndim == 1 (NumPy
// 2's rule); otherwise b (..., M, K) holds K right-hand sides and the batch
// axes of a and b broadcast.
Array solve(const Array& a, const Array& b);
// The inverse of each square matrix; LinAlgError("Singular matrix").
Array inv(const Array& a);
// Cholesky factor L with a = L L^H, or U = L^H with upper = true.
Array cholesky(const Array& a, bool upper = false);
// QR decomposition. kReduced: Q (m, k), R (k, n); kComplete: Q (m, m), R (m, n);
// kR: R only (Q undefined); kRaw: Q holds LAPACK's h (n, m), R its tau (k).
QRResult qr(const Array& a, QRMode mode = QRMode::kReduced);
// a = U @ diag(S) @ Vh, S descending. compute_uv = false: S only (U, Vh undefined).
SVDResult svd(const Array& a, bool full_matrices = true, bool compute_uv = true);
// The singular values only (numpy.linalg.svdvals).
Array svdvals(const Array& a);
// Eigenvalues (ascending) and orthonormal eigenvectors (columns) of Hermitian
// matrices, read from the lower ('L') or upper ('U') triangle.
EighResult eigh(const Array& a, char uplo = 'L');
Array eigvalsh(const Array& a, char uplo = 'L');
// Determinant, and its sign (unit modulus for complex) and log|det|; a
// singular matrix gives det 0, (0, -inf).
Array det(const Array& a);
SlogdetResult slogdet(const Array& a);

// The ord argument of norm: None (default), a number (inf and -inf
// included), or "fro" / "nuc".
class NormOrder {
 public:
  NormOrder() = default;                                   // None
  NormOrder(double p) : kind_(Kind::kNumber), p_(p) {}     // NOLINT: norm(x, 1), norm(x, INFINITY)
  static NormOrder fro() { return NormOrder(Kind::kFro); }
  static NormOrder nuc() { return NormOrder(Kind::kNuc); }
  // "fro", "f", "nuc"; anything else is a ValueError.
  static NormOrder from_string(const std::string& s);
  bool is_none() const { return kind_ == Kind::kNone; }
  bool is_fro() const { return kind_ == Kind::kFro; }
  bool is_nuc() const { return kind_ == Kind::kNuc; }
  bool is(double p) const { return kind_ == Kind::kNumber && p_ == p; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  double value() const { return p_; }

 private:
  enum class Kind { kNone, kNumber, kFro, kNuc };
  explicit NormOrder(Kind k) : kind_(k) {}
  Kind kind_ = Kind::kNone;
  double p_ = 0;
};

// numpy.linalg.norm. axis empty: the whole array (2-norm of the flattened
// array for ord None; else a vector norm for 1-d, a matrix norm for 2-d);
// one axis: vector norms along it; two axes: matrix norms over them.
Array norm(const Array& x, NormOrder ord = {}, const std::vector<int64_t>& axis = {}, bool keepdims = false);

}  // namespace linalg
}  // namespace kumo
