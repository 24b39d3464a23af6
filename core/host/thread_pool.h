// A fixed pool of worker threads for host kernels. parallel_for splits
// [0, n) into contiguous chunks; the calling thread takes a share too, so a
// pool of size 1 runs everything inline with no synchronisation.
#pragma once
#include <cstdint>
#include <functional>

namespace kumo {

// Number of threads host kernels use (KUMO_NUM_THREADS, else all cores).
int host_num_threads();

// Runs fn(begin, end) over disjoint chunks covering [0, n). Chunks are at
// least `grain` long; with n <= grain it runs inline on the caller.
// Exceptions from fn are rethrown on the caller (the first one).
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace kumo
