#include "kernels/ufunc.h"

#include "kernels/scalar_assign.h"

#include <algorithm>
#include <array>

#include "core/errors.h"
#include "kernels/elementwise.h"
#include "kernels/reduction.h"
#include "kernels/scalar_assign.h"

namespace kumo {
namespace kernels {

namespace {

// NumPy's check of the Python-number inputs against the chosen loop under
// casting='no' or 'equiv' (arrays are checked where they are converted): a
// Python bool is a bool dtype there and must cast under the rule; a Python
// int, float or complex passes under 'no' and, under 'equiv', only into its
// default type (int64, float64, complex128), as NumPy 2.4 does -- except a
// Python int compared with an integer array (`comparison`: its own promoter
// compares the values exactly).
void check_scalar_input_casting(const std::string& name, const UfuncLoop& l, const UfuncOperand* inputs, int n_inputs,
                                Casting casting, bool comparison) {
  for (int i = 0; i < n_inputs; ++i) {
    const UfuncOperand& op = inputs[i];
    if (!op.is_scalar) continue;
    const Dtype want = l.types[i];
    if (comparison && op.scalar.kind == WeakScalar::kInt && is_integer(want) && want != Dtype::kBool) continue;
    if (op.scalar.kind == WeakScalar::kBool) {
      if (!can_cast(Dtype::kBool, want, casting))
        throw CastingError("Cannot cast ufunc '" + name + "' input " + std::to_string(i) +
                           " from dtype('bool') to dtype('" + dtype_name(want) + "') with casting rule '" +
                           casting_name(casting) + "'");
    } else if (casting == Casting::kEquiv && default_dtype(op.scalar.kind) != want) {
      const char* kind = op.scalar.kind == WeakScalar::kInt     ? "int"
                         : op.scalar.kind == WeakScalar::kFloat ? "float"
                                                                : "complex";
      throw TypeError(std::string("cannot cast Python ") + kind + " to " + dtype_name(want) +
                      " under the casting rule 'equiv'");
    }
  }
}

std::string dtype_list(const UfuncOperand* inputs, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    if (inputs[i].is_scalar) {
      static const char* names[] = {"bool", "int", "float", "complex"};
      s += std::string("<class '") + names[static_cast<int>(inputs[i].scalar.kind)] + "'>";
    } else {
      s += std::string("dtype('") + dtype_name(inputs[i].array().dtype()) + "')";
    }
  }
  if (n == 1) s += ",";
  return s + ")";
}

}  // namespace

UfuncLoop UfuncLoop::parse(const std::string& t, std::string operation, int nin, int nout) {
  size_t arrow = t.find("->");
  if (arrow == std::string::npos || static_cast<int>(arrow) != nin || static_cast<int>(t.size() - arrow - 2) != nout)
    throw ValueError("bad ufunc loop signature '" + t + "' for " + std::to_string(nin) + " inputs and " +
                     std::to_string(nout) + " outputs");
  UfuncLoop l;
  for (size_t i = 0; i < t.size(); ++i) {
    if (i == arrow || i == arrow + 1) continue;
    l.types.push_back(dtype_from_name(std::string(1, t[i])));
  }
  l.operation = std::move(operation);
  return l;
}

Ufunc::Ufunc(std::string name, int nin, int nout, std::vector<UfuncLoop> loops, std::string preamble,
             std::string reduce_identity)
    : name_(std::move(name)), nin_(nin), nout_(nout), loops_(std::move(loops)), preamble_(std::move(preamble)),
      reduce_identity_(std::move(reduce_identity)) {
  homogeneous_ = true;
  for (const UfuncLoop& l : loops_) {
    if (static_cast<int>(l.types.size()) != nin_ + nout_)
      throw ValueError("ufunc " + name_ + ": loop has the wrong number of types");
    for (int i = 1; i < nin_; ++i)
      if (l.types[i] != l.types[0]) homogeneous_ = false;
  }
  specs_.resize(loops_.size());
  signatures_.resize(loops_.size());
  spec_ready_ = std::make_unique<std::atomic<bool>[]>(loops_.size());
  for (size_t k = 0; k < loops_.size(); ++k) spec_ready_[k].store(false);
  for (auto& f : first_loop_for_) f.store(kUnresolved);
  reduce_specs_.resize(loops_.size());
  accumulate_specs_.resize(loops_.size());
}

std::vector<std::string> Ufunc::type_strings() const {
  std::vector<std::string> out;
  for (const UfuncLoop& l : loops_) {
    std::string s;
    for (int i = 0; i < nin_; ++i) s += type_char(l.types[i]);
    s += "->";
    for (int i = 0; i < nout_; ++i) s += type_char(l.types[nin_ + i]);
    out.push_back(s);
  }
  return out;
}

int Ufunc::resolve(const UfuncOperand* inputs, int n_inputs, std::optional<Dtype> dtype, Casting casting) const {
  // Loops whose snippet is "!error:<message>" exist only to refuse an input
  // type with NumPy's message (e.g. boolean subtract).
  auto checked = [&](size_t k) {
    static const std::string marker = "!error:";
    const std::string& op = loops_[k].operation;
    if (op.compare(0, marker.size(), marker) == 0) throw TypeError(op.substr(marker.size()));
    return static_cast<int>(k);
  };
  if (n_inputs != nin_)
    throw TypeError(name_ + "() takes from " + std::to_string(nin_) + " to " + std::to_string(nin_ + nout_) +
                    " positional arguments but " + std::to_string(n_inputs) + " were given");
  auto inputs_cast_ok = [&](const UfuncLoop& l, Casting rule) {
    for (int i = 0; i < nin_; ++i) {
      const UfuncOperand& op = inputs[i];
      if (op.is_scalar) {
        if (!weak_fits_kind(op.scalar.kind, l.types[i]) && rule != Casting::kUnsafe) return false;
      } else if (!can_cast(op.array().dtype(), l.types[i], rule)) {
        return false;
      }
    }
    return true;
  };
  if (dtype && *dtype == Dtype::kBool && nout_ == 1) {
    // dtype=bool on a ufunc whose loops all give bool (comparisons, logical
    // ops, isnan, signbit) constrains nothing: the loop is the one the inputs
    // promote to, not the first whose inputs reach it by same_kind (less(int64,
    // 1000, dtype=bool) compares in int64, not in int8).
    bool all_bool = true;
    for (const UfuncLoop& l : loops_) all_bool = all_bool && l.types[nin_] == Dtype::kBool;
    if (all_bool) dtype.reset();
  }
  if (dtype) {
    // dtype= of a homogeneous ufunc with a loop all of that integer type:
    // NumPy converts the Python ints to it before the loop search, so one
    // out of its range is an OverflowError even when casting would refuse
    // the arrays (add(int64, -1, dtype=uint64)).
    if (homogeneous_ && is_integer(*dtype) && *dtype != Dtype::kBool) {
      bool has_loop = false;
      for (const UfuncLoop& l : loops_) has_loop = has_loop || (l.types[0] == *dtype && l.types[nin_] == *dtype);
      unsigned char bytes[16];
      for (int i = 0; has_loop && i < n_inputs; ++i)
        if (inputs[i].is_scalar && inputs[i].scalar.kind == WeakScalar::kInt) store_scalar(inputs[i].scalar, *dtype, bytes);
    }
    for (size_t k = 0; k < loops_.size(); ++k) {
      const UfuncLoop& l = loops_[k];
      if (l.types[nin_] != *dtype) continue;
      if (homogeneous_ && l.types[0] != *dtype && is_inexact(*dtype)) continue;
      if (inputs_cast_ok(l, truth_inputs_ ? Casting::kUnsafe : casting)) return checked(k);
    }
    throw CastingError("ufunc '" + name_ + "' did not contain a loop with signature matching types " +
                       dtype_list(inputs, n_inputs) + " -> " + dtype_name(*dtype) + " under casting rule '" +
                       casting_name(casting) + "'");
  }
  if (homogeneous_ && nin_ > 0) {
    // result_type over the operands without building vectors (hot path).
    bool have_strong = false, have_weak = false;
    Dtype r = Dtype::kBool;
    WeakScalar top = WeakScalar::kBool;
    for (int i = 0; i < n_inputs; ++i) {
      const UfuncOperand& op = inputs[i];
      if (op.is_scalar) {
        if (!have_weak || op.scalar.kind > top) top = op.scalar.kind;
        have_weak = true;
      } else {
        r = have_strong ? promote_types(r, op.array().dtype()) : op.array().dtype();
        have_strong = true;
      }
    }
    if (!have_strong) r = default_dtype(top);
    else if (have_weak) r = weak_scalar_dtype(top, r);
    // The first loop the result type safely casts to, memoized per dtype
    // (the common case needs no scan); scalars are checked on that loop.
    int first = first_loop_for_[static_cast<int>(r)].load(std::memory_order_relaxed);
    if (first == kUnresolved) {
      first = -1;
      for (size_t k = 0; k < loops_.size(); ++k)
        if (can_cast(r, loops_[k].types[0], Casting::kSafe)) {
          first = static_cast<int>(k);
          break;
        }
      first_loop_for_[static_cast<int>(r)].store(first, std::memory_order_relaxed);
    }
    for (size_t k = first < 0 ? loops_.size() : static_cast<size_t>(first); k < loops_.size(); ++k) {
      const UfuncLoop& l = loops_[k];
      if (!can_cast(r, l.types[0], Casting::kSafe)) continue;
      bool ok = true;
      for (int i = 0; i < n_inputs; ++i)
        if (const UfuncOperand& op = inputs[i]; op.is_scalar && !weak_fits_kind(op.scalar.kind, l.types[0]) &&
            !(!have_strong && can_cast(default_dtype(op.scalar.kind), l.types[0], Casting::kSafe)))
          ok = false;
      if (ok) return checked(k);
    }
  } else {
    // Loops of mixed types (ldexp's "el->e"): a Python int beside only
    // boolean arrays is NumPy's default integer (int64), as True + 1 is; beside
    // numbers it is weak and takes any integer loop.
    bool any_array = false, only_bool_arrays = true;
    for (int i = 0; i < n_inputs; ++i)
      if (!inputs[i].is_scalar) {
        any_array = true;
        if (inputs[i].array().dtype() != Dtype::kBool) only_bool_arrays = false;
      }
    only_bool_arrays = only_bool_arrays && any_array;
    for (size_t k = 0; k < loops_.size(); ++k) {
      bool ok = inputs_cast_ok(loops_[k], Casting::kSafe);
      for (int i = 0; ok && only_bool_arrays && i < n_inputs; ++i)
        if (inputs[i].is_scalar && inputs[i].scalar.kind == WeakScalar::kInt)
          ok = can_cast(Dtype::kInt64, loops_[k].types[i], Casting::kSafe);
      if (ok) return checked(k);
    }
  }
  throw CastingError("ufunc '" + name_ + "' not supported for the input types, and the inputs could not be safely "
                     "coerced to any supported types according to the casting rule ''safe'' (input types " +
                     dtype_list(inputs, n_inputs) + ")");
}

std::string Ufunc::loop_preamble(int loop) const {
  const UfuncLoop& l = loops_[loop];
  std::string s;
  for (int i = 0; i < nin_; ++i)
    s += "typedef " + std::string(kernel_type_name(l.types[i])) + " in" + std::to_string(i) + "_type;\n";
  for (int i = 0; i < nout_; ++i)
    s += "typedef " + std::string(kernel_type_name(l.types[nin_ + i])) + " out" + std::to_string(i) + "_type;\n";
  s += preamble_ + "\n";
  if (nin_ == 2 && nout_ == 1) {
    s += "static KUMO_FN out0_type kumo_binop(const in0_type in0, const in1_type in1) {\n  out0_type out0;\n  " +
         l.operation + ";\n  return out0;\n}\n";
  }
  return s;
}

const ElementwiseSignature& Ufunc::loop_signature(int loop) const {
  // Built with the specs (under the same lock); a ufunc loop's arrays always have its types.
  loop_spec(loop);
  return *signatures_[loop];
}

const ElementwiseSpec& Ufunc::loop_spec(int loop) const {
  if (spec_ready_[loop].load(std::memory_order_acquire)) return *specs_[loop];
  std::lock_guard<std::mutex> lk(mu_);
  auto& slot = specs_[loop];
  if (!slot) {
    const UfuncLoop& l = loops_[loop];
    std::string in, out;
    for (int i = 0; i < nin_; ++i) in += (i ? ", " : "") + std::string(dtype_name(l.types[i])) + " in" + std::to_string(i);
    for (int i = 0; i < nout_; ++i)
      out += (i ? ", " : "") + std::string(dtype_name(l.types[nin_ + i])) + " out" + std::to_string(i);
    slot = ElementwiseSpec::create(name_, in, out, l.operation, loop_preamble(loop));
    slot->reorder_axes = true;
    slot->min_parallel_bytes = min_parallel_bytes_;
    auto sig = std::make_shared<ElementwiseSignature>();
    sig->param_dtypes = l.types;
    sig->array_dtypes = l.types;
    signatures_[loop] = sig;
    spec_ready_[loop].store(true, std::memory_order_release);
  }
  return *slot;
}

const ReductionSpec& Ufunc::reduce_spec(int loop) const {
  if (nin_ != 2 || nout_ != 1) throw ValueError("reduce only supported for binary functions");
  std::lock_guard<std::mutex> lk(mu_);
  auto& slot = reduce_specs_[loop];
  if (!slot) {
    const UfuncLoop& l = loops_[loop];
    std::string t = dtype_name(l.types[2]);
    if (l.types[2] == Dtype::kFloat16 && (name_ == "add" || name_ == "multiply")) {
      // NumPy's float16 sums and products accumulate in float32 and round
      // once at the end; a float16 accumulator rounds at every step.
      slot = ReductionSpec::create(name_, t + " in0", t + " out0", "(float)in0", name_ == "add" ? "a + b" : "a * b",
                                   "out0 = float16(a)", reduce_identity_, "float32", loop_preamble(loop));
    } else {
      slot = ReductionSpec::create(name_, t + " in0", t + " out0", "in0", "kumo_binop(a, b)", "out0 = a",
                                   reduce_identity_, t, loop_preamble(loop));
    }
  }
  return *slot;
}

const ElementwiseSpec& Ufunc::accumulate_spec(int loop) const {
  if (nin_ != 2 || nout_ != 1) throw ValueError("accumulate only supported for binary functions");
  std::lock_guard<std::mutex> lk(mu_);
  auto& slot = accumulate_specs_[loop];
  if (!slot) {
    const UfuncLoop& l = loops_[loop];
    std::string t = dtype_name(l.types[2]);
    // One row per index i: an inclusive scan along the contiguous last axis.
    std::string op =
        "const int64_t n = x.shape()[1];\n"
        "const out0_type* px = x.data() + i * n;\n"
        "out0_type* py = y.data() + i * n;\n"
        "out0_type acc = px[0];\n"
        "py[0] = acc;\n"
        "for (int64_t k = 1; k < n; ++k) { acc = kumo_binop(acc, px[k]); py[k] = acc; }";
    slot = ElementwiseSpec::create(name_ + "_accumulate", "raw " + t + " x", "raw " + t + " y", op,
                                   loop_preamble(loop));
  }
  return *slot;
}

std::vector<Array> Ufunc::call(const std::vector<UfuncOperand>& inputs, std::vector<Array> outputs,
                               std::optional<Dtype> dtype, Casting casting) const {
  if (static_cast<int>(outputs.size()) > nout_)
    throw ValueError("ufunc '" + name_ + "' has " + std::to_string(nout_) + " output(s), " +
                     std::to_string(outputs.size()) + " given");
  outputs.resize(nout_);
  call_into(inputs.data(), static_cast<int>(inputs.size()), outputs.data(), dtype, casting);
  return outputs;
}

void Ufunc::call_into(const UfuncOperand* inputs, int n_inputs, Array* outputs, std::optional<Dtype> dtype,
                      Casting casting) const {
  int k = resolve(inputs, n_inputs, dtype, casting);
  const UfuncLoop& l = loops_[k];
  if ((casting == Casting::kNo || casting == Casting::kEquiv) && !truth_inputs_) {
    bool comparison = nin_ == 2 && nout_ == 1;
    for (const UfuncLoop& any : loops_) comparison = comparison && any.types[2] == Dtype::kBool;
    check_scalar_input_casting(name_, l, inputs, n_inputs, casting, comparison);
  }
  auto out_at = [&](int i) -> const Array& { return outputs[i]; };
  // Device: the first array operand's, else the current device.
  Device* device = nullptr;
  for (int i = 0; i < n_inputs; ++i)
    if (const UfuncOperand& op = inputs[i]; !op.is_scalar) {
      if (!device) device = &op.array().device();
      else if (&op.array().device() != device)
        throw DeviceError("arrays are on different devices: " + device->name() + " and " + op.array().device().name() +
                          "; move one with to_device() first");
    }
  for (int i = 0; i < nout_; ++i)
    if (const Array& o = outputs[i]; o.defined()) {
      if (!device) device = &o.device();
      else if (&o.device() != device)
        throw DeviceError("arrays are on different devices: " + device->name() + " and " + o.device().name() +
                          "; move one with to_device() first");
    }
  if (!device) device = &current_device();

  // Fixed-capacity locals: a ufunc has at most four operands.
  // Inputs already of the loop's type are used in place; others are
  // converted into `converted`.
  std::array<Array, 4> converted;
  const Array* ins[4];
  if (nin_ + nout_ > 4) throw ValueError("ufunc " + name_ + " has too many operands");
  for (int i = 0; i < nin_; ++i) {
    const UfuncOperand& op = inputs[i];
    if (op.is_scalar) {
      // A logical ufunc sees only whether the number is zero (NumPy takes
      // it as a bool), whatever the loop: an int out of the loop type's range
      // is fine, 1j is true in a boolean loop. (Above int64's range NumPy
      // fails to convert an int: OverflowError, as here.)
      if (truth_inputs_ && (op.scalar.kind == WeakScalar::kFloat || op.scalar.kind == WeakScalar::kComplex ||
                            (op.scalar.kind == WeakScalar::kInt && !op.scalar.huge && !op.scalar.is_uint))) {
        ScalarValue truth;
        truth.kind = WeakScalar::kBool;
        truth.b = op.scalar.kind == WeakScalar::kInt     ? op.scalar.i != 0
                  : op.scalar.kind == WeakScalar::kFloat ? op.scalar.f != 0.0
                                                         : op.scalar.c != std::complex<double>(0.0, 0.0);
        converted[i] = scalar_to_array(truth, l.types[i], *device);
      } else if (op.scalar.kind == WeakScalar::kComplex && !is_complex(l.types[i])) {
        // A loop chosen by dtype=/signature takes the real part (NumPy casts
        // the operand unsafely); only assignments refuse a complex number.
        ScalarValue real;
        real.kind = WeakScalar::kFloat;
        real.f = op.scalar.c.real();
        converted[i] = scalar_to_array(real, l.types[i], *device);
      } else {
        converted[i] = scalar_to_array(op.scalar, l.types[i], *device);
      }
      ins[i] = &converted[i];
    } else {
      if (!truth_inputs_ && !can_cast(op.array().dtype(), l.types[i], casting))
        throw CastingError("Cannot cast ufunc '" + name_ + "' input " + std::to_string(i) + " from dtype('" +
                           dtype_name(op.array().dtype()) + "') to dtype('" + dtype_name(l.types[i]) +
                           "') with casting rule '" + casting_name(casting) + "'");
      if (op.array().dtype() == l.types[i]) {
        ins[i] = &op.array();
      } else {
        converted[i] = op.array().astype(l.types[i]);
        ins[i] = &converted[i];
      }
    }
  }
  // NumPy checks the outputs' casting with the loop's types, before it
  // broadcasts the operands.
  for (int i = 0; i < nout_; ++i) {
    const Dtype want = l.types[nin_ + i];
    if (out_at(i).defined() && !can_cast(want, out_at(i).dtype(), casting))
      throw CastingError("Cannot cast ufunc '" + name_ + "' output from dtype('" + dtype_name(want) +
                         "') to dtype('" + dtype_name(out_at(i).dtype()) + "') with casting rule '" +
                         casting_name(casting) + "'");
  }
  // The loop's shape: inputs and given outputs broadcast together.
  Shape shape = ins[0]->shape();
  for (int i = 1; i < nin_; ++i)
    if (ins[i]->shape() != shape) shape = broadcast_shapes(shape, ins[i]->shape());
  for (int i = 0; i < nout_; ++i)
    if (const Array& o = outputs[i]; o.defined() && o.shape() != shape) shape = broadcast_shapes(shape, o.shape());
  // Outputs of another dtype are computed in a temporary and cast on store.
  std::array<Array, 4> direct;
  for (int i = 0; i < nout_; ++i) {
    Dtype want = l.types[nin_ + i];
    if (out_at(i).defined()) {
      if (out_at(i).dtype() == want) {
        direct[i] = out_at(i);
        continue;
      }
    }
    // Keep the memory order of an input of the full shape (NumPy's order='K').
    const Array* like = nullptr;
    for (int j = 0; j < nin_; ++j)
      if (ins[j]->shape() == shape) {
        like = ins[j];
        break;
      }
    direct[i] = like && !like->c_contiguous() ? Array::empty_like(*like, want, Order::kK)
                                              : Array::empty(shape, want, *device);
  }
  const Array* args[4];
  for (int i = 0; i < nin_; ++i) args[i] = ins[i];
  for (int i = 0; i < nout_; ++i) args[nin_ + i] = &direct[i];
  launch_elementwise(loop_spec(k), loop_signature(k), args, static_cast<size_t>(nin_ + nout_));
  for (int i = 0; i < nout_; ++i) {
    if (outputs[i].defined() && outputs[i].dtype() != direct[i].dtype()) direct[i].copy_to(outputs[i]);
    else outputs[i] = std::move(direct[i]);
  }
}

}  // namespace kernels
}  // namespace kumo
