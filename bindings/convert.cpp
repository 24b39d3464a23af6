#include "bindings/convert.h"

#include <array>
#include <cstring>
#include <memory>
#include <type_traits>

#include "core/errors.h"

namespace kumo {
namespace py_bind {

namespace {

py::module_& numpy() {
  static py::module_* np = new py::module_(py::module_::import("numpy"));
  return *np;
}

const std::array<py::object, kNumDtypes>& dtype_objects() {
  static auto* objs = [] {
    auto* a = new std::array<py::object, kNumDtypes>();
    for (int i = 0; i < kNumDtypes; ++i) (*a)[i] = numpy().attr("dtype")(dtype_name(static_cast<Dtype>(i)));
    return a;
  }();
  return *objs;
}

py::dict& dtype_cache() {
  static py::dict* d = new py::dict();
  return *d;
}

std::optional<Dtype> dtype_from_char(char c) {
  switch (c) {
    case '?': return Dtype::kBool;
    case 'b': return Dtype::kInt8;
    case 'B': return Dtype::kUInt8;
    case 'h': return Dtype::kInt16;
    case 'H': return Dtype::kUInt16;
    case 'i': return Dtype::kInt32;
    case 'I': return Dtype::kUInt32;
    case 'l': case 'q': case 'p': return Dtype::kInt64;
    case 'L': case 'Q': case 'P': return Dtype::kUInt64;
    case 'e': return Dtype::kFloat16;
    case 'f': return Dtype::kFloat32;
    case 'd': return Dtype::kFloat64;
    case 'F': return Dtype::kComplex64;
    case 'D': return Dtype::kComplex128;
  }
  return std::nullopt;
}

}  // namespace

py::object numpy_dtype(Dtype d) { return dtype_objects()[static_cast<int>(d)]; }

std::optional<Dtype> to_dtype(py::handle obj) {
  if (obj.is_none()) return std::nullopt;
  PyObject* key = obj.ptr();
  bool hashable = PyObject_Hash(key) != -1;
  if (!hashable) PyErr_Clear();
  if (hashable) {
    PyObject* hit = PyDict_GetItem(dtype_cache().ptr(), key);
    if (hit) return static_cast<Dtype>(PyLong_AsLong(hit));
  }
  py::object dt;
  try {
    dt = numpy().attr("dtype")(obj);
  } catch (py::error_already_set& e) {
    throw TypeError("data type " + std::string(py::repr(obj)) + " not understood");
  }
  std::string ch = py::str(dt.attr("char"));
  std::optional<Dtype> d = ch.size() == 1 ? dtype_from_char(ch[0]) : std::nullopt;
  if (!d || std::string(py::str(dt.attr("byteorder"))) == ">")
    throw TypeError("kumo does not support the data type " + std::string(py::str(dt)));
  if (hashable) dtype_cache()[obj] = py::int_(static_cast<int>(*d));
  return d;
}

Dtype to_dtype_required(py::handle obj) {
  auto d = to_dtype(obj);
  if (!d) throw TypeError("a data type is required");
  return *d;
}

std::vector<int64_t> to_int_list(py::handle obj) {
  std::vector<int64_t> out;
  if (PyLong_Check(obj.ptr()) || py::hasattr(obj, "__index__")) {
    if (!PySequence_Check(obj.ptr())) {
      out.push_back(py::cast<int64_t>(py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()))));
      return out;
    }
  }
  if (!PySequence_Check(obj.ptr()))
    throw TypeError("'" + std::string(py::str(py::type::handle_of(obj).attr("__name__"))) +
                    "' object cannot be interpreted as an integer");
  for (py::handle item : obj) {
    PyObject* idx = PyNumber_Index(item.ptr());
    if (!idx) {
      PyErr_Clear();
      throw TypeError("'" + std::string(py::str(py::type::handle_of(item).attr("__name__"))) +
                      "' object cannot be interpreted as an integer");
    }
    out.push_back(py::cast<int64_t>(py::reinterpret_steal<py::object>(idx)));
  }
  return out;
}

Shape to_shape(py::handle obj) { return Shape(to_int_list(obj)); }

Axes to_axes(py::handle axis) {
  if (axis.is_none()) return Axes::all();
  if (PyIndex_Check(axis.ptr()) && !PySequence_Check(axis.ptr())) {
    PyObject* idx = PyNumber_Index(axis.ptr());
    if (!idx) throw py::error_already_set();
    return Axes(py::cast<int64_t>(py::reinterpret_steal<py::object>(idx)));
  }
  return Axes(to_int_list(axis));
}

std::optional<int64_t> to_optional_axis(py::handle axis) {
  if (axis.is_none()) return std::nullopt;
  PyObject* idx = PyNumber_Index(axis.ptr());
  if (!idx) throw py::error_already_set();
  return py::cast<int64_t>(py::reinterpret_steal<py::object>(idx));
}

Order to_order(py::handle obj) {
  if (obj.is_none()) return Order::kK;
  std::string s = py::str(obj);
  if (s.size() != 1) throw ValueError("order must be one of 'C', 'F', 'A', or 'K' (got '" + s + "')");
  return order_from_char(s[0]);
}

bool is_python_scalar(py::handle obj) {
  PyObject* o = obj.ptr();
  PyTypeObject* t = Py_TYPE(o);
  return t == &PyBool_Type || t == &PyLong_Type || t == &PyFloat_Type || t == &PyComplex_Type;
}

kernels::ScalarValue to_scalar_value(py::handle obj) {
  kernels::ScalarValue v;
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) {
    v.kind = WeakScalar::kBool;
    v.b = o == Py_True;
    v.i = v.b;
    v.f = v.b;
  } else if (PyLong_Check(o)) {
    v.kind = WeakScalar::kInt;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) {
      v.i = x;
      v.f = static_cast<double>(x);
    } else {
      unsigned long long ux = overflow > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
      if (overflow > 0 && !PyErr_Occurred()) {
        v.is_uint = true;
        v.u = ux;
        v.f = static_cast<double>(ux);
      } else {
        PyErr_Clear();
        v.huge = true;
        v.f = PyLong_AsDouble(o);
        if (PyErr_Occurred()) {
          PyErr_Clear();
          v.f = overflow > 0 ? HUGE_VAL : -HUGE_VAL;
        }
      }
    }
  } else if (PyFloat_Check(o)) {
    v.kind = WeakScalar::kFloat;
    v.f = PyFloat_AS_DOUBLE(o);
  } else if (PyComplex_Check(o)) {
    v.kind = WeakScalar::kComplex;
    Py_complex c = PyComplex_AsCComplex(o);
    v.c = {c.real, c.imag};
    v.f = c.real;
  } else {
    throw TypeError("not a Python scalar");
  }
  v.c = v.kind == WeakScalar::kComplex ? v.c : std::complex<double>(v.f, 0.0);
  return v;
}

py::array to_numpy(const Array& a, py::handle owner) {
  std::vector<py::ssize_t> shape(a.shape().begin(), a.shape().end());
  if (a.device().type() == DeviceType::kCPU) {
    std::vector<py::ssize_t> strides(a.strides().begin(), a.strides().end());
    py::array out(numpy_dtype(a.dtype()), shape, strides, a.data(), owner);
    if (!a.writeable()) out.attr("flags").attr("writeable") = false;
    return out;
  }
  py::array out(numpy_dtype(a.dtype()), shape);
  a.copy_to_host_buffer(out.mutable_data());
  return out;
}

Array from_numpy(py::array arr, Device& device) {
  Dtype d = to_dtype_required(arr.dtype());
  // NumPy lays the data out C-contiguously for us when it is not already.
  py::array c = numpy().attr("asarray")(arr, py::arg("order") = "C");
  Shape shape;
  for (py::ssize_t i = 0; i < c.ndim(); ++i) shape.push_back(c.shape(i));
  Array out = Array::empty(shape, d, device);
  size_t n = static_cast<size_t>(out.nbytes());
  if (n) device.copy_from_host(out.data(), c.data(), n);
  return out;
}

bool to_array(py::handle obj, Array* out, Device* device) {
  if (py::isinstance<Array>(obj)) {
    *out = py::cast<Array>(obj);
    return true;
  }
  Device& dev = device ? *device : current_device();
  if (py::isinstance<py::array>(obj)) {
    *out = from_numpy(py::reinterpret_borrow<py::array>(obj), dev);
    return true;
  }
  // Objects exporting a kumo array through __array__ are not ours; NumPy
  // scalars, Python scalars, lists and tuples go through numpy.asarray.
  PyObject* o = obj.ptr();
  bool convertible = is_python_scalar(obj) || PyList_Check(o) || PyTuple_Check(o) ||
                     py::isinstance(obj, numpy().attr("generic")) || py::hasattr(obj, "__array_interface__") ||
                     py::hasattr(obj, "__array__");
  if (!convertible) return false;
  py::object np_arr = numpy().attr("asarray")(obj);
  *out = from_numpy(py::reinterpret_borrow<py::array>(np_arr), dev);
  return true;
}

Array to_array_required(py::handle obj, Device* device) {
  Array a;
  if (!to_array(obj, &a, device))
    throw TypeError("Unsupported type " + std::string(py::str(py::type::handle_of(obj))));
  return a;
}

kernels::UfuncOperand to_operand(py::handle obj) {
  kernels::UfuncOperand op;
  if (py::isinstance<Array>(obj)) {
    op.set_array(py::cast<Array>(obj));
    return op;
  }
  if (is_python_scalar(obj)) {
    op.is_scalar = true;
    op.scalar = to_scalar_value(obj);
    return op;
  }
  op.set_array(to_array_required(obj));
  return op;
}

namespace {

// The interned attribute name under which a view keeps its base.
PyObject* base_attr_name() {
  static PyObject* name = PyUnicode_InternFromString("_kumo_base");
  return name;
}

}  // namespace

py::object view_base(py::handle array) {
  // Looked up without raising AttributeError when absent: building that
  // exception costs more than the indexing itself.
  PyObject* result = nullptr;
#if PY_VERSION_HEX >= 0x030D0000
  if (PyObject_GetOptionalAttr(array.ptr(), base_attr_name(), &result) < 0) throw py::error_already_set();
#else
  if (_PyObject_LookupAttr(array.ptr(), base_attr_name(), &result) < 0) throw py::error_already_set();
#endif
  return result ? py::reinterpret_steal<py::object>(result) : py::none();
}

PyTypeObject* ndarray_type() {
  static PyTypeObject* const type = py::detail::get_type_info(typeid(Array))->type;
  return type;
}

const Array& array_ref(py::handle obj, Array* storage) {
  if (const Array* a = ndarray_value(obj.ptr())) return *a;
  *storage = to_array_required(obj);
  return *storage;
}

py::object new_ndarray(Array&& a) {
  using Holder = std::unique_ptr<Array>;
  static_assert(std::is_same_v<py::class_<Array>::holder_type, Holder>, "ndarray's holder changed");
  auto owned = std::make_unique<Array>(std::move(a));
  py::object obj = py::reinterpret_steal<py::object>(py::detail::make_new_instance(ndarray_type()));
  if (!obj) throw py::error_already_set();
  auto* inst = reinterpret_cast<py::detail::instance*>(obj.ptr());
  py::detail::value_and_holder v_h = inst->get_value_and_holder();
  v_h.value_ptr() = owned.get();
  new (std::addressof(v_h.holder<Holder>())) Holder(std::move(owned));
  v_h.set_holder_constructed();
  inst->owned = true;
  return obj;
}

py::object wrap_array(Array result, py::handle self) {
  const Memory* memory = result.memory().get();
  py::object obj = new_ndarray(std::move(result));
  if (self && py::isinstance<Array>(self)) {
    const Array& s = py::cast<const Array&>(self);
    if (memory && s.memory().get() == memory) {
      py::object base = view_base(self);
      if (PyObject_SetAttr(obj.ptr(), base_attr_name(), base.is_none() ? self.ptr() : base.ptr()) < 0)
        throw py::error_already_set();
    }
  }
  return obj;
}

}  // namespace py_bind
}  // namespace kumo
