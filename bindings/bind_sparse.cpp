// kumo._core.sparse: the C++ matrices of sparse/sparse.h (Coo, Csr, Csc)
// and their free functions, for the Python package kumo.sparse, which adds
// SciPy's classes, constructors and operators on top. Functions that run
// kernels release the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>

#include "bindings/convert.h"
#include "core/errors.h"
#include "sparse/indexing.h"
#include "sparse/portable_sparse.h"
#include "sparse/reductions.h"
#include "sparse/sparse.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

// bind_sparse_construct.cpp: the DIA and BSR formats and the construction functions.
void bind_sparse_construct(py::module_& m);

namespace {

using sparse::CooMatrix;
using sparse::CscMatrix;
using sparse::CsrMatrix;
using sparse::Shape2;
using ShapeArg = std::optional<std::pair<int64_t, int64_t>>;

std::optional<Shape2> to_shape2(const ShapeArg& s) {
  if (!s) return std::nullopt;
  return Shape2{s->first, s->second};
}

// A Python slice as kumo's (missing start/stop stay missing).
IndexItem to_slice(const py::slice& s) {
  const auto part = [&](const char* name) -> std::optional<int64_t> {
    py::object v = s.attr(name);
    if (v.is_none()) return std::nullopt;
    return py::cast<int64_t>(v);
  };
  const std::optional<int64_t> step = part("step");
  return IndexItem::slice(part("start"), part("stop"), step.value_or(1));
}

sparse::RowReduce to_row_reduce(const std::string& name) {
  if (name == "max") return sparse::RowReduce::kMax;
  if (name == "min") return sparse::RowReduce::kMin;
  if (name == "nanmax") return sparse::RowReduce::kNanMax;
  if (name == "nanmin") return sparse::RowReduce::kNanMin;
  if (name == "argmax") return sparse::RowReduce::kArgMax;
  if (name == "argmin") return sparse::RowReduce::kArgMin;
  throw ValueError("kumo._core.sparse.reduce: unknown reduction " + name);
}

py::tuple shape_tuple(Shape2 s) { return py::make_tuple(s.rows, s.cols); }

// The properties the three classes share.
template <class M>
void common(py::class_<M>& cls) {
  cls.def_property_readonly("data", [](const M& m) { return new_ndarray(Array(m.data)); })
      .def_property_readonly("shape", [](const M& m) { return shape_tuple(m.shape); })
      .def_property_readonly("dtype", [](const M& m) { return numpy_dtype(m.dtype()); })
      .def_property_readonly("nnz", [](const M& m) { return m.nnz(); });
}

template <class M>
void compressed(py::class_<M>& cls) {
  common(cls);
  cls.def_property_readonly("indices", [](const M& m) { return new_ndarray(Array(m.indices)); })
      .def_property_readonly("indptr", [](const M& m) { return new_ndarray(Array(m.indptr)); });
}

}  // namespace

void bind_sparse(py::module_& parent) {
  py::module_ m = parent.def_submodule("sparse", "kumo::sparse: COO, CSR and CSC matrices (sparse/sparse.h)");
  using Release = py::call_guard<py::gil_scoped_release>;

  py::class_<CooMatrix> coo(m, "Coo");
  common(coo);
  // A copy of the value (sharing the arrays), whose flag may then change.
  coo.def(py::init<const CooMatrix&>())
      .def_property_readonly("row", [](const CooMatrix& a) { return new_ndarray(Array(a.row)); })
      .def_property_readonly("col", [](const CooMatrix& a) { return new_ndarray(Array(a.col)); })
      .def_readwrite("canonical", &CooMatrix::canonical);
  py::class_<CsrMatrix> csr(m, "Csr");
  compressed(csr);
  py::class_<CscMatrix> csc(m, "Csc");
  compressed(csc);

  m.def("make_coo", [](const Array& data, const Array& row, const Array& col, const ShapeArg& shape) {
    return sparse::make_coo(data, row, col, to_shape2(shape));
  }, py::arg("data"), py::arg("row"), py::arg("col"), py::arg("shape") = py::none(), Release());
  m.def("make_csr", [](const Array& data, const Array& indices, const Array& indptr, const ShapeArg& shape) {
    return sparse::make_csr(data, indices, indptr, to_shape2(shape));
  }, py::arg("data"), py::arg("indices"), py::arg("indptr"), py::arg("shape") = py::none(), Release());
  m.def("make_csc", [](const Array& data, const Array& indices, const Array& indptr, const ShapeArg& shape) {
    return sparse::make_csc(data, indices, indptr, to_shape2(shape));
  }, py::arg("data"), py::arg("indices"), py::arg("indptr"), py::arg("shape") = py::none(), Release());
  m.def("coo_from_dense", &sparse::coo_from_dense, py::arg("dense"), Release());
  m.def("coo_empty", [](std::pair<int64_t, int64_t> shape, py::handle dtype) {
    return sparse::coo_empty(Shape2{shape.first, shape.second}, to_dtype_required(dtype), current_device());
  }, py::arg("shape"), py::arg("dtype"));
  m.def("index_dtype", [](int64_t max_value) { return numpy_dtype(sparse::index_dtype(max_value)); });

  // One name, one overload per format that has the operation.
#define KUMO_SPARSE_UNARY(name, M) m.def(#name, py::overload_cast<const M&>(&sparse::name), Release());
#define KUMO_SPARSE_COMPRESSED(name) KUMO_SPARSE_UNARY(name, CsrMatrix) KUMO_SPARSE_UNARY(name, CscMatrix)
#define KUMO_SPARSE_ALL(name) KUMO_SPARSE_COMPRESSED(name) KUMO_SPARSE_UNARY(name, CooMatrix)
  KUMO_SPARSE_COMPRESSED(has_sorted_indices)
  KUMO_SPARSE_COMPRESSED(has_canonical_format)
  KUMO_SPARSE_COMPRESSED(sort_indices)
  KUMO_SPARSE_ALL(sum_duplicates)
  KUMO_SPARSE_ALL(eliminate_zeros)
  KUMO_SPARSE_UNARY(tocsr, CooMatrix)
  KUMO_SPARSE_UNARY(tocsr, CscMatrix)
  KUMO_SPARSE_UNARY(tocsc, CooMatrix)
  KUMO_SPARSE_UNARY(tocsc, CsrMatrix)
  KUMO_SPARSE_COMPRESSED(tocoo)
  KUMO_SPARSE_ALL(toarray)
  KUMO_SPARSE_ALL(transpose)
  KUMO_SPARSE_ALL(conj)
  KUMO_SPARSE_UNARY(negative, CsrMatrix)
#undef KUMO_SPARSE_ALL
#undef KUMO_SPARSE_COMPRESSED
#undef KUMO_SPARSE_UNARY

  const auto per_format = [&m](auto tag) {
    using M = typename decltype(tag)::type;
    m.def("astype", [](const M& a, py::handle dtype) { return sparse::astype(a, to_dtype_required(dtype)); });
    m.def("diagonal", py::overload_cast<const M&, int64_t>(&sparse::diagonal), py::arg("a"), py::arg("k") = 0,
          Release());
    m.def("matmul", py::overload_cast<const M&, const Array&>(&sparse::matmul), Release());
    // A Python scalar (bool, int, float, complex) as NEP 50's weak operand.
    m.def("multiply_scalar", [](const M& a, py::handle s) {
      const Scalar scalar(to_scalar_value(s));
      py::gil_scoped_release release;
      return sparse::multiply(a, scalar);
    });
  };
  struct CooTag { using type = CooMatrix; };
  struct CsrTag { using type = CsrMatrix; };
  struct CscTag { using type = CscMatrix; };
  per_format(CooTag{});
  per_format(CsrTag{});
  per_format(CscTag{});
  m.def("rmatmul", py::overload_cast<const Array&, const CsrMatrix&>(&sparse::rmatmul), Release());
  m.def("rmatmul", py::overload_cast<const Array&, const CscMatrix&>(&sparse::rmatmul), Release());
  m.def("matmul", py::overload_cast<const CsrMatrix&, const CsrMatrix&>(&sparse::matmul), Release());
  m.def("matmul", py::overload_cast<const CscMatrix&, const CscMatrix&>(&sparse::matmul), Release());
  m.def("matmul", py::overload_cast<const CooMatrix&, const CooMatrix&>(&sparse::matmul), Release());
  // Indexing (sparse/indexing.h) and reductions (sparse/reductions.h).
  const auto indexing = [&m](auto tag) {
    using M = typename decltype(tag)::type;
    m.def("take_rows", py::overload_cast<const M&, const Array&>(&sparse::take_rows), Release());
    m.def("take_cols", py::overload_cast<const M&, const Array&>(&sparse::take_cols), Release());
    m.def("slice", [](const M& a, const py::slice& rows, const py::slice& cols) {
      const IndexItem r = to_slice(rows), c = to_slice(cols);
      py::gil_scoped_release release;
      return sparse::slice(a, r, c);
    });
    m.def("get_entries", py::overload_cast<const M&, const Array&, const Array&>(&sparse::get_entries), Release());
    m.def("set_entries",
          py::overload_cast<const M&, const Array&, const Array&, const Array&>(&sparse::set_entries), Release());
  };
  indexing(CsrTag{});
  indexing(CscTag{});
  const auto reductions = [&m](auto tag) {
    using M = typename decltype(tag)::type;
    m.def("reduce", [](const M& a, const std::string& op, std::optional<int> axis, bool explicit_only) {
      const sparse::RowReduce r = to_row_reduce(op);
      py::gil_scoped_release release;
      return sparse::reduce(a, r, axis, explicit_only);
    }, py::arg("a"), py::arg("op"), py::arg("axis") = py::none(), py::arg("explicit_only") = false);
  };
  reductions(CooTag{});
  reductions(CsrTag{});
  reductions(CscTag{});
  m.def("add", py::overload_cast<const CsrMatrix&, const CsrMatrix&>(&sparse::add), Release());
  m.def("maximum", &sparse::maximum, Release());
  m.def("minimum", &sparse::minimum, Release());
  m.def("not_equal", &sparse::not_equal, Release());
  m.def("less", &sparse::less, Release());
  m.def("greater", &sparse::greater, Release());
  m.def("subtract", py::overload_cast<const CsrMatrix&, const CsrMatrix&>(&sparse::subtract), Release());
  m.def("multiply", py::overload_cast<const CsrMatrix&, const CsrMatrix&>(&sparse::multiply), Release());
  // Tests run host arrays through the portable backend, the CUDA backend's
  // code, with this switch (sparse/portable_sparse.h).
  m.def("_set_portable_backend", &sparse::set_portable_sparse_on_host, py::arg("on"));
  m.def("_portable_backend", &sparse::portable_sparse_on_host);
  m.def("_host_backend_name",
        [] { return sparse::sparse_backend(get_device(DeviceType::kCPU, 0), "kumo.sparse").name(); });
  bind_sparse_construct(m);
  struct DiaTag { using type = sparse::DiaMatrix; };
  struct BsrTag { using type = sparse::BsrMatrix; };
  per_format(DiaTag{});
  per_format(BsrTag{});
}

}  // namespace py_bind
}  // namespace kumo
