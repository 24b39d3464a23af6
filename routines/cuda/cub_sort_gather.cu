// The row gather that turns a complex argsort into a sorted copy; see
// cub_sort.h.
#include <cuda_runtime_api.h>

#include <algorithm>

#include "core/cuda/cuda_common.h"
#include "routines/cuda/cub_sort.h"

namespace kumo {
namespace cub_sort_detail {
namespace {

template <int kBytes>
struct alignas(kBytes) Item {
  unsigned char b[kBytes];
};

template <int kBytes>
__global__ void gather(const Item<kBytes>* in, const int64_t* idx, Item<kBytes>* out, int64_t total, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = in[i - i % n + idx[i]];
  }
}

}  // namespace

void gather_rows(Device& device, size_t itemsize, const void* in, const int64_t* idx, void* out, int64_t rows,
                 int64_t n) {
  const int64_t total = rows * n;
  if (total == 0) return;
  cuda_detail::set_device(device.index());
  const cudaStream_t stream = cuda_detail::to_stream(device.current_stream());
  constexpr int kBlock = 256;
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>((total + kBlock - 1) / kBlock, 1 << 16));
  if (itemsize == 8) {
    gather<8><<<grid, kBlock, 0, stream>>>(static_cast<const Item<8>*>(in), idx, static_cast<Item<8>*>(out), total, n);
  } else if (itemsize == 16) {
    gather<16>
        <<<grid, kBlock, 0, stream>>>(static_cast<const Item<16>*>(in), idx, static_cast<Item<16>*>(out), total, n);
  } else {
    throw ValueError("gather_rows: item size " + std::to_string(itemsize) + " is not 8 or 16");
  }
  cuda_detail::check(cudaGetLastError(), "gather");
}

}  // namespace cub_sort_detail
}  // namespace kumo
