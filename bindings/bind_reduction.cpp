// kumo._core reductions: NumPy's keyword arguments parsed once into the C++
// routines of routines/reduction.h (the Python layer only forwards them).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/convert.h"
#include "core/errors.h"
#include "routines/reduction.h"

namespace kumo {
namespace py_bind {

namespace {

// A Python or NumPy scalar (or a size-1 array) as a weak C++ number.
Scalar to_scalar(py::handle obj) {
  if (is_python_scalar(obj)) return Scalar(to_scalar_value(obj));
  Array a = to_array_required(obj);
  switch (kind(a.dtype())) {
    case DtypeKind::kBool:
      return Scalar(a.item<bool>());
    case DtypeKind::kSigned:
      return Scalar(a.astype(Dtype::kInt64).item<int64_t>());
    case DtypeKind::kUnsigned:
      return Scalar(a.astype(Dtype::kUInt64).item<uint64_t>());
    case DtypeKind::kFloat:
      return Scalar(a.astype(Dtype::kFloat64).item<double>());
    default:
      return Scalar(a.astype(Dtype::kComplex128).item<std::complex<double>>());
  }
}

// out= as NumPy takes it for reductions: an array or a 1-tuple holding one.
py::object out_object(py::object out) {
  if (PyTuple_Check(out.ptr())) {
    py::tuple t = out;
    if (t.size() != 1) throw ValueError("The 'out' tuple must have exactly one entry");
    out = t[0];
  }
  if (!out.is_none() && !py::isinstance<Array>(out)) throw TypeError("output must be an array");
  return out;
}

// NumPy's "no value" default of initial= (kumo._NoValue): None means the same.
py::object& no_value() {
  static py::object* sentinel = new py::object(py::module_::import("builtins").attr("object")());
  return *sentinel;
}

// Fills the options common to every reduction from Python's keywords.
template <class Options>
Options make_options(py::handle dtype, const py::object& out, bool keepdims, py::handle initial, py::handle where) {
  Options o;
  if (!dtype.is_none()) o.dtype(to_dtype_required(dtype));
  if (!out.is_none()) o.out(py::cast<const Array&>(out));
  o.keepdims(keepdims);
  if (!initial.is_none() && !initial.is(no_value())) o.initial(to_scalar(initial));
  if (!(where.ptr() == Py_True)) o.where(to_array_required(where));
  return o;
}

// NumPy returns the very object passed as out=.
py::object result(Array&& r, const py::object& out) { return out.is_none() ? new_ndarray(std::move(r)) : out; }

using AxesFn = Array (*)(const Array&, const Axes&, const ReduceOptions&);
using VarFn = Array (*)(const Array&, const Axes&, const VarOptions&);
using ArgFn = Array (*)(const Array&, std::optional<int64_t>, const ReduceOptions&);

// Each reduction is bound twice with NumPy's signatures: as a function
// (kumo.sum(a, axis=...)) and as an ndarray method (a.sum(axis=...)), both
// straight to C++ with no Python frame in between. `Target` is the module
// or the ndarray class; methods take no "a" argument name.
struct Binder {
  py::module_& m;
  py::class_<Array>& cls;
  template <class Fn, class... Args>
  void both(const char* fn_name, const char* method_name, Fn fn, Args... args) const {
    m.def(fn_name, fn, py::arg("a"), args...);
    if (method_name) cls.def(method_name, fn, args...);
  }
};

void def_axes(const Binder& b, const char* name, const char* method, AxesFn fn, bool with_dtype, bool with_initial) {
  auto impl = [fn](py::handle a, py::handle axis, py::handle dtype, py::object out, bool keepdims, py::handle initial,
                   py::handle where) {
    out = out_object(out);
    Array storage;
    ReduceOptions o = make_options<ReduceOptions>(dtype, out, keepdims, initial, where);
    return result(fn(array_ref(a, &storage), to_axes(axis), o), out);
  };
  if (with_dtype && with_initial) {
    b.both(name, method, impl, py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
           py::arg("out") = py::none(), py::arg("keepdims") = false, py::arg("initial") = no_value(),
           py::arg("where") = true);
  } else if (with_initial) {
    b.both(name, method,
           [impl](py::handle a, py::handle axis, py::object out, bool keepdims, py::handle initial,
                  py::handle where) { return impl(a, axis, py::none(), out, keepdims, initial, where); },
           py::arg("axis") = py::none(), py::arg("out") = py::none(), py::arg("keepdims") = false,
           py::arg("initial") = no_value(), py::arg("where") = true);
  } else if (with_dtype) {
    b.both(name, method,
           [impl](py::handle a, py::handle axis, py::handle dtype, py::object out, bool keepdims, py::handle where) {
             return impl(a, axis, dtype, out, keepdims, py::none(), where);
           },
           py::arg("axis") = py::none(), py::arg("dtype") = py::none(), py::arg("out") = py::none(),
           py::arg("keepdims") = false, py::kw_only(), py::arg("where") = true);
  } else {
    b.both(name, method,
           [impl](py::handle a, py::handle axis, py::object out, bool keepdims, py::handle where) {
             return impl(a, axis, py::none(), out, keepdims, py::none(), where);
           },
           py::arg("axis") = py::none(), py::arg("out") = py::none(), py::arg("keepdims") = false, py::kw_only(),
           py::arg("where") = true);
  }
}

void def_var(const Binder& b, const char* name, const char* method, VarFn fn) {
  b.both(name, method,
         [fn](py::handle a, py::handle axis, py::handle dtype, py::object out, double ddof, bool keepdims,
              py::handle where, py::handle mean, py::handle correction) {
           out = out_object(out);
           Array storage;
           VarOptions o = make_options<VarOptions>(dtype, out, keepdims, py::none(), where);
           o.ddof(ddof);
           if (!correction.is_none()) o.correction(py::cast<double>(correction));
           if (!mean.is_none()) o.mean(to_array_required(mean));
           return result(fn(array_ref(a, &storage), to_axes(axis), o), out);
         },
         py::arg("axis") = py::none(), py::arg("dtype") = py::none(), py::arg("out") = py::none(),
         py::arg("ddof") = 0.0, py::arg("keepdims") = false, py::kw_only(), py::arg("where") = true,
         py::arg("mean") = py::none(), py::arg("correction") = py::none());
}

void def_arg(const Binder& b, const char* name, const char* method, ArgFn fn) {
  b.both(name, method,
         [fn](py::handle a, py::handle axis, py::object out, bool keepdims) {
           out = out_object(out);
           Array storage;
           ReduceOptions o = make_options<ReduceOptions>(py::none(), out, keepdims, py::none(), Py_True);
           return result(fn(array_ref(a, &storage), to_optional_axis(axis), o), out);
         },
         py::arg("axis") = py::none(), py::arg("out") = py::none(), py::kw_only(), py::arg("keepdims") = false);
}

// cumsum & co.: axis=None scans the flattened array.
void def_scan(const Binder& b, const char* name, const char* method, ArgFn fn) {
  b.both(name, method,
         [fn](py::handle a, py::handle axis, py::handle dtype, py::object out) {
           out = out_object(out);
           Array storage;
           ReduceOptions o = make_options<ReduceOptions>(dtype, out, false, py::none(), Py_True);
           return result(fn(array_ref(a, &storage), to_optional_axis(axis), o), out);
         },
         py::arg("axis") = py::none(), py::arg("dtype") = py::none(), py::arg("out") = py::none());
}

}  // namespace

void bind_reduction(py::module_& m) {
  m.attr("_NoValue") = no_value();
  py::class_<Array> cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  const Binder b{m, cls};
  // Function pointers to the overload-free routines. Each row: the kumo
  // function, the ndarray method (null: none), whether it takes dtype= and initial=.
  def_axes(b, "sum", "sum", [](const Array& a, const Axes& x, const ReduceOptions& o) { return sum(a, x, o); }, true,
           true);
  def_axes(b, "prod", "prod", [](const Array& a, const Axes& x, const ReduceOptions& o) { return prod(a, x, o); },
           true, true);
  def_axes(b, "max", "max", [](const Array& a, const Axes& x, const ReduceOptions& o) { return max(a, x, o); },
           false, true);
  def_axes(b, "min", "min", [](const Array& a, const Axes& x, const ReduceOptions& o) { return min(a, x, o); },
           false, true);
  def_axes(b, "all", "all", [](const Array& a, const Axes& x, const ReduceOptions& o) { return all(a, x, o); },
           false, false);
  def_axes(b, "any", "any", [](const Array& a, const Axes& x, const ReduceOptions& o) { return any(a, x, o); },
           false, false);
  def_axes(b, "mean", "mean", [](const Array& a, const Axes& x, const ReduceOptions& o) { return mean(a, x, o); },
           true, false);
  def_axes(b, "nansum", nullptr,
           [](const Array& a, const Axes& x, const ReduceOptions& o) { return nansum(a, x, o); }, true, true);
  def_axes(b, "nanprod", nullptr,
           [](const Array& a, const Axes& x, const ReduceOptions& o) { return nanprod(a, x, o); }, true, true);
  def_axes(b, "nanmax", nullptr,
           [](const Array& a, const Axes& x, const ReduceOptions& o) { return nanmax(a, x, o); }, false, true);
  def_axes(b, "nanmin", nullptr,
           [](const Array& a, const Axes& x, const ReduceOptions& o) { return nanmin(a, x, o); }, false, true);
  def_axes(b, "nanmean", nullptr,
           [](const Array& a, const Axes& x, const ReduceOptions& o) { return nanmean(a, x, o); }, true, false);
  def_var(b, "var", "var", [](const Array& a, const Axes& x, const VarOptions& o) { return var(a, x, o); });
  def_var(b, "std", "std", [](const Array& a, const Axes& x, const VarOptions& o) { return kumo::std(a, x, o); });
  def_var(b, "nanvar", nullptr, [](const Array& a, const Axes& x, const VarOptions& o) { return nanvar(a, x, o); });
  def_var(b, "nanstd", nullptr, [](const Array& a, const Axes& x, const VarOptions& o) { return nanstd(a, x, o); });
  using OptAxis = std::optional<int64_t>;
  def_arg(b, "argmax", "argmax", [](const Array& a, OptAxis x, const ReduceOptions& o) { return argmax(a, x, o); });
  def_arg(b, "argmin", "argmin", [](const Array& a, OptAxis x, const ReduceOptions& o) { return argmin(a, x, o); });
  def_arg(b, "nanargmax", nullptr,
          [](const Array& a, OptAxis x, const ReduceOptions& o) { return nanargmax(a, x, o); });
  def_arg(b, "nanargmin", nullptr,
          [](const Array& a, OptAxis x, const ReduceOptions& o) { return nanargmin(a, x, o); });
  def_scan(b, "cumsum", "cumsum", [](const Array& a, OptAxis x, const ReduceOptions& o) { return cumsum(a, x, o); });
  def_scan(b, "cumprod", "cumprod",
           [](const Array& a, OptAxis x, const ReduceOptions& o) { return cumprod(a, x, o); });
  def_scan(b, "nancumsum", nullptr,
           [](const Array& a, OptAxis x, const ReduceOptions& o) { return nancumsum(a, x, o); });
  def_scan(b, "nancumprod", nullptr,
           [](const Array& a, OptAxis x, const ReduceOptions& o) { return nancumprod(a, x, o); });
  // ptp: NumPy 2 dropped the method; CuPy's ndarray still has it, and so does kumo's.
  def_axes(b, "ptp", "ptp", [](const Array& a, const Axes& x, const ReduceOptions& o) { return ptp(a, x, o); },
           false, false);
  m.def("_count_nonzero", [](py::handle a, py::handle axis, bool keepdims) {
    return count_nonzero(to_array_required(a), to_axes(axis), keepdims);
  }, py::arg("a"), py::arg("axis") = py::none(), py::arg("keepdims") = false);

  // ufunc.reduce / ufunc.accumulate (NumPy's default axis is 0).
  m.def("_ufunc_reduce",
        [](const kernels::Ufunc& u, py::handle a, py::handle axis, py::handle dtype, py::object out, bool keepdims,
           py::handle initial, py::handle where) {
          out = out_object(out);
          ReduceOptions o = make_options<ReduceOptions>(dtype, out, keepdims, initial, where);
          return result(reduce(u, to_array_required(a), to_axes(axis), o), out);
        },
        py::arg("ufunc"), py::arg("array"), py::arg("axis") = 0, py::arg("dtype") = py::none(),
        py::arg("out") = py::none(), py::arg("keepdims") = false, py::arg("initial") = py::none(),
        py::arg("where") = true);
  m.def("_ufunc_reduceat",
        [](const kernels::Ufunc& u, py::handle a, py::handle indices, py::handle axis, py::handle dtype,
           py::object out) {
          out = out_object(out);
          ReduceOptions o = make_options<ReduceOptions>(dtype, out, false, py::none(), Py_True);
          Array idx = to_array_required(indices);
          if (idx.ndim() != 1) throw ValueError("object too deep for desired array");
          if (!is_integer(idx.dtype()) && idx.size() > 0)
            throw TypeError("Cannot cast array data from " + dtype_repr(idx.dtype()) +
                            " to dtype('int64') according to the rule 'safe'");
          std::optional<int64_t> ax = to_optional_axis(axis);
          return result(reduceat(u, to_array_required(a), idx.to_vector<int64_t>(), ax ? *ax : 0, o), out);
        },
        py::arg("ufunc"), py::arg("array"), py::arg("indices"), py::arg("axis") = 0, py::arg("dtype") = py::none(),
        py::arg("out") = py::none());
  m.def("_ufunc_accumulate",
        [](const kernels::Ufunc& u, py::handle a, py::handle axis, py::handle dtype, py::object out) {
          out = out_object(out);
          ReduceOptions o = make_options<ReduceOptions>(dtype, out, false, py::none(), Py_True);
          std::optional<int64_t> ax = to_optional_axis(axis);
          // axis=None accumulates the flattened array in NumPy only for 1-D input; kumo keeps axis 0.
          return result(accumulate(u, to_array_required(a), ax ? *ax : 0, o), out);
        },
        py::arg("ufunc"), py::arg("array"), py::arg("axis") = 0, py::arg("dtype") = py::none(),
        py::arg("out") = py::none());
}

}  // namespace py_bind
}  // namespace kumo
