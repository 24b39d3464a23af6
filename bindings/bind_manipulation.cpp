// kumo._core.manip: the routines of routines/joining.h, rearranging.h,
// padding.h and numpy.copyto for python/kumo/_manipulation.py, which
// converts array-likes and NumPy's argument forms (pad_width pairs, slices,
// scalars) before calling these. Results that are views keep their base.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings/convert.h"
#include "core/errors.h"
#include "core/warnings.h"
#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/joining.h"
#include "routines/padding.h"
#include "routines/rearranging.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

namespace {

const Array& arr(py::handle h) { return py::cast<const Array&>(h); }

std::vector<Array> array_list(py::handle seq) {
  std::vector<Array> out;
  for (py::handle item : seq) out.push_back(to_array_required(item));
  return out;
}

py::list view_list(const std::vector<Array>& arrays, py::handle self) {
  py::list l;
  for (const Array& a : arrays) l.append(wrap_array(a, self));
  return l;
}

std::optional<int64_t> opt_int(py::handle h) {
  return h.is_none() ? std::nullopt : std::optional<int64_t>(py::cast<int64_t>(h));
}

IndexItem to_slice(py::handle s) {
  return IndexItem::slice(opt_int(s.attr("start")), opt_int(s.attr("stop")),
                          s.attr("step").is_none() ? 1 : py::cast<int64_t>(s.attr("step")));
}

std::vector<std::pair<Scalar, Scalar>> scalar_pairs(py::handle pairs) {
  std::vector<std::pair<Scalar, Scalar>> out;
  if (pairs.is_none()) return out;
  for (py::handle p : pairs) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(p);
    out.emplace_back(Scalar(to_scalar_value(s[0])), Scalar(to_scalar_value(s[1])));
  }
  return out;
}

}  // namespace

void bind_manipulation(py::module_& parent) {
  py::module_ m = parent.def_submodule("manip", "numpy's splitting, tiling, rearranging and padding routines");

  // indices_or_sections: an int (sections) or a list of split points.
  m.def("array_split", [](py::handle a, py::handle ios, int64_t axis, bool strict) {
    std::vector<Array> r;
    if (py::isinstance<py::int_>(ios)) {
      const int64_t n = py::cast<int64_t>(ios);
      r = strict ? split(arr(a), n, axis) : array_split(arr(a), n, axis);
    } else {
      r = array_split(arr(a), to_int_list(ios), axis);
    }
    return view_list(r, a);
  });
  m.def("directional_split", [](py::handle a, py::handle ios, const std::string& which) {
    const Array& x = arr(a);
    const bool sections = py::isinstance<py::int_>(ios);
    std::vector<Array> r;
    if (which == "h")
      r = sections ? hsplit(x, py::cast<int64_t>(ios)) : hsplit(x, to_int_list(ios));
    else if (which == "v")
      r = sections ? vsplit(x, py::cast<int64_t>(ios)) : vsplit(x, to_int_list(ios));
    else
      r = sections ? dsplit(x, py::cast<int64_t>(ios)) : dsplit(x, to_int_list(ios));
    return view_list(r, a);
  });
  m.def("unstack", [](py::handle x, int64_t axis) { return py::tuple(view_list(unstack(arr(x), axis), x)); });
  m.def(
      "tile", [](const Array& a, std::vector<int64_t> reps) { return tile(a, reps); },
      py::call_guard<py::gil_scoped_release>());
  m.def("dstack", [](py::handle seq) { return dstack(array_list(seq)); });
  m.def("column_stack", [](py::handle seq) { return column_stack(array_list(seq)); });

  m.def("flip", [](py::handle a, py::handle axes) {
    return wrap_array(axes.is_none() ? flip(arr(a)) : flip(arr(a), to_int_list(axes)), a);
  });
  m.def("fliplr", [](py::handle a) { return wrap_array(fliplr(arr(a)), a); });
  m.def("flipud", [](py::handle a) { return wrap_array(flipud(arr(a)), a); });
  m.def(
      "roll",
      [](const Array& a, std::vector<int64_t> shift, std::optional<std::vector<int64_t>> axes) {
        return roll(a, shift, axes);
      },
      py::arg("a"), py::arg("shift"), py::arg("axes") = py::none(), py::call_guard<py::gil_scoped_release>());
  m.def("rot90",
        [](py::handle a, int64_t k, std::vector<int64_t> axes) { return wrap_array(rot90(arr(a), k, axes), a); });
  m.def("resize", [](const Array& a, py::handle shape) { return resize(a, to_shape(shape)); });
  m.def("append",
        [](const Array& a, const Array& values, std::optional<int64_t> axis) { return append(a, values, axis); });
  // obj: a slice, or an integer/boolean array of 0 or 1 dimensions.
  m.def("insert", [](const Array& a, py::handle obj, const Array& values, std::optional<int64_t> axis) {
    if (py::isinstance<py::slice>(obj)) return insert(a, to_slice(obj), values, axis);
    return insert(a, to_array_required(obj, &a.device()), values, axis);
  });
  m.def("delete", [](const Array& a, py::handle obj, std::optional<int64_t> axis) {
    if (py::isinstance<py::slice>(obj)) return delete_(a, to_slice(obj), axis);
    if (py::isinstance<py::int_>(obj)) return delete_(a, py::cast<int64_t>(obj), axis);
    return delete_(a, to_array_required(obj, &a.device()), axis);
  });
  m.def("trim_zeros", [](py::handle filt, const std::string& trim, std::optional<std::vector<int64_t>> axes) {
    return wrap_array(trim_zeros(arr(filt), trim, axes), filt);
  });
  m.def("vander", [](const Array& x, std::optional<int64_t> n, bool increasing) { return vander(x, n, increasing); });

  // pad_width: (before, after) pairs; the value options: pairs of Python
  // scalars or None; stat_length: pairs of ints or None.
  m.def("pad", [](const Array& a, std::vector<std::pair<int64_t, int64_t>> width, const std::string& mode,
                  py::handle constant_values, py::handle end_values, py::handle stat_length, bool reflect_odd) {
    PadOptions o;
    o.constant_values = scalar_pairs(constant_values);
    o.end_values = scalar_pairs(end_values);
    if (!stat_length.is_none())
      for (py::handle p : stat_length) {
        py::sequence s = py::reinterpret_borrow<py::sequence>(p);
        o.stat_length.emplace_back(opt_int(s[0]), opt_int(s[1]));
      }
    o.reflect_odd = reflect_odd;
    return pad(a, width, pad_mode_from_string(mode), o);
  });

  m.def("copyto", [](const Array& dst, py::handle src, const std::string& casting, py::handle where) {
    const Casting c = casting_from_name(casting);
    Array s;
    if (is_python_scalar(src)) {
      // A Python number is a weak operand: its value must fit dst's dtype
      // (OverflowError), its kind must be castable under the rule.
      const kernels::ScalarValue v = to_scalar_value(src);
      // A Python bool is a bool, not a weak scalar, to NumPy's casting check.
      Dtype weak = v.kind == WeakScalar::kBool ? Dtype::kBool : result_type({dst.dtype()}, {v.kind});
      if (!can_cast(weak, dst.dtype(), c))
        throw TypeError("Cannot cast scalar from " + dtype_repr(weak) + " to " + dtype_repr(dst.dtype()) +
                        " according to the rule '" + casting + "'");
      if (v.kind == WeakScalar::kComplex && !is_complex(dst.dtype())) {
        // NumPy makes the complex number an array and casts it unsafely: the
        // real part, with a ComplexWarning.
        warn_if_complex_to_real(Dtype::kComplex128, dst.dtype());
        s = full(Shape{}, Scalar(v), Dtype::kComplex128, Order::kC, dst.device()).astype(dst.dtype());
      } else {
        s = full(Shape{}, Scalar(v), dst.dtype(), Order::kC, dst.device());
      }
    } else {
      s = to_array_required(src, &dst.device());
    }
    Array w;
    if (!where.is_none()) w = to_array_required(where, &dst.device());
    copyto(dst, s, c, w);
  });
}

}  // namespace py_bind
}  // namespace kumo
