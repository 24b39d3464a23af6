// The DIA and BSR formats (sparse/dia_bsr.h): construction and validation,
// conversions, transposes and products. Kernels are the backend's; the
// rearrangements that are plain array work (DIA transpose, BSR -> COO,
// block permutations) use kumo's array routines, which run on the arrays'
// device.
#include "sparse/dia_bsr.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/indexing.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"
#include "sparse/detail.h"

namespace kumo {
namespace sparse {

using detail::backend_of;
using detail::contiguous;
using detail::contiguous_as;
using detail::major_form;
using detail::shape_str;
using Blocksize = std::pair<int64_t, int64_t>;

namespace detail {
Array int64_array(const std::vector<int64_t>& values, Device& device) {
  Array host = Array::empty(Shape{static_cast<int64_t>(values.size())}, Dtype::kInt64, host_device());
  std::copy(values.begin(), values.end(), reinterpret_cast<int64_t*>(host.data()));
  return host.to_device(device);
}
}  // namespace detail

namespace {

std::string blocksize_str(Blocksize b) { return "(" + std::to_string(b.first) + ", " + std::to_string(b.second) + ")"; }

void check_shape(Shape2 s, const std::string& call) {
  if (s.rows < 0 || s.cols < 0) throw ValueError(call + ": shape " + shape_str(s) + " has a negative extent");
}

// The blocks of a BSR matrix as the backend's compressed form.
Compressed block_form(const BsrMatrix& a) {
  return Compressed{a.data, a.indices, a.indptr, a.shape.rows / a.block_rows(), a.shape.cols / a.block_cols()};
}

BsrMatrix as_bsr(const Compressed& c, int64_t r, int64_t cc) {
  return BsrMatrix{c.data, c.indices, c.indptr, {c.n_major * r, c.n_minor * cc}};
}

// The dense operand x of a @ x as (n, p) in `dtype`, validated.
Array dense_operand(const Array& data, const Array& x, Shape2 shape, Dtype* dtype, const char* call) {
  check_same_device({&data, &x});
  const auto dims = [&x] {
    std::string s = "(";
    for (int i = 0; i < x.ndim(); ++i) s += (i ? ", " : "") + std::to_string(x.shape()[i]);
    return s + (x.ndim() == 1 ? ",)" : ")");
  };
  if (x.ndim() != 1 && x.ndim() != 2)
    throw ValueError(std::string(call) + ": expected a 1-d or 2-d dense operand, got shape " + dims());
  if (x.shape()[0] != shape.cols)
    throw ValueError(std::string(call) + ": dimension mismatch: matrix " + shape_str(shape) + " and operand " + dims());
  *dtype = promote_types(data.dtype(), x.dtype());
  check_value_dtype(*dtype, call);
  return contiguous_as(x, *dtype).reshape(Shape{shape.cols, x.ndim() == 1 ? 1 : x.shape()[1]});
}

Array cast_data(const Array& data, Dtype dtype) {
  check_value_dtype(dtype, "kumo::sparse::astype");
  return data.dtype() == dtype ? data : data.astype(dtype);
}
Array conj_data(const Array& data) { return is_complex(data.dtype()) ? conjugate(data) : data; }

}  // namespace

// ---------------------------------------------------------------- DIA

int64_t DiaMatrix::nnz() const {
  const int64_t width = std::min(data.ndim() == 2 ? data.shape()[1] : int64_t{0}, shape.cols);
  int64_t n = 0;
  for (int64_t k : offsets.to_vector<int64_t>())
    n += std::max<int64_t>(std::min(shape.rows + k, width) - std::max<int64_t>(k, 0), 0);
  return n;
}

DiaMatrix make_dia(const Array& data_in, const Array& offsets_in, Shape2 shape) {
  const std::string call = "kumo::sparse::make_dia(data, offsets, shape=" + shape_str(shape) + ")";
  check_same_device({&data_in, &offsets_in});
  check_shape(shape, call);
  check_value_dtype(data_in.dtype(), call.c_str());
  if (!is_integer(offsets_in.dtype()))
    throw TypeError(call + ": offsets must be integers, not " + dtype_name(offsets_in.dtype()));
  Array data = data_in.ndim() < 2 ? data_in.reshape(Shape{1, data_in.size()}) : data_in;
  const Array offsets = offsets_in.ndim() == 0 ? offsets_in.reshape(Shape{1}) : offsets_in;
  if (offsets.ndim() != 1) throw ValueError(call + ": offsets array must have rank 1");
  if (data.ndim() != 2) throw ValueError(call + ": data array must have rank 2");
  if (data.shape()[0] != offsets.size())
    throw ValueError(call + ": number of diagonals (" + std::to_string(data.shape()[0]) +
                     ") does not match the number of offsets (" + std::to_string(offsets.size()) + ")");
  std::vector<int64_t> k = offsets.to_vector<int64_t>();
  std::sort(k.begin(), k.end());
  if (std::adjacent_find(k.begin(), k.end()) != k.end())
    throw ValueError(call + ": offset array contains duplicate values");
  const Dtype idx = index_dtype(std::max(shape.rows, shape.cols));
  // Offsets are stored in the index dtype; one it cannot hold would wrap
  // into another diagonal.
  if (!k.empty() && idx == Dtype::kInt32 &&
      (k.front() < std::numeric_limits<int32_t>::min() || k.back() > std::numeric_limits<int32_t>::max()))
    throw ValueError(call + ": offset " + std::to_string(k.front() < 0 ? k.front() : k.back()) +
                     " does not fit the index dtype int32");
  return DiaMatrix{contiguous(data), contiguous_as(offsets, idx), shape};
}

DiaMatrix dia_empty(Shape2 shape, Dtype dtype, Device& device) {
  check_shape(shape, "kumo::sparse::dia_empty(shape=" + shape_str(shape) + ")");
  check_value_dtype(dtype, "kumo::sparse::dia_empty");
  return DiaMatrix{Array::empty(Shape{0, 0}, dtype, device),
                   Array::empty(Shape{0}, index_dtype(std::max(shape.rows, shape.cols)), device), shape};
}

CsrMatrix tocsr(const DiaMatrix& a) {
  const char* call = "kumo::sparse::tocsr(dia)";
  const Shape2 s = a.shape;
  const int64_t most = std::max({a.nnz(), s.rows, s.cols});
  Compressed c =
      backend_of(a.data, call)
          .dia_to_csr(contiguous(a.data), contiguous_as(a.offsets, Dtype::kInt64), s.rows, s.cols, index_dtype(most));
  // The index dtype SciPy ends with: that of the entries kept (zeros dropped).
  const Dtype idx = index_dtype(std::max({c.data.size(), s.rows, s.cols}));
  return CsrMatrix{c.data, contiguous_as(c.indices, idx), contiguous_as(c.indptr, idx), s};
}

CooMatrix tocoo(const DiaMatrix& a) { return tocoo(tocsr(a)); }
CscMatrix tocsc(const DiaMatrix& a) { return tocsc(tocsr(a)); }
Array toarray(const DiaMatrix& a) { return toarray(tocsr(a)); }

DiaMatrix todia(const CooMatrix& a_in) {
  const CooMatrix a = sum_duplicates(a_in);
  Device& device = a.data.device();
  const Dtype idx = index_dtype(std::max(a.shape.rows, a.shape.cols));
  if (a.nnz() == 0)
    return DiaMatrix{Array::empty(Shape{0, 0}, a.dtype(), device), Array::empty(Shape{0}, idx, device), a.shape};
  // Diagonal col - row, shifted by rows - 1 to index the rows + cols - 1 possible ones.
  const Array row = a.row.astype(Dtype::kInt64), col = a.col.astype(Dtype::kInt64);
  const Array slot = add(subtract(col, row), Scalar(a.shape.rows - 1));
  const Array present = zeros(Shape{a.shape.rows + a.shape.cols - 1}, Dtype::kBool, Order::kC, device);
  setitem(present, {Index(slot)}, Scalar(true));
  const Array offsets = subtract(flatnonzero(present), Scalar(a.shape.rows - 1));
  const Array which =
      take(subtract(cumsum(present, std::nullopt, ReduceOptions().dtype(Dtype::kInt64)), Scalar(int64_t{1})), slot);
  const int64_t width = max(col).item<int64_t>() + 1;
  const Array data = zeros(Shape{offsets.size(), width}, a.dtype(), Order::kC, device);
  setitem(data, {Index(which), Index(col)}, a.data);
  return DiaMatrix{data, offsets.astype(idx), a.shape};
}

DiaMatrix todia(const CsrMatrix& a) { return todia(tocoo(a)); }
DiaMatrix todia(const CscMatrix& a) { return todia(tocoo(a)); }
DiaMatrix todia(const DiaMatrix& a) { return a; }

// Diagonal k of A^T is diagonal -k of A: entry (i, i - k) of A^T, column i of
// the new data, is entry (i - k, i) of A, data[d, i] with i in [0, rows).
DiaMatrix transpose(const DiaMatrix& a) {
  const int64_t nd = a.offsets.size(), len = a.data.shape()[1], rows = a.shape.rows;
  Device& device = a.data.device();
  Array data = zeros(Shape{nd, rows}, a.dtype(), Order::kC, device);
  if (len > 0 && nd > 0 && rows > 0) {
    const Array j = add(arange(Scalar(rows), Dtype::kInt64, device).reshape(Shape{1, rows}),
                        a.offsets.astype(Dtype::kInt64).reshape(Shape{nd, 1}));
    const Array inside = logical_and(greater_equal(j, Scalar(0)), less(j, Scalar(len)));
    const Array gathered = take_along_axis(a.data, clip(j, Scalar(0), Scalar(len - 1)), 1);
    data = where(inside, gathered, zeros(Shape{1}, a.dtype(), Order::kC, device));
  }
  return DiaMatrix{data, negative(a.offsets), {a.shape.cols, a.shape.rows}};
}

DiaMatrix astype(const DiaMatrix& a, Dtype dtype) { return DiaMatrix{cast_data(a.data, dtype), a.offsets, a.shape}; }
DiaMatrix conj(const DiaMatrix& a) { return DiaMatrix{conj_data(a.data), a.offsets, a.shape}; }
DiaMatrix multiply(const DiaMatrix& a, Scalar s) { return DiaMatrix{kumo::multiply(a.data, s), a.offsets, a.shape}; }

Array diagonal(const DiaMatrix& a, int64_t k) {
  const int64_t rows = a.shape.rows, cols = a.shape.cols;
  Device& device = a.data.device();
  if (k <= -rows || k >= cols) return Array::empty(Shape{0}, a.dtype(), device);
  const int64_t first = std::max<int64_t>(0, k), last = std::min(rows + k, cols);
  Array out = zeros(Shape{last - first}, a.dtype(), Order::kC, device);
  const std::vector<int64_t> offs = a.offsets.to_vector<int64_t>();
  const auto it = std::find(offs.begin(), offs.end(), k);
  const int64_t end = std::min(last, a.data.shape()[1]);
  if (it != offs.end() && end > first) {
    const int64_t d = it - offs.begin();
    a.data.index({IndexItem(d), slice(first, end)}).copy_to(out.index({slice(0, end - first)}));
  }
  return out;
}

namespace {

void check_same_shape(Shape2 a, Shape2 b, const char* name) {
  if (a != b)
    throw ValueError(std::string("kumo::sparse::") + name + "(dia " + shape_str(a) + ", dia " + shape_str(b) +
                     "): inconsistent shapes");
}

// Where each of `part` sits in `sorted`.
Array positions(const std::vector<int64_t>& part, const std::vector<int64_t>& sorted, Device& device) {
  std::vector<int64_t> at(part.size());
  for (size_t i = 0; i < part.size(); ++i)
    at[i] = std::lower_bound(sorted.begin(), sorted.end(), part[i]) - sorted.begin();
  return detail::int64_array(at, device);
}

DiaMatrix dia_sum(const DiaMatrix& a, const DiaMatrix& b, bool minus) {
  const char* name = minus ? "subtract" : "add";
  check_same_device({&a.data, &b.data});
  check_same_shape(a.shape, b.shape, name);
  const auto combine = [minus](const Array& x, const Array& y) { return minus ? subtract(x, y) : add(x, y); };
  const std::vector<int64_t> ka = a.offsets.to_vector<int64_t>(), kb = b.offsets.to_vector<int64_t>();
  if (ka == kb && a.data.shape() == b.data.shape()) return DiaMatrix{combine(a.data, b.data), a.offsets, a.shape};
  std::vector<int64_t> merged(ka);
  merged.insert(merged.end(), kb.begin(), kb.end());
  std::sort(merged.begin(), merged.end());
  merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
  const int64_t wa = a.data.shape()[1], wb = b.data.shape()[1];
  // SciPy's width: the operands' when they agree and one holds every
  // offset, else the last column the highest diagonal reaches.
  const bool one_holds_all = merged.size() == ka.size() || merged.size() == kb.size();
  // (No diagonal on either side: nothing to hold, width 0.)
  const int64_t width = wa == wb && one_holds_all ? wa
                        : merged.empty()          ? 0
                                                  : std::max<int64_t>(0, std::min(a.shape.rows + merged.back(), a.shape.cols));
  Device& device = a.data.device();
  const Dtype dtype = promote_types(a.dtype(), b.dtype());
  const Array data = zeros(Shape{static_cast<int64_t>(merged.size()), width}, dtype, Order::kC, device);
  const auto place = [&](const DiaMatrix& m, const std::vector<int64_t>& k, bool negate) {
    const int64_t w = std::min(width, m.data.shape()[1]);
    if (k.empty() || w == 0) return;
    const std::vector<Index> where{Index(positions(k, merged, device)), Index(slice(0, w))};
    const Array part = m.data.index({kumo::all(), slice(0, w)});
    setitem(data, where, negate ? subtract(getitem(data, where), part) : add(getitem(data, where), part));
  };
  place(a, ka, false);
  place(b, kb, minus);
  return DiaMatrix{data, detail::int64_array(merged, device).astype(a.offsets.dtype()), a.shape};
}

}  // namespace

DiaMatrix add(const DiaMatrix& a, const DiaMatrix& b) { return dia_sum(a, b, false); }
DiaMatrix subtract(const DiaMatrix& a, const DiaMatrix& b) { return dia_sum(a, b, true); }

DiaMatrix multiply(const DiaMatrix& a, const DiaMatrix& b) {
  check_same_device({&a.data, &b.data});
  check_same_shape(a.shape, b.shape, "multiply");
  const std::vector<int64_t> ka = a.offsets.to_vector<int64_t>(), kb = b.offsets.to_vector<int64_t>();
  // The common offsets, sorted; only the overlapping columns can hold products.
  std::vector<int64_t> common, ia, ib;
  for (size_t i = 0; i < ka.size(); ++i) {
    const auto it = std::find(kb.begin(), kb.end(), ka[i]);
    if (it != kb.end()) common.push_back(ka[i]);
  }
  std::sort(common.begin(), common.end());
  for (int64_t k : common) {
    ia.push_back(std::find(ka.begin(), ka.end(), k) - ka.begin());
    ib.push_back(std::find(kb.begin(), kb.end(), k) - kb.begin());
  }
  Device& device = a.data.device();
  const int64_t w = std::min(a.data.shape()[1], b.data.shape()[1]);
  const Array da = take(a.data.index({kumo::all(), slice(0, w)}), detail::int64_array(ia, device), 0);
  const Array db = take(b.data.index({kumo::all(), slice(0, w)}), detail::int64_array(ib, device), 0);
  return DiaMatrix{kumo::multiply(da, db), detail::int64_array(common, device).astype(a.offsets.dtype()), a.shape};
}

DiaMatrix multiply(const DiaMatrix& a, const Array& dense) {
  const std::string call = "kumo::sparse::multiply(dia " + shape_str(a.shape) + ", dense)";
  check_same_device({&a.data, &dense});
  if (dense.ndim() > 2) throw ValueError(call + ": the dense operand must be at most 2-d");
  const Array other = dense.ndim() == 2 ? dense : dense.reshape(Shape{1, dense.ndim() == 1 ? dense.size() : 1});
  const int64_t orows = other.shape()[0], ocols = other.shape()[1];
  if ((orows != 1 && orows != a.shape.rows) || (ocols != 1 && ocols != a.shape.cols))
    throw ValueError(call + ": inconsistent shapes");
  const int64_t nd = a.offsets.size(), width = std::min(a.data.shape()[1], a.shape.cols);
  Device& device = a.data.device();
  const Dtype dtype = promote_types(a.dtype(), other.dtype());
  // data[d, j] meets other[j - k_d, j]; places outside the matrix get zero.
  const Array full_other = broadcast_to(other, Shape{a.shape.rows, a.shape.cols});
  const Array j = arange(Scalar(width), Dtype::kInt64, device).reshape(Shape{1, width});
  const Array i = subtract(j, a.offsets.astype(Dtype::kInt64).reshape(Shape{nd, 1}));
  const Array inside = logical_and(greater_equal(i, Scalar(0)), less(i, Scalar(a.shape.rows)));
  const Array i_safe = clip(i, Scalar(0), Scalar(std::max<int64_t>(a.shape.rows - 1, 0)));
  Array data = zeros(Shape{nd, width}, dtype, Order::kC, device);
  if (nd > 0 && width > 0 && a.shape.rows > 0) {
    const Array gathered = getitem(full_other, {Index(i_safe), Index(broadcast_to(j, Shape{nd, width}).copy())});
    const Array product = kumo::multiply(a.data.index({kumo::all(), slice(0, width)}), gathered);
    data = where(inside, product, zeros(Shape{1}, dtype, Order::kC, device)).astype(dtype);
  }
  return DiaMatrix{data, a.offsets, a.shape};
}

Array matmul(const DiaMatrix& a, const Array& x) {
  const char* call = "kumo::sparse::matmul(dia, x)";
  Dtype dtype;
  const Array x2 = dense_operand(a.data, x, a.shape, &dtype, call);
  Array y = backend_of(a.data, call)
                .dia_spmm(contiguous_as(a.data, dtype), contiguous_as(a.offsets, Dtype::kInt64), a.shape.rows,
                          a.shape.cols, x2);
  return x.ndim() == 1 ? y.reshape(Shape{a.shape.rows}) : y;
}

// ---------------------------------------------------------------- BSR

int64_t BsrMatrix::block_rows() const { return data.shape()[1]; }
int64_t BsrMatrix::block_cols() const { return data.shape()[2]; }
int64_t BsrMatrix::nnz() const { return data.shape()[0] * block_rows() * block_cols(); }

BsrMatrix make_bsr(const Array& data_in, const Array& indices, const Array& indptr, std::optional<Shape2> shape,
                   std::optional<Blocksize> blocksize) {
  const std::string call =
      "kumo::sparse::make_bsr(data, indices, indptr" + (shape ? ", shape=" + shape_str(*shape) : std::string()) + ")";
  check_same_device({&data_in, &indices, &indptr});
  check_value_dtype(data_in.dtype(), call.c_str());
  if (data_in.ndim() != 3)
    throw ValueError(call + ": BSR data must be 3-dimensional, got " + std::to_string(data_in.ndim()) + "-d");
  const int64_t r = data_in.shape()[1], c = data_in.shape()[2];
  if (blocksize && *blocksize != Blocksize{r, c})
    throw ValueError(call + ": mismatching blocksize=" + blocksize_str(*blocksize) + " vs " + blocksize_str({r, c}));
  if (r < 1 || c < 1) throw ValueError(call + ": invalid blocksize " + blocksize_str({r, c}));
  std::optional<Shape2> block_shape;
  if (shape) {
    check_shape(*shape, call);
    if (shape->rows % r != 0 || shape->cols % c != 0)
      throw ValueError(call + ": shape must be multiple of blocksize " + blocksize_str({r, c}));
    block_shape = Shape2{shape->rows / r, shape->cols / c};
  } else if (indices.size() == 0) {
    throw ValueError(call + ": unable to infer matrix dimensions");
  }
  // The block structure is a CSR matrix whose entries are blocks: its checks
  // are CSR's, run on one value per block.
  CsrMatrix structure;
  try {
    structure = make_csr(contiguous(data_in.index({all(), IndexItem(0), IndexItem(0)})), indices, indptr, block_shape);
  } catch (const ValueError& e) {
    std::string what = e.what();
    const std::string::size_type at = what.find(": ");
    throw ValueError(call + (at == std::string::npos ? ": " + what : what.substr(at)));
  }
  const int64_t blocks = structure.nnz();
  Array data = contiguous(data_in);
  if (blocks < data.shape()[0]) data = data.index({slice(0, blocks)});
  const Shape2 s{structure.shape.rows * r, structure.shape.cols * c};
  // int64 input stays int64; else the extents decide (not the block counts).
  const Dtype idx = index_dtype(std::max({s.rows, s.cols, blocks}), structure.indices.dtype());
  return BsrMatrix{data, contiguous_as(structure.indices, idx), contiguous_as(structure.indptr, idx), s};
}

BsrMatrix bsr_empty(Shape2 shape, Blocksize blocksize, Dtype dtype, Device& device) {
  const std::string call = "kumo::sparse::bsr_empty(shape=" + shape_str(shape) + ")";
  check_shape(shape, call);
  check_value_dtype(dtype, call.c_str());
  const auto [r, c] = blocksize;
  if (r < 1 || c < 1) throw ValueError(call + ": invalid blocksize=" + blocksize_str(blocksize));
  if (shape.rows % r != 0 || shape.cols % c != 0) throw ValueError(call + ": shape must be multiple of blocksize");
  const Dtype idx = index_dtype(std::max({shape.rows / r, shape.cols / c, r, c}));
  return BsrMatrix{Array::empty(Shape{0, r, c}, dtype, device), Array::empty(Shape{0}, idx, device),
                   zeros(Shape{shape.rows / r + 1}, idx, Order::kC, device), shape};
}

CsrMatrix tocsr(const BsrMatrix& a) {
  const char* call = "kumo::sparse::tocsr(bsr)";
  Compressed b = block_form(a);
  const Dtype idx = index_dtype(std::max(a.nnz(), a.shape.cols), a.indices.dtype());
  b.indices = contiguous_as(b.indices, idx);
  b.indptr = contiguous_as(b.indptr, idx);
  b.data = contiguous(b.data);
  return detail::as_csr(backend_of(a.data, call).bsr_to_csr(b));
}

CooMatrix tocoo(const BsrMatrix& a) {
  const int64_t r = a.block_rows(), c = a.block_cols(), blocks = a.data.shape()[0];
  Device& device = a.data.device();
  const Dtype idx = index_dtype(std::max(a.shape.rows, a.shape.cols));
  const Shape full{blocks, r, c};
  const Array block_row = backend_of(a.data, "kumo::sparse::tocoo(bsr)").expand_major(a.indptr, blocks);
  // Entry (b, i, j) of block b is at (block_row[b] * R + i, indices[b] * C + j).
  const Array row = add(multiply(block_row.astype(idx), Scalar(r)).reshape(Shape{blocks, 1, 1}),
                        arange(Scalar(r), idx, device).reshape(Shape{1, r, 1}));
  const Array col = add(multiply(a.indices.astype(idx), Scalar(c)).reshape(Shape{blocks, 1, 1}),
                        arange(Scalar(c), idx, device).reshape(Shape{1, 1, c}));
  return CooMatrix{contiguous(a.data).reshape(Shape{blocks * r * c}),
                   broadcast_to(row, full).copy(Order::kC).reshape(Shape{-1}),
                   broadcast_to(col, full).copy(Order::kC).reshape(Shape{-1}), a.shape, false};
}

CscMatrix tocsc(const BsrMatrix& a) { return tocsc(tocsr(a)); }
Array toarray(const BsrMatrix& a) { return toarray(tocsr(a)); }
DiaMatrix todia(const BsrMatrix& a) { return todia(tocoo(a)); }

std::pair<int64_t, int64_t> estimate_blocksize(const CsrMatrix& a, double efficiency) {
  if (!(efficiency > 0.0 && efficiency < 1.0))
    throw ValueError("kumo::sparse::estimate_blocksize: efficiency must satisfy 0.0 < efficiency < 1.0");
  if (a.nnz() == 0) return {1, 1};
  SparseBackend& be = backend_of(a.data, "kumo::sparse::estimate_blocksize");
  const double nnz = static_cast<double>(a.nnz());
  const int64_t m = a.shape.rows, n = a.shape.cols;
  // The fraction of stored places that hold entries with b x b blocks (0 when b does not divide the shape).
  const auto fill = [&](int64_t b) {
    if (m % b != 0 || n % b != 0) return 0.0;
    return nnz / (static_cast<double>(b * b) * static_cast<double>(be.count_blocks(major_form(a), b, b)));
  };
  const double high = (1.0 + efficiency) / 2.0;
  const double e22 = fill(2), e33 = fill(3);
  if (e22 > high && e33 > high) return fill(6) > efficiency ? Blocksize{6, 6} : Blocksize{3, 3};
  if (fill(4) > efficiency) return {4, 4};
  if (e33 > efficiency) return {3, 3};
  if (e22 > efficiency) return {2, 2};
  return {1, 1};
}

BsrMatrix tobsr(const CsrMatrix& a, std::optional<Blocksize> blocksize) {
  const Blocksize bs = blocksize ? *blocksize : estimate_blocksize(a);
  const auto [r, c] = bs;
  if (bs == Blocksize{1, 1}) return BsrMatrix{a.data.reshape(Shape{a.nnz(), 1, 1}), a.indices, a.indptr, a.shape};
  if (r < 1 || c < 1 || a.shape.rows % r != 0 || a.shape.cols % c != 0)
    throw ValueError("kumo::sparse::tobsr(csr " + shape_str(a.shape) + "): invalid blocksize " + blocksize_str(bs));
  SparseBackend& be = backend_of(a.data, "kumo::sparse::tobsr");
  const Compressed form = major_form(a);
  // SciPy sizes the index dtype by the block count; nnz bounds it, so the
  // blocks need counting (an extra pass) only when nnz passes int32.
  const int64_t most = a.nnz() <= std::numeric_limits<int32_t>::max() ? a.nnz() : be.count_blocks(form, r, c);
  const Dtype idx = index_dtype(std::max(a.shape.cols / c, most), a.indices.dtype());
  Compressed typed{contiguous(a.data), contiguous_as(a.indices, idx), contiguous_as(a.indptr, idx), form.n_major,
                   form.n_minor};
  return as_bsr(be.csr_to_bsr(typed, r, c), r, c);
}

BsrMatrix tobsr(const CooMatrix& a, std::optional<Blocksize> blocksize) { return tobsr(tocsr(a), blocksize); }
BsrMatrix tobsr(const CscMatrix& a, std::optional<Blocksize> blocksize) { return tobsr(tocsr(a), blocksize); }
BsrMatrix tobsr(const DiaMatrix& a, std::optional<Blocksize> blocksize) { return tobsr(tocsr(a), blocksize); }

namespace {
// The blocks of `a` reordered: compressed over block columns (by_columns)
// or block rows, stably; returns the new structure and the old position of
// each block (as its data).
Compressed reorder_blocks(const BsrMatrix& a, bool by_columns, const char* call) {
  SparseBackend& be = backend_of(a.data, call);
  const Compressed b = block_form(a);
  const int64_t blocks = a.data.shape()[0];
  const Array block_row = be.expand_major(a.indptr, blocks);
  const Array position = arange(Scalar(blocks), Dtype::kInt64, a.data.device());
  if (by_columns) return be.compress(a.indices, block_row, position, b.n_minor, b.n_major, false, a.indices.dtype());
  return be.compress(block_row, a.indices, position, b.n_major, b.n_minor, false, a.indices.dtype());
}
}  // namespace

BsrMatrix transpose(const BsrMatrix& a) {
  const int64_t r = a.block_rows(), c = a.block_cols();
  if (a.data.shape()[0] == 0) return bsr_empty({a.shape.cols, a.shape.rows}, {c, r}, a.dtype(), a.data.device());
  const Compressed t = reorder_blocks(a, true, "kumo::sparse::transpose(bsr)");
  const Array data = take(a.data, t.data, 0).transpose({0, 2, 1}).copy(Order::kC);
  return BsrMatrix{data, t.indices, t.indptr, {a.shape.cols, a.shape.rows}};
}

namespace {
IndexOrder block_order(const BsrMatrix& a, const char* call) {
  Compressed b = block_form(a);
  b.data = b.indices;  // index_order reads the structure only
  return backend_of(a.data, call).index_order(b);
}
}  // namespace

bool has_sorted_indices(const BsrMatrix& a) { return block_order(a, "kumo::sparse::has_sorted_indices(bsr)").sorted; }
bool has_canonical_format(const BsrMatrix& a) {
  return block_order(a, "kumo::sparse::has_canonical_format(bsr)").canonical;
}

BsrMatrix eliminate_zeros(const BsrMatrix& a) {
  if (a.data.shape()[0] == 0) return a;
  const Array kept = any(not_equal(a.data, Scalar(0)), Axes(std::vector<int64_t>{1, 2}));
  // The structure with a 0/1 value per block loses exactly the zero blocks, in order.
  Compressed b = block_form(a);
  b.data = kept.astype(Dtype::kUInt8);
  const Compressed s = backend_of(a.data, "kumo::sparse::eliminate_zeros(bsr)").eliminate_zeros(b);
  return BsrMatrix{take(a.data, flatnonzero(kept), 0), s.indices, s.indptr, a.shape};
}

BsrMatrix sort_indices(const BsrMatrix& a) {
  if (has_sorted_indices(a)) return a;
  const Compressed s = reorder_blocks(a, false, "kumo::sparse::sort_indices(bsr)");
  return BsrMatrix{take(a.data, s.data, 0), s.indices, s.indptr, a.shape};
}

BsrMatrix astype(const BsrMatrix& a, Dtype dtype) {
  return BsrMatrix{cast_data(a.data, dtype), a.indices, a.indptr, a.shape};
}
BsrMatrix conj(const BsrMatrix& a) { return BsrMatrix{conj_data(a.data), a.indices, a.indptr, a.shape}; }
BsrMatrix multiply(const BsrMatrix& a, Scalar s) {
  return BsrMatrix{kumo::multiply(a.data, s), a.indices, a.indptr, a.shape};
}
Array diagonal(const BsrMatrix& a, int64_t k) { return diagonal(tocsr(a), k); }

Array matmul(const BsrMatrix& a, const Array& x) {
  const char* call = "kumo::sparse::matmul(bsr, x)";
  Dtype dtype;
  const Array x2 = dense_operand(a.data, x, a.shape, &dtype, call);
  Compressed b = block_form(a);
  b.data = contiguous_as(a.data, dtype);
  Array y = backend_of(a.data, call).bsr_spmm(b, x2);
  return x.ndim() == 1 ? y.reshape(Shape{a.shape.rows}) : y;
}

}  // namespace sparse
}  // namespace kumo
