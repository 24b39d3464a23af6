// CUB sorts of 8-bit keys (unsigned, signed values); see cub_sort.cuh.
#include "routines/cuda/cub_sort.cuh"

KUMO_CUB_SORT_INSTANTIATE(uint8_t, kUnsigned)
KUMO_CUB_SORT_INSTANTIATE(uint8_t, kSigned)
