#include "sparse/portable_sparse.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

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

// Bool sums and differences follow C++'s bool arithmetic, as the host
// backend's: true + true is true and true - true is false. Computed in
// int8, where the nonzero results are exactly those.
bool is_bool(const Compressed& a) { return a.data.dtype() == Dtype::kBool; }

Compressed with_data(const Compressed& a, const Array& data) { return make(data, a.indices, a.indptr, a.n_major, a.n_minor); }

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
      Array sums = kumo::zeros(Shape{groups}, boolean ? Dtype::kInt8 : data.dtype(), Order::kC, device);
      kumo::scatter_add(sums, {group}, boolean ? values.astype(Dtype::kInt8) : values);
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
      Array sums = kumo::zeros(Shape{rows * cols}, Dtype::kInt8, Order::kC, device);
      kumo::scatter_add(sums, {flat}, a.data.astype(Dtype::kInt8));
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
    kumo::scatter_add(sums, {position}, values.astype(Dtype::kInt8));
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
  Array y = kumo::zeros(Shape{rows, p}, boolean ? Dtype::kInt8 : a.data.dtype(), Order::kC, device);
  const int64_t nnz = a.indices.size();
  if (nnz > 0 && p > 0) {
    const Array major = expand_major(a.indptr, nnz).astype(Dtype::kInt64);
    const Array minor = a.indices.astype(Dtype::kInt64);
    // Every stored entry contributes data[k] * x[source row] to one output
    // row: nnz x p products, summed by scatter_add (atomics on CUDA).
    const Array source = transposed ? major : minor, target = transposed ? minor : major;
    const Array products =
        kumo::multiply(a.data.reshape(Shape{nnz, 1}), kumo::take(x, source, int64_t{0}));
    kumo::scatter_add(y, {target}, boolean ? products.astype(Dtype::kInt8) : products);
  }
  return boolean ? y.astype(Dtype::kBool) : y;
}

Compressed PortableSparseBackend::binop(const Compressed& a, const Compressed& b, BinaryOp op) {
  Device& device = a.data.device();
  const Dtype index_dtype = a.indices.dtype();
  if (is_bool(a) && op != BinaryOp::kMultiply) {
    const Compressed r = binop(with_data(a, a.data.astype(Dtype::kInt8)), with_data(b, b.data.astype(Dtype::kInt8)), op);
    return with_data(r, r.data.astype(Dtype::kBool));
  }
  const Array major = kumo::concatenate({expand_major(a.indptr, a.indices.size()), expand_major(b.indptr, b.indices.size())});
  const Array minor = kumo::concatenate({a.indices, b.indices});
  if (op != BinaryOp::kMultiply) {
    const Array b_data = op == BinaryOp::kSubtract ? kumo::negative(b.data) : b.data;
    const Array data = kumo::concatenate({a.data, b_data});
    return eliminate_zeros(compress(major, minor, data, a.n_major, a.n_minor, true, index_dtype));
  }
  // Both operands are canonical, so a key occurs at most twice, a's entry
  // first after the stable ordering: the products are of adjacent equal keys.
  const int64_t n = major.size();
  if (n < 2) {
    return make(kumo::zeros(Shape{0}, a.data.dtype(), Order::kC, device),
                kumo::zeros(Shape{0}, index_dtype, Order::kC, device),
                kumo::zeros(Shape{a.n_major + 1}, index_dtype, Order::kC, device), a.n_major, a.n_minor);
  }
  const Array order = entry_order(major, minor);
  const Array mj = kumo::take(major, order), mn = kumo::take(minor, order);
  const Array data = kumo::take(kumo::concatenate({a.data, b.data}), order);
  const Array same = kumo::logical_and(kumo::equal(part(mj, 1, n), part(mj, 0, n - 1)),
                                       kumo::equal(part(mn, 1, n), part(mn, 0, n - 1)));
  const Array products = kumo::multiply(part(data, 0, n - 1), part(data, 1, n));
  const Array keep = kumo::logical_and(same, kumo::not_equal(products, Scalar(0)));
  const Array kept_major = kumo::compress(keep, part(mj, 0, n - 1));
  return make(kumo::compress(keep, products), kumo::compress(keep, part(mn, 0, n - 1)),
              indptr_of(kept_major, a.n_major, index_dtype, device), a.n_major, a.n_minor);
}

SparseBackend& portable_sparse_backend() {
  static PortableSparseBackend backend;
  return backend;
}

bool portable_sparse_on_host() { return portable_override().load() != 0; }

void set_portable_sparse_on_host(bool on) { portable_override().store(on ? 1 : 0); }

}  // namespace sparse
}  // namespace kumo
