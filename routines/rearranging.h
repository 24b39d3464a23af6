// Rearranging elements with NumPy 2.4's semantics: flip, roll, rot90,
// resize, append, insert, delete, trim_zeros and vander.
//
//   kumo::Array f = kumo::flip(a, std::vector<int64_t>{0});   // a view, as NumPy's
//   kumo::Array r = kumo::roll(a, {1, -2}, std::vector<int64_t>{0, 1});
//   kumo::Array q = kumo::rot90(a);                            // a view
//   kumo::Array d = kumo::delete_(a, kumo::slice(0, std::nullopt, 2), 1);
//   kumo::Array v = kumo::vander(x, 4);
//
// Views are returned where NumPy returns views (flip, rot90, trim_zeros);
// everything else writes a new array on the input's device.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"

namespace kumo {

// numpy.flip: reversed along the given axes (every axis when nullopt);
// AxisError for an axis out of range, ValueError for a repeated one.
Array flip(const Array& m, const std::optional<std::vector<int64_t>>& axes = std::nullopt);
Array flip(const Array& m, int64_t axis);
// numpy.fliplr (ValueError below 2-d) and numpy.flipud (below 1-d).
Array fliplr(const Array& m);
Array flipud(const Array& m);

// numpy.roll: elements shifted along `axes` (shift and axes broadcast
// against each other; an axis may repeat, shifts add up); without axes the
// flattened array is rolled and reshaped back.
Array roll(const Array& a, const std::vector<int64_t>& shift,
           const std::optional<std::vector<int64_t>>& axes = std::nullopt);
Array roll(const Array& a, int64_t shift, std::optional<int64_t> axis = std::nullopt);

// numpy.rot90: k quarter turns from the first axis toward the second. A view.
// ValueError for axes that are not two distinct axes in range.
Array rot90(const Array& m, int64_t k = 1, const std::vector<int64_t>& axes = {0, 1});

// numpy.resize (the function): the flattened data repeated to fill `shape`
// in C order (zeros when the input is empty).
Array resize(const Array& a, const Shape& shape);

// numpy.append: values joined after arr along `axis` (both flattened when
// nullopt).
Array append(const Array& arr, const Array& values, std::optional<int64_t> axis = std::nullopt);

// numpy.insert: `values` inserted before the given positions along `axis`
// (the flattened array when nullopt). `obj` is an integer array of 0 or 1
// dimensions (a 0-d position inserts values along the axis as one block)
// or a 1-d boolean array (its true positions). IndexError for a position
// outside [-N, N].
Array insert(const Array& arr, const Array& obj, const Array& values, std::optional<int64_t> axis = std::nullopt);
Array insert(const Array& arr, int64_t index, const Array& values, std::optional<int64_t> axis = std::nullopt);
// positions given as a slice of range(N)
Array insert(const Array& arr, const IndexItem& slice, const Array& values, std::optional<int64_t> axis = std::nullopt);

// numpy.delete (a C++ keyword, hence the underscore): the array without the
// positions given along `axis` (the flattened array when nullopt): one
// position, a slice, an integer array, or a boolean mask of the axis's length.
Array delete_(const Array& arr, int64_t index, std::optional<int64_t> axis = std::nullopt);
Array delete_(const Array& arr, const IndexItem& slice, std::optional<int64_t> axis = std::nullopt);
Array delete_(const Array& arr, const Array& obj, std::optional<int64_t> axis = std::nullopt);

// numpy.trim_zeros: a view without the leading ('f') and/or trailing ('b')
// zeros along the given axes (all when nullopt): each is cut to the bounding
// box of the non-zero elements; an all-zero array to length 0. ValueError
// for another `trim`.
Array trim_zeros(const Array& filt, const std::string& trim = "fb",
                 const std::optional<std::vector<int64_t>>& axes = std::nullopt);

// numpy.vander: columns x**(N-1), ..., x**0 (increasing: x**0 first), by
// repeated multiplication in promote_types(x.dtype, int64) as NumPy does.
Array vander(const Array& x, std::optional<int64_t> n = std::nullopt, bool increasing = false);

}  // namespace kumo
