// Differentiable convolutions (Chainer's chainer.functions.connection):
// im2col, convolution_nd/1d/2d/3d, deconvolution_nd/1d/2d/3d and
// depthwise_convolution_2d over (N, C, *spatial) inputs.
//
// Convolutions and deconvolutions are three function nodes over
// nn/convolution.h (forward, gradient in the input, gradient in the
// weights), each differentiating into the others, so gradients of any order
// run on oneDNN (host float32), cuDNN (CUDA) or im2col + GEMM (the rest).
// F.im2col itself is the patch-copy kernel. Vector parameters hold one entry per spatial axis,
// or one entry for all of them; empty means the default (stride 1, pad 0,
// dilate 1).
#pragma once
#include <cstdint>
#include <vector>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// Chainer's F.im2col generalised to N spatial axes: x (N, C, *spatial) ->
// (N, C * prod(ksize), *out), each column holding one patch.
Variable im2col(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride = {},
                const std::vector<int64_t>& pad = {}, bool cover_all = false, const std::vector<int64_t>& dilate = {});
// The patches as (N, C, *ksize, *out), padding reading pad_value
// (chainer.utils.conv.im2col); its gradient is col2im.
Variable im2col_patches(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride,
                        const std::vector<int64_t>& pad, const std::vector<int64_t>& dilate,
                        const std::vector<int64_t>& outsize, double pad_value = 0);
// The adjoint of im2col_patches: (N, C, *ksize, *in) -> (N, C, *outsize).
Variable col2im(const Variable& col, const std::vector<int64_t>& stride, const std::vector<int64_t>& pad,
                const std::vector<int64_t>& outsize, const std::vector<int64_t>& dilate = {});

// y = W * x + b for x (N, C, *spatial), W (C_out, C / groups, *ksize), b
// (C_out,) or undefined; output extents are Chainer's get_conv_outsize.
Variable convolution_nd(const Variable& x, const Variable& W, const Variable& b = Variable(),
                        const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                        bool cover_all = false, const std::vector<int64_t>& dilate = {}, int64_t groups = 1);
// convolution_nd that requires 1, 2 or 3 spatial axes.
Variable convolution_1d(const Variable& x, const Variable& W, const Variable& b = Variable(),
                        const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                        bool cover_all = false, const std::vector<int64_t>& dilate = {}, int64_t groups = 1);
Variable convolution_2d(const Variable& x, const Variable& W, const Variable& b = Variable(),
                        const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                        bool cover_all = false, const std::vector<int64_t>& dilate = {}, int64_t groups = 1);
Variable convolution_3d(const Variable& x, const Variable& W, const Variable& b = Variable(),
                        const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                        bool cover_all = false, const std::vector<int64_t>& dilate = {}, int64_t groups = 1);

// The transposed convolution for x (N, C_in, *spatial), W (C_in, C_out /
// groups, *ksize): the gradient of convolution_nd with respect to its input.
// Empty outsize means Chainer's get_deconv_outsize; a given one must lie in
// the range whose convolution gives x's extents.
Variable deconvolution_nd(const Variable& x, const Variable& W, const Variable& b = Variable(),
                          const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                          const std::vector<int64_t>& outsize = {}, const std::vector<int64_t>& dilate = {},
                          int64_t groups = 1);
Variable deconvolution_1d(const Variable& x, const Variable& W, const Variable& b = Variable(),
                          const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                          const std::vector<int64_t>& outsize = {}, const std::vector<int64_t>& dilate = {},
                          int64_t groups = 1);
Variable deconvolution_2d(const Variable& x, const Variable& W, const Variable& b = Variable(),
                          const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                          const std::vector<int64_t>& outsize = {}, const std::vector<int64_t>& dilate = {},
                          int64_t groups = 1);
Variable deconvolution_3d(const Variable& x, const Variable& W, const Variable& b = Variable(),
                          const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                          const std::vector<int64_t>& outsize = {}, const std::vector<int64_t>& dilate = {},
                          int64_t groups = 1);

// Chainer's depthwise_convolution_2d: x (N, C, H, W), W (M, C, kh, kw);
// output channel c * M + m is channel c convolved with W[m, c].
Variable depthwise_convolution_2d(const Variable& x, const Variable& W, const Variable& b = Variable(),
                                  const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {});

}  // namespace autograd
}  // namespace kumo
