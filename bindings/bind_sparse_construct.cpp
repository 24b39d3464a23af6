// kumo._core.sparse, continued: the DIA and BSR matrices (Dia, Bsr) of
// sparse/dia_bsr.h with their conversions, and the construction functions
// of sparse/construct.h (astype, diagonal, matmul and scalar products are
// bound per format in bind_sparse.cpp). Functions that run kernels release
// the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <utility>
#include <vector>

#include "bindings/convert.h"
#include "sparse/sparse.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

namespace {
using sparse::BsrMatrix;
using sparse::CooMatrix;
using sparse::CscMatrix;
using sparse::CsrMatrix;
using sparse::DiaMatrix;
using sparse::Shape2;
using Pair = std::pair<int64_t, int64_t>;
using OptPair = std::optional<Pair>;

Shape2 shape2(Pair p) { return Shape2{p.first, p.second}; }
std::optional<Shape2> shape2(const OptPair& p) {
  if (!p) return std::nullopt;
  return shape2(*p);
}

template <class T>
struct Tag {
  using type = T;
};
}  // namespace

void bind_sparse_construct(py::module_& m) {
  using Release = py::call_guard<py::gil_scoped_release>;

  py::class_<DiaMatrix> dia(m, "Dia");
  dia.def_property_readonly("data", [](const DiaMatrix& a) { return new_ndarray(Array(a.data)); })
      .def_property_readonly("offsets", [](const DiaMatrix& a) { return new_ndarray(Array(a.offsets)); })
      .def_property_readonly("shape", [](const DiaMatrix& a) { return py::make_tuple(a.shape.rows, a.shape.cols); })
      .def_property_readonly("dtype", [](const DiaMatrix& a) { return numpy_dtype(a.dtype()); })
      .def_property_readonly("nnz", &DiaMatrix::nnz);
  py::class_<BsrMatrix> bsr(m, "Bsr");
  bsr.def_property_readonly("data", [](const BsrMatrix& a) { return new_ndarray(Array(a.data)); })
      .def_property_readonly("indices", [](const BsrMatrix& a) { return new_ndarray(Array(a.indices)); })
      .def_property_readonly("indptr", [](const BsrMatrix& a) { return new_ndarray(Array(a.indptr)); })
      .def_property_readonly("shape", [](const BsrMatrix& a) { return py::make_tuple(a.shape.rows, a.shape.cols); })
      .def_property_readonly("dtype", [](const BsrMatrix& a) { return numpy_dtype(a.dtype()); })
      .def_property_readonly("blocksize",
                             [](const BsrMatrix& a) { return py::make_tuple(a.block_rows(), a.block_cols()); })
      .def_property_readonly("nnz", &BsrMatrix::nnz);

  m.def(
      "make_dia",
      [](const Array& data, const Array& offsets, Pair shape) {
        return sparse::make_dia(data, offsets, shape2(shape));
      },
      py::arg("data"), py::arg("offsets"), py::arg("shape"), Release());
  m.def(
      "make_bsr",
      [](const Array& data, const Array& indices, const Array& indptr, const OptPair& shape, const OptPair& blocksize) {
        return sparse::make_bsr(data, indices, indptr, shape2(shape), blocksize);
      },
      py::arg("data"), py::arg("indices"), py::arg("indptr"), py::arg("shape") = py::none(),
      py::arg("blocksize") = py::none(), Release());
  m.def("dia_empty", [](Pair shape, py::handle dtype) {
    return sparse::dia_empty(shape2(shape), to_dtype_required(dtype), current_device());
  });
  m.def("bsr_empty", [](Pair shape, Pair blocksize, py::handle dtype) {
    return sparse::bsr_empty(shape2(shape), blocksize, to_dtype_required(dtype), current_device());
  });

  // Conversions: every format to every other (one overload per source).
  const auto from = [&m](auto tag) {
    using M = typename decltype(tag)::type;
    m.def("todia", py::overload_cast<const M&>(&sparse::todia), Release());
    m.def("tobsr", py::overload_cast<const M&, OptPair>(&sparse::tobsr), py::arg("a"),
          py::arg("blocksize") = py::none(), Release());
  };
  from(Tag<CooMatrix>{});
  from(Tag<CsrMatrix>{});
  from(Tag<CscMatrix>{});
  from(Tag<DiaMatrix>{});
  m.def("todia", py::overload_cast<const BsrMatrix&>(&sparse::todia), Release());
  const auto own = [&m](auto tag) {
    using M = typename decltype(tag)::type;
    m.def("tocoo", py::overload_cast<const M&>(&sparse::tocoo), Release());
    m.def("tocsr", py::overload_cast<const M&>(&sparse::tocsr), Release());
    m.def("tocsc", py::overload_cast<const M&>(&sparse::tocsc), Release());
    m.def("toarray", py::overload_cast<const M&>(&sparse::toarray), Release());
    m.def("transpose", py::overload_cast<const M&>(&sparse::transpose), Release());
    m.def("conj", py::overload_cast<const M&>(&sparse::conj), Release());
  };
  own(Tag<DiaMatrix>{});
  own(Tag<BsrMatrix>{});
  m.def("sort_indices", py::overload_cast<const BsrMatrix&>(&sparse::sort_indices), Release());
  m.def("has_sorted_indices", py::overload_cast<const BsrMatrix&>(&sparse::has_sorted_indices), Release());
  m.def("has_canonical_format", py::overload_cast<const BsrMatrix&>(&sparse::has_canonical_format), Release());
  m.def("eliminate_zeros", py::overload_cast<const BsrMatrix&>(&sparse::eliminate_zeros), Release());
  m.def("add", py::overload_cast<const DiaMatrix&, const DiaMatrix&>(&sparse::add), Release());
  m.def("subtract", py::overload_cast<const DiaMatrix&, const DiaMatrix&>(&sparse::subtract), Release());
  m.def("multiply", py::overload_cast<const DiaMatrix&, const DiaMatrix&>(&sparse::multiply), Release());
  m.def("multiply", py::overload_cast<const DiaMatrix&, const Array&>(&sparse::multiply), Release());
  m.def("estimate_blocksize", &sparse::estimate_blocksize, py::arg("a"), py::arg("efficiency") = 0.7, Release());

  // ---- construction functions ----
  m.def("diags",
        [](const std::vector<Array>& diagonals, const std::vector<int64_t>& offsets, Pair shape, py::handle dtype) {
          const Dtype d = to_dtype_required(dtype);
          py::gil_scoped_release release;
          return sparse::diags(diagonals, offsets, shape2(shape), d);
        });
  m.def("eye", [](Pair shape, int64_t k, py::handle dtype) {
    const Dtype d = to_dtype_required(dtype);
    py::gil_scoped_release release;
    return sparse::eye(shape2(shape), k, d, current_device());
  });
  m.def("kron", py::overload_cast<const CooMatrix&, const CooMatrix&>(&sparse::kron), Release());
  m.def("kron", py::overload_cast<const CsrMatrix&, const Array&>(&sparse::kron), Release());
  m.def("kronsum", &sparse::kronsum, Release());
  m.def("bmat", [](const std::vector<std::vector<std::optional<CooMatrix>>>& blocks, py::handle dtype) {
    const std::optional<Dtype> d = dtype.is_none() ? std::nullopt : std::optional<Dtype>(to_dtype_required(dtype));
    py::gil_scoped_release release;
    return sparse::bmat(blocks, d);
  });
  m.def("vstack", py::overload_cast<const std::vector<CsrMatrix>&>(&sparse::vstack), Release());
  m.def("vstack", py::overload_cast<const std::vector<CscMatrix>&>(&sparse::vstack), Release());
  m.def("hstack", py::overload_cast<const std::vector<CsrMatrix>&>(&sparse::hstack), Release());
  m.def("hstack", py::overload_cast<const std::vector<CscMatrix>&>(&sparse::hstack), Release());
  m.def("block_diag", &sparse::block_diag, py::arg("blocks"), py::arg("wide_index") = false, Release());
  m.def("coo_all_entries", &sparse::coo_all_entries, Release());
  m.def("tril", &sparse::tril, py::arg("a"), py::arg("k") = 0, Release());
  m.def("triu", &sparse::triu, py::arg("a"), py::arg("k") = 0, Release());
  m.def("find", &sparse::find, Release());
  m.def("random", [](Pair shape, double density, py::handle dtype, uint64_t seed) {
    const Dtype d = to_dtype_required(dtype);
    py::gil_scoped_release release;
    return sparse::random(shape2(shape), density, d, seed, current_device());
  });
}

}  // namespace py_bind
}  // namespace kumo
