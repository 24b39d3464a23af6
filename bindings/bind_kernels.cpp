// kumo._core: ufunc objects, user kernels (ElementwiseKernel,
// ReductionKernel) and the low-level reduce/accumulate entry points the
// Python layer composes.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/convert.h"
#include "core/errors.h"
#include "kernels/elementwise.h"
#include "kernels/kernel_arguments.h"
#include "kernels/kernel_cache.h"
#include "kernels/launch.h"
#include "kernels/reduction.h"
#include "kernels/scalar_assign.h"
#include "kernels/ufunc.h"
#include "routines/assignment.h"
#include "routines/elementwise.h"
#include "routines/ufunc_table.h"

#include <unordered_map>

namespace kumo {
namespace py_bind {

namespace {

using kernels::Ufunc;

const Array& cast_array(py::handle h) { return py::cast<const Array&>(h); }

// signature=: a type string ("dd->?") or a tuple of nin + nout dtypes or
// None, as NumPy reads it; None entries are left to the loop search.
std::vector<std::optional<Dtype>> parse_signature(const Ufunc& u, const py::object& sig) {
  const int nin = u.nin(), nout = u.nout();
  const char* single = "Use `dtype` or  fill the tuple with more than one 'None'.";
  std::vector<std::optional<Dtype>> fixed;
  if (PyUnicode_Check(sig.ptr())) {
    std::string s = py::str(sig);
    if (s.size() == 1) throw TypeError(single);
    size_t arrow = s.find("->");
    if (arrow == std::string::npos || static_cast<int>(arrow) != nin ||
        static_cast<int>(s.size() - arrow - 2) != nout)
      throw ValueError("a type-string for " + u.name() + ", " + std::to_string(nin) + " typecode(s) before and " +
                       std::to_string(nout) + " after the -> sign");
    for (size_t i = 0; i < s.size(); ++i) {
      if (i == arrow || i == arrow + 1) continue;
      std::optional<Dtype> d;
      try {
        d = to_dtype(py::str(std::string(1, s[i])));
      } catch (const py::error_already_set&) {
        throw ValueError("Invalid data-type for array");
      } catch (const TypeError&) {
        throw ValueError("Invalid data-type for array");
      }
      if (!d) throw ValueError("Invalid data-type for array");
      fixed.push_back(d);
    }
    return fixed;
  }
  if (!PyTuple_Check(sig.ptr())) throw TypeError("the signature object to ufunc must be a string or a tuple.");
  py::tuple t = py::reinterpret_borrow<py::tuple>(sig);
  if (t.size() == 1) throw TypeError(single);
  if (static_cast<int>(t.size()) != nin + nout)
    throw ValueError("a type-tuple must be specified of length " + std::to_string(nin + nout) + " for ufunc '" +
                     u.name() + "'");
  for (auto item : t) fixed.push_back(item.is_none() ? std::nullopt : std::optional<Dtype>(to_dtype_required(item)));
  return fixed;
}

// A ufunc call whose signature fixes input types. The loop is the first whose
// types equal the fixed ones and whose free inputs the operands reach safely
// (NumPy: "No loop matching" when there is none); the
// inputs are cast to it under `casting` (NumPy's _UFuncInputCastingError when
// they cannot be), and the result goes into out= under `casting`.
py::object call_with_signature(const Ufunc& u, std::vector<kernels::UfuncOperand>& ins,
                               const std::vector<std::optional<Dtype>>& fixed, std::vector<Array> outs,
                               const std::vector<py::object>& out_objs, Casting casting, const py::object& where) {
  const int nin = u.nin(), nout = u.nout();
  auto operand_dtype = [&](int i) { return ins[i].is_scalar ? default_dtype(ins[i].scalar.kind) : ins[i].array().dtype(); };
  const kernels::UfuncLoop* chosen = nullptr;
  for (const kernels::UfuncLoop& l : u.loops()) {
    if (l.operation.rfind("!error:", 0) == 0) continue;
    bool match = true;
    for (int i = 0; match && i < nin + nout; ++i) match = !fixed[i] || *fixed[i] == l.types[i];
    if (!match) continue;
    bool free_ok = true;
    for (int i = 0; free_ok && i < nin; ++i)
      if (!fixed[i])
        free_ok = ins[i].is_scalar ? kernels::weak_fits_kind(ins[i].scalar.kind, l.types[i])
                                   : can_cast(operand_dtype(i), l.types[i], Casting::kSafe);
    if (free_ok) {
      chosen = &l;
      break;
    }
  }
  if (!chosen) throw TypeError("No loop matching the specified signature and casting was found for ufunc " + u.name());
  std::vector<kernels::UfuncOperand> cast_ins;
  cast_ins.reserve(nin);
  for (int i = 0; i < nin; ++i) {
    const Dtype want = chosen->types[i];
    const bool fits = ins[i].is_scalar ? kernels::weak_fits_kind(ins[i].scalar.kind, want) ||
                                             can_cast(operand_dtype(i), want, casting)
                                       : can_cast(operand_dtype(i), want, casting);
    if (!fits)
      throw CastingError("Cannot cast ufunc '" + u.name() + "' input " + std::to_string(i) + " from dtype('" +
                         dtype_name(operand_dtype(i)) + "') to dtype('" + dtype_name(want) + "') with casting rule '" +
                         casting_name(casting) + "'");
    if (ins[i].is_scalar) {
      if (kernels::weak_fits_kind(ins[i].scalar.kind, want)) {
        cast_ins.push_back(ins[i]);
      } else {
        Device* device = &current_device();
        for (const auto& op : ins)
          if (!op.is_scalar) {
            device = &op.array().device();
            break;
          }
        cast_ins.emplace_back(kernels::scalar_to_array(ins[i].scalar, want, *device));
      }
    } else if (ins[i].array().dtype() != want) {
      cast_ins.emplace_back(ins[i].array().astype(want));
    } else {
      cast_ins.push_back(ins[i]);
    }
  }
  // Exactly typed inputs under 'no' reach only the chosen loop; out= is
  // then filled under the caller's rule.
  UfuncOptions options;
  options.casting(Casting::kNo).dtype(chosen->types[nin]);
  Array mask = where.is_none() ? Array() : to_array_required(where);
  if (mask.defined()) options.where(mask);
  std::vector<Array> res = call_ufunc(u, cast_ins, options);
  for (int i = 0; i < nout; ++i) {
    if (!outs[i].defined()) continue;
    if (!can_cast(res[i].dtype(), outs[i].dtype(), casting))
      throw CastingError("Cannot cast ufunc '" + u.name() + "' output from dtype('" + dtype_name(res[i].dtype()) +
                         "') to dtype('" + dtype_name(outs[i].dtype()) + "') with casting rule '" +
                         casting_name(casting) + "'");
  }
  for (int i = 0; i < nout; ++i)
    if (outs[i].defined()) copyto(outs[i], res[i], Casting::kUnsafe, mask);
  auto result = [&](int i) { return out_objs[i] ? out_objs[i] : py::cast(res[i]); };
  if (nout == 1) return result(0);
  py::tuple t(nout);
  for (int i = 0; i < nout; ++i) t[i] = result(i);
  return t;
}

// Positional-only fast path for the operators: no keyword parsing.
py::object ufunc_call(const Ufunc& u, py::args args, py::kwargs kw) {
  const int nin = u.nin(), nout = u.nout();
  if (static_cast<int>(args.size()) < nin || static_cast<int>(args.size()) > nin + nout)
    throw TypeError(u.name() + "() takes from " + std::to_string(nin) + " to " + std::to_string(nin + nout) +
                    " positional arguments but " + std::to_string(args.size()) + " were given");
  std::vector<kernels::UfuncOperand> ins;
  ins.reserve(nin);
  for (int i = 0; i < nin; ++i) ins.push_back(to_operand(args[i]));
  std::vector<Array> outs(nout);
  // NumPy returns the very objects passed as outputs.
  std::vector<py::object> out_objs(nout);
  bool explicit_out = false;
  for (size_t i = nin; i < args.size(); ++i) {
    if (!args[i].is_none()) {
      if (!py::isinstance<Array>(args[i])) throw TypeError("return arrays must be of ArrayType");
      outs[i - nin] = cast_array(args[i]);
      out_objs[i - nin] = py::reinterpret_borrow<py::object>(args[i]);
      explicit_out = true;
    }
  }
  std::optional<Dtype> dtype;
  Casting casting = Casting::kSameKind;
  py::object where = py::none();
  py::object signature = py::none();
  if (kw) {
    for (auto item : kw) {
      std::string key = py::str(item.first);
      py::handle v = item.second;
      if (key == "out") {
        if (v.is_none()) continue;
        if (explicit_out) throw TypeError("cannot specify 'out' as both a positional and keyword argument");
        if (PyTuple_Check(v.ptr())) {
          py::tuple t = py::reinterpret_borrow<py::tuple>(v);
          if (static_cast<int>(t.size()) != nout)
            throw ValueError("The 'out' tuple must have exactly one entry per ufunc output");
          for (int i = 0; i < nout; ++i)
            if (!t[i].is_none()) {
              if (!py::isinstance<Array>(t[i])) throw TypeError("return arrays must be of ArrayType");
              outs[i] = cast_array(t[i]);
              out_objs[i] = py::reinterpret_borrow<py::object>(t[i]);
            }
        } else {
          if (nout != 1) throw TypeError("'out' must be a tuple of arrays for ufuncs with several outputs");
          if (!py::isinstance<Array>(v)) throw TypeError("return arrays must be of ArrayType");
          outs[0] = cast_array(v);
          out_objs[0] = py::reinterpret_borrow<py::object>(v);
        }
        explicit_out = true;
      } else if (key == "dtype") {
        dtype = to_dtype(v);
      } else if (key == "casting") {
        casting = casting_from_name(py::str(v));
      } else if (key == "where") {
        if (!(v.ptr() == Py_True)) where = py::reinterpret_borrow<py::object>(v);
      } else if (key == "signature") {
        signature = py::reinterpret_borrow<py::object>(v);
      } else if (key == "order" || key == "subok") {
        continue;
      } else {
        throw TypeError("'" + key + "' is an invalid keyword to ufunc '" + u.name() + "'");
      }
    }
  }
  if (!signature.is_none()) {
    if (dtype) throw TypeError("cannot specify both 'signature' and 'dtype'");
    std::vector<std::optional<Dtype>> fixed = parse_signature(u, signature);
    bool inputs_fixed = false;
    for (int i = 0; i < nin; ++i) inputs_fixed = inputs_fixed || fixed[i].has_value();
    if (inputs_fixed) return call_with_signature(u, ins, fixed, std::move(outs), out_objs, casting, where);
    // Only outputs named: that is what dtype= means.
    dtype = fixed[nin];
  }
  UfuncOptions options;
  options.out(std::move(outs)).casting(casting);
  if (dtype) options.dtype(*dtype);
  if (!where.is_none()) options.where(to_array_required(where));
  std::vector<Array> res = call_ufunc(u, ins, options);
  auto result = [&](int i) { return out_objs[i] ? out_objs[i] : py::cast(res[i]); };
  if (nout == 1) return result(0);
  py::tuple t(nout);
  for (int i = 0; i < nout; ++i) t[i] = result(i);
  return t;
}

kernels::TypeBindings bindings_from_dict(py::handle d) {
  kernels::TypeBindings b;
  if (d.is_none()) return b;
  for (auto item : py::reinterpret_borrow<py::dict>(d))
    b.emplace_back(py::str(item.first), to_dtype_required(item.second));
  return b;
}

// Dtypes of all parameters (inputs then outputs) under the bindings.
std::vector<Dtype> bound_param_dtypes(const std::string& name, const std::vector<kernels::ParamSpec>& ins,
                                      const std::vector<kernels::ParamSpec>& outs,
                                      const kernels::TypeBindings& bindings) {
  std::vector<Dtype> out;
  for (const auto& p : ins) out.push_back(kernels::bound_dtype(name, p, bindings));
  for (const auto& p : outs) out.push_back(kernels::bound_dtype(name, p, bindings));
  return out;
}

// Python arguments to a user kernel: arrays stay, Python scalars become 0-d
// arrays typed by what the generic names bound to (CuPy's rule), or the
// default type of the scalar.
std::vector<Array> kernel_args(const std::vector<kernels::ParamSpec>& params, const py::args& args, size_t count,
                               kernels::TypeBindings* bindings, const kernels::TypeBindings& forced) {
  std::vector<kernels::KernelArgument> converted(count);
  for (size_t i = 0; i < count; ++i) {
    if (is_python_scalar(args[i])) {
      converted[i].scalar = to_scalar_value(args[i]);
    } else if (!args[i].is_none()) {
      converted[i].array = to_array_required(args[i]);
    }
  }
  return kernels::kernel_arguments(params, converted, forced, bindings);
}

bool operand_is_foreign(py::handle other) {
  if (py::isinstance<Array>(other) || is_python_scalar(other)) return false;
  PyObject* o = other.ptr();
  if (PyList_Check(o) || PyTuple_Check(o)) return false;
  static py::object np_ndarray = py::module_::import("numpy").attr("ndarray");
  static py::object np_generic = py::module_::import("numpy").attr("generic");
  if (py::isinstance(other, np_ndarray) || py::isinstance(other, np_generic)) return false;
  // Objects with their own __array_ufunc__ (or not array-like at all) get
  // the chance to handle the operation themselves.
  return py::hasattr(other, "__array_ufunc__") || !py::hasattr(other, "__array__");
}

// An operator is a ufunc call through the routines layer: NumPy's casting
// and its floating-point error report (errstate).
std::vector<Array> call_operator(const Ufunc& u, const std::vector<kernels::UfuncOperand>& ins,
                                 const Array& out = Array()) {
  std::vector<Array> outs(u.nout());
  UfuncOptions options;
  if (out.defined()) options.out({out});
  call_ufunc_into(u, ins.data(), static_cast<int>(ins.size()), outs.data(), options);
  return outs;
}

py::object apply_operator(const char* name, py::handle a, py::handle b, bool inplace) {
  if (operand_is_foreign(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  const Ufunc& u = builtin_ufunc(name);
  // Reused per thread (operators do not re-enter), and emptied after the call
  // so no array is kept alive by it.
  thread_local std::vector<kernels::UfuncOperand> ins(2);
  struct Clear {
    ~Clear() {
      ins[0].set_array(Array());
      ins[1].set_array(Array());
    }
  } clear;
  // Convert first: converting may run Python code that uses operators too.
  kernels::UfuncOperand x = to_operand(a), y = to_operand(b);
  ins[0] = std::move(x);
  ins[1] = std::move(y);
  if (inplace) {
    const Array& out = cast_array(a);
    call_operator(u, ins, out);
    return py::reinterpret_borrow<py::object>(a);
  }
  return py::cast(std::move(call_operator(u, ins)[0]));
}

}  // namespace

void bind_kernels(py::module_& m) {
  m.def("_is_foreign_operand", [](py::handle h) { return operand_is_foreign(h); });
  {
    py::object nd = m.attr("ndarray");
    py::class_<Array> cls = py::reinterpret_borrow<py::class_<Array>>(nd);
    struct Op {
      const char* py;
      const char* ufunc;
    };
    static const Op binary[] = {
        {"add", "add"},          {"sub", "subtract"},      {"mul", "multiply"},   {"truediv", "divide"},
        {"floordiv", "floor_divide"}, {"mod", "remainder"}, {"pow", "power"},       {"and", "bitwise_and"},
        {"or", "bitwise_or"},    {"xor", "bitwise_xor"},   {"lshift", "left_shift"}, {"rshift", "right_shift"},
    };
    for (const Op& op : binary) {
      const char* uf = op.ufunc;
      const bool is_pow = std::string(uf) == "power";
      cls.def((std::string("__") + op.py + "__").c_str(),
              [uf, is_pow](py::handle self, py::handle other) {
                // NumPy computes `a ** 2` as square(a) (so bool ** 2 is int8, as square's loops give).
                if (is_pow && Py_TYPE(other.ptr()) == &PyLong_Type && PyLong_AsLong(other.ptr()) == 2) {
                  static const Ufunc& square = builtin_ufunc("square");
                  return py::cast(call_operator(square, {to_operand(self)})[0]);
                }
                return apply_operator(uf, self, other, false);
              },
              py::is_operator());
      cls.def((std::string("__r") + op.py + "__").c_str(),
              [uf](py::handle self, py::handle other) {
                if (operand_is_foreign(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                std::vector<kernels::UfuncOperand> ins(2);
                ins[0] = to_operand(other);
                ins[1] = to_operand(self);
                return py::cast(call_operator(builtin_ufunc(uf), ins)[0]);
              },
              py::is_operator());
      cls.def((std::string("__i") + op.py + "__").c_str(),
              [uf](py::handle self, py::handle other) { return apply_operator(uf, self, other, true); },
              py::is_operator());
    }
    static const Op compare[] = {{"eq", "equal"}, {"ne", "not_equal"}, {"lt", "less"},
                                 {"le", "less_equal"}, {"gt", "greater"}, {"ge", "greater_equal"}};
    for (const Op& op : compare) {
      const char* uf = op.ufunc;
      cls.def((std::string("__") + op.py + "__").c_str(),
              [uf](py::handle self, py::handle other) { return apply_operator(uf, self, other, false); },
              py::is_operator());
    }
  }
  // The C++ ufunc table as (name, nin, nout, [(types, snippet)], identity, doc) rows.
  m.def("_ufunc_rows", [] {
    py::list rows;
    for (const UfuncRow& r : ufunc_rows())
      rows.append(py::make_tuple(r.name, r.nin, r.nout, r.loops, r.identity, r.doc));
    return rows;
  });
  m.def("_ufunc_aliases", [] { return ufunc_aliases(); });
  m.attr("_UFUNC_ERROR_MARKER") = std::string(kUfuncErrorMarker);
  py::class_<Ufunc, std::shared_ptr<Ufunc>>(m, "ufunc")
      // The built-in ufunc of that name, from the C++ table (routines/ufunc_table.cpp).
      .def(py::init([](const std::string& name) {
             return std::static_pointer_cast<Ufunc>(std::const_pointer_cast<BuiltinUfunc>(builtin_ufunc_ptr(name)));
           }),
           py::arg("name"))
      .def("__call__", &ufunc_call)
      .def_property_readonly("_name", &Ufunc::name)
      .def_property_readonly("nin", &Ufunc::nin)
      .def_property_readonly("nout", &Ufunc::nout)
      .def_property_readonly("nargs", [](const Ufunc& u) { return u.nin() + u.nout(); })
      .def_property_readonly("ntypes", [](const Ufunc& u) { return u.loops().size(); })
      .def_property_readonly("types", &Ufunc::type_strings)
      .def_property_readonly("_reduce_identity", &Ufunc::reduce_identity)
      // The operation snippet of loop k (what kumo.fuse inlines for a traced call).
      .def("_loop_operation", [](const Ufunc& u, int k) {
        if (k < 0 || k >= static_cast<int>(u.loops().size())) throw IndexError("ufunc loop index out of range");
        return u.loops()[k].operation;
      })
      .def("_resolve", [](const Ufunc& u, py::args ins, py::object dtype, py::object casting) {
        std::vector<kernels::UfuncOperand> ops;
        for (py::handle h : ins) {
          kernels::UfuncOperand op;
          if (py::isinstance<Array>(h)) {
            op.set_array(cast_array(h));
          } else if (is_python_scalar(h)) {
            op.is_scalar = true;
            op.scalar = to_scalar_value(h);
          } else {
            // A dtype stands for an array of that dtype.
            op.set_array(Array::empty(Shape{}, to_dtype_required(h), host_device()));
          }
          ops.push_back(op);
        }
        Casting c = casting.is_none() ? Casting::kSameKind : casting_from_name(py::str(casting));
        int k = u.resolve(ops, to_dtype(dtype), c);
        py::list types;
        for (Dtype d : u.loops()[k].types) types.append(numpy_dtype(d));
        return py::make_tuple(k, types);
      }, py::arg("dtype") = py::none(), py::arg("casting") = py::none())
      .def("_reduce", [](const Ufunc& u, int loop, const Array& a, py::object axes, bool keepdims, py::object out) {
        const kernels::ReductionSpec& spec = u.reduce_spec(loop);
        std::vector<Array> outs(1);
        if (!out.is_none()) outs[0] = cast_array(out);
        bool all = axes.is_none();
        std::vector<int64_t> ax = all ? std::vector<int64_t>{} : to_int_list(axes);
        return kernels::call_reduction(spec, {a}, outs, ax, all, keepdims)[0];
      })
      .def("_accumulate_rows", [](const Ufunc& u, int loop, const Array& x) {
        // x: C-contiguous 2-D (rows, n) of the loop type, n >= 1.
        const kernels::ElementwiseSpec& spec = u.accumulate_spec(loop);
        Array y = Array::empty(x.shape(), x.dtype(), x.device());
        kernels::call_elementwise(spec, {x}, {y}, {}, x.shape()[0]);
        return y;
      });

  py::class_<kernels::ElementwiseSpec, std::shared_ptr<kernels::ElementwiseSpec>>(m, "_ElementwiseSpec")
      .def(py::init([](const std::string& in, const std::string& out, const std::string& op, const std::string& name,
                       const std::string& preamble, std::vector<std::string> options, const std::string& loop_prep,
                       const std::string& after_loop, bool reduce_dims) {
             auto s = kernels::ElementwiseSpec::create(name, in, out, op, preamble, options, loop_prep, after_loop);
             s->reduce_dims = reduce_dims;
             return s;
           }),
           py::arg("in_params"), py::arg("out_params"), py::arg("operation"), py::arg("name"),
           py::arg("preamble") = "", py::arg("options") = std::vector<std::string>{}, py::arg("loop_prep") = "",
           py::arg("after_loop") = "", py::arg("reduce_dims") = true)
      .def_property_readonly("in_param_names", [](const kernels::ElementwiseSpec& s) {
        std::vector<std::string> v;
        for (const auto& p : s.in_params) v.push_back(p.name);
        return v;
      })
      .def_property_readonly("out_param_names", [](const kernels::ElementwiseSpec& s) {
        std::vector<std::string> v;
        for (const auto& p : s.out_params) v.push_back(p.name);
        return v;
      })
      .def_property_readonly("nin", [](const kernels::ElementwiseSpec& s) { return s.in_params.size(); })
      .def_property_readonly("nout", [](const kernels::ElementwiseSpec& s) { return s.out_params.size(); })
      .def("__call__", [](const kernels::ElementwiseSpec& s, py::args args, py::object size, py::object types) {
        size_t nin = s.in_params.size(), nout = s.out_params.size();
        if (args.size() != nin && args.size() != nin + nout)
          throw TypeError("Wrong number of arguments for '" + s.name + "': expected " + std::to_string(nin) + " or " +
                          std::to_string(nin + nout) + ", got " + std::to_string(args.size()));
        std::vector<kernels::ParamSpec> params = s.in_params;
        params.insert(params.end(), s.out_params.begin(), s.out_params.end());
        // CuPy's rules for given outputs: arrays only, and exactly the
        // parameter's type (a concrete type, or what its generic name binds).
        for (size_t k = nin; k < args.size(); ++k) {
          if (!py::isinstance<Array>(args[k])) throw TypeError("Output arguments must be kumo.ndarray");
          const kernels::ParamSpec& p = params[k];
          const Dtype d = cast_array(args[k]).dtype();
          if (!p.is_generic && d != p.dtype)
            throw TypeError("Type is mismatched. " + p.name + " " + dtype_name(d) + " " + dtype_name(p.dtype));
        }
        kernels::TypeBindings b;
        std::vector<Array> all = kernel_args(params, args, args.size(), &b, bindings_from_dict(types));
        std::vector<Array> ins(all.begin(), all.begin() + nin);
        std::vector<Array> outs(all.begin() + nin, all.end());
        int64_t sz = size.is_none() ? -1 : py::cast<int64_t>(size);
        std::vector<Array> res = kernels::call_elementwise(s, ins, outs, b, sz);
        if (res.size() == 1) return py::cast(res[0]);
        return py::cast(res);
      }, py::arg("size") = py::none(), py::arg("types") = py::none());

  py::class_<kernels::ReductionSpec, std::shared_ptr<kernels::ReductionSpec>>(m, "_ReductionSpec")
      .def(py::init([](const std::string& in, const std::string& out, const std::string& map_expr,
                       const std::string& reduce_expr, const std::string& post_map_expr, const std::string& identity,
                       const std::string& name, const std::string& reduce_type, const std::string& preamble,
                       std::vector<std::string> options) {
             return kernels::ReductionSpec::create(name, in, out, map_expr, reduce_expr, post_map_expr, identity,
                                                   reduce_type, preamble, options);
           }),
           py::arg("in_params"), py::arg("out_params"), py::arg("map_expr"), py::arg("reduce_expr"),
           py::arg("post_map_expr"), py::arg("identity"), py::arg("name"), py::arg("reduce_type"),
           py::arg("preamble") = "", py::arg("options") = std::vector<std::string>{})
      .def("__call__", [](const kernels::ReductionSpec& s, py::args args, py::object axis, bool keepdims,
                          py::object types) {
        size_t nin = s.in_params.size(), nout = s.out_params.size();
        if (args.size() != nin && args.size() != nin + nout)
          throw TypeError("Wrong number of arguments for '" + s.name + "'");
        std::vector<kernels::ParamSpec> params = s.in_params;
        params.insert(params.end(), s.out_params.begin(), s.out_params.end());
        kernels::TypeBindings b;
        std::vector<Array> all = kernel_args(params, args, args.size(), &b, bindings_from_dict(types));
        std::vector<Array> ins(all.begin(), all.begin() + nin);
        std::vector<Array> outs(all.begin() + nin, all.end());
        bool all_axes = axis.is_none();
        std::vector<int64_t> ax = all_axes ? std::vector<int64_t>{} : to_int_list(axis);
        std::vector<Array> res = kernels::call_reduction(s, ins, outs, ax, all_axes, keepdims, b);
        if (res.size() == 1) return py::cast(res[0]);
        return py::cast(res);
      }, py::arg("axis") = py::none(), py::arg("keepdims") = false, py::arg("types") = py::none());

  m.def("kernel_cache_stats", [] {
    kernels::KernelCacheStats s = kernels::kernel_cache_stats();
    py::dict d;
    d["memory_hits"] = s.memory_hits;
    d["disk_hits"] = s.disk_hits;
    d["host_compiles"] = s.host_compiles;
    d["cuda_compiles"] = s.cuda_compiles;
    d["cuda_disk_hits"] = s.cuda_disk_hits;
    d["host_compile_seconds"] = s.host_compile_seconds;
    d["cuda_compile_seconds"] = s.cuda_compile_seconds;
    return d;
  });
  m.def("kernel_cache_dir", &kernels::cache_dir);
  m.def("verify_cuda_enabled", &kernels::verify_cuda_enabled);
  m.def("emulate_cuda_enabled", &kernels::emulate_cuda_enabled);
  m.def("_set_emulate_cuda", &kernels::set_emulate_cuda, py::arg("on"));
  m.def("_emulated_cuda_launches", &kernels::emulated_cuda_launches);
  m.def("_clear_kernel_memory_cache", &kernels::clear_memory_cache);
  m.def("_generate_reduction_source", [](const kernels::ReductionSpec& s, py::dict bindings, bool cuda) {
    kernels::ReductionSignature sig;
    sig.bindings = bindings_from_dict(bindings);
    sig.param_dtypes = sig.array_dtypes = bound_param_dtypes(s.name, s.in_params, s.out_params, sig.bindings);
    sig.reduce_type = kernels::resolve_c_type(s.reduce_type, sig.bindings);
    return kernels::generate_reduction(s, sig, cuda ? kernels::Target::kCuda : kernels::Target::kHost);
  });
  m.def("_generate_elementwise_source", [](const kernels::ElementwiseSpec& s, py::dict bindings, bool cuda) {
    kernels::ElementwiseSignature sig;
    sig.bindings = bindings_from_dict(bindings);
    sig.param_dtypes = sig.array_dtypes = bound_param_dtypes(s.name, s.in_params, s.out_params, sig.bindings);
    return kernels::generate_elementwise(s, sig, cuda ? kernels::Target::kCuda : kernels::Target::kHost);
  });
}

}  // namespace py_bind
}  // namespace kumo
