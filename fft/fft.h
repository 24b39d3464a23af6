// numpy.fft in C++ (NumPy 2.x semantics): discrete Fourier transforms and
// their helpers, on host arrays (pocketfft) and CUDA arrays (cuFFT).
//
//   kumo::Array x = kumo::arange(8.0);
//   kumo::Array X = kumo::fft::fft(x);                  // complex128, length 8
//   kumo::Array y = kumo::fft::irfft(kumo::fft::rfft(x)); // x again (float64)
//   kumo::Array F = kumo::fft::fft2(img, std::nullopt, {-2, -1}, "ortho");
//
// As in NumPy:
// - n / s pad with zeros or truncate the input along the transformed axes;
//   n < 1 is a ValueError. s entries of -1 take the input's length.
// - norm is "backward" (the default: no scaling forward, 1/n backward),
//   "ortho" (1/sqrt(n) both ways) or "forward" (1/n forward); anything else
//   is a ValueError. The Python binding maps None to "backward".
// - Result dtypes: float16/float32/complex64 input computes in single
//   precision (complex64; irfft/hfft of float16 give float16), everything
//   else (bool, integers, float64, complex128) in double precision.
//   rfft, rfftn, ihfft of complex input are a TypeError.
// - out= must have the result's shape (ValueError "output array has wrong
//   shape.") and a dtype the result casts to with casting='same_kind'
//   (TypeError otherwise); the result is written there and returned.
// - fftn-style functions transform the axes of `axes` in NumPy's order
//   (last first) and allow repeated axes; axes of length 0 return the input.
//   With s but no axes, the last len(s) axes are used.
// - Without n, axis indexes the shape like a Python tuple (IndexError when
//   out of range, also for 0-d input); with n, a bad axis is an AxisError.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/device.h"
#include "core/dtype.h"

namespace kumo {
namespace fft {

using OptionalSize = std::optional<int64_t>;
using OptionalSizes = std::optional<std::vector<int64_t>>;
using OptionalAxes = std::optional<std::vector<int64_t>>;
using OptionalOut = std::optional<Array>;

// ---- one-dimensional transforms --------------------------------------------

Array fft(const Array& a, OptionalSize n = std::nullopt, int64_t axis = -1, const std::string& norm = "backward",
          const OptionalOut& out = std::nullopt);
Array ifft(const Array& a, OptionalSize n = std::nullopt, int64_t axis = -1, const std::string& norm = "backward",
           const OptionalOut& out = std::nullopt);
// Real input; n // 2 + 1 complex outputs along axis.
Array rfft(const Array& a, OptionalSize n = std::nullopt, int64_t axis = -1, const std::string& norm = "backward",
           const OptionalOut& out = std::nullopt);
// Half spectrum in, real output of length n (default 2 * (m - 1)).
Array irfft(const Array& a, OptionalSize n = std::nullopt, int64_t axis = -1, const std::string& norm = "backward",
            const OptionalOut& out = std::nullopt);
// The FFT of a Hermitian-symmetric signal given by its first half (real output).
Array hfft(const Array& a, OptionalSize n = std::nullopt, int64_t axis = -1, const std::string& norm = "backward",
           const OptionalOut& out = std::nullopt);
// The inverse of hfft (real input, half spectrum out).
Array ihfft(const Array& a, OptionalSize n = std::nullopt, int64_t axis = -1, const std::string& norm = "backward",
            const OptionalOut& out = std::nullopt);

// ---- n-dimensional transforms ----------------------------------------------
// axes nullopt: all axes (or the last len(s) when s is given).

Array fftn(const Array& a, const OptionalSizes& s = std::nullopt, const OptionalAxes& axes = std::nullopt,
           const std::string& norm = "backward", const OptionalOut& out = std::nullopt);
Array ifftn(const Array& a, const OptionalSizes& s = std::nullopt, const OptionalAxes& axes = std::nullopt,
            const std::string& norm = "backward", const OptionalOut& out = std::nullopt);
Array rfftn(const Array& a, const OptionalSizes& s = std::nullopt, const OptionalAxes& axes = std::nullopt,
            const std::string& norm = "backward", const OptionalOut& out = std::nullopt);
Array irfftn(const Array& a, const OptionalSizes& s = std::nullopt, const OptionalAxes& axes = std::nullopt,
             const std::string& norm = "backward", const OptionalOut& out = std::nullopt);

// The two-dimensional forms: fftn with axes defaulting to (-2, -1).
Array fft2(const Array& a, const OptionalSizes& s = std::nullopt,
           const std::vector<int64_t>& axes = {-2, -1}, const std::string& norm = "backward",
           const OptionalOut& out = std::nullopt);
Array ifft2(const Array& a, const OptionalSizes& s = std::nullopt,
            const std::vector<int64_t>& axes = {-2, -1}, const std::string& norm = "backward",
            const OptionalOut& out = std::nullopt);
Array rfft2(const Array& a, const OptionalSizes& s = std::nullopt,
            const std::vector<int64_t>& axes = {-2, -1}, const std::string& norm = "backward",
            const OptionalOut& out = std::nullopt);
Array irfft2(const Array& a, const OptionalSizes& s = std::nullopt,
             const std::vector<int64_t>& axes = {-2, -1}, const std::string& norm = "backward",
             const OptionalOut& out = std::nullopt);

// ---- helpers -----------------------------------------------------------------

// Sample frequencies [0, 1, ..., (n-1)/2, -(n/2), ..., -1] / (d * n), float64;
// n == 0 or d == 0 is a ZeroDivisionError, n < 0 a ValueError.
Array fftfreq(int64_t n, double d = 1.0, Device& device = current_device());
// [0, 1, ..., n/2] / (d * n), float64.
Array rfftfreq(int64_t n, double d = 1.0, Device& device = current_device());

// Moves the zero frequency to the centre: a roll by n/2 along each axis of
// `axes` (all axes when nullopt); ifftshift undoes it (roll by -(n/2)).
Array fftshift(const Array& x, const OptionalAxes& axes = std::nullopt);
Array ifftshift(const Array& x, const OptionalAxes& axes = std::nullopt);

}  // namespace fft
}  // namespace kumo
