// median, quantile, percentile and the NaN-ignoring variants (see quantile.h).
#include "routines/quantile.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "core/device.h"
#include "core/dtype_visit.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "core/warnings.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/indexing.h"
#include "routines/interop.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"
#include "routines/reduction_detail.h"
#include "routines/sort_keys.h"
#include "routines/sorting.h"

namespace kumo {

namespace {

using detail::finish;
using detail::normalize_reduce_axes;

const char* const kMethods[] = {"inverted_cdf",
                                "averaged_inverted_cdf",
                                "closest_observation",
                                "interpolated_inverted_cdf",
                                "hazen",
                                "weibull",
                                "linear",
                                "median_unbiased",
                                "normal_unbiased",
                                "lower",
                                "higher",
                                "midpoint",
                                "nearest"};

enum Method {
  kInvertedCdf,
  kAveragedInvertedCdf,
  kClosestObservation,
  kInterpolatedInvertedCdf,
  kHazen,
  kWeibull,
  kLinear,
  kMedianUnbiased,
  kNormalUnbiased,
  kLower,
  kHigher,
  kMidpoint,
  kNearest
};

Method parse_method(const std::string& m) {
  for (int i = 0; i < 13; ++i) {
    if (m == kMethods[i]) return static_cast<Method>(i);
  }
  std::string keys;
  for (int i = 0; i < 13; ++i) keys += std::string(i ? ", '" : "'") + kMethods[i] + "'";
  throw ValueError("'" + m + "' is not a valid method. Use one of: dict_keys([" + keys + "])");
}

// Methods that take an element instead of interpolating between two.
bool is_discrete(Method m) {
  return m == kInvertedCdf || m == kClosestObservation || m == kLower || m == kHigher || m == kNearest;
}

// Where quantile q of n sorted values lies: the two neighbours and the
// interpolation weight, computed in G (the dtype of q) as NumPy's
// _QuantileMethods, _get_indexes and _get_gamma do.
struct Position {
  int64_t prev, next;
  double gamma;
  bool upper;  // gamma >= 0.5: interpolate from the upper neighbour
};

template <class G>
Position position(Method m, int64_t n, G q) {
  const G gn = static_cast<G>(n);
  auto clip0 = [](int64_t v) { return v < 0 ? int64_t(0) : v; };
  auto last = [n](int64_t v) { return std::min(v, n - 1); };
  if (m == kInvertedCdf || m == kClosestObservation) {
    const G idx = m == kInvertedCdf ? G(gn * q - G(1)) : G(G(gn * q - G(1)) - G(0.5));
    const G prev = std::floor(idx);
    const G g = idx - prev;
    bool take_prev = g == G(0);
    if (m == kClosestObservation) take_prev = take_prev && G(prev - G(2) * std::floor(prev / G(2))) == G(1);
    const int64_t r = last(clip0(static_cast<int64_t>(take_prev ? prev : prev + G(1))));
    return {r, r, 0, false};
  }
  if (m == kLower || m == kHigher || m == kNearest) {
    const G v = G(gn - G(1)) * q;
    const G r = m == kLower ? std::floor(v) : m == kHigher ? std::ceil(v) : std::nearbyint(v);
    const int64_t i = last(clip0(static_cast<int64_t>(r)));
    return {i, i, 0, false};
  }
  G vi;
  switch (m) {
    case kAveragedInvertedCdf:
      vi = G(gn * q) - G(1);
      break;
    case kLinear:
      vi = G(gn - G(1)) * q;
      break;
    case kMidpoint: {
      const G v = G(gn - G(1)) * q;
      vi = G(0.5) * G(std::floor(v) + std::ceil(v));
      break;
    }
    default: {
      double alpha = 0, beta = 0;
      if (m == kInterpolatedInvertedCdf) {
        alpha = 0;
        beta = 1;
      }
      if (m == kHazen) {
        alpha = 0.5;
        beta = 0.5;
      }
      if (m == kWeibull) {
        alpha = 0;
        beta = 0;
      }
      if (m == kMedianUnbiased) {
        alpha = 1 / 3.0;
        beta = 1 / 3.0;
      }
      if (m == kNormalUnbiased) {
        alpha = 3 / 8.0;
        beta = 3 / 8.0;
      }
      vi = G(G(gn * q) + G(G(alpha) + G(q * G(1 - alpha - beta)))) - G(1);
    }
  }
  G prev = std::floor(vi);
  int64_t p = static_cast<int64_t>(prev), nx = p + 1;
  if (vi >= G(n - 1)) {
    p = n - 1;
    nx = n - 1;
    prev = G(-1);
  }
  if (vi < G(0)) {
    p = 0;
    nx = 0;
    prev = G(0);
  }
  G g = vi - prev;
  if (m == kAveragedInvertedCdf) g = g == G(0) ? G(0.5) : G(1);
  if (m == kMidpoint) g = std::fmod(vi, G(1)) == G(0) ? G(0) : G(0.5);
  return {p, nx, static_cast<double>(g), g >= G(0.5)};
}

// ---- host selection
// ---------------------------------------------------------------

template <class T>
bool before(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return a < b || (b != b && a == a);  // NaN last
  else
    return a < b;
}

template <class T>
bool is_nan_value(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return v != v;
  else
    return false;
}

// Calls f(TypeTag<T>{}) with the C++ type of a working dtype (an integer
// or float32/float64: quantiles of bool, float16 and complex run elsewhere).
template <class F>
void with_type(Dtype d, F&& f) {
  auto unsupported = [d] { throw TypeError(std::string("unsupported dtype for quantiles: ") + dtype_name(d)); };
  visit_real_dtype(
      d,
      [&](auto tag) {
        if constexpr (std::is_same_v<typename decltype(tag)::type, bool>) {
          unsupported();
        } else {
          f(tag);
        }
      },
      unsupported);
}

// Puts the values at the sorted positions `kth` (ascending, distinct, < n)
// of p[0, n) in place, as a sort would.
template <class T>
void select_kth(T* p, int64_t n, const std::vector<int64_t>& kth) {
  int64_t lo = 0;
  for (int64_t k : kth) {
    if (k < lo || k >= n) continue;
    std::nth_element(p + lo, p + k, p + n, before<T>);
    lo = k + 1;
  }
}

// The order-preserving unsigned keys of routines/sort_keys.h for a C++
// integer or floating type: unsigned keys of the same width, of its kind.
template <class T>
struct KeyOf {
  using unsigned_type = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  static constexpr sort_detail::KeyKind kind = std::is_floating_point_v<T> ? sort_detail::KeyKind::kFloat
                                               : std::is_signed_v<T>       ? sort_detail::KeyKind::kSigned
                                                                           : sort_detail::KeyKind::kUnsigned;
  using type = sort_detail::Keys<unsigned_type, kind>;
};

// The positions wanted in a slice, given its number of non-NaN values and
// whether it holds a NaN (sorted, distinct, below that number).
using PositionsFn = std::function<std::vector<int64_t>(int64_t count, bool has_nan)>;

// The values at the wanted positions of one slice, as a sort would place them.
template <class T>
struct Picked {
  int64_t count = 0;
  bool has_nan = false;
  std::vector<int64_t> ks;
  std::vector<T> vals;
  T at(int64_t k) const { return vals[std::lower_bound(ks.begin(), ks.end(), k) - ks.begin()]; }
};

// Short slices: NaNs moved last (only when there are any), then
// std::nth_element on the writable copy for each position in turn.
template <class T>
Picked<T> pick_small(T* row, int64_t n, const PositionsFn& positions) {
  Picked<T> p;
  p.count = n;
  if constexpr (std::is_floating_point_v<T>) {
    int64_t nans = 0;
    for (int64_t i = 0; i < n; ++i) nans += row[i] != row[i];
    if (nans) {
      p.has_nan = true;
      p.count = std::partition(row, row + n, [](T v) { return v == v; }) - row;
    }
  }
  p.ks = positions(p.count, p.has_nan);
  int64_t lo = 0;
  for (int64_t k : p.ks) {
    if (k == lo && lo > 0) {
      // Right after a position already in place (the upper middle of an
      // even count): the smallest of the rest, one scan.
      std::iter_swap(row + k, std::min_element(row + k, row + p.count));
    } else {
      std::nth_element(row + lo, row + k, row + p.count);
    }
    lo = k + 1;
  }
  for (int64_t k : p.ks) p.vals.push_back(row[k]);
  return p;
}

// Long slices: a radix select on the keys' top 16 bits, read-only and split
// over the host threads. One pass counts the values per digit (NaN's key is
// the largest: its digit holds NaNs only), which places every wanted
// position in one digit; a second pass copies the values of those digits out,
// and only they are ordered. NumPy's introselect walks the whole slice a few
// times on one thread instead.
template <class T, int kMaxDigitBits = 16>
Picked<T> pick_large(const T* row, int64_t n, const PositionsFn& positions) {
  using KT = typename KeyOf<T>::type;
  using U = typename KT::Bits;
  constexpr int kBits = sizeof(U) * 8;
  constexpr int kDigitBits = kBits > kMaxDigitBits ? kMaxDigitBits : kBits;
  constexpr int64_t kDigits = int64_t(1) << kDigitBits;
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(host_num_threads(), n / 65536));
  // Integers often use few of their high bits: the digit is taken below the
  // highest bit in which the smallest and largest keys differ.
  int kShift = kBits - kDigitBits;
  if constexpr (!std::is_floating_point_v<T>) {
    std::vector<U> lo(parts, U(~U(0))), hi(parts, U(0));
    parallel_for(parts, 1, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        U l = lo[t], h = hi[t];
        for (int64_t i = n * t / parts, end = n * (t + 1) / parts; i < end; ++i) {
          U k;
          std::memcpy(&k, &row[i], sizeof(U));
          k = KT::key(k);
          l = k < l ? k : l;
          h = k > h ? k : h;
        }
        lo[t] = l;
        hi[t] = h;
      }
    });
    U diff = U(*std::max_element(hi.begin(), hi.end()) ^ *std::min_element(lo.begin(), lo.end()));
    int width = 0;
    while (diff) {
      ++width;
      diff = U(diff >> 1);
    }
    kShift = std::max(0, width - kDigitBits);
  }
  // Branch-free for floats (the sign of random data mispredicts): negatives
  // flip every bit, the others the sign bit; NaNs take the top digit, which
  // holds nothing else (+inf's digit is below it). -0.0 lands just before
  // +0.0, which is an order a sort may give them too.
  const int shift = kShift;
  auto digit = [shift](T v) -> int64_t {
    U b;
    std::memcpy(&b, &v, sizeof(U));
    if constexpr (std::is_floating_point_v<T>) {
      const U neg = U(U(0) - U(b >> (kBits - 1)));
      const U k = U(b ^ (neg | KT::kSign));
      const bool nan = U(b << 1) > U(KT::kExpMask << 1);
      return nan ? kDigits - 1 : static_cast<int64_t>(k >> shift);
    } else {
      return static_cast<int64_t>((KT::key(b) >> shift) & U(kDigits - 1));
    }
  };
  std::vector<std::vector<int64_t>> hist(parts, std::vector<int64_t>(kDigits, 0));
  parallel_for(parts, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      int64_t* h = hist[t].data();
      for (int64_t i = n * t / parts, end = n * (t + 1) / parts; i < end; ++i) ++h[digit(row[i])];
    }
  });
  std::vector<int64_t> start(kDigits + 1, 0);
  for (int64_t d = 0; d < kDigits; ++d) {
    int64_t c = 0;
    for (int64_t t = 0; t < parts; ++t) c += hist[t][d];
    start[d + 1] = start[d] + c;
  }
  Picked<T> p;
  const int64_t nans = std::is_floating_point_v<T> ? start[kDigits] - start[kDigits - 1] : 0;
  p.has_nan = nans > 0;
  p.count = n - nans;
  p.ks = positions(p.count, p.has_nan);
  if (p.ks.empty()) return p;
  // The digits holding a wanted position, each with a slot for its values.
  std::vector<int32_t> slot(kDigits, -1);
  std::vector<int64_t> slot_digit;
  for (int64_t k : p.ks) {
    const int64_t d = std::upper_bound(start.begin(), start.end(), k) - start.begin() - 1;
    if (slot[d] < 0) {
      slot[d] = static_cast<int32_t>(slot_digit.size());
      slot_digit.push_back(d);
    }
  }
  const size_t ns = slot_digit.size();
  std::vector<std::vector<std::vector<T>>> parts_out(parts, std::vector<std::vector<T>>(ns));
  parallel_for(parts, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      auto& out = parts_out[t];
      for (size_t j = 0; j < ns; ++j) out[j].reserve(hist[t][slot_digit[j]]);
      for (int64_t i = n * t / parts, end = n * (t + 1) / parts; i < end; ++i) {
        const int32_t sl = slot[digit(row[i])];
        if (sl >= 0) out[sl].push_back(row[i]);
      }
    }
  });
  std::vector<std::vector<T>> bucket(ns);
  for (size_t j = 0; j < ns; ++j) {
    for (int64_t t = 0; t < parts; ++t)
      bucket[j].insert(bucket[j].end(), parts_out[t][j].begin(), parts_out[t][j].end());
  }
  // Within a digit (NaNs have their own), plain comparisons order the values.
  auto less = [](T a, T b) { return a < b; };
  std::vector<int64_t> lo(ns, 0);
  for (int64_t k : p.ks) {
    const int64_t d = std::upper_bound(start.begin(), start.end(), k) - start.begin() - 1;
    auto& v = bucket[slot[d]];
    const int64_t r = k - start[d];
    int64_t& l = lo[slot[d]];
    if (r >= l) {
      if (r == l && l > 0) {
        std::iter_swap(v.begin() + r, std::min_element(v.begin() + r, v.end(), less));
      } else {
        std::nth_element(v.begin() + l, v.begin() + r, v.end(), less);
      }
      l = r + 1;
    }
    p.vals.push_back(v[r]);
  }
  return p;
}

// From this slice length on, a slice is selected by radix (one at a time,
// each over all threads) without a private copy.
constexpr int64_t kRadixSelectMin = int64_t(1) << 17;
// Slices from this length on (and below the one above) are selected by radix
// on 11-bit digits (a histogram that stays in L1), several at a time.
constexpr int64_t kRadixSelectMid = 4096;

// The selection for a slice of length n: radix for long and mid-sized ones
// (which only read the slice), nth_element below.
template <class T>
Picked<T> pick(T* row, int64_t n, const PositionsFn& positions) {
  if (n >= kRadixSelectMin) return pick_large<T>(row, n, positions);
  if (n >= kRadixSelectMid) return pick_large<T, 11>(row, n, positions);
  return pick_small<T>(row, n, positions);
}

// The slices: the reduced axes of `a` moved last and copied to the host as a
// contiguous (rows, n) array in a working dtype with a C++ type (bool as
// uint8, float16 as float32: both hold every value exactly).
struct Slices {
  Array data;  // host, (rows, n): a writable copy, or a's own memory when `borrowed`
  bool borrowed = false;
  int64_t rows = 0, n = 0;
  Dtype dtype;       // a's dtype
  Shape kept;        // a's shape without the reduced axes
  Shape keep_shape;  // ... with them as 1 (keepdims)
  std::vector<int> axes;
};

Dtype working_dtype(Dtype d) {
  if (d == Dtype::kBool) return Dtype::kUInt8;
  if (d == Dtype::kFloat16) return Dtype::kFloat32;
  return d;
}

Slices make_slices(const Array& a, const Axes& axes, bool copy_data = true, bool allow_view = false) {
  Slices s;
  s.dtype = a.dtype();
  s.axes = normalize_reduce_axes(axes, a.ndim(), false);
  std::vector<int64_t> perm;
  std::vector<bool> red(a.ndim(), false);
  for (int ax : s.axes) red[ax] = true;
  s.rows = 1;
  s.n = 1;
  for (int i = 0; i < a.ndim(); ++i) {
    if (!red[i]) {
      perm.push_back(i);
      s.kept.push_back(a.shape()[i]);
      s.keep_shape.push_back(a.shape()[i]);
      s.rows *= a.shape()[i];
    } else {
      s.keep_shape.push_back(1);
    }
  }
  for (int ax : s.axes) {
    perm.push_back(ax);
    s.n *= a.shape()[ax];
  }
  if (copy_data) {
    Array moved = a.transpose(perm);
    if (moved.device().type() != DeviceType::kCPU) moved = moved.to_device(host_device());
    // A host array of the working dtype whose slices form a (rows, n) view is
    // read in place: each slice is copied into a per-thread buffer before it
    // is reordered (a long one is only read), which spares writing a copy of
    // the whole array into fresh pages.
    if (allow_view && moved.dtype() == working_dtype(a.dtype()) && s.rows * s.n > 0) {
      if (auto v = moved.reshape_view(Shape{s.rows, s.n})) {
        s.data = *v;
        s.borrowed = true;
        return s;
      }
    }
    s.data = moved.astype(working_dtype(a.dtype()), Order::kC, true).reshape(Shape{s.rows, s.n});
  }
  return s;
}

// Each row (of `rows`) in parallel; rows are long or many.
void for_each_row(int64_t rows, int64_t n, const std::function<void(int64_t)>& fn) {
  const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(n, 1));
  parallel_for(rows, grain, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) fn(r);
  });
}

Array to_result_device(const Array& host, Dtype dtype, Device& dev) {
  Array r = host.astype(dtype, Order::kC, false);
  return dev.type() == DeviceType::kCPU ? r : r.to_device(dev);
}

// The q array checked and as doubles on the host.
std::vector<double> q_values(const Array& q, bool percent) {
  if (q.ndim() > 2) throw ValueError("q must be a scalar or 1d");
  Array qh = q.astype(Dtype::kFloat64, Order::kC, false);
  if (qh.device().type() != DeviceType::kCPU) qh = qh.to_device(host_device());
  std::vector<double> v = qh.to_vector<double>();
  for (double x : v) {
    if (!(x >= 0.0 && x <= 1.0)) {
      throw ValueError(percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
    }
  }
  return v;
}

struct Prepared {
  Array q;  // quantiles in [0, 1]
  bool weak;
  Method method;
};

Prepared prepare(const Array& a, const Array& q0, const QuantileOptions& o, bool percent) {
  if (is_complex(a.dtype())) throw TypeError("a must be an array of real numbers");
  Prepared p;
  p.weak = o.weak_q();
  p.q = percent ? divide(q0, Scalar(100)) : q0;
  if (p.weak && percent) p.q = p.q.astype(Dtype::kFloat64);
  q_values(p.q, percent);
  p.method = parse_method(o.method());
  if (o.weights() && p.method != kInvertedCdf) {
    throw ValueError("Only method 'inverted_cdf' supports weights. Got: " + o.method() + ".");
  }
  return p;
}

// The weights broadcast to a's shape (NumPy's _weights_are_valid), checked
// non-negative.
Array weights_for(const Array& a, const Array& w, const Axes& axes) {
  if (w.shape() == a.shape()) {
    if (any(less(w, Scalar(0))).item<bool>()) throw ValueError("Weights must be non-negative.");
    return w;
  }
  if (axes.is_all()) throw TypeError("Axis must be specified when shapes of a and weights differ.");
  std::vector<int64_t> ax;
  for (int64_t v : axes.list()) {
    if (v < -a.ndim() || v >= a.ndim()) {
      throw AxisError("axis " + std::to_string(v) + " is out of bounds for array of dimension " +
                      std::to_string(a.ndim()));
    }
    ax.push_back(v < 0 ? v + a.ndim() : v);
  }
  Shape want;
  for (int64_t v : ax) want.push_back(a.shape()[v]);
  if (w.shape() != want) {
    throw ValueError(
        "Shape of weights must be consistent with shape of a "
        "along specified axis.");
  }
  std::vector<int64_t> order(ax.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return ax[i] < ax[j]; });
  Array wt = w.transpose(order);
  Shape bs;
  for (int i = 0; i < a.ndim(); ++i) bs.push_back(std::find(ax.begin(), ax.end(), i) != ax.end() ? a.shape()[i] : 1);
  if (any(less(w, Scalar(0))).item<bool>()) throw ValueError("Weights must be non-negative.");
  return wt.reshape(bs).broadcast_to(a.shape());
}

Shape result_shape(const Array& q, const Slices& s, bool keepdims) {
  Shape r = q.shape();
  for (int64_t v : (keepdims ? s.keep_shape : s.kept)) r.push_back(v);
  return r;
}

// The result from the selected neighbours: prev (nq, rows) where no
// interpolation is needed, else NumPy's _lerp with per-element weights.
Array interpolate(const Array& prev, const Array& next, const Array& gamma, const Array& omg, const Array& upper) {
  Array diff = subtract(next, prev);
  Array lo = add(prev, multiply(diff, gamma));
  Array hi = subtract(next, multiply(diff, omg));
  return where(upper, hi, lo);
}

// ---- the sorted path (arrays off the host) -------------------------------
// The slices are sorted on the array's device (NaN last); only the count of
// non-NaN values per slice comes to the host, where the positions are
// computed exactly as on the host path; the neighbours are gathered on the
// device.
struct SortedSlices {
  Slices shape;                 // rows, n, kept shapes (no data)
  Array sorted;                 // (rows, n) on the device, working dtype
  std::vector<int64_t> counts;  // non-NaN values per row
};

SortedSlices sorted_slices(const Array& a, const Axes& axes) {
  SortedSlices ss;
  ss.shape = make_slices(a, axes, false);
  const Slices& s = ss.shape;
  std::vector<int64_t> perm;
  std::vector<bool> red(static_cast<size_t>(a.ndim()), false);
  for (int ax : s.axes) red[static_cast<size_t>(ax)] = true;
  for (int i = 0; i < a.ndim(); ++i)
    if (!red[static_cast<size_t>(i)]) perm.push_back(i);
  for (int ax : s.axes) perm.push_back(ax);
  Array moved = a.transpose(perm).astype(working_dtype(a.dtype()), Order::kC, true).reshape(Shape{s.rows, s.n});
  ss.sorted = s.n > 1 ? sort(moved, -1) : moved;
  if (is_floating(a.dtype()) && s.rows > 0) {
    Array c = sum(logical_not(isnan(ss.sorted)), Axes(1), ReduceOptions().dtype(Dtype::kInt64));
    ss.counts = c.to_device(host_device()).to_vector<int64_t>();
  } else {
    ss.counts.assign(static_cast<size_t>(s.rows), s.n);
  }
  return ss;
}

// sorted[r, idx[r, j]] as (rows, width) on the sorted array's device.
Array gather_rows(const SortedSlices& ss, const std::vector<int64_t>& idx, int64_t width) {
  Array ix = asarray(idx, Shape{ss.shape.rows, width}).to_device(ss.sorted.device());
  if (ss.shape.n == 0) return Array::empty(Shape{ss.shape.rows, width}, ss.sorted.dtype(), ss.sorted.device());
  return take_along_axis(ss.sorted, ix, 1);
}

Array host_array(const std::vector<double>& v, const Shape& shape) { return asarray(v, shape); }

}  // namespace

Array quantile_by_sort(const Array& a, const Array& q0, const Axes& axes, const QuantileOptions& o, bool percent,
                       bool skip_nan) {
  Prepared p = prepare(a, q0, o, percent);
  if (o.weights()) throw ValueError("quantile_by_sort: weights take the host path");
  const std::vector<double> qs = q_values(p.q, percent);
  const int64_t nq = static_cast<int64_t>(qs.size());
  Device& dev = a.device();
  SortedSlices ss = sorted_slices(a, axes);
  const int64_t rows = ss.shape.rows, n = ss.shape.n;
  if (n == 0 && rows > 0 && !skip_nan) throw IndexError("index -1 is out of bounds for axis 0 with size 0");
  const bool floating = is_floating(a.dtype());
  const Dtype qdt = p.q.dtype();
  const bool int_q = !is_floating(qdt);
  const bool discrete = is_discrete(p.method) || (p.method == kLinear && int_q);
  const bool g32 = !p.weak && (qdt == Dtype::kFloat32 || qdt == Dtype::kFloat16);
  std::vector<int64_t> prev_idx(static_cast<size_t>(rows * nq), 0), next_idx(static_cast<size_t>(rows * nq), 0);
  std::vector<double> gamma(static_cast<size_t>(nq * rows), 0.0), omg(static_cast<size_t>(nq * rows), 0.0);
  std::vector<double> upper(static_cast<size_t>(nq * rows), 0.0), nanrow(static_cast<size_t>(rows), 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t count = ss.counts[static_cast<size_t>(r)];
    if (count == 0 || (!skip_nan && count < n)) {
      nanrow[static_cast<size_t>(r)] = 1;
      continue;
    }
    for (int64_t qi = 0; qi < nq; ++qi) {
      Position pos = g32 ? position<float>(p.method, count, static_cast<float>(qs[qi]))
                         : position<double>(p.method, count, qs[qi]);
      if (discrete && !is_discrete(p.method)) {
        const int64_t k = std::min<int64_t>(static_cast<int64_t>(qs[qi] * double(count - 1)), count - 1);
        pos = {k, k, 0, false};
      }
      prev_idx[static_cast<size_t>(r * nq + qi)] = pos.prev;
      next_idx[static_cast<size_t>(r * nq + qi)] = pos.next;
      const size_t e = static_cast<size_t>(qi * rows + r);
      gamma[e] = pos.gamma;
      omg[e] = g32 ? double(1.0f - static_cast<float>(pos.gamma)) : 1.0 - pos.gamma;
      upper[e] = pos.upper ? 1 : 0;
    }
  }
  Array res = gather_rows(ss, prev_idx, nq).transpose().astype(a.dtype(), Order::kC, false);
  if (!discrete) {
    Array nx = gather_rows(ss, next_idx, nq).transpose().astype(a.dtype(), Order::kC, false);
    Dtype gd = g32 ? qdt : Dtype::kFloat64;
    if (p.weak) gd = floating ? a.dtype() : Dtype::kFloat64;
    const Shape qr{nq, rows};
    res = interpolate(res, nx, to_result_device(host_array(gamma, qr), gd, dev),
                      to_result_device(host_array(omg, qr), gd, dev),
                      to_result_device(host_array(upper, qr), Dtype::kBool, dev));
  }
  if (floating) {
    Array nanr = to_result_device(host_array(nanrow, Shape{rows}), Dtype::kBool, dev);
    res = where(nanr, Scalar(std::nan("")), res);
  }
  res = res.reshape(result_shape(p.q, ss.shape, o.keepdims()));
  return finish(res, o.out(), percent ? "percentile" : "quantile");
}

namespace {
// The median res of slices of n values into out=: NumPy averages the
// middle values with mean(..., out=out), so their sum (res times their
// count) is cast into out's dtype before the division, and the quotient
// again (-1.5 into uint8 is 126: -3 -> 253, then 253 / 2).
// NumPy's median writes the mean into out=, then copies the NaN of each
// slice holding one over it (copyto, same_kind): into an out= the input's
// dtype cannot take that is a TypeError, after out was written.
void check_nan_copy(bool any_nan, const Array& res, const Array& out, Dtype input) {
  if (!any_nan || !out.defined() || can_cast(input, out.dtype(), Casting::kSameKind)) return;
  throw TypeError(std::string("Cannot cast ") + (res.ndim() == 0 ? "scalar" : "array data") + " from dtype('" +
                  dtype_name(input) + "') to dtype('" + dtype_name(out.dtype()) + "') according to the rule 'same_kind'");
}

Array median_finish(const Array& res, const Array& out, int64_t n, Dtype input, bool any_nan) {
  if (!out.defined() || out.dtype() == res.dtype() || is_complex(res.dtype())) {
    Array r = finish(res, out, "median");
    check_nan_copy(any_nan, res, out, input);
    return r;
  }
  // NumPy's mean of integers has a float64 loop, which reads a complex out=
  // (inexact input takes out='s complex loop instead).
  if (!is_inexact(input)) warn_if_complex_to_real(out.dtype(), res.dtype());
  const double w = n % 2 == 0 ? 2.0 : 1.0;
  Array sum_in_out = multiply(res, Scalar(w)).astype(out.dtype(), Order::kK, false);
  Array r = finish(divide(sum_in_out, Scalar(w)).astype(out.dtype(), Order::kK, false), out, "median");
  check_nan_copy(any_nan, res, out, input);
  return r;
}
}  // namespace

Array median_by_sort(const Array& a, const Axes& axes, const QuantileOptions& o, bool skip_nan) {
  if (is_complex(a.dtype())) throw TypeError("median_by_sort: complex values take the host path");
  SortedSlices ss = sorted_slices(a, axes);
  const int64_t rows = ss.shape.rows, n = ss.shape.n;
  if (a.size() == 0) {
    ReduceOptions ro;
    ro.keepdims(o.keepdims());
    return finish(mean(a, axes, ro), o.out(), "median");
  }
  const bool floating = is_floating(a.dtype());
  std::vector<int64_t> mid(static_cast<size_t>(rows * 2), 0);
  std::vector<double> nanrow(static_cast<size_t>(rows), 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t count = ss.counts[static_cast<size_t>(r)];
    if (count == 0 || (!skip_nan && count < n)) {
      nanrow[static_cast<size_t>(r)] = 1;
      continue;
    }
    mid[static_cast<size_t>(2 * r)] = (count - 1) / 2;
    mid[static_cast<size_t>(2 * r + 1)] = count / 2;
  }
  Device& dev = a.device();
  Array res = mean(gather_rows(ss, mid, 2).astype(a.dtype(), Order::kC, false), 1);
  if (floating)
    res = where(to_result_device(host_array(nanrow, Shape{rows}), Dtype::kBool, dev), Scalar(std::nan("")), res);
  Array shaped = res.reshape(o.keepdims() ? ss.shape.keep_shape : ss.shape.kept);
  const bool any_nan = floating && std::any_of(nanrow.begin(), nanrow.end(), [](double v) { return v != 0; });
  return skip_nan ? finish(shaped, o.out(), "median") : median_finish(shaped, o.out(), n, a.dtype(), any_nan);
}

namespace {

// The rows of Slices for the selection loops: slice r is the copy's row, or
// (borrowed memory) the slice itself when it is only read and contiguous,
// else a per-thread copy of it.
template <class T>
struct SliceRows {
  explicit SliceRows(const Slices& s)
      : data(reinterpret_cast<T*>(s.data.data())),
        base(s.data.data()),
        n(s.n),
        borrowed(s.borrowed),
        rstride(s.borrowed ? s.data.strides()[0] : 0),
        estride(s.borrowed ? s.data.strides()[1] : 0) {}

  T* row(int64_t r, bool read_only) const {
    if (!borrowed) return data + r * n;
    const char* p = base + r * rstride;
    if (read_only && estride == int64_t(sizeof(T))) return const_cast<T*>(reinterpret_cast<const T*>(p));
    thread_local std::vector<T> buf;
    buf.resize(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) std::memcpy(&buf[j], p + j * estride, sizeof(T));
    return buf.data();
  }

  T* data;
  const char* base;
  int64_t n;
  bool borrowed;
  int64_t rstride, estride;
};

Array quantile_impl(const Array& a, const Array& q0, const Axes& axes, const QuantileOptions& o, bool percent,
                    bool skip_nan) {
  if (&a.device() != &host_device() && !o.weights() && !is_complex(a.dtype()))
    return quantile_by_sort(a, q0, axes, o, percent, skip_nan);
  Prepared p = prepare(a, q0, o, percent);
  const std::vector<double> qs = q_values(p.q, percent);
  const int64_t nq = static_cast<int64_t>(qs.size());
  Device& dev = a.device();
  std::optional<Array> w;
  if (o.weights()) w = weights_for(a, *o.weights(), axes);
  Slices s = make_slices(a, axes, true, !o.weights().has_value());
  const int64_t rows = s.rows, n = s.n;
  const bool floating = is_floating(a.dtype());
  const Dtype qdt = p.q.dtype();
  const bool int_q = !is_floating(qdt);
  const bool discrete = is_discrete(p.method) || (p.method == kLinear && int_q) || w.has_value();
  // G: the dtype the positions are computed in (q's, float64 for weak or
  // integer q).
  const bool g32 = !p.weak && (qdt == Dtype::kFloat32 || qdt == Dtype::kFloat16);
  if (n == 0 && rows > 0 && !skip_nan) throw IndexError("index -1 is out of bounds for axis 0 with size 0");
  const Dtype wd = s.data.dtype();
  Array prev = Array::empty(Shape{nq, rows}, wd, host_device());
  Array next = Array::empty(Shape{nq, rows}, wd, host_device());
  Array gamma = Array::empty(Shape{nq, rows}, Dtype::kFloat64, host_device());
  Array omg = Array::empty(Shape{nq, rows}, Dtype::kFloat64, host_device());
  Array upper = Array::empty(Shape{nq, rows}, Dtype::kBool, host_device());
  Array nanrow = Array::empty(Shape{rows}, Dtype::kBool, host_device());
  Array wh;
  if (w) {
    Array wm = make_slices(*w, axes).data;  // same axes moved the same way
    wh = wm.astype(Dtype::kFloat64, Order::kC, false);
  }
  std::vector<std::string> err(static_cast<size_t>(std::max<int64_t>(rows, 0)));
  with_type(wd, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const SliceRows<T> slice_rows(s);
    auto row_of = [&slice_rows](int64_t r, bool read_only) { return slice_rows.row(r, read_only); };
    T* pv = reinterpret_cast<T*>(prev.data());
    T* nv = reinterpret_cast<T*>(next.data());
    double* gv = reinterpret_cast<double*>(gamma.data());
    double* ov = reinterpret_cast<double*>(omg.data());
    bool* uv = reinterpret_cast<bool*>(upper.data());
    bool* nr = reinterpret_cast<bool*>(nanrow.data());
    const bool large = n >= kRadixSelectMid;  // read-only selection
    auto one_row = [&](int64_t r) {
      T* row = row_of(r, large || w.has_value());
      nr[r] = false;
      auto none = [&] {
        for (int64_t qi = 0; qi < nq; ++qi) {
          pv[qi * rows + r] = nv[qi * rows + r] = T{};
          gv[qi * rows + r] = ov[qi * rows + r] = 0;
          uv[qi * rows + r] = false;
        }
      };
      if (w) {
        // inverted_cdf with weights: the first sorted value whose cumulative
        // weight reaches q of the total (NaN values and their weights left
        // out by the NaN-ignoring variants).
        const double* wr = reinterpret_cast<const double*>(wh.data()) + r * n;
        std::vector<int64_t> idx;
        for (int64_t k = 0; k < n; ++k) {
          if (!(skip_nan && is_nan_value(row[k]))) idx.push_back(k);
        }
        const int64_t m = static_cast<int64_t>(idx.size());
        if (m == 0) {
          nr[r] = true;
          none();
          return;
        }
        std::stable_sort(idx.begin(), idx.end(), [&](int64_t i, int64_t j) { return before(row[i], row[j]); });
        std::vector<double> cdf(m);
        double acc = 0;
        for (int64_t k = 0; k < m; ++k) cdf[k] = acc += wr[idx[k]];
        for (double& c : cdf) c /= acc;
        if (std::isnan(cdf[m - 1])) err[r] = "Weights included NaN, inf or were all zero.";
        if (is_nan_value(row[idx[m - 1]])) nr[r] = true;
        for (int64_t qi = 0; qi < nq; ++qi) {
          int64_t pos = 0;
          if (g32) {
            const float qq = static_cast<float>(qs[qi]);
            while (pos < m && !((cdf[pos] == 0 ? -1.0f : static_cast<float>(cdf[pos])) >= qq)) ++pos;
          } else {
            while (pos < m && !((cdf[pos] == 0 ? -1.0 : cdf[pos]) >= qs[qi])) ++pos;
          }
          pos = std::min(pos, m - 1);
          pv[qi * rows + r] = nv[qi * rows + r] = row[idx[pos]];
          gv[qi * rows + r] = ov[qi * rows + r] = 0;
          uv[qi * rows + r] = false;
        }
        return;
      }
      std::vector<Position> pos(nq);
      auto positions = [&](int64_t count, bool has_nan) {
        std::vector<int64_t> kth;
        if (count == 0 || (!skip_nan && has_nan)) return kth;  // the result is NaN
        for (int64_t qi = 0; qi < nq; ++qi) {
          pos[qi] = g32 ? position<float>(p.method, count, static_cast<float>(qs[qi]))
                        : position<double>(p.method, count, qs[qi]);
          if (discrete && !is_discrete(p.method)) {
            // linear with integer q: the index itself.
            const int64_t k = std::min<int64_t>(static_cast<int64_t>(qs[qi] * double(count - 1)), count - 1);
            pos[qi] = {k, k, 0, false};
          }
          kth.push_back(pos[qi].prev);
          kth.push_back(pos[qi].next);
        }
        std::sort(kth.begin(), kth.end());
        kth.erase(std::unique(kth.begin(), kth.end()), kth.end());
        return kth;
      };
      Picked<T> pk = pick<T>(row, n, positions);
      if (pk.ks.empty()) {
        nr[r] = true;
        none();
        return;
      }
      for (int64_t qi = 0; qi < nq; ++qi) {
        const int64_t e = qi * rows + r;
        pv[e] = pk.at(pos[qi].prev);
        nv[e] = pk.at(pos[qi].next);
        gv[e] = pos[qi].gamma;
        ov[e] = g32 ? double(1.0f - static_cast<float>(pos[qi].gamma)) : 1.0 - pos[qi].gamma;
        uv[e] = pos[qi].upper;
      }
    };
    if (n >= kRadixSelectMin) {  // one slice at a time, each over all threads
      for (int64_t r = 0; r < rows; ++r) one_row(r);
    } else {
      for_each_row(rows, n, one_row);
    }
  });
  for (const std::string& e : err) {
    if (!e.empty()) throw ValueError(e);
  }
  Array res = to_result_device(prev, a.dtype(), dev);
  if (!discrete) {
    Array nx = to_result_device(next, a.dtype(), dev);
    // Weights in q's dtype; a Python-float q is cast to the data's float
    // dtype first, as NEP 50 does with a weak scalar.
    Dtype gd = g32 ? qdt : Dtype::kFloat64;
    if (p.weak) gd = floating ? a.dtype() : Dtype::kFloat64;
    res = interpolate(res, nx, to_result_device(gamma, gd, dev), to_result_device(omg, gd, dev),
                      to_result_device(upper, Dtype::kBool, dev));
  }
  if (floating || skip_nan) {
    Array nanr = to_result_device(nanrow, Dtype::kBool, dev);
    if (floating) res = where(nanr, Scalar(std::nan("")), res);
  }
  res = res.reshape(result_shape(p.q, s, o.keepdims()));
  return finish(res, o.out(), percent ? "percentile" : "quantile");
}

Array median_impl(const Array& a, const Axes& axes, const QuantileOptions& o, bool skip_nan) {
  if (&a.device() != &host_device() && !is_complex(a.dtype())) return median_by_sort(a, axes, o, skip_nan);
  Slices s = make_slices(a, axes, false);
  if (a.size() == 0 || is_complex(a.dtype())) {
    ReduceOptions ro;
    ro.keepdims(o.keepdims());
    if (a.size() == 0) return finish(mean(a, axes, ro), o.out(), "median");
    // Complex values: sorted whole (NumPy's complex order), middle averaged.
    Slices c = make_slices(a, axes);
    Array srt = sort(to_result_device(c.data, a.dtype(), a.device()), -1);
    const int64_t n = c.n;
    Array mid =
        srt.index({IndexItem::slice(std::nullopt, std::nullopt, 1), IndexItem::slice((n - 1) / 2, n / 2 + 1, 1)});
    Array res = mean(mid, 1);
    Array bad = isnan(srt.index({IndexItem::slice(std::nullopt, std::nullopt, 1), IndexItem::integer(n - 1)}));
    res = where(bad, Scalar(std::nan("")), res);
    return finish(res.reshape(o.keepdims() ? c.keep_shape : c.kept), o.out(), "median");
  }
  s = make_slices(a, axes, true, true);
  const int64_t rows = s.rows, n = s.n;
  const bool floating = is_floating(a.dtype());
  const Dtype wd = s.data.dtype();
  // Two middle values per row (the same one twice for an odd count, unless
  // every row has the same odd count: then one).
  const int64_t width = (!skip_nan || !floating) && n % 2 == 1 ? 1 : 2;
  Array mid = Array::empty(Shape{rows, width}, wd, host_device());
  Array nanrow = Array::empty(Shape{rows}, Dtype::kBool, host_device());
  with_type(wd, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const SliceRows<T> slice_rows(s);
    auto row_of = [&slice_rows](int64_t r, bool read_only) { return slice_rows.row(r, read_only); };
    T* mv = reinterpret_cast<T*>(mid.data());
    bool* nr = reinterpret_cast<bool*>(nanrow.data());
    const bool large = n >= kRadixSelectMid;  // read-only selection
    auto one_row = [&](int64_t r) {
      T* row = row_of(r, large);
      auto positions = [&](int64_t count, bool has_nan) {
        std::vector<int64_t> kth;
        if (count == 0 || (!skip_nan && has_nan)) return kth;  // the result is NaN
        kth = {(count - 1) / 2};
        if (count / 2 != (count - 1) / 2) kth.push_back(count / 2);
        return kth;
      };
      Picked<T> pk = pick<T>(row, n, positions);
      nr[r] = pk.ks.empty();
      if (pk.ks.empty()) {
        for (int64_t j = 0; j < width; ++j) mv[r * width + j] = T{};
        return;
      }
      mv[r * width] = pk.at((pk.count - 1) / 2);
      if (width == 2) mv[r * width + 1] = pk.at(pk.count / 2);
    };
    if (n >= kRadixSelectMin) {  // one slice at a time, each over all threads
      for (int64_t r = 0; r < rows; ++r) one_row(r);
    } else {
      for_each_row(rows, n, one_row);
    }
  });
  Device& dev = a.device();
  Array res = mean(to_result_device(mid, a.dtype(), dev), 1);
  if (floating) res = where(to_result_device(nanrow, Dtype::kBool, dev), Scalar(std::nan("")), res);
  Array shaped = res.reshape(o.keepdims() ? s.keep_shape : s.kept);
  const bool* nanrows = reinterpret_cast<const bool*>(nanrow.data());
  const bool any_nan = floating && std::any_of(nanrows, nanrows + rows, [](bool v) { return v; });
  return skip_nan ? finish(shaped, o.out(), "median") : median_finish(shaped, o.out(), n, a.dtype(), any_nan);
}

}  // namespace

Array quantile(const Array& a, const Array& q, const Axes& axes, const QuantileOptions& o) {
  return quantile_impl(a, q, axes, o, false, false);
}
Array percentile(const Array& a, const Array& q, const Axes& axes, const QuantileOptions& o) {
  return quantile_impl(a, q, axes, o, true, false);
}
namespace {
// A NaN left by a nan* statistic means a slice had nothing but NaN.
Array warn_if_all_nan(Array r) {
  if (is_inexact(r.dtype()) && r.size() > 0 && any(isnan(r)).item<bool>()) warn("All-NaN slice encountered");
  return r;
}
}  // namespace

Array nanquantile(const Array& a, const Array& q, const Axes& axes, const QuantileOptions& o) {
  return warn_if_all_nan(quantile_impl(a, q, axes, o, false, true));
}
Array nanpercentile(const Array& a, const Array& q, const Axes& axes, const QuantileOptions& o) {
  return warn_if_all_nan(quantile_impl(a, q, axes, o, true, true));
}
Array median(const Array& a, const Axes& axes, const QuantileOptions& o) { return median_impl(a, axes, o, false); }
Array nanmedian(const Array& a, const Axes& axes, const QuantileOptions& o) {
  return warn_if_all_nan(median_impl(a, axes, o, true));
}

}  // namespace kumo
