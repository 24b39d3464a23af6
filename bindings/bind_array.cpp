// kumo._core.ndarray: the array type. Python-level methods that are
// composites of these live in python/kumo/_ndarray.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/convert.h"
#include "core/errors.h"
#include "core/fp_errors.h"
#include "core/warnings.h"
#include "kernels/scalar_assign.h"
#include "kernels/copy.h"
#include "routines/indexing.h"
#include "routines/manipulation.h"
#include "routines/ufunc_table.h"

namespace kumo {
namespace py_bind {

namespace {

// The Python-level assignment for values the C++ fast path does not take.
py::object& setitem_fallback() {
  static py::object* fn = new py::object();
  return *fn;
}

// A Python index expression as kumo::Index components; `advanced` tells
// whether any of them is an array or a boolean (else it is a basic index).
struct ParsedIndex {
  std::vector<Index> components;
  bool advanced = false;
  std::vector<IndexItem> basic() const {
    std::vector<IndexItem> items;
    items.reserve(components.size());
    for (const Index& c : components) items.push_back(c.item());
    return items;
  }
};

int64_t index_integer(PyObject* o) {
  PyObject* idx = PyNumber_Index(o);
  if (!idx) throw py::error_already_set();
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  if (overflow) throw IndexError("cannot fit 'int' into an index-sized integer");
  return x;
}

// Lists, tuples inside a tuple, NumPy arrays and other array-likes: an
// index array on `device` (an empty list indexes as an empty integer array).
Array index_array(py::handle k, Device& device) {
  Array arr = to_array_required(k, &device);
  if (arr.size() == 0 && PySequence_Check(k.ptr()) && !py::isinstance<py::array>(k) && !py::isinstance<Array>(k))
    return arr.astype(Dtype::kInt64);
  if (arr.dtype() != Dtype::kBool && !is_integer(arr.dtype()))
    throw IndexError("arrays used as indices must be of integer (or boolean) type");
  return arr;
}

ParsedIndex parse_index(py::handle key, Device& device) {
  ParsedIndex parsed;
  std::vector<Index>& items = parsed.components;
  static PyObject* numpy_bool = py::module_::import("numpy").attr("bool_").ptr();
  auto one = [&](py::handle k) {
    PyObject* o = k.ptr();
    if (o == Py_None) {
      items.emplace_back(IndexItem::new_axis());
    } else if (o == Py_Ellipsis) {
      items.emplace_back(IndexItem::ellipsis());
    } else if (PySlice_Check(o)) {
      PySliceObject* s = reinterpret_cast<PySliceObject*>(o);
      auto get = [](PyObject* v) -> std::optional<int64_t> {
        if (v == Py_None) return std::nullopt;
        PyObject* idx = PyNumber_Index(v);
        if (!idx) {
          PyErr_Clear();
          throw IndexError("slice indices must be integers or None or have an __index__ method");
        }
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(idx, &overflow);
        Py_DECREF(idx);
        if (overflow) x = overflow > 0 ? INT64_MAX / 2 : -(INT64_MAX / 2);
        return static_cast<int64_t>(x);
      };
      std::optional<int64_t> st = get(s->step);
      items.emplace_back(IndexItem::slice(get(s->start), get(s->stop), st.value_or(1)));
    } else if (PyBool_Check(o) || PyObject_TypeCheck(o, reinterpret_cast<PyTypeObject*>(numpy_bool))) {
      items.emplace_back(PyObject_IsTrue(o) == 1);
      parsed.advanced = true;
    } else if (PyLong_Check(o)) {
      items.emplace_back(IndexItem::integer(index_integer(o)));
    } else if (py::isinstance<Array>(k) || py::isinstance<py::array>(k)) {
      // A 0-d integer array is an index array too (NumPy's): the result has
      // the shape an integer would give, but it is a copy, not a view.
      items.emplace_back(index_array(k, device));
      parsed.advanced = true;
    } else if (!PySequence_Check(o) && PyIndex_Check(o)) {
      items.emplace_back(IndexItem::integer(index_integer(o)));
    } else if (PySequence_Check(o) && !PyUnicode_Check(o) && !PyBytes_Check(o)) {
      items.emplace_back(index_array(k, device));
      parsed.advanced = true;
    } else {
      throw IndexError(
          "only integers, slices (`:`), ellipsis (`...`), kumo.newaxis (`None`) and integer or boolean arrays "
          "are valid indices");
    }
  };
  if (PyTuple_Check(key.ptr())) {
    for (py::handle k : key) one(k);
  } else {
    one(key);
  }
  return parsed;
}

}  // namespace

std::vector<Index> index_components(py::handle key, Device& device) { return parse_index(key, device).components; }

py::object array_getitem(py::handle self, py::handle key) {
  const Array& a = py::cast<const Array&>(self);
  ParsedIndex idx = parse_index(key, a.device());
  if (!idx.advanced) return wrap_array(a.index(idx.basic()), self);
  return wrap_array(getitem(a, idx.components), py::none());
}

namespace {

void assign(const Array& dst, py::handle value) {
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  if (is_python_scalar(value)) {
    kernels::ScalarValue v = kernels::assigned_scalar(to_scalar_value(value), dst.dtype());
    std::vector<char> bytes(static_cast<size_t>(dst.itemsize()));
    kernels::store_scalar(v, dst.dtype(), bytes.data());
    kernels::fill_bytes(dst, bytes.data());
    return;
  }
  Array src = to_array_required(value, &dst.device());
  check_same_device({&src, &dst});
  warn_if_complex_to_real(src.dtype(), dst.dtype());
  take_fp_flags();
  src.copy_to(dst);
  check_fp_errors("cast");
}

// a[key] = value for a Python scalar or an array-like value.
// NumPy's order of errors: a read-only destination first; then a basic
// index before the value's conversion, the value before index arrays.
void assign_at(const Array& a, py::handle key, py::handle value) {
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  ParsedIndex idx = parse_index(key, a.device());
  const bool scalar = is_python_scalar(value);
  if (!idx.advanced && scalar) {
    assign(a.index(idx.basic()), value);
    return;
  }
  // With index arrays NumPy converts the value before it checks the indices'
  // bounds and broadcasting.
  Array v = scalar ? kernels::scalar_to_array(kernels::assigned_scalar(to_scalar_value(value), a.dtype()), a.dtype(),
                                              a.device())
                   : to_array_required(value, &a.device());
  warn_if_complex_to_real(v.dtype(), a.dtype());
  setitem(a, idx.components, v);
}

py::tuple dims_tuple(const Dims& d) {
  py::tuple t(d.size());
  for (int i = 0; i < d.size(); ++i) t[i] = py::int_(d[i]);
  return t;
}

std::vector<int64_t> axes_from_args(const py::args& args) {
  if (args.size() == 1 && !args[0].is_none() && PySequence_Check(args[0].ptr())) return to_int_list(args[0]);
  std::vector<int64_t> out;
  for (py::handle a : args) out.push_back(py::cast<int64_t>(a));
  return out;
}

}  // namespace

void bind_array(py::module_& m) {
  py::class_<Array> cls(m, "ndarray", py::dynamic_attr(), py::buffer_protocol());
  // Host arrays export their memory directly (no copy); CUDA arrays cannot.
  cls.def_buffer([](const Array& a) -> py::buffer_info {
    if (a.device().type() != DeviceType::kCPU)
      throw TypeError("the buffer protocol is only available for host (CPU) arrays; use .get()");
    static const char* formats[] = {"?", "b", "B", "h", "H", "i", "I", "q", "Q", "e", "f", "d", "Zf", "Zd"};
    std::vector<py::ssize_t> shape(a.shape().begin(), a.shape().end());
    std::vector<py::ssize_t> strides(a.strides().begin(), a.strides().end());
    return py::buffer_info(a.data(), a.itemsize(), formats[static_cast<int>(a.dtype())], a.ndim(), shape, strides,
                           !a.writeable());
  });
  // numpy.ndarray(shape, dtype=float, buffer=None, offset=0, strides=None,
  // order=None): a new uninitialised array, or a view of `buffer` (a kumo
  // array, or any object with the buffer protocol, viewed on the host).
  // Strides and offset are in bytes and are checked against the memory
  // (as_strided), so no view reaches outside it.
  cls.def(py::init([](py::handle shape, py::handle dtype, py::handle buffer, int64_t offset, py::handle strides,
                      py::handle order) {
            const Shape s = to_shape(shape);
            const Dtype dt = dtype.is_none() ? Dtype::kFloat64 : to_dtype_required(dtype);
            const Order ord = order.is_none() ? Order::kC : to_order(order);
            if (ord != Order::kC && ord != Order::kF) throw ValueError("order must be one of 'C', 'F' (got 'A' or 'K')");
            const int64_t item = static_cast<int64_t>(itemsize(dt));
            if (buffer.is_none() && strides.is_none()) {
              if (offset != 0) throw ValueError("offset is only valid with a buffer");
              return Array::empty(s, dt, current_device(), ord);
            }
            Strides st(s.size());
            if (strides.is_none()) {
              int64_t step = item;
              for (int k = 0; k < s.size(); ++k) {
                const int d = ord == Order::kC ? s.size() - 1 - k : k;
                st[d] = step;
                step *= std::max<int64_t>(s[d], 1);
              }
            } else {
              st = Strides(to_int_list(strides));
            }
            Array base;
            if (buffer.is_none()) {
              // NumPy allocates the shape's elements; the strides must fit in them.
              if (offset != 0) throw ValueError("offset is only valid with a buffer");
              const Array block = Array::empty(Shape{std::max<int64_t>(shape_size(s), 1)}, dt, current_device());
              base = Array(block.memory(), 0, Shape{}, Strides{}, dt);
            } else if (py::isinstance<Array>(buffer)) {
              const Array& b = py::cast<const Array&>(buffer);
              base = Array(b.memory(), b.offset(), Shape{}, Strides{}, dt, b.writeable());
            } else {
              const Array bytes = py::cast<Array>(py::module_::import("kumo").attr("frombuffer")(buffer, "uint8"));
              base = Array(bytes.memory(), bytes.offset(), Shape{}, Strides{}, dt, bytes.writeable());
            }
            return as_strided(base, s, st, offset, base.writeable());
          }),
          py::arg("shape"), py::arg("dtype") = py::none(), py::arg("buffer") = py::none(), py::arg("offset") = 0,
          py::arg("strides") = py::none(), py::arg("order") = py::none());
  cls.def_property_readonly("shape", [](const Array& a) { return dims_tuple(a.shape()); })
      .def_property_readonly("strides", [](const Array& a) { return dims_tuple(a.strides()); })
      .def_property_readonly("dtype", [](const Array& a) { return numpy_dtype(a.dtype()); })
      .def_property_readonly("ndim", &Array::ndim)
      .def_property_readonly("size", &Array::size)
      .def_property_readonly("itemsize", &Array::itemsize)
      .def_property_readonly("nbytes", &Array::nbytes)
      .def_property_readonly("_c_contiguous", &Array::c_contiguous)
      .def_property_readonly("_f_contiguous", &Array::f_contiguous)
      .def_property("_writeable", &Array::writeable, &Array::set_writeable)
      .def_property_readonly("_owndata", [](py::handle self) { return view_base(self).is_none(); })
      .def_property_readonly("base", [](py::handle self) { return view_base(self); })
      .def_property_readonly("_ptr", [](const Array& a) { return reinterpret_cast<uintptr_t>(a.data()); })
      .def_property_readonly("_device_name", [](const Array& a) { return a.device().name(); })
      .def_property_readonly("_device_index", [](const Array& a) { return a.device().index(); })
      .def_property_readonly("_is_cuda", [](const Array& a) { return a.device().type() == DeviceType::kCUDA; })
      .def("_same_memory", [](const Array& a, const Array& b) { return a.memory() == b.memory(); })
      .def("__len__",
           [](const Array& a) {
             if (a.ndim() == 0) throw TypeError("len() of unsized object");
             return a.shape()[0];
           })
      .def("__getitem__", &array_getitem)
      .def("__setitem__", [](py::handle self, py::handle key, py::handle value) {
        // Python ints and bools, and floats into inexact arrays, are stored
        // here; other values take NumPy's conversion rules in Python.
        const Array& a = py::cast<const Array&>(self);
        PyTypeObject* t = Py_TYPE(value.ptr());
        if (t == &PyLong_Type || t == &PyBool_Type || (t == &PyFloat_Type && is_inexact(a.dtype()))) {
          assign_at(a, key, value);
          return;
        }
        setitem_fallback()(self, key, value);
      })
      .def("_setitem_raw", &assign_at)
      // ufunc.at(a, key[, b]) of a built-in ufunc on the array's device;
      // Python scalars are weak operands, as in a ufunc call.
      .def("_ufunc_at", [](const Array& a, const std::string& name, py::handle key, py::handle b) {
        ParsedIndex idx = parse_index(key, a.device());
        const kernels::Ufunc& ufunc = builtin_ufunc(name);
        if (b.is_none()) {
          ufunc_at(ufunc, a, idx.components);
          return;
        }
        kernels::UfuncOperand operand = is_python_scalar(b)
                                            ? kernels::UfuncOperand(to_scalar_value(b))
                                            : kernels::UfuncOperand(to_array_required(b, &a.device()));
        // NumPy casts the values to a's dtype unsafely: a complex one drops
        // its imaginary part with a ComplexWarning; the loop's
        // floating-point errors are reported as the ufunc's.
        // (A Python complex is a complex128.)
        warn_if_complex_to_real(operand.is_scalar ? (operand.scalar.kind == WeakScalar::kComplex ? Dtype::kComplex128
                                                                                                : a.dtype())
                                                  : operand.array().dtype(),
                                a.dtype());
        take_fp_flags();
        ufunc_at(ufunc, a, idx.components, &operand);
        check_fp_errors(name);
      })
      .def_static("_set_setitem_fallback", [](py::object fn) { setitem_fallback() = std::move(fn); })
      .def("_assign", [](const Array& a, py::handle value) { assign(a, value); })
      .def("reshape", [](py::handle self, py::args args, py::kwargs kw) {
        const Array& a = py::cast<const Array&>(self);
        Order order = Order::kC;
        if (kw.contains("order")) order = to_order(kw["order"]);
        if (kw.contains("copy") && !kw["copy"].is_none()) {
          bool c = py::cast<bool>(kw["copy"]);
          if (c) {
            Array r = a.copy(order == Order::kF ? Order::kF : Order::kC);
            py::object shape_obj = args.size() == 1 ? args[0] : py::object(args);
            return wrap_array(r.reshape(to_shape(shape_obj), order), py::none());
          }
          py::object shape_obj = args.size() == 1 ? args[0] : py::object(args);
          auto v = a.reshape_view(to_shape(shape_obj), order);
          if (!v) throw ValueError("Unable to avoid creating a copy while reshaping.");
          return wrap_array(*v, self);
        }
        if (kw.contains("shape")) return wrap_array(a.reshape(to_shape(kw["shape"]), order), self);
        if (args.size() == 0) throw TypeError("reshape() takes exactly 1 argument (0 given)");
        py::object shape_obj = args.size() == 1 ? py::object(args[0]) : py::object(args);
        return wrap_array(a.reshape(to_shape(shape_obj), order), self);
      })
      .def("ravel", [](py::handle self, py::object order) {
        return wrap_array(py::cast<const Array&>(self).ravel(order.is_none() ? Order::kC : to_order(order)), self);
      }, py::arg("order") = "C")
      .def("transpose", [](py::handle self, py::args args) {
        const Array& a = py::cast<const Array&>(self);
        if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) return wrap_array(a.transpose(), self);
        return wrap_array(a.transpose(axes_from_args(args)), self);
      })
      .def("swapaxes", [](py::handle self, int64_t a1, int64_t a2) {
        return wrap_array(py::cast<const Array&>(self).swapaxes(a1, a2), self);
      })
      .def("squeeze", [](py::handle self, py::object axis) {
        const Array& a = py::cast<const Array&>(self);
        if (axis.is_none()) return wrap_array(a.squeeze(), self);
        return wrap_array(a.squeeze(to_int_list(axis)), self);
      }, py::arg("axis") = py::none())
      .def("_expand_dims", [](py::handle self, py::object axis) {
        return wrap_array(py::cast<const Array&>(self).expand_dims(to_int_list(axis)), self);
      })
      .def("_broadcast_to", [](py::handle self, py::object shape) {
        return wrap_array(py::cast<const Array&>(self).broadcast_to(to_shape(shape)), self);
      })
      .def("_diagonal", [](py::handle self, int64_t offset, int64_t a1, int64_t a2) {
        return wrap_array(py::cast<const Array&>(self).diagonal(offset, a1, a2), self);
      })
      .def("_view_dtype", [](py::handle self, py::object dtype) {
        return wrap_array(py::cast<const Array&>(self).view_as(to_dtype_required(dtype)), self);
      })
      .def("_real_view", [](py::handle self) { return wrap_array(py::cast<const Array&>(self).real_view(), self); })
      .def("_imag_view", [](py::handle self) { return wrap_array(py::cast<const Array&>(self).imag_view(), self); })
      .def("_with_strides", [](py::handle self, py::object shape, py::object strides, int64_t offset) {
        const Array& a = py::cast<const Array&>(self);
        return wrap_array(a.view_with(to_shape(shape), Strides(to_int_list(strides)), offset), self);
      })
      .def("astype", [](py::handle self, py::object dtype, py::object order, py::object casting, py::object subok,
                        bool copy) {
        const Array& a = py::cast<const Array&>(self);
        Dtype d = to_dtype_required(dtype);
        Casting c = casting.is_none() ? Casting::kUnsafe : casting_from_name(py::str(casting));
        if (!can_cast(a.dtype(), d, c))
          throw TypeError(std::string("Cannot cast array data from dtype('") + dtype_name(a.dtype()) + "') to dtype('" +
                          dtype_name(d) + "') according to the rule '" + casting_name(c) + "'");
        warn_if_complex_to_real(a.dtype(), d);
        take_fp_flags();
        Array r = a.astype(d, to_order(order), copy);
        check_fp_errors("cast");
        return r.memory() == a.memory() ? py::reinterpret_borrow<py::object>(self) : py::cast(r);
      }, py::arg("dtype"), py::arg("order") = "K", py::arg("casting") = py::none(), py::arg("subok") = py::none(),
         py::arg("copy") = true)
      .def("copy", [](const Array& a, py::object order) { return a.copy(to_order(order.is_none() ? py::str("C") : order)); },
           py::arg("order") = "C")
      .def("_to_device", [](const Array& a, const std::string& spec) { return a.to_device(get_device(spec)); })
      .def("_numpy_view", [](py::handle self) { return to_numpy(py::cast<const Array&>(self), self); });
}

}  // namespace py_bind
}  // namespace kumo
