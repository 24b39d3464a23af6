// Differentiable losses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// mean((a - b)^2) over every element.
Variable mean_squared_error(const Variable& a, const Variable& b);

// Chainer's softmax_cross_entropy for (N, C) scores and (N,) integer labels:
// -log softmax(x)[i, t[i]] per sample; samples labelled ignore_label count
// as zero. reduce "mean" sums and divides by the number of counted samples
// (normalize) or by N; "no" returns the per-sample losses.
Variable softmax_cross_entropy(const Variable& x, const Array& t, bool normalize = true,
                               const std::string& reduce = "mean", int64_t ignore_label = -1);

// Chainer's full softmax_cross_entropy: x is (N, C, ...) scores, t either
// integer labels (N, ...) or, when of a floating dtype, soft targets of x's
// shape. Hard labels: per-position -log softmax(x)[t] times class_weight[t],
// labels ignore_label count as zero; "mean" divides by the counted labels
// (normalize) or by N. Soft targets: the cross entropy or KL divergence
// along axis 1, "mean" averaging over every position. The result is always
// composed of differentiable functions, so enable_double_backprop and
// cache_score change nothing.
struct SoftmaxCrossEntropyOptions {
  bool normalize = true;
  bool cache_score = true;
  Array class_weight;  // undefined: none
  int64_t ignore_label = -1;
  std::string reduce = "mean";
  bool enable_double_backprop = false;
  std::string soft_target_loss = "cross-entropy";
};
Variable softmax_cross_entropy(const Variable& x, const Array& t, const SoftmaxCrossEntropyOptions& options);

// Differentiable losses (Chainer's names, arguments and reductions):
// elementwise errors, sigmoid cross entropy, Huber, hinge, contrastive,
// triplet, the VAE losses and the covariance penalties. Each is composed of
// differentiable functions, so double backprop works. Integer labels are
// arrays (data), not Variables.
// Elementwise (x0 - x1)^2 and |x0 - x1| (same shapes).
Variable squared_error(const Variable& x0, const Variable& x1);
Variable absolute_error(const Variable& x0, const Variable& x1);
// mean(|x0 - x1|).
Variable mean_absolute_error(const Variable& x0, const Variable& x1);

// softplus(x) - x * t per element for integer labels t in {0, 1}; labels -1
// count as zero. "mean" divides the sum by the counted labels (normalize)
// or by x.shape[0]; "no" keeps the elements.
Variable sigmoid_cross_entropy(const Variable& x, const Array& t, bool normalize = true,
                               const std::string& reduce = "mean");

// 0.5 d^2 where |d| <= delta, delta (|d| - 0.5 delta) elsewhere, d = x - t;
// "sum_along_second_axis" sums axis 1, "no" keeps the elements.
Variable huber_loss(const Variable& x, const Variable& t, double delta,
                    const std::string& reduce = "sum_along_second_axis");

// max(0, 1 - y * x) (squared for norm "L2") with y = +1 at the label and -1
// elsewhere, for (N, K) x and (N,) labels; "mean" divides the sum by N.
Variable hinge(const Variable& x, const Array& t, const std::string& norm = "L1", const std::string& reduce = "mean");

// 0.5 * (y d^2 + (1 - y) max(margin - d, 0)^2) with d the L2 distance of the
// rows of x0 and x1; "mean" divides the sum by N.
Variable contrastive(const Variable& x0, const Variable& x1, const Array& y, double margin = 1,
                     const std::string& reduce = "mean");

// max(|a - p|^2 - |a - n|^2 + margin, 0) per row; "mean" averages the rows.
Variable triplet(const Variable& anchor, const Variable& positive, const Variable& negative, double margin = 0.2,
                 const std::string& reduce = "mean");

// KL(N(mean, exp(ln_var)) || N(0, 1)) per element, summed by "sum".
Variable gaussian_kl_divergence(const Variable& mean, const Variable& ln_var, const std::string& reduce = "sum");
// -log Bernoulli(x; sigmoid(y)) per element, summed by "sum".
Variable bernoulli_nll(const Variable& x, const Variable& y, const std::string& reduce = "sum");
// -log N(x; mean, exp(ln_var)) per element, summed by "sum".
Variable gaussian_nll(const Variable& x, const Variable& mean, const Variable& ln_var,
                      const std::string& reduce = "sum");

// The (M, K) cross-covariance of (N, M) y and (N, K) z; "half_squared_sum"
// gives half the sum of its squares.
Variable cross_covariance(const Variable& y, const Variable& z, const std::string& reduce = "half_squared_sum");
// The DeCov penalty: the (M, M) covariance of h without its diagonal;
// "half_squared_sum" gives half the sum of its squares.
Variable decov(const Variable& h, const std::string& reduce = "half_squared_sum");

}  // namespace autograd
}  // namespace kumo
