// numpy.fft's transforms (fft/fft.h) on the FftBackend of the array's device.
//
// Every transform is a sequence of one-axis steps, exactly as NumPy composes
// them (fftn transforms its axes last to first, rfftn is an rfft then ffts,
// irfftn iffts then an irfft), so padding, truncation, repeated axes and
// normalisation per axis follow NumPy by construction. One step resolves
// the dtypes, pads or truncates the input along its axis, and calls the
// backend once for the whole batch with the operands' own strides: a
// transposed or negatively strided input is not copied. Intermediate
// results of a multi-axis transform belong to us, so the next complex step
// runs in place on them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/backend_registry.h"
#include "core/errors.h"
#include "fft/fft.h"
#include "fft/fft_backend.h"
#include "routines/creation.h"
#include "routines/elementwise.h"

namespace kumo {
namespace fft {
namespace {

FftBackend& backend_for(Device& device) { return require_backend<FftBackend>(device, "fft"); }

enum class Kind { kC2C, kR2C, kC2R };
enum class Norm { kBackward, kOrtho, kForward };

Norm parse_norm(const std::string& norm) {
  if (norm == "backward") return Norm::kBackward;
  if (norm == "ortho") return Norm::kOrtho;
  if (norm == "forward") return Norm::kForward;
  throw ValueError("Invalid norm value " + norm + R"(; should be "backward", "ortho" or "forward".)");
}

// The norm that gives the inverse transform the same scaling as `norm` gives
// the forward one (NumPy's _swap_direction).
std::string swap_direction(const std::string& norm) {
  switch (parse_norm(norm)) {
    case Norm::kBackward: return "forward";
    case Norm::kForward: return "backward";
    case Norm::kOrtho: break;
  }
  return "ortho";
}

// x rounded to the nearest float16 (ties to even), for 0 <= x < 65520;
// larger values become infinity, as a cast to float16 does.
double round_to_float16(double x) {
  if (x >= 65520.0) return HUGE_VAL;
  if (x == 0.0) return 0.0;
  int e = 0;
  std::frexp(x, &e);                                    // x = m * 2^e, 0.5 <= m < 1
  const double quantum = std::ldexp(1.0, std::max(e, -13) - 11);  // 11 significant bits; subnormals below 2^-14
  return std::nearbyint(x / quantum) * quantum;
}

// The factor of a transform of length n, computed in the precision NumPy
// computes it in: the input's real dtype promoted with a Python float
// (reciprocal(sqrt(n)) in float32 for float32 input, in float16 for float16
// input), float64 otherwise.
double scale_for(Norm norm, bool forward, int64_t n, Dtype real, Dtype input) {
  if (!forward) norm = norm == Norm::kBackward ? Norm::kForward : norm == Norm::kForward ? Norm::kBackward : norm;
  if (norm == Norm::kBackward) return 1.0;
  if (input == Dtype::kFloat16) {
    const double nh = round_to_float16(static_cast<double>(n));
    return norm == Norm::kOrtho ? round_to_float16(1.0 / round_to_float16(std::sqrt(nh)))
                                : round_to_float16(1.0 / nh);
  }
  if (real == Dtype::kFloat32) {
    const float nf = static_cast<float>(n);
    return norm == Norm::kOrtho ? 1.0f / std::sqrt(nf) : 1.0f / nf;
  }
  const double nd = static_cast<double>(n);
  return norm == Norm::kOrtho ? 1.0 / std::sqrt(nd) : 1.0 / nd;
}

// Single precision for float16/float32/complex64, double for everything else.
Dtype real_precision(Dtype d) {
  return d == Dtype::kFloat16 || d == Dtype::kFloat32 || d == Dtype::kComplex64 ? Dtype::kFloat32
                                                                                  : Dtype::kFloat64;
}
Dtype complex_of(Dtype real) { return real == Dtype::kFloat32 ? Dtype::kComplex64 : Dtype::kComplex128; }

std::string numpy_dtype(Dtype d) { return std::string("dtype('") + dtype_name(d) + "')"; }

// a.shape[axis] as Python indexes a tuple (NumPy's default n).
int64_t length_along(const Array& a, int64_t axis) {
  const int nd = a.ndim();
  if (axis < -nd || axis >= nd) throw IndexError("tuple index out of range");
  return a.shape()[static_cast<int>(axis < 0 ? axis + nd : axis)];
}

void check_out(const Array& out, const Shape& shape, Dtype result, const Array& a, const char* fn) {
  if (out.shape() != shape) throw ValueError("output array has wrong shape.");
  if (!can_cast(result, out.dtype(), Casting::kSameKind))
    throw TypeError(std::string("Cannot cast ufunc '") + fn + "' output from " + numpy_dtype(result) + " to " +
                    numpy_dtype(out.dtype()) + " with casting rule 'same_kind'");
  if (&out.device() != &a.device())
    throw DeviceError(std::string("fft.") + fn + ": out= is on " + out.device().name() + " but the input is on " +
                      a.device().name());
  if (!out.writeable()) throw ValueError(std::string("fft.") + fn + ": output array is read-only");
}

// cuFFT takes only non-negative strides (and no broadcast zero strides);
// on a CUDA device such an operand is copied (pocketfft takes any strides).
bool backend_takes(const Array& x) {
  if (x.device().type() == DeviceType::kCPU) return true;
  for (int k = 0; k < x.ndim(); ++k) {
    if (x.shape()[k] > 1 && x.strides()[k] <= 0) return false;
  }
  return true;
}

// The input of a step: `a` cast to `dtype` with `len` elements along `axis`
// (truncated, or zero-padded at the end). A view of `a` when nothing changes.
Array prepare_input(const Array& a, int axis, int64_t len, Dtype dtype) {
  if (a.shape()[axis] >= len) {
    Shape shape = a.shape();
    shape[axis] = len;
    const Array v = shape == a.shape() ? a : a.view_with(shape, a.strides());
    return v.astype(dtype, Order::kK, /*copy=*/false);
  }
  Shape shape = a.shape();
  shape[axis] = len;
  Array padded = zeros(shape, dtype, Order::kC, a.device());
  a.copy_to(padded.view_with(a.shape(), padded.strides()));
  return padded;
}

// One transform along one axis (NumPy's _raw_fft). `owned`: `a` is a
// temporary of ours that may be overwritten.
Array raw_fft(const Array& a, int64_t n, int64_t axis, Kind kind, bool forward, const std::string& norm,
              const OptionalOut& out, const char* fn, bool owned = false) {
  if (n < 1) throw ValueError("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
  const Norm nrm = parse_norm(norm);
  const int ax = normalize_axis(axis, a.ndim());
  if (kind == Kind::kR2C && is_complex(a.dtype()))
    throw TypeError(std::string("ufunc '") + fn + "' not supported for the input types (" + dtype_name(a.dtype()) +
                    " input to a real transform), and the inputs could not be safely coerced to any supported "
                    "types according to the casting rule ''safe''");
  const Dtype real = real_precision(a.dtype());
  const Dtype cplx = complex_of(real);
  const Dtype in_dtype = kind == Kind::kR2C ? real : cplx;
  const Dtype step_dtype = kind == Kind::kC2R ? real : cplx;  // what the backend writes
  const Dtype result_dtype = kind == Kind::kC2R && a.dtype() == Dtype::kFloat16 ? Dtype::kFloat16 : step_dtype;
  const int64_t in_len = kind == Kind::kC2R ? n / 2 + 1 : n;
  const int64_t out_len = kind == Kind::kR2C ? n / 2 + 1 : n;
  Shape out_shape = a.shape();
  out_shape[ax] = out_len;
  if (out) check_out(*out, out_shape, result_dtype, a, fn);

  Array x = prepare_input(a, ax, in_len, in_dtype);
  if (!backend_takes(x)) x = x.copy(Order::kC);
  owned = owned || x.memory() != a.memory();
  Array y;
  if (out && out->dtype() == step_dtype && backend_takes(*out) && !out->shares_memory_with(a) &&
      !out->shares_memory_with(x)) {
    y = *out;
  } else if (kind == Kind::kC2C && owned) {
    y = x;  // in place
  } else {
    y = Array::empty(out_shape, step_dtype, a.device());
  }
  if (y.size() > 0) {
    FftBackend& backend = backend_for(a.device());
    const double scale = scale_for(nrm, forward, n, real, a.dtype());
    const StreamHandle stream = a.device().current_stream();
    switch (kind) {
      case Kind::kC2C:
        backend.c2c(real, x.shape(), x.data(), x.strides(), y.data(), y.strides(), {ax}, forward, scale, stream);
        break;
      case Kind::kR2C:
        backend.r2c(real, x.shape(), x.data(), x.strides(), y.data(), y.strides(), ax, forward, scale, stream);
        break;
      case Kind::kC2R:
        backend.c2r(real, y.shape(), x.data(), x.strides(), y.data(), y.strides(), ax, forward, scale, stream);
        break;
    }
  }
  if (out) {
    if (y.data() != out->data() || y.memory() != out->memory()) y.copy_to(*out);
    return *out;
  }
  return result_dtype == step_dtype ? y : y.astype(result_dtype);
}

// NumPy's _cook_nd_args: the lengths and axes of an n-dimensional transform.
struct NdArgs {
  std::vector<int64_t> s;
  std::vector<int64_t> axes;
};

// shape[i] as numpy.take(shape, i) reads it.
int64_t take_shape(const Array& a, int64_t i) {
  const int nd = a.ndim();
  if (i < -nd || i >= nd)
    throw IndexError("index " + std::to_string(i) + " is out of bounds for axis 0 with size " + std::to_string(nd));
  return a.shape()[static_cast<int>(i < 0 ? i + nd : i)];
}

NdArgs cook_nd_args(const Array& a, const OptionalSizes& s, const OptionalAxes& axes, bool invreal) {
  NdArgs r;
  const bool shapeless = !s.has_value();
  if (shapeless) {
    if (axes) {
      for (int64_t ax : *axes) r.s.push_back(take_shape(a, ax));
    } else {
      r.s = a.shape().to_vector();
    }
  } else {
    r.s = *s;
  }
  if (axes) {
    r.axes = *axes;
  } else {
    const int64_t k = static_cast<int64_t>(r.s.size());
    for (int64_t i = -k; i < 0; ++i) r.axes.push_back(i);
  }
  if (r.s.size() != r.axes.size()) throw ValueError("Shape and axes have different lengths.");
  if (invreal && shapeless) {
    if (r.s.empty()) throw IndexError("list index out of range");
    r.s.back() = (length_along(a, r.axes.back()) - 1) * 2;
  }
  for (size_t i = 0; i < r.s.size(); ++i) {
    if (r.s[i] == -1) r.s[i] = length_along(a, r.axes[i]);
  }
  return r;
}

// fftn and ifftn (NumPy's _raw_fftnd): the axes last to first.
Array complex_nd(const Array& a, const OptionalSizes& s, const OptionalAxes& axes, const std::string& norm,
                 const OptionalOut& out, bool forward, const char* fn) {
  const NdArgs nd = cook_nd_args(a, s, axes, false);
  Array r = a;
  for (size_t k = nd.axes.size(); k-- > 0;) {
    r = raw_fft(r, nd.s[k], nd.axes[k], Kind::kC2C, forward, norm, k == 0 ? out : std::nullopt, fn,
                /*owned=*/k + 1 < nd.axes.size());
  }
  return r;
}

}  // namespace

Array fft(const Array& a, OptionalSize n, int64_t axis, const std::string& norm, const OptionalOut& out) {
  return raw_fft(a, n ? *n : length_along(a, axis), axis, Kind::kC2C, true, norm, out, "fft");
}

Array ifft(const Array& a, OptionalSize n, int64_t axis, const std::string& norm, const OptionalOut& out) {
  return raw_fft(a, n ? *n : length_along(a, axis), axis, Kind::kC2C, false, norm, out, "ifft");
}

Array rfft(const Array& a, OptionalSize n, int64_t axis, const std::string& norm, const OptionalOut& out) {
  return raw_fft(a, n ? *n : length_along(a, axis), axis, Kind::kR2C, true, norm, out, "rfft");
}

Array irfft(const Array& a, OptionalSize n, int64_t axis, const std::string& norm, const OptionalOut& out) {
  return raw_fft(a, n ? *n : (length_along(a, axis) - 1) * 2, axis, Kind::kC2R, false, norm, out, "irfft");
}

Array hfft(const Array& a, OptionalSize n, int64_t axis, const std::string& norm, const OptionalOut& out) {
  const int64_t len = n ? *n : (length_along(a, axis) - 1) * 2;
  const std::string swapped = swap_direction(norm);
  const Array conj = is_complex(a.dtype()) ? conjugate(a) : a;
  return raw_fft(conj, len, axis, Kind::kC2R, false, swapped, out, "hfft", conj.memory() != a.memory());
}

Array ihfft(const Array& a, OptionalSize n, int64_t axis, const std::string& norm, const OptionalOut& out) {
  const int64_t len = n ? *n : length_along(a, axis);
  const std::string swapped = swap_direction(norm);
  Array r = raw_fft(a, len, axis, Kind::kR2C, true, swapped, out, "ihfft");
  conjugate(r, UfuncOptions(r));
  return r;
}

Array fftn(const Array& a, const OptionalSizes& s, const OptionalAxes& axes, const std::string& norm,
           const OptionalOut& out) {
  return complex_nd(a, s, axes, norm, out, true, "fftn");
}

Array ifftn(const Array& a, const OptionalSizes& s, const OptionalAxes& axes, const std::string& norm,
            const OptionalOut& out) {
  return complex_nd(a, s, axes, norm, out, false, "ifftn");
}

Array rfftn(const Array& a, const OptionalSizes& s, const OptionalAxes& axes, const std::string& norm,
            const OptionalOut& out) {
  const NdArgs nd = cook_nd_args(a, s, axes, false);
  if (nd.axes.empty()) throw IndexError("list index out of range");
  const size_t last = nd.axes.size() - 1;
  Array r = raw_fft(a, nd.s[last], nd.axes[last], Kind::kR2C, true, norm, last == 0 ? out : std::nullopt, "rfftn");
  for (size_t k = last; k-- > 0;) {
    r = raw_fft(r, nd.s[k], nd.axes[k], Kind::kC2C, true, norm, k == 0 ? out : std::nullopt, "rfftn", true);
  }
  return r;
}

Array irfftn(const Array& a, const OptionalSizes& s, const OptionalAxes& axes, const std::string& norm,
             const OptionalOut& out) {
  const NdArgs nd = cook_nd_args(a, s, axes, true);
  const size_t last = nd.axes.size() - 1;
  Array r = a;
  for (size_t k = 0; k < last; ++k) {
    r = raw_fft(r, nd.s[k], nd.axes[k], Kind::kC2C, false, norm, std::nullopt, "irfftn", k > 0);
  }
  return raw_fft(r, nd.s[last], nd.axes[last], Kind::kC2R, false, norm, out, "irfftn");
}

Array fft2(const Array& a, const OptionalSizes& s, const std::vector<int64_t>& axes, const std::string& norm,
           const OptionalOut& out) {
  return fftn(a, s, axes, norm, out);
}

Array ifft2(const Array& a, const OptionalSizes& s, const std::vector<int64_t>& axes, const std::string& norm,
            const OptionalOut& out) {
  return ifftn(a, s, axes, norm, out);
}

Array rfft2(const Array& a, const OptionalSizes& s, const std::vector<int64_t>& axes, const std::string& norm,
            const OptionalOut& out) {
  return rfftn(a, s, axes, norm, out);
}

Array irfft2(const Array& a, const OptionalSizes& s, const std::vector<int64_t>& axes, const std::string& norm,
             const OptionalOut& out) {
  return irfftn(a, s, axes, norm, out);
}

}  // namespace fft
}  // namespace kumo
