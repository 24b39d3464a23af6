// cuFFT implementation of FftBackend (inside the CUDA plugin).
//
// Data pointers must be CUDA device (or managed) memory; the device owning
// the input is the device the call runs on, and work is queued on the given
// stream. Strides must be non-negative (the routines layer copies a
// negatively strided operand first). Plans are cached per thread, keyed by
// (device, transform type, length, strides, batch distances, batch).
#pragma once
#include "fft/fft_backend.h"

namespace kumo {
FftBackend& cufft_backend();
}  // namespace kumo
