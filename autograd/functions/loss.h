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

// The fraction of rows whose arg-max is the label, rows labelled
// ignore_label left out (0 when none is left). Not differentiable.
Variable accuracy(const Variable& y, const Array& t, std::optional<int64_t> ignore_label = std::nullopt);

}  // namespace autograd
}  // namespace kumo
