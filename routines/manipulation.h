// Shape manipulation, joining, where and clip with NumPy's semantics:
//
//   kumo::Array b = kumo::reshape(a, {3, -1});          // a view when the strides allow
//   kumo::Array m = kumo::moveaxis(a, 0, -1);
//   kumo::Array c = kumo::concatenate({a, b}, 0);       // std::nullopt as axis flattens
//   kumo::Array s = kumo::stack({a, a}, 1);
//   kumo::Array w = kumo::where(cond, a, 0.0);          // 0.0 is a weak scalar (NEP 50)
//   kumo::Array k = kumo::clip(a, 0, 1);
//
// Views are returned wherever NumPy returns views; errors are NumPy's
// (kumo::AxisError for a bad axis, kumo::ValueError for shapes that do not
// fit, kumo::CastingError for a cast the casting rule forbids).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/array.h"
#include "routines/elementwise.h"
#include "routines/scalar.h"

namespace kumo {

// ---- shapes and axes (views) ----
// One extent may be -1. copy: nullopt = a view if possible, else a copy;
// true = always a copy; false = a view or ValueError.
Array reshape(const Array& a, const Shape& shape, Order order = Order::kC, std::optional<bool> copy = std::nullopt);
Array ravel(const Array& a, Order order = Order::kC);
Array transpose(const Array& a);
Array transpose(const Array& a, const std::vector<int64_t>& axes);
inline Array permute_dims(const Array& a, const std::vector<int64_t>& axes) { return transpose(a, axes); }
// AxisError (naming `source`/`destination`) for a bad axis; ValueError for
// repeated axes or lists of different lengths.
Array moveaxis(const Array& a, const std::vector<int64_t>& source, const std::vector<int64_t>& destination);
Array moveaxis(const Array& a, int64_t source, int64_t destination);
Array swapaxes(const Array& a, int64_t axis1, int64_t axis2);
// Without axes, every extent-1 axis; ValueError for a listed axis whose extent is not 1.
Array squeeze(const Array& a);
Array squeeze(const Array& a, const std::vector<int64_t>& axes);
// Axes index the result (ndim + axes.size() dims).
Array expand_dims(const Array& a, const std::vector<int64_t>& axes);
Array expand_dims(const Array& a, int64_t axis);
// Read-only view; ValueError when the shapes do not broadcast.
Array broadcast_to(const Array& a, const Shape& shape);
// numpy.lib.stride_tricks.as_strided: a view of a's memory with any shape
// and strides (in bytes), starting byte_offset bytes after a's first
// element. Unlike NumPy's, it checks that every element it can address lies
// inside a's memory block (ValueError otherwise), so it never reads or
// writes outside it. writeable=false gives a read-only view.
Array as_strided(const Array& a, const Shape& shape, const Strides& strides, int64_t byte_offset = 0,
                 bool writeable = true);
std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);

// ---- joining ----
// The keyword arguments of concatenate/stack: out=, dtype=, casting=.
struct JoinOptions {
  Array out;                    // written and returned when defined
  std::optional<Dtype> dtype;   // result dtype (not with out)
  Casting casting = Casting::kSameKind;

  JoinOptions() = default;
  JoinOptions(const Array& o) : out(o) {}   // NOLINT: kumo::concatenate({a, b}, 0, out)
  JoinOptions(Dtype d) : dtype(d) {}        // NOLINT: kumo::concatenate({a, b}, 0, Dtype::kFloat32)
  JoinOptions& with_casting(Casting c) {
    casting = c;
    return *this;
  }
};
// axis = nullopt flattens the inputs first. The result's memory layout
// follows the inputs' as NumPy's does.
Array concatenate(const std::vector<Array>& arrays, std::optional<int64_t> axis = 0, const JoinOptions& options = {});
// Joins same-shaped arrays along a new axis.
Array stack(const std::vector<Array>& arrays, int64_t axis = 0, const JoinOptions& options = {});

// numpy.repeat: each element (axis = nullopt: of the flattened array) or
// each slice along `axis` repeated repeats[i] times; `repeats` is one count
// or one per element along the axis (broadcast), all >= 0 (ValueError).
Array repeat(const Array& a, const Array& repeats, std::optional<int64_t> axis = std::nullopt);
Array repeat(const Array& a, int64_t repeats, std::optional<int64_t> axis = std::nullopt);

// ---- where / clip ----
// The indices of the non-zero elements, one int64 array per dimension
// (numpy.nonzero); ValueError for a 0-d condition as NumPy 2.
std::vector<Array> where(const Array& condition);
// condition ? x : y, broadcast together; the dtype is result_type(x, y) with
// C++ numbers as weak operands (an int next to an int8 array stays int8).
Array where(const Array& condition, const Operand& x, const Operand& y);
inline Array where(const Array& condition, const Array& x, const Array& y) {
  return where(condition, Operand(x), Operand(y));
}
inline Array where(const Array& condition, const Array& x, Scalar y) { return where(condition, Operand(x), Operand(y)); }
inline Array where(const Array& condition, Scalar x, const Array& y) { return where(condition, Operand(x), Operand(y)); }
inline Array where(const Array& condition, Scalar x, Scalar y) { return where(condition, Operand(x), Operand(y)); }

// A clip bound: an array, a C++ number (weak), or none (std::nullopt).
class ClipBound {
 public:
  ClipBound(std::nullopt_t) {}                                   // NOLINT
  ClipBound(const Array& a) : value_(Operand(a)) {}              // NOLINT
  ClipBound(Scalar s) : value_(Operand(s)) {}                    // NOLINT
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  ClipBound(T v) : value_(Operand(Scalar(v))) {}                 // NOLINT
  explicit ClipBound(const Operand& o) : value_(o) {}
  const std::optional<Operand>& operand() const { return value_; }

 private:
  std::optional<Operand> value_;
};
// min(max(a, lo), hi): NaNs propagate, lo > hi gives hi, the dtype follows
// the promotion of a with the bounds (a weak integer bound outside an
// integer array's range is clamped to the range when it cannot change a
// value, else OverflowError, as NumPy 2.4). Without
// bounds, a copy. `out` (same_kind casting) is written and returned when defined.
Array clip(const Array& a, const ClipBound& lo, const ClipBound& hi, const Array& out = {});

}  // namespace kumo
