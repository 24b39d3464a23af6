// Conversions between Python objects and autograd Variables, shared by the
// autograd binding files (bind_autograd*.cpp).
#pragma once
#include <string>
#include <vector>

#include "autograd/variable.h"
#include "bindings/convert.h"
#include "core/errors.h"

namespace kumo {
namespace py_bind {

// An undefined Variable is None.
inline py::object to_py(const autograd::Variable& v) { return v.defined() ? py::cast(v) : py::none(); }

inline py::tuple to_py_tuple(const std::vector<autograd::Variable>& vs) {
  py::tuple t(vs.size());
  for (size_t i = 0; i < vs.size(); ++i) t[i] = to_py(vs[i]);
  return t;
}

inline py::list to_py_list(const std::vector<autograd::Variable>& vs) {
  py::list l;
  for (const autograd::Variable& v : vs) l.append(to_py(v));
  return l;
}

// A function argument: a Variable as it is, an array (or array-like) as a
// constant Variable that needs no gradient, None as undefined.
inline autograd::Variable to_variable(py::handle obj) {
  if (obj.is_none()) return autograd::Variable();
  if (py::isinstance<autograd::Variable>(obj)) return py::cast<autograd::Variable>(obj);
  Array storage;
  return autograd::Variable(array_ref(obj, &storage), false);
}

// The same, None refused: "<name> must not be None".
inline autograd::Variable to_variable_required(py::handle obj, const char* name) {
  if (obj.is_none()) throw TypeError(std::string(name) + " must not be None");
  return to_variable(obj);
}

// Labels and other data arguments: the array of a Variable, or an array.
inline Array to_data(py::handle obj) {
  if (py::isinstance<autograd::Variable>(obj)) return py::cast<autograd::Variable>(obj).array();
  Array storage;
  return Array(array_ref(obj, &storage));
}

inline Array to_data_or_none(py::handle obj) { return obj.is_none() ? Array() : to_data(obj); }

}  // namespace py_bind
}  // namespace kumo
