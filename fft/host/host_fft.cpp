// The host FftBackend over pocketfft (BSD-3-Clause; the C++ header-only
// version, fetched by the CMake configuration into third_party/pocketfft/).
//
// pocketfft takes shapes, byte strides (any sign) and axes directly, so no
// operand is ever copied into a layout of ours. Plans (twiddle factors) are
// cached by length (POCKETFFT_CACHE_SIZE), so repeated transforms of one
// length pay for them once. Batches of lines are split over kumo's host
// thread count by pocketfft's own pool; one line is transformed by one
// thread, as in NumPy.
#define POCKETFFT_CACHE_SIZE 16
#include <pocketfft_hdronly.hpp>

#include <complex>
#include <cstring>
#include <cstddef>
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "core/backend_registry.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "fft/fft_backend.h"

namespace kumo {
namespace {

pocketfft::shape_t to_shape(const Shape& shape) { return pocketfft::shape_t(shape.begin(), shape.end()); }
pocketfft::stride_t to_strides(const Strides& strides) { return pocketfft::stride_t(strides.begin(), strides.end()); }

size_t num_threads() { return static_cast<size_t>(host_num_threads()); }

// Runs one pocketfft call, turning its exceptions into kumo's with the call
// and its arguments.
template <typename F>
void guarded(const char* routine, Dtype dtype, const Shape& shape, F&& f) {
  try {
    f();
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError(std::string("fft: pocketfft ") + routine + " of shape " + shape.to_string() + " (" +
                           dtype_name(dtype) + ") ran out of memory");
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw RuntimeError(std::string("fft: pocketfft ") + routine + " of shape " + shape.to_string() + " (" +
                       dtype_name(dtype) + ") failed: " + e.what());
  }
}

// ---- one line ---------------------------------------------------------------------
// A single transform (every batch axis of extent 1) into a contiguous
// output: the input goes straight into the output and pocketfft's cached
// plan runs there in place, as NumPy does it. pocketfft's general path
// would gather the line element by element through its multi-axis iterator
// into a line-sized temporary first, which costs a third of the transform
// for a long line (2^20 complex128: 35 ms against 25 ms).

template <typename T>
using Complex = std::complex<T>;

// The line's length when `shape` is one line along `axis`, else 0.
int64_t single_line(const Shape& shape, int axis) {
  const int64_t n = shape[axis];
  return n > 0 && shape_size(shape) == n ? n : 0;
}

// Element i of a line that starts at `base` with byte stride `stride`.
template <typename E>
const E& at(const void* base, int64_t stride, int64_t i) {
  return *reinterpret_cast<const E*>(static_cast<const char*>(base) + i * stride);
}

template <typename T>
bool c2c_line(const Shape& shape, const void* in, const Strides& in_strides, void* out, const Strides& out_strides,
              const std::vector<int>& axes, bool forward, T fct) {
  if (axes.size() != 1) return false;
  const int ax = axes[0];
  const int64_t n = single_line(shape, ax);
  if (n == 0 || out_strides[ax] != static_cast<int64_t>(sizeof(Complex<T>))) return false;
  auto* dst = static_cast<Complex<T>*>(out);
  if (in != out) {
    if (in_strides[ax] == static_cast<int64_t>(sizeof(Complex<T>))) {
      std::memcpy(dst, in, static_cast<size_t>(n) * sizeof(Complex<T>));
    } else {
      for (int64_t i = 0; i < n; ++i) dst[i] = at<Complex<T>>(in, in_strides[ax], i);
    }
  }
  auto plan = pocketfft::detail::get_plan<pocketfft::detail::pocketfft_c<T>>(static_cast<size_t>(n));
  plan->exec(reinterpret_cast<pocketfft::detail::cmplx<T>*>(dst), fct, forward);
  return true;
}

// Forward only. The n reals go to reals 1..n of the output, where the plan
// leaves FFTPACK's half-complex order r0, r1, i1, r2, i2, ...: from real 2
// on that is already the complex layout; r0 moves down and the zero
// imaginary parts are written.
template <typename T>
bool r2c_line(const Shape& shape, const void* in, const Strides& in_strides, void* out, const Strides& out_strides,
              int ax, bool forward, T fct) {
  const int64_t n = single_line(shape, ax);
  if (!forward || n == 0 || out_strides[ax] != static_cast<int64_t>(sizeof(Complex<T>))) return false;
  T* r = static_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) r[i + 1] = at<T>(in, in_strides[ax], i);
  auto plan = pocketfft::detail::get_plan<pocketfft::detail::pocketfft_r<T>>(static_cast<size_t>(n));
  plan->exec(r + 1, fct, true);
  r[0] = r[1];
  r[1] = T(0);
  if (n % 2 == 0) r[n + 1] = T(0);
  return true;
}

// Backward only: the half spectrum packed into the output in half-complex
// order (the imaginary parts of bin 0 and, for even n, bin n/2 dropped),
// then transformed there.
template <typename T>
bool c2r_line(const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
              const Strides& out_strides, int ax, bool forward, T fct) {
  const int64_t n = single_line(real_shape, ax);
  if (forward || n == 0 || out_strides[ax] != static_cast<int64_t>(sizeof(T))) return false;
  T* r = static_cast<T*>(out);
  const int64_t stride = in_strides[ax];
  r[0] = at<Complex<T>>(in, stride, 0).real();
  int64_t i = 1, k = 1;
  for (; i < n - 1; i += 2, ++k) {
    const Complex<T>& c = at<Complex<T>>(in, stride, k);
    r[i] = c.real();
    r[i + 1] = c.imag();
  }
  if (i < n) r[i] = at<Complex<T>>(in, stride, k).real();
  auto plan = pocketfft::detail::get_plan<pocketfft::detail::pocketfft_r<T>>(static_cast<size_t>(n));
  plan->exec(r, fct, false);
  return true;
}

// ---- the backend -----------------------------------------------------------------

// Calls f(T{}) with the real type of `dtype` (float or double) inside
// guarded(); other dtypes are a TypeError.
template <typename F>
void with_real_type(const char* routine, Dtype dtype, const Shape& shape, F&& f) {
  if (dtype != Dtype::kFloat32 && dtype != Dtype::kFloat64)
    throw TypeError(std::string("fft backend ") + routine + ": unsupported dtype " + dtype_name(dtype) +
                    " (expected float32 or float64)");
  guarded(routine, dtype, shape, [&] {
    if (dtype == Dtype::kFloat32) {
      f(float{});
    } else {
      f(double{});
    }
  });
}

class HostFftBackend final : public FftBackend {
 public:
  void c2c(Dtype dtype, const Shape& shape, const void* in, const Strides& in_strides, void* out,
           const Strides& out_strides, const std::vector<int>& axes, bool forward, double scale,
           StreamHandle) override {
    with_real_type("c2c", dtype, shape, [&](auto tag) {
      using T = decltype(tag);
      if (c2c_line<T>(shape, in, in_strides, out, out_strides, axes, forward, static_cast<T>(scale))) return;
      pocketfft::c2c(to_shape(shape), to_strides(in_strides), to_strides(out_strides),
                     pocketfft::shape_t(axes.begin(), axes.end()), forward, static_cast<const std::complex<T>*>(in),
                     static_cast<std::complex<T>*>(out), static_cast<T>(scale), num_threads());
    });
  }

  void r2c(Dtype dtype, const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
           const Strides& out_strides, int axis, bool forward, double scale, StreamHandle) override {
    with_real_type("r2c", dtype, real_shape, [&](auto tag) {
      using T = decltype(tag);
      if (r2c_line<T>(real_shape, in, in_strides, out, out_strides, axis, forward, static_cast<T>(scale))) return;
      pocketfft::r2c(to_shape(real_shape), to_strides(in_strides), to_strides(out_strides),
                     static_cast<size_t>(axis), forward, static_cast<const T*>(in),
                     static_cast<std::complex<T>*>(out), static_cast<T>(scale), num_threads());
    });
  }

  void c2r(Dtype dtype, const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
           const Strides& out_strides, int axis, bool forward, double scale, StreamHandle) override {
    with_real_type("c2r", dtype, real_shape, [&](auto tag) {
      using T = decltype(tag);
      if (c2r_line<T>(real_shape, in, in_strides, out, out_strides, axis, forward, static_cast<T>(scale))) return;
      pocketfft::c2r(to_shape(real_shape), to_strides(in_strides), to_strides(out_strides),
                     static_cast<size_t>(axis), forward, static_cast<const std::complex<T>*>(in),
                     static_cast<T*>(out), static_cast<T>(scale), num_threads());
    });
  }
};

}  // namespace

FftBackend& host_fft_backend() {
  static HostFftBackend backend;
  return backend;
}

namespace {
const BackendRegistration registration(Capability::kFft, DeviceType::kCPU, []() -> void* { return &host_fft_backend(); });
}  // namespace

}  // namespace kumo
