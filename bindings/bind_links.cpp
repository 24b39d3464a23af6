// kumo._core.autograd._links: what kumo.autograd.links needs from C++.
//
// A Parameter (a Python subclass of Variable) may be created before its shape
// is known and receive its array later; Variable.array's setter keeps shape
// and dtype fixed because the graph's nodes record them, so a parameter that
// changes shape (lazy initialization, Chainer's `param.array = new_array`)
// rebinds the Python object to a new variable body instead.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "autograd/autograd.h"
#include "bindings/convert.h"

namespace kumo {
namespace py_bind {

void bind_links(py::module_& parent) {
  py::module_ ag_module = py::reinterpret_borrow<py::module_>(parent.attr("autograd"));
  py::module_ m = ag_module.def_submodule("_links", "Helpers of kumo.autograd.links");
  m.def(
      "rebind",
      [](autograd::Variable& var, py::handle data) {
        Array storage;
        const Array& a = array_ref(data, &storage);
        // The old body stays alive for graphs that still refer to it; the
        // name and requires_grad carry over, the gradient does not.
        std::string name = var.defined() ? var.name() : std::string();
        bool requires_grad = var.defined() ? var.requires_grad() : true;
        var = autograd::Variable(a, requires_grad, name);
      },
      py::arg("var"), py::arg("data"));
}

}  // namespace py_bind
}  // namespace kumo
