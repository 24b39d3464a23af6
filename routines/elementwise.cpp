#include "routines/elementwise.h"

#include "core/errors.h"
#include "core/fp_errors.h"
#include "core/warnings.h"
#include "kernels/elementwise.h"
#include "routines/indexing.h"
#include "routines/reduction.h"

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
  // Only the elements the mask selects count for floating-point errors
  // (NumPy computes no others: log(x, where=x > 0) does not warn). When the
  // full computation raised a flag, the selected elements are computed again
  // on their own to learn which flags are theirs (rare, so the cost is too).
  if (int flags = take_fp_flags()) {
    const Shape shape = broadcast_shapes({tmp[0].shape(), mask.shape()});
    const Array selected_mask = mask.broadcast_to(shape);
    std::array<Operand, kernels::kMaxUfuncOperands> selected;
    for (int i = 0; i < n_inputs; ++i)
      selected[i] = inputs[i].is_scalar ? inputs[i]
                                        : Operand(extract(selected_mask, inputs[i].array().broadcast_to(shape)));
    std::array<Array, kernels::kMaxUfuncOperands> unused;
    u.call_into(selected.data(), n_inputs, unused.data(), o.dtype(), o.casting());
    flags = take_fp_flags();
    record_fp_flags(flags);
  }
  // The results go into out= as they would without a mask: under the
  // casting rule (computing into temporaries skipped the check).
  for (int i = 0; i < u.nout(); ++i)
    if (outs[i].defined() && !can_cast(tmp[i].dtype(), outs[i].dtype(), o.casting()))
      throw CastingError("Cannot cast ufunc '" + u.name() + "' output from dtype('" + dtype_name(tmp[i].dtype()) +
                         "') to dtype('" + dtype_name(outs[i].dtype()) + "') with casting rule '" +
                         casting_name(o.casting()) + "'");
  // NumPy reads out= into the loop's output buffer first (the elements the
  // mask skips): a complex out= of a real loop warns.
  for (int i = 0; i < u.nout(); ++i)
    if (outs[i].defined()) warn_if_complex_to_real(outs[i].dtype(), tmp[i].dtype());
  static auto select = kernels::ElementwiseSpec::create("kumo_where_store", "bool m, T x", "U y",
                                                        "if (m) y = kumo_cast<U>(x)");
  for (int i = 0; i < u.nout(); ++i) {
    if (!outs[i].defined())
      outs[i] = Array::empty(broadcast_shapes({tmp[i].shape(), mask.shape()}), tmp[i].dtype(), tmp[i].device());
    kernels::call_elementwise(*select, {mask, tmp[i]}, {outs[i]});
  }
}

std::pair<Array, Array> two(std::vector<Array>&& v) { return {std::move(v[0]), std::move(v[1])}; }

bool complex_operand(const Operand& x) {
  return x.is_scalar ? x.scalar.kind == WeakScalar::kComplex : is_complex(x.array().dtype());
}

// NumPy warns ComplexWarning whenever its iterator casts complex values to a
// real type: a complex input to a real loop (dtype=), a complex result into
// a real out= (casting='unsafe'). Both need a complex operand; the loop is
// looked up only then.
void warn_complex_casts(const kernels::Ufunc& u, const Operand* inputs, int n_inputs, const Array* outputs,
                        const UfuncOptions& o) {
  bool any_complex = o.dtype() && is_complex(*o.dtype());
  for (int i = 0; i < n_inputs && !any_complex; ++i) any_complex = complex_operand(inputs[i]);
  if (!any_complex) return;
  const int k = u.resolve(inputs, n_inputs, o.dtype(), Casting::kUnsafe);
  const std::vector<Dtype>& types = u.loops()[k].types;
  for (int i = 0; i < n_inputs; ++i)
    if (complex_operand(inputs[i])) warn_if_complex_to_real(Dtype::kComplex128, types[i]);
  for (int i = 0; i < u.nout(); ++i)
    if (o.output(i).defined()) warn_if_complex_to_real(types[n_inputs + i], outputs[i].dtype());
}

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
  // Floating-point errors are NumPy's per ufunc call: flags left by work
  // that reports none (a cast, a copy) are dropped first.
  const AliasedNan before = aliased_input_nan(u, inputs, n_inputs, outputs);
  take_fp_flags();
  if (o.where().defined()) call_masked(u, inputs, n_inputs, outputs, o);
  else u.call_into(inputs, n_inputs, outputs, o.dtype(), o.casting());
  report_ufunc_fp_errors(u, inputs, n_inputs, outputs, o.where(), before);
  if (o.casting() == Casting::kUnsafe) warn_complex_casts(u, inputs, n_inputs, outputs, o);
}

namespace {
// Whether the CPU's "invalid" flag is one NumPy reports. NumPy's complex
// loops report the flag as it is (a comparison of complex NaNs warns); its
// real loops never for a NaN operand (only a NaN operand makes an ordered
// comparison raise it), so with one the flag counts only where an output is
// NaN with no NaN input (and the mask, if any, holds).
//
// An input an output shares memory with holds the results by now: its NaNs
// before the call are `before`'s (unknown positions: a NaN there leaves the
// flag unreported).
bool made_nan(const Operand* inputs, int n_inputs, const Array* outs, int n_outs, const Array& where,
              AliasedNan before) {
  for (int i = 0; i < n_inputs; ++i)
    if (inputs[i].is_scalar ? inputs[i].scalar.kind == WeakScalar::kComplex : is_complex(inputs[i].array().dtype()))
      return true;
  if (before == AliasedNan::kNan) return false;
  const auto overwritten = [&](const Operand& op) {
    for (int k = 0; k < n_outs; ++k)
      if (outs[k].defined() && outs[k].memory() == op.array().memory()) return true;
    return false;
  };
  const auto nan_source = [&](const Operand& op) {
    return !op.is_scalar && is_inexact(op.array().dtype()) && !(before != AliasedNan::kNone && overwritten(op));
  };
  bool nan_operand = false;
  for (int i = 0; i < n_inputs && !nan_operand; ++i) {
    const Operand& op = inputs[i];
    // A NaN scalar is a NaN operand of every element.
    if (op.is_scalar && op.scalar.kind == WeakScalar::kFloat && op.scalar.f != op.scalar.f) return false;
    nan_operand = nan_source(op) && any(isnan(op.array())).item<bool>();
  }
  if (!nan_operand && !where.defined()) return true;
  for (int k = 0; k < n_outs; ++k) {
    if (!outs[k].defined() || !is_inexact(outs[k].dtype())) continue;
    Array fresh = isnan(outs[k]);
    if (where.defined()) fresh = logical_and(fresh, where);
    for (int i = 0; i < n_inputs; ++i)
      if (nan_source(inputs[i])) fresh = logical_and(fresh, logical_not(isnan(inputs[i].array())));
    if (any(fresh).item<bool>()) return true;
  }
  return false;
}

// Loops whose "invalid" flag is always one NumPy reports: IEEE arithmetic
// passes a quiet NaN through without raising it (no comparison inside).
bool quiet_on_nan(const kernels::Ufunc& u) {
  const std::string& n = u.name();
  return n == "add" || n == "subtract" || n == "multiply" || n == "divide" || n == "true_divide" ||
         n == "negative" || n == "positive" || n == "square";
}
}  // namespace

AliasedNan aliased_input_nan(const kernels::Ufunc& u, const Operand* inputs, int n_inputs, const Array* outputs) {
  // Pointer comparisons first: this runs on every call, and nearly every
  // call has no output that is an input.
  AliasedNan state = AliasedNan::kNone;
  for (int i = 0; i < n_inputs; ++i) {
    const Operand& op = inputs[i];
    if (op.is_scalar || !is_floating(op.array().dtype()) || op.array().size() == 0) continue;
    for (int k = 0; k < u.nout(); ++k) {
      if (!outputs[k].defined() || outputs[k].memory() != op.array().memory()) continue;
      if (quiet_on_nan(u)) return AliasedNan::kNone;
      if (any(isnan(op.array())).item<bool>()) return AliasedNan::kNan;
      state = AliasedNan::kNoNan;
      break;
    }
  }
  take_fp_flags();  // the check's own
  return state;
}

void report_ufunc_fp_errors(const kernels::Ufunc& u, const Operand* inputs, int n_inputs, const Array* outputs,
                            const Array& where, AliasedNan before) {
  int flags = take_fp_flags();
  if (flags == 0) return;
  // logaddexp and logaddexp2 are NumPy's exceptions: their loops report a
  // NaN operand as invalid.
  const bool nan_operand_is_invalid = u.name() == "logaddexp" || u.name() == "logaddexp2" || quiet_on_nan(u);
  if ((flags & kFpInvalid) && !nan_operand_is_invalid &&
      !made_nan(inputs, n_inputs, outputs, u.nout(), where, before))
    flags &= ~kFpInvalid;
  take_fp_flags();  // what the check itself ran
  report_fp_errors(flags, u.name().c_str());
}

void report_reduction_fp_errors(const char* operation, const Array& input, const Array& result) {
  int flags = take_fp_flags();
  if (flags == 0) return;
  if ((flags & kFpInvalid) &&
      !(result.defined() && is_inexact(result.dtype()) && any(isnan(result)).item<bool>() &&
        !(is_inexact(input.dtype()) && any(isnan(input)).item<bool>())))
    flags &= ~kFpInvalid;
  take_fp_flags();
  report_fp_errors(flags, operation);
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
