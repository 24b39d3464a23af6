// splu / spsolve over SuperLU 5 (Debian's libsuperlu, BSD-3; see
// superlu.h), and spsolve_triangular by substitution. SuperLU's objects live
// in RAII holders; its matrices point into kumo arrays that outlive them.
#include "sparse/linalg/superlu.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "routines/creation.h"
#include "sparse/linalg/host/krylov_system.h"
#include "sparse/linalg/host/superlu_traits.h"
#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {
namespace linalg {

using host::Slu;
using host::visit_float;

Dtype solver_value_dtype(Dtype d) {
  switch (d) {
    case Dtype::kFloat32:
    case Dtype::kFloat64:
    case Dtype::kComplex64:
    case Dtype::kComplex128: return d;
    default: return promote_types(d, Dtype::kFloat32);
  }
}

namespace {

// SuperLU's statistics, initialised and freed with the holder.
struct Stat {
  SuperLUStat_t s;
  Stat() { StatInit(&s); }
  ~Stat() { StatFree(&s); }
  Stat(const Stat&) = delete;
  Stat& operator=(const Stat&) = delete;
};

// A SuperMatrix whose Store (not its arrays) this holder frees.
struct StoreOnly {
  SuperMatrix m{};
  bool made = false;
  ~StoreOnly() {
    if (made) Destroy_SuperMatrix_Store(&m);
  }
};

colperm_t colperm(const std::string& spec, const char* call) {
  if (spec == "NATURAL") return NATURAL;
  if (spec == "MMD_ATA") return MMD_ATA;
  if (spec == "MMD_AT_PLUS_A") return MMD_AT_PLUS_A;
  if (spec == "COLAMD") return COLAMD;
  throw ValueError(std::string(call) + ": permc_spec must be one of NATURAL, MMD_ATA, MMD_AT_PLUS_A, COLAMD, not '" +
                   spec + "'");
}

std::string shape_text(Shape2 s) { return "(" + std::to_string(s.rows) + ", " + std::to_string(s.cols) + ")"; }

void check_host(const Array& a, const char* call) {
  if (a.device().type() != DeviceType::kCPU)
    throw DeviceError(std::string(call) + ": SuperLU runs on the host; move the arrays with to_device(\"cpu\")");
}

// A matrix's arrays on the host (itself when they are there).
template <class M>
M on_host(const M& a) {
  if (a.data.device().type() == DeviceType::kCPU) return a;
  M h = a;
  h.data = a.data.to_device("cpu");
  h.indices = a.indices.to_device("cpu");
  h.indptr = a.indptr.to_device("cpu");
  return h;
}
template <class M>
M to_device(const M& a, Device& device) {
  if (&a.data.device() == &device) return a;
  M d = a;
  d.data = a.data.to_device(device);
  d.indices = a.indices.to_device(device);
  d.indptr = a.indptr.to_device(device);
  return d;
}

void check_int32(int64_t n, int64_t nnz, const char* call) {
  if (n > std::numeric_limits<int>::max() || nnz > std::numeric_limits<int>::max())
    throw ValueError(std::string(call) + ": SuperLU takes 32-bit indices; the matrix is too large");
}

// The compressed arrays of a canonical matrix as SuperLU wants them: values
// of dtype, int32 contiguous indices.
struct Compressed32 {
  Array data, indices, indptr;
};
Array contiguous_as(const Array& a, Dtype dtype) {
  return a.dtype() == dtype && a.c_contiguous() ? a : a.astype(dtype, Order::kC, true);
}
template <class M>
Compressed32 compressed32(const M& canonical, Dtype dtype) {
  return {contiguous_as(canonical.data, dtype), contiguous_as(canonical.indices, Dtype::kInt32),
          contiguous_as(canonical.indptr, Dtype::kInt32)};
}

// b (n,) or (n, k) as a column-major n x k copy of dtype: SuperLU's dense B.
Array column_major(const Array& b, int64_t n, Dtype dtype) {
  const Array b2 = b.ndim() == 1 ? b.reshape(Shape{n, 1}) : b;
  return b2.transpose().astype(dtype, Order::kC, true);  // (k, n) C order = n x k column-major
}
Array from_column_major(const Array& x, const Array& like) {
  const Array t = x.transpose().copy(Order::kC);  // (n, k)
  return like.ndim() == 1 ? t.reshape(Shape{like.shape()[0]}) : t;
}

void check_rhs(Shape2 shape, const Array& b, const char* call) {
  if (b.ndim() != 1 && b.ndim() != 2)
    throw ValueError(std::string(call) + ": b must have 1 or 2 dims but it has " + std::to_string(b.ndim()));
  if (b.shape()[0] != shape.rows)
    throw ValueError(std::string(call) + ": matrix - rhs dimension mismatch (" + shape_text(shape) + " - " +
                     std::to_string(b.shape()[0]) + ")");
}

}  // namespace

// ---- splu ----

struct SuperLU::Factors {
  Shape2 shape;
  Dtype dtype = Dtype::kFloat64;
  SuperMatrix l{}, u{};
  std::vector<int> perm_r, perm_c;
  // The device of the factored matrix: SuperLU factors on the host, and
  // L, U, the permutations and solutions go back to this device.
  Device* device = nullptr;
  Factors() = default;
  Factors(const Factors&) = delete;
  Factors& operator=(const Factors&) = delete;
  ~Factors() {
    if (l.Store) Destroy_SuperNode_Matrix(&l);
    if (u.Store) Destroy_CompCol_Matrix(&u);
  }
};

namespace {

template <class T>
void factor(const Compressed32& c, int n, const SuperLUOptions& o, SuperLU::Factors* f) {
  superlu_options_t options;
  set_default_options(&options);
  options.ColPerm = colperm(o.permc_spec, "kumo.sparse.linalg.splu");
  options.DiagPivotThresh = o.diag_pivot_thresh;
  if (o.symmetric_mode || options.ColPerm == NATURAL) options.SymmetricMode = YES;
  StoreOnly a;
  Slu<T>::create_compcol(&a.m, n, n, static_cast<int>(c.data.size()), reinterpret_cast<T*>(c.data.data()),
                         reinterpret_cast<int*>(c.indices.data()), reinterpret_cast<int*>(c.indptr.data()));
  a.made = true;
  f->perm_c.assign(static_cast<size_t>(n), 0);
  f->perm_r.assign(static_cast<size_t>(n), 0);
  std::vector<int> etree(static_cast<size_t>(n));
  get_perm_c(options.ColPerm, &a.m, f->perm_c.data());
  SuperMatrix ac{};
  sp_preorder(&options, &a.m, f->perm_c.data(), etree.data(), &ac);
  const int panel = o.panel_size > 0 ? o.panel_size : sp_ienv(1);
  const int relax = o.relax > 0 ? o.relax : sp_ienv(2);
  GlobalLU_t glu{};
  Stat stat;
  int info = 0;
  Slu<T>::gstrf(&options, &ac, relax, panel, etree.data(), f->perm_c.data(), f->perm_r.data(), &f->l, &f->u, &glu,
                &stat.s, &info);
  Destroy_CompCol_Permuted(&ac);
  if (info > 0 && info <= n) {
    // L and U are allocated up to the failing column; the holder frees them.
    throw RuntimeError("Factor is exactly singular");
  }
  if (info > n) throw OutOfMemoryError("kumo.sparse.linalg.splu: SuperLU ran out of memory");
  if (info < 0) throw ValueError("kumo.sparse.linalg.splu: SuperLU rejected argument " + std::to_string(-info));
}

}  // namespace

SuperLU splu(const CscMatrix& matrix, const SuperLUOptions& o) {
  const char* call = "kumo.sparse.linalg.splu";
  // A matrix on a device is factored on the host, as SciPy's SuperLU is
  // the factorization CuPy's splu also uses: one copy of A there, and each
  // solve moves b there and x back.
  const CscMatrix a = on_host(matrix);
  if (a.shape.rows != a.shape.cols) throw ValueError("can only factor square matrices");
  check_int32(a.shape.rows, a.nnz(), call);
  const CscMatrix canonical = sum_duplicates(a);
  const Dtype dtype = solver_value_dtype(a.dtype());
  auto f = std::make_shared<SuperLU::Factors>();
  f->shape = a.shape;
  f->dtype = dtype;
  f->device = &matrix.data.device();
  const int n = static_cast<int>(a.shape.rows);
  if (n > 0) {
    const Compressed32 c = compressed32(canonical, dtype);
    visit_float(dtype, [&](auto tag) { factor<typename decltype(tag)::type>(c, n, o, f.get()); });
  }
  SuperLU lu;
  lu.f_ = std::move(f);
  return lu;
}

Shape2 SuperLU::shape() const { return f_->shape; }
Dtype SuperLU::dtype() const { return f_->dtype; }
int64_t SuperLU::nnz() const {
  if (!f_->l.Store) return 0;
  return static_cast<const SCformat*>(f_->l.Store)->nnz + static_cast<const NCformat*>(f_->u.Store)->nnz;
}

namespace {
Array int_array(const std::vector<int>& v) {
  Array a = Array::empty(Shape{static_cast<int64_t>(v.size())}, Dtype::kInt32, host_device());
  std::copy(v.begin(), v.end(), reinterpret_cast<int32_t*>(a.data()));
  return a;
}
}  // namespace

Array SuperLU::perm_r() const { return int_array(f_->perm_r).to_device(*f_->device); }
Array SuperLU::perm_c() const { return int_array(f_->perm_c).to_device(*f_->device); }

namespace {

// L (unit diagonal stored) or U of the factors as a canonical CSC matrix.
template <class T>
CscMatrix triangle(const SuperLU::Factors& f, bool lower) {
  const int64_t n = f.shape.rows;
  std::vector<std::vector<std::pair<int, T>>> cols(static_cast<size_t>(n));
  if (n > 0) {
    const auto* ls = static_cast<const SCformat*>(f.l.Store);
    const T* lv = static_cast<const T*>(ls->nzval);
    for (int k = 0; k <= ls->nsuper; ++k) {
      const int first = ls->sup_to_col[k], last = ls->sup_to_col[k + 1];
      const int istart = ls->rowind_colptr[first], nsupr = ls->rowind_colptr[first + 1] - istart;
      for (int j = first; j < last; ++j) {
        const int luptr = ls->nzval_colptr[j];
        for (int i = 0; i < nsupr; ++i) {
          const int row = ls->rowind[istart + i];
          const T v = lv[luptr + i];
          if (lower) {
            if (row == j) cols[j].push_back({row, T(1)});
            else if (row > j) cols[j].push_back({row, v});
          } else if (row <= j) {
            cols[j].push_back({row, v});
          }
        }
      }
    }
    if (!lower) {
      const auto* us = static_cast<const NCformat*>(f.u.Store);
      const T* uv = static_cast<const T*>(us->nzval);
      for (int j = 0; j < n; ++j)
        for (int k = us->colptr[j]; k < us->colptr[j + 1]; ++k) cols[j].push_back({us->rowind[k], uv[k]});
    }
  }
  int64_t nnz = 0;
  for (auto& c : cols) {
    std::sort(c.begin(), c.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    nnz += static_cast<int64_t>(c.size());
  }
  Array data = Array::empty(Shape{nnz}, f.dtype, host_device());
  Array indices = Array::empty(Shape{nnz}, Dtype::kInt32, host_device());
  Array indptr = Array::empty(Shape{n + 1}, Dtype::kInt32, host_device());
  T* dv = reinterpret_cast<T*>(data.data());
  int32_t* iv = reinterpret_cast<int32_t*>(indices.data());
  int32_t* pv = reinterpret_cast<int32_t*>(indptr.data());
  int64_t pos = 0;
  pv[0] = 0;
  for (int64_t j = 0; j < n; ++j) {
    for (const auto& [row, v] : cols[j]) {
      iv[pos] = row;
      dv[pos] = v;
      ++pos;
    }
    pv[j + 1] = static_cast<int32_t>(pos);
  }
  return make_csc(data, indices, indptr, f.shape);
}

}  // namespace

CscMatrix SuperLU::L() const {
  return to_device(visit_float(f_->dtype, [&](auto tag) { return triangle<typename decltype(tag)::type>(*f_, true); }),
                   *f_->device);
}
CscMatrix SuperLU::U() const {
  return to_device(visit_float(f_->dtype, [&](auto tag) { return triangle<typename decltype(tag)::type>(*f_, false); }),
                   *f_->device);
}

Array SuperLU::solve(const Array& rhs, char trans) const {
  const char* call = "kumo.sparse.linalg.SuperLU.solve";
  if (&rhs.device() != f_->device)
    throw DeviceError(std::string(call) + ": the factors belong to " + f_->device->name() + " but b is on " +
                      rhs.device().name());
  if (rhs.device().type() != DeviceType::kCPU) return solve(rhs.to_device("cpu"), trans).to_device(rhs.device());
  const Array& b = rhs;
  trans_t t;
  if (trans == 'N' || trans == 'n') t = NOTRANS;
  else if (trans == 'T' || trans == 't') t = TRANS;
  else if (trans == 'H' || trans == 'h') t = CONJ;
  else throw ValueError("trans must be N, T, or H");
  if (b.ndim() != 1 && b.ndim() != 2) throw ValueError("object of too small depth for desired array");
  const int64_t n = f_->shape.rows;
  if (b.shape()[0] != n) throw ValueError("b is of incompatible size");
  Array x = column_major(b, n, f_->dtype);
  const int64_t k = b.ndim() == 1 ? 1 : b.shape()[1];
  if (n == 0 || k == 0) return from_column_major(x, b);
  visit_float(f_->dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    StoreOnly bm;
    Slu<T>::create_dense(&bm.m, static_cast<int>(n), static_cast<int>(k), reinterpret_cast<T*>(x.data()),
                         static_cast<int>(n));
    bm.made = true;
    Stat stat;
    int info = 0;
    auto* self = const_cast<Factors*>(f_.get());  // gstrs reads the factors only
    Slu<T>::gstrs(t, &self->l, &self->u, self->perm_c.data(), self->perm_r.data(), &bm.m, &stat.s, &info);
    if (info != 0) throw ValueError(std::string(call) + ": SuperLU rejected argument " + std::to_string(-info));
  });
  return from_column_major(x, b);
}

// ---- spsolve ----

namespace {

CsrMatrix as_csr(const CsrMatrix& a) { return a; }
CsrMatrix as_csr(const CscMatrix& a) { return tocsr(a); }

// spsolve on a device with a sparse direct solver of its own (cuSOLVER's
// QR on CUDA): the canonical CSR in the solve dtype with 32-bit indices,
// one solve per column of b, all on the device. An exactly singular A (a
// zero pivot: the threshold is 0) gives NaN, as SuperLU's path.
SpsolveResult spsolve_on_device(const CsrMatrix& a, const Array& b, Dtype solve_dtype, SparseBackend& backend) {
  const CsrMatrix c = astype(sum_duplicates(a), solve_dtype);
  const Compressed m{c.data.astype(solve_dtype, Order::kC, false), c.indices.astype(Dtype::kInt32, Order::kC, false),
                     c.indptr.astype(Dtype::kInt32, Order::kC, false), c.shape.rows, c.shape.cols};
  const int64_t n = a.shape.rows;
  const int64_t k = b.ndim() == 1 ? 1 : b.shape()[1];
  Array x = Array::empty(Shape{n, k}, solve_dtype, b.device());
  SpsolveResult r;
  for (int64_t j = 0; j < k && n > 0; ++j) {
    const Array bj = (b.ndim() == 1 ? b : b(slice(none, none), j)).astype(solve_dtype, Order::kC, true);
    const Array xj = Array::empty(Shape{n}, solve_dtype, b.device());
    if (backend.solve_qr(m, bj, 0.0, xj) >= 0) r.singular = true;
    xj.copy_to(x(slice(none, none), j));
  }
  if (r.singular) x = full_like(x, Scalar(std::numeric_limits<double>::quiet_NaN()));
  r.x = b.ndim() == 1 ? x.reshape(Shape{n}) : x;
  return r;
}

template <class M>
SpsolveResult spsolve_impl(const M& a, const Array& b, const std::string& permc_spec, bool row_storage) {
  const char* call = "kumo.sparse.linalg.spsolve";
  if (a.shape.rows != a.shape.cols)
    throw ValueError("matrix must be square (has shape " + shape_text(a.shape) + ")");
  check_rhs(a.shape, b, call);
  check_int32(a.shape.rows, a.nnz(), call);
  // SciPy: A made floating (_asfptype), promoted with b's dtype.
  const Dtype solve_dtype = solver_value_dtype(promote_types(solver_value_dtype(a.dtype()), b.dtype()));
  if (a.data.device().type() != DeviceType::kCPU) {
    if (&a.data.device() != &b.device())
      throw DeviceError(std::string(call) + ": A is on " + a.data.device().name() + " but b on " + b.device().name());
    SparseBackend& backend = sparse_backend(a.data.device(), call);
    if (backend.has_device_solver()) return spsolve_on_device(as_csr(a), b, solve_dtype, backend);
  }
  check_host(a.data, call);
  check_host(b, call);
  const M canonical = sum_duplicates(a);
  const int64_t n = a.shape.rows;
  Array x = column_major(b, n, solve_dtype);
  const int64_t k = b.ndim() == 1 ? 1 : b.shape()[1];
  SpsolveResult r;
  if (n > 0 && k > 0) {
    const Compressed32 c = compressed32(canonical, solve_dtype);
    visit_float(solve_dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      superlu_options_t options;
      set_default_options(&options);
      options.ColPerm = colperm(permc_spec, call);
      StoreOnly am, bm;
      const int nn = static_cast<int>(n), nnz = static_cast<int>(c.data.size());
      T* values = reinterpret_cast<T*>(c.data.data());
      int* idx = reinterpret_cast<int*>(c.indices.data());
      int* ptr = reinterpret_cast<int*>(c.indptr.data());
      if (row_storage) Slu<T>::create_comprow(&am.m, nn, nn, nnz, values, idx, ptr);
      else Slu<T>::create_compcol(&am.m, nn, nn, nnz, values, idx, ptr);
      am.made = true;
      Slu<T>::create_dense(&bm.m, nn, static_cast<int>(k), reinterpret_cast<T*>(x.data()), nn);
      bm.made = true;
      std::vector<int> perm_c(static_cast<size_t>(n)), perm_r(static_cast<size_t>(n));
      SuperMatrix l{}, u{};
      Stat stat;
      int info = 0;
      Slu<T>::gssv(&options, &am.m, perm_c.data(), perm_r.data(), &l, &u, &bm.m, &stat.s, &info);
      if (l.Store) Destroy_SuperNode_Matrix(&l);
      if (u.Store) Destroy_CompCol_Matrix(&u);
      if (info > n) throw OutOfMemoryError(std::string(call) + ": SuperLU ran out of memory");
      if (info < 0) throw ValueError(std::string(call) + ": SuperLU rejected argument " + std::to_string(-info));
      r.singular = info > 0;
    });
  }
  if (r.singular) x = full_like(x, Scalar(std::numeric_limits<double>::quiet_NaN()));
  r.x = from_column_major(x, b);
  return r;
}

}  // namespace

SpsolveResult spsolve(const CsrMatrix& a, const Array& b, const std::string& permc_spec) {
  return spsolve_impl(a, b, permc_spec, true);
}
SpsolveResult spsolve(const CscMatrix& a, const Array& b, const std::string& permc_spec) {
  return spsolve_impl(a, b, permc_spec, false);
}

// ---- spsolve_triangular ----

namespace {

template <class T, class I>
void substitute(const CsrMatrix& a, T* x, int64_t k, bool lower, bool unit) {
  const I* ip = reinterpret_cast<const I*>(a.indptr.data());
  const I* ix = reinterpret_cast<const I*>(a.indices.data());
  const T* av = reinterpret_cast<const T*>(a.data.data());
  const int64_t n = a.shape.rows;
  std::vector<T> acc(static_cast<size_t>(k));
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = lower ? step : n - 1 - step;
    T diag(0);
    T* xi = x + i * k;
    std::copy(xi, xi + k, acc.begin());
    for (int64_t q = ip[i]; q < ip[i + 1]; ++q) {
      const int64_t j = ix[q];
      if (j == i) {
        diag += av[q];
      } else if (lower ? j < i : j > i) {
        const T v = av[q];
        const T* xj = x + j * k;
        for (int64_t c = 0; c < k; ++c) acc[c] -= v * xj[c];
      }
    }
    if (unit) diag = T(1);
    if (diag == T(0)) throw LinAlgError("A is singular: zero entry on diagonal.");
    for (int64_t c = 0; c < k; ++c) xi[c] = acc[c] / diag;
  }
}

}  // namespace

Array spsolve_triangular(const CsrMatrix& a, const Array& b, bool lower, bool unit_diagonal) {
  const char* call = "kumo.sparse.linalg.spsolve_triangular";
  // Substitution is sequential along the rows; a device's arrays are solved
  // on the host and x goes back.
  if (a.data.device().type() != DeviceType::kCPU || b.device().type() != DeviceType::kCPU) {
    if (&a.data.device() != &b.device())
      throw DeviceError(std::string(call) + ": A is on " + a.data.device().name() + " but b on " + b.device().name());
    return spsolve_triangular(on_host(a), b.to_device("cpu"), lower, unit_diagonal).to_device(b.device());
  }
  if (a.shape.rows != a.shape.cols)
    throw ValueError("A must be a square matrix but its shape is " + shape_text(a.shape) + ".");
  if (b.ndim() != 1 && b.ndim() != 2)
    throw ValueError("b must have 1 or 2 dims but its shape is " + std::to_string(b.ndim()) + "-d.");
  if (b.shape()[0] != a.shape.rows)
    throw ValueError("The size of the dimensions of A must be equal to the size of the first dimension of b but the "
                     "shape of A is " + shape_text(a.shape) + " and the shape of b has " +
                     std::to_string(b.shape()[0]) + " rows.");
  // SciPy scales A by 1 / diag(A) unless the diagonal is unit, which makes
  // an integer A float64; then promotes with float32 and b.
  const Dtype a_dtype = !unit_diagonal && !is_inexact(a.dtype()) ? Dtype::kFloat64 : a.dtype();
  const Dtype dtype = promote_types(promote_types(a_dtype, Dtype::kFloat32), b.dtype());
  const CsrMatrix cast = astype(a, dtype);
  const CsrMatrix m{contiguous_as(cast.data, dtype), contiguous_as(cast.indices, cast.indices.dtype()),
                    contiguous_as(cast.indptr, cast.indptr.dtype()), cast.shape};
  Array x = b.astype(dtype, Order::kC, true);
  const int64_t k = b.ndim() == 1 ? 1 : b.shape()[1];
  visit_float(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* xv = reinterpret_cast<T*>(x.data());
    if (m.indices.dtype() == Dtype::kInt64) substitute<T, int64_t>(m, xv, k, lower, unit_diagonal);
    else substitute<T, int32_t>(m, xv, k, lower, unit_diagonal);
  });
  return x;
}

LinearOperator inverse_operator(const SuperLU& lu) {
  const auto solve = [lu](const Array& b) { return lu.solve(b, 'N'); };
  const auto solve_h = [lu](const Array& b) { return lu.solve(b, 'H'); };
  return LinearOperator(lu.shape(), lu.dtype(), solve, solve_h, solve, solve_h, "SuperLUInverse");
}

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
