// Patch extraction for convolution and pooling over N spatial dimensions
// (Chainer's chainer.utils.conv), as generated kernels on the array's device:
//
//   // x (N, C, H, W) -> col (N, C, kh, kw, out_h, out_w)
//   kumo::Array col = kumo::im2col(x, {3, 3}, {1, 1}, {1, 1});
//   // the adjoint: sums every patch element back where it came from
//   kumo::Array img = kumo::col2im(col, {1, 1}, {1, 1}, {H, W});
//
// Every vector argument has one entry per spatial dimension. Arrays are
// (N, C, *spatial); a col array is (N, C, *ksize, *outsize).
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/array.h"
#include "routines/scalar.h"

namespace kumo {

// Chainer's get_conv_outsize: the output extent of a convolution over
// `size` with kernel k, stride s, padding p and dilation d; cover_all adds
// the windows that reach past the end (stride - 1 more padding).
int64_t conv_outsize(int64_t size, int64_t k, int64_t s, int64_t p, bool cover_all = false, int64_t d = 1);
// Chainer's get_deconv_outsize: the extent whose conv_outsize is `size`.
int64_t deconv_outsize(int64_t size, int64_t k, int64_t s, int64_t p, bool cover_all = false, int64_t d = 1);

// The patches of x (N, C, *spatial): col[n, c, *kpos, *opos] = x[n, c,
// opos * stride - pad + kpos * dilate], pad_value outside x. Empty
// `dilate` means 1. The output extents are conv_outsize(...); ValueError
// when one is not positive.
Array im2col(const Array& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
             const std::vector<int64_t>& pad, const std::vector<int64_t>& dilate = {}, bool cover_all = false,
             Scalar pad_value = Scalar(0));
// The same with the output extents given (any >= 0; positions past x read
// pad_value), as the adjoint of col2im needs for a deconvolution's outsize.
Array im2col_sized(const Array& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& pad, const std::vector<int64_t>& dilate,
                   const std::vector<int64_t>& outsize, Scalar pad_value = Scalar(0));
// The adjoint of im2col: an (N, C, *outsize) array where each element is
// the sum of the col elements im2col would have copied from it.
//
// col2im, max_pool and pool_scatter come in two kernel forms: one element
// per output element, gathering (CUDA's default: many threads), or one
// element per (n, c) plane, walking it in order without decoding indexes
// (the host's default: fewer, longer tasks). per_element picks one. On the
// host, max_pool and pool_scatter of float32/float64 with 1 to 3 spatial
// axes run the plane form as native loops (nn/host/pool_kernels.h).
Array col2im(const Array& col, const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
             const std::vector<int64_t>& outsize, const std::vector<int64_t>& dilate = {},
             std::optional<bool> per_element = std::nullopt);

// Max pooling of a floating x (N, C, *spatial) with -inf padding: the
// maxima (N, C, *out) and the flat position of each within its window
// (int64, the first maximum; NaN wins), out = conv_outsize(..., cover_all).
std::pair<Array, Array> max_pool(const Array& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                                 const std::vector<int64_t>& pad, bool cover_all = true,
                                 std::optional<bool> per_element = std::nullopt);
// y[n, c, *o] = x at the position idx[n, c, *o] names in window o (0 when
// that position is padding); y has idx's shape.
Array pool_gather(const Array& x, const Array& idx, const std::vector<int64_t>& ksize,
                  const std::vector<int64_t>& stride, const std::vector<int64_t>& pad);
// The adjoint of pool_gather: an (N, C, *outsize) array where each element
// sums the v[n, c, *o] whose window position idx[n, c, *o] lands on it.
Array pool_scatter(const Array& v, const Array& idx, const std::vector<int64_t>& ksize,
                   const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                   const std::vector<int64_t>& outsize, std::optional<bool> per_element = std::nullopt);

}  // namespace kumo
