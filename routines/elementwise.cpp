#include "routines/elementwise.h"

#include "core/errors.h"
#include "kernels/elementwise.h"

namespace kumo {

namespace {

// Computes everywhere, then stores only where the mask holds (NumPy leaves
// the other elements of a new output uninitialised).
std::vector<Array> call_masked(const kernels::Ufunc& u, const std::vector<Operand>& inputs,
                               const UfuncOptions& o) {
  const Array& mask = o.where();
  if (mask.dtype() != Dtype::kBool)
    throw TypeError(std::string("Cannot cast array data from dtype('") + dtype_name(mask.dtype()) +
                    "') to dtype('bool') according to the rule 'safe'");
  std::vector<Array> tmp = u.call(inputs, std::vector<Array>(u.nout()), o.dtype(), o.casting());
  std::vector<Array> outs = o.outputs();
  outs.resize(u.nout());
  static auto select = kernels::ElementwiseSpec::create("kumo_where_store", "bool m, T x", "U y",
                                                        "if (m) y = kumo_cast<U>(x)");
  for (int i = 0; i < u.nout(); ++i) {
    if (!outs[i].defined())
      outs[i] = Array::empty(broadcast_shapes({tmp[i].shape(), mask.shape()}), tmp[i].dtype(), tmp[i].device());
    kernels::call_elementwise(*select, {mask, tmp[i]}, {outs[i]});
  }
  return outs;
}

Array first(std::vector<Array>&& v) { return std::move(v[0]); }
std::pair<Array, Array> two(std::vector<Array>&& v) { return {std::move(v[0]), std::move(v[1])}; }

}  // namespace

std::vector<Array> call_ufunc(const kernels::Ufunc& u, const std::vector<Operand>& inputs, const UfuncOptions& o) {
  if (static_cast<int>(o.outputs().size()) > u.nout())
    throw ValueError("ufunc '" + u.name() + "' has " + std::to_string(u.nout()) + " output(s), " +
                     std::to_string(o.outputs().size()) + " given");
  for (const Array& out : o.outputs())
    if (out.defined() && !out.writeable()) throw ValueError("output array is read-only");
  if (o.where().defined()) return call_masked(u, inputs, o);
  return u.call(inputs, o.outputs(), o.dtype(), o.casting());
}

std::vector<Array> call_ufunc(std::string_view name, const std::vector<Operand>& inputs, const UfuncOptions& o) {
  return call_ufunc(builtin_ufunc(name), inputs, o);
}

#define KUMO_DEFINE_UNARY_UFUNC(name)                             \
  Array name(const Array& x, const UfuncOptions& o) {              \
    static const BuiltinUfunc& u = builtin_ufunc(#name);           \
    return first(call_ufunc(u, {x}, o));                           \
  }
#define KUMO_DEFINE_BINARY_UFUNC(name)                             \
  Array name(const Array& x, const Array& y, const UfuncOptions& o) { \
    static const BuiltinUfunc& u = builtin_ufunc(#name);           \
    return first(call_ufunc(u, {x, y}, o));                        \
  }                                                                \
  Array name(const Array& x, Scalar y, const UfuncOptions& o) {    \
    static const BuiltinUfunc& u = builtin_ufunc(#name);           \
    return first(call_ufunc(u, {x, y}, o));                        \
  }                                                                \
  Array name(Scalar x, const Array& y, const UfuncOptions& o) {    \
    static const BuiltinUfunc& u = builtin_ufunc(#name);           \
    return first(call_ufunc(u, {x, y}, o));                        \
  }
KUMO_UNARY_UFUNCS(KUMO_DEFINE_UNARY_UFUNC)
KUMO_BINARY_UFUNCS(KUMO_DEFINE_BINARY_UFUNC)
#undef KUMO_DEFINE_UNARY_UFUNC
#undef KUMO_DEFINE_BINARY_UFUNC

std::pair<Array, Array> divmod(const Array& x, const Array& y, const UfuncOptions& o) {
  return two(call_ufunc("divmod", {x, y}, o));
}
std::pair<Array, Array> divmod(const Array& x, Scalar y, const UfuncOptions& o) {
  return two(call_ufunc("divmod", {x, y}, o));
}
std::pair<Array, Array> divmod(Scalar x, const Array& y, const UfuncOptions& o) {
  return two(call_ufunc("divmod", {x, y}, o));
}
std::pair<Array, Array> frexp(const Array& x, const UfuncOptions& o) { return two(call_ufunc("frexp", {x}, o)); }
std::pair<Array, Array> modf(const Array& x, const UfuncOptions& o) { return two(call_ufunc("modf", {x}, o)); }

}  // namespace kumo
