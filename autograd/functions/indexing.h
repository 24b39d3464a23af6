// Differentiable indexing: get_item (NumPy's basic and advanced indexing)
// and select_item (one element per row, by label).
#pragma once
#include <vector>

#include "autograd/variable.h"
#include "routines/indexing.h"

namespace kumo {
namespace autograd {

// x[index]. The gradient scatters back with accumulation, so an element
// indexed several times gets every contribution.
Variable get_item(const Variable& x, const std::vector<Index>& index);
// x[i, t[i]] for a (N, C) x and (N,) integer labels t.
Variable select_item(const Variable& x, const Array& t);

}  // namespace autograd
}  // namespace kumo
