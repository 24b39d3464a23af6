// The FFT backend: batched complex-to-complex, real-to-complex and
// complex-to-real transforms over strided arrays. Two implementations:
// pocketfft on the host (fft/host/host_fft.cpp) and cuFFT in the CUDA plugin
// (fft/cuda/cufft_backend.cpp).
//
// Conventions, shared by every routine:
// - An operand is (pointer to its element [0, ..., 0], shape, byte strides).
//   Strides may be negative or zero-free in any order; every axis that is not
//   transformed is a batch axis. Byte strides must be multiples of the
//   element size.
// - dtype is the *real* dtype of the transform, kFloat32 or kFloat64 (complex
//   data is complex64 or complex128 accordingly); anything else throws
//   TypeError.
// - forward: exponent sign -1 (numpy.fft.fft); backward: +1 (ifft). No
//   normalisation is implied: every result is multiplied by `scale`.
// - Input and output must not overlap, except that c2c may work in place
//   (in == out with identical strides).
// - Inputs are never modified (cuFFT's complex-to-real destroys its input,
//   so the CUDA backend works on a copy there).
// - Data belongs to the device the backend serves; work is queued on
//   `stream` (ignored on the host). Workspace and plans are the backend's
//   business (plans are cached).
#pragma once
#include <cstdint>
#include <vector>

#include "core/backend_registry.h"
#include "core/dtype.h"
#include "core/memory_pool.h"
#include "core/shape.h"

namespace kumo {

class FftBackend {
 public:
  static constexpr Capability kCapability = Capability::kFft;
  virtual ~FftBackend() = default;

  // out = scale * DFT of `in` along each axis of `axes` in turn (axes are in
  // [0, shape.size()), distinct). in and out have the same shape.
  virtual void c2c(Dtype dtype, const Shape& shape, const void* in, const Strides& in_strides, void* out,
                   const Strides& out_strides, const std::vector<int>& axes, bool forward, double scale,
                   StreamHandle stream) = 0;

  // Real input of `real_shape`; the complex output has real_shape[axis] / 2 + 1
  // elements along `axis` (the non-negative frequencies).
  virtual void r2c(Dtype dtype, const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
                   const Strides& out_strides, int axis, bool forward, double scale, StreamHandle stream) = 0;

  // The inverse of r2c: complex input with real_shape[axis] / 2 + 1 elements
  // along `axis` taken as the half spectrum of a Hermitian-symmetric one
  // (the imaginary parts of the zero and, for even lengths, the Nyquist
  // frequency are ignored); real output of `real_shape`.
  virtual void c2r(Dtype dtype, const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
                   const Strides& out_strides, int axis, bool forward, double scale, StreamHandle stream) = 0;
};

// The pocketfft backend used for host arrays.
FftBackend& host_fft_backend();

}  // namespace kumo
