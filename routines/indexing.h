// Advanced indexing and the index routines: NumPy's a[idx] and a[idx] = v
// with integer and boolean arrays, nonzero, take, put, compress and the
// scatter-add behind numpy.add.at.
//
//   Array i = kumo::asarray<int64_t>({2, 0, 2});
//   Array b = kumo::getitem(a, {i, kumo::all()});     // a[[2, 0, 2], :]
//   kumo::setitem(a, {kumo::greater(a, 0.0)}, 0.0);   // a[a > 0] = 0
//   kumo::scatter_add(g, {i}, rows);                   // numpy.add.at(g, i, rows)
//
// Every routine runs on the array's device through generated kernels; index
// arrays are checked against their axis (IndexError), on every device.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/array.h"
#include "routines/scalar.h"

namespace kumo {

// One component of an index expression, as Python's a[...] takes it: an
// integer, a slice, newaxis or Ellipsis (an IndexItem), a boolean scalar, or
// an integer or boolean array.
class Index {
 public:
  Index(const IndexItem& item) : item_(item) {}  // NOLINT: implicit, as Python's a[1, ::2]
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Index(T i) : item_(IndexItem(i)) {}  // NOLINT
  // a[True] adds an axis of length 1, a[False] one of length 0 (a 0-d mask).
  Index(bool b) : boolean_(b) {}  // NOLINT
  Index(Array array) : array_(std::move(array)) {}  // NOLINT

  bool is_array() const { return array_.defined(); }
  bool is_boolean_scalar() const { return boolean_.has_value(); }
  bool boolean() const { return *boolean_; }
  const IndexItem& item() const { return item_; }
  const Array& array() const { return array_; }

 private:
  IndexItem item_;
  std::optional<bool> boolean_;
  Array array_;
};

// a[index]: a view when every component is basic, else a new array laid out
// as NumPy's (the broadcast index dimensions replace the indexed axes when
// those are adjacent, else they come first).
Array getitem(const Array& a, const std::vector<Index>& index);
// a[index] = value: value is broadcast to the shape of a[index] and cast
// (unsafely, as NumPy's assignment). With repeated indices the last value
// in C order wins.
void setitem(const Array& a, const std::vector<Index>& index, const Array& value);
void setitem(const Array& a, const std::vector<Index>& index, Scalar value);

// numpy.add.at(a, index, values): like a[index] += values, except that
// repeated indices accumulate. On the host the additions run in C order
// (deterministic); on CUDA they are atomic.
void scatter_add(const Array& a, const std::vector<Index>& index, const Array& values);

// ufunc.at(a, index, b): a[index] = ufunc(a[index], b) (or ufunc(a[index])
// for a unary ufunc) applied once per index, so repeated indices apply
// repeatedly; the result is cast back to a's dtype (same_kind). Runs on
// a's device, in C order (add on CUDA: atomically, see scatter_add).
void ufunc_at(const kernels::Ufunc& ufunc, const Array& a, const std::vector<Index>& index,
              const kernels::UfuncOperand* b = nullptr);

// The indices of the non-zero elements, one int64 array per dimension.
std::vector<Array> nonzero(const Array& a);
// nonzero of the flattened array.
Array flatnonzero(const Array& a);
// nonzero as a (count, ndim) array.
Array argwhere(const Array& a);
// The elements of `a` where `condition` (same size, both flattened) holds.
Array extract(const Array& condition, const Array& a);

// How out-of-range indices are treated by take and put.
enum class IndexMode : uint8_t { kRaise, kWrap, kClip };
IndexMode index_mode_from_string(const std::string& mode);

// numpy.take: elements of `a` (flattened when no axis) at `indices`.
Array take(const Array& a, const Array& indices, std::optional<int64_t> axis = std::nullopt,
           IndexMode mode = IndexMode::kRaise, const Array& out = Array());
// numpy.put: a.flat[indices] = values (values repeated as needed).
void put(const Array& a, const Array& indices, const Array& values, IndexMode mode = IndexMode::kRaise);
// numpy.take_along_axis / put_along_axis (axis=None flattens).
Array take_along_axis(const Array& a, const Array& indices, std::optional<int64_t> axis);
void put_along_axis(const Array& a, const Array& indices, const Array& values, std::optional<int64_t> axis);
// numpy.compress: the slices of `a` along `axis` where `condition` (1-d) holds.
Array compress(const Array& condition, const Array& a, std::optional<int64_t> axis = std::nullopt,
               const Array& out = Array());
// numpy.putmask: a.flat[i] = values.flat[i % values.size] where mask.flat[i].
void putmask(const Array& a, const Array& mask, const Array& values);
// numpy.place: the true positions of `mask` take values[0], values[1], ... in turn (cycling).
void place(const Array& a, const Array& mask, const Array& values);

}  // namespace kumo
