#include "sparse/portable_sparse.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/errors.h"
#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/histogram.h"
#include "routines/indexing.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"
#include "routines/sorting.h"

// Every routine below is called with its kumo:: qualification: unqualified,
// names such as compress, diagonal or multiply would find the backend's
// members or kumo::sparse's free functions first.

namespace kumo {
namespace sparse {
namespace {

// a[begin:end] of a 1-d array (a view).
Array part(const Array& a, int64_t begin, int64_t end) { return a.index({IndexItem::slice(begin, end, 1)}); }

Array as_index(const Array& a, Dtype dtype) { return a.dtype() == dtype ? a : a.astype(dtype); }

bool any_true(const Array& mask) { return mask.size() > 0 && kumo::any(mask).item<bool>(); }

// The permutation that orders entries by (major, minor), stable: two stable
// sorts, the secondary key first (a radix sort each on CUDA).
Array entry_order(const Array& major, const Array& minor) {
  const std::string stable = "stable";
  const Array by_minor = kumo::argsort(minor, -1, stable);
  const Array by_major = kumo::argsort(kumo::take(major, by_minor), -1, stable);
  return kumo::take(by_minor, by_major);
}

// True where an entry of ordered (major, minor) lists starts a new key.
Array key_starts(const Array& major, const Array& minor) {
  const int64_t n = major.size();
  Device& device = major.device();
  if (n == 0) return kumo::zeros(Shape{0}, Dtype::kBool, Order::kC, device);
  const Array changed = kumo::logical_or(kumo::not_equal(part(major, 1, n), part(major, 0, n - 1)),
                                         kumo::not_equal(part(minor, 1, n), part(minor, 0, n - 1)));
  return kumo::concatenate({kumo::ones(Shape{1}, Dtype::kBool, Order::kC, device), changed});
}

// indptr of n_major rows from the (sorted or not) major index of every entry.
Array indptr_of(const Array& major, int64_t n_major, Dtype index_dtype, Device& device) {
  const Array counts = kumo::bincount(major, std::nullopt, n_major);
  const Array zero = kumo::zeros(Shape{1}, counts.dtype(), Order::kC, device);
  return as_index(kumo::concatenate({zero, kumo::cumsum(counts)}), index_dtype);
}

Compressed make(const Array& data, const Array& indices, const Array& indptr, int64_t n_major, int64_t n_minor) {
  Compressed c;
  c.data = data;
  c.indices = indices;
  c.indptr = indptr;
  c.n_major = n_major;
  c.n_minor = n_minor;
  return c;
}

constexpr int64_t kInt32Max = 2147483647;

Compressed empty_compressed(Dtype dtype, Dtype index_dtype, int64_t n_major, int64_t n_minor, Device& device) {
  return make(kumo::zeros(Shape{0}, dtype, Order::kC, device), kumo::zeros(Shape{0}, index_dtype, Order::kC, device),
              kumo::zeros(Shape{n_major + 1}, index_dtype, Order::kC, device), n_major, n_minor);
}

// The same matrix with its arrays on `device`.
Compressed on(const Compressed& a, Device& device) {
  return make(a.data.to_device(device), a.indices.to_device(device), a.indptr.to_device(device), a.n_major,
              a.n_minor);
}

// x op y for the values of one key in a and in b. Comparisons give 1 or 0 in
// the operands' dtype; bools follow C++'s bool arithmetic, as the host
// backend's loops do (true - true is false, false - true is true).
Array apply(BinaryOp op, const Array& x, const Array& y) {
  const Dtype dtype = x.dtype();
  if (dtype == Dtype::kBool) {
    switch (op) {
      case BinaryOp::kAdd:
      case BinaryOp::kMaximum: return kumo::logical_or(x, y);
      case BinaryOp::kSubtract:
      case BinaryOp::kNotEqual: return kumo::logical_xor(x, y);
      case BinaryOp::kMultiply:
      case BinaryOp::kMinimum: return kumo::logical_and(x, y);
      case BinaryOp::kLess: return kumo::logical_and(kumo::logical_not(x), y);
      case BinaryOp::kGreater: return kumo::logical_and(x, kumo::logical_not(y));
    }
  }
  switch (op) {
    case BinaryOp::kAdd: return kumo::add(x, y);
    case BinaryOp::kSubtract: return kumo::subtract(x, y);
    case BinaryOp::kMultiply: return kumo::multiply(x, y);
    case BinaryOp::kMaximum: return kumo::maximum(x, y);
    case BinaryOp::kMinimum: return kumo::minimum(x, y);
    case BinaryOp::kNotEqual: return kumo::not_equal(x, y).astype(dtype);
    case BinaryOp::kLess: return kumo::less(x, y).astype(dtype);
    case BinaryOp::kGreater: return kumo::greater(x, y).astype(dtype);
  }
  throw ValueError("binop: unknown operation");
}

std::atomic<int>& portable_override() {
  static std::atomic<int> on{[] {
    const char* env = std::getenv("KUMO_SPARSE_BACKEND");
    return env != nullptr && std::strcmp(env, "portable") == 0 ? 1 : 0;
  }()};
  return on;
}

}  // namespace

std::pair<int64_t, int64_t> PortableSparseBackend::min_max(const Array& index) {
  if (index.size() == 0) return {0, -1};
  return {kumo::min(index).item<int64_t>(), kumo::max(index).item<int64_t>()};
}

int64_t PortableSparseBackend::first_decrease(const Array& indptr) {
  const int64_t n = indptr.size();
  if (n < 2) return -1;
  const Array decrease = kumo::less(part(indptr, 1, n), part(indptr, 0, n - 1));
  return any_true(decrease) ? kumo::argmax(decrease).item<int64_t>() : -1;
}

IndexOrder PortableSparseBackend::index_order(const Compressed& a) {
  IndexOrder order;
  const int64_t nnz = a.indices.size();
  if (nnz < 2) return order;
  const Array major = expand_major(a.indptr, nnz);
  const Array same_row = kumo::equal(part(major, 1, nnz), part(major, 0, nnz - 1));
  const Array next = part(a.indices, 1, nnz), prev = part(a.indices, 0, nnz - 1);
  order.sorted = !any_true(kumo::logical_and(same_row, kumo::less(next, prev)));
  order.canonical = order.sorted && !any_true(kumo::logical_and(same_row, kumo::equal(next, prev)));
  return order;
}

Compressed PortableSparseBackend::compress(const Array& major, const Array& minor, const Array& data, int64_t n_major,
                                           int64_t n_minor, bool sum_duplicates, Dtype index_dtype) {
  Device& device = data.device();
  Array mj = as_index(major, index_dtype), mn = as_index(minor, index_dtype);
  Array values = data;
  if (data.size() > 0) {
    const Array order = entry_order(mj, mn);
    mj = kumo::take(mj, order);
    mn = kumo::take(mn, order);
    values = kumo::take(data, order);
    if (sum_duplicates) {
      const Array starts = key_starts(mj, mn);
      // Entry k goes to key group cumsum(starts)[k] - 1; the additions run
      // in entry order on the host (scatter_add is sequential there).
      const Array group = kumo::subtract(kumo::cumsum(starts.astype(Dtype::kInt64)), Scalar(1));
      const int64_t groups = part(group, group.size() - 1, group.size()).item<int64_t>() + 1;
      const bool boolean = data.dtype() == Dtype::kBool;
      Array sums = kumo::zeros(Shape{groups}, boolean ? Dtype::kInt64 : data.dtype(), Order::kC, device);
      kumo::scatter_add(sums, {group}, boolean ? values.astype(Dtype::kInt64) : values);
      values = boolean ? sums.astype(Dtype::kBool) : sums;
      mj = kumo::compress(starts, mj);
      mn = kumo::compress(starts, mn);
    }
  } else {
    values = data.copy();
  }
  return make(values, mn.c_contiguous() ? mn : mn.copy(), indptr_of(mj, n_major, index_dtype, device), n_major, n_minor);
}

Compressed PortableSparseBackend::sort_indices(const Compressed& a) {
  const int64_t nnz = a.indices.size();
  if (nnz == 0) return make(a.data.copy(), a.indices.copy(), a.indptr.copy(), a.n_major, a.n_minor);
  const Array order = entry_order(expand_major(a.indptr, nnz), a.indices);
  return make(kumo::take(a.data, order), kumo::take(a.indices, order), a.indptr.copy(), a.n_major, a.n_minor);
}

Compressed PortableSparseBackend::sum_duplicates(const Compressed& a) {
  return compress(expand_major(a.indptr, a.indices.size()), a.indices, a.data, a.n_major, a.n_minor, true,
                  a.indices.dtype());
}

Compressed PortableSparseBackend::eliminate_zeros(const Compressed& a) {
  Device& device = a.data.device();
  const Array keep = kumo::not_equal(a.data, Scalar(0));
  const Array major = kumo::compress(keep, expand_major(a.indptr, a.indices.size()));
  return make(kumo::compress(keep, a.data), kumo::compress(keep, a.indices),
              indptr_of(major, a.n_major, a.indices.dtype(), device), a.n_major, a.n_minor);
}

Array PortableSparseBackend::expand_major(const Array& indptr, int64_t nnz) {
  Device& device = indptr.device();
  const int64_t n_major = indptr.size() - 1;
  if (n_major <= 0 || nnz == 0) return kumo::zeros(Shape{nnz}, indptr.dtype(), Order::kC, device);
  const Array counts = kumo::subtract(part(indptr, 1, n_major + 1), part(indptr, 0, n_major));
  return kumo::repeat(kumo::arange(Scalar(0), Scalar(n_major), Scalar(1), indptr.dtype(), device), counts);
}

void PortableSparseBackend::dense_nonzero(const Array& dense, Dtype index_dtype, Array* row, Array* col, Array* data) {
  const int64_t cols = dense.shape()[1];
  const Array flat = kumo::flatnonzero(dense);
  if (cols == 0) {
    *row = flat.astype(index_dtype);
    *col = flat.astype(index_dtype);
  } else {
    *row = kumo::floor_divide(flat, Scalar(cols)).astype(index_dtype);
    *col = kumo::remainder(flat, Scalar(cols)).astype(index_dtype);
  }
  *data = kumo::take(dense, flat);
}

Array PortableSparseBackend::todense(const Compressed& a, bool transposed) {
  Device& device = a.data.device();
  const int64_t rows = transposed ? a.n_minor : a.n_major, cols = transposed ? a.n_major : a.n_minor;
  Array out = kumo::zeros(Shape{rows * cols}, a.data.dtype(), Order::kC, device);
  const int64_t nnz = a.indices.size();
  if (nnz > 0) {
    const Array major = expand_major(a.indptr, nnz).astype(Dtype::kInt64);
    const Array minor = a.indices.astype(Dtype::kInt64);
    const Array flat = transposed ? kumo::add(kumo::multiply(minor, Scalar(a.n_major)), major)
                                  : kumo::add(kumo::multiply(major, Scalar(a.n_minor)), minor);
    if (a.data.dtype() == Dtype::kBool) {
      Array sums = kumo::zeros(Shape{rows * cols}, Dtype::kInt64, Order::kC, device);
      kumo::scatter_add(sums, {flat}, a.data.astype(Dtype::kInt64));
      out = sums.astype(Dtype::kBool);
    } else {
      kumo::scatter_add(out, {flat}, a.data);
    }
  }
  return out.reshape(Shape{rows, cols});
}

Array PortableSparseBackend::diagonal(const Compressed& a, int64_t k) {
  Device& device = a.data.device();
  const int64_t length =
      k >= 0 ? std::min(a.n_major, a.n_minor - k) : std::min(a.n_major + k, a.n_minor);
  Array out = kumo::zeros(Shape{std::max<int64_t>(length, 0)}, a.data.dtype(), Order::kC, device);
  const int64_t nnz = a.indices.size();
  if (length <= 0 || nnz == 0) return out;
  const Array major = expand_major(a.indptr, nnz).astype(Dtype::kInt64);
  const Array minor = a.indices.astype(Dtype::kInt64);
  const Array on_diagonal = kumo::equal(kumo::subtract(minor, major), Scalar(k));
  // Entry (i, i + k) is element i of the diagonal for k >= 0, element i + k
  // (its column) for k < 0.
  const Array position = kumo::compress(on_diagonal, k >= 0 ? major : minor);
  const Array values = kumo::compress(on_diagonal, a.data);
  if (a.data.dtype() == Dtype::kBool) {
    Array sums = kumo::zeros(out.shape(), Dtype::kInt8, Order::kC, device);
    kumo::scatter_add(sums, {position}, values.astype(Dtype::kInt64));
    return sums.astype(Dtype::kBool);
  }
  kumo::scatter_add(out, {position}, values);
  return out;
}

Array PortableSparseBackend::spmm(const Compressed& a, const Array& x, bool transposed) {
  Device& device = a.data.device();
  const int64_t p = x.shape()[1];
  const int64_t rows = transposed ? a.n_minor : a.n_major;
  const bool boolean = a.data.dtype() == Dtype::kBool;
  Array y = kumo::zeros(Shape{rows, p}, boolean ? Dtype::kInt64 : a.data.dtype(), Order::kC, device);
  const int64_t nnz = a.indices.size();
  if (nnz > 0 && p > 0) {
    const Array major = expand_major(a.indptr, nnz).astype(Dtype::kInt64);
    const Array minor = a.indices.astype(Dtype::kInt64);
    // Every stored entry contributes data[k] * x[source row] to one output
    // row: nnz x p products, summed by scatter_add (atomics on CUDA).
    const Array source = transposed ? major : minor, target = transposed ? minor : major;
    const Array products =
        kumo::multiply(a.data.reshape(Shape{nnz, 1}), kumo::take(x, source, int64_t{0}));
    kumo::scatter_add(y, {target}, boolean ? products.astype(Dtype::kInt64) : products);
  }
  return boolean ? y.astype(Dtype::kBool) : y;
}

Compressed PortableSparseBackend::binop(const Compressed& a, const Compressed& b, BinaryOp op) {
  Device& device = a.data.device();
  const Dtype dtype = a.data.dtype(), index_dtype = a.indices.dtype();
  const int64_t na = a.indices.size(), nb = b.indices.size();
  if (na + nb == 0) return empty_compressed(dtype, index_dtype, a.n_major, a.n_minor, device);
  // Both operands are canonical, so after ordering all entries by key a key
  // holds at most one entry of each: gather them into a's and b's value of
  // every key (zero where one is missing) and apply the operation.
  const Array major = kumo::concatenate({expand_major(a.indptr, na), expand_major(b.indptr, nb)});
  const Array minor = kumo::concatenate({a.indices, b.indices});
  const Array from_b = kumo::concatenate({kumo::zeros(Shape{na}, Dtype::kBool, Order::kC, device),
                                          kumo::ones(Shape{nb}, Dtype::kBool, Order::kC, device)});
  const Array order = entry_order(major, minor);
  const Array mj = kumo::take(major, order), mn = kumo::take(minor, order);
  const Array data = kumo::take(kumo::concatenate({a.data, b.data}), order);
  const Array side_b = kumo::take(from_b, order), side_a = kumo::logical_not(side_b);
  const Array starts = key_starts(mj, mn);
  const Array group = kumo::subtract(kumo::cumsum(starts.astype(Dtype::kInt64)), Scalar(1));
  const int64_t groups = part(group, group.size() - 1, group.size()).item<int64_t>() + 1;
  const Array av = kumo::zeros(Shape{groups}, dtype, Order::kC, device);
  const Array bv = kumo::zeros(Shape{groups}, dtype, Order::kC, device);
  kumo::put(av, kumo::compress(side_a, group), kumo::compress(side_a, data));
  kumo::put(bv, kumo::compress(side_b, group), kumo::compress(side_b, data));
  const Array values = apply(op, av, bv);
  const Array keep = kumo::not_equal(values, Scalar(0));
  const Array kept_major = kumo::compress(keep, kumo::compress(starts, mj));
  return make(kumo::compress(keep, values), kumo::compress(keep, kumo::compress(starts, mn)),
              indptr_of(kept_major, a.n_major, index_dtype, device), a.n_major, a.n_minor);
}

Compressed PortableSparseBackend::spgemm(const Compressed& a, const Compressed& b) {
  Device& device = a.data.device();
  const int64_t na = a.indices.size(), inner = b.n_major;
  // Entry (i, j) of a meets every entry of row j of b: list all products
  // (row i, column of b's entry, a_ij * b_jk) and sum those of equal keys.
  const Array b_row_start = part(b.indptr, 0, inner).astype(Dtype::kInt64);
  const Array b_row_length = kumo::subtract(part(b.indptr, 1, inner + 1).astype(Dtype::kInt64), b_row_start);
  const Array counts = na > 0 ? kumo::take(b_row_length, a.indices) : kumo::zeros(Shape{0}, Dtype::kInt64, Order::kC, device);
  const int64_t products = na > 0 ? kumo::sum(counts).item<int64_t>() : 0;
  const Dtype index_dtype = products > kInt32Max ? Dtype::kInt64 : a.indices.dtype();
  if (products == 0) return empty_compressed(a.data.dtype(), a.indices.dtype(), a.n_major, b.n_minor, device);
  const Array entry = kumo::repeat(kumo::arange(Scalar(0), Scalar(na), Scalar(1), Dtype::kInt64, device), counts);
  const Array first = kumo::subtract(kumo::cumsum(counts), counts);  // each entry's first product
  const Array within = kumo::subtract(kumo::arange(Scalar(0), Scalar(products), Scalar(1), Dtype::kInt64, device),
                                      kumo::take(first, entry));
  const Array source = kumo::add(kumo::take(b_row_start, kumo::take(a.indices, entry)), within);
  const Array rows = kumo::take(expand_major(a.indptr, na), entry);
  const Array values = kumo::multiply(kumo::take(a.data, entry), kumo::take(b.data, source));
  return eliminate_zeros(
      compress(rows, kumo::take(b.indices, source), values, a.n_major, b.n_minor, true, index_dtype));
}

Compressed PortableSparseBackend::take_major(const Compressed& a, const Array& rows) {
  Device& device = a.data.device();
  const int64_t n = a.n_major, taken = rows.size();
  const Array start = part(a.indptr, 0, n).astype(Dtype::kInt64);
  const Array length = kumo::take(kumo::subtract(part(a.indptr, 1, n + 1).astype(Dtype::kInt64), start), rows);
  const Array indptr = kumo::concatenate({kumo::zeros(Shape{1}, Dtype::kInt64, Order::kC, device), kumo::cumsum(length)});
  const int64_t total = part(indptr, taken, taken + 1).item<int64_t>();
  const Dtype index_dtype = total > kInt32Max ? Dtype::kInt64 : a.indices.dtype();
  // Stored entry q of the result is entry `within` of its row in a.
  const Array row = kumo::repeat(kumo::arange(Scalar(0), Scalar(taken), Scalar(1), Dtype::kInt64, device), length);
  const Array within = kumo::subtract(kumo::arange(Scalar(0), Scalar(total), Scalar(1), Dtype::kInt64, device),
                                      kumo::take(part(indptr, 0, taken), row));
  const Array source = kumo::add(kumo::take(kumo::take(start, rows), row), within);
  return make(kumo::take(a.data, source), as_index(kumo::take(a.indices, source), index_dtype),
              as_index(indptr, index_dtype), taken, a.n_minor);
}

Compressed PortableSparseBackend::take_minor(const Compressed& a, const Array& cols) {
  Device& device = a.data.device();
  const int64_t nnz = a.indices.size(), taken = cols.size();
  // The result's columns that copy column j of a are by_column[first[j] :
  // first[j] + copies[j]], ascending (a stable sort of cols).
  const Array by_column = kumo::argsort(cols, -1, std::string("stable"));
  const Array copies = kumo::bincount(cols, std::nullopt, a.n_minor);
  const Array first = kumo::subtract(kumo::cumsum(copies), copies);
  const Array count = nnz > 0 ? kumo::take(copies, a.indices) : kumo::zeros(Shape{0}, Dtype::kInt64, Order::kC, device);
  const int64_t total = nnz > 0 ? kumo::sum(count).item<int64_t>() : 0;
  const Dtype index_dtype = std::max(total, taken) > kInt32Max ? Dtype::kInt64 : a.indices.dtype();
  if (total == 0) return empty_compressed(a.data.dtype(), index_dtype, a.n_major, taken, device);
  // Each stored entry, in storage order, once per copy of its column.
  const Array entry = kumo::repeat(kumo::arange(Scalar(0), Scalar(nnz), Scalar(1), Dtype::kInt64, device), count);
  const Array within = kumo::subtract(kumo::arange(Scalar(0), Scalar(total), Scalar(1), Dtype::kInt64, device),
                                      kumo::take(kumo::subtract(kumo::cumsum(count), count), entry));
  const Array column = kumo::take(
      by_column, kumo::add(kumo::take(first, kumo::take(a.indices, entry)), within));
  const Array rows = kumo::take(expand_major(a.indptr, nnz), entry);
  return make(kumo::take(a.data, entry), column.astype(index_dtype), indptr_of(rows, a.n_major, index_dtype, device),
              a.n_major, taken);
}

Array PortableSparseBackend::gather(const Compressed& a, const Array& rows, const Array& cols) {
  Device& device = a.data.device();
  Array out = kumo::zeros(Shape{rows.size()}, a.data.dtype(), Order::kC, device);
  if (rows.size() == 0 || a.indices.size() == 0) return out;
  // Entries as sorted keys row * n_minor + col (duplicates summed); each
  // wanted key is found by binary search.
  const Compressed c = sum_duplicates(a);
  const Array key = kumo::add(kumo::multiply(expand_major(c.indptr, c.indices.size()).astype(Dtype::kInt64),
                                             Scalar(a.n_minor)),
                              c.indices.astype(Dtype::kInt64));
  const Array wanted = kumo::add(kumo::multiply(rows, Scalar(a.n_minor)), cols);
  const Array at = kumo::minimum(kumo::searchsorted(key, wanted), Scalar(key.size() - 1));
  const Array found = kumo::equal(kumo::take(key, at), wanted);
  kumo::copyto(out, kumo::take(c.data, at), Casting::kSameKind, found);
  return out;
}

Compressed PortableSparseBackend::set_entries(const Compressed& a, const Array& rows, const Array& cols,
                                              const Array& values) {
  Device& device = a.data.device();
  if (device.type() == DeviceType::kCPU) return host_sparse_backend().set_entries(a, rows, cols, values);
  Device& host = get_device(DeviceType::kCPU, 0);
  return on(host_sparse_backend().set_entries(on(a, host), rows.to_device(host), cols.to_device(host),
                                              values.to_device(host)),
            device);
}

Array PortableSparseBackend::reduce_major(const Compressed& a, RowReduce op, bool explicit_only) {
  Device& device = a.data.device();
  if (device.type() == DeviceType::kCPU) return host_sparse_backend().reduce_major(a, op, explicit_only);
  Device& host = get_device(DeviceType::kCPU, 0);
  return host_sparse_backend().reduce_major(on(a, host), op, explicit_only).to_device(device);
}

Compressed PortableSparseBackend::dia_to_csr(const Array& data, const Array& offsets, int64_t rows, int64_t cols,
                                             Dtype index_dtype) {
  Device& device = data.device();
  const int64_t diagonals = data.shape()[0], length = data.shape()[1];
  // data[d, j] is entry (j - offsets[d], j) where that lies in the matrix.
  const Array column = kumo::broadcast_to(
      kumo::arange(Scalar(0), Scalar(length), Scalar(1), Dtype::kInt64, device).reshape(Shape{1, length}),
      Shape{diagonals, length});
  const Array row = kumo::subtract(column, offsets.reshape(Shape{diagonals, 1}));
  const Array inside = kumo::logical_and(
      kumo::logical_and(kumo::greater_equal(row, Scalar(0)), kumo::less(row, Scalar(rows))),
      kumo::logical_and(kumo::less(column, Scalar(cols)), kumo::not_equal(data, Scalar(0))));
  return compress(kumo::compress(inside.ravel(), row.ravel()), kumo::compress(inside.ravel(), column.ravel()),
                  kumo::compress(inside.ravel(), data.ravel()), rows, cols, true, index_dtype);
}

Array PortableSparseBackend::dia_spmm(const Array& data, const Array& offsets, int64_t rows, int64_t cols,
                                      const Array& x) {
  const int64_t most = std::max({rows, cols, data.size()});
  return spmm(dia_to_csr(data, offsets, rows, cols, most > kInt32Max ? Dtype::kInt64 : Dtype::kInt32), x, false);
}

Array PortableSparseBackend::bsr_spmm(const Compressed& blocks, const Array& x) {
  return spmm(bsr_to_csr(blocks), x, false);
}

Compressed PortableSparseBackend::bsr_to_csr(const Compressed& blocks) {
  Device& device = blocks.data.device();
  const int64_t nblocks = blocks.indices.size(), r = blocks.data.shape()[1], c = blocks.data.shape()[2];
  const Dtype index_dtype = blocks.indices.dtype();
  const int64_t rows = blocks.n_major * r, cols = blocks.n_minor * c;
  if (nblocks == 0) return empty_compressed(blocks.data.dtype(), index_dtype, rows, cols, device);
  // Entry (k, i, j) of the blocks is at row block_row[k] * r + i, column
  // indices[k] * c + j; a stable sort by row keeps block storage order in a row.
  const Array block_row = expand_major(blocks.indptr, nblocks).astype(Dtype::kInt64).reshape(Shape{nblocks, 1, 1});
  const Array block_col = blocks.indices.astype(Dtype::kInt64).reshape(Shape{nblocks, 1, 1});
  const Array i = kumo::arange(Scalar(0), Scalar(r), Scalar(1), Dtype::kInt64, device).reshape(Shape{1, r, 1});
  const Array j = kumo::arange(Scalar(0), Scalar(c), Scalar(1), Dtype::kInt64, device).reshape(Shape{1, 1, c});
  const Shape full{nblocks, r, c};
  const Array row = kumo::broadcast_to(kumo::add(kumo::multiply(block_row, Scalar(r)), i), full).ravel();
  const Array col = kumo::broadcast_to(kumo::add(kumo::multiply(block_col, Scalar(c)), j), full).ravel();
  const Array order = kumo::argsort(row, -1, std::string("stable"));
  return make(kumo::take(blocks.data.ravel(), order), kumo::take(col, order).astype(index_dtype),
              indptr_of(row, rows, index_dtype, device), rows, cols);
}

namespace {

// The block key (row / r) * block columns + column / c of every stored entry.
Array block_keys(PortableSparseBackend& be, const Compressed& a, int64_t r, int64_t c) {
  const int64_t block_cols = (a.n_minor + c - 1) / c;
  const Array row = be.expand_major(a.indptr, a.indices.size()).astype(Dtype::kInt64);
  return kumo::add(kumo::multiply(kumo::floor_divide(row, Scalar(r)), Scalar(block_cols)),
                   kumo::floor_divide(a.indices.astype(Dtype::kInt64), Scalar(c)));
}

}  // namespace

int64_t PortableSparseBackend::count_blocks(const Compressed& a, int64_t r, int64_t c) {
  if (a.indices.size() == 0) return 0;
  const Array keys = kumo::sort(block_keys(*this, a, r, c));
  const int64_t n = keys.size();
  return 1 + kumo::count_nonzero(kumo::not_equal(part(keys, 1, n), part(keys, 0, n - 1))).item<int64_t>();
}

Compressed PortableSparseBackend::csr_to_bsr(const Compressed& a, int64_t r, int64_t c) {
  Device& device = a.data.device();
  const int64_t nnz = a.indices.size(), block_rows = a.n_major / r, block_cols = a.n_minor / c;
  const Dtype index_dtype = a.indices.dtype();
  if (nnz == 0) {
    return make(kumo::zeros(Shape{0, r, c}, a.data.dtype(), Order::kC, device),
                kumo::zeros(Shape{0}, index_dtype, Order::kC, device),
                kumo::zeros(Shape{block_rows + 1}, index_dtype, Order::kC, device), block_rows, block_cols);
  }
  // Group the entries by block (a stable sort keeps storage order inside a
  // group, so a group's first entry is the block's first occurrence), then
  // order the blocks by block row and, within one, by first occurrence.
  const Array keys = block_keys(*this, a, r, c);
  const Array by_key = kumo::argsort(keys, -1, std::string("stable"));
  const Array sorted_keys = kumo::take(keys, by_key);
  const Array starts = key_starts(sorted_keys, sorted_keys);
  const Array group = kumo::subtract(kumo::cumsum(starts.astype(Dtype::kInt64)), Scalar(1));
  const Array first_entry = kumo::compress(starts, by_key);
  const Array group_key = kumo::compress(starts, sorted_keys);
  const Array group_row = kumo::floor_divide(group_key, Scalar(block_cols));
  const Array by_first = kumo::argsort(first_entry, -1, std::string("stable"));
  const Array block_order = kumo::take(by_first, kumo::argsort(kumo::take(group_row, by_first), -1, std::string("stable")));
  const int64_t nblocks = block_order.size();
  // rank[g]: the place of group g among the blocks.
  const Array rank = kumo::zeros(Shape{nblocks}, Dtype::kInt64, Order::kC, device);
  kumo::put(rank, block_order, kumo::arange(Scalar(0), Scalar(nblocks), Scalar(1), Dtype::kInt64, device));
  // Entry k lands at (rank of its group, row % r, column % c).
  const Array row = kumo::take(expand_major(a.indptr, nnz).astype(Dtype::kInt64), by_key);
  const Array col = kumo::take(a.indices.astype(Dtype::kInt64), by_key);
  const Array flat = kumo::add(kumo::multiply(kumo::take(rank, group), Scalar(r * c)),
                               kumo::add(kumo::multiply(kumo::remainder(row, Scalar(r)), Scalar(c)),
                                         kumo::remainder(col, Scalar(c))));
  const bool boolean = a.data.dtype() == Dtype::kBool;
  Array blocks = kumo::zeros(Shape{nblocks * r * c}, boolean ? Dtype::kInt64 : a.data.dtype(), Order::kC, device);
  const Array values = kumo::take(a.data, by_key);
  kumo::scatter_add(blocks, {flat}, boolean ? values.astype(Dtype::kInt64) : values);
  const Array ordered_key = kumo::take(group_key, block_order);
  return make((boolean ? blocks.astype(Dtype::kBool) : blocks).reshape(Shape{nblocks, r, c}),
              kumo::remainder(ordered_key, Scalar(block_cols)).astype(index_dtype),
              indptr_of(kumo::take(group_row, block_order), block_rows, index_dtype, device), block_rows, block_cols);
}

SparseBackend& portable_sparse_backend() {
  static PortableSparseBackend backend;
  return backend;
}

bool portable_sparse_on_host() { return portable_override().load() != 0; }

void set_portable_sparse_on_host(bool on) { portable_override().store(on ? 1 : 0); }

}  // namespace sparse
}  // namespace kumo
