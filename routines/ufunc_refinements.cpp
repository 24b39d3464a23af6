// NumPy's refinements of the plain ufunc loop search, one per
// UfuncRefinement. Each rewrites the operands (or raises) and then runs the
// plain call, so C++, Python and the operators all get them.
#include <limits>

#include "core/errors.h"
#include "kernels/reduction.h"
#include "routines/ufunc_table.h"

namespace kumo {

namespace {

using kernels::ScalarValue;
using kernels::UfuncOperand;

bool is_int_like(Dtype d) { return d == Dtype::kBool || is_integer(d); }
bool is_python_int(const UfuncOperand& op) { return op.is_scalar && op.scalar.kind == WeakScalar::kInt; }
bool scalar_negative(const ScalarValue& v) { return v.huge ? v.f < 0 : (!v.is_uint && v.i < 0); }

// Whether a Python int fits `d` (bool: 0 and 1), and if not, whether it lies above the range.
bool int_fits(const ScalarValue& v, Dtype d, bool* above) {
  *above = false;
  if (v.huge) {
    *above = v.f > 0;
    return false;
  }
  if (v.is_uint) {
    *above = true;
    return d == Dtype::kUInt64;
  }
  int64_t lo = 0;
  uint64_t hi = 1;
  switch (d) {
    case Dtype::kBool: break;
    case Dtype::kInt8: lo = INT8_MIN, hi = INT8_MAX; break;
    case Dtype::kUInt8: hi = UINT8_MAX; break;
    case Dtype::kInt16: lo = INT16_MIN, hi = INT16_MAX; break;
    case Dtype::kUInt16: hi = UINT16_MAX; break;
    case Dtype::kInt32: lo = INT32_MIN, hi = INT32_MAX; break;
    case Dtype::kUInt32: hi = UINT32_MAX; break;
    case Dtype::kInt64: lo = INT64_MIN, hi = INT64_MAX; break;
    case Dtype::kUInt64: hi = UINT64_MAX; break;
    default: return true;
  }
  if (v.i < lo) return false;
  if (v.i >= 0 && static_cast<uint64_t>(v.i) > hi) {
    *above = true;
    return false;
  }
  return true;
}

// Whether any element of a bool array is true (one small reduction).
bool any_true(const Array& mask) {
  static auto spec = kernels::ReductionSpec::create("kumo_any_true", "bool x", "bool y", "x", "a || b", "y = a",
                                                    "false", "bool");
  Array r = kernels::call_reduction(*spec, {mask}, {Array()}, {}, true, false)[0];
  bool host = false;
  r.copy_to_host_buffer(&host);
  return host;
}

Array strong_scalar(const ScalarValue& v, Dtype d, Device& device) { return kernels::scalar_to_array(v, d, device); }

// Integers to negative integer powers have no integer result: NumPy raises.
void check_power(const UfuncOperand* in, std::optional<Dtype> dtype, const Array* out, Casting casting) {
  const UfuncOperand &x = in[0], &y = in[1];
  // NumPy raises from inside the loop, so an empty result raises nothing
  // (and shapes that do not broadcast are the plain call's error).
  if (!x.is_scalar && !y.is_scalar) {
    if (x.array().size() == 0 || y.array().size() == 0) return;
    try {
      if (shape_size(broadcast_shapes(x.array().shape(), y.array().shape())) == 0) return;
    } catch (const ValueError&) {
      return;
    }
  } else if (!x.is_scalar && x.array().size() == 0) {
    return;
  } else if (!y.is_scalar && y.array().size() == 0) {
    return;
  }
  bool negative = false;
  if (is_python_int(y)) {
    negative = scalar_negative(y.scalar);
    bool above;
    // An exponent below an integer array's range is an OverflowError raised by the plain call.
    if (negative && !x.is_scalar && is_integer(x.array().dtype()) && !int_fits(y.scalar, x.array().dtype(), &above))
      negative = false;
  } else if (!y.is_scalar && kind(y.array().dtype()) == DtypeKind::kSigned && y.array().size() > 0) {
    static const BuiltinUfunc& less = builtin_ufunc("less");
    const UfuncOperand ops[2] = {y.array(), ScalarValue()};
    Array is_negative;
    less.kernels::Ufunc::call_into(ops, 2, &is_negative, std::nullopt, Casting::kSameKind);
    negative = any_true(is_negative);
  }
  if (!negative) return;
  Dtype rt;
  if (dtype) {
    rt = *dtype;
  } else {
    std::vector<Dtype> strong{x.is_scalar ? default_dtype(x.scalar.kind) : x.array().dtype()};
    std::vector<WeakScalar> weak;
    if (y.is_scalar) weak.push_back(y.scalar.kind);
    else strong.push_back(y.array().dtype());
    rt = result_type(strong, weak);
  }
  // NumPy checks the output's casting before the loop runs: an out= the
  // result cannot be cast to is that error, not this one.
  if (out != nullptr && out->defined() && !can_cast(rt, out->dtype(), casting)) return;
  if (is_int_like(rt)) throw ValueError("Integers to negative integer powers are not allowed.");
}

}  // namespace

void BuiltinUfunc::call_into(const UfuncOperand* inputs, int n_inputs, Array* outputs, std::optional<Dtype> dtype,
                             Casting casting) const {
  auto plain = [&](const kernels::Ufunc& u, const UfuncOperand* ops) {
    u.kernels::Ufunc::call_into(ops, n_inputs, outputs, dtype, casting);
  };
  if (row_.refinement == UfuncRefinement::kNone || n_inputs != 2) return plain(*this, inputs);
  switch (row_.refinement) {
    case UfuncRefinement::kPower:
      check_power(inputs, dtype, outputs, casting);
      break;
    case UfuncRefinement::kTrueDivide:
      // Python ints outside an integer array's range divide in float64, as
      // NumPy converts both operands to double (instead of OverflowError).
      for (int i = 0; i < 2; ++i) {
        const UfuncOperand &arr = inputs[i], &sc = inputs[1 - i];
        if (arr.is_scalar || !is_int_like(arr.array().dtype()) || !is_python_int(sc)) continue;
        Dtype range = arr.array().dtype() == Dtype::kBool ? Dtype::kInt64 : arr.array().dtype();
        bool above;
        if (!int_fits(sc.scalar, range, &above)) {
          UfuncOperand ops[2] = {inputs[0], inputs[1]};
          ops[1 - i].scalar.kind = WeakScalar::kFloat;
          ops[1 - i].scalar.c = ops[1 - i].scalar.f;
          return plain(*this, ops);
        }
      }
      break;
    case UfuncRefinement::kComparison: {
      const UfuncOperand &x = inputs[0], &y = inputs[1];
      if (x.is_scalar && y.is_scalar) {
        // Two Python scalars compare in their default types.
        Device& dev = current_device();
        const UfuncOperand ops[2] = {strong_scalar(x.scalar, default_dtype(x.scalar.kind), dev),
                                     strong_scalar(y.scalar, default_dtype(y.scalar.kind), dev)};
        return plain(*this, ops);
      }
      if (x.is_scalar == y.is_scalar) break;
      const bool scalar_first = x.is_scalar;
      const UfuncOperand &arr = scalar_first ? y : x, &sc = scalar_first ? x : y;
      if (!is_int_like(arr.array().dtype())) break;
      if (sc.scalar.kind == WeakScalar::kInt) {
        bool above;
        if (!int_fits(sc.scalar, arr.array().dtype(), &above)) {
          // Every element lies on one side of the scalar: the answer is a
          // constant, computed on stand-in values (scalar 1 above, 0 below).
          int a = above ? 0 : 1, s = above ? 1 : 0;
          int l = scalar_first ? s : a, r = scalar_first ? a : s;
          const std::string& n = row_.name;
          bool constant = n == "equal" ? l == r : n == "not_equal" ? l != r : n == "less" ? l < r
                          : n == "less_equal" ? l <= r : n == "greater" ? l > r : l >= r;
          static const BuiltinUfunc& eq = builtin_ufunc("equal");
          static const BuiltinUfunc& ne = builtin_ufunc("not_equal");
          const UfuncOperand ops[2] = {arr.array(), arr.array()};
          return plain(constant ? eq : ne, ops);
        }
      } else if (sc.scalar.kind == WeakScalar::kFloat || sc.scalar.kind == WeakScalar::kComplex) {
        // A Python float or complex against integers compares in float64/complex128.
        Dtype d = sc.scalar.kind == WeakScalar::kFloat ? Dtype::kFloat64 : Dtype::kComplex128;
        Array s = strong_scalar(sc.scalar, d, arr.array().device());
        const UfuncOperand ops[2] = {scalar_first ? UfuncOperand(s) : arr, scalar_first ? arr : UfuncOperand(s)};
        return plain(*this, ops);
      }
      break;
    }
    case UfuncRefinement::kFloatLoops: {
      // NumPy's linear loop search for these ufuncs checks each input on its
      // own (a Python scalar taking the type it promotes to): uint8 with int8
      // picks float16, not the float32 the common type int16 would need.
      if (dtype) break;
      std::vector<Dtype> strong;
      std::vector<WeakScalar> weak;
      for (int i = 0; i < n_inputs; ++i) {
        const UfuncOperand& op = inputs[i];
        if (op.is_scalar) weak.push_back(op.scalar.kind);
        else strong.push_back(op.array().dtype());
      }
      bool all_int = !strong.empty();
      for (Dtype d : strong) all_int = all_int && is_int_like(d);
      if (!all_int) break;
      Dtype common = result_type(strong, weak);
      Dtype dts[2];
      for (int i = 0; i < 2; ++i) dts[i] = inputs[i].is_scalar ? common : inputs[i].array().dtype();
      if (!is_int_like(dts[0]) || !is_int_like(dts[1])) break;
      for (size_t k = 0; k < loops().size(); ++k) {
        const kernels::UfuncLoop& l = loops()[k];
        if (l.operation.compare(0, kUfuncErrorMarker.size(), kUfuncErrorMarker) == 0) continue;
        if (can_cast(dts[0], l.types[0], Casting::kSafe) && can_cast(dts[1], l.types[1], Casting::kSafe)) {
          dtype = l.types[2];
          break;
        }
      }
      break;
    }
    case UfuncRefinement::kNone:
      break;
  }
  plain(*this, inputs);
}

}  // namespace kumo
