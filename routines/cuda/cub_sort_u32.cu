// CUB sorts of 32-bit keys (unsigned, signed, float values); see cub_sort.cuh.
#include "routines/cuda/cub_sort.cuh"

KUMO_CUB_SORT_INSTANTIATE(uint32_t, kUnsigned)
KUMO_CUB_SORT_INSTANTIATE(uint32_t, kSigned)
KUMO_CUB_SORT_INSTANTIATE(uint32_t, kFloat)
