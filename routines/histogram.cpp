// bincount, digitize and the histogram family (see histogram.h).
#include "routines/histogram.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "kernels/elementwise.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/indexing.h"
#include "routines/manipulation.h"
#include "routines/quantile.h"
#include "routines/reduction.h"
#include "routines/sorting.h"

namespace kumo {

namespace {

using kernels::ElementwiseSpec;

// Adding into the histogram: plain on the host, where every chunk of the data
// owns its row, atomic on a GPU, where all threads share one row.
const char* const kHistPreamble = R"(
#if defined(__CUDA_ARCH__)
static KUMO_FN void kumo_hist_add(double* p, double v) { atomicAdd(p, v); }
static KUMO_FN void kumo_hist_add(int64_t* p, int64_t v) {
  atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
}
#else
template <class A> static inline void kumo_hist_add(A* p, A v) { *p += v; }
#endif
)";

// The loop every counting kernel shares: element i of the launch is a chunk
// of the data, `bin` (a statement) sets int64 b for element k, or -1 to skip.
std::shared_ptr<ElementwiseSpec> count_spec(const char* name, const std::string& in, const std::string& bin) {
  auto s =
      ElementwiseSpec::create(name,
                              "raw T x, raw TW w, raw int64 n_, raw int64 chunk_, raw int64 nbins_, "
                              "raw int64 rows_, raw int32 has_w_" +
                                  in,
                              "raw A h",
                              "const int64_t n = n_.at(0), chunk = chunk_.at(0), nbins = nbins_.at(0), "
                              "rows = rows_.at(0);"
                              "const bool has_w = has_w_.at(0) != 0;"
                              "const int64_t beg = i * chunk; const int64_t end = beg + chunk < n ? "
                              "beg + chunk : n;"
                              "A* hp = h.data() + (i % rows) * nbins; const T* xp = x.data(); const TW* wp = w.data();"
                              "for (int64_t k = beg; k < end; ++k) { int64_t b; " +
                                  bin + "; if (b >= 0) kumo_hist_add(hp + b, has_w ? (A)wp[k] : (A)1); }",
                              kHistPreamble);
  s->host_grain = 1;  // one pool task per chunk: each chunk is a long loop of its own
  return s;
}

// bincount: the value is the bin.
const ElementwiseSpec& bincount_spec() {
  static auto s = count_spec("kumo_bincount", "", "b = (int64_t)xp[k]");
  return *s;
}

// Equal bins, NumPy's computation: keep lo <= x <= hi (compared in TK), the
// bin from (x - first) / denom * nbins (difference in TE, the rest in TD), then
// corrected against the edges so that a value lands on the side of an edge
// the edges themselves say.
const ElementwiseSpec& uniform_spec() {
  static auto s = count_spec("kumo_hist_uniform", ", raw TE edges, raw TK lo, raw TK hi, raw TD denom",
                             "const TE* ep = edges.data(); const TK kv = (TK)xp[k];"
                             "if (!(kv >= lo.data()[0] && kv <= hi.data()[0])) { b = -1; } else {"
                             "  const TE e = (TE)xp[k]; const TE d = e - ep[0];"
                             "  b = (int64_t)((TD)((TD)d / denom.data()[0]) * (TD)nbins);"
                             "  if (b >= nbins) b = nbins - 1;"
                             "  if (b < 0) b = 0;"
                             "  if (e < ep[b]) --b;"
                             "  if (b < nbins - 1 && e >= ep[b + 1]) ++b; }");
  return *s;
}

// Bin edges given: binary search for the last edge <= x; the last edge is
// part of the last bin. Compared in the edges' dtype (the promoted one).
const ElementwiseSpec& edges_spec() {
  static auto s = count_spec("kumo_hist_edges", ", raw TE edges",
                             "const TE* ep = edges.data(); const TE e = (TE)xp[k]; const int64_t ne = nbins + 1;"
                             "if (!(e >= ep[0] && e <= ep[ne - 1])) { b = -1; } else {"
                             // Branch-free halving: how many edges are <= e (a
                             // data-dependent branch here would mispredict half the time).
                             "  int64_t base = 0, len = ne;"
                             "  while (len > 1) { const int64_t half = len / 2;"
                             "    base = (ep[base + half - 1] <= e) ? base + half : base; len -= half; }"
                             "  b = base + (ep[base] <= e ? 1 : 0) - 1; if (b >= nbins) b = nbins - 1; }");
  return *s;
}

Array scalar_array(double v, Dtype dt, Device& dev) { return full(Shape{1}, Scalar(v), dt, Order::kC, dev); }

// Runs a counting kernel over the contiguous 1-D x (with optional 1-D float64
// or int64-castable weights) into nbins bins; A is int64 (counts) or float64
// (weighted). Extra inputs follow the common ones.
Array run_count(const ElementwiseSpec& spec, const Array& x, const std::optional<Array>& w, int64_t nbins,
                const std::vector<Array>& extra) {
  Device& dev = x.device();
  const int64_t n = x.size();
  const Dtype acc = w ? Dtype::kFloat64 : Dtype::kInt64;
  const bool host = dev.type() == DeviceType::kCPU;
  // The host splits the data into chunks of at least 64 Ki elements, each
  // with its own row, unless the rows would outweigh the data.
  int64_t chunks = 1, chunk = std::max<int64_t>(n, 1);
  if (host) {
    const int64_t threads = host_num_threads();
    chunks = std::max<int64_t>(1, std::min<int64_t>(threads * 2, n / 65536));
    if (chunks > 1 && nbins * chunks > std::max<int64_t>(n / 2, 1 << 16)) chunks = 1;
    chunk = (n + chunks - 1) / std::max<int64_t>(chunks, 1);
    if (chunk == 0) chunk = 1;
    chunks = (n + chunk - 1) / chunk;
  } else {
    chunk = 1;
    chunks = n;
  }
  const int64_t rows = host ? std::max<int64_t>(chunks, 1) : 1;
  Array h = zeros(Shape{rows, nbins}, acc, Order::kC, dev);
  if (n > 0 && nbins > 0) {
    // The kernels index the data and weights as contiguous arrays.
    Array wt = w ? (w->c_contiguous() ? *w : w->copy(Order::kC)) : zeros(Shape{1}, Dtype::kFloat64, Order::kC, dev);
    auto i64 = [&](int64_t v) { return full(Shape{1}, Scalar(v), Dtype::kInt64, Order::kC, dev); };
    const Array xc = x.c_contiguous() ? x : x.copy(Order::kC);
    std::vector<Array> in = {xc,
                             wt,
                             i64(n),
                             i64(chunk),
                             i64(nbins),
                             i64(rows),
                             full(Shape{1}, Scalar(int64_t(w ? 1 : 0)), Dtype::kInt32, Order::kC, dev)};
    in.insert(in.end(), extra.begin(), extra.end());
    // The scalar parameters are 1-element raw arrays read with .at(0); the
    // launch size is the number of chunks.
    kernels::call_elementwise(spec, in, {h}, {}, chunks);
  }
  return rows == 1 ? h.reshape(Shape{nbins}) : sum(h, 0);
}

Array flat_contiguous(const Array& a) { return (a.c_contiguous() ? a : a.copy(Order::kC)).reshape(Shape{a.size()}); }

// Python's repr of a float (shortest round trip), for NumPy's messages.
std::string py_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// NumPy's _unsigned_subtract for two values of the data's range (as doubles).
double range_width(double hi, double lo) { return hi - lo; }

double item_double(const Array& a) { return a.astype(Dtype::kFloat64, Order::kK, false).item<double>(); }

// The edges and, for equal bins, the data needed to count them.
struct BinPlan {
  Array edges;
  bool uniform = false;
  int64_t nbins = 0;
  double first = 0, last = 0;
  bool range_given = false;
};

// NumPy's _get_outer_edges.
std::pair<double, double> outer_edges(const Array& a, const HistogramRange& range, bool* from_data) {
  double lo, hi;
  *from_data = false;
  if (range) {
    lo = range->first;
    hi = range->second;
    if (lo > hi) throw ValueError("max must be larger than min in range parameter.");
    if (!(std::isfinite(lo) && std::isfinite(hi))) {
      throw ValueError("supplied range of [" + py_float(lo) + ", " + py_float(hi) + "] is not finite");
    }
  } else if (a.size() == 0) {
    lo = 0;
    hi = 1;
  } else {
    *from_data = true;
    lo = item_double(min(a));
    hi = item_double(max(a));
    if (!(std::isfinite(lo) && std::isfinite(hi))) {
      throw ValueError("autodetected range of [" + py_float(lo) + ", " + py_float(hi) + "] is not finite");
    }
  }
  if (lo == hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  return {lo, hi};
}

double ptp_double(const Array& x) { return item_double(max(x)) - item_double(min(x)); }

// The bin width of an estimator (NumPy's _hist_bin_* functions).
double estimator_width(const std::string& name, const Array& x, const HistogramRange& range) {
  const double n = static_cast<double>(x.size());
  auto sturges = [&] { return ptp_double(x) / (std::log2(n) + 1.0); };
  auto sqrt_w = [&] { return ptp_double(x) / std::sqrt(n); };
  auto fd = [&] {
    Array p =
        percentile(x, scalar_array(75, Dtype::kFloat64, x.device()).reshape(Shape{}), Axes::all(), QuantileOptions());
    Array q =
        percentile(x, scalar_array(25, Dtype::kFloat64, x.device()).reshape(Shape{}), Axes::all(), QuantileOptions());
    return 2.0 * (item_double(p) - item_double(q)) * std::pow(n, -1.0 / 3.0);
  };
  if (name == "sqrt") return sqrt_w();
  if (name == "sturges") return sturges();
  if (name == "rice") return ptp_double(x) / (2.0 * std::pow(n, 1.0 / 3));
  if (name == "scott") return std::pow(24.0 * std::sqrt(M_PI) / n, 1.0 / 3.0) * item_double(kumo::std(x));
  if (name == "fd") return fd();
  if (name == "auto") return std::min(std::max(fd(), sqrt_w() / 2), sturges());
  if (name == "doane") {
    if (x.size() > 2) {
      const double sg1 = std::sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)));
      const double sigma = item_double(kumo::std(x));
      if (sigma > 0.0) {
        Array t = divide(subtract(x, mean(x)), Scalar(sigma));
        const double g1 = item_double(mean(power(t, Scalar(3))));
        return ptp_double(x) / (1.0 + std::log2(n) + std::log2(1.0 + std::fabs(g1) / sg1));
      }
    }
    return 0.0;
  }
  // stone: the number of bins minimising the estimated integrated squared
  // error.
  const double ptp_x = ptp_double(x);
  if (x.size() <= 1 || ptp_x == 0) return 0;
  const int64_t upper = std::max<int64_t>(100, static_cast<int64_t>(std::sqrt(n)));
  int64_t best = 1;
  double best_j = std::numeric_limits<double>::infinity();
  for (int64_t nb = 1; nb <= upper; ++nb) {
    const double hh = ptp_x / nb;
    Array p = divide(histogram(x, HistogramBins::count(nb), range).first, Scalar(n));
    const double pp = item_double(sum(multiply(p, p)));
    const double j = (2 - (n + 1) * pp) / hh;
    if (j < best_j) {
      best_j = j;
      best = nb;
    }
  }
  return ptp_x / best;
}

Dtype float_type_of(Dtype d) { return is_floating(d) ? d : Dtype::kFloat64; }

BinPlan plan_bins(const Array& a, const HistogramBins& bins, const HistogramRange& range,
                  const std::optional<Array>& weights) {
  BinPlan p;
  bool from_data = false;
  int64_t nb = 0;
  if (bins.name) {
    static const char* const kNames[] = {"stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges"};
    if (std::find_if(std::begin(kNames), std::end(kNames), [&](const char* s) { return *bins.name == s; }) ==
        std::end(kNames)) {
      throw ValueError("'" + *bins.name + "' is not a valid estimator for `bins`");
    }
    if (weights)
      throw TypeError(
          "Automated estimation of the number of bins is not "
          "supported for weighted data");
    auto [lo, hi] = outer_edges(a, range, &from_data);
    p.first = lo;
    p.last = hi;
    Array x = a;
    if (range) x = getitem(a, {Index(logical_and(greater_equal(a, Scalar(lo)), less_equal(a, Scalar(hi))))});
    if (x.size() == 0) {
      nb = 1;
    } else {
      double width = estimator_width(*bins.name, x, range);
      if (width != 0 && !std::isnan(width)) {
        if (is_integer(a.dtype()) && width < 1) width = 1;
        nb = static_cast<int64_t>(std::ceil(range_width(hi, lo) / width));
      } else {
        nb = 1;
      }
    }
  } else if (bins.n) {
    nb = *bins.n;
    if (nb < 1) throw ValueError("`bins` must be positive, when an integer");
    auto [lo, hi] = outer_edges(a, range, &from_data);
    p.first = lo;
    p.last = hi;
  } else {
    const Array& e = bins.edges;
    if (e.ndim() != 1) throw ValueError("`bins` must be 1d, when an array");
    if (e.size() > 1) {
      const int64_t m = e.size();
      if (any(greater(e.index({IndexItem::slice(std::nullopt, m - 1, 1)}),
                      e.index({IndexItem::slice(1, std::nullopt, 1)})))
              .item<bool>()) {
        throw ValueError("`bins` must increase monotonically, when an array");
      }
    }
    p.edges = e;
    return p;
  }
  p.uniform = true;
  p.nbins = nb;
  p.range_given = range.has_value();
  // NumPy's bin dtype: the data's (floats), float64 for integers.
  const Dtype bt = float_type_of(a.dtype());
  // NumPy's linspace: i * ((last - first) / nb) + first in the dtype of the
  // edges (float64 for a range given as Python numbers), the last one exact.
  {
    Device& dev = a.device();
    const Dtype dt = p.range_given ? Dtype::kFloat64 : bt;
    Array f = scalar_array(p.first, dt, dev).reshape(Shape{}), l = scalar_array(p.last, dt, dev).reshape(Shape{});
    Array step = divide(subtract(l, f), scalar_array(double(nb), dt, dev).reshape(Shape{}));
    Array y = add(multiply(arange(Scalar(int64_t(0)), Scalar(nb + 1), Scalar(int64_t(1)), dt, dev), step), f);
    setitem(y, {Index(nb)}, l);
    p.edges = y.astype(bt, Order::kK, false);
  }
  if (nb > 0 && any(greater_equal(p.edges.index({IndexItem::slice(std::nullopt, nb, 1)}),
                                  p.edges.index({IndexItem::slice(1, std::nullopt, 1)})))
                    .item<bool>()) {
    throw ValueError("Too many bins for data range. Cannot create " + std::to_string(nb) + " finite-sized bins.");
  }
  return p;
}

// a and weights flattened and checked as NumPy's _ravel_and_check_weights.
std::pair<Array, std::optional<Array>> ravel_check(const Array& a0, const std::optional<Array>& weights) {
  Array a = a0.dtype() == Dtype::kBool ? a0.astype(Dtype::kUInt8) : a0;
  std::optional<Array> w;
  if (weights) {
    if (weights->shape() != a.shape()) throw ValueError("weights should have the same shape as a.");
    if (weights->device().type() != a.device().type()) throw ValueError("weights are on another device than a");
    w = flat_contiguous(*weights);
  }
  return {flat_contiguous(a), w};
}

// Counts of the flattened data under a bin plan, weighted in float64 (each
// part of complex weights separately), cast to the weights' dtype.
Array count_bins(const Array& a, const BinPlan& p, const std::optional<Array>& w) {
  const int64_t nbins = p.uniform ? p.nbins : std::max<int64_t>(p.edges.size() - 1, 0);
  Device& dev = a.device();
  std::vector<Array> extra;
  const ElementwiseSpec* spec;
  if (p.uniform) {
    const Dtype bt = p.edges.dtype();
    const Dtype k = is_floating(a.dtype()) ? a.dtype() : Dtype::kFloat64;
    // A range the caller gave divides in float64 (NumPy's Python-float
    // width); one from the data divides in the bin dtype.
    const Dtype d = p.range_given ? Dtype::kFloat64 : bt;
    extra = {p.edges, scalar_array(p.first, k, dev), scalar_array(p.last, k, dev),
             scalar_array(range_width(p.last, p.first), d, dev)};
    spec = &uniform_spec();
  } else {
    if (nbins == 0) {
      return zeros(Shape{0}, w ? w->dtype() : Dtype::kInt64, Order::kC, dev);
    }
    const Dtype pt = promote_types(a.dtype(), p.edges.dtype());
    extra = {p.edges.c_contiguous() && p.edges.dtype() == pt ? p.edges : p.edges.astype(pt, Order::kC, true)};
    spec = &edges_spec();
  }
  if (!w) return run_count(*spec, a, std::nullopt, nbins, extra);
  const Dtype wt = w->dtype();
  if (is_complex(wt)) {
    Array re = run_count(*spec, a, w->real_view(), nbins, extra);
    Array im = run_count(*spec, a, w->imag_view(), nbins, extra);
    Array out = empty(Shape{nbins}, wt, Order::kC, dev);
    re.copy_to(out.real_view());
    im.copy_to(out.imag_view());
    return out;
  }
  return run_count(*spec, a, *w, nbins, extra).astype(wt, Order::kC, false);
}

}  // namespace

// ---- bincount
// ----------------------------------------------------------------------

Array bincount(const Array& x, const std::optional<Array>& weights, int64_t minlength) {
  if (x.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (x.ndim() > 1) throw ValueError("object too deep for desired array");
  const Dtype d = x.dtype();
  if (!(d == Dtype::kBool || is_integer(d))) {
    throw TypeError("Cannot cast array data from " + dtype_repr(d) + " to dtype('int64') according to the rule 'safe'");
  }
  if (minlength < 0) throw ValueError("'minlength' must not be negative");
  std::optional<Array> w;
  if (weights) {
    if (weights->ndim() == 0) throw ValueError("object of too small depth for desired array");
    if (weights->ndim() > 1) throw ValueError("object too deep for desired array");
    if (!can_cast(weights->dtype(), Dtype::kFloat64, Casting::kSafe)) {
      throw TypeError("Cannot cast array data from " + dtype_repr(weights->dtype()) +
                      " to dtype('float64') according to the rule 'safe'");
    }
    if (weights->size() != x.size()) throw ValueError("The weights and list don't have the same length.");
    w = weights->astype(Dtype::kFloat64, Order::kC, false);
  }
  int64_t nbins = minlength;
  if (x.size() > 0) {
    // One pass: the maximum of the values read as unsigned integers of their
    // width is the largest value, or has the sign bit set when one is negative.
    double m;
    if (d == Dtype::kInt8 || d == Dtype::kInt16 || d == Dtype::kInt32 || d == Dtype::kInt64) {
      const Dtype u = d == Dtype::kInt8    ? Dtype::kUInt8
                      : d == Dtype::kInt16 ? Dtype::kUInt16
                      : d == Dtype::kInt32 ? Dtype::kUInt32
                                           : Dtype::kUInt64;
      const uint64_t mu = max(x.view_as(u)).astype(Dtype::kUInt64).item<uint64_t>();
      if (mu >> (x.itemsize() * 8 - 1)) throw ValueError("'list' argument must have no negative elements");
      m = static_cast<double>(mu);
    } else {
      m = max(x).astype(Dtype::kFloat64).item<double>();
    }
    if (m >= 9.2e18) throw ValueError("'list' argument is too large");
    nbins = std::max<int64_t>(nbins, static_cast<int64_t>(m) + 1);
  }
  return run_count(bincount_spec(), flat_contiguous(x), w, nbins, {});
}

// ---- digitize
// ----------------------------------------------------------------------

Array digitize(const Array& x, const Array& bins, bool right) {
  if (is_complex(x.dtype())) throw TypeError("x may not be complex");
  if (bins.ndim() == 0) throw ValueError("object of too small depth for desired array");
  if (bins.ndim() > 1) throw ValueError("object too deep for desired array");
  const int64_t m = bins.size();
  bool decreasing = false;
  if (m > 1) {
    Array lo = bins.index({IndexItem::slice(std::nullopt, m - 1, 1)});
    Array hi = bins.index({IndexItem::slice(1, std::nullopt, 1)});
    const bool inc = all(less_equal(lo, hi)).item<bool>();
    if (!inc) {
      decreasing = all(greater_equal(lo, hi)).item<bool>();
      if (!decreasing) throw ValueError("bins must be monotonically increasing or decreasing");
    }
  }
  const std::string side = right ? "left" : "right";
  if (!decreasing) return searchsorted(bins, x, side);
  Array rev = bins.index({IndexItem::slice(std::nullopt, std::nullopt, -1)});
  return subtract(Scalar(m), searchsorted(rev, x, side));
}

// ---- histogram
// ---------------------------------------------------------------------

Array histogram_bin_edges(const Array& a, const HistogramBins& bins, const HistogramRange& range,
                          const std::optional<Array>& weights) {
  auto [x, w] = ravel_check(a, weights);
  return plan_bins(x, bins, range, w).edges;
}

std::pair<Array, Array> histogram(const Array& a, const HistogramBins& bins, const HistogramRange& range, bool density,
                                  const std::optional<Array>& weights) {
  auto [x, w] = ravel_check(a, weights);
  BinPlan p = plan_bins(x, bins, range, w);
  Array n = count_bins(x, p, w);
  if (density) {
    const int64_t m = p.edges.size();
    Array db = subtract(p.edges.index({IndexItem::slice(1, std::nullopt, 1)}),
                        p.edges.index({IndexItem::slice(std::nullopt, m - 1, 1)}))
                   .astype(is_complex(p.edges.dtype()) ? Dtype::kComplex128 : Dtype::kFloat64);
    return {divide(divide(n, db), sum(n)), p.edges};
  }
  return {n, p.edges};
}

std::pair<Array, std::vector<Array>> histogramdd(const Array& sample0, const std::vector<HistogramBins>& bins,
                                                 const std::vector<HistogramRange>& ranges, bool density,
                                                 const std::optional<Array>& weights) {
  Array sample = sample0;
  if (sample.ndim() < 2) sample = sample.reshape(Shape{sample.size(), 1});
  if (sample.ndim() != 2) {
    // NumPy unpacks a higher-dimensional array as a sequence of D coordinate
    // arrays.
    throw ValueError("too many values to unpack (expected 2)");
  }
  const int64_t N = sample.shape()[0], D = sample.shape()[1];
  if (bins.size() != 1 && static_cast<int64_t>(bins.size()) != D) {
    throw ValueError(
        "The dimension of bins must be equal to the dimension of "
        "the sample x.");
  }
  if (!ranges.empty() && static_cast<int64_t>(ranges.size()) != D) {
    throw ValueError("range argument must have one entry per dimension");
  }
  Device& dev = sample.device();
  std::vector<Array> edges(D), dedges(D);
  std::vector<int64_t> nbin(D);
  for (int64_t i = 0; i < D; ++i) {
    const HistogramBins& b = bins.size() == 1 ? bins[0] : bins[i];
    Array col = sample.index({all(), IndexItem::integer(i)});
    const HistogramRange r = ranges.empty() ? HistogramRange() : ranges[i];
    if (b.n) {
      if (*b.n < 1) throw ValueError("`bins[" + std::to_string(i) + "]` must be positive, when an integer");
      bool from_data;
      auto [lo, hi] = outer_edges(col, r, &from_data);
      edges[i] = linspace(Scalar(lo), Scalar(hi), *b.n + 1, true, std::nullopt, 0, dev);
    } else if (b.name) {
      throw TypeError("`bins[" + std::to_string(i) + "]` must be an integer, when a scalar");
    } else {
      if (b.edges.ndim() != 1) throw ValueError("`bins[" + std::to_string(i) + "]` must be a scalar or 1d array");
      edges[i] = b.edges;
      const int64_t m = b.edges.size();
      if (m > 1 && any(greater(b.edges.index({IndexItem::slice(std::nullopt, m - 1, 1)}),
                               b.edges.index({IndexItem::slice(1, std::nullopt, 1)})))
                       .item<bool>()) {
        throw ValueError("`bins[" + std::to_string(i) + "]` must be monotonically increasing, when an array");
      }
    }
    nbin[i] = edges[i].size() + 1;
    const int64_t m = edges[i].size();
    dedges[i] = subtract(edges[i].index({IndexItem::slice(1, std::nullopt, 1)}),
                         edges[i].index({IndexItem::slice(std::nullopt, m - 1, 1)}));
  }
  std::optional<Array> w;
  if (weights) {
    if (weights->ndim() != 1 || weights->size() != N) {
      throw ValueError("The weights and list don't have the same length.");
    }
    if (!can_cast(weights->dtype(), Dtype::kFloat64, Casting::kSafe)) {
      throw TypeError("Cannot cast array data from " + dtype_repr(weights->dtype()) +
                      " to dtype('float64') according to the rule 'safe'");
    }
    w = weights->astype(Dtype::kFloat64, Order::kC, false);
  }
  // The flat bin of each sample: per dimension the number of edges <= x
  // (0 and nbin-1 are the outliers), the last edge counted in the last bin.
  Array flat = zeros(Shape{N}, Dtype::kInt64, Order::kC, dev);
  int64_t total = 1;
  for (int64_t i = D - 1; i >= 0; --i) {
    Array col = sample.index({all(), IndexItem::integer(i)});
    Array idx = searchsorted(edges[i], col, "right");
    if (edges[i].size() > 0) {
      Array last = edges[i].index({IndexItem::integer(edges[i].size() - 1)});
      idx = subtract(idx, equal(col, last).astype(Dtype::kInt64));
    }
    flat = add(flat, multiply(idx, Scalar(total)));
    total *= nbin[i];
  }
  Array hist = run_count(bincount_spec(), flat, w, total, {}).astype(Dtype::kFloat64, Order::kC, false);
  Shape shp;
  for (int64_t v : nbin) shp.push_back(v);
  hist = hist.reshape(shp);
  std::vector<IndexItem> core(D, IndexItem::slice(1, -1, 1));
  hist = hist.index(core);
  if (density) {
    Array s = sum(hist);
    for (int64_t i = 0; i < D; ++i) {
      Shape bs(D, 1);
      bs[i] = nbin[i] - 2;
      hist = divide(hist, dedges[i].reshape(bs));
    }
    hist = divide(hist, s);
  }
  return {hist, edges};
}

}  // namespace kumo
