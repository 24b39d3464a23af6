// kumo._core.autograd.functions: the convolution and pooling functions
// (autograd/functions/convolution.h, pooling.h) with Chainer's signatures.
// Int-or-tuple parameters arrive as lists; None as an empty list (the
// C++ default).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <vector>

#include "autograd/autograd.h"
#include "autograd/functions/convolution.h"
#include "autograd/functions/pooling.h"
#include "bindings/convert.h"
#include "bindings/convert_variable.h"
#include "core/errors.h"
#include "nn/dnn_backend.h"

namespace kumo {
namespace py_bind {

namespace ag = kumo::autograd;

namespace {

std::vector<int64_t> ints(py::handle obj) { return obj.is_none() ? std::vector<int64_t>{} : to_int_list(obj); }

std::optional<double> pad_value_arg(py::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return py::cast<double>(obj);
}

using ConvFn = ag::Variable (*)(const ag::Variable&, const ag::Variable&, const ag::Variable&,
                                const std::vector<int64_t>&, const std::vector<int64_t>&, bool,
                                const std::vector<int64_t>&, int64_t);
using DeconvFn = ag::Variable (*)(const ag::Variable&, const ag::Variable&, const ag::Variable&,
                                  const std::vector<int64_t>&, const std::vector<int64_t>&, const std::vector<int64_t>&,
                                  const std::vector<int64_t>&, int64_t);
using MaxFn = ag::Variable (*)(const ag::Variable&, const std::vector<int64_t>&, const std::vector<int64_t>&,
                               const std::vector<int64_t>&, bool);
using AvgFn = ag::Variable (*)(const ag::Variable&, const std::vector<int64_t>&, const std::vector<int64_t>&,
                               const std::vector<int64_t>&, std::optional<double>);

}  // namespace

void bind_autograd_conv(py::module_& f) {
  // This thread's switch for the vendor libraries (config.use_ideep on the
  // host, config.use_cudnn on CUDA), and the name of the backend in use.
  f.def("_dnn_enabled", [](bool cuda) { return dnn_enabled(cuda ? DeviceType::kCUDA : DeviceType::kCPU); },
        py::arg("cuda"));
  f.def(
      "_set_dnn_enabled",
      [](bool cuda, bool enabled) { set_dnn_enabled(cuda ? DeviceType::kCUDA : DeviceType::kCPU, enabled); },
      py::arg("cuda"), py::arg("enabled"));
  f.def("_host_dnn_backend", []() -> py::object {
    DnnBackend* b = host_dnn_backend();
    return b ? py::object(py::str(b->name())) : py::object(py::none());
  });
  f.def(
      "im2col",
      [](py::handle x, py::handle ksize, py::handle stride, py::handle pad, bool cover_all, py::handle dilate) {
        return to_py(ag::im2col(to_variable(x), ints(ksize), ints(stride), ints(pad), cover_all, ints(dilate)));
      },
      py::arg("x"), py::arg("ksize"), py::arg("stride") = 1, py::arg("pad") = 0, py::arg("cover_all") = false,
      py::arg("dilate") = 1);
  const std::pair<const char*, ConvFn> convs[] = {{"convolution_nd", ag::convolution_nd},
                                                  {"convolution_1d", ag::convolution_1d},
                                                  {"convolution_2d", ag::convolution_2d},
                                                  {"convolution_3d", ag::convolution_3d}};
  for (const auto& [name, fn] : convs) {
    ConvFn g = fn;
    f.def(
        name,
        [g](py::handle x, py::handle W, py::handle b, py::handle stride, py::handle pad, bool cover_all,
            py::handle dilate, int64_t groups) {
          return to_py(g(to_variable(x), to_variable(W), to_variable(b), ints(stride), ints(pad), cover_all, ints(dilate), groups));
        },
        py::arg("x"), py::arg("W"), py::arg("b") = py::none(), py::arg("stride") = 1, py::arg("pad") = 0,
        py::arg("cover_all") = false, py::arg("dilate") = 1, py::arg("groups") = 1);
  }
  const std::pair<const char*, DeconvFn> deconvs[] = {{"deconvolution_nd", ag::deconvolution_nd},
                                                      {"deconvolution_1d", ag::deconvolution_1d},
                                                      {"deconvolution_2d", ag::deconvolution_2d},
                                                      {"deconvolution_3d", ag::deconvolution_3d}};
  for (const auto& [name, fn] : deconvs) {
    DeconvFn g = fn;
    f.def(
        name,
        [g](py::handle x, py::handle W, py::handle b, py::handle stride, py::handle pad, py::handle outsize,
            py::handle dilate, int64_t groups) {
          return to_py(g(to_variable(x), to_variable(W), to_variable(b), ints(stride), ints(pad), ints(outsize), ints(dilate), groups));
        },
        py::arg("x"), py::arg("W"), py::arg("b") = py::none(), py::arg("stride") = 1, py::arg("pad") = 0,
        py::arg("outsize") = py::none(), py::arg("dilate") = 1, py::arg("groups") = 1);
  }
  f.def(
      "depthwise_convolution_2d",
      [](py::handle x, py::handle W, py::handle b, py::handle stride, py::handle pad) {
        return to_py(ag::depthwise_convolution_2d(to_variable(x), to_variable(W), to_variable(b), ints(stride), ints(pad)));
      },
      py::arg("x"), py::arg("W"), py::arg("b") = py::none(), py::arg("stride") = 1, py::arg("pad") = 0);

  const std::pair<const char*, int> maxes[] = {
      {"max_pooling_nd", 0}, {"max_pooling_1d", 1}, {"max_pooling_2d", 2}, {"max_pooling_3d", 3}};
  for (const auto& [name, nd] : maxes) {
    const int want = nd;
    const char* who = name;
    f.def(
        name,
        [want, who](py::handle x0, py::handle ksize, py::handle stride, py::handle pad, bool cover_all,
                    bool return_indices) -> py::object {
          ag::Variable x = to_variable(x0);
          if (want > 0 && x.defined() && x.ndim() != want + 2)
            throw ValueError(std::string(who) + ": x must be " + std::to_string(want + 2) + "-d, got shape " +
                             x.shape().to_string());
          // Without indexes the pooling may run on the vendor backend (cuDNN).
          if (!return_indices) return to_py(ag::max_pooling_nd(x, ints(ksize), ints(stride), ints(pad), cover_all));
          auto r = ag::max_pooling_nd_with_indices(x, ints(ksize), ints(stride), ints(pad), cover_all);
          return py::make_tuple(to_py(r.first), r.second);
        },
        py::arg("x"), py::arg("ksize"), py::arg("stride") = py::none(), py::arg("pad") = 0, py::arg("cover_all") = true,
        py::arg("return_indices") = false);
  }
  const std::pair<const char*, AvgFn> avgs[] = {{"average_pooling_nd", ag::average_pooling_nd},
                                                {"average_pooling_1d", ag::average_pooling_1d},
                                                {"average_pooling_2d", ag::average_pooling_2d},
                                                {"average_pooling_3d", ag::average_pooling_3d}};
  for (const auto& [name, fn] : avgs) {
    AvgFn g = fn;
    f.def(
        name,
        [g](py::handle x, py::handle ksize, py::handle stride, py::handle pad, py::handle pad_value) {
          return to_py(g(to_variable(x), ints(ksize), ints(stride), ints(pad), pad_value_arg(pad_value)));
        },
        py::arg("x"), py::arg("ksize"), py::arg("stride") = py::none(), py::arg("pad") = 0, py::arg("pad_value") = 0);
  }
  f.def(
      "unpooling_nd",
      [](py::handle x, py::handle ksize, py::handle stride, py::handle pad, py::handle outsize, bool cover_all) {
        return to_py(ag::unpooling_nd(to_variable(x), ints(ksize), ints(stride), ints(pad), ints(outsize), cover_all));
      },
      py::arg("x"), py::arg("ksize"), py::arg("stride") = py::none(), py::arg("pad") = 0,
      py::arg("outsize") = py::none(), py::arg("cover_all") = true);
  f.def(
      "unpooling_2d",
      [](py::handle x, py::handle ksize, py::handle stride, py::handle pad, py::handle outsize, bool cover_all) {
        return to_py(ag::unpooling_2d(to_variable(x), ints(ksize), ints(stride), ints(pad), ints(outsize), cover_all));
      },
      py::arg("x"), py::arg("ksize"), py::arg("stride") = py::none(), py::arg("pad") = 0,
      py::arg("outsize") = py::none(), py::arg("cover_all") = true);
  f.def(
      "upsampling_2d",
      [](py::handle x, py::handle indexes, py::handle ksize, py::handle stride, py::handle pad, py::handle outsize,
         bool cover_all) {
        Array storage;
        const Array& idx = array_ref(indexes, &storage);
        return to_py(ag::upsampling_2d(to_variable(x), idx, ints(ksize), ints(stride), ints(pad), ints(outsize), cover_all));
      },
      py::arg("x"), py::arg("indexes"), py::arg("ksize"), py::arg("stride") = py::none(), py::arg("pad") = 0,
      py::arg("outsize") = py::none(), py::arg("cover_all") = true);
  f.def(
      "global_average_pooling_2d", [](py::handle x) { return to_py(ag::global_average_pooling_2d(to_variable(x))); },
      py::arg("x"));
}

}  // namespace py_bind
}  // namespace kumo
