// The host FftBackend over pocketfft (BSD-3-Clause; the C++ header-only
// version, fetched by scripts/setup.sh into third_party/pocketfft/).
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
#include <cstddef>
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <vector>

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
      pocketfft::c2c(to_shape(shape), to_strides(in_strides), to_strides(out_strides),
                     pocketfft::shape_t(axes.begin(), axes.end()), forward, static_cast<const std::complex<T>*>(in),
                     static_cast<std::complex<T>*>(out), static_cast<T>(scale), num_threads());
    });
  }

  void r2c(Dtype dtype, const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
           const Strides& out_strides, int axis, bool forward, double scale, StreamHandle) override {
    with_real_type("r2c", dtype, real_shape, [&](auto tag) {
      using T = decltype(tag);
      pocketfft::r2c(to_shape(real_shape), to_strides(in_strides), to_strides(out_strides),
                     static_cast<size_t>(axis), forward, static_cast<const T*>(in),
                     static_cast<std::complex<T>*>(out), static_cast<T>(scale), num_threads());
    });
  }

  void c2r(Dtype dtype, const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
           const Strides& out_strides, int axis, bool forward, double scale, StreamHandle) override {
    with_real_type("c2r", dtype, real_shape, [&](auto tag) {
      using T = decltype(tag);
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

}  // namespace kumo
