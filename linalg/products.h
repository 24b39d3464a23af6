// Matrix and tensor products with NumPy 2's semantics, in namespace kumo as
// NumPy has them at its top level:
//
//   kumo::Array c = kumo::matmul(a, b);                          // a @ b
//   kumo::matmul(a, b, kumo::MatmulOptions().out(c));           // out=
//   kumo::Array d = kumo::dot(a, b);
//   kumo::Array t = kumo::tensordot(a, b, {1, 0}, {0, 1});
//
// Floating and complex products run on the device's GEMM (OpenBLAS on the
// host, cuBLAS on CUDA); float16 is computed in float32 and rounded once.
// Integers and bool have no BLAS: they take an exact float GEMM where every
// partial sum is representable, else a generated reduction kernel that wraps
// around as NumPy's integer loops do.
//
// Errors are NumPy's: kumo::ValueError for shape mismatches (with NumPy's
// gufunc messages), kumo::CastingError for dtype=/out= casting refusals.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/array.h"
#include "core/dtype.h"
#include "linalg/linalg_backend.h"

namespace kumo {

// The keyword arguments of matmul (a gufunc in NumPy): out=, dtype=, casting=.
class MatmulOptions {
 public:
  MatmulOptions() = default;
  MatmulOptions(const Array& out) : out_(out) {}  // NOLINT: kumo::matmul(a, b, out)
  MatmulOptions(Dtype dtype) : dtype_(dtype) {}   // NOLINT: kumo::matmul(a, b, Dtype::kFloat64)
  MatmulOptions& out(const Array& a) {
    out_ = a;
    return *this;
  }
  MatmulOptions& dtype(Dtype d) {
    dtype_ = d;
    return *this;
  }
  MatmulOptions& casting(Casting c) {
    casting_ = c;
    return *this;
  }
  const Array& out() const { return out_; }
  std::optional<Dtype> dtype() const { return dtype_; }
  Casting casting() const { return casting_; }

 private:
  Array out_;
  std::optional<Dtype> dtype_;
  Casting casting_ = Casting::kSameKind;
};

// numpy.matmul: stacks of matrices in the last two axes, batch axes
// broadcast; a 1-d first (second) operand is a row (column) vector whose
// added axis is removed from the result. Returns `out` when given.
Array matmul(const Array& a, const Array& b, const MatmulOptions& options = {});

// numpy.dot: 0-d operands multiply, 1-d . 1-d is the inner product, N-d . 1-d
// and N-d . M-d sum over a's last axis and b's second-to-last. `out`, when
// given, must have exactly the result's dtype and shape and be C-contiguous.
Array dot(const Array& a, const Array& b, const Array& out = Array());

// numpy.vdot: the dot product of the flattened arrays, a conjugated.
Array vdot(const Array& a, const Array& b);

// numpy.inner: sums over the last axes of both.
Array inner(const Array& a, const Array& b);

// numpy.outer: a.ravel()[:, None] * b.ravel()[None, :].
Array outer(const Array& a, const Array& b, const Array& out = Array());

// numpy.tensordot with axes=N: a's last N axes against b's first N (a
// negative N sums over nothing, as NumPy's ranges do).
Array tensordot(const Array& a, const Array& b, int64_t axes = 2);
// numpy.tensordot with axes=(axes_a, axes_b), paired in order.
Array tensordot(const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                const std::vector<int64_t>& axes_b);

namespace linalg {
namespace detail {

// The BLAS/LAPACK backend of `device` (host or the CUDA plugin's).
LinalgBackend& backend_for(Device& device);

// out = a @ b for 3-D (batch, rows, cols) arrays of one BLAS dtype whose
// matrices are row- or column-major; a and b may have batch 1 (broadcast).
// The low-level entry the Python bindings expose as _core.linalg.gemm.
void gemm(const Array& a, const Array& b, const Array& out);

// matmul reporting errors under another gufunc's name ("matvec", "vecmat").
Array matmul_named(const Array& a, const Array& b, const MatmulOptions& options, const char* name);

// The dtype a product of `dt` operands is computed in: BLAS types as they
// are, float16 in float32, integers and bool in their own type.
Dtype product_compute_dtype(Dtype dt);

// Leading dimension (elements) of a column-major view of (rows x cols) with
// byte strides s_row / s_col; false when the strides do not describe one.
bool column_major_ld(int64_t rows, int64_t cols, int64_t s_row, int64_t s_col, int64_t isz, int64_t* ld);
// Batch stride in elements of a 3-D array (0 for a single, possibly broadcast, matrix).
bool batch_stride(const Array& a, int64_t* stride);

// float32, float64, complex64, complex128: the dtypes BLAS computes in.
bool is_blas_dtype(Dtype d);

// A real value of a BLAS dtype as host bytes (gemm's alpha and beta, fill
// values); TypeError for other dtypes.
struct ScalarBytes {
  alignas(16) unsigned char bytes[16];
};
ScalarBytes scalar_of(Dtype dtype, double value);

}  // namespace detail
}  // namespace linalg
}  // namespace kumo
