// The CUB sorts behind routines/cuda/cub_sort.h, as templates: each
// cub_sort_u*.cu instantiates them for one key width, so the heavy CUB
// instantiations are spread over translation units that build in parallel.
//
// A row sort is one cub::DeviceRadixSort call for a single row (or rows too
// long for CUB's int item counts of the segmented sort), else
// cub::DeviceSegmentedRadixSort over chunks of rows of at most INT_MAX
// items. Both are stable LSD radix sorts of the unsigned keys of
// routines/sort_keys.h. Keys are made and turned back to values by small
// grid-stride kernels. Every buffer is a block of the device's memory pool
// on the current stream, held by a shared_ptr until the scope ends: the pool
// only reuses a block for work queued after it on the same stream.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <memory>

#include "core/cuda/cuda_common.h"
#include "core/memory.h"
#include "routines/cuda/cub_sort.h"

namespace kumo {
namespace cub_sort_detail {
namespace {

using cuda_detail::check;
using sort_detail::Keys;

constexpr int kBlock = 256;

// Grid of a grid-stride loop over `count` elements (capped: each thread
// takes several elements of a huge array).
inline unsigned grid_for(int64_t count) {
  return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((count + kBlock - 1) / kBlock, 1 << 16)));
}

// A pool block of `count` elements of T, freed when the last holder goes.
template <class T>
struct Buffer {
  std::shared_ptr<Memory> memory;
  Buffer(Device& device, int64_t count)
      : memory(device.allocate(std::max<size_t>(1, static_cast<size_t>(count) * sizeof(T)))) {}
  T* get() const { return static_cast<T*>(memory->data()); }
};

// keys[i] = key of the row element i reads (perm[i] within its row when
// given); idx[i] = that element's position in its row.
template <class U, KeyKind K>
__global__ void make_keys(const U* in, int stride, const int64_t* perm, U* keys, int64_t* idx, int64_t total,
                          int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t pos = perm ? perm[i] : i % n;
    if (idx) idx[i] = pos;
    keys[i] = Keys<U, K>::key(in[(i - i % n + pos) * stride]);
  }
}

template <class U, KeyKind K>
__global__ void keys_to_values(const U* keys, U* out, int64_t total) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = Keys<U, K>::value(keys[i]);
  }
}

// offsets[r] = r * n for r in [0, count]: where each row of a chunk starts.
__global__ void row_offsets(int* offsets, int64_t count, int n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i <= count; i += int64_t(gridDim.x) * blockDim.x) {
    offsets[i] = static_cast<int>(i * n);
  }
}

inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

// Runs a CUB call the two-phase way: ask for the temporary size, then run
// with a pool block of that size.
template <class Call>
void with_temp(Device& device, const char* what, int64_t items, Call call) {
  size_t bytes = 0;
  check(call(nullptr, bytes), what, items);
  Buffer<unsigned char> temp(device, static_cast<int64_t>(bytes));
  check(call(temp.get(), bytes), what, items);
}

// Stable radix sort of each row of kin into kout, with vin carried to vout
// when V is not void.
template <class U, class V>
void radix_rows(Device& device, cudaStream_t stream, const U* kin, U* kout, const V* vin, V* vout, int64_t rows,
                int64_t n) {
  constexpr bool kPairs = !std::is_void_v<V>;
  constexpr int kBits = int(sizeof(U) * 8);
  if (rows == 1 || n > INT_MAX) {
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t o = r * n;
      if constexpr (kPairs) {
        with_temp(device, "cub::DeviceRadixSort::SortPairs", n, [&](void* t, size_t& b) {
          return cub::DeviceRadixSort::SortPairs(t, b, kin + o, kout + o, vin + o, vout + o, n, 0, kBits, stream);
        });
      } else {
        with_temp(device, "cub::DeviceRadixSort::SortKeys", n, [&](void* t, size_t& b) {
          return cub::DeviceRadixSort::SortKeys(t, b, kin + o, kout + o, n, 0, kBits, stream);
        });
      }
    }
    return;
  }
  // Rows per segmented call: its item count is an int.
  const int64_t chunk = std::min<int64_t>(rows, std::max<int64_t>(1, INT_MAX / n));
  Buffer<int> offsets(device, chunk + 1);
  row_offsets<<<grid_for(chunk + 1), kBlock, 0, stream>>>(offsets.get(), chunk, static_cast<int>(n));
  check_launch("row_offsets");
  for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
    const int segments = static_cast<int>(std::min<int64_t>(chunk, rows - r0));
    const int items = static_cast<int>(segments * n);
    const int64_t o = r0 * n;
    const int* begin = offsets.get();
    const int* end = offsets.get() + 1;
    if constexpr (kPairs) {
      with_temp(device, "cub::DeviceSegmentedRadixSort::SortPairs", items, [&](void* t, size_t& b) {
        return cub::DeviceSegmentedRadixSort::SortPairs(t, b, kin + o, kout + o, vin + o, vout + o, items, segments,
                                                        begin, end, 0, kBits, stream);
      });
    } else {
      with_temp(device, "cub::DeviceSegmentedRadixSort::SortKeys", items, [&](void* t, size_t& b) {
        return cub::DeviceSegmentedRadixSort::SortKeys(t, b, kin + o, kout + o, items, segments, begin, end, 0, kBits,
                                                       stream);
      });
    }
  }
}

}  // namespace

template <class U, KeyKind K>
void sort_rows(Device& device, const U* in, U* out, int64_t rows, int64_t n) {
  const int64_t total = rows * n;
  if (total == 0) return;
  cuda_detail::set_device(device.index());
  const cudaStream_t stream = cuda_detail::to_stream(device.current_stream());
  if constexpr (K == KeyKind::kUnsigned) {
    // The values are their own keys.
    radix_rows<U, void>(device, stream, in, out, nullptr, nullptr, rows, n);
    return;
  }
  Buffer<U> keys(device, total), sorted(device, total);
  make_keys<U, K><<<grid_for(total), kBlock, 0, stream>>>(in, 1, nullptr, keys.get(), nullptr, total, n);
  check_launch("make_keys");
  if constexpr (K == KeyKind::kFloat) {
    // The original bits ride along as values: -0.0 and NaN payloads come
    // back as they were (the key maps them onto 0.0 and one NaN).
    radix_rows<U, U>(device, stream, keys.get(), sorted.get(), in, out, rows, n);
  } else {
    radix_rows<U, void>(device, stream, keys.get(), sorted.get(), nullptr, nullptr, rows, n);
    keys_to_values<U, K><<<grid_for(total), kBlock, 0, stream>>>(sorted.get(), out, total);
    check_launch("keys_to_values");
  }
}

template <class U, KeyKind K>
void argsort_rows(Device& device, const U* in, int stride, const int64_t* perm, int64_t* out, int64_t rows, int64_t n) {
  const int64_t total = rows * n;
  if (total == 0) return;
  cuda_detail::set_device(device.index());
  const cudaStream_t stream = cuda_detail::to_stream(device.current_stream());
  Buffer<U> keys(device, total), sorted(device, total);
  Buffer<int64_t> idx(device, total);
  make_keys<U, K><<<grid_for(total), kBlock, 0, stream>>>(in, stride, perm, keys.get(), idx.get(), total, n);
  check_launch("make_keys");
  radix_rows<U, int64_t>(device, stream, keys.get(), sorted.get(), idx.get(), out, rows, n);
}

}  // namespace cub_sort_detail
}  // namespace kumo

// Explicit instantiations of one key width's sorts for the key kinds it has.
#define KUMO_CUB_SORT_INSTANTIATE(U, K)                                                                         \
  template void kumo::cub_sort_detail::sort_rows<U, kumo::sort_detail::KeyKind::K>(kumo::Device&, const U*, U*, \
                                                                                   int64_t, int64_t);           \
  template void kumo::cub_sort_detail::argsort_rows<U, kumo::sort_detail::KeyKind::K>(                          \
      kumo::Device&, const U*, int, const int64_t*, int64_t*, int64_t, int64_t);
