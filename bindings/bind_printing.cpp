// kumo._core: the C++ array printer (routines/printing.h), used by C++
// programs through operator<<; bound so the tests compare it with NumPy.
#include <pybind11/pybind11.h>

#include "routines/printing.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

void bind_printing(py::module_& m) {
  m.def("_array_repr", &array_repr);
  m.def("_array_str", &array_str);
}

}  // namespace py_bind
}  // namespace kumo
