// Max pooling and its scatter on the host for float32 and float64, as
// native loops split over kumo's thread pool (nn/im2col.cpp calls
// them in place of its generated plane kernels for these dtypes).
//
// Why native code and not the generated kernels: the generated kernels
// serve every rank with run-time loops over axes, decode each window
// position with 64-bit divisions (the scatter) and update whole output rows
// once per window position (the forward), which made the two max poolings
// of a small CNN cost as much as its convolutions. Here each output keeps
// its running maximum in registers over a window whose positions are known
// without divisions, and ranks 1 to 3 share one three-axis loop nest.
#pragma once
#include <cstdint>
#include <vector>

#include "core/dtype.h"

namespace kumo {
namespace host_pool {

// A pooling over planes of extents in (D, H, W) into out (D, H, W); ranks
// below 3 lead with extent 1, window 1, stride 1 and no padding.
struct Geometry {
  int64_t in[3], k[3], s[3], p[3], o[3];
};

// Geometry for nd = 1..3 spatial axes; false when nd is larger.
bool make_geometry(const std::vector<int64_t>& in, const std::vector<int64_t>& k, const std::vector<int64_t>& s,
                   const std::vector<int64_t>& p, const std::vector<int64_t>& o, Geometry* g);

// Whether the native kernels take this dtype.
bool supports(Dtype dtype);

// y and idx (planes x prod(o)) from x (planes x prod(in)): each output's
// maximum over its window with padding as -inf, and the flat window
// position of the first maximum (a NaN wins over any number; an output
// whose window holds nothing above -inf gets position 0). The same results
// as max_pool's generated kernels.
void max_pool(Dtype dtype, const Geometry& g, int64_t planes, const void* x, void* y, int64_t* idx);

// img (planes x prod(in)) = zeros, plus each v[o] added at the position
// idx[o] names in window o (positions outside the window or in the padding
// drop their value).
void pool_scatter(Dtype dtype, const Geometry& g, int64_t planes, const void* v, const int64_t* idx, void* img);

}  // namespace host_pool
}  // namespace kumo
