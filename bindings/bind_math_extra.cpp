// kumo._core.math_extra: the routines of routines/math_extra.h for the Python
// module kumo._math_extra, which converts array-likes and keyword arguments.
#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "bindings/convert.h"
#include "core/array.h"
#include "routines/math_extra.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

void bind_math_extra(py::module_& parent) {
  py::module_ m = parent.def_submodule("math_extra", "numpy's miscellaneous logic and math routines");
  using Release = py::call_guard<py::gil_scoped_release>;
  for (auto [name, fn] : {std::pair<const char*, Array (*)(const Array&)>{"isposinf", &isposinf},
                          {"isneginf", &isneginf},
                          {"iscomplex", &iscomplex},
                          {"isreal", &isreal},
                          {"sinc", &sinc},
                          {"i0", &i0},
                          {"bitwise_count", &bitwise_count}}) {
    m.def(name, fn, py::arg("x"), Release());
  }
  m.def("nan_to_num", &nan_to_num, py::arg("x"), py::arg("copy") = true, py::arg("nan") = 0.0,
        py::arg("posinf") = py::none(), py::arg("neginf") = py::none(), Release());
  m.def(
      "gradient",
      [](const Array& f, const py::sequence& spacing, std::optional<std::vector<int64_t>> axes, int64_t edge_order) {
        std::vector<Operand> ops;
        for (py::handle h : spacing) ops.push_back(to_operand(h));
        py::gil_scoped_release release;
        return gradient(f, ops, axes, edge_order);
      },
      py::arg("f"), py::arg("spacing"), py::arg("axes") = py::none(), py::arg("edge_order") = 1);
  m.def(
      "ediff1d",
      [](const Array& ary, std::optional<Array> to_end, std::optional<Array> to_begin) {
        return ediff1d(ary, to_end ? *to_end : Array(), to_begin ? *to_begin : Array());
      },
      py::arg("ary"), py::arg("to_end") = py::none(), py::arg("to_begin") = py::none(), Release());
  m.def(
      "trapezoid",
      [](const Array& y, std::optional<Array> x, py::object dx, int64_t axis) {
        Operand d = to_operand(dx);
        py::gil_scoped_release release;
        return trapezoid(y, x ? *x : Array(), d, axis);
      },
      py::arg("y"), py::arg("x") = py::none(), py::arg("dx") = 1.0, py::arg("axis") = -1);
  m.def("interp", &interp, py::arg("x"), py::arg("xp"), py::arg("fp"), py::arg("left") = py::none(),
        py::arg("right") = py::none(), py::arg("period") = py::none(), Release());
  m.def(
      "unwrap",
      [](const Array& p, py::object discont, int64_t axis, py::object period) {
        std::optional<Scalar> d;
        if (!discont.is_none()) d = Scalar(to_scalar_value(discont));
        Scalar per(to_scalar_value(period));
        py::gil_scoped_release release;
        return unwrap(p, d, axis, per);
      },
      py::arg("p"), py::arg("discont") = py::none(), py::arg("axis") = -1, py::arg("period") = 6.283185307179586);
  m.def("diff1", &diff1, py::arg("a"), py::arg("axis") = -1, Release());
  for (auto [name, fn] : {std::pair<const char*, Array (*)(double, Device&)>{"bartlett", &bartlett},
                          {"blackman", &blackman},
                          {"hamming", &hamming},
                          {"hanning", &hanning}}) {
    m.def(
        name, [fn = fn](double M) { return fn(M, current_device()); }, py::arg("M"));
  }
  m.def(
      "kaiser", [](double M, double beta) { return kaiser(M, beta); }, py::arg("M"), py::arg("beta"));
  m.def("packbits", &packbits, py::arg("a"), py::arg("axis") = py::none(), py::arg("bitorder") = "big", Release());
  m.def("unpackbits", &unpackbits, py::arg("a"), py::arg("axis") = py::none(), py::arg("count") = py::none(),
        py::arg("bitorder") = "big", Release());
  m.def("byteswap", &byteswap, py::arg("a"), py::arg("inplace") = false, Release());
  m.def("memory_overlap", &memory_overlap, py::arg("a"), py::arg("b"), py::arg("max_work") = -1, Release());
}

}  // namespace py_bind
}  // namespace kumo
