// Differentiable embedding lookup (Chainer's F.embed_id).
#pragma once
#include <cstdint>
#include <optional>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// W[x] for integer ids x (any shape) and a (n_vocab, n_units) W; rows whose
// id equals ignore_label are zeros. The gradient of W adds up the rows of gy
// at the ids (repeated ids accumulate).
Variable embed_id(const Array& x, const Variable& W, std::optional<int64_t> ignore_label = std::nullopt);

}  // namespace autograd
}  // namespace kumo
