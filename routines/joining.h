// Splitting, tiling and the stacking helpers of NumPy 2.4:
//
//   std::vector<kumo::Array> p = kumo::array_split(a, 3, 1);     // views
//   std::vector<kumo::Array> q = kumo::split(a, {2, 5});          // [:2], [2:5], [5:]
//   kumo::Array t = kumo::tile(a, {2, 3});
//   kumo::Array d = kumo::dstack({a, b});
//
// Every piece of a split is a view of the input, as in NumPy; tile and the
// stacking functions write one new array on the input's device.
#pragma once
#include <cstdint>
#include <vector>

#include "core/array.h"
#include "routines/manipulation.h"

namespace kumo {

// numpy.array_split: `sections` pieces along `axis` (the first N % sections
// one longer; ValueError when sections <= 0), or pieces between the given
// split points (Python slice semantics: negative points count from the end,
// points past the end give empty pieces). IndexError for an axis out of range
// (NumPy reads ary.shape[axis]).
std::vector<Array> array_split(const Array& a, int64_t sections, int64_t axis = 0);
std::vector<Array> array_split(const Array& a, const std::vector<int64_t>& indices, int64_t axis = 0);
// numpy.split: as array_split, but `sections` must divide the axis
// (ValueError "array split does not result in an equal division";
// ZeroDivisionError for 0 sections, as NumPy's modulo).
std::vector<Array> split(const Array& a, int64_t sections, int64_t axis = 0);
std::vector<Array> split(const Array& a, const std::vector<int64_t>& indices, int64_t axis = 0);
// split along axis 1 (axis 0 for 1-d input), 0 (input >= 2-d) and 2 (>= 3-d).
std::vector<Array> hsplit(const Array& a, int64_t sections);
std::vector<Array> hsplit(const Array& a, const std::vector<int64_t>& indices);
std::vector<Array> vsplit(const Array& a, int64_t sections);
std::vector<Array> vsplit(const Array& a, const std::vector<int64_t>& indices);
std::vector<Array> dsplit(const Array& a, int64_t sections);
std::vector<Array> dsplit(const Array& a, const std::vector<int64_t>& indices);
// numpy.unstack: the views x[..., i, ...] along `axis` (ValueError for 0-d
// input).
std::vector<Array> unstack(const Array& x, int64_t axis = 0);

// numpy.tile: `a` repeated reps[k] times along each axis (reps shorter than
// a.ndim is padded with leading 1s, longer pads a's shape). Always a new
// C-ordered array; ValueError for a negative count.
Array tile(const Array& a, const std::vector<int64_t>& reps);

// numpy.dstack: inputs made at least 3-d ((N,) -> (1, N, 1), (M, N) ->
// (M, N, 1)) and joined along axis 2.
Array dstack(const std::vector<Array>& arrays);
// numpy.column_stack: 0-d and 1-d inputs become columns, then axis-1 join.
Array column_stack(const std::vector<Array>& arrays);
// numpy.vstack / hstack (NumPy's dtype= and casting= through options).
Array vstack(const std::vector<Array>& arrays, const JoinOptions& options = {});
Array hstack(const std::vector<Array>& arrays, const JoinOptions& options = {});

}  // namespace kumo
