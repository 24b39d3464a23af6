// Array creation with NumPy's semantics:
//
//   kumo::Array z = kumo::zeros({2, 3}, kumo::Dtype::kFloat32);
//   kumo::Array f = kumo::full({4}, 7);                 // int64, as numpy.full(4, 7)
//   kumo::Array r = kumo::arange(10);                   // int64 0..9
//   kumo::Array s = kumo::arange(0.0, 1.0, 0.1);        // float64, 10 values
//   kumo::Array l = kumo::linspace(0.0, 1.0, 5);
//   kumo::Array i = kumo::eye(3, 4, 1);
//
// Fill values and arange/linspace bounds are kumo::Scalar, so their dtype is
// inferred from the kind of C++ number (NEP 50 weak operands: int -> int64,
// double -> float64) unless a dtype is given. New arrays are made on `device`
// (default: the current device); *_like arrays on the prototype's device.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>

#include "core/array.h"
#include "routines/elementwise.h"
#include "routines/scalar.h"

namespace kumo {

// ---- from a shape ----
// An int64 `n` is the 1-d shape (n,), as numpy.zeros(5).
Array empty(const Shape& shape, Dtype dtype = Dtype::kFloat64, Order order = Order::kC,
            Device& device = current_device());
Array empty(int64_t n, Dtype dtype = Dtype::kFloat64, Order order = Order::kC, Device& device = current_device());
Array zeros(const Shape& shape, Dtype dtype = Dtype::kFloat64, Order order = Order::kC,
            Device& device = current_device());
Array zeros(int64_t n, Dtype dtype = Dtype::kFloat64, Order order = Order::kC, Device& device = current_device());
Array ones(const Shape& shape, Dtype dtype = Dtype::kFloat64, Order order = Order::kC,
           Device& device = current_device());
Array ones(int64_t n, Dtype dtype = Dtype::kFloat64, Order order = Order::kC, Device& device = current_device());
// Without a dtype, the fill value's own (bool, int64, float64, complex128).
// An integer fill value out of range of an integer dtype is OverflowError.
Array full(const Shape& shape, Scalar fill_value, std::optional<Dtype> dtype = std::nullopt, Order order = Order::kC,
           Device& device = current_device());
// An array fill value is broadcast to `shape` (dtype: its own by default).
Array full(const Shape& shape, const Array& fill_value, std::optional<Dtype> dtype = std::nullopt,
           Order order = Order::kC);

// ---- like another array ----
// dtype defaults to the prototype's; order K keeps its axis order, A is F
// only for an F-but-not-C-contiguous prototype; `shape` overrides the shape
// (order K/A then fall back to C or F as NumPy does).
Array empty_like(const Array& prototype, std::optional<Dtype> dtype = std::nullopt, Order order = Order::kK,
                 const std::optional<Shape>& shape = std::nullopt);
Array zeros_like(const Array& prototype, std::optional<Dtype> dtype = std::nullopt, Order order = Order::kK,
                 const std::optional<Shape>& shape = std::nullopt);
Array ones_like(const Array& prototype, std::optional<Dtype> dtype = std::nullopt, Order order = Order::kK,
                const std::optional<Shape>& shape = std::nullopt);
Array full_like(const Array& prototype, Scalar fill_value, std::optional<Dtype> dtype = std::nullopt,
                Order order = Order::kK, const std::optional<Shape>& shape = std::nullopt);
Array full_like(const Array& prototype, const Array& fill_value, std::optional<Dtype> dtype = std::nullopt,
                Order order = Order::kK, const std::optional<Shape>& shape = std::nullopt);

// ---- copies ----
Array copy(const Array& a, Order order = Order::kK);
// numpy.ndarray.astype: TypeError (CastingError) when `casting` forbids the
// conversion; with copy=false the input itself when nothing must change.
Array astype(const Array& a, Dtype dtype, Casting casting = Casting::kUnsafe, bool copy = true,
             Order order = Order::kK);

// ---- ranges ----
// Values start, start+step, ... below stop (above, for a negative step):
// ceil((stop - start) / step) of them, none when that is negative. The dtype
// is inferred from the kinds of the arguments (any floating one gives
// float64, else int64; a bool counts as an int). ZeroDivisionError for a
// zero step; TypeError for complex values and for bool results longer than 2.
Array arange(Scalar stop, std::optional<Dtype> dtype = std::nullopt, Device& device = current_device());
Array arange(Scalar start, Scalar stop, Scalar step = 1, std::optional<Dtype> dtype = std::nullopt,
             Device& device = current_device());

// `num` samples from start to stop (stop excluded when !endpoint). Bounds may
// be arrays: the samples run along `axis` of the broadcast bounds. The
// computation dtype is result_type(start, stop, a weak float); an integer
// `dtype` rounds the samples toward -inf as NumPy 2 does. ValueError for num < 0.
Array linspace(const Operand& start, const Operand& stop, int64_t num = 50, bool endpoint = true,
               std::optional<Dtype> dtype = std::nullopt, int64_t axis = 0, Device& device = current_device());
inline Array linspace(Scalar start, Scalar stop, int64_t num = 50, bool endpoint = true,
                      std::optional<Dtype> dtype = std::nullopt, Device& device = current_device()) {
  return linspace(Operand(start), Operand(stop), num, endpoint, dtype, 0, device);
}
// numpy.linspace(..., retstep=True): the samples and the step (a 0-d array for
// scalar bounds; NaN when there is no interval, num - endpoint == 0).
std::pair<Array, Array> linspace_with_step(const Operand& start, const Operand& stop, int64_t num = 50,
                                           bool endpoint = true, std::optional<Dtype> dtype = std::nullopt,
                                           int64_t axis = 0, Device& device = current_device());
inline std::pair<Array, Array> linspace_with_step(Scalar start, Scalar stop, int64_t num = 50, bool endpoint = true,
                                                  std::optional<Dtype> dtype = std::nullopt,
                                                  Device& device = current_device()) {
  return linspace_with_step(Operand(start), Operand(stop), num, endpoint, dtype, 0, device);
}

// ---- matrices ----
// N x M (M defaults to N) with ones on diagonal k (k > 0 above the main one).
Array eye(int64_t n, std::optional<int64_t> m = std::nullopt, int64_t k = 0, Dtype dtype = Dtype::kFloat64,
          Order order = Order::kC, Device& device = current_device());
Array identity(int64_t n, Dtype dtype = Dtype::kFloat64, Device& device = current_device());

}  // namespace kumo
