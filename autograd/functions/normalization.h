// Differentiable normalizations (Chainer's batch_normalization,
// fixed_batch_normalization, layer_normalization, group_normalization,
// local_response_normalization, normalize). Each is composed of
// differentiable functions, so its gradient can be differentiated again.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// gamma * (x - mean) / sqrt(var + eps) + beta with the batch statistics over
// `axis` (default: 0 and every axis after gamma's, Chainer's rule). When
// running_mean / running_var are given they are updated in place:
// r = decay * r + (1 - decay) * batch statistic, the variance unbiased.
Variable batch_normalization(const Variable& x, const Variable& gamma, const Variable& beta, double eps = 2e-5,
                             const Array& running_mean = Array(), const Array& running_var = Array(),
                             double decay = 0.9, const std::optional<std::vector<int64_t>>& axis = std::nullopt);
// The same with given statistics (inference); differentiable in all five.
Variable fixed_batch_normalization(const Variable& x, const Variable& gamma, const Variable& beta, const Variable& mean,
                                   const Variable& var, double eps = 2e-5,
                                   const std::optional<std::vector<int64_t>>& axis = std::nullopt);
// Normalizes each sample over all its non-batch axes; gamma, beta have the
// shape x.shape[1:].
Variable layer_normalization(const Variable& x, const Variable& gamma, const Variable& beta, double eps = 1e-5);
// Normalizes each of `groups` channel groups of each sample; x is (N, C,
// ...), gamma and beta (C,).
Variable group_normalization(const Variable& x, int64_t groups, const Variable& gamma, const Variable& beta,
                             double eps = 1e-5);
// x / (k + alpha * sum of x^2 over the n // 2 channels either side)^beta.
Variable local_response_normalization(const Variable& x, int64_t n = 5, double k = 2, double alpha = 1e-4,
                                      double beta = 0.75);
// x / (L2 norm along axis + eps).
Variable normalize(const Variable& x, double eps = 1e-5, int64_t axis = 1);

}  // namespace autograd
}  // namespace kumo
