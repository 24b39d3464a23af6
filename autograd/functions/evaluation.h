// Evaluation functions (Chainer's accuracy, binary_accuracy and r2_score).
// Their results are constant Variables: not differentiable.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// The fraction of positions whose arg-max along axis 1 of y (N, C, ...) is
// the label t (N, ...), positions labelled ignore_label left out (0 when
// none is left). Not differentiable.
Variable accuracy(const Variable& y, const Array& t, std::optional<int64_t> ignore_label = std::nullopt);

// The fraction of elements whose sign (y >= 0 as 1) is the label t, labels
// -1 left out (0 when none is left); y float, t integer of y's shape.
Variable binary_accuracy(const Variable& y, const Array& t);

// The coefficient of determination per output column (axis 0 is the
// samples): 1 - SS_res / SS_tot, 0 where SS_tot is 0. multioutput
// "uniform_average" averages the columns, "raw_values" keeps them.
// sample_weight: one non-negative weight per sample (axis 0), as scikit-learn's.
Variable r2_score(const Variable& pred, const Variable& true_, const std::string& multioutput = "uniform_average",
                  const std::optional<Array>& sample_weight = std::nullopt);

}  // namespace autograd
}  // namespace kumo
