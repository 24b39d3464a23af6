// Conversions between Python objects and core types, shared by the binding files.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

#include "core/array.h"
#include "core/dtype.h"
#include "kernels/ufunc.h"

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

// Wraps a result: views of `self` get `base` set as NumPy does.
py::object wrap_array(const Array& result, py::handle self);
// The array a view was taken from (NumPy's .base), or None.
py::object view_base(py::handle array);
// ndarray.__getitem__ (basic and integer indexing in C++).
py::object array_getitem(py::handle self, py::handle key);

}  // namespace py_bind
}  // namespace kumo
