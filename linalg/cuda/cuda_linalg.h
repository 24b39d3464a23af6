// cuBLAS/cuSOLVER implementation of LinalgBackend (inside the CUDA plugin).
//
// Data pointers must be CUDA device (or managed) memory; the device that
// owns them is the device the call runs on, and work is queued on the given
// stream. Workspace comes from that device's memory pool, stream-ordered.
// cuBLAS/cuSOLVER handles are per (device, thread), created on first use.
//
// gemm computes float32/complex64 in true single precision (no TF32)
// unless the environment sets KUMO_ALLOW_TF32=1 (read once), which lets
// cuBLAS use TF32 tensor cores (see cuda_linalg.cpp).
#pragma once
#include "linalg/linalg_backend.h"

namespace kumo {
LinalgBackend& cuda_linalg_backend();
}  // namespace kumo
