// What the iterative solvers share: SciPy's make_system (the computation
// dtype, shape checks, x0, the preconditioner) and applying an operator to
// a host vector of the computation dtype.
#pragma once
#include <complex>
#include <string>

#include "core/dtype_visit.h"
#include "core/errors.h"
#include "sparse/linalg/host/vector_ops.h"
#include "sparse/linalg/isolve.h"

namespace kumo {
namespace sparse {
namespace linalg {
namespace host {

template <class T>
using Tag = TypeTag<T>;

// f(Tag<T>{}) for the floating dtype d.
template <class F>
decltype(auto) visit_float(Dtype d, F&& f) {
  return visit_inexact_dtype(d, f, [d] { throw TypeError(std::string("kumo.sparse.linalg: unsupported dtype ") + dtype_name(d)); });
}

// float32/64 and complex64/128 stay, everything else computes in float64.
Dtype floating(Dtype d);
// SciPy's coerce(A's dtype, b's dtype) on floating dtypes.
Dtype system_dtype(Dtype a, Dtype b);
// "kumo.sparse.linalg.<name>".
std::string call_name(const char* name);
// b (n,) or (n, 1) for the operator's shape: ValueError otherwise.
void check_rhs(const LinearOperator& a, const Array& b, const char* name, bool square);
// x0 of (n,) or (n, 1).
void check_x0(int64_t n, const LinearOperator& a, const Array& x0, const char* name);

// v as a contiguous vector of dtype `dtype` (a copy when it is not one), on
// v's device.
template <class T>
Vec<T> as_vec(const Array& v, Dtype dtype, const char* /*name*/) {
  Array a = v.reshape(Shape{v.size()});
  if (a.dtype() != dtype || !a.c_contiguous()) a = a.astype(dtype, Order::kC, true);
  return Vec<T>(a);
}

// op.matvec(v) (or rmatvec) as a vector of T.
template <class T>
Vec<T> apply(const LinearOperator& op, const Vec<T>& v, const char* name) {
  return as_vec<T>(op.matvec(v.array), v.array.dtype(), name);
}
template <class T>
Vec<T> apply_adjoint(const LinearOperator& op, const Vec<T>& v, const char* name) {
  return as_vec<T>(op.rmatvec(v.array), v.array.dtype(), name);
}

// A square system Ax = b after SciPy's make_system.
template <class T>
struct System {
  Dtype dtype;
  int64_t n = 0;
  Vec<T> b, x;
  bool x_zero = true;  // x is the zero vector (no x0 given, or x0 all zeros)
  LinearOperator m;    // the preconditioner, identity when none
  bool has_m = false;
};

template <class T>
System<T> make_system(const LinearOperator& a, const Array& b, const SolverOptions& o, Dtype dtype, const char* name) {
  System<T> s;
  s.dtype = dtype;
  s.n = a.shape().rows;
  s.b = as_vec<T>(b, dtype, name);
  if (o.M) {
    if (o.M->shape() != a.shape()) throw ValueError("matrix and preconditioner have different shapes");
    s.m = *o.M;
    s.has_m = true;
  } else {
    s.m = identity_operator(a.shape(), a.dtype());
  }
  if (o.x0) {
    check_x0(s.n, a, *o.x0, name);
    if (&o.x0->device() != &b.device())
      throw DeviceError(call_name(name) + ": x0 is on " + o.x0->device().name() + " but b on " + b.device().name());
    // A copy: the solver updates x in place.
    s.x = copy_vec(as_vec<T>(*o.x0, dtype, name));
    s.x_zero = !any_nonzero(s.x);
  } else {
    s.x = zeros_vec(s.b);
  }
  return s;
}

// The preconditioner applied to v: v itself without one.
template <class T>
Vec<T> psolve(const System<T>& s, const Vec<T>& v, const char* name) {
  return s.has_m ? apply(s.m, v, name) : v;
}
template <class T>
Vec<T> rpsolve(const System<T>& s, const Vec<T>& v, const char* name) {
  return s.has_m ? apply_adjoint(s.m, v, name) : v;
}

// r = b - A x (a copy of b when x is zero).
template <class T>
Vec<T> residual(const LinearOperator& a, const System<T>& s, const char* name) {
  if (s.x_zero) return copy_vec(s.b);
  Vec<T> ax = apply(a, s.x, name);
  Vec<T> r = new_vec(s.b);
  sub(s.b, ax, r);
  return r;
}

template <class T>
void report(const IterateCallback& cb, const Vec<T>& x) {
  if (cb) cb(copy_vec(x).array);
}

// max(atol, rtol * ||b||), SciPy's _get_atol_rtol; negative tolerances are
// a ValueError.
double stopping_tolerance(double atol, double rtol, double bnrm2, const char* name);

}  // namespace host
}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
