// The iterative solvers' vector updates on vectors that the host loops do
// not serve: arrays on a CUDA device, and host arrays while the portable
// sparse path is on (KUMO_SPARSE_BACKEND=portable), which is how the tests
// run the CUDA code path without a GPU.
//
// A FusedVectorKernel is one update written once as a kernel statement, e.g.
//   {"kumo_cg_update", "T p, T q", "T x, T r", "x += s[0] * p; r -= s[0] * q"}
// It becomes a generated elementwise kernel (CUDA through NVRTC, or C++ on
// the host) over the vectors, with the solver's scalars passed as the raw
// array `s`, so an iteration's update is one pass over memory on the device
// as on the host, and no element leaves the device.
#pragma once
#include <vector>

#include "core/array.h"

namespace kumo {
namespace sparse {
namespace linalg {

struct FusedVectorKernel {
  const char* name;
  const char* in_params;   // read-only vectors, "T a, T b" (may be empty)
  const char* out_params;  // vectors written (and possibly read)
  const char* operation;   // statements over the vectors and s[0], s[1], ...
};

// Runs `kernel` over equally long 1-d vectors; `scalars` is a 1-d array of
// the vectors' dtype on any device (moved to theirs).
void run_fused_vector_kernel(const FusedVectorKernel& kernel, const Array& scalars, const std::vector<Array>& in,
                             const std::vector<Array>& out);

// Whether the solvers' vectors on `device` run the host loops (a host device
// with the portable sparse path off) or the fused kernels.
bool host_vector_loops(const Device& device);

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
