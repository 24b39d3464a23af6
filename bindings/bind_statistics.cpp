// kumo._core.statistics: the C++ routines of routines/histogram.h,
// routines/quantile.h, routines/correlate.h, routines/cumulative.h and
// linalg/covariance.h for the Python module kumo._statistics, which converts
// array-likes and keyword arguments.
// Each function releases the GIL while it works.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings/convert.h"
#include "core/array.h"
#include "linalg/covariance.h"
#include "routines/correlate.h"
#include "routines/cumulative.h"
#include "routines/histogram.h"
#include "routines/quantile.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

namespace {

// bins: an int, an estimator's name or an array of edges.
HistogramBins bins_of(const py::object& b) {
  if (py::isinstance<py::str>(b)) return HistogramBins::estimator(py::cast<std::string>(b));
  if (py::isinstance<Array>(b)) return HistogramBins::from_edges(py::cast<Array>(b));
  return HistogramBins::count(py::cast<int64_t>(b));
}

QuantileOptions quantile_options(const std::string& method, const std::optional<Array>& out, bool overwrite,
                                 bool keepdims, const std::optional<Array>& weights, bool weak_q) {
  QuantileOptions o;
  o.method(method).overwrite_input(overwrite).keepdims(keepdims).weak_q(weak_q);
  if (out) o.out(*out);
  if (weights) o.weights(*weights);
  return o;
}

}  // namespace

void bind_statistics(py::module_& parent) {
  py::module_ m = parent.def_submodule("statistics", "numpy's histograms, order statistics and correlations");
  m.def("bincount", &bincount, py::arg("x"), py::arg("weights") = py::none(), py::arg("minlength") = 0,
        py::call_guard<py::gil_scoped_release>());
  m.def("digitize", &digitize, py::arg("x"), py::arg("bins"), py::arg("right") = false,
        py::call_guard<py::gil_scoped_release>());
  m.def(
      "histogram",
      [](const Array& a, const py::object& bins, HistogramRange range, bool density, std::optional<Array> weights) {
        HistogramBins b = bins_of(bins);
        py::gil_scoped_release release;
        return histogram(a, b, range, density, weights);
      },
      py::arg("a"), py::arg("bins"), py::arg("range"), py::arg("density"), py::arg("weights"));
  m.def(
      "histogram_bin_edges",
      [](const Array& a, const py::object& bins, HistogramRange range, std::optional<Array> weights) {
        HistogramBins b = bins_of(bins);
        py::gil_scoped_release release;
        return histogram_bin_edges(a, b, range, weights);
      },
      py::arg("a"), py::arg("bins"), py::arg("range"), py::arg("weights"));
  m.def(
      "histogramdd",
      [](const Array& sample, const py::list& bins, std::vector<HistogramRange> ranges, bool density,
         std::optional<Array> weights) {
        std::vector<HistogramBins> b;
        for (py::handle h : bins) b.push_back(bins_of(py::reinterpret_borrow<py::object>(h)));
        py::gil_scoped_release release;
        return histogramdd(sample, b, ranges, density, weights);
      },
      py::arg("sample"), py::arg("bins"), py::arg("ranges"), py::arg("density"), py::arg("weights"));
  using QFn = Array (*)(const Array&, const Array&, const Axes&, const QuantileOptions&);
  for (auto [name, fn] : {std::pair<const char*, QFn>{"quantile", &quantile},
                          {"percentile", &percentile},
                          {"nanquantile", &nanquantile},
                          {"nanpercentile", &nanpercentile}}) {
    m.def(
        name,
        [fn = fn](const Array& a, const Array& q, const py::object& axis, const std::string& method,
                  std::optional<Array> out, bool overwrite, bool keepdims, std::optional<Array> weights, bool weak_q) {
          Axes ax = to_axes(axis);
          QuantileOptions o = quantile_options(method, out, overwrite, keepdims, weights, weak_q);
          py::gil_scoped_release release;
          return fn(a, q, ax, o);
        },
        py::arg("a"), py::arg("q"), py::arg("axis"), py::arg("method"), py::arg("out"), py::arg("overwrite_input"),
        py::arg("keepdims"), py::arg("weights"), py::arg("weak_q"));
  }
  using MFn = Array (*)(const Array&, const Axes&, const QuantileOptions&);
  for (auto [name, fn] : {std::pair<const char*, MFn>{"median", &median}, {"nanmedian", &nanmedian}}) {
    m.def(
        name,
        [fn = fn](const Array& a, const py::object& axis, std::optional<Array> out, bool overwrite, bool keepdims) {
          Axes ax = to_axes(axis);
          QuantileOptions o = quantile_options("linear", out, overwrite, keepdims, std::nullopt, false);
          py::gil_scoped_release release;
          return fn(a, ax, o);
        },
        py::arg("a"), py::arg("axis"), py::arg("out"), py::arg("overwrite_input"), py::arg("keepdims"));
  }
  // The sorted path of arrays off the host, callable on host arrays (tests).
  m.def(
      "_quantile_by_sort",
      [](const Array& a, const Array& q, const py::object& axis, const std::string& method, bool keepdims, bool percent,
         bool skip_nan, bool weak_q) {
        Axes ax = to_axes(axis);
        QuantileOptions o = quantile_options(method, std::nullopt, false, keepdims, std::nullopt, weak_q);
        py::gil_scoped_release release;
        return quantile_by_sort(a, q, ax, o, percent, skip_nan);
      },
      py::arg("a"), py::arg("q"), py::arg("axis"), py::arg("method"), py::arg("keepdims"), py::arg("percent"),
      py::arg("skip_nan"), py::arg("weak_q"));
  m.def(
      "_median_by_sort",
      [](const Array& a, const py::object& axis, bool keepdims, bool skip_nan) {
        Axes ax = to_axes(axis);
        QuantileOptions o = quantile_options("linear", std::nullopt, false, keepdims, std::nullopt, false);
        py::gil_scoped_release release;
        return median_by_sort(a, ax, o, skip_nan);
      },
      py::arg("a"), py::arg("axis"), py::arg("keepdims"), py::arg("skip_nan"));
  auto dt = [](const py::object& o) { return o.is_none() ? std::optional<Dtype>() : to_dtype(o); };
  m.def("correlate", &correlate, py::arg("a"), py::arg("v"), py::arg("mode") = "valid",
        py::call_guard<py::gil_scoped_release>());
  m.def("convolve", &convolve, py::arg("a"), py::arg("v"), py::arg("mode") = "full",
        py::call_guard<py::gil_scoped_release>());
  m.def(
      "cov",
      [dt](const Array& x, std::optional<Array> y, bool rowvar, bool bias, std::optional<int64_t> ddof,
           std::optional<Array> fw, std::optional<Array> aw, const py::object& dtype) {
        std::optional<Dtype> d = dt(dtype);
        py::gil_scoped_release release;
        return cov(x, y, rowvar, bias, ddof, fw, aw, d);
      },
      py::arg("m"), py::arg("y"), py::arg("rowvar"), py::arg("bias"), py::arg("ddof"), py::arg("fweights"),
      py::arg("aweights"), py::arg("dtype"));
  m.def(
      "corrcoef",
      [dt](const Array& x, std::optional<Array> y, bool rowvar, const py::object& dtype) {
        std::optional<Dtype> d = dt(dtype);
        py::gil_scoped_release release;
        return corrcoef(x, y, rowvar, d);
      },
      py::arg("x"), py::arg("y"), py::arg("rowvar"), py::arg("dtype"));
  for (auto [name, fn] : {std::pair<const char*, decltype(&cumulative_sum)>{"cumulative_sum", &cumulative_sum},
                          {"cumulative_prod", &cumulative_prod}}) {
    m.def(
        name,
        [dt, fn = fn](const Array& x, std::optional<int64_t> axis, const py::object& dtype, std::optional<Array> out,
                      bool include_initial) {
          std::optional<Dtype> d = dt(dtype);
          py::gil_scoped_release release;
          return fn(x, axis, d, out ? *out : Array(), include_initial);
        },
        py::arg("x"), py::arg("axis"), py::arg("dtype"), py::arg("out"), py::arg("include_initial"));
  }
}

}  // namespace py_bind
}  // namespace kumo
