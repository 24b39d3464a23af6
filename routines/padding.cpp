#include "routines/padding.h"

#include <algorithm>
#include <string>

#include "core/errors.h"
#include "routines/assignment.h"
#include "routines/axis_slice.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"
#include "routines/reduction.h"
#include "routines/row_copy.h"
#include "routines/sorting.h"

namespace kumo {

namespace {

using detail::slice_axis;
using Width = std::pair<int64_t, int64_t>;

template <class T>
const T& pair_for(const std::vector<T>& v, int axis) {
  return v.size() == 1 ? v[0] : v[static_cast<size_t>(axis)];
}

// The part of `padded` an axis's padding writes: whole along the axes up to
// and including `axis`, the original area along the later ones (which are
// padded afterwards, corners included).
Array region(const Array& padded, const std::vector<Width>& width, const Shape& orig, int axis) {
  std::vector<IndexItem> idx;
  for (int d = 0; d < padded.ndim(); ++d) {
    if (d <= axis)
      idx.push_back(IndexItem::slice(std::nullopt, std::nullopt, 1));
    else
      idx.push_back(IndexItem::slice(width[d].first, width[d].first + orig[d], 1));
  }
  return padded.index(idx);
}

Array left_area(const Array& roi, int axis, const Width& w) { return slice_axis(roi, axis, std::nullopt, w.first); }
Array right_area(const Array& roi, int axis, const Width& w) {
  return slice_axis(roi, axis, roi.shape()[axis] - w.second, std::nullopt);
}

// The first and last original values along `axis` (extent 1 kept).
std::pair<Array, Array> edges(const Array& roi, int axis, const Width& w) {
  const int64_t r = roi.shape()[axis] - w.second;
  return {slice_axis(roi, axis, w.first, w.first + 1), slice_axis(roi, axis, r - 1, r)};
}

void set_area(const Array& roi, int axis, const Width& w, const Array& left, const Array& right) {
  if (w.first > 0) left.copy_to(left_area(roi, axis, w));
  if (w.second > 0) right.copy_to(right_area(roi, axis, w));
}

// numpy.median along `axis` with keepdims: the mean of the middle one or two
// sorted values, NaN when the slab holds a NaN (sorted last).
Array median_keepdims(const Array& chunk, int axis) {
  const int64_t n = chunk.shape()[axis];
  if (n == 0) return mean(chunk, Axes(static_cast<int64_t>(axis)), ReduceOptions().keepdims());  // NaN, as NumPy
  const Array s = sort(chunk, axis);
  Array m =
      mean(slice_axis(s, axis, (n - 1) / 2, n / 2 + 1), Axes(static_cast<int64_t>(axis)), ReduceOptions().keepdims());
  if (is_floating(chunk.dtype()) || is_complex(chunk.dtype())) {
    const Array last = slice_axis(s, axis, n - 1, n);
    m = where(isnan(last), last.astype(m.dtype()), m);
  }
  return m;
}

Array statistic(PadMode mode, const Array& chunk, int axis, Dtype dtype) {
  const Axes ax(static_cast<int64_t>(axis));
  Array r;
  switch (mode) {
    case PadMode::kMaximum:
      r = max(chunk, ax, ReduceOptions().keepdims());
      break;
    case PadMode::kMinimum:
      r = min(chunk, ax, ReduceOptions().keepdims());
      break;
    case PadMode::kMean:
      r = mean(chunk, ax, ReduceOptions().keepdims());
      break;
    default:
      r = median_keepdims(chunk, axis);
      break;
  }
  // NumPy rounds a statistic to the nearest (even) integer before storing
  // it into an integer array.
  if (is_integer(dtype) && !is_integer(r.dtype())) r = rint(r);
  return r;
}

void pad_stat(const Array& roi, int axis, const Width& w, std::optional<int64_t> ll, std::optional<int64_t> rl,
              PadMode mode) {
  const int64_t left = w.first, right = roi.shape()[axis] - w.second, max_len = right - left;
  const int64_t lo = !ll || max_len < *ll ? max_len : *ll;
  const int64_t hi = !rl || max_len < *rl ? max_len : *rl;
  if ((lo == 0 || hi == 0) && (mode == PadMode::kMaximum || mode == PadMode::kMinimum))
    throw ValueError("stat_length of 0 yields no value for padding");
  const Array ls = statistic(mode, slice_axis(roi, axis, left, left + lo), axis, roi.dtype());
  const Array rs = lo == max_len && hi == max_len
                       ? ls
                       : statistic(mode, slice_axis(roi, axis, right - hi, right), axis, roi.dtype());
  set_area(roi, axis, w, ls, rs);
}

void pad_linear_ramp(const Array& roi, int axis, const Width& w, const std::pair<Scalar, Scalar>& ends) {
  auto [le, re] = edges(roi, axis, w);
  const Dtype dt = roi.dtype();
  auto ramp = [&](Scalar end, const Array& edge, int64_t num) {
    return linspace(Operand(end), Operand(edge.squeeze({axis})), num, false, dt, axis);
  };
  const Array l = ramp(ends.first, le, w.first);
  const Array r = slice_axis(ramp(ends.second, re, w.second), axis, std::nullopt, std::nullopt, -1);
  set_area(roi, axis, w, l, r);
}

// One round of reflection into each pad area; returns the widths still to fill.
Width reflect_round(const Array& roi, int axis, Width w, bool odd, int64_t period, bool include_edge) {
  const int64_t len = roi.shape()[axis];
  int64_t old_length = len - w.first - w.second, edge_offset;
  if (include_edge) {
    old_length = old_length / period * period;
    edge_offset = 1;
  } else {
    old_length = (old_length - 1) / (period - 1) * (period - 1) + 1;
    edge_offset = 0;
    old_length -= 1;
  }
  auto mirrored = [&](const Array& chunk, int64_t edge_at) {
    if (!odd) return chunk;
    const Array edge = slice_axis(roi, axis, edge_at, edge_at + 1);
    return subtract(multiply(Scalar(2), edge), chunk);
  };
  if (w.first > 0) {
    const int64_t n = std::min(old_length, w.first);
    const int64_t stop = w.first - edge_offset, start = stop + n;
    const Array chunk = mirrored(slice_axis(roi, axis, start, stop, -1), w.first);
    chunk.copy_to(slice_axis(roi, axis, w.first - n, w.first));
    w.first -= n;
  }
  if (w.second > 0) {
    const int64_t n = std::min(old_length, w.second);
    // Python's slice(-right + offset - 2, ... - n, -1) in positive positions.
    const int64_t start = len - w.second + edge_offset - 2, stop = start - n;
    const Array chunk = mirrored(
        slice_axis(roi, axis, start, stop < 0 ? std::nullopt : std::optional<int64_t>(stop), -1), len - w.second - 1);
    const int64_t at = len - w.second;
    chunk.copy_to(slice_axis(roi, axis, at, at + n));
    w.second -= n;
  }
  return w;
}

Width wrap_round(const Array& roi, int axis, Width w, int64_t original_period) {
  const int64_t len = roi.shape()[axis];
  const int64_t period = (len - w.first - w.second) / original_period * original_period;
  Width next{0, 0};
  if (w.first > 0) {
    const int64_t end = w.first + period, begin = end - std::min(period, w.first);
    const Array chunk = slice_axis(roi, axis, begin, end);
    if (w.first > period) {
      chunk.copy_to(slice_axis(roi, axis, w.first - period, w.first));
      next.first = w.first - period;
    } else {
      chunk.copy_to(slice_axis(roi, axis, std::nullopt, w.first));
    }
  }
  if (w.second > 0) {
    const int64_t begin = len - w.second - period, end = begin + std::min(period, w.second);
    const Array chunk = slice_axis(roi, axis, begin, end);
    if (w.second > period) {
      chunk.copy_to(slice_axis(roi, axis, len - w.second, len - w.second + period));
      next.second = w.second - period;
    } else {
      chunk.copy_to(slice_axis(roi, axis, len - w.second, std::nullopt));
    }
  }
  return next;
}

}  // namespace

PadMode pad_mode_from_string(const std::string& mode) {
  static const std::pair<const char*, PadMode> names[] = {
      {"constant", PadMode::kConstant}, {"edge", PadMode::kEdge},       {"linear_ramp", PadMode::kLinearRamp},
      {"maximum", PadMode::kMaximum},   {"mean", PadMode::kMean},       {"median", PadMode::kMedian},
      {"minimum", PadMode::kMinimum},   {"reflect", PadMode::kReflect}, {"symmetric", PadMode::kSymmetric},
      {"wrap", PadMode::kWrap},         {"empty", PadMode::kEmpty}};
  for (const auto& [name, m] : names)
    if (mode == name) return m;
  throw ValueError("mode '" + mode + "' is not supported");
}

Array pad(const Array& a, const std::vector<Width>& pad_width_in, PadMode mode, const PadOptions& o) {
  const int nd = a.ndim();
  if (pad_width_in.size() != 1 && pad_width_in.size() != static_cast<size_t>(nd))
    throw ValueError(
        "operands could not be broadcast together with remapped "
        "shapes [original->remapped]: (" +
        std::to_string(pad_width_in.size()) + ",2)  and requested shape (" + std::to_string(nd) + ",2)");
  std::vector<Width> width;
  for (int d = 0; d < nd; ++d) {
    const Width& w = pair_for(pad_width_in, d);
    if (w.first < 0 || w.second < 0) throw ValueError("index can't contain negative values");
    width.push_back(w);
  }
  const Shape& orig = a.shape();
  Shape shape(nd);
  for (int d = 0; d < nd; ++d) shape[d] = orig[d] + width[d].first + width[d].second;
  const Order order = a.f_contiguous() && !a.c_contiguous() ? Order::kF : Order::kC;
  Array padded = Array::empty(shape, a.dtype(), a.device(), order);
  {
    std::vector<IndexItem> mid;
    for (int d = 0; d < nd; ++d) mid.push_back(IndexItem::slice(width[d].first, width[d].first + orig[d], 1));
    if (a.size() > 0) detail::copy_rows(a, padded.index(mid));
  }
  if (mode == PadMode::kEmpty) return padded;
  if (mode == PadMode::kConstant) {
    for (int d = 0; d < nd; ++d) {
      const Array roi = region(padded, width, orig, d);
      const auto& v =
          o.constant_values.empty() ? std::pair<Scalar, Scalar>(Scalar(0), Scalar(0)) : pair_for(o.constant_values, d);
      if (width[d].first > 0) fill(left_area(roi, d, width[d]), v.first);
      if (width[d].second > 0) fill(right_area(roi, d, width[d]), v.second);
    }
    return padded;
  }
  if (a.size() == 0) {
    // Only constant and empty can extend an empty axis; other modes need
    // values.
    for (int d = 0; d < nd; ++d)
      if (orig[d] == 0 && (width[d].first > 0 || width[d].second > 0))
        throw ValueError("can't extend empty axis " + std::to_string(d) +
                         " using modes other than 'constant' or 'empty'");
    return padded;
  }
  for (int d = 0; d < nd; ++d) {
    const Width w = width[d];
    switch (mode) {
      case PadMode::kEdge: {
        const Array roi = region(padded, width, orig, d);
        auto [l, r] = edges(roi, d, w);
        set_area(roi, d, w, l, r);
        break;
      }
      case PadMode::kLinearRamp: {
        const auto& v =
            o.end_values.empty() ? std::pair<Scalar, Scalar>(Scalar(0), Scalar(0)) : pair_for(o.end_values, d);
        pad_linear_ramp(region(padded, width, orig, d), d, w, v);
        break;
      }
      case PadMode::kMaximum:
      case PadMode::kMinimum:
      case PadMode::kMean:
      case PadMode::kMedian: {
        std::pair<std::optional<int64_t>, std::optional<int64_t>> len;
        if (!o.stat_length.empty()) len = pair_for(o.stat_length, d);
        if ((len.first && *len.first < 0) || (len.second && *len.second < 0))
          throw ValueError("index can't contain negative values");
        pad_stat(region(padded, width, orig, d), d, w, len.first, len.second, mode);
        break;
      }
      case PadMode::kReflect:
      case PadMode::kSymmetric: {
        if (orig[d] == 1 && (w.first > 0 || w.second > 0)) {
          // A single value along the axis is repeated (NumPy's legacy rule).
          auto [l, r] = edges(padded, d, w);
          set_area(padded, d, w, l, r);
          break;
        }
        const Array roi = region(padded, width, orig, d);
        Width left = w;
        while (left.first > 0 || left.second > 0)
          left = reflect_round(roi, d, left, o.reflect_odd, orig[d], mode == PadMode::kSymmetric);
        break;
      }
      case PadMode::kWrap: {
        const Array roi = region(padded, width, orig, d);
        Width left = w;
        while (left.first > 0 || left.second > 0) left = wrap_round(roi, d, left, orig[d]);
        break;
      }
      default:
        break;
    }
  }
  return padded;
}

}  // namespace kumo
