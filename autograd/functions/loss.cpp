#include "autograd/functions/loss.h"

#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/math.h"
#include "core/errors.h"

namespace kumo {
namespace autograd {

Variable mean_squared_error(const Variable& a, const Variable& b) {
  if (a.shape() != b.shape())
    throw ValueError("mean_squared_error: shapes " + a.shape().to_string() + " and " + b.shape().to_string() +
                     " differ");
  return mean(square(a - b));
}

}  // namespace autograd
}  // namespace kumo
