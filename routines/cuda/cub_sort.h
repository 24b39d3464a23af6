// CUB implementation of SortBackend (inside the CUDA plugin), and the
// per-key-width sorts it is made of. No CUDA header is included here: the
// backend class is plain C++ (cub_sort_backend.cpp) and the CUB
// instantiations live in one .cu file per key width (cub_sort_u*.cu), which
// nvcc compiles in parallel.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/device.h"
#include "routines/sort_backend.h"
#include "routines/sort_keys.h"

namespace kumo {

SortBackend& cub_sort_backend();

namespace cub_sort_detail {

using sort_detail::KeyKind;

// out = rows of `in` (values stored as the unsigned U, transformed by
// sort_detail::Keys<U, K>) sorted, stably. in and out are distinct.
template <class U, KeyKind K>
void sort_rows(Device& device, const U* in, U* out, int64_t rows, int64_t n);

// out = stable argsort of rows of keys read from `in` with a stride of
// `stride` elements (2 picks a part of complex values). With `perm` (which
// may be `out` itself), element i of a row is the row's element perm[i]
// and out gets those positions reordered: one more stable pass of an LSD
// sort over several keys.
template <class U, KeyKind K>
void argsort_rows(Device& device, const U* in, int stride, const int64_t* perm, int64_t* out, int64_t rows, int64_t n);

// out[r * n + i] = in[r * n + idx[r * n + i]] for items of 8 or 16 bytes.
void gather_rows(Device& device, size_t itemsize, const void* in, const int64_t* idx, void* out, int64_t rows,
                 int64_t n);

}  // namespace cub_sort_detail
}  // namespace kumo
