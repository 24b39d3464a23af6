// The sort backend: sorting of rows of a real or complex dtype on one device,
// in NumPy's order (routines/sorting.h describes it). The host sorts in
// routines/sorting.cpp itself; the CUDA plugin implements this interface with
// CUB's radix sorts (routines/cuda/cub_sort_backend.cpp) and
// routines/sorting.cpp dispatches CUDA arrays to it.
//
// Conventions, shared by every call:
// - Data is `rows` C-contiguous rows of `n` elements on `device` (rows * n
//   elements in all); each row is sorted on its own.
// - Real dtypes sort as the order-preserving unsigned keys of
//   routines/sort_keys.h (NaN last, -0.0 equal to 0.0); complex ones by
//   (real, imag) with NumPy's NaN order.
// - Work is queued on the device's current stream; temporary memory comes
//   from the device's memory pool on that stream. Nothing waits for the GPU.
#pragma once
#include <cstdint>

#include "core/backend_registry.h"
#include "core/device.h"
#include "core/dtype.h"

namespace kumo {

class SortBackend {
 public:
  static constexpr Capability kCapability = Capability::kSort;
  virtual ~SortBackend() = default;

  // out = each row of `in` sorted. in and out must not overlap. Equal keys
  // keep their order (so -0.0 and 0.0 keep theirs, and NaN payloads survive).
  virtual void sort(Device& device, Dtype dtype, const void* in, void* out, int64_t rows, int64_t n) = 0;

  // out (int64) = the stable argsort of each row of `in`: positions within the
  // row.
  virtual void argsort(Device& device, Dtype dtype, const void* in, int64_t* out, int64_t rows, int64_t n) = 0;
};

}  // namespace kumo
