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

// The fraction of positions whose arg-max along axis 1 of y (N, C, ...) is
// the label t (N, ...), positions labelled ignore_label left out (0 when
// none is left). Not differentiable.
Variable accuracy(const Variable& y, const Array& t, std::optional<int64_t> ignore_label = std::nullopt);

}  // namespace autograd
}  // namespace kumo
