#include "routines/elementwise.h"

#include "core/errors.h"
#include "kernels/elementwise.h"

namespace kumo {

namespace {

// Computes everywhere, then stores only where the mask holds (NumPy leaves
// the other elements of a new output uninitialised).
void call_masked(const kernels::Ufunc& u, const Operand* inputs, int n_inputs, Array* outs,
                 const UfuncOptions& o) {
  const Array& mask = o.where();
  if (mask.dtype() != Dtype::kBool)
    throw TypeError(std::string("Cannot cast array data from dtype('") + dtype_name(mask.dtype()) +
                    "') to dtype('bool') according to the rule 'safe'");
  std::array<Array, kernels::kMaxUfuncOperands> tmp;
  u.call_into(inputs, n_inputs, tmp.data(), o.dtype(), o.casting());
  // The results go into out= as they would without a mask: under the
  // casting rule (computing into temporaries skipped the check).
  for (int i = 0; i < u.nout(); ++i)
    if (outs[i].defined() && !can_cast(tmp[i].dtype(), outs[i].dtype(), o.casting()))
      throw CastingError("Cannot cast ufunc '" + u.name() + "' output from dtype('" + dtype_name(tmp[i].dtype()) +
                         "') to dtype('" + dtype_name(outs[i].dtype()) + "') with casting rule '" +
                         casting_name(o.casting()) + "'");
  static auto select = kernels::ElementwiseSpec::create("kumo_where_store", "bool m, T x", "U y",
                                                        "if (m) y = kumo_cast<U>(x)");
  for (int i = 0; i < u.nout(); ++i) {
    if (!outs[i].defined())
      outs[i] = Array::empty(broadcast_shapes({tmp[i].shape(), mask.shape()}), tmp[i].dtype(), tmp[i].device());
    kernels::call_elementwise(*select, {mask, tmp[i]}, {outs[i]});
  }
}

std::pair<Array, Array> two(std::vector<Array>&& v) { return {std::move(v[0]), std::move(v[1])}; }

}  // namespace

const UfuncOptions& UfuncOptions::none() {
  static const UfuncOptions options{};
  return options;
}

UfuncOptions& UfuncOptions::out(std::vector<Array> outs) {
  out0_ = outs.empty() ? Array() : std::move(outs[0]);
  more_.clear();
  for (size_t i = 1; i < outs.size(); ++i) more_.push_back(std::move(outs[i]));
  n_outputs_ = static_cast<int>(outs.size());
  return *this;
}

void call_ufunc_into(const kernels::Ufunc& u, const Operand* inputs, int n_inputs, Array* outputs,
                     const UfuncOptions& o) {
  if (o.n_outputs() > u.nout())
    throw ValueError("ufunc '" + u.name() + "' has " + std::to_string(u.nout()) + " output(s), " +
                     std::to_string(o.n_outputs()) + " given");
  for (int i = 0; i < o.n_outputs(); ++i) {
    const Array& out = o.output(i);
    if (out.defined() && !out.writeable()) throw ValueError("output array is read-only");
    outputs[i] = out;
  }
  if (o.where().defined()) return call_masked(u, inputs, n_inputs, outputs, o);
  u.call_into(inputs, n_inputs, outputs, o.dtype(), o.casting());
}

std::vector<Array> call_ufunc(const kernels::Ufunc& u, const std::vector<Operand>& inputs, const UfuncOptions& o) {
  std::vector<Array> outputs(u.nout());
  call_ufunc_into(u, inputs.data(), static_cast<int>(inputs.size()), outputs.data(), o);
  return outputs;
}

std::vector<Array> call_ufunc(std::string_view name, const std::vector<Operand>& inputs, const UfuncOptions& o) {
  return call_ufunc(builtin_ufunc(name), inputs, o);
}

#define KUMO_DEFINE_UNARY_UFUNC(name)                             \
  Array name(const Array& x, const UfuncOptions& o) {              \
    static const BuiltinUfunc& u = builtin_ufunc(#name);           \
    const Operand ops[1] = {x};                                    \
    Array out;                                                     \
    call_ufunc_into(u, ops, 1, &out, o);                           \
    return out;                                                    \
  }
#define KUMO_DEFINE_BINARY_UFUNC(name)                             \
  Array name(const Array& x, const Array& y, const UfuncOptions& o) { \
    static const BuiltinUfunc& u = builtin_ufunc(#name);           \
    const Operand ops[2] = {x, y};                                 \
    Array out;                                                     \
    call_ufunc_into(u, ops, 2, &out, o);                           \
    return out;                                                    \
  }                                                                \
  Array name(const Array& x, Scalar y, const UfuncOptions& o) {    \
    static const BuiltinUfunc& u = builtin_ufunc(#name);           \
    const Operand ops[2] = {x, y};                                 \
    Array out;                                                     \
    call_ufunc_into(u, ops, 2, &out, o);                           \
    return out;                                                    \
  }                                                                \
  Array name(Scalar x, const Array& y, const UfuncOptions& o) {    \
    static const BuiltinUfunc& u = builtin_ufunc(#name);           \
    const Operand ops[2] = {x, y};                                 \
    Array out;                                                     \
    call_ufunc_into(u, ops, 2, &out, o);                           \
    return out;                                                    \
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
