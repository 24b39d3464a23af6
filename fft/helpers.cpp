// numpy.fft's helpers (fft/fft.h): the sample frequencies and the shifts
// that centre the zero frequency.
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"
#include "fft/fft.h"

namespace kumo {
namespace fft {
namespace {

// values[i] * (1 / (n * d)) on the host, then moved to `device`: NumPy
// multiplies integers by that one factor, so the results agree bit for bit.
Array scaled_integers(const std::vector<int64_t>& values, int64_t n, double d, Device& device) {
  const double nd = static_cast<double>(n) * d;
  if (nd == 0.0) throw ZeroDivisionError("float division by zero");
  const double val = 1.0 / nd;
  Array host = Array::empty(Shape{static_cast<int64_t>(values.size())}, Dtype::kFloat64, host_device());
  double* p = reinterpret_cast<double*>(host.data());
  for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<double>(values[i]) * val;
  return &device == &host_device() ? host : host.to_device(device);
}

// A copy of x rolled by `shift` along `axis` (0 <= shift < length).
Array roll_axis(const Array& x, int axis, int64_t shift) {
  const int64_t len = x.shape()[axis];
  Array r = Array::empty(x.shape(), x.dtype(), x.device());
  if (x.size() == 0 || shift == 0) {
    x.copy_to(r);
    return r;
  }
  // r[shift:] = x[:len - shift], r[:shift] = x[len - shift:]
  Shape head = x.shape(), tail = x.shape();
  head[axis] = len - shift;
  tail[axis] = shift;
  x.view_with(head, x.strides()).copy_to(r.view_with(head, r.strides(), shift * r.strides()[axis]));
  x.view_with(tail, x.strides(), (len - shift) * x.strides()[axis]).copy_to(r.view_with(tail, r.strides()));
  return r;
}

// numpy.roll(x, [sign * (x.shape[ax] // 2) for ax in axes], axes).
Array shift(const Array& x, const OptionalAxes& axes, int sign) {
  std::vector<int64_t> ax;
  if (axes) {
    ax = *axes;
  } else {
    for (int i = 0; i < x.ndim(); ++i) ax.push_back(i);
  }
  std::vector<int64_t> total(static_cast<size_t>(x.ndim()), 0);
  for (int64_t a : ax) {
    const int nd = x.ndim();
    if (a < -nd || a >= nd) throw IndexError("tuple index out of range");
    const int k = static_cast<int>(a < 0 ? a + nd : a);
    total[static_cast<size_t>(k)] += sign * (x.shape()[k] / 2);
  }
  Array r = x;
  bool copied = false;
  for (int k = 0; k < x.ndim(); ++k) {
    const int64_t len = x.shape()[k];
    if (len == 0) continue;
    const int64_t s = ((total[static_cast<size_t>(k)] % len) + len) % len;
    if (s == 0) continue;
    r = roll_axis(r, k, s);
    copied = true;
  }
  return copied ? r : x.copy();
}

}  // namespace

Array fftfreq(int64_t n, double d, Device& device) {
  if (n < 0 && static_cast<double>(n) * d != 0.0) throw ValueError("negative dimensions are not allowed");
  std::vector<int64_t> values(static_cast<size_t>(n > 0 ? n : 0));
  const int64_t positive = (n - 1) / 2 + 1;
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = i < positive ? i : i - n;
  return scaled_integers(values, n, d, device);
}

Array rfftfreq(int64_t n, double d, Device& device) {
  const int64_t count = n / 2 + 1;
  std::vector<int64_t> values(static_cast<size_t>(count > 0 ? count : 0));
  for (int64_t i = 0; i < count; ++i) values[static_cast<size_t>(i)] = i;
  return scaled_integers(values, n, d, device);
}

Array fftshift(const Array& x, const OptionalAxes& axes) { return shift(x, axes, 1); }

Array ifftshift(const Array& x, const OptionalAxes& axes) { return shift(x, axes, -1); }

}  // namespace fft
}  // namespace kumo
