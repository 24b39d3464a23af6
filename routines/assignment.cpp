#include "routines/assignment.h"

#include "core/errors.h"
#include "kernels/scalar_assign.h"
#include "kernels/elementwise.h"

namespace kumo {

void copyto(const Array& dst, const Array& src, Casting casting, const Array& where) {
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  if (!can_cast(src.dtype(), dst.dtype(), casting))
    throw TypeError(std::string("Cannot cast array data from dtype('") + dtype_name(src.dtype()) + "') to dtype('" +
                    dtype_name(dst.dtype()) + "') according to the rule '" + casting_name(casting) + "'");
  if (!where.defined()) {
    src.copy_to(dst);
    return;
  }
  if (where.dtype() != Dtype::kBool)
    throw TypeError(std::string("Cannot cast array data from dtype('") + dtype_name(where.dtype()) +
                    "') to dtype('bool') according to the rule 'safe'");
  static auto masked = kernels::ElementwiseSpec::create("kumo_copyto_where", "bool m, T x", "U y",
                                                        "if (m) y = kumo_cast<U>(x)");
  kernels::call_elementwise(*masked, {where, src}, {dst});
}

void fill(const Array& dst, Scalar value) {
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  kernels::scalar_to_array(kernels::assigned_scalar(value.value(), dst.dtype()), dst.dtype(), dst.device())
      .copy_to(dst);
}

}  // namespace kumo
