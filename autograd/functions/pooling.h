// Differentiable pooling (Chainer's chainer.functions.pooling): max and
// average pooling over N spatial axes, unpooling, upsampling by max-pooling
// indexes, and global average pooling, over (N, C, *spatial) inputs.
//
// Vector parameters hold one entry per spatial axis or one for all; an
// empty stride means the kernel size (Chainer's stride=None).
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// The maximum of each window (padding is -inf); the gradient goes to the
// first maximum of each window, through a gather/scatter by the argmax
// indexes, which is itself differentiable.
Variable max_pooling_nd(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride = {},
                        const std::vector<int64_t>& pad = {}, bool cover_all = true);
// ... and the indexes (int64, the flat position of each maximum within its
// window), as Chainer's return_indices=True; upsampling_2d takes them.
std::pair<Variable, Array> max_pooling_nd_with_indices(const Variable& x, const std::vector<int64_t>& ksize,
                                                       const std::vector<int64_t>& stride = {},
                                                       const std::vector<int64_t>& pad = {}, bool cover_all = true);
Variable max_pooling_1d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride = {},
                        const std::vector<int64_t>& pad = {}, bool cover_all = true);
Variable max_pooling_2d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride = {},
                        const std::vector<int64_t>& pad = {}, bool cover_all = true);
Variable max_pooling_3d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride = {},
                        const std::vector<int64_t>& pad = {}, bool cover_all = true);

// The mean of each window. pad_value 0 counts padding as zeros (divides by
// the window size); nullopt (Chainer's None) leaves it out of the divisor.
Variable average_pooling_nd(const Variable& x, const std::vector<int64_t>& ksize,
                            const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                            std::optional<double> pad_value = 0.0);
Variable average_pooling_1d(const Variable& x, const std::vector<int64_t>& ksize,
                            const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                            std::optional<double> pad_value = 0.0);
Variable average_pooling_2d(const Variable& x, const std::vector<int64_t>& ksize,
                            const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                            std::optional<double> pad_value = 0.0);
Variable average_pooling_3d(const Variable& x, const std::vector<int64_t>& ksize,
                            const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                            std::optional<double> pad_value = 0.0);

// Every input element copied over its window of the output (overlaps add);
// empty outsize means get_deconv_outsize(..., cover_all).
Variable unpooling_nd(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride = {},
                      const std::vector<int64_t>& pad = {}, const std::vector<int64_t>& outsize = {},
                      bool cover_all = true);
Variable unpooling_2d(const Variable& x, const std::vector<int64_t>& ksize, const std::vector<int64_t>& stride = {},
                      const std::vector<int64_t>& pad = {}, const std::vector<int64_t>& outsize = {},
                      bool cover_all = true);
// Each input element placed at the window position its max-pooling index
// names (the adjoint of gathering by those indexes).
Variable upsampling_2d(const Variable& x, const Array& indexes, const std::vector<int64_t>& ksize,
                       const std::vector<int64_t>& stride = {}, const std::vector<int64_t>& pad = {},
                       const std::vector<int64_t>& outsize = {}, bool cover_all = true);

// x (N, C, H, W) averaged over H and W: (N, C).
Variable global_average_pooling_2d(const Variable& x);

}  // namespace autograd
}  // namespace kumo
