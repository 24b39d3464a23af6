// kumo._core.autograd.functions: the array functions (array.h), embed_id
// and the recurrent networks (rnn.h). Python passes arguments already in
// the shapes C++ takes (pad widths as one pair per axis).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "autograd/autograd.h"
#include "bindings/convert.h"
#include "bindings/convert_variable.h"
#include "core/errors.h"

namespace kumo {
namespace py_bind {

namespace ag = kumo::autograd;

namespace {

// A sequence of Variables (a single array is refused: these functions take
// lists, e.g. stack's xs).
std::vector<ag::Variable> to_variables(py::handle seq) {
  if (py::isinstance<ag::Variable>(seq) || ndarray_value(seq.ptr()) != nullptr)
    throw TypeError("expected a sequence of variables, got a single array");
  std::vector<ag::Variable> out;
  for (py::handle item : seq) out.push_back(to_variable(item));
  return out;
}

std::vector<std::vector<ag::Variable>> to_variable_lists(py::handle seq) {
  std::vector<std::vector<ag::Variable>> out;
  for (py::handle item : seq) out.push_back(to_variables(item));
  return out;
}

// An int or a sequence of ints.
std::vector<int64_t> int_or_list(py::handle obj) {
  if (py::isinstance<py::int_>(obj)) return {py::cast<int64_t>(obj)};
  return to_int_list(obj);
}

// The data of a Variable or an array (ids and other non-differentiable inputs).
Array data_of(py::handle obj) {
  if (py::isinstance<ag::Variable>(obj)) return py::cast<ag::Variable>(obj).array();
  Array storage;
  return array_ref(obj, &storage);
}

py::tuple n_step_result(const ag::NStepResult& r, bool with_c) {
  if (with_c) return py::make_tuple(to_py(r.hy), to_py(r.cy), to_py_list(r.ys));
  return py::make_tuple(to_py(r.hy), to_py_list(r.ys));
}

}  // namespace

void bind_autograd_array(py::module_& f) {
  f.def(
      "swapaxes", [](py::handle x, int64_t axis1, int64_t axis2) { return ag::swapaxes(to_variable(x), axis1, axis2); },
      py::arg("x"), py::arg("axis1"), py::arg("axis2"));
  f.def(
      "moveaxis",
      [](py::handle x, py::handle source, py::handle destination) {
        return ag::moveaxis(to_variable(x), int_or_list(source), int_or_list(destination));
      },
      py::arg("x"), py::arg("source"), py::arg("destination"));
  f.def(
      "rollaxis", [](py::handle x, int64_t axis, int64_t start) { return ag::rollaxis(to_variable(x), axis, start); },
      py::arg("x"), py::arg("axis"), py::arg("start") = 0);
  f.def(
      "flatten", [](py::handle x) { return ag::flatten(to_variable(x)); }, py::arg("x"));
  f.def(
      "hstack", [](py::handle xs) { return ag::hstack(to_variables(xs)); }, py::arg("xs"));
  f.def(
      "vstack", [](py::handle xs) { return ag::vstack(to_variables(xs)); }, py::arg("xs"));
  f.def(
      "dstack", [](py::handle xs) { return ag::dstack(to_variables(xs)); }, py::arg("xs"));
  f.def(
      "separate", [](py::handle x, int64_t axis) { return to_py_tuple(ag::separate(to_variable(x), axis)); },
      py::arg("x"), py::arg("axis") = 0);
  f.def(
      "tile", [](py::handle x, py::handle reps) { return ag::tile(to_variable(x), int_or_list(reps)); }, py::arg("x"),
      py::arg("reps"));
  f.def(
      "repeat",
      [](py::handle x, py::handle repeats, std::optional<int64_t> axis) {
        return ag::repeat(to_variable(x), int_or_list(repeats), axis);
      },
      py::arg("x"), py::arg("repeats"), py::arg("axis") = py::none());
  f.def(
      "flip", [](py::handle x, int64_t axis) { return ag::flip(to_variable(x), axis); }, py::arg("x"), py::arg("axis"));
  f.def(
      "fliplr", [](py::handle x) { return ag::fliplr(to_variable(x)); }, py::arg("x"));
  f.def(
      "flipud", [](py::handle x) { return ag::flipud(to_variable(x)); }, py::arg("x"));
  f.def(
      "_pad",
      [](py::handle x, const std::vector<std::pair<int64_t, int64_t>>& width, const std::string& mode,
         const std::vector<std::pair<py::object, py::object>>& values) {
        std::vector<std::pair<Scalar, Scalar>> cv;
        for (const auto& v : values)
          cv.emplace_back(Scalar(to_scalar_value(v.first)), Scalar(to_scalar_value(v.second)));
        return ag::pad(to_variable(x), width, mode, cv);
      },
      py::arg("x"), py::arg("pad_width"), py::arg("mode"), py::arg("constant_values"));
  f.def(
      "scatter_add",
      [](py::handle a, py::handle slices, py::handle b) {
        ag::Variable av = to_variable(a);
        return ag::scatter_add(av, index_components(slices, av.device()), to_variable(b));
      },
      py::arg("a"), py::arg("slices"), py::arg("b"));
  f.def(
      "diagonal",
      [](py::handle x, int64_t offset, int64_t axis1, int64_t axis2) {
        return ag::diagonal(to_variable(x), offset, axis1, axis2);
      },
      py::arg("x"), py::arg("offset") = 0, py::arg("axis1") = 0, py::arg("axis2") = 1);
  f.def(
      "depth2space", [](py::handle X, int64_t r) { return ag::depth2space(to_variable(X), r); }, py::arg("X"),
      py::arg("r"));
  f.def(
      "space2depth", [](py::handle X, int64_t r) { return ag::space2depth(to_variable(X), r); }, py::arg("X"),
      py::arg("r"));
  f.def(
      "resize_images",
      [](py::handle x, py::handle output_shape, const std::string& mode, bool align_corners) {
        std::vector<int64_t> s = to_int_list(output_shape);
        if (s.size() != 2) throw ValueError("resize_images: output_shape must be (out_H, out_W)");
        return ag::resize_images(to_variable(x), {s[0], s[1]}, mode, align_corners);
      },
      py::arg("x"), py::arg("output_shape"), py::arg("mode") = "bilinear", py::arg("align_corners") = true);
  f.def(
      "pad_sequence",
      [](py::handle xs, std::optional<int64_t> length, py::handle padding) {
        return ag::pad_sequence(to_variables(xs), length, Scalar(to_scalar_value(padding)));
      },
      py::arg("xs"), py::arg("length") = py::none(), py::arg("padding") = 0);
  f.def(
      "embed_id",
      [](py::handle x, py::handle W, std::optional<int64_t> ignore_label) {
        return ag::embed_id(data_of(x), to_variable(W), ignore_label);
      },
      py::arg("x"), py::arg("W"), py::arg("ignore_label") = py::none());
  f.def(
      "lstm",
      [](py::handle c_prev, py::handle x) {
        auto [c, h] = ag::lstm(to_variable(c_prev), to_variable(x));
        return py::make_tuple(to_py(c), to_py(h));
      },
      py::arg("c_prev"), py::arg("x"));
  f.def(
      "slstm",
      [](py::handle c_prev1, py::handle c_prev2, py::handle x1, py::handle x2) {
        auto [c, h] = ag::slstm(to_variable(c_prev1), to_variable(c_prev2), to_variable(x1), to_variable(x2));
        return py::make_tuple(to_py(c), to_py(h));
      },
      py::arg("c_prev1"), py::arg("c_prev2"), py::arg("x1"), py::arg("x2"));
  f.def(
      "gru",
      [](py::handle h, py::handle x, py::handle w, py::handle b) {
        return ag::gru(to_variable(h), to_variable(x), to_variables(w), to_variables(b));
      },
      py::arg("h"), py::arg("x"), py::arg("w"), py::arg("b"));
  using LstmFn = ag::NStepResult (*)(int64_t, double, const ag::Variable&, const ag::Variable&,
                                     const std::vector<std::vector<ag::Variable>>&,
                                     const std::vector<std::vector<ag::Variable>>&, const std::vector<ag::Variable>&);
  for (auto [name, fn] : {std::pair<const char*, LstmFn>{"n_step_lstm", &ag::n_step_lstm},
                          std::pair<const char*, LstmFn>{"n_step_bilstm", &ag::n_step_bilstm}}) {
    f.def(
        name,
        [fn = fn](int64_t n_layers, double dropout_ratio, py::handle hx, py::handle cx, py::handle ws, py::handle bs,
                  py::handle xs) {
          return n_step_result(fn(n_layers, dropout_ratio, to_variable(hx), to_variable(cx), to_variable_lists(ws),
                                  to_variable_lists(bs), to_variables(xs)),
                               true);
        },
        py::arg("n_layers"), py::arg("dropout_ratio"), py::arg("hx"), py::arg("cx"), py::arg("ws"), py::arg("bs"),
        py::arg("xs"));
  }
  using GruFn = ag::NStepResult (*)(int64_t, double, const ag::Variable&, const std::vector<std::vector<ag::Variable>>&,
                                    const std::vector<std::vector<ag::Variable>>&, const std::vector<ag::Variable>&);
  for (auto [name, fn] : {std::pair<const char*, GruFn>{"n_step_gru", &ag::n_step_gru},
                          std::pair<const char*, GruFn>{"n_step_bigru", &ag::n_step_bigru}}) {
    f.def(
        name,
        [fn = fn](int64_t n_layers, double dropout_ratio, py::handle hx, py::handle ws, py::handle bs, py::handle xs) {
          return n_step_result(fn(n_layers, dropout_ratio, to_variable(hx), to_variable_lists(ws),
                                  to_variable_lists(bs), to_variables(xs)),
                               false);
        },
        py::arg("n_layers"), py::arg("dropout_ratio"), py::arg("hx"), py::arg("ws"), py::arg("bs"), py::arg("xs"));
  }
  using RnnFn = ag::NStepResult (*)(int64_t, double, const ag::Variable&, const std::vector<std::vector<ag::Variable>>&,
                                    const std::vector<std::vector<ag::Variable>>&, const std::vector<ag::Variable>&,
                                    const std::string&);
  for (auto [name, fn] : {std::pair<const char*, RnnFn>{"n_step_rnn", &ag::n_step_rnn},
                          std::pair<const char*, RnnFn>{"n_step_birnn", &ag::n_step_birnn}}) {
    f.def(
        name,
        [fn = fn](int64_t n_layers, double dropout_ratio, py::handle hx, py::handle ws, py::handle bs, py::handle xs,
                  const std::string& activation) {
          return n_step_result(fn(n_layers, dropout_ratio, to_variable(hx), to_variable_lists(ws),
                                  to_variable_lists(bs), to_variables(xs), activation),
                               false);
        },
        py::arg("n_layers"), py::arg("dropout_ratio"), py::arg("hx"), py::arg("ws"), py::arg("bs"), py::arg("xs"),
        py::arg("activation") = "tanh");
  }
}

}  // namespace py_bind
}  // namespace kumo
