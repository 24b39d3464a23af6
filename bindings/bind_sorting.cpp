// kumo._core.sorting: the C++ routines of routines/sorting.h for the Python
// module kumo._sorting, which converts array-likes and keyword arguments and
// builds the named tuples. Each function releases the GIL while it works.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "routines/sorting.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

void bind_sorting(py::module_& parent) {
  py::module_ m = parent.def_submodule("sorting", "numpy's sorting, searching and unique routines");
  using Release = py::call_guard<py::gil_scoped_release>;
  using SortFn =
      Array (*)(const Array&, std::optional<int64_t>, const std::optional<std::string>&, std::optional<bool>);
  for (auto [name, fn] : {std::pair<const char*, SortFn>{"sort", &sort}, {"argsort", &argsort}}) {
    m.def(name, fn, py::arg("a"), py::arg("axis") = -1, py::arg("kind") = py::none(), py::arg("stable") = py::none(),
          Release());
  }
  m.def("sort_in_place", &sort_in_place, py::arg("a"), py::arg("axis") = -1, py::arg("kind") = py::none(),
        py::arg("stable") = py::none(), Release());
  m.def("check_sort_kind", &check_sort_kind, py::arg("kind"), py::arg("stable"));
  m.def("sort_complex", &sort_complex, py::arg("a"), Release());
  m.def("partition", &partition, py::arg("a"), py::arg("kth"), py::arg("axis") = -1, Release());
  m.def("argpartition", &argpartition, py::arg("a"), py::arg("kth"), py::arg("axis") = -1, Release());
  m.def("lexsort", &lexsort, py::arg("keys"), py::arg("axis") = -1, Release());
  m.def("_searchsorted_generated", &searchsorted_generated, py::arg("a"), py::arg("v"), py::arg("side") = "left",
        py::arg("sorter") = py::none());
  m.def("searchsorted", &searchsorted, py::arg("a"), py::arg("v"), py::arg("side") = "left",
        py::arg("sorter") = py::none(), Release());
  m.def(
      "unique",
      [](const Array& a, bool return_index, bool return_inverse, bool return_counts, bool equal_nan) {
        UniqueResult r = unique(a, return_index, return_inverse, return_counts, equal_nan);
        return std::make_tuple(r.values, r.index, r.inverse, r.counts);
      },
      py::arg("a"), py::arg("return_index") = false, py::arg("return_inverse") = false,
      py::arg("return_counts") = false, py::arg("equal_nan") = true, Release());
  m.def("_lexsort_composed", &lexsort_composed, py::arg("keys"), py::arg("axis") = -1, Release());
  m.def(
      "_unique_composed",
      [](const Array& a, bool return_index, bool return_inverse, bool return_counts, bool equal_nan) {
        UniqueResult r = unique_composed(a, return_index, return_inverse, return_counts, equal_nan);
        return std::make_tuple(r.values, r.index, r.inverse, r.counts);
      },
      py::arg("a"), py::arg("return_index") = false, py::arg("return_inverse") = false,
      py::arg("return_counts") = false, py::arg("equal_nan") = true, Release());
}

}  // namespace py_bind
}  // namespace kumo
