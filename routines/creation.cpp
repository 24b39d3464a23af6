#include "routines/creation.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "kernels/copy.h"
#include "kernels/elementwise.h"
#include "kernels/ufunc.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"

namespace kumo {

namespace {

Order check_new_order(Order order) {
  // A new array has no layout to keep, so K and A mean nothing here (NumPy's message).
  if (order != Order::kC && order != Order::kF) throw ValueError("only 'C' or 'F' order is permitted");
  return order;
}

void fill_scalar(const Array& a, const kernels::ScalarValue& v) {
  // Converted once on the host (raising OverflowError for an int that does
  // not fit), then written by one fill kernel.
  std::vector<char> bytes(static_cast<size_t>(a.itemsize()));
  kernels::store_scalar(v, a.dtype(), bytes.data());
  if (a.size() > 0) kernels::fill_bytes(a, bytes.data());
}

// The dtype NumPy gives a lone Python scalar; an int above INT64_MAX is uint64.
Dtype scalar_dtype(const Scalar& s) {
  if (s.kind() == WeakScalar::kInt && s.value().is_uint) return Dtype::kUInt64;
  return default_dtype(s.kind());
}

Array like_layout(const Array& proto, std::optional<Dtype> dtype, Order order, const std::optional<Shape>& shape) {
  Dtype d = dtype.value_or(proto.dtype());
  if (!shape) return Array::empty_like(proto, d, order);
  // A new shape has no strides to follow: K and A pick F only for an
  // F-ordered (and not C-ordered) prototype.
  if (order == Order::kK || order == Order::kA)
    order = proto.f_contiguous() && !proto.c_contiguous() ? Order::kF : Order::kC;
  return Array::empty(*shape, d, proto.device(), order);
}

// NumPy's fill: the first two values are start and start + step converted
// to T, the others first + i * (second - first) in T's arithmetic (float
// for float16, U below), so float16 and float32 steps round as NumPy's.
const kernels::ElementwiseSpec& arange_float_spec() {
  static auto spec = kernels::ElementwiseSpec::create(
      "kumo_arange", "raw T first, raw T second, raw U delta", "T y",
      // The product is rounded before the sum (volatile: no fused
      // multiply-add), as NumPy's loop computes it.
      "if (i < 2) { y = i == 0 ? first[0] : second[0]; }"
      " else { volatile U step = (U)i * delta[0]; y = kumo_cast<T>((U)first[0] + step); }");
  return *spec;
}

// The same for complex T, part by part (NumPy's complex fill).
const kernels::ElementwiseSpec& arange_complex_spec() {
  static auto spec = kernels::ElementwiseSpec::create(
      "kumo_arange_complex", "raw T first, raw T second, raw T delta", "T y",
      "if (i < 2) { y = i == 0 ? first[0] : second[0]; }"
      " else { T v = first[0]; volatile decltype(v.re) re = (decltype(v.re))i * delta[0].re,"
      " im = (decltype(v.im))i * delta[0].im; v.re += re; v.im += im; y = v; }");
  return *spec;
}

// Integer arithmetic through uint64 so that a wrapping sum is defined behaviour.
const kernels::ElementwiseSpec& arange_int_spec() {
  static auto spec = kernels::ElementwiseSpec::create(
      "kumo_arange_int", "raw int64 start, raw int64 step", "T y",
      "y = kumo_cast<T>((int64_t)((uint64_t)start[0] + (uint64_t)i * (uint64_t)step[0]))");
  return *spec;
}

int64_t scalar_as_int64(const Scalar& s) {
  const kernels::ScalarValue& v = s.value();
  switch (v.kind) {
    case WeakScalar::kBool: return v.b ? 1 : 0;
    case WeakScalar::kInt: return v.is_uint ? static_cast<int64_t>(v.u) : v.i;
    default: return static_cast<int64_t>(v.f);  // C truncation, as NumPy's cast of the first values
  }
}

double scalar_as_double(const Scalar& s) {
  const kernels::ScalarValue& v = s.value();
  if (v.kind == WeakScalar::kBool) return v.b ? 1.0 : 0.0;
  if (v.kind == WeakScalar::kInt && v.is_uint) return static_cast<double>(v.u);
  return v.f;
}

std::complex<double> scalar_as_complex(const Scalar& s) {
  return s.kind() == WeakScalar::kComplex ? s.value().c : std::complex<double>(scalar_as_double(s), 0.0);
}

// NumPy's length rule, exact for integer arguments.
int64_t arange_length(const Scalar& start, const Scalar& stop, const Scalar& step, bool all_int) {
  if (all_int) {
    __int128 a = scalar_as_int64(start), b = scalar_as_int64(stop), s = scalar_as_int64(step);
    __int128 span = b - a;
    // ceil(span / s) with C++'s truncating division.
    __int128 q = span / s;
    if ((span % s != 0) && ((span > 0) == (s > 0))) ++q;
    return q > 0 ? static_cast<int64_t>(q) : 0;
  }
  double len = std::ceil((scalar_as_double(stop) - scalar_as_double(start)) / scalar_as_double(step));
  if (std::isnan(len)) throw ValueError("arange: cannot compute length");
  if (len > static_cast<double>(std::numeric_limits<int64_t>::max())) throw ValueError("Maximum allowed size exceeded");
  return len > 0 ? static_cast<int64_t>(len) : 0;
}

bool is_scalar_zero(const Scalar& s) {
  const kernels::ScalarValue& v = s.value();
  switch (v.kind) {
    case WeakScalar::kBool: return !v.b;
    case WeakScalar::kInt: return !v.is_uint && !v.huge && v.i == 0;
    case WeakScalar::kFloat: return v.f == 0.0;
    case WeakScalar::kComplex: return v.c == std::complex<double>(0.0, 0.0);
  }
  return false;
}

}  // namespace

// ---- from a shape ----

Array empty(const Shape& shape, Dtype dtype, Order order, Device& device) {
  return Array::empty(shape, dtype, device, check_new_order(order));
}
Array empty(int64_t n, Dtype dtype, Order order, Device& device) { return empty(Shape{n}, dtype, order, device); }

Array zeros(const Shape& shape, Dtype dtype, Order order, Device& device) {
  Array a = empty(shape, dtype, order, device);
  fill_scalar(a, Scalar(0).value());
  return a;
}
Array zeros(int64_t n, Dtype dtype, Order order, Device& device) { return zeros(Shape{n}, dtype, order, device); }

Array ones(const Shape& shape, Dtype dtype, Order order, Device& device) {
  Array a = empty(shape, dtype, order, device);
  fill_scalar(a, Scalar(1).value());
  return a;
}
Array ones(int64_t n, Dtype dtype, Order order, Device& device) { return ones(Shape{n}, dtype, order, device); }

Array full(const Shape& shape, Scalar fill_value, std::optional<Dtype> dtype, Order order, Device& device) {
  Array a = empty(shape, dtype.value_or(scalar_dtype(fill_value)), order, device);
  fill_scalar(a, fill_value.value());
  return a;
}

Array full(const Shape& shape, const Array& fill_value, std::optional<Dtype> dtype, Order order) {
  Array a = empty(shape, dtype.value_or(fill_value.dtype()), order, fill_value.device());
  // numpy.full copies with unsafe casting and broadcasting (copyto).
  fill_value.copy_to(a);
  return a;
}

// ---- like another array ----

Array empty_like(const Array& p, std::optional<Dtype> dtype, Order order, const std::optional<Shape>& shape) {
  return like_layout(p, dtype, order, shape);
}

Array zeros_like(const Array& p, std::optional<Dtype> dtype, Order order, const std::optional<Shape>& shape) {
  Array a = like_layout(p, dtype, order, shape);
  fill_scalar(a, Scalar(0).value());
  return a;
}

Array ones_like(const Array& p, std::optional<Dtype> dtype, Order order, const std::optional<Shape>& shape) {
  Array a = like_layout(p, dtype, order, shape);
  fill_scalar(a, Scalar(1).value());
  return a;
}

Array full_like(const Array& p, Scalar fill_value, std::optional<Dtype> dtype, Order order,
                const std::optional<Shape>& shape) {
  Array a = like_layout(p, dtype, order, shape);
  fill_scalar(a, fill_value.value());
  return a;
}

Array full_like(const Array& p, const Array& fill_value, std::optional<Dtype> dtype, Order order,
                const std::optional<Shape>& shape) {
  Array a = like_layout(p, dtype, order, shape);
  fill_value.copy_to(a);
  return a;
}

// ---- copies ----

Array copy(const Array& a, Order order) { return a.copy(order); }

Array astype(const Array& a, Dtype dtype, Casting casting, bool copy, Order order) {
  if (!can_cast(a.dtype(), dtype, casting))
    throw TypeError(std::string("Cannot cast array data from dtype('") + dtype_name(a.dtype()) + "') to dtype('" +
                    dtype_name(dtype) + "') according to the rule '" + casting_name(casting) + "'");
  return a.astype(dtype, order, copy);
}

// ---- ranges ----

Array arange(Scalar stop, std::optional<Dtype> dtype, Device& device) {
  return arange(Scalar(0), stop, Scalar(1), dtype, device);
}

Array arange(Scalar start, Scalar stop, Scalar step, std::optional<Dtype> dtype, Device& device) {
  bool any_complex = false, any_float = false;
  for (const Scalar* s : {&start, &stop, &step}) {
    any_complex |= s->kind() == WeakScalar::kComplex;
    any_float |= s->kind() == WeakScalar::kFloat;
  }
  if (is_scalar_zero(step)) throw ZeroDivisionError(any_float || any_complex ? "float division by zero" : "division by zero");
  Dtype d = dtype.value_or(any_complex ? Dtype::kComplex128 : any_float ? Dtype::kFloat64 : Dtype::kInt64);
  if (any_complex && !is_complex(d)) throw TypeError("must be real number, not complex");
  int64_t n;
  if (any_complex) {
    // NumPy's length for complex arguments: the smaller of the ceilings of
    // the real and imaginary parts of (stop - start) / step.
    const std::complex<double> q = (scalar_as_complex(stop) - scalar_as_complex(start)) / scalar_as_complex(step);
    const double len = std::min(std::ceil(q.real()), std::ceil(q.imag()));
    if (std::isnan(len)) throw ValueError("arange: cannot compute length");
    if (len > static_cast<double>(std::numeric_limits<int64_t>::max()))
      throw ValueError("Maximum allowed size exceeded");
    n = len > 0 ? static_cast<int64_t>(len) : 0;
  } else {
    n = arange_length(start, stop, step, !any_float);
  }
  if (d == Dtype::kBool && n > 2)
    throw TypeError("arange() is only supported for booleans when the result has at most length 2.");
  Array out = Array::empty(Shape{n}, d, device);
  if (n == 0) return out;
  if (is_integer(d) || d == Dtype::kBool) {
    // NumPy converts the first two values to the integer type and steps by
    // their difference, so arange(1.0, 2.0, 0.3, dtype=int) is all ones.
    int64_t first = scalar_as_int64(start);
    int64_t second = any_float ? static_cast<int64_t>(scalar_as_double(start) + scalar_as_double(step))
                               : static_cast<int64_t>(static_cast<uint64_t>(first) +
                                                      static_cast<uint64_t>(scalar_as_int64(step)));
    Array s = kernels::scalar_to_array(Scalar(first).value(), Dtype::kInt64, device);
    Array t = kernels::scalar_to_array(Scalar(static_cast<int64_t>(static_cast<uint64_t>(second) -
                                                                   static_cast<uint64_t>(first))).value(),
                                       Dtype::kInt64, device);
    kernels::call_elementwise(arange_int_spec(), {s, t}, {out});
  } else if (is_complex(d)) {
    const std::complex<double> a = scalar_as_complex(start);
    Array first = kernels::scalar_to_array(Scalar(a).value(), d, device);
    Array second = kernels::scalar_to_array(Scalar(a + scalar_as_complex(step)).value(), d, device);
    kernels::call_elementwise(arange_complex_spec(), {first, second, subtract(second, first)}, {out});
  } else {
    const double a = scalar_as_double(start);
    Array first = kernels::scalar_to_array(Scalar(a).value(), d, device);
    Array second = kernels::scalar_to_array(Scalar(a + scalar_as_double(step)).value(), d, device);
    // The difference in U: float for float16, else T itself.
    const Dtype delta_dtype = d == Dtype::kFloat16 ? Dtype::kFloat32 : d;
    Array delta = subtract(second.astype(delta_dtype), first.astype(delta_dtype));
    kernels::call_elementwise(arange_float_spec(), {first, second, delta}, {out});
  }
  return out;
}

std::pair<Array, Array> linspace_with_step(const Operand& start, const Operand& stop, int64_t num, bool endpoint,
                                           std::optional<Dtype> dtype, int64_t axis, Device& device) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const int64_t div = endpoint ? num - 1 : num;
  // result_type(start, stop, float(num)): the float is weak, so float32
  // bounds stay float32 and integer ones become float64.
  std::vector<Dtype> strong;
  std::vector<WeakScalar> weak{WeakScalar::kFloat};
  for (const Operand* o : {&start, &stop}) {
    if (o->is_scalar) weak.push_back(o->scalar.kind);
    else strong.push_back(o->array().dtype());
  }
  const Dtype dt = result_type(strong, weak);
  Device& dev = !start.is_scalar ? start.array().device() : !stop.is_scalar ? stop.array().device() : device;
  auto bound = [&](const Operand& o) {
    return o.is_scalar ? kernels::scalar_to_array(o.scalar, dt, dev) : o.array().astype(dt, Order::kK, false);
  };
  Array lo = bound(start), hi = bound(stop);
  Array delta = subtract(hi, lo);
  // Sample positions 0..num-1 along a new leading axis.
  Array t = arange(Scalar(0), Scalar(num), Scalar(1), is_floating(dt) ? dt : Dtype::kFloat64, dev);
  if (t.dtype() != dt) t = t.astype(dt);
  Shape tshape{num};
  for (int i = 0; i < delta.ndim(); ++i) tshape.push_back(1);
  t = t.reshape(tshape);
  Array y, step;
  if (div > 0) {
    step = divide(delta, Scalar(div));
    // A step that underflows to zero would flatten the samples: then scale
    // the fractions i/div by delta instead (NumPy's fallback).
    bool any_zero = false;
    for (const auto& v : step.to_vector<std::complex<double>>()) any_zero |= v == std::complex<double>(0.0, 0.0);
    y = any_zero ? multiply(divide(t, Scalar(div)), delta) : multiply(t, step);
  } else {
    step = full(Shape{}, Scalar(std::numeric_limits<double>::quiet_NaN()), dt, Order::kC, dev);
    y = multiply(t, delta);
  }
  y = add(y, lo);
  if (endpoint && num > 1) hi.copy_to(y.index({IndexItem::integer(-1), IndexItem::ellipsis()}));
  if (axis != 0) y = moveaxis(y, 0, axis);
  if (dtype) {
    if (is_integer(*dtype) && !is_complex(dt)) y = floor(y);
    y = y.astype(*dtype, Order::kK, false);
  }
  return {y, step};
}

Array linspace(const Operand& start, const Operand& stop, int64_t num, bool endpoint, std::optional<Dtype> dtype,
               int64_t axis, Device& device) {
  return linspace_with_step(start, stop, num, endpoint, dtype, axis, device).first;
}

// ---- matrices ----

Array eye(int64_t n, std::optional<int64_t> m_opt, int64_t k, Dtype dtype, Order order, Device& device) {
  const int64_t m = m_opt.value_or(n);
  Array a = zeros(Shape{n, m}, dtype, order, device);
  if ((k >= 0 && k < m) || (k < 0 && -k < n)) {
    // diagonal() views are read-only for users; this one is ours to fill.
    Array d = a.diagonal(k, 0, 1);
    d.set_writeable(true);
    fill_scalar(d, Scalar(1).value());
  }
  return a;
}

Array identity(int64_t n, Dtype dtype, Device& device) { return eye(n, std::nullopt, 0, dtype, Order::kC, device); }

}  // namespace kumo
