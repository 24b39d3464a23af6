// sort, argsort, partition, argpartition, lexsort, searchsorted and unique on
// the host. Real dtypes are sorted as order-preserving unsigned keys
// (routines/sort_keys.h); complex ones with NumPy's comparison.
#include "routines/sorting.h"

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstring>
#include <numeric>
#include <utility>

#include "core/backend_registry.h"
#include "core/device.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "kernels/elementwise.h"
#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/indexing.h"
#include "routines/interop.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"
#include "routines/sort_backend.h"
#include "routines/sort_key_dispatch.h"
#include "routines/sort_keys.h"

namespace kumo {

using namespace sort_detail;

namespace {

constexpr int64_t kElementGrain = 1 << 16;

// ---- dtype dispatch ----------------------------------------------------------

// Calls f(Keys<U, kind>{}) for a real dtype.
template <class F>
decltype(auto) with_keys(Dtype d, F&& f) {
  return sort_detail::visit_sort_keys(d, "", f);
}

// Calls f(R{}) with the real type of a complex dtype.
template <class F>
decltype(auto) with_complex(Dtype d, F&& f) {
  if (d == Dtype::kComplex64) return f(float{});
  return f(double{});
}

// NumPy's complex order: (real, imag) lexicographic among NaN-free values,
// then values with a NaN imaginary part (by real), then a NaN real part (by
// imag), then both NaN.
template <class R>
struct ComplexLess {
  static int nan_class(const std::complex<R>& z) { return 2 * (z.real() != z.real()) + (z.imag() != z.imag()); }
  bool operator()(const std::complex<R>& a, const std::complex<R>& b) const {
    const int ca = nan_class(a), cb = nan_class(b);
    if (ca != cb) return ca < cb;
    switch (ca) {
      case 0:
        return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
      case 1:
        return a.real() < b.real();
      case 2:
        return a.imag() < b.imag();
      default:
        return false;
    }
  }
};

// ---- layout ------------------------------------------------------------------

Array on_host(const Array& a) { return &a.device() == &host_device() ? a : a.to_device(host_device()); }

Array back_to(const Array& r, const Array& like) {
  return &like.device() == &host_device() ? r : r.to_device(like.device());
}

// A C-contiguous host copy of `a` with `axis` moved last: rows of n elements.
struct Rows {
  Array data;
  int64_t rows = 0, n = 0;
};

Rows rows_of(const Array& a, int axis) {
  Array moved = axis == a.ndim() - 1 ? a : moveaxis(a, axis, -1);
  Rows r;
  r.data = on_host(moved).copy(Order::kC);
  r.n = a.ndim() == 0 ? 1 : a.shape()[axis];
  r.rows = r.n == 0 ? 0 : a.size() / r.n;
  return r;
}

// Undoes rows_of on a result laid out as rows: original shape, C order, original device.
Array from_rows(const Array& r, const Array& like, int axis) {
  Array out = r;
  if (like.ndim() > 0 && axis != like.ndim() - 1) out = moveaxis(r, -1, axis).copy(Order::kC);
  return back_to(out, like);
}

// Resolves `axis` for the row routines: std::nullopt flattens.
std::pair<Array, int> resolve_axis(const Array& a, std::optional<int64_t> axis) {
  if (!axis) return {a.reshape(Shape{a.size()}), 0};
  return {a, normalize_axis(*axis, a.ndim())};
}

// Runs fn(row) over rows; one long row gets every thread itself.
void for_rows(int64_t rows, int64_t n, const std::function<void(int64_t, int)>& fn) {
  if (rows == 1) {
    fn(0, host_num_threads());
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kElementGrain / std::max<int64_t>(1, n));
  parallel_for(rows, grain, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) fn(r, 1);
  });
}

// Elementwise pass over [0, n) on the pool.
void for_elements(int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
  if (n > 0) parallel_for(n, kElementGrain, fn);
}

// Replaces every element by its key in place; false when some element does
// not come back unchanged from its key (-0.0, NaNs other than the quiet one).
template <class KT>
bool to_keys(typename KT::Bits* p, int64_t n) {
  std::atomic<bool> ok{true};
  for_elements(n, [&](int64_t b, int64_t e) {
    bool local = true;
    for (int64_t i = b; i < e; ++i) {
      local &= KT::round_trips(p[i]);
      p[i] = KT::key(p[i]);
    }
    if (!local) ok.store(false, std::memory_order_relaxed);
  });
  return ok.load();
}

template <class KT>
void from_keys(typename KT::Bits* p, int64_t n) {
  for_elements(n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) p[i] = KT::value(p[i]);
  });
}

// out[r, i] = src[r, idx[r, i]] for rows of n elements of `itemsize` bytes.
template <size_t S>
void gather_fixed(const char* src, const int64_t* idx, char* out, int64_t rows, int64_t n) {
  struct Item {
    char b[S];
  };
  const Item* s = reinterpret_cast<const Item*>(src);
  Item* o = reinterpret_cast<Item*>(out);
  for_elements(rows * n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) o[i] = s[(i / n) * n + idx[i]];
  });
}

Array gather_rows(const Rows& src, const Array& idx) {
  Array out = Array::empty(src.data.shape(), src.data.dtype(), host_device());
  const int64_t* ip = reinterpret_cast<const int64_t*>(idx.data());
  switch (src.data.itemsize()) {
    case 1:
      gather_fixed<1>(src.data.data(), ip, out.data(), src.rows, src.n);
      break;
    case 2:
      gather_fixed<2>(src.data.data(), ip, out.data(), src.rows, src.n);
      break;
    case 4:
      gather_fixed<4>(src.data.data(), ip, out.data(), src.rows, src.n);
      break;
    case 8:
      gather_fixed<8>(src.data.data(), ip, out.data(), src.rows, src.n);
      break;
    default:
      gather_fixed<16>(src.data.data(), ip, out.data(), src.rows, src.n);
      break;
  }
  return out;
}

// ---- CUDA arrays ----------------------------------------------------------------

// Arrays on a CUDA device sort there, on the plugin's SortBackend (CUB radix
// sorts of the same keys): no host round trip.
bool on_cuda(const Array& a) { return a.device().type() == DeviceType::kCUDA; }

SortBackend& cuda_sort_backend(const Device& device) { return require_backend<SortBackend>(device, "sorting"); }

// Like rows_of, on the array's own device; a C-contiguous input is used as it is.
Rows device_rows_of(const Array& a, int axis) {
  Array moved = axis == a.ndim() - 1 ? a : moveaxis(a, axis, -1);
  Rows r;
  r.data = moved.c_contiguous() ? moved : moved.copy(Order::kC);
  r.n = a.ndim() == 0 ? 1 : a.shape()[axis];
  r.rows = r.n == 0 ? 0 : a.size() / r.n;
  return r;
}

Array cuda_sort(const Array& x, int axis) {
  Rows r = device_rows_of(x, axis);
  Array out = Array::empty(r.data.shape(), r.data.dtype(), x.device());
  if (r.rows * r.n > 0) {
    cuda_sort_backend(x.device()).sort(x.device(), x.dtype(), r.data.data(), out.data(), r.rows, r.n);
  }
  return from_rows(out, x, axis);
}

Array cuda_argsort(const Array& x, int axis) {
  Rows r = device_rows_of(x, axis);
  Array out = Array::empty(r.data.shape(), Dtype::kInt64, x.device());
  if (r.rows * r.n > 0) {
    cuda_sort_backend(x.device())
        .argsort(x.device(), x.dtype(), r.data.data(), reinterpret_cast<int64_t*>(out.data()), r.rows, r.n);
  }
  return from_rows(out, x, axis);
}

// ---- argsort of rows -----------------------------------------------------------

// Stable argsort of each row of `src` (a Rows copy, left unchanged) into int64.
// Runs fn(x, idx, less) on each row of complex `src`: its values, its row of
// the int64 output `op`, and NumPy's complex order.
template <class Fn>
void for_complex_rows(const Rows& src, int64_t* op, Fn fn) {
  with_complex(src.data.dtype(), [&](auto r) {
    using C = std::complex<decltype(r)>;
    const C* v = reinterpret_cast<const C*>(src.data.data());
    for_rows(src.rows, src.n,
             [&](int64_t row, int) { fn(v + row * src.n, op + row * src.n, ComplexLess<decltype(r)>()); });
  });
}

Array argsort_rows(const Rows& src) {
  Array out = Array::empty(src.data.shape(), Dtype::kInt64, host_device());
  int64_t* op = reinterpret_cast<int64_t*>(out.data());
  const int64_t n = src.n;
  const Dtype d = src.data.dtype();
  if (is_complex(d)) {
    for_complex_rows(src, op, [n](auto x, int64_t* idx, auto lt) {
      std::iota(idx, idx + n, int64_t(0));
      std::stable_sort(idx, idx + n, [x, lt](int64_t i, int64_t j) { return lt(x[i], x[j]); });
    });
    return out;
  }
  with_keys(d, [&](auto kt) {
    using KT = decltype(kt);
    using U = typename KT::Bits;
    std::vector<U> keys(static_cast<size_t>(src.rows * n));
    const U* v = reinterpret_cast<const U*>(src.data.data());
    for_elements(src.rows * n, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) keys[i] = KT::key(v[i]);
    });
    if (n <= int64_t(UINT32_MAX)) {
      // 32-bit positions halve the index traffic of the radix passes.
      std::vector<uint32_t> idx32(keys.size());
      for_rows(src.rows, n, [&](int64_t row, int threads) {
        std::vector<U> ks;
        std::vector<uint32_t> is;
        argsort_keys<U, uint32_t>(keys.data() + row * n, idx32.data() + row * n, n, threads, ks, is);
      });
      for_elements(src.rows * n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) op[i] = idx32[i];
      });
    } else {
      for_rows(src.rows, n, [&](int64_t row, int threads) {
        std::vector<U> ks;
        std::vector<int64_t> is;
        argsort_keys<U, int64_t>(keys.data() + row * n, op + row * n, n, threads, ks, is);
      });
    }
  });
  return out;
}

// Sorts each row of `src.data` in place; false if the keys could not carry
// the values (then src.data is clobbered and the caller gathers instead).
bool sort_rows_in_place(Rows& src) {
  const int64_t n = src.n, total = src.rows * src.n;
  const Dtype d = src.data.dtype();
  if (is_complex(d)) {
    with_complex(d, [&](auto r) {
      using C = std::complex<decltype(r)>;
      C* v = reinterpret_cast<C*>(src.data.data());
      for_rows(src.rows, n,
               [&](int64_t row, int) { std::sort(v + row * n, v + (row + 1) * n, ComplexLess<decltype(r)>()); });
    });
    return true;
  }
  return with_keys(d, [&](auto kt) {
    using KT = decltype(kt);
    using U = typename KT::Bits;
    U* v = reinterpret_cast<U*>(src.data.data());
    if (!to_keys<KT>(v, total)) return false;
    for_rows(src.rows, n, [&](int64_t row, int threads) {
      std::vector<U> scratch;
      sort_keys<U>(v + row * n, n, threads, scratch);
    });
    from_keys<KT>(v, total);
    return true;
  });
}

// One long host row (a 1-d array) of an 8-byte real dtype sorted on every
// thread (sort_runs_and_merge): each thread makes the keys of its run
// straight from the source and vqsorts them, and the last merge writes the
// values, so the row copy and the two key passes of the general path go.
// std::nullopt when the row is short, there is one thread, or a value does
// not survive its key (-0.0, NaN payloads; `lossy` then says so): then the
// caller's path applies. 10^7 on 2 threads: float64 112 ms and int64 98 ms
// against 175 and 171 ms for the general path (NumPy: 141 and 157 ms); on a
// machine whose cores are busy with other work it can lose (RESULTS.md).
std::optional<Array> sort_long_row(const Array& x, bool& lossy) {
#ifdef KUMO_HAVE_VQSORT
  // Only 8-byte keys: under load float32 sorted as two merged runs took
  // 1.2-1.7x the time of the one-thread vqsort, which already matches
  // NumPy's (RESULTS.md); 8-byte keys are where vqsort trails NumPy.
  if (x.ndim() != 1 || &x.device() != &host_device() || is_complex(x.dtype()) || x.itemsize() != 8) {
    return std::nullopt;
  }
  const int64_t n = x.size();
  const int p = merge_sort_runs(n, host_num_threads());
  if (p < 2) return std::nullopt;
  return with_keys(x.dtype(), [&](auto kt) -> std::optional<Array> {
    using KT = decltype(kt);
    using U = typename KT::Bits;
    if constexpr (!kSimdSortable<U>) {
      return std::nullopt;
    } else {
      Array keys = Array::empty(Shape{n}, x.dtype(), host_device());
      Array tmp = p > 2 ? Array::empty(Shape{n}, x.dtype(), host_device()) : Array();
      Array out = Array::empty(Shape{n}, x.dtype(), host_device());
      U* kp = reinterpret_cast<U*>(keys.data());
      const char* src = x.data();
      const int64_t stride = x.strides()[0];
      std::atomic<bool> ok{true};
      const auto fill = [&](int64_t b, int64_t e) {
        bool local = true;
        if (stride == int64_t(sizeof(U))) {
          const U* v = reinterpret_cast<const U*>(src);
          for (int64_t i = b; i < e; ++i) {
            local &= KT::round_trips(v[i]);
            kp[i] = KT::key(v[i]);
          }
        } else {
          for (int64_t i = b; i < e; ++i) {
            U v;
            std::memcpy(&v, src + i * stride, sizeof(U));
            local &= KT::round_trips(v);
            kp[i] = KT::key(v);
          }
        }
        if (!local) ok.store(false, std::memory_order_relaxed);
      };
      U* tp = p > 2 ? reinterpret_cast<U*>(tmp.data()) : nullptr;
      sort_runs_and_merge<U>(
          kp, tp, reinterpret_cast<U*>(out.data()), n, p, fill, [](U* run, int64_t len) { simd_sort(run, len); },
          [](U k) { return KT::value(k); });
      lossy = !ok.load();
      if (lossy) return std::nullopt;
      return out;
    }
  });
#else
  return std::nullopt;
#endif
}

// ---- partition -------------------------------------------------------------------

// Positions to fix, in [0, n), sorted and distinct; NumPy's errors.
std::vector<int64_t> normalize_kth(const std::vector<int64_t>& kth, int64_t n) {
  std::vector<int64_t> out;
  for (int64_t k : kth) {
    if (k < -n || k >= n) throw ValueError("kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(n) + ")");
    out.push_back(k < 0 ? k + n : k);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Partitions idx (positions into a row) around each kth under `less`, which
// orders positions (ties by position, so the order is total).
template <class Less>
void partition_indices(int64_t* idx, int64_t n, const std::vector<int64_t>& kth, Less less) {
  std::iota(idx, idx + n, int64_t(0));
  int64_t lo = 0;
  for (int64_t k : kth) {
    std::nth_element(idx + lo, idx + k, idx + n, less);
    lo = k + 1;
  }
}

Array argpartition_rows(const Rows& src, const std::vector<int64_t>& kth) {
  Array out = Array::empty(src.data.shape(), Dtype::kInt64, host_device());
  int64_t* op = reinterpret_cast<int64_t*>(out.data());
  const int64_t n = src.n;
  const Dtype d = src.data.dtype();
  if (is_complex(d)) {
    for_complex_rows(src, op, [n, &kth](auto x, int64_t* idx, auto lt) {
      partition_indices(idx, n, kth,
                        [x, lt](int64_t i, int64_t j) { return lt(x[i], x[j]) || (!lt(x[j], x[i]) && i < j); });
    });
    return out;
  }
  with_keys(d, [&](auto kt) {
    using KT = decltype(kt);
    using U = typename KT::Bits;
    const U* v = reinterpret_cast<const U*>(src.data.data());
    for_rows(src.rows, n, [&](int64_t row, int) {
      std::vector<U> keys(n);
      for (int64_t i = 0; i < n; ++i) keys[i] = KT::key(v[row * n + i]);
      partition_indices(op + row * n, n, kth,
                        [&](int64_t i, int64_t j) { return keys[i] < keys[j] || (keys[i] == keys[j] && i < j); });
    });
  });
  return out;
}

// ---- searchsorted ----------------------------------------------------------------

// Number of positions p in [0, n) with before(p) true, where before is
// monotone (true then false). Branch-free halving: the loop always runs
// log2(n) steps, so mispredictions do not add up on random queries.
template <class Before>
int64_t count_before(int64_t n, Before before) {
  if (n == 0) return 0;
  int64_t base = 0, len = n;
  while (len > 1) {
    const int64_t half = len / 2;
    base = before(base + half - 1) ? base + half : base;
    len -= half;
  }
  return base + (before(base) ? 1 : 0);
}

// Searches of a group of queries advance level by level together: the
// group's loads into the sorted array are independent, so their cache misses
// overlap instead of following one another (one search of 10^7 elements is
// some 24 dependent misses).
constexpr int64_t kSearchGroup = 32;

template <class KT, bool kRight>
void search_group(const typename KT::Bits* a, int64_t n, const typename KT::Bits* v, int64_t* out, int64_t g) {
  using U = typename KT::Bits;
  U x[kSearchGroup];
  int64_t base[kSearchGroup];
  for (int64_t j = 0; j < g; ++j) {
    x[j] = KT::key(v[j]);
    base[j] = 0;
  }
  const auto before = [](U k, U q) { return kRight ? k <= q : k < q; };
  if (n == 0) {
    std::fill(out, out + g, int64_t(0));
    return;
  }
  for (int64_t len = n; len > 1;) {
    const int64_t half = len / 2;
    for (int64_t j = 0; j < g; ++j) base[j] = before(KT::key(a[base[j] + half - 1]), x[j]) ? base[j] + half : base[j];
    len -= half;
  }
  for (int64_t j = 0; j < g; ++j) out[j] = base[j] + (before(KT::key(a[base[j]]), x[j]) ? 1 : 0);
}

}  // namespace

// ---- public routines ---------------------------------------------------------------

void check_sort_kind(const std::optional<std::string>& kind, std::optional<bool> stable) {
  if (kind && stable) {
    throw ValueError("`kind` and keyword parameters can't be provided at the same time. Use only one of them.");
  }
  if (!kind) return;
  const std::string& k = *kind;
  const char c = k.empty() ? '\0' : static_cast<char>(std::tolower(static_cast<unsigned char>(k[0])));
  if (c != 'q' && c != 'm' && c != 'h' && c != 's') {
    throw ValueError("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + k + "')");
  }
}

Array sort(const Array& a, std::optional<int64_t> axis, const std::optional<std::string>& kind,
           std::optional<bool> stable) {
  check_sort_kind(kind, stable);
  auto [x, ax] = resolve_axis(a, axis);
  if (on_cuda(x)) return cuda_sort(x, ax);
  bool lossy = false;
  if (std::optional<Array> fast = sort_long_row(x, lossy)) return *fast;
  Rows r = rows_of(x, ax);
  if (r.rows * r.n == 0) return from_rows(r.data, x, ax);
  if (lossy || !sort_rows_in_place(r)) {
    // -0.0 or a NaN payload: sort positions and carry the original values.
    Rows fresh = lossy ? r : rows_of(x, ax);
    r.data = gather_rows(fresh, argsort_rows(fresh));
  }
  return from_rows(r.data, x, ax);
}

void sort_in_place(const Array& a, int64_t axis, const std::optional<std::string>& kind, std::optional<bool> stable) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  check_sort_kind(kind, stable);
  const int ax = normalize_axis(axis, a.ndim());
  const Dtype d = a.dtype();
  // Integer keys always carry their values, so sorting the keys in place
  // cannot fail half way (float keys can: -0.0, NaN payloads).
  const bool lossless_keys = (is_integer(d) || d == Dtype::kBool) && itemsize(d) <= 4;
  if (!on_cuda(a) && a.c_contiguous() && ax == a.ndim() - 1 && lossless_keys && a.size() > 0) {
    Rows r;
    r.data = a;
    r.n = a.shape()[ax];
    r.rows = a.size() / r.n;
    if (sort_rows_in_place(r)) return;
    throw RuntimeError("sort_in_place: integer keys did not carry their values");
  }
  copyto(a, sort(a, ax, kind, stable));
}

Array argsort(const Array& a, std::optional<int64_t> axis, const std::optional<std::string>& kind,
              std::optional<bool> stable) {
  check_sort_kind(kind, stable);
  // NumPy argsorts a 0-d array as [0].
  auto [x, ax] = resolve_axis(a.ndim() == 0 ? a.reshape(Shape{1}) : a, axis);
  if (on_cuda(x)) return cuda_argsort(x, ax);
  Rows r = rows_of(x, ax);
  return from_rows(argsort_rows(r), x, ax);
}

Array sort_complex(const Array& a) {
  Dtype target = Dtype::kComplex128;
  if (is_complex(a.dtype())) {
    target = a.dtype();
  } else if (a.dtype() == Dtype::kInt8 || a.dtype() == Dtype::kUInt8 || a.dtype() == Dtype::kInt16 ||
             a.dtype() == Dtype::kUInt16) {
    target = Dtype::kComplex64;
  }
  return sort(a, -1).astype(target, Order::kK, false);
}

Array argpartition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis) {
  // NumPy argpartitions a 0-d array as [0].
  auto [x, ax] = resolve_axis(a.ndim() == 0 ? a.reshape(Shape{1}) : a, axis);
  // An empty array has nothing to partition, and NumPy checks no kth then.
  if (x.size() == 0) return Array::empty(x.shape(), Dtype::kInt64, x.device());
  if (on_cuda(x)) {
    // A full stable sort meets partition's contract for every kth; on a GPU
    // the radix sort is as fast as a selection would be.
    normalize_kth(kth, x.shape()[ax]);
    return cuda_argsort(x, ax);
  }
  Rows r = rows_of(x, ax);
  const std::vector<int64_t> k = normalize_kth(kth, r.n);
  return from_rows(argpartition_rows(r, k), x, ax);
}

Array partition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis) {
  auto [x, ax] = resolve_axis(a, axis);
  if (x.size() == 0) return x.copy();  // (see argpartition)
  if (on_cuda(x)) {
    normalize_kth(kth, x.ndim() == 0 ? 1 : x.shape()[ax]);  // (see argpartition)
    return cuda_sort(x, ax);
  }
  Rows r = rows_of(x, ax);
  const std::vector<int64_t> k = normalize_kth(kth, r.n);
  return from_rows(gather_rows(r, argpartition_rows(r, k)), x, ax);
}

namespace {
void check_lexsort_keys(const std::vector<Array>& keys) {
  if (keys.empty()) throw TypeError("need sequence of keys with len > 0 in lexsort");
  for (const Array& k : keys) {
    if (k.shape() != keys[0].shape()) throw ValueError("all keys need to be the same shape");
  }
}
}  // namespace

Array lexsort_composed(const std::vector<Array>& keys, int64_t axis) {
  check_lexsort_keys(keys);
  auto as_1d = [](const Array& k) { return k.ndim() == 0 ? k.reshape(Shape{1}) : k; };
  const int ax = normalize_axis(axis, as_1d(keys[0]).ndim());
  // Sorting by the least significant key first; each later stable sort
  // keeps the order of its ties.
  Array idx = argsort(as_1d(keys[0]), ax, std::string("stable"));
  for (size_t i = 1; i < keys.size(); ++i) {
    Array permuted = take_along_axis(as_1d(keys[i]), idx, ax);
    idx = take_along_axis(idx, argsort(permuted, ax, std::string("stable")), ax);
  }
  return keys[0].ndim() == 0 ? idx.reshape(Shape{}) : idx;  // NumPy: 0-d keys give a 0-d index
}

Array lexsort(const std::vector<Array>& keys, int64_t axis) {
  check_lexsort_keys(keys);
  if (&keys[0].device() != &host_device()) return lexsort_composed(keys, axis);
  Array first = keys[0].ndim() == 0 ? keys[0].reshape(Shape{1}) : keys[0];
  const int ax = normalize_axis(axis, first.ndim());
  std::vector<Rows> rows;
  for (const Array& k : keys) rows.push_back(rows_of(k.ndim() == 0 ? k.reshape(Shape{1}) : k, ax));
  const int64_t n = rows[0].n;
  Array out = Array::empty(rows[0].data.shape(), Dtype::kInt64, host_device());
  int64_t* op = reinterpret_cast<int64_t*>(out.data());
  for_rows(rows[0].rows, n, [&](int64_t row, int) {
    int64_t* idx = op + row * n;
    std::iota(idx, idx + n, int64_t(0));
    std::vector<uint64_t> kv(n);
    // The first key is the least significant: each stable pass by a later
    // key keeps the order the earlier ones set among its ties.
    for (const Rows& key : rows) {
      const Dtype d = key.data.dtype();
      if (is_complex(d)) {
        with_complex(d, [&](auto r) {
          using C = std::complex<decltype(r)>;
          const C* x = reinterpret_cast<const C*>(key.data.data()) + row * n;
          std::stable_sort(idx, idx + n, [x](int64_t i, int64_t j) { return ComplexLess<decltype(r)>()(x[i], x[j]); });
        });
        continue;
      }
      with_keys(d, [&](auto kt) {
        using KT = decltype(kt);
        const auto* x = reinterpret_cast<const typename KT::Bits*>(key.data.data()) + row * n;
        for (int64_t i = 0; i < n; ++i) kv[i] = KT::key(x[i]);
      });
      std::stable_sort(idx, idx + n, [&kv](int64_t i, int64_t j) { return kv[i] < kv[j]; });
    }
  });
  Array result = from_rows(out, first, ax);
  return keys[0].ndim() == 0 ? result.reshape(Shape{}) : result;
}

namespace {

// One binary search per element of x in the sorted a (or a[sorter]), in
// NumPy's order (NaN after everything). Runs on the arrays' device.
const kernels::ElementwiseSpec& searchsorted_spec() {
  static auto s = kernels::ElementwiseSpec::create(
      "kumo_searchsorted", "raw T a, T x, raw int64 sorter, raw int64 params", "int64 y",
      "const int64_t n = params.at(0); const bool right = params.at(1) != 0;"
      "const bool use_sorter = params.at(2) != 0; int64_t lo = 0, hi = n;"
      "while (lo < hi) {"
      "  const int64_t mid = lo + (hi - lo) / 2;"
      "  const T v = a.at(use_sorter ? sorter.at(mid) : mid);"
      "  if (right ? !kumo_sorted_less(x, v) : kumo_sorted_less(v, x)) lo = mid + 1; else hi = mid;"
      "}"
      "y = lo",
      "template <class T> static KUMO_FN bool kumo_sorted_less(T p, T q) {"
      "  return p < q || (q != q && p == p);"
      "}");
  return *s;
}

}  // namespace

Array searchsorted_generated(const Array& a, const Array& v, const std::string& side,
                             const std::optional<Array>& sorter) {
  if (side != "left" && side != "right") throw ValueError("search side must be 'left' or 'right' (got '" + side + "')");
  if (a.ndim() != 1)
    throw ValueError(a.ndim() == 0 ? "object of too small depth for desired array"
                                   : "object too deep for desired array");
  const Dtype d = promote_types(a.dtype(), v.dtype());
  if (is_complex(d)) throw TypeError("searchsorted_generated: complex values are searched on the host");
  Device& device = v.device();
  const int64_t n = a.size();
  Array sv;
  if (sorter) {
    if (!is_integer(sorter->dtype())) throw TypeError("sorter must only contain integers");
    if (sorter->ndim() != 1 || sorter->size() != n) throw ValueError("sorter.size must equal a.size");
    sv = sorter->astype(Dtype::kInt64, Order::kC, false);
    if (n > 0 && (kumo::min(sv).item<int64_t>() < 0 || kumo::max(sv).item<int64_t>() >= n))
      throw ValueError("Sorter index out of range.");
  } else {
    sv = Array::empty(Shape{1}, Dtype::kInt64, device);
  }
  const std::vector<int64_t> params{n, side == "right" ? 1 : 0, sorter ? 1 : 0};
  Array out = Array::empty(v.shape(), Dtype::kInt64, device);
  kernels::call_elementwise(
      searchsorted_spec(),
      {a.astype(d, Order::kC, false), v.astype(d, Order::kK, false), sv, asarray(params, Shape{3}, device)}, {out});
  return out;
}

Array searchsorted(const Array& a, const Array& v, const std::string& side, const std::optional<Array>& sorter) {
  if (side != "left" && side != "right") throw ValueError("search side must be 'left' or 'right' (got '" + side + "')");
  if (a.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
  const bool right = side == "right";
  const Dtype d = promote_types(a.dtype(), v.dtype());
  // On a CUDA device the search runs there (the host has its own grouped search).
  if (&v.device() != &host_device() && !is_complex(d)) return searchsorted_generated(a, v, side, sorter);
  const Array av = on_host(a.astype(d, Order::kC, false)).copy(Order::kC);
  const Array vv = on_host(v.astype(d, Order::kC, false)).copy(Order::kC);
  const int64_t n = a.size();
  Array sv;
  if (sorter) {
    if (!is_integer(sorter->dtype())) throw TypeError("sorter must only contain integers");
    if (sorter->ndim() != 1 || sorter->size() != n) throw ValueError("sorter.size must equal a.size");
    sv = on_host(sorter->astype(Dtype::kInt64, Order::kC, false)).copy(Order::kC);
  }
  const int64_t* sp = sorter ? reinterpret_cast<const int64_t*>(sv.data()) : nullptr;
  // Position p of the sorted order: p itself, or sorter[p] checked against n.
  const auto at = [sp, n](int64_t p) {
    if (!sp) return p;
    const int64_t s = sp[p];
    if (s < 0 || s >= n) throw ValueError("Sorter index out of range.");
    return s;
  };
  Array out = Array::empty(v.shape(), Dtype::kInt64, host_device());
  int64_t* op = reinterpret_cast<int64_t*>(out.data());
  const int64_t m = v.size();
  if (is_complex(d)) {
    with_complex(d, [&](auto r) {
      using C = std::complex<decltype(r)>;
      const C* ap = reinterpret_cast<const C*>(av.data());
      const C* vp = reinterpret_cast<const C*>(vv.data());
      const ComplexLess<decltype(r)> lt;
      parallel_for(m, 1024, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          const C x = vp[i];
          op[i] = right ? count_before(n, [&](int64_t p) { return !lt(x, ap[at(p)]); })
                        : count_before(n, [&](int64_t p) { return lt(ap[at(p)], x); });
        }
      });
    });
    return back_to(out, v);
  }
  with_keys(d, [&](auto kt) {
    using KT = decltype(kt);
    using U = typename KT::Bits;
    const U* ap = reinterpret_cast<const U*>(av.data());
    const U* vp = reinterpret_cast<const U*>(vv.data());
    parallel_for(m, 1024, [&](int64_t b, int64_t e) {
      if (sp) {
        for (int64_t i = b; i < e; ++i) {
          const U x = KT::key(vp[i]);
          op[i] = right ? count_before(n, [&](int64_t p) { return KT::key(ap[at(p)]) <= x; })
                        : count_before(n, [&](int64_t p) { return KT::key(ap[at(p)]) < x; });
        }
        return;
      }
      for (int64_t i = b; i < e; i += kSearchGroup) {
        const int64_t g = std::min<int64_t>(kSearchGroup, e - i);
        if (right) {
          search_group<KT, true>(ap, n, vp + i, op + i, g);
        } else {
          search_group<KT, false>(ap, n, vp + i, op + i, g);
        }
      }
    });
  });
  return back_to(out, v);
}

// ---- unique ----------------------------------------------------------------------------

namespace {

// Sorted flat data of one dtype, with the stable permutation when asked, and
// where each group of equal values starts.
struct Groups {
  std::vector<int64_t> starts;  // first sorted position of each group, then n
  Array perm;                   // int64 permutation (if computed)
};

// Group starts of sorted data under `same(i-1, i)`: parallel count, then fill.
template <class Same>
std::vector<int64_t> group_starts(int64_t n, Same same) {
  std::vector<int64_t> starts;
  if (n == 0) return {0};
  const int p = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(host_num_threads(), n / kElementGrain)));
  std::vector<std::vector<int64_t>> parts(p);
  parallel_for(p, 1, [&](int64_t tb, int64_t te) {
    for (int64_t t = tb; t < te; ++t) {
      for (int64_t i = std::max<int64_t>(1, n * t / p), e = n * (t + 1) / p; i < e; ++i) {
        if (!same(i - 1, i)) parts[t].push_back(i);
      }
    }
  });
  starts.push_back(0);
  for (auto& part : parts) starts.insert(starts.end(), part.begin(), part.end());
  starts.push_back(n);
  return starts;
}

}  // namespace

UniqueResult unique_composed(const Array& a, bool return_index, bool return_inverse, bool return_counts,
                             bool equal_nan) {
  Device& device = a.device();
  const Array flat = a.reshape(Shape{a.size()});
  const int64_t n = flat.size();
  const bool need_perm = return_index || return_inverse;
  // A stable argsort keeps each value's first occurrence first in its group.
  const Array perm = need_perm ? argsort(flat, 0, std::string("stable")) : Array();
  const Array sorted = need_perm ? take(flat, perm) : sort(flat, 0);
  UniqueResult res;
  if (n == 0) {
    res.values = sorted;
    if (return_index) res.index = Array::empty(Shape{0}, Dtype::kInt64, device);
    if (return_inverse) res.inverse = Array::empty(a.shape(), Dtype::kInt64, device);
    if (return_counts) res.counts = Array::empty(Shape{0}, Dtype::kInt64, device);
    return res;
  }
  // head[i]: sorted[i] starts a group (differs from its predecessor; with
  // equal_nan, NaN-holding values, which sort last, form one group).
  const std::vector<IndexItem> rest{IndexItem::slice(1, std::nullopt, 1)};
  const std::vector<IndexItem> but_last{IndexItem::slice(std::nullopt, n - 1, 1)};
  Array later = sorted.index(rest), earlier = sorted.index(but_last);
  Array differs = not_equal(later, earlier);
  if (equal_nan && is_inexact(sorted.dtype()))
    differs = logical_and(differs, logical_not(logical_and(isnan(later), isnan(earlier))));
  Array head = Array::empty(Shape{n}, Dtype::kBool, device);
  fill(head.index({IndexItem::slice(0, 1, 1)}), Scalar(true));
  differs.copy_to(head.index(rest));
  res.values = getitem(sorted, {head});
  const Array starts = flatnonzero(head);
  if (return_index) res.index = take(perm, starts);
  if (return_inverse) {
    Array group = subtract(cumsum(head.astype(Dtype::kInt64)), Scalar(1));
    Array inverse = Array::empty(Shape{n}, Dtype::kInt64, device);
    setitem(inverse, {perm}, group);
    res.inverse = inverse.reshape(a.shape());
  }
  if (return_counts) {
    const int64_t groups = starts.size();
    Array ends = Array::empty(Shape{groups}, Dtype::kInt64, device);
    starts.index(rest).copy_to(ends.index({IndexItem::slice(std::nullopt, groups - 1, 1)}));
    fill(ends.index({IndexItem::slice(groups - 1, std::nullopt, 1)}), Scalar(n));
    res.counts = subtract(ends, starts);
  }
  return res;
}

UniqueResult unique(const Array& a, bool return_index, bool return_inverse, bool return_counts, bool equal_nan) {
  // Off the host, unique is composed of the device's sort and compaction.
  if (&a.device() != &host_device()) return unique_composed(a, return_index, return_inverse, return_counts, equal_nan);
  const Array flat = a.reshape(Shape{a.size()});
  Rows r = rows_of(flat, 0);
  const int64_t n = r.n == 0 ? 0 : a.size();
  r.rows = n == 0 ? 0 : 1;
  const Dtype d = a.dtype();
  bool need_perm = return_index || return_inverse;
  std::vector<int64_t> starts;
  Array perm;
  Array sorted;  // the sorted values (host, flat)
  const auto find_groups = [&](const Array& sorted_values) {
    if (is_complex(d)) {
      with_complex(d, [&](auto rr) {
        using C = std::complex<decltype(rr)>;
        const C* s = reinterpret_cast<const C*>(sorted_values.data());
        starts = group_starts(n, [&](int64_t i, int64_t j) {
          const bool nan_i = s[i] != s[i], nan_j = s[j] != s[j];
          return (nan_i && nan_j) ? equal_nan : s[i] == s[j];
        });
      });
      return;
    }
    with_keys(d, [&](auto kt) {
      using KT = decltype(kt);
      using U = typename KT::Bits;
      const U* s = reinterpret_cast<const U*>(sorted_values.data());
      // Sorted by key: equal keys are adjacent; NaNs share the top key.
      starts = group_starts(n, [&](int64_t i, int64_t j) {
        const U ki = KT::key(s[i]), kj = KT::key(s[j]);
        return ki == kj && (equal_nan || !KT::is_nan(s[j]));
      });
    });
  };
  if (!need_perm && n > 0) {
    if (sort_rows_in_place(r)) {
      sorted = r.data;
    } else {
      need_perm = true;
      r = rows_of(flat, 0);  // the failed attempt left keys in r
    }
  }
  if (need_perm && n > 0) {
    perm = argsort_rows(r);
    sorted = gather_rows(r, perm);
  }
  if (n == 0) sorted = r.data;
  find_groups(sorted);
  const int64_t g = static_cast<int64_t>(starts.size()) - 1;

  UniqueResult res;
  res.values = Array::empty(Shape{g}, d, host_device());
  const int64_t isz = r.data.itemsize();
  for_elements(g, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) std::memcpy(res.values.data() + i * isz, sorted.data() + starts[i] * isz, isz);
  });
  const int64_t* pp = need_perm && n > 0 ? reinterpret_cast<const int64_t*>(perm.data()) : nullptr;
  if (return_index) {
    Array idx = Array::empty(Shape{g}, Dtype::kInt64, host_device());
    int64_t* ip = reinterpret_cast<int64_t*>(idx.data());
    for (int64_t i = 0; i < g; ++i) ip[i] = pp[starts[i]];
    res.index = back_to(idx, a);
  }
  if (return_inverse) {
    Array inv = Array::empty(Shape{n}, Dtype::kInt64, host_device());
    int64_t* vp = reinterpret_cast<int64_t*>(inv.data());
    for_elements(g, [&](int64_t b, int64_t e) {
      for (int64_t grp = b; grp < e; ++grp) {
        for (int64_t i = starts[grp]; i < starts[grp + 1]; ++i) vp[pp[i]] = grp;
      }
    });
    res.inverse = back_to(inv.reshape(a.shape()), a);
  }
  if (return_counts) {
    Array cnt = Array::empty(Shape{g}, Dtype::kInt64, host_device());
    int64_t* cp = reinterpret_cast<int64_t*>(cnt.data());
    for (int64_t i = 0; i < g; ++i) cp[i] = starts[i + 1] - starts[i];
    res.counts = back_to(cnt, a);
  }
  res.values = back_to(res.values, a);
  return res;
}

}  // namespace kumo
