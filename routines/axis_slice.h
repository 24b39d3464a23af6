// Internal helpers of the joining, padding and rearranging routines: a view
// of one axis's range with Python's slice semantics, and the (start, stop,
// step, count) a Python slice selects from a length, as slice.indices() does.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/array.h"

namespace kumo {
namespace detail {

// a[:, ..., start:stop:step, ...] with the slice on `axis` (already
// normalised).
inline Array slice_axis(const Array& a, int axis, std::optional<int64_t> start, std::optional<int64_t> stop,
                        int64_t step = 1) {
  std::vector<IndexItem> idx(static_cast<size_t>(axis), IndexItem::slice(std::nullopt, std::nullopt, 1));
  idx.push_back(IndexItem::slice(start, stop, step));
  return a.index(idx);
}

struct SliceRange {
  int64_t start, stop, step, count;
};

// Python's slice(start, stop, step).indices(n) plus the number of elements.
inline SliceRange slice_range(const IndexItem& s, int64_t n) {
  const int64_t step = s.step;
  int64_t start, stop;
  auto clamp = [&](int64_t v, bool neg_step) {
    if (v < 0) {
      v += n;
      if (v < 0) v = neg_step ? -1 : 0;
    } else if (v >= n) {
      v = neg_step ? n - 1 : n;
    }
    return v;
  };
  if (step > 0) {
    start = s.has_start ? clamp(s.start, false) : 0;
    stop = s.has_stop ? clamp(s.stop, false) : n;
  } else {
    start = s.has_start ? clamp(s.start, true) : n - 1;
    stop = s.has_stop ? clamp(s.stop, true) : -1;
  }
  int64_t count = 0;
  if (step > 0 && stop > start) count = (stop - start + step - 1) / step;
  if (step < 0 && start > stop) count = (start - stop + (-step) - 1) / (-step);
  return {start, stop, step, count};
}

}  // namespace detail
}  // namespace kumo
