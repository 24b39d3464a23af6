// The error of a LinearOperator asked for a product it does not define
// (rmatvec of an operator made without one): Python's NotImplementedError,
// as SciPy raises. A RuntimeError in C++, as NotImplementedError is one in
// Python.
#pragma once
#include "core/errors.h"

namespace kumo {
namespace sparse {
namespace linalg {

class NotImplementedError : public RuntimeError {
 public:
  using RuntimeError::RuntimeError;
};

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
