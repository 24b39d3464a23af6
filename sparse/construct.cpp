// The construction functions of sparse/construct.h. They rearrange index
// and value arrays with kumo's array routines (which run on the arrays'
// device) and leave sorting and summing to the formats' conversions.
#include "sparse/construct.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/indexing.h"
#include "routines/manipulation.h"
#include "sparse/detail.h"

namespace kumo {
namespace sparse {

using detail::backend_of;
using detail::contiguous;
using detail::shape_str;

namespace {

Dtype promote_all(const std::vector<Dtype>& dtypes, Dtype fallback) {
  if (dtypes.empty()) return fallback;
  Dtype d = dtypes[0];
  for (Dtype e : dtypes) d = promote_types(d, e);
  return d;
}

// Concatenation of 1-d arrays, all cast to `dtype` (an empty list gives an empty array).
Array join(const std::vector<Array>& parts, Dtype dtype, Device& device) {
  if (parts.empty()) return Array::empty(Shape{0}, dtype, device);
  std::vector<Array> cast;
  cast.reserve(parts.size());
  for (const Array& p : parts) cast.push_back(p.dtype() == dtype ? p : p.astype(dtype));
  return concatenate(cast, 0);
}

}  // namespace

// ---------------------------------------------------------------- diagonals

DiaMatrix diags(const std::vector<Array>& diagonals, const std::vector<int64_t>& offsets, Shape2 shape, Dtype dtype) {
  const std::string call = "kumo::sparse::diags(shape=" + shape_str(shape) + ")";
  if (diagonals.size() != offsets.size()) throw ValueError(call + ": Different number of diagonals and offsets.");
  if (shape.rows < 0 || shape.cols < 0) throw ValueError(call + ": 'shape' elements cannot be negative");
  check_value_dtype(dtype, call.c_str());
  const int64_t m = shape.rows, n = shape.cols, nd = static_cast<int64_t>(offsets.size());
  Device& device = diagonals.empty() ? current_device() : diagonals[0].device();
  // Columns of data: the last column any diagonal reaches.
  int64_t width = 0;
  for (int64_t k : offsets) width = std::max(width, std::min(m + k, n - k) + std::max<int64_t>(0, k));
  const Array data = zeros(Shape{nd, width}, dtype, Order::kC, device);
  for (int64_t j = 0; j < nd; ++j) {
    const int64_t k = offsets[static_cast<size_t>(j)];
    const Array& d = diagonals[static_cast<size_t>(j)];
    const int64_t start = std::max<int64_t>(0, k), len = std::min({m + k, n - k, std::min(m, n)});
    if (len < 0)
      throw ValueError(call + ": Offset " + std::to_string(k) + " (index " + std::to_string(j) + ") out of bounds");
    if (d.ndim() != 1) throw ValueError(call + ": diagonal " + std::to_string(j) + " must be 1-d");
    if (d.size() != 1 && d.size() < len)
      throw ValueError(call + ": Diagonal length (index " + std::to_string(j) + ": " + std::to_string(d.size()) +
                       " at offset " + std::to_string(k) + ") does not agree with array size (" + std::to_string(m) +
                       ", " + std::to_string(n) + ").");
    const Array src = d.size() == 1 ? d : d.index({slice(0, len)});
    src.copy_to(data.index({IndexItem(j), slice(start, start + len)}));
  }
  return make_dia(data, detail::int64_array(offsets, device), shape);
}

DiaMatrix eye(Shape2 shape, int64_t k, Dtype dtype, Device& device) {
  const int64_t len = std::max<int64_t>(0, std::min(shape.rows + k, shape.cols));
  return diags({ones(Shape{len}, dtype, Order::kC, device)}, {k}, shape, dtype);
}

// ---------------------------------------------------------------- Kronecker

CooMatrix kron(const CooMatrix& a, const CooMatrix& b) {
  check_same_device({&a.data, &b.data});
  const Shape2 s{a.shape.rows * b.shape.rows, a.shape.cols * b.shape.cols};
  const Dtype dtype = promote_types(a.dtype(), b.dtype());
  Device& device = a.data.device();
  // SciPy's zero product is an empty float64 matrix, whatever the factors' dtypes.
  if (a.nnz() == 0 || b.nnz() == 0) return coo_empty(s, Dtype::kFloat64, device);
  const Dtype idx = index_dtype(std::max(s.rows, s.cols), a.row.dtype());
  const int64_t na = a.nnz(), nb = b.nnz();
  // Entry (p, q) of the product: entry p of a's block times entry q of b,
  // at a's place scaled by b's shape plus b's place.
  const auto place = [&](const Array& ai, int64_t extent, const Array& bi) {
    const Array scaled = multiply(ai.astype(idx), Scalar(extent)).reshape(Shape{na, 1});
    return add(scaled, bi.astype(idx).reshape(Shape{1, nb})).reshape(Shape{na * nb});
  };
  const Array data = multiply(a.data.reshape(Shape{na, 1}), b.data.reshape(Shape{1, nb})).reshape(Shape{na * nb});
  return CooMatrix{data, place(a.row, b.shape.rows, b.row), place(a.col, b.shape.cols, b.col), s, false};
}

BsrMatrix kron(const CsrMatrix& a, const Array& b) {
  if (b.ndim() != 2) throw ValueError("kumo::sparse::kron(csr, dense): the dense factor must be 2-d");
  check_same_device({&a.data, &b});
  const int64_t p = b.shape()[0], q = b.shape()[1], na = a.nnz();
  const Array blocks = multiply(a.data.reshape(Shape{na, 1, 1}), b.reshape(Shape{1, p, q}));
  return make_bsr(blocks, a.indices, a.indptr, Shape2{a.shape.rows * p, a.shape.cols * q});
}

CsrMatrix kronsum(const CooMatrix& a, const CooMatrix& b) {
  if (a.shape.rows != a.shape.cols) throw ValueError("kumo::sparse::kronsum: A is not square");
  if (b.shape.rows != b.shape.cols) throw ValueError("kumo::sparse::kronsum: B is not square");
  const Dtype dtype = promote_types(a.dtype(), b.dtype());
  Device& device = a.data.device();
  const CooMatrix eye_a = tocoo(eye({a.shape.rows, a.shape.rows}, 0, dtype, device));
  const CooMatrix eye_b = tocoo(eye({b.shape.rows, b.shape.rows}, 0, dtype, device));
  return add(tocsr(kron(eye_b, a)), tocsr(kron(b, eye_a)));
}

// ---------------------------------------------------------------- stacking

CooMatrix bmat(const std::vector<std::vector<std::optional<CooMatrix>>>& blocks, std::optional<Dtype> dtype) {
  const std::string call = "kumo::sparse::bmat";
  const int64_t nr = static_cast<int64_t>(blocks.size());
  const int64_t nc = nr == 0 ? 0 : static_cast<int64_t>(blocks[0].size());
  for (const auto& row : blocks)
    if (static_cast<int64_t>(row.size()) != nc) throw ValueError(call + ": blocks must be 2-D");
  // Heights of block rows and widths of block columns (0: not yet known).
  std::vector<int64_t> heights(static_cast<size_t>(nr), 0), widths(static_cast<size_t>(nc), 0);
  std::vector<Dtype> dtypes;
  bool wide = false;
  Device* device = nullptr;
  for (int64_t i = 0; i < nr; ++i)
    for (int64_t j = 0; j < nc; ++j) {
      const auto& b = blocks[static_cast<size_t>(i)][static_cast<size_t>(j)];
      if (!b) continue;
      device = &b->data.device();
      dtypes.push_back(b->dtype());
      wide = wide || b->row.dtype() == Dtype::kInt64;
      int64_t& h = heights[static_cast<size_t>(i)];
      int64_t& w = widths[static_cast<size_t>(j)];
      const std::string at = "[" + std::to_string(i) + "," + std::to_string(j) + "]";
      if (h == 0)
        h = b->shape.rows;
      else if (h != b->shape.rows)
        throw ValueError(call + ": blocks[" + std::to_string(i) + ",:] has incompatible row dimensions. Got blocks" +
                         at + ".shape[0] == " + std::to_string(b->shape.rows) + ", expected " + std::to_string(h) +
                         ".");
      if (w == 0)
        w = b->shape.cols;
      else if (w != b->shape.cols)
        throw ValueError(call + ": blocks[:," + std::to_string(j) + "] has incompatible column dimensions. Got blocks" +
                         at + ".shape[1] == " + std::to_string(b->shape.cols) + ", expected " + std::to_string(w) +
                         ".");
    }
  Device& dev = device ? *device : current_device();
  const Dtype out_dtype = dtype ? *dtype : promote_all(dtypes, Dtype::kFloat64);
  std::vector<int64_t> row_at(static_cast<size_t>(nr + 1), 0), col_at(static_cast<size_t>(nc + 1), 0);
  for (int64_t i = 0; i < nr; ++i)
    row_at[static_cast<size_t>(i + 1)] = row_at[static_cast<size_t>(i)] + heights[static_cast<size_t>(i)];
  for (int64_t j = 0; j < nc; ++j)
    col_at[static_cast<size_t>(j + 1)] = col_at[static_cast<size_t>(j)] + widths[static_cast<size_t>(j)];
  const Shape2 s{row_at.back(), col_at.back()};
  const Dtype idx = index_dtype(std::max(s.rows, s.cols), wide ? Dtype::kInt64 : Dtype::kInt32);
  std::vector<Array> data, row, col;
  for (int64_t i = 0; i < nr; ++i)
    for (int64_t j = 0; j < nc; ++j) {
      const auto& b = blocks[static_cast<size_t>(i)][static_cast<size_t>(j)];
      if (!b || b->nnz() == 0) continue;
      data.push_back(b->data);
      row.push_back(add(b->row.astype(idx), Scalar(row_at[static_cast<size_t>(i)])));
      col.push_back(add(b->col.astype(idx), Scalar(col_at[static_cast<size_t>(j)])));
    }
  return CooMatrix{join(data, out_dtype, dev), join(row, idx, dev), join(col, idx, dev), s, false};
}

namespace {

// What stacking compressed matrices needs to know of them: their extents
// along the stacking axis and across it (which must agree), entries, value
// dtype, and whether an indptr is int64 (which keeps the result int64).
struct StackTotals {
  int64_t along = 0, across = 0, nnz = 0;
  bool wide = false;
  Dtype dtype = Dtype::kFloat64;
};

StackTotals stack_totals(const std::vector<Compressed>& parts, bool along_major, const char* call) {
  StackTotals t;
  t.across = along_major ? parts[0].n_minor : parts[0].n_major;
  std::vector<Dtype> dtypes;
  for (const Compressed& p : parts) {
    if ((along_major ? p.n_minor : p.n_major) != t.across)
      throw ValueError(std::string(call) + ": incompatible dimensions of the stacked blocks");
    t.wide = t.wide || p.indptr.dtype() == Dtype::kInt64;
    t.along += along_major ? p.n_major : p.n_minor;
    t.nnz += p.data.size();
    dtypes.push_back(p.data.dtype());
  }
  t.dtype = promote_all(dtypes, Dtype::kFloat64);
  return t;
}

// Compressed matrices one after another along the major axis: the arrays
// concatenated, each indptr shifted by the entries before it.
Compressed stack_major(const std::vector<Compressed>& parts, const char* call) {
  if (parts.empty()) throw ValueError(std::string(call) + ": blocks must not be empty");
  const StackTotals t = stack_totals(parts, true, call);
  const Dtype idx = index_dtype(std::max(t.nnz, t.across), t.wide ? Dtype::kInt64 : Dtype::kInt32);
  Device& device = parts[0].data.device();
  std::vector<Array> data, indices, indptr;
  int64_t before = 0;
  for (const Compressed& p : parts) {
    data.push_back(p.data);
    indices.push_back(p.indices);
    indptr.push_back(add(p.indptr.astype(idx).index({slice(0, p.n_major)}), Scalar(before)));
    before += p.data.size();
  }
  indptr.push_back(full(Shape{1}, Scalar(before), idx, Order::kC, device));
  return Compressed{join(data, t.dtype, device), join(indices, idx, device), join(indptr, idx, device), t.along,
                    t.across};
}

// Compressed matrices side by side along the minor axis: row r of the
// result is row r of every block in turn, indices shifted by the widths
// before (the rows come out sorted by index).
Compressed stack_minor(const std::vector<Compressed>& parts, const char* call) {
  if (parts.empty()) throw ValueError(std::string(call) + ": Missing block matrices");
  if (parts.size() == 1) return parts[0];
  const StackTotals t = stack_totals(parts, false, call);
  const Dtype idx = index_dtype(std::max(t.along - 1, t.nnz), t.wide ? Dtype::kInt64 : Dtype::kInt32);
  Device& device = parts[0].data.device();
  SparseBackend& be = backend_of(parts[0].data, call);
  std::vector<Array> data, majors, minors;
  int64_t before = 0;
  for (const Compressed& p : parts) {
    data.push_back(p.data);
    majors.push_back(be.expand_major(p.indptr, p.data.size()));
    minors.push_back(add(p.indices.astype(idx), Scalar(before)));
    before += p.n_minor;
  }
  return be.compress(join(majors, idx, device), join(minors, idx, device), join(data, t.dtype, device), t.across,
                     t.along, false, idx);
}

template <class M>
std::vector<Compressed> forms(const std::vector<M>& blocks) {
  std::vector<Compressed> out;
  out.reserve(blocks.size());
  for (const M& b : blocks) out.push_back(detail::major_form(b));
  return out;
}

}  // namespace

CsrMatrix vstack(const std::vector<CsrMatrix>& blocks) {
  return detail::as_csr(stack_major(forms(blocks), "kumo::sparse::vstack(csr)"));
}
CscMatrix hstack(const std::vector<CscMatrix>& blocks) {
  return detail::as_csc(stack_major(forms(blocks), "kumo::sparse::hstack(csc)"));
}
CsrMatrix hstack(const std::vector<CsrMatrix>& blocks) {
  return detail::as_csr(stack_minor(forms(blocks), "kumo::sparse::hstack(csr)"));
}
CscMatrix vstack(const std::vector<CscMatrix>& blocks) {
  return detail::as_csc(stack_minor(forms(blocks), "kumo::sparse::vstack(csc)"));
}

CooMatrix block_diag(const std::vector<CooMatrix>& blocks, bool wide_index) {
  std::vector<std::vector<std::optional<CooMatrix>>> grid(blocks.size(),
                                                          std::vector<std::optional<CooMatrix>>(blocks.size()));
  for (size_t i = 0; i < blocks.size(); ++i) grid[i][i] = blocks[i];
  CooMatrix out = bmat(grid);
  // bmat leaves empty block rows and columns out of the shape; block_diag's
  // blocks give every one its extent, so zero-sized blocks keep their place.
  int64_t rows = 0, cols = 0;
  for (const CooMatrix& b : blocks) {
    rows += b.shape.rows;
    cols += b.shape.cols;
  }
  out.shape = {rows, cols};
  const Dtype idx = index_dtype(std::max(rows, cols), wide_index ? Dtype::kInt64 : Dtype::kInt32);
  if (out.row.dtype() != idx) {
    out.row = out.row.astype(idx);
    out.col = out.col.astype(idx);
  }
  return out;
}

CooMatrix coo_all_entries(const Array& dense) {
  if (dense.ndim() != 2) throw ValueError("kumo::sparse::coo_all_entries: expected a 2-d array");
  check_value_dtype(dense.dtype(), "kumo::sparse::coo_all_entries");
  const int64_t m = dense.shape()[0], n = dense.shape()[1];
  const Dtype idx = index_dtype(std::max(m, n));
  Device& device = dense.device();
  const Array flat = arange(Scalar(m * n), Dtype::kInt64, device);
  return CooMatrix{contiguous(dense).reshape(Shape{m * n}),
                   floor_divide(flat, Scalar(std::max<int64_t>(n, 1))).astype(idx),
                   remainder(flat, Scalar(std::max<int64_t>(n, 1))).astype(idx),
                   {m, n},
                   true};
}

// ---------------------------------------------------------------- triangles and find

namespace {
CooMatrix keep(const CooMatrix& a, const Array& mask) {
  return CooMatrix{extract(mask, a.data), extract(mask, a.row), extract(mask, a.col), a.shape, false};
}
}  // namespace

CooMatrix tril(const CooMatrix& a, int64_t k) {
  return keep(a, greater_equal(add(a.row.astype(Dtype::kInt64), Scalar(k)), a.col));
}
CooMatrix triu(const CooMatrix& a, int64_t k) {
  return keep(a, less_equal(add(a.row.astype(Dtype::kInt64), Scalar(k)), a.col));
}

std::tuple<Array, Array, Array> find(const CooMatrix& a) {
  const CooMatrix c = eliminate_zeros(sum_duplicates(a));
  return {c.row, c.col, c.data};
}

// ---------------------------------------------------------------- random

namespace {

// `count` distinct values of [0, total) in random order: a partial shuffle
// of the whole range when they are a large share of a small range, else
// Floyd's sampling (memory in proportion to `count`, not to the range).
std::vector<int64_t> distinct_sample(int64_t total, int64_t count, std::mt19937_64& gen) {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(count));
  if (count * 4 >= total && total <= (int64_t{1} << 24)) {
    std::vector<int64_t> all(static_cast<size_t>(total));
    for (int64_t i = 0; i < total; ++i) all[static_cast<size_t>(i)] = i;
    for (int64_t i = 0; i < count; ++i) {
      std::uniform_int_distribution<int64_t> pick(i, total - 1);
      std::swap(all[static_cast<size_t>(i)], all[static_cast<size_t>(pick(gen))]);
    }
    all.resize(static_cast<size_t>(count));
    return all;
  }
  std::unordered_set<int64_t> seen;
  seen.reserve(static_cast<size_t>(count) * 2);
  for (int64_t j = total - count; j < total; ++j) {
    std::uniform_int_distribution<int64_t> pick(0, j);
    const int64_t t = pick(gen);
    out.push_back(seen.insert(t).second ? t : j);
    if (out.back() == j) seen.insert(j);
  }
  std::shuffle(out.begin(), out.end(), gen);
  return out;
}

template <class T>
void fill_values(T* out, int64_t n, std::mt19937_64& gen) {
  if constexpr (std::is_same_v<T, bool>) {
    std::fill(out, out + n, true);
  } else if constexpr (std::is_integral_v<T>) {
    // The dtype's range [min, max), as SciPy's integer sampler.
    std::uniform_int_distribution<T> u(std::numeric_limits<T>::min(), std::numeric_limits<T>::max() - 1);
    for (int64_t i = 0; i < n; ++i) out[i] = u(gen);
  } else if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(u(gen));
  } else {
    using R = typename T::value_type;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int64_t i = 0; i < n; ++i) {
      const double re = u(gen), im = u(gen);
      out[i] = T(static_cast<R>(re), static_cast<R>(im));
    }
  }
}

template <class T>
void fill_small_int(T* out, int64_t n, std::mt19937_64& gen) {
  // uniform_int_distribution takes no 8-bit types.
  std::uniform_int_distribution<int> u(std::numeric_limits<T>::min(), std::numeric_limits<T>::max() - 1);
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(u(gen));
}

Array random_values(int64_t n, Dtype dtype, std::mt19937_64& gen) {
  Array out = Array::empty(Shape{n}, dtype, host_device());
  void* p = out.data();
  switch (dtype) {
    case Dtype::kBool:
      fill_values(static_cast<bool*>(p), n, gen);
      break;
    case Dtype::kInt8:
      fill_small_int(static_cast<int8_t*>(p), n, gen);
      break;
    case Dtype::kUInt8:
      fill_small_int(static_cast<uint8_t*>(p), n, gen);
      break;
    case Dtype::kInt16:
      fill_values(static_cast<int16_t*>(p), n, gen);
      break;
    case Dtype::kUInt16:
      fill_values(static_cast<uint16_t*>(p), n, gen);
      break;
    case Dtype::kInt32:
      fill_values(static_cast<int32_t*>(p), n, gen);
      break;
    case Dtype::kUInt32:
      fill_values(static_cast<uint32_t*>(p), n, gen);
      break;
    case Dtype::kInt64:
      fill_values(static_cast<int64_t*>(p), n, gen);
      break;
    case Dtype::kUInt64:
      fill_values(static_cast<uint64_t*>(p), n, gen);
      break;
    case Dtype::kFloat32:
      fill_values(static_cast<float*>(p), n, gen);
      break;
    case Dtype::kFloat64:
      fill_values(static_cast<double*>(p), n, gen);
      break;
    case Dtype::kComplex64:
      fill_values(static_cast<std::complex<float>*>(p), n, gen);
      break;
    case Dtype::kComplex128:
      fill_values(static_cast<std::complex<double>*>(p), n, gen);
      break;
    default:
      throw TypeError(std::string("kumo::sparse::random: unsupported dtype ") + dtype_name(dtype));
  }
  return out;
}

}  // namespace

CooMatrix random(Shape2 shape, double density, Dtype dtype, uint64_t seed, Device& device) {
  const std::string call = "kumo::sparse::random(shape=" + shape_str(shape) + ")";
  if (!(density >= 0.0 && density <= 1.0)) throw ValueError(call + ": density expected to be 0 <= density <= 1");
  if (shape.rows < 0 || shape.cols < 0) throw ValueError(call + ": 'shape' elements cannot be negative");
  check_value_dtype(dtype, call.c_str());
  const int64_t total = shape.rows * shape.cols;
  // Python's round: halves to even.
  const int64_t count = static_cast<int64_t>(std::nearbyint(density * static_cast<double>(total)));
  std::mt19937_64 gen(seed);
  const std::vector<int64_t> places = distinct_sample(total, count, gen);
  const Dtype idx = index_dtype(std::max(shape.rows, shape.cols));
  Array row = Array::empty(Shape{count}, Dtype::kInt64, host_device());
  Array col = Array::empty(Shape{count}, Dtype::kInt64, host_device());
  auto* r = reinterpret_cast<int64_t*>(row.data());
  auto* c = reinterpret_cast<int64_t*>(col.data());
  // Places count down the columns (Fortran order), as SciPy unravels them.
  for (int64_t i = 0; i < count; ++i) {
    r[i] = places[static_cast<size_t>(i)] % shape.rows;
    c[i] = places[static_cast<size_t>(i)] / shape.rows;
  }
  const Array values = random_values(count, dtype, gen);
  return CooMatrix{values.to_device(device), row.astype(idx).to_device(device), col.astype(idx).to_device(device),
                   shape, false};
}

}  // namespace sparse
}  // namespace kumo
