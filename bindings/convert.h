// Conversions between Python objects and core types, shared by the binding files.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

#include "core/array.h"
#include "core/dtype.h"
#include "kernels/ufunc.h"
#include "routines/indexing.h"
#include "routines/reduction.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

// numpy.dtype objects for each Dtype, created once.
py::object numpy_dtype(Dtype d);
// Anything numpy.dtype() accepts that names a supported dtype; None -> nullopt.
std::optional<Dtype> to_dtype(py::handle obj);
Dtype to_dtype_required(py::handle obj);

Shape to_shape(py::handle obj);  // int or sequence of ints
std::vector<int64_t> to_int_list(py::handle obj);
// NumPy's axis argument of the reductions: None -> every axis, an integer
// (anything with __index__) -> that one axis, a sequence -> those axes.
Axes to_axes(py::handle axis);
// An axis argument that names at most one axis: None -> nullopt.
std::optional<int64_t> to_optional_axis(py::handle axis);
Order to_order(py::handle obj);  // None -> K

// Python scalar (bool/int/float/complex, not NumPy scalars) -> ScalarValue.
bool is_python_scalar(py::handle obj);
kernels::ScalarValue to_scalar_value(py::handle obj);

// Any array-like -> Array on the current device (copies from NumPy/lists).
// Returns false (leaving `out` unset) when obj is not convertible.
bool to_array(py::handle obj, Array* out, Device* device = nullptr);
Array to_array_required(py::handle obj, Device* device = nullptr);

// Operand of an operation: kumo arrays as they are, Python scalars weak,
// everything else converted to an array (strong).
kernels::UfuncOperand to_operand(py::handle obj);

// Host NumPy array sharing memory with a CPU array, or a copy of a CUDA one.
py::array to_numpy(const Array& a, py::handle owner);
// A new array (on `device`) holding a copy of a NumPy array.
Array from_numpy(py::array arr, Device& device);

// The C++ object inside a pybind11 instance of a type bound to T, or null
// when none was constructed. The simple layout (one bound type, no multiple
// inheritance: ndarray and ufunc) keeps the value pointer in the instance
// itself; the general lookup searches pybind11's type table.
template <class T>
T* instance_value(PyObject* o) {
  auto* inst = reinterpret_cast<py::detail::instance*>(o);
  if (inst->simple_layout)
    return inst->simple_holder_constructed ? static_cast<T*>(inst->simple_value_holder[0]) : nullptr;
  py::detail::value_and_holder vh = inst->get_value_and_holder();
  return vh.holder_constructed() ? vh.template value_ptr<T>() : nullptr;
}

// The Python type kumo.ndarray.
PyTypeObject* ndarray_type();
// The Array inside a kumo.ndarray (or subclass) instance, or null for any
// other object: py::isinstance and py::cast without their type-table searches.
inline const Array* ndarray_value(PyObject* o) {
  PyTypeObject* t = Py_TYPE(o);
  if (t != ndarray_type() && !PyType_IsSubtype(t, ndarray_type())) return nullptr;
  return instance_value<Array>(o);
}
// The Array of a kumo.ndarray without copying it, or `obj` converted (as
// to_array_required does) into *storage.
const Array& array_ref(py::handle obj, Array* storage);

// A Python index expression (a[key]) as kumo::Index components, index
// arrays on `device` (bind_array.cpp).
std::vector<Index> index_components(py::handle key, Device& device);

// A new kumo.ndarray owning `a`: what py::cast(std::move(a)) makes, without
// entering the C++ pointer in pybind11's table of registered instances.
// That table maps C++ addresses back to their Python objects, which only
// bindings returning Array references or pointers need (none does), and its
// insert and erase cost about as much as a 10-element kernel.
py::object new_ndarray(Array&& a);
// Wraps a result: views of `self` get `base` set as NumPy does.
py::object wrap_array(Array result, py::handle self);
// The array a view was taken from (NumPy's .base), or None.
py::object view_base(py::handle array);
// ndarray.__getitem__ (basic and integer indexing in C++).
py::object array_getitem(py::handle self, py::handle key);

}  // namespace py_bind
}  // namespace kumo
