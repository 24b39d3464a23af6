// The rows of the built-in ufunc table. Type characters are numpy.dtype.char
// ('?' bool, 'bBhHiIlL' integers, 'efd' floats, 'FD' complex); snippets use
// in0, in1 and out0, out1 and the prelude's kumo:: functions.
#include "routines/ufunc_table.h"

#include <set>

#include <mutex>
#include <unordered_map>

#include "core/errors.h"

namespace kumo {

namespace {

const std::string kBool = "?";
const std::string kInts = "bBhHiIlL";
const std::string kFloats = "efd";
const std::string kComplex = "FD";
const std::string kAll = kBool + kInts + kFloats + kComplex;
const std::string kNumeric = kInts + kFloats + kComplex;
// Reduce identity of logaddexp/logaddexp2 (also compiles under NVRTC, which
// has no <math.h> INFINITY).
const std::string kNegInf = "-kumo::limits<_type_reduce>::infinity()";
const std::string kError(kUfuncErrorMarker);
// The two-bool loop, spelled so no "??-" trigraph sequence appears.
const std::string kBoolPair = std::string("?") + "?->?";

// Loops whose inputs share one type; outputs are that type, or `out` when given.
std::vector<std::string> same(const std::string& chars, int nin, int nout = 1, char out = 0) {
  std::vector<std::string> r;
  for (char c : chars) r.push_back(std::string(nin, c) + "->" + std::string(nout, out ? out : c));
  return r;
}
std::vector<std::string> to_bool(const std::string& chars, int nin) { return same(chars, nin, 1, '?'); }
std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

// Per-loop snippets: the key lists loop type strings separated by commas.
using Overrides = std::vector<std::pair<std::string, std::string>>;

class TableBuilder {
 public:
  std::vector<UfuncRow> rows;

  UfuncRow& row(const std::string& name, int nin, int nout, const std::vector<std::string>& loops,
                const std::string& op, const std::string& identity = "", const Overrides& overrides = {},
                const std::string& doc = "") {
    UfuncRow r;
    r.name = name;
    r.nin = nin;
    r.nout = nout;
    r.identity = identity;
    r.doc = doc;
    for (const std::string& t : loops) {
      std::string snippet = op;
      for (const auto& ov : overrides) {
        size_t pos = 0;
        const std::string& keys = ov.first;
        while (pos <= keys.size()) {
          size_t end = keys.find(',', pos);
          if (end == std::string::npos) end = keys.size();
          if (keys.compare(pos, end - pos, t) == 0) snippet = ov.second;
          pos = end + 1;
        }
      }
      r.loops.emplace_back(t, snippet);
    }
    rows.push_back(std::move(r));
    return rows.back();
  }

  void unary_float(const std::string& name, const std::string& fn, bool complex_ok, const std::string& doc) {
    row(name, 1, 1, same(kFloats + (complex_ok ? kComplex : ""), 1), "out0 = " + fn + "(in0)", "", {}, doc);
  }
};

std::vector<UfuncRow> build_rows() {
  TableBuilder t;
  auto b2 = [](const std::string& sym) { return "out0 = in0 " + sym + " in1"; };

  // ---- arithmetic ----
  t.row("add", 2, 1, same(kAll, 2), b2("+"), "0", {{kBoolPair, "out0 = in0 || in1"}}, "Add arguments element-wise.");
  t.row("subtract", 2, 1, concat(std::vector<std::string>{kBoolPair}, same(kNumeric, 2)), b2("-"), "",
        {{kBoolPair, kError + "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                            "the `^` operator, or the logical_xor function instead."}},
        "Subtract arguments, element-wise.");
  t.row("multiply", 2, 1, same(kAll, 2), b2("*"), "1", {{kBoolPair, "out0 = in0 && in1"}},
        "Multiply arguments element-wise.");
  // Integer true division gives float64 (NumPy's true-division type resolver).
  t.row("divide", 2, 1, concat(same(kBool + kInts, 2, 1, 'd'), same(kFloats + kComplex, 2)),
        "out0 = kumo::true_divide(in0, in1)", "",
        {{join(same(kBool + kInts, 2, 1, 'd')), "out0 = (double)in0 / (double)in1"}},
        "Divide arguments element-wise.")
      .refinement = UfuncRefinement::kTrueDivide;
  t.row("floor_divide", 2, 1, same(kInts + kFloats, 2), "out0 = kumo::floor_divide(in0, in1)", "", {},
        "Return the largest integer smaller or equal to the division of the inputs.");
  t.row("remainder", 2, 1, same(kInts + kFloats, 2), "out0 = kumo::remainder(in0, in1)", "", {},
        "Returns the element-wise remainder of division (sign of the divisor).");
  t.row("fmod", 2, 1, same(kInts + kFloats, 2), "out0 = kumo::fmod(in0, in1)", "", {},
        "Returns the element-wise remainder of division (sign of the dividend).");
  t.row("divmod", 2, 2, same(kInts + kFloats, 2, 2), "kumo::divmod(in0, in1, out0, out1)", "", {},
        "Return element-wise quotient and remainder simultaneously.");
  t.row("power", 2, 1, same(kInts + kFloats + kComplex, 2), "out0 = kumo::power(in0, in1)", "", {},
        "First array elements raised to powers from second array, element-wise.")
      .refinement = UfuncRefinement::kPower;
  t.row("float_power", 2, 1, same("dD", 2), "out0 = kumo::power(in0, in1)", "", {},
        "First array elements raised to powers from second array, in float64 or complex128.");
  t.row("negative", 1, 1, concat({"?->?"}, same(kNumeric, 1)), "out0 = kumo::negative(in0)", "",
        {{"?->?", kError + "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
                           "or the logical_not function instead."}},
        "Numerical negative, element-wise.");
  t.row("positive", 1, 1, concat({"?->?"}, same(kNumeric, 1)), "out0 = in0", "",
        {{"?->?", kError + "The numpy boolean positive, the `+` operator, is not supported."}},
        "Numerical positive, element-wise.");
  t.row("absolute", 1, 1, concat(same(kBool + kInts + kFloats, 1), {"F->f", "D->d"}), "out0 = kumo::absolute(in0)",
        "", {{"?->?", "out0 = in0"}}, "Calculate the absolute value element-wise.");
  t.row("fabs", 1, 1, same(kFloats, 1), "out0 = fabs(in0)", "", {}, "Compute the absolute values element-wise.");
  t.row("sign", 1, 1, concat({"?->?"}, same(kNumeric, 1)), "out0 = kumo::sign(in0)", "",
        {{"?->?", kError + "ufunc 'sign' did not contain a loop with signature matching types "
                           "<class 'numpy.dtypes.BoolDType'> -> None"}},
        "Returns an element-wise indication of the sign of a number.");
  t.row("conjugate", 1, 1, same(kNumeric, 1), "out0 = kumo::conjugate(in0)", "", {},
        "Return the complex conjugate, element-wise.");
  t.row("reciprocal", 1, 1, same(kNumeric, 1), "out0 = kumo::reciprocal(in0)", "", {},
        "Return the reciprocal of the argument, element-wise.");
  t.row("square", 1, 1, same(kNumeric, 1), "out0 = kumo::square(in0)", "", {},
        "Return the element-wise square of the input.");
  t.row("heaviside", 2, 1, same(kFloats, 2), "out0 = kumo::heaviside(in0, in1)", "", {},
        "Compute the Heaviside step function.")
      .refinement = UfuncRefinement::kFloatLoops;
  const std::string bool_pair = "(<class 'numpy.dtypes.BoolDType'>, <class 'numpy.dtypes.BoolDType'>) -> None";
  t.row("gcd", 2, 1, concat(std::vector<std::string>{kBoolPair}, same(kInts, 2)), "out0 = kumo::gcd(in0, in1)", "0",
        {{kBoolPair, kError + "ufunc 'gcd' did not contain a loop with signature matching types " + bool_pair}},
        "Returns the greatest common divisor of |x1| and |x2|.");
  t.row("lcm", 2, 1, concat(std::vector<std::string>{kBoolPair}, same(kInts, 2)), "out0 = kumo::lcm(in0, in1)", "",
        {{kBoolPair, kError + "ufunc 'lcm' did not contain a loop with signature matching types " + bool_pair}},
        "Returns the lowest common multiple of |x1| and |x2|.");

  // ---- exponents, logarithms, roots ----
  t.unary_float("sqrt", "sqrt", true, "Return the non-negative square-root of an array, element-wise.");
  t.unary_float("cbrt", "cbrt", false, "Return the cube-root of an array, element-wise.");
  t.row("exp", 1, 1, same(kFloats + kComplex, 1), "out0 = exp(in0)", "",
        {{"f->f", "out0 = kumo::vexpf(in0)"}, {"e->e", "out0 = (float16)kumo::vexpf((float)in0)"}},
        "Calculate the exponential of all elements in the input array.")
      // exp's float loops use the prelude's branch-free vexpf; letting GCC treat
      // its comparisons as non-trapping turns them into blends so the loop
      // vectorizes (for these kernels only: GCC 12 miscompiles some complex
      // selects under it).
      .preamble = "#if !defined(__CUDACC_RTC__) && defined(__GNUC__) && !defined(__clang__)\n"
                  "#pragma GCC optimize(\"no-trapping-math\")\n#endif\n";
  t.unary_float("exp2", "exp2", true, "Calculate 2**p for all p in the input array.");
  t.unary_float("expm1", "expm1", true, "Calculate exp(x) - 1 for all elements in the array.");
  t.row("log", 1, 1, same(kFloats + kComplex, 1), "out0 = log(in0)", "",
        {{"f->f", "out0 = kumo::vlogf(in0)"}, {"e->e", "out0 = (float16)kumo::vlogf((float)in0)"},
         {"d->d", "out0 = kumo::vlog(in0)"}},
        "Natural logarithm, element-wise.")
      // As exp: the branch-free vlogf and vlog vectorize once their selects may be blends.
      .preamble = "#if !defined(__CUDACC_RTC__) && defined(__GNUC__) && !defined(__clang__)\n"
                  "#pragma GCC optimize(\"no-trapping-math\")\n#endif\n";
  t.unary_float("log2", "log2", true, "Base-2 logarithm of x.");
  t.unary_float("log10", "log10", true, "Return the base 10 logarithm of the input array, element-wise.");
  t.unary_float("log1p", "log1p", true, "Return the natural logarithm of one plus the input array, element-wise.");
  // float16 and float32 in double: near a zero result (x = -0.5, y = -1.75 in
  // base 2) the sum cancels most of its bits, and float32 terms left the
  // result 24 ulp off where NumPy's is within 2.
  t.row("logaddexp", 2, 1, same(kFloats, 2), "out0 = kumo::logaddexp(in0, in1)", kNegInf,
        {{"ee->e,ff->f", "out0 = (out0_type)(float)kumo::logaddexp((double)(float)in0, (double)(float)in1)"}},
        "Logarithm of the sum of exponentiations of the inputs.")
      .refinement = UfuncRefinement::kFloatLoops;
  t.row("logaddexp2", 2, 1, same(kFloats, 2), "out0 = kumo::logaddexp2(in0, in1)", kNegInf,
        {{"ee->e,ff->f", "out0 = (out0_type)(float)kumo::logaddexp2((double)(float)in0, (double)(float)in1)"}},
        "Logarithm of the sum of exponentiations of the inputs in base-2.")
      .refinement = UfuncRefinement::kFloatLoops;

  // ---- trigonometric and hyperbolic ----
  const std::pair<const char*, const char*> trig[] = {
      {"sin", "sin"},     {"cos", "cos"},       {"tan", "tan"},       {"arcsin", "asin"},
      {"arccos", "acos"}, {"arctan", "atan"},   {"sinh", "sinh"},     {"cosh", "cosh"},
      {"tanh", "tanh"},   {"arcsinh", "asinh"}, {"arccosh", "acosh"}, {"arctanh", "atanh"}};
  for (const auto& f : trig) t.unary_float(f.first, f.second, true, std::string("Element-wise ") + f.first + ".");
  t.row("arctan2", 2, 1, same(kFloats, 2), "out0 = atan2(in0, in1)", "", {},
        "Element-wise arc tangent of x1/x2 choosing the quadrant correctly.")
      .refinement = UfuncRefinement::kFloatLoops;
  t.row("hypot", 2, 1, same(kFloats, 2), "out0 = hypot(in0, in1)", "0", {},
        "Given the legs of a right triangle, return its hypotenuse.")
      .refinement = UfuncRefinement::kFloatLoops;
  const std::pair<const char*, const char*> angles[] = {
      {"degrees", "rad2deg"}, {"rad2deg", "rad2deg"}, {"radians", "deg2rad"}, {"deg2rad", "deg2rad"}};
  for (const auto& f : angles)
    t.row(f.first, 1, 1, same(kFloats, 1), std::string("out0 = kumo::") + f.second + "(in0)", "", {},
          std::string("Convert angles (") + f.first + ").");

  // ---- rounding ----
  t.row("rint", 1, 1, same(kFloats + kComplex, 1), "out0 = rint(in0)", "",
        {{"F->F,D->D", "out0 = out0_type(rint(in0.real()), rint(in0.imag()))"}},
        "Round elements of the array to the nearest integer.");
  for (const char* name : {"floor", "ceil", "trunc"})
    t.row(name, 1, 1, same(kBool + kInts + kFloats, 1), std::string("out0 = ") + name + "(in0)", "",
          {{"?->?", "out0 = in0"}, {join(same(kInts, 1)), "out0 = in0"}},
          std::string("Return the ") + name + " of the input, element-wise.");

  // ---- floating point ----
  for (const char* name : {"isnan", "isinf", "isfinite"}) {
    std::string constant = std::string(name) == "isfinite" ? "true" : "false";
    t.row(name, 1, 1, to_bool(kAll, 1), std::string("out0 = ") + name + "(in0)", "",
          {{join(to_bool(kBool + kInts, 1)), "out0 = " + constant}},
          std::string("Test element-wise for ") + name + ".");
  }
  t.row("signbit", 1, 1, to_bool(kFloats, 1), "out0 = signbit(in0)", "", {},
        "Returns element-wise True where signbit is set (less than zero).");
  t.row("copysign", 2, 1, same(kFloats, 2), "out0 = copysign(in0, in1)", "", {},
        "Change the sign of x1 to that of x2, element-wise.")
      .refinement = UfuncRefinement::kFloatLoops;
  t.row("nextafter", 2, 1, same(kFloats, 2), "out0 = nextafter(in0, in1)", "", {},
        "Return the next floating-point value after x1 towards x2, element-wise.")
      .refinement = UfuncRefinement::kFloatLoops;
  t.row("spacing", 1, 1, same(kFloats, 1), "out0 = kumo::spacing(in0)", "", {},
        "Return the distance between x and the nearest adjacent number.");
  t.row("ldexp", 2, 1, {"ei->e", "fi->f", "el->e", "fl->f", "di->d", "dl->d"}, "out0 = ldexp(in0, (int)in1)", "",
        {{"el->e,fl->f,dl->d",
          "out0 = ldexp(in0, in1 > 2147483647 ? 2147483647 : (in1 < -2147483647 ? -2147483647 : (int)in1))"}},
        "Returns x1 * 2**x2, element-wise.");
  t.row("frexp", 1, 2, {"e->ei", "f->fi", "d->di"}, "{ int e_; out0 = frexp(in0, &e_); out1 = e_; }", "", {},
        "Decompose the elements of x into mantissa and twos exponent.");
  t.row("modf", 1, 2, same(kFloats, 1, 2), "out0 = modf(in0, &out1)", "", {},
        "Return the fractional and integral parts of an array, element-wise.");

  // ---- extrema ----
  const std::pair<const char*, const char*> extrema[] = {
      {"maximum", "Element-wise maximum of array elements (NaN propagates)."},
      {"minimum", "Element-wise minimum of array elements (NaN propagates)."},
      {"fmax", "Element-wise maximum of array elements (NaN ignored)."},
      {"fmin", "Element-wise minimum of array elements (NaN ignored)."}};
  for (const auto& f : extrema) {
    std::string name = f.first;
    bool is_max = name.find("max") != std::string::npos;
    t.row(name, 2, 1, same(kAll, 2), "out0 = kumo::" + name + "(in0, in1)", "",
          {{kBoolPair, is_max ? "out0 = in0 || in1" : "out0 = in0 && in1"}}, f.second);
  }

  // ---- comparison ----
  // int64 against uint64 compares exactly (NumPy's 'qQ->?' and 'Qq->?' loops)
  // instead of going through float64; a negative int64 is below every uint64.
  struct Cmp {
    const char *name, *sym, *neg_lhs, *neg_rhs;
  };
  const Cmp cmps[] = {{"equal", "==", "false", "false"},     {"not_equal", "!=", "true", "true"},
                      {"less", "<", "true", "false"},        {"less_equal", "<=", "true", "false"},
                      {"greater", ">", "false", "true"},     {"greater_equal", ">=", "false", "true"}};
  for (const Cmp& c : cmps) {
    std::vector<std::string> loops;
    for (const std::string& l : to_bool(kAll, 2)) {
      loops.push_back(l);
      if (l == "LL->?") {
        loops.push_back("lL->?");
        loops.push_back("Ll->?");
      }
    }
    std::string sym = c.sym;
    t.row(c.name, 2, 1, loops, "out0 = (in0 " + sym + " in1)", "",
          {{"lL->?", std::string("out0 = in0 < 0 ? ") + c.neg_lhs + " : ((uint64_t)in0 " + sym + " in1)"},
           {"Ll->?", std::string("out0 = in1 < 0 ? ") + c.neg_rhs + " : (in0 " + sym + " (uint64_t)in1)"}},
          "Return the truth value of (x1 " + sym + " x2) element-wise.")
        .refinement = UfuncRefinement::kComparison;
  }

  // ---- logical ----
  const std::tuple<const char*, const char*, const char*, const char*> logical[] = {
      {"logical_and", "&&", "true", "AND"}, {"logical_or", "||", "false", "OR"}, {"logical_xor", "!=", "false", "XOR"}};
  for (const auto& [name, op, ident, word] : logical)
    t.row(name, 2, 1, to_bool(kAll, 2),
          std::string("out0 = (kumo_cast<bool>(in0) ") + op + " kumo_cast<bool>(in1))", ident, {},
          std::string("Compute the truth value of x1 ") + word + " x2 element-wise.")
        .truth_inputs = true;
  t.row("logical_not", 1, 1, to_bool(kAll, 1), "out0 = !kumo_cast<bool>(in0)", "", {},
        "Compute the truth value of NOT x element-wise.");

  // ---- bitwise ----
  const std::tuple<const char*, const char*, const char*, const char*> bitwise[] = {
      {"bitwise_and", "&", "-1", "AND"}, {"bitwise_or", "|", "0", "OR"}, {"bitwise_xor", "^", "0", "XOR"}};
  for (const auto& [name, sym, ident, word] : bitwise)
    t.row(name, 2, 1, same(kBool + kInts, 2), std::string("out0 = in0 ") + sym + " in1", ident,
          {{kBoolPair, std::string("out0 = (bool)((int)in0 ") + sym + " (int)in1)"}},
          std::string("Compute the bit-wise ") + word + " of two arrays element-wise.");
  t.row("invert", 1, 1, same(kBool + kInts, 1), "out0 = ~in0", "", {{"?->?", "out0 = !in0"}},
        "Compute bit-wise inversion, or bit-wise NOT, element-wise.");
  t.row("left_shift", 2, 1, same(kInts, 2), "out0 = kumo::left_shift(in0, in1)", "", {},
        "Shift the bits of an integer to the left.");
  t.row("right_shift", 2, 1, same(kInts, 2), "out0 = kumo::right_shift(in0, in1)", "", {},
        "Shift the bits of an integer to the right.");

  static const std::set<std::string> memory_bound = {
      "add", "subtract", "multiply", "negative", "positive", "absolute", "fabs", "conjugate", "square", "sign",
      "maximum", "minimum", "fmax", "fmin", "copysign", "signbit", "isnan", "isinf", "isfinite", "equal",
      "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
      "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "invert"};
  for (UfuncRow& r : t.rows) r.memory_bound = memory_bound.count(r.name) > 0;
  return t.rows;
}

std::vector<kernels::UfuncLoop> make_loops(const UfuncRow& row) {
  std::vector<kernels::UfuncLoop> loops;
  for (const auto& l : row.loops) loops.push_back(kernels::UfuncLoop::parse(l.first, l.second, row.nin, row.nout));
  return loops;
}

struct Registry {
  std::vector<std::shared_ptr<const BuiltinUfunc>> ufuncs;
  std::unordered_map<std::string, std::shared_ptr<const BuiltinUfunc>> by_name;
};

const Registry& registry() {
  // Built once, never destroyed: ufuncs outlive every static that may use them.
  static const Registry* r = [] {
    auto* reg = new Registry();
    for (const UfuncRow& row : ufunc_rows()) {
      auto u = std::make_shared<const BuiltinUfunc>(row);
      reg->ufuncs.push_back(u);
      reg->by_name[row.name] = u;
    }
    for (const auto& [alias, target] : ufunc_aliases()) reg->by_name[alias] = reg->by_name.at(target);
    return reg;
  }();
  return *r;
}

}  // namespace

const std::vector<UfuncRow>& ufunc_rows() {
  static const std::vector<UfuncRow>* rows = new std::vector<UfuncRow>(build_rows());
  return *rows;
}

const std::vector<std::pair<std::string, std::string>>& ufunc_aliases() {
  static const std::vector<std::pair<std::string, std::string>> aliases = {
      {"true_divide", "divide"},
      {"mod", "remainder"},
      {"abs", "absolute"},
      {"conj", "conjugate"},
      {"bitwise_not", "invert"},
      {"bitwise_invert", "invert"},
      {"bitwise_left_shift", "left_shift"},
      {"bitwise_right_shift", "right_shift"},
      {"pow", "power"},
      {"acos", "arccos"},
      {"asin", "arcsin"},
      {"atan", "arctan"},
      {"acosh", "arccosh"},
      {"asinh", "arcsinh"},
      {"atanh", "arctanh"},
      {"atan2", "arctan2"},
  };
  return aliases;
}

BuiltinUfunc::BuiltinUfunc(const UfuncRow& row)
    : kernels::Ufunc(row.name, row.nin, row.nout, make_loops(row), row.preamble, row.identity), row_(row) {
  if (row.memory_bound) set_min_parallel_bytes(kernels::kMemoryBoundParallelBytes);
  set_truth_inputs(row.truth_inputs);
}

std::shared_ptr<const BuiltinUfunc> builtin_ufunc_ptr(std::string_view name) {
  const Registry& r = registry();
  auto it = r.by_name.find(std::string(name));
  if (it == r.by_name.end()) throw ValueError("no ufunc named '" + std::string(name) + "'");
  return it->second;
}

const BuiltinUfunc& builtin_ufunc(std::string_view name) { return *builtin_ufunc_ptr(name); }

const std::vector<std::shared_ptr<const BuiltinUfunc>>& builtin_ufuncs() { return registry().ufuncs; }

}  // namespace kumo
