// Norms of sparse matrices (scipy.sparse.linalg.norm): per-row reductions
// of |a| over the canonical CSR form (columns are the rows of the
// transpose), on all host cores, with SciPy's result dtypes.
#include "sparse/linalg/norm.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "sparse/linalg/eigsh.h"
#include "sparse/linalg/not_implemented.h"

namespace kumo {
namespace sparse {
namespace linalg {

namespace {

using kumo::linalg::NormOrder;

enum class RowOp { kSumAbs, kSumSquares, kSumPower, kMaxAbs, kMinAbs, kCountNonzero };

// The dtype of abs(a): the real dtype of a complex one, else a's own.
Dtype abs_dtype(Dtype d) {
  if (d == Dtype::kComplex64) return Dtype::kFloat32;
  if (d == Dtype::kComplex128) return Dtype::kFloat64;
  return d;
}
// NumPy's sum dtype: bool and signed integers sum in int64, unsigned in uint64.
Dtype sum_dtype(Dtype d) {
  if (d == Dtype::kBool || (is_integer(d) && kind_char(d) == 'i')) return Dtype::kInt64;
  if (is_integer(d)) return Dtype::kUInt64;
  return d;
}
// A floating result (sqrt, powers): float64 for bool and integers.
Dtype float_dtype(Dtype d) { return is_floating(d) ? d : Dtype::kFloat64; }

// |data| as contiguous float64.
// |data| as a C-contiguous float64 copy (a real input's sign dropped too:
// the Frobenius norm of [[-4, 0]] read its largest value as 0).
Array abs_values(const Array& data) {
  if (is_complex(data.dtype())) return kumo::abs(data).astype(Dtype::kFloat64, Order::kC, true);
  return kumo::abs(data.astype(Dtype::kFloat64, Order::kC, true));
}

template <class I>
void reduce_rows_typed(const CsrMatrix& c, const double* v, RowOp op, double p, double* out) {
  const I* ip = reinterpret_cast<const I*>(c.indptr.data());
  const int64_t cols = c.shape.cols;
  parallel_for(c.shape.rows, 1024, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = ip[r], e = ip[r + 1];
      const bool implicit_zero = e - b < cols;
      double acc = 0;
      switch (op) {
        case RowOp::kSumAbs:
          for (int64_t k = b; k < e; ++k) acc += std::abs(v[k]);
          break;
        case RowOp::kSumSquares:
          for (int64_t k = b; k < e; ++k) acc += v[k] * v[k];
          break;
        case RowOp::kSumPower:
          for (int64_t k = b; k < e; ++k) acc += std::pow(std::abs(v[k]), p);
          break;
        case RowOp::kMaxAbs:
          for (int64_t k = b; k < e; ++k) acc = std::max(acc, std::abs(v[k]));
          break;
        case RowOp::kMinAbs:
          acc = implicit_zero ? 0.0 : std::numeric_limits<double>::infinity();
          for (int64_t k = b; k < e; ++k) acc = std::min(acc, std::abs(v[k]));
          if (cols == 0) acc = 0;
          break;
        case RowOp::kCountNonzero:
          for (int64_t k = b; k < e; ++k) acc += v[k] != 0;
          break;
      }
      out[r] = acc;
    }
  });
}

// op over every row of the canonical c: a float64 array (rows,).
Array reduce_rows(const CsrMatrix& c, RowOp op, double p = 0) {
  const Array v = abs_values(c.data);
  Array out = Array::empty(Shape{c.shape.rows}, Dtype::kFloat64, host_device());
  const double* vp = reinterpret_cast<const double*>(v.data());
  double* op_ = reinterpret_cast<double*>(out.data());
  if (c.indptr.dtype() == Dtype::kInt64) reduce_rows_typed<int64_t>(c, vp, op, p, op_);
  else reduce_rows_typed<int32_t>(c, vp, op, p, op_);
  return out;
}

// The rows (axis 1) or columns (axis 0) of the canonical matrix as the rows
// of a canonical CSR (columns: the CSR of the transpose).
CsrMatrix lines(const CsrMatrix& canonical, int64_t axis) {
  return axis == 1 ? canonical : transpose(tocsc(canonical));
}

Array vector_norm(const CsrMatrix& c, const NormOrder& ord, int64_t axis) {
  // Reducing along `axis` leaves one value per line of the other axis.
  const CsrMatrix m = lines(c, axis == 0 ? 0 : 1);
  const Dtype ad = abs_dtype(c.dtype());
  if (ord.is(INFINITY)) return reduce_rows(m, RowOp::kMaxAbs).astype(ad);
  if (ord.is(-INFINITY)) return reduce_rows(m, RowOp::kMinAbs).astype(ad);
  if (ord.is(0)) return reduce_rows(m, RowOp::kCountNonzero).astype(Dtype::kInt64);
  if (ord.is(1)) return reduce_rows(m, RowOp::kSumAbs).astype(sum_dtype(ad));
  if (ord.is_none() || ord.is(2)) return kumo::sqrt(reduce_rows(m, RowOp::kSumSquares)).astype(float_dtype(ad));
  if (!ord.is_number()) throw ValueError("Invalid norm order for vectors.");
  const double p = ord.value();
  return kumo::power(reduce_rows(m, RowOp::kSumPower, p), Scalar(1.0 / p)).astype(float_dtype(ad));
}

// The largest or smallest entry of a 1-d float64 array, as a 0-d array of dtype.
Array extreme(const Array& v, bool largest, Dtype dtype) {
  if (v.size() == 0)
    throw ValueError(std::string("zero-size array to reduction operation ") + (largest ? "maximum" : "minimum") +
                     " which has no identity");
  const double* p = reinterpret_cast<const double*>(v.data());
  const double r = largest ? *std::max_element(p, p + v.size()) : *std::min_element(p, p + v.size());
  return full(Shape{}, Scalar(r), Dtype::kFloat64, Order::kC, host_device()).astype(dtype);
}

Array frobenius(const CsrMatrix& c) {
  const Array v = abs_values(c.data);
  const double* p = reinterpret_cast<const double*>(v.data());
  // Scaled by the largest magnitude, so neither overflow nor underflow loses it.
  double scale = 0;
  for (int64_t k = 0; k < v.size(); ++k) scale = std::max(scale, p[k]);
  double ss = 0;
  if (scale > 0 && std::isfinite(scale))
    for (int64_t k = 0; k < v.size(); ++k) ss += (p[k] / scale) * (p[k] / scale);
  const double r = scale > 0 && std::isfinite(scale) ? scale * std::sqrt(ss) : scale;
  return full(Shape{}, Scalar(r), Dtype::kFloat64, Order::kC, host_device()).astype(float_dtype(abs_dtype(c.dtype())));
}

Array matrix_norm(const CsrMatrix& c, const NormOrder& ord, int64_t row_axis) {
  const Dtype sd = sum_dtype(abs_dtype(c.dtype()));
  // ord 1 sums along the row axis (column sums), inf along the column axis.
  const int64_t row_lines = row_axis == 0 ? 0 : 1, col_lines = 1 - row_lines;
  if (ord.is(1)) return extreme(reduce_rows(lines(c, row_lines), RowOp::kSumAbs), true, sd);
  if (ord.is(-1)) return extreme(reduce_rows(lines(c, row_lines), RowOp::kSumAbs), false, sd);
  if (ord.is(INFINITY)) return extreme(reduce_rows(lines(c, col_lines), RowOp::kSumAbs), true, sd);
  if (ord.is(-INFINITY)) return extreme(reduce_rows(lines(c, col_lines), RowOp::kSumAbs), false, sd);
  if (ord.is_none() || ord.is_fro()) return frobenius(c);
  if (ord.is(2)) {
    // The largest singular value, by svds as SciPy's (k = 1).
    const SvdsResult r = svds(aslinearoperator(c), 1, Which::kLM, std::nullopt, std::nullopt, std::nullopt, 0, false);
    return r.s.reshape(Shape{});
  }
  if (ord.is(-2)) throw NotImplementedError("kumo.sparse.linalg.norm: ord=-2 (the smallest singular value), as SciPy");
  throw ValueError("Invalid norm order for matrices.");
}

Array norm_of(const CsrMatrix& a, const NormOrder& ord, const std::vector<int64_t>& axis) {
  if (a.data.device().type() != DeviceType::kCPU) {
    // A device's matrix: duplicates summed there, the reductions on the host
    // (one copy of the canonical matrix), the norm back on the device.
    const CsrMatrix c = sum_duplicates(a);
    const CsrMatrix h{c.data.to_device("cpu"), c.indices.to_device("cpu"), c.indptr.to_device("cpu"), c.shape};
    return norm_of(h, ord, axis).to_device(a.data.device());
  }
  const CsrMatrix c = sum_duplicates(a);
  const auto invalid = [&] {
    std::string s = "(";
    for (size_t i = 0; i < axis.size(); ++i) s += (i ? ", " : "") + std::to_string(axis[i]);
    return ValueError("Invalid axis " + s + (axis.size() == 1 ? ",)" : ")") + " for an array with shape (" +
                      std::to_string(a.shape.rows) + ", " + std::to_string(a.shape.cols) + ")");
  };
  if (axis.empty()) return matrix_norm(c, ord, 0);
  for (int64_t ax : axis)
    if (ax < -2 || ax >= 2) throw invalid();
  if (axis.size() == 1) return vector_norm(c, ord, (axis[0] + 2) % 2);
  if (axis.size() == 2) {
    if ((axis[0] + 2) % 2 == (axis[1] + 2) % 2) throw ValueError("Duplicate axes given.");
    // A norm over (1, 0) is the norm of the transpose: 1 and inf swap.
    return matrix_norm(c, ord, (axis[0] + 2) % 2 == 0 ? 0 : 1);
  }
  throw ValueError("Improper number of dimensions to norm.");
}

}  // namespace

Array norm(const CsrMatrix& a, NormOrder ord, const std::vector<int64_t>& axis) { return norm_of(a, ord, axis); }
Array norm(const CscMatrix& a, NormOrder ord, const std::vector<int64_t>& axis) {
  return norm_of(tocsr(a), ord, axis);
}
Array norm(const CooMatrix& a, NormOrder ord, const std::vector<int64_t>& axis) {
  return norm_of(tocsr(a), ord, axis);
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
