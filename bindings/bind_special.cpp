// kumo._core.special: the routines of routines/special.h for the Python
// module kumo.special, which converts array-likes.
#include <pybind11/pybind11.h>

#include "bindings/convert.h"
#include "core/array.h"
#include "routines/special.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

void bind_special(py::module_& parent) {
  py::module_ m = parent.def_submodule("special", "scipy.special's erf, gammaln, digamma, ... (routines/special.h)");
  using Release = py::call_guard<py::gil_scoped_release>;
  for (auto [name, fn] : {std::pair<const char*, Array (*)(const Array&)>{"erf", &special::erf},
                          {"erfc", &special::erfc},
                          {"erfinv", &special::erfinv},
                          {"gammaln", &special::gammaln},
                          {"digamma", &special::digamma}}) {
    m.def(name, fn, py::arg("x"), Release());
  }
  m.def("polygamma", &special::polygamma, py::arg("n"), py::arg("x"), Release());
}

}  // namespace py_bind
}  // namespace kumo
