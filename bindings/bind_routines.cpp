// Bindings of the creation and manipulation routines (routines/creation.h,
// routines/manipulation.h). Python parses the arguments (lists, NumPy
// scalars, like=) and calls these with kumo arrays, Python scalars, dtypes
// and axis lists; everything NumPy means by the call is decided in C++.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/convert.h"
#include "core/errors.h"
#include "routines/creation.h"
#include "routines/manipulation.h"

namespace kumo {
namespace py_bind {

namespace {

std::optional<Dtype> opt_dtype(py::handle d) { return d.is_none() ? std::nullopt : std::optional<Dtype>(to_dtype_required(d)); }
std::optional<Shape> opt_shape(py::handle s) { return s.is_none() ? std::nullopt : std::optional<Shape>(to_shape(s)); }
Order order_or(py::handle o, Order fallback) { return o.is_none() ? fallback : to_order(o); }

std::vector<Array> array_list(py::handle seq) {
  std::vector<Array> out;
  for (py::handle item : seq) out.push_back(to_array_required(item));
  return out;
}

py::tuple to_tuple(const std::vector<Array>& arrays, py::handle self = py::handle()) {
  py::tuple t(arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) t[i] = wrap_array(arrays[i], self);
  return t;
}

JoinOptions join_options(py::handle out, py::handle dtype, py::handle casting) {
  JoinOptions o;
  if (!out.is_none()) {
    if (!py::isinstance<Array>(out)) throw TypeError("'out' must be an array");
    o.out = py::cast<Array>(out);
  }
  o.dtype = opt_dtype(dtype);
  if (!casting.is_none()) o.casting = casting_from_name(py::str(casting));
  return o;
}

ClipBound clip_bound(py::handle v) {
  if (v.is_none()) return ClipBound(std::nullopt);
  return ClipBound(to_operand(v));
}

}  // namespace

void bind_routines(py::module_& m) {
  // ---- creation ----
  m.def("zeros", [](py::handle shape, py::handle dtype, py::handle order) {
    return zeros(to_shape(shape), to_dtype_required(dtype), order_or(order, Order::kC));
  }, py::arg("shape"), py::arg("dtype"), py::arg("order") = "C");
  m.def("ones", [](py::handle shape, py::handle dtype, py::handle order) {
    return ones(to_shape(shape), to_dtype_required(dtype), order_or(order, Order::kC));
  }, py::arg("shape"), py::arg("dtype"), py::arg("order") = "C");
  m.def("full", [](py::handle shape, py::handle fill, py::handle dtype, py::handle order) {
    Order o = order_or(order, Order::kC);
    if (is_python_scalar(fill)) return full(to_shape(shape), Scalar(to_scalar_value(fill)), opt_dtype(dtype), o);
    return full(to_shape(shape), to_array_required(fill), opt_dtype(dtype), o);
  }, py::arg("shape"), py::arg("fill_value"), py::arg("dtype") = py::none(), py::arg("order") = "C");
  m.def("empty_like", [](const Array& a, py::handle dtype, py::handle order, py::handle shape) {
    return empty_like(a, opt_dtype(dtype), order_or(order, Order::kK), opt_shape(shape));
  }, py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = "K", py::arg("shape") = py::none());
  m.def("zeros_like", [](const Array& a, py::handle dtype, py::handle order, py::handle shape) {
    return zeros_like(a, opt_dtype(dtype), order_or(order, Order::kK), opt_shape(shape));
  }, py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = "K", py::arg("shape") = py::none());
  m.def("ones_like", [](const Array& a, py::handle dtype, py::handle order, py::handle shape) {
    return ones_like(a, opt_dtype(dtype), order_or(order, Order::kK), opt_shape(shape));
  }, py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = "K", py::arg("shape") = py::none());
  m.def("full_like", [](const Array& a, py::handle fill, py::handle dtype, py::handle order, py::handle shape) {
    Order o = order_or(order, Order::kK);
    if (is_python_scalar(fill)) return full_like(a, Scalar(to_scalar_value(fill)), opt_dtype(dtype), o, opt_shape(shape));
    return full_like(a, to_array_required(fill, &a.device()), opt_dtype(dtype), o, opt_shape(shape));
  }, py::arg("a"), py::arg("fill_value"), py::arg("dtype") = py::none(), py::arg("order") = "K",
     py::arg("shape") = py::none());
  // Python scalars only: Python turns NumPy scalars into Python ones and names their dtype.
  m.def("arange", [](py::handle start, py::handle stop, py::handle step, py::handle dtype) {
    return arange(Scalar(to_scalar_value(start)), Scalar(to_scalar_value(stop)), Scalar(to_scalar_value(step)),
                  opt_dtype(dtype));
  }, py::arg("start"), py::arg("stop"), py::arg("step"), py::arg("dtype") = py::none());
  m.def("linspace", [](py::handle start, py::handle stop, int64_t num, bool endpoint, bool retstep, py::handle dtype,
                       int64_t axis) -> py::object {
    auto [y, step] = linspace_with_step(to_operand(start), to_operand(stop), num, endpoint, opt_dtype(dtype), axis);
    if (!retstep) return py::cast(y);
    return py::make_tuple(y, step);
  });
  m.def("eye", [](int64_t n, py::handle m_, int64_t k, py::handle dtype, py::handle order) {
    std::optional<int64_t> mm = m_.is_none() ? std::nullopt : std::optional<int64_t>(py::cast<int64_t>(m_));
    return eye(n, mm, k, to_dtype_required(dtype), order_or(order, Order::kC));
  });

  // ---- manipulation (views keep their base, as the ndarray methods do) ----
  m.def("moveaxis", [](py::handle a, py::handle source, py::handle destination) {
    return wrap_array(moveaxis(py::cast<const Array&>(a), to_int_list(source), to_int_list(destination)), a);
  });
  m.def("expand_dims", [](py::handle a, py::handle axis) {
    return wrap_array(expand_dims(py::cast<const Array&>(a), to_int_list(axis)), a);
  });
  m.def("broadcast_to", [](py::handle a, py::handle shape) {
    return wrap_array(broadcast_to(py::cast<const Array&>(a), to_shape(shape)), a);
  });
  m.def(
      "as_strided",
      [](py::handle a, py::handle shape, py::handle strides, int64_t offset, bool writeable) {
        const Array& x = py::cast<const Array&>(a);
        return wrap_array(as_strided(x, to_shape(shape), Strides(to_int_list(strides)), offset, writeable), a);
      },
      py::arg("a"), py::arg("shape"), py::arg("strides"), py::arg("offset") = 0, py::arg("writeable") = true);
  m.def("broadcast_arrays", [](py::list arrays) {
    std::vector<Array> in = array_list(arrays);
    std::vector<Array> out = broadcast_arrays(in);
    py::tuple t(out.size());
    // An input that needs no broadcasting comes back as the same object, as before.
    for (size_t i = 0; i < out.size(); ++i)
      t[i] = out[i].shape() == in[i].shape() && py::isinstance<Array>(arrays[i])
                 ? py::reinterpret_borrow<py::object>(arrays[i])
                 : wrap_array(out[i], arrays[i]);
    return t;
  });
  m.def("concatenate", [](py::handle arrays, py::handle axis, py::handle out, py::handle dtype, py::handle casting) {
    std::optional<int64_t> ax = axis.is_none() ? std::nullopt : std::optional<int64_t>(py::cast<int64_t>(axis));
    return concatenate(array_list(arrays), ax, join_options(out, dtype, casting));
  }, py::arg("arrays"), py::arg("axis") = 0, py::arg("out") = py::none(), py::arg("dtype") = py::none(),
     py::arg("casting") = "same_kind");
  m.def("stack", [](py::handle arrays, int64_t axis, py::handle out, py::handle dtype, py::handle casting) {
    return stack(array_list(arrays), axis, join_options(out, dtype, casting));
  }, py::arg("arrays"), py::arg("axis") = 0, py::arg("out") = py::none(), py::arg("dtype") = py::none(),
     py::arg("casting") = "same_kind");
  m.def("repeat", [](const Array& a, const Array& repeats, std::optional<int64_t> axis) {
    return repeat(a, repeats, axis);
  }, py::arg("a"), py::arg("repeats"), py::arg("axis") = py::none(), py::call_guard<py::gil_scoped_release>());
  m.def("where", [](py::handle condition) { return to_tuple(where(to_array_required(condition))); });
  m.def("where", [](py::handle condition, py::handle x, py::handle y) {
    return where(to_array_required(condition), to_operand(x), to_operand(y));
  });
  m.def("clip", [](const Array& a, py::handle lo, py::handle hi, py::handle out) {
    Array o;
    if (!out.is_none()) {
      if (!py::isinstance<Array>(out)) throw TypeError("return arrays must be of ArrayType");
      o = py::cast<Array>(out);
    }
    return clip(a, clip_bound(lo), clip_bound(hi), o);
  }, py::arg("a"), py::arg("a_min") = py::none(), py::arg("a_max") = py::none(), py::arg("out") = py::none());
}

}  // namespace py_bind
}  // namespace kumo
