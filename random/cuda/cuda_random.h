// cuRAND implementation of RandomBackend (inside the CUDA plugin): device
// generators for CUDA arrays, host generators for host arrays.
#pragma once
#include "random/random_backend.h"

namespace kumo {
RandomBackend& curand_random_backend();
}  // namespace kumo
