// kumo._core.sparse_linalg: kumo::sparse::linalg for the Python package
// kumo.sparse.linalg. The C++ LinearOperator is bound as `Operator`; one is
// made from a C++ matrix or dense array (products without Python), from
// Python callables (how a Python LinearOperator subclass reaches the C++
// solvers), or by the operator algebra. Solvers release the GIL and take it
// back only to call Python callables.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <utility>

#include "bindings/convert.h"
#include "sparse/linalg/dense_pencil.h"
#include "sparse/linalg/eigsh.h"
#include "sparse/linalg/expm_multiply.h"
#include "sparse/linalg/isolve.h"
#include "sparse/linalg/linear_operator.h"
#include "sparse/linalg/norm.h"
#include "sparse/linalg/not_implemented.h"
#include "sparse/linalg/superlu.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;

namespace {

using sparse::linalg::LinearOperator;

// A Python object kept alive by C++ functions that may be copied and
// destroyed on any thread: the reference is dropped under the GIL.
std::shared_ptr<py::object> keep(py::object o) {
  return std::shared_ptr<py::object>(new py::object(std::move(o)), [](py::object* p) {
    if (Py_IsInitialized()) {
      py::gil_scoped_acquire gil;
      delete p;
    }
  });
}

// A C++ function calling the Python callable f(x) (a kumo array) under the
// GIL and converting its result to an array.
LinearOperator::Apply python_apply(py::object f) {
  if (f.is_none()) return {};
  auto held = keep(std::move(f));
  return [held](const Array& x) {
    py::gil_scoped_acquire gil;
    py::object y = (*held)(new_ndarray(Array(x)));
    return to_array_required(y);
  };
}

sparse::linalg::IterateCallback python_callback(const py::object& f) {
  if (f.is_none()) return {};
  auto held = keep(f);
  return [held](const Array& x) {
    py::gil_scoped_acquire gil;
    (*held)(new_ndarray(Array(x)));
  };
}

// The options every solver of the scipy.sparse.linalg signature shares.
template <class Options>
Options solver_options(std::optional<Array> x0, double rtol, double atol, std::optional<int64_t> maxiter,
                       std::optional<LinearOperator> m, const py::object& callback) {
  Options o;
  o.x0 = std::move(x0);
  o.rtol = rtol;
  o.atol = atol;
  o.maxiter = maxiter;
  o.M = std::move(m);
  o.callback = python_callback(callback);
  return o;
}

// numpy's ord argument: None, a number (inf included) or "fro"/"f"/"nuc".
kumo::linalg::NormOrder norm_order(py::handle ord) {
  if (ord.is_none()) return {};
  if (py::isinstance<py::str>(ord)) return kumo::linalg::NormOrder::from_string(ord.cast<std::string>());
  return kumo::linalg::NormOrder(ord.cast<double>());
}

sparse::linalg::Which which_of(const std::string& w) {
  using sparse::linalg::Which;
  if (w == "LM") return Which::kLM;
  if (w == "SM") return Which::kSM;
  if (w == "LA") return Which::kLA;
  if (w == "SA") return Which::kSA;
  if (w == "BE") return Which::kBE;
  throw ValueError("which must be one of LM SM LA SA BE, not '" + w + "'");
}

sparse::linalg::ShiftInvertMode mode_of(const std::string& m) {
  using sparse::linalg::ShiftInvertMode;
  if (m == "normal") return ShiftInvertMode::kNormal;
  if (m == "buckling") return ShiftInvertMode::kBuckling;
  if (m == "cayley") return ShiftInvertMode::kCayley;
  throw ValueError("unrecognized mode '" + m + "'");
}

py::tuple solved(const sparse::linalg::SolveResult& r) { return py::make_tuple(new_ndarray(Array(r.x)), r.info); }

}  // namespace

void bind_sparse_linalg(py::module_& parent) {
  py::module_ m = parent.def_submodule("sparse_linalg", "kumo::sparse::linalg (sparse/linalg/)");
  static py::object not_implemented = py::reinterpret_borrow<py::object>(PyExc_NotImplementedError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const sparse::linalg::NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    }
  });

  py::class_<LinearOperator> op(m, "Operator");
  op.def(py::init([](std::pair<int64_t, int64_t> shape, py::handle dtype, py::object matvec, py::object rmatvec,
                     py::object matmat, py::object rmatmat, std::string name) {
           return LinearOperator({shape.first, shape.second}, to_dtype_required(dtype), python_apply(matvec),
                                 python_apply(rmatvec), python_apply(matmat), python_apply(rmatmat), name);
         }),
         py::arg("shape"), py::arg("dtype"), py::arg("matvec"), py::arg("rmatvec") = py::none(),
         py::arg("matmat") = py::none(), py::arg("rmatmat") = py::none(), py::arg("name") = "LinearOperator")
      .def_property_readonly("shape", [](const LinearOperator& a) { return py::make_tuple(a.shape().rows, a.shape().cols); })
      .def_property_readonly("dtype", [](const LinearOperator& a) { return numpy_dtype(a.dtype()); })
      .def_property_readonly("has_rmatvec", &LinearOperator::has_rmatvec)
      .def("matvec", &LinearOperator::matvec, py::call_guard<py::gil_scoped_release>())
      .def("rmatvec", &LinearOperator::rmatvec, py::call_guard<py::gil_scoped_release>())
      .def("matmat", &LinearOperator::matmat, py::call_guard<py::gil_scoped_release>())
      .def("rmatmat", &LinearOperator::rmatmat, py::call_guard<py::gil_scoped_release>());

  using Release = py::call_guard<py::gil_scoped_release>;
  m.def("from_csr", py::overload_cast<const sparse::CsrMatrix&>(&sparse::linalg::aslinearoperator));
  m.def("from_csc", py::overload_cast<const sparse::CscMatrix&>(&sparse::linalg::aslinearoperator));
  m.def("from_coo", py::overload_cast<const sparse::CooMatrix&>(&sparse::linalg::aslinearoperator), Release());
  m.def("from_dense", py::overload_cast<const Array&>(&sparse::linalg::aslinearoperator));
  m.def("identity", [](std::pair<int64_t, int64_t> shape, py::handle dtype) {
    return sparse::linalg::identity_operator({shape.first, shape.second}, to_dtype_required(dtype));
  });
  m.def("add", &sparse::linalg::add);
  m.def("multiply", &sparse::linalg::multiply);
  m.def("scale", &sparse::linalg::scale, py::arg("a"), py::arg("alpha"), py::arg("alpha_is_complex"));
  m.def("power", &sparse::linalg::power);
  m.def("adjoint", &sparse::linalg::adjoint);
  m.def("transpose", &sparse::linalg::transpose);

  const auto per_format = [&m](auto tag) {
    using M = typename decltype(tag)::type;
    m.def("norm", [](const M& a, py::handle ord, std::vector<int64_t> axis) {
      const auto o = norm_order(ord);
      py::gil_scoped_release release;
      return sparse::linalg::norm(a, o, axis);
    });
  };
  struct CooTag { using type = sparse::CooMatrix; };
  struct CsrTag { using type = sparse::CsrMatrix; };
  struct CscTag { using type = sparse::CscMatrix; };
  per_format(CooTag{});
  per_format(CsrTag{});
  per_format(CscTag{});
  py::class_<sparse::linalg::SuperLU>(m, "SuperLU")
      .def_property_readonly("shape", [](const sparse::linalg::SuperLU& f) {
        return py::make_tuple(f.shape().rows, f.shape().cols);
      })
      .def_property_readonly("dtype", [](const sparse::linalg::SuperLU& f) { return numpy_dtype(f.dtype()); })
      .def_property_readonly("nnz", &sparse::linalg::SuperLU::nnz)
      .def_property_readonly("perm_r", [](const sparse::linalg::SuperLU& f) { return new_ndarray(f.perm_r()); })
      .def_property_readonly("perm_c", [](const sparse::linalg::SuperLU& f) { return new_ndarray(f.perm_c()); })
      .def_property_readonly("L", &sparse::linalg::SuperLU::L)
      .def_property_readonly("U", &sparse::linalg::SuperLU::U)
      .def("solve", [](const sparse::linalg::SuperLU& f, const Array& b, const std::string& trans) {
        if (trans.size() != 1) throw ValueError("trans must be N, T, or H");
        py::gil_scoped_release release;
        return f.solve(b, trans[0]);
      }, py::arg("rhs"), py::arg("trans") = "N");
  m.def("inverse_operator", &sparse::linalg::inverse_operator);
  m.def("splu", [](const sparse::CscMatrix& a, const std::string& permc_spec, double diag_pivot_thresh, int relax,
                   int panel_size, bool symmetric_mode) {
    sparse::linalg::SuperLUOptions o;
    o.permc_spec = permc_spec;
    o.diag_pivot_thresh = diag_pivot_thresh;
    o.relax = relax;
    o.panel_size = panel_size;
    o.symmetric_mode = symmetric_mode;
    py::gil_scoped_release release;
    return sparse::linalg::splu(a, o);
  });
  m.def("spsolve", [](const sparse::CsrMatrix& a, const Array& b, const std::string& permc_spec) {
    auto r = [&] {
      py::gil_scoped_release release;
      return sparse::linalg::spsolve(a, b, permc_spec);
    }();
    return py::make_tuple(new_ndarray(Array(r.x)), r.singular);
  });
  m.def("spsolve", [](const sparse::CscMatrix& a, const Array& b, const std::string& permc_spec) {
    auto r = [&] {
      py::gil_scoped_release release;
      return sparse::linalg::spsolve(a, b, permc_spec);
    }();
    return py::make_tuple(new_ndarray(Array(r.x)), r.singular);
  });
  m.def("spsolve_triangular", &sparse::linalg::spsolve_triangular, py::arg("A"), py::arg("b"), py::arg("lower"),
        py::arg("unit_diagonal"), py::call_guard<py::gil_scoped_release>());
  m.def("solver_value_dtype", [](py::handle d) { return numpy_dtype(sparse::linalg::solver_value_dtype(to_dtype_required(d))); });
  m.def("eigsh", [](const LinearOperator& a, int64_t k, const std::string& which, std::optional<Array> v0,
                   std::optional<int64_t> ncv, std::optional<int64_t> maxiter, double tol, bool vectors,
                   std::optional<double> sigma, std::optional<LinearOperator> opinv,
                   std::optional<LinearOperator> mop, std::optional<LinearOperator> minv, const std::string& mode) {
    sparse::linalg::EigshOptions o;
    o.k = k;
    o.which = which_of(which);
    o.v0 = std::move(v0);
    o.ncv = ncv;
    o.maxiter = maxiter;
    o.tol = tol;
    o.return_eigenvectors = vectors;
    o.sigma = sigma;
    o.opinv = std::move(opinv);
    o.m = std::move(mop);
    o.minv = std::move(minv);
    o.mode = mode_of(mode);
    auto r = [&] {
      py::gil_scoped_release release;
      return sparse::linalg::eigsh(a, o);
    }();
    return py::make_tuple(new_ndarray(Array(r.w)), r.v.defined() ? new_ndarray(Array(r.v)) : py::object(py::none()),
                          r.converged);
  });
  m.def("dense_pencil_eigh", [](const Array& a, const Array& mat, bool vectors) {
    auto r = [&] {
      py::gil_scoped_release release;
      return sparse::linalg::dense_pencil_eigh(a, mat, vectors);
    }();
    return py::make_tuple(new_ndarray(Array(r.w)), r.v.defined() ? new_ndarray(Array(r.v)) : py::object(py::none()));
  });
  m.def("svds", [](const LinearOperator& a, int64_t k, const std::string& which, std::optional<Array> v0,
                   std::optional<int64_t> ncv, std::optional<int64_t> maxiter, double tol, bool vectors) {
    auto r = [&] {
      py::gil_scoped_release release;
      return sparse::linalg::svds(a, k, which_of(which), std::move(v0), ncv, maxiter, tol, vectors);
    }();
    const auto wrap = [](const Array& x) { return x.defined() ? new_ndarray(Array(x)) : py::object(py::none()); };
    return py::make_tuple(wrap(r.u), wrap(r.s), wrap(r.vh), r.converged);
  });
  m.def("expm_multiply", py::overload_cast<const sparse::CsrMatrix&, const Array&, double>(
                             &sparse::linalg::expm_multiply),
        py::arg("A"), py::arg("B"), py::arg("t"), py::call_guard<py::gil_scoped_release>());
  m.def("expm_multiply", [](const LinearOperator& a, const Array& b, double t, std::complex<double> trace) {
    py::gil_scoped_release release;
    return sparse::linalg::expm_multiply(a, b, t, trace);
  }, py::arg("A"), py::arg("B"), py::arg("t"), py::arg("trace"));
  m.def("expm_multiply_interval", &sparse::linalg::expm_multiply_interval, py::call_guard<py::gil_scoped_release>());
  m.def("onenormest", [](const LinearOperator& a, int64_t t, int64_t itmax) {
    auto r = [&] {
      py::gil_scoped_release release;
      return sparse::linalg::onenormest(a, t, itmax);
    }();
    return py::make_tuple(r.est, new_ndarray(Array(r.v)), new_ndarray(Array(r.w)), r.nmults, r.nresamples);
  });

  const auto def_solver = [&m](const char* name, auto fn) {
    m.def(name, [fn](const LinearOperator& a, const Array& b, std::optional<Array> x0, double rtol, double atol,
                     std::optional<int64_t> maxiter, std::optional<LinearOperator> mop, py::object callback) {
      auto o = solver_options<sparse::linalg::SolverOptions>(std::move(x0), rtol, atol, maxiter, std::move(mop),
                                                             callback);
      py::gil_scoped_release release;
      auto r = fn(a, b, o);
      py::gil_scoped_acquire gil;
      return solved(r);
    }, py::arg("A"), py::arg("b"), py::arg("x0"), py::arg("rtol"), py::arg("atol"), py::arg("maxiter"),
          py::arg("M"), py::arg("callback"));
  };
  def_solver("cg", [](auto&... a) { return sparse::linalg::cg(a...); });
  def_solver("bicg", [](auto&... a) { return sparse::linalg::bicg(a...); });
  def_solver("bicgstab", [](auto&... a) { return sparse::linalg::bicgstab(a...); });
  def_solver("cgs", [](auto&... a) { return sparse::linalg::cgs(a...); });

  m.def("gmres", [](const LinearOperator& a, const Array& b, std::optional<Array> x0, double rtol, double atol,
                    std::optional<int64_t> restart, std::optional<int64_t> maxiter, std::optional<LinearOperator> mop,
                    py::object callback, const std::string& callback_type) {
    auto o = solver_options<sparse::linalg::GmresOptions>(std::move(x0), rtol, atol, maxiter, std::move(mop),
                                                          py::none());
    o.restart = restart;
    using CT = sparse::linalg::GmresCallbackType;
    o.callback_type = callback.is_none() ? CT::kNone
                      : callback_type == "x"       ? CT::kX
                      : callback_type == "pr_norm" ? CT::kPrNorm
                                                   : CT::kLegacy;
    if (o.callback_type == CT::kX) {
      o.callback = python_callback(callback);
    } else if (o.callback_type != CT::kNone) {
      auto held = keep(callback);
      o.residual_callback = [held](double v) {
        py::gil_scoped_acquire gil;
        (*held)(py::float_(v));
      };
    }
    py::gil_scoped_release release;
    auto r = sparse::linalg::gmres(a, b, o);
    py::gil_scoped_acquire gil;
    return solved(r);
  }, py::arg("A"), py::arg("b"), py::arg("x0"), py::arg("rtol"), py::arg("atol"), py::arg("restart"),
        py::arg("maxiter"), py::arg("M"), py::arg("callback"), py::arg("callback_type"));

  m.def("minres", [](const LinearOperator& a, const Array& b, std::optional<Array> x0, double rtol, double shift,
                     std::optional<int64_t> maxiter, std::optional<LinearOperator> mop, py::object callback,
                     bool check) {
    auto o = solver_options<sparse::linalg::MinresOptions>(std::move(x0), rtol, 0.0, maxiter, std::move(mop),
                                                           callback);
    o.shift = shift;
    o.check = check;
    py::gil_scoped_release release;
    auto r = sparse::linalg::minres(a, b, o);
    py::gil_scoped_acquire gil;
    return solved(r);
  }, py::arg("A"), py::arg("b"), py::arg("x0"), py::arg("rtol"), py::arg("shift"), py::arg("maxiter"),
        py::arg("M"), py::arg("callback"), py::arg("check"));

  const auto ls_options = [](double damp, double atol, double btol, double conlim, std::optional<int64_t> iter_lim,
                             std::optional<Array> x0) {
    sparse::linalg::LeastSquaresOptions o;
    o.damp = damp;
    o.atol = atol;
    o.btol = btol;
    o.conlim = conlim;
    o.iter_lim = iter_lim;
    o.x0 = std::move(x0);
    return o;
  };
  m.def("lsqr", [ls_options](const LinearOperator& a, const Array& b, double damp, double atol, double btol,
                             double conlim, std::optional<int64_t> iter_lim, bool calc_var, std::optional<Array> x0) {
    auto o = ls_options(damp, atol, btol, conlim, iter_lim, std::move(x0));
    o.calc_var = calc_var;
    py::gil_scoped_release release;
    auto r = sparse::linalg::lsqr(a, b, o);
    py::gil_scoped_acquire gil;
    return py::make_tuple(new_ndarray(Array(r.x)), r.istop, r.itn, r.r1norm, r.r2norm, r.anorm, r.acond, r.arnorm,
                          r.xnorm, new_ndarray(Array(r.var)));
  });
  m.def("lsmr", [ls_options](const LinearOperator& a, const Array& b, double damp, double atol, double btol,
                             double conlim, std::optional<int64_t> maxiter, std::optional<Array> x0) {
    auto o = ls_options(damp, atol, btol, conlim, maxiter, std::move(x0));
    py::gil_scoped_release release;
    auto r = sparse::linalg::lsmr(a, b, o);
    py::gil_scoped_acquire gil;
    return py::make_tuple(new_ndarray(Array(r.x)), r.istop, r.itn, r.normr, r.normar, r.norma, r.conda, r.normx);
  });
}

}  // namespace py_bind
}  // namespace kumo
