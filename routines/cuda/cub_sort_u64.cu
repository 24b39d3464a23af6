// CUB sorts of 64-bit keys (unsigned, signed, float values); see cub_sort.cuh.
#include "routines/cuda/cub_sort.cuh"

KUMO_CUB_SORT_INSTANTIATE(uint64_t, kUnsigned)
KUMO_CUB_SORT_INSTANTIATE(uint64_t, kSigned)
KUMO_CUB_SORT_INSTANTIATE(uint64_t, kFloat)
