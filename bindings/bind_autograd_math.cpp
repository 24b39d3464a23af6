// kumo._core.autograd.functions: the math, linear algebra and activation
// functions of autograd/functions/{math,linalg,activation}.h with
// Chainer's argument names.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "autograd/autograd.h"
#include "bindings/convert.h"
#include "bindings/convert_variable.h"
#include "core/errors.h"

namespace kumo {
namespace py_bind {

namespace ag = kumo::autograd;

void bind_autograd_math(py::module_& f) {
  using Unary = ag::Variable (*)(const ag::Variable&);
  const std::pair<const char*, Unary> unary[] = {
      {"erf", ag::erf},       {"erfc", ag::erfc},       {"erfinv", ag::erfinv},
      {"lgamma", ag::lgamma}, {"digamma", ag::digamma}, {"batch_l2_norm_squared", ag::batch_l2_norm_squared},
  };
  for (const auto& [name, fn] : unary) {
    Unary g = fn;
    f.def(
        name, [g](py::handle x) { return g(to_variable(x)); }, py::arg("x"));
  }
  f.def(
      "polygamma", [](py::handle n, py::handle x) { return ag::polygamma(to_data(n), to_variable(x)); }, py::arg("n"),
      py::arg("x"));
  f.def(
      "arctan2", [](py::handle a, py::handle b) { return ag::arctan2(to_variable(a), to_variable(b)); }, py::arg("x1"),
      py::arg("x2"));
  f.def(
      "fmod", [](py::handle a, py::handle b) { return ag::fmod(to_variable(a), to_variable(b)); }, py::arg("x"),
      py::arg("divisor"));
  f.def(
      "squared_difference", [](py::handle a, py::handle b) { return ag::squared_difference(to_variable(a), to_variable(b)); },
      py::arg("x1"), py::arg("x2"));
  f.def(
      "prod", [](py::handle x, py::handle axis, bool keepdims) { return ag::prod(to_variable(x), to_axes(axis), keepdims); },
      py::arg("x"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
  f.def(
      "cumsum", [](py::handle x, py::handle axis) { return ag::cumsum(to_variable(x), to_optional_axis(axis)); }, py::arg("x"),
      py::arg("axis") = py::none());
  f.def(
      "cumprod", [](py::handle x, py::handle axis) { return ag::cumprod(to_variable(x), to_optional_axis(axis)); }, py::arg("x"),
      py::arg("axis") = py::none());
  f.def(
      "average",
      [](py::handle x, py::handle axis, py::handle weights, bool keepdims) {
        return ag::average(to_variable(x), to_axes(axis), to_variable(weights), keepdims);
      },
      py::arg("x"), py::arg("axis") = py::none(), py::arg("weights") = py::none(), py::arg("keepdims") = false);
  f.def(
      "argmax", [](py::handle x, py::handle axis) { return ag::argmax(to_variable(x), to_optional_axis(axis)); }, py::arg("x"),
      py::arg("axis") = py::none());
  f.def(
      "argmin", [](py::handle x, py::handle axis) { return ag::argmin(to_variable(x), to_optional_axis(axis)); }, py::arg("x"),
      py::arg("axis") = py::none());

  const std::pair<const char*, Unary> matrix[] = {
      {"det", ag::det},           {"batch_det", ag::batch_det}, {"inv", ag::inv}, {"batch_inv", ag::batch_inv},
      {"cholesky", ag::cholesky},
  };
  for (const auto& [name, fn] : matrix) {
    Unary g = fn;
    f.def(
        name, [g](py::handle a) { return g(to_variable(a)); }, py::arg("a"));
  }
  f.def(
      "solve", [](py::handle a, py::handle b) { return ag::solve(to_variable(a), to_variable(b)); }, py::arg("a"), py::arg("b"));
  f.def("einsum", [](const std::string& subscripts, py::args operands) {
    std::vector<ag::Variable> ops;
    for (py::handle h : operands) ops.push_back(to_variable(h));
    return ag::einsum(subscripts, ops);
  });
  f.def(
      "tensordot",
      [](py::handle a, py::handle b, py::handle axes) {
        if (py::isinstance<py::int_>(axes)) return ag::tensordot(to_variable(a), to_variable(b), py::cast<int64_t>(axes));
        py::sequence pair = py::reinterpret_borrow<py::sequence>(axes);
        if (pair.size() != 2) throw ValueError("tensordot: axes must be an integer or a pair of axis lists");
        return ag::tensordot(to_variable(a), to_variable(b), to_int_list(pair[0]), to_int_list(pair[1]));
      },
      py::arg("a"), py::arg("b"), py::arg("axes") = 2);
  f.def(
      "bilinear",
      [](py::handle e1, py::handle e2, py::handle W, py::handle V1, py::handle V2, py::handle b) {
        return ag::bilinear(to_variable(e1), to_variable(e2), to_variable(W), to_variable(V1), to_variable(V2), to_variable(b));
      },
      py::arg("e1"), py::arg("e2"), py::arg("W"), py::arg("V1") = py::none(), py::arg("V2") = py::none(),
      py::arg("b") = py::none());

  f.def(
      "celu", [](py::handle x, double alpha) { return ag::celu(to_variable(x), alpha); }, py::arg("x"),
      py::arg("alpha") = 1.0);
  f.def(
      "gelu", [](py::handle x, bool approximate) { return ag::gelu(to_variable(x), approximate); }, py::arg("x"),
      py::arg("approximate") = false);
  f.def(
      "prelu", [](py::handle x, py::handle W) { return ag::prelu(to_variable(x), to_variable(W)); }, py::arg("x"), py::arg("W"));
  f.def(
      "maxout", [](py::handle x, int64_t pool_size, int64_t axis) { return ag::maxout(to_variable(x), pool_size, axis); },
      py::arg("x"), py::arg("pool_size"), py::arg("axis") = 1);
  f.def(
      "crelu", [](py::handle x, int64_t axis) { return ag::crelu(to_variable(x), axis); }, py::arg("x"),
      py::arg("axis") = 1);
  f.def(
      "swish", [](py::handle x, py::handle beta) { return ag::swish(to_variable(x), to_variable(beta)); }, py::arg("x"),
      py::arg("beta"));
}

}  // namespace py_bind
}  // namespace kumo
