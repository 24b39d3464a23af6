// kumo._core.fft: the C++ routines of fft/fft.h (numpy.fft) for the Python
// package kumo.fft, which only converts array-likes and keyword arguments.
// Each function runs on the input's device (host -> pocketfft, CUDA ->
// cuFFT) and releases the GIL while it works.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/device.h"
#include "fft/fft.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

void bind_fft(py::module_& parent) {
  py::module_ m = parent.def_submodule("fft", "numpy.fft on pocketfft (host) and cuFFT (CUDA)");
  using Release = py::call_guard<py::gil_scoped_release>;
  using Sizes = std::optional<std::vector<int64_t>>;
  using Out = std::optional<Array>;
  using OneAxis = Array (*)(const Array&, std::optional<int64_t>, int64_t, const std::string&, const Out&);
  using ManyAxes = Array (*)(const Array&, const Sizes&, const Sizes&, const std::string&, const Out&);

  const auto one_axis = [&m](const char* name, OneAxis fn) {
    m.def(name, fn, py::arg("a"), py::arg("n") = py::none(), py::arg("axis") = -1, py::arg("norm") = "backward",
          py::arg("out") = py::none(), Release());
  };
  one_axis("fft", &fft::fft);
  one_axis("ifft", &fft::ifft);
  one_axis("rfft", &fft::rfft);
  one_axis("irfft", &fft::irfft);
  one_axis("hfft", &fft::hfft);
  one_axis("ihfft", &fft::ihfft);

  // The 2-D forms are the n-D ones with axes (-2, -1), which Python passes.
  const auto many_axes = [&m](const char* name, ManyAxes fn) {
    m.def(name, fn, py::arg("a"), py::arg("s") = py::none(), py::arg("axes") = py::none(),
          py::arg("norm") = "backward", py::arg("out") = py::none(), Release());
  };
  many_axes("fftn", &fft::fftn);
  many_axes("ifftn", &fft::ifftn);
  many_axes("rfftn", &fft::rfftn);
  many_axes("irfftn", &fft::irfftn);

  m.def("fftfreq", [](int64_t n, double d) { return fft::fftfreq(n, d, current_device()); }, py::arg("n"),
        py::arg("d") = 1.0, Release());
  m.def("rfftfreq", [](int64_t n, double d) { return fft::rfftfreq(n, d, current_device()); }, py::arg("n"),
        py::arg("d") = 1.0, Release());
  m.def("fftshift", &fft::fftshift, py::arg("x"), py::arg("axes") = py::none(), Release());
  m.def("ifftshift", &fft::ifftshift, py::arg("x"), py::arg("axes") = py::none(), Release());
}

}  // namespace py_bind
}  // namespace kumo
