#include "autograd/functions/argument_checks.h"

#include "core/dtype.h"
#include "core/errors.h"

namespace kumo {
namespace autograd {

void require_floating(const Variable& v, const std::string& who, const std::string& what) {
  if (!v.defined()) throw TypeError(who + ": " + what + " is None");
  if (!is_floating(v.dtype()))
    throw TypeError(who + ": " + what + " must be of a floating dtype, got " + dtype_name(v.dtype()));
}

}  // namespace autograd
}  // namespace kumo
