// kumo._core: the index routines of routines/indexing.h (take, put,
// nonzero, compress, ...). python/kumo/_indexing.py converts array-likes
// and keyword spellings; everything else happens here and in C++.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "bindings/convert.h"
#include "routines/indexing.h"

namespace kumo {
namespace py_bind {

namespace {

py::tuple tuple_of(const std::vector<Array>& arrays) {
  py::tuple t(arrays.size());
  for (size_t k = 0; k < arrays.size(); ++k) t[k] = wrap_array(arrays[k], py::none());
  return t;
}

IndexMode mode_of(const std::string& mode) { return index_mode_from_string(mode); }

}  // namespace

void bind_indexing(py::module_& m) {
  using Release = py::call_guard<py::gil_scoped_release>;
  using Axis = std::optional<int64_t>;
  m.def("_nonzero", [](const Array& a) { return tuple_of(nonzero(a)); });
  m.def("_flatnonzero", &flatnonzero, Release());
  m.def("_argwhere", &argwhere, Release());
  m.def("_extract", &extract, Release());
  m.def(
      "_take",
      [](const Array& a, const Array& indices, Axis axis, const std::string& mode, std::optional<Array> out) {
        return take(a, indices, axis, mode_of(mode), out.value_or(Array()));
      },
      Release());
  m.def(
      "_put",
      [](const Array& a, const Array& indices, const Array& values, const std::string& mode) {
        put(a, indices, values, mode_of(mode));
      },
      Release());
  m.def("_take_along_axis", &take_along_axis, Release());
  m.def("_put_along_axis", &put_along_axis, Release());
  m.def(
      "_compress",
      [](const Array& condition, const Array& a, Axis axis, std::optional<Array> out) {
        return compress(condition, a, axis, out.value_or(Array()));
      },
      Release());
  m.def("_putmask", &putmask, Release());
  m.def("_place", &place, Release());
}

}  // namespace py_bind
}  // namespace kumo
