"""kumo.sparse.linalg's iterative solvers against scipy.sparse.linalg: the
solution, info codes, iteration counts (through callbacks), x0,
preconditioners, LinearOperator input, maxiter, and SciPy's errors."""
import numpy
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse as ks
import kumo.sparse.linalg as kla
from sparse_linalg_testing import FLOAT_DTYPES, FORMATS, general, hpd, np_, rvec, to_kumo, tol  # noqa: F401

N = 60
# The square solvers, each with a matrix it converges on.
SQUARE = {"cg": hpd, "bicg": general, "bicgstab": general, "cgs": general, "gmres": general, "minres": hpd}
NONSYMMETRIC = ["bicg", "bicgstab", "cgs", "gmres"]


def solve_both(name, a, b, **kw):
    """(kumo's (x, info), SciPy's (x, info)) for the solver `name`."""
    kwargs = dict(kw)
    if name == "gmres" and "callback" in kwargs:
        kwargs.setdefault("callback_type", "x")
    kx, kinfo = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), **kwargs)
    sx, sinfo = getattr(spla, name)(a, b, **kwargs)
    return (np_(kx), kinfo), (sx, sinfo)


def scipy_handles(name, dtype):
    """SciPy's minres fails on complex input (unconjugated products); kumo's
    is checked against the dense solution there instead."""
    return not (name == "minres" and numpy.dtype(dtype).kind == "c")


@pytest.mark.parametrize("name,dtype", [(n, d) for n in SQUARE for d in FLOAT_DTYPES if scipy_handles(n, d)])
def test_solution_matches_scipy(name, dtype):
    a = SQUARE[name](N, dtype)
    b = rvec(N, dtype)
    # Single precision: a tolerance float32 reaches with margin (a few ulps
    # of the residual decide a borderline iteration either way).
    rtol = 1e-4 if tol(dtype) > 1e-6 else 1e-6
    (kx, kinfo), (sx, sinfo) = solve_both(name, a, b, rtol=rtol)
    assert kinfo == sinfo == 0
    assert kx.dtype == sx.dtype
    numpy.testing.assert_allclose(kx, sx, rtol=tol(dtype) * 100, atol=tol(dtype) * 100)
    # And it solves the system to the tolerance asked for.
    assert numpy.linalg.norm(a @ kx - b) <= rtol * numpy.linalg.norm(b) * (10 if tol(dtype) > 1e-6 else 1.01)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", list(SQUARE))
def test_formats_give_one_solution(name, fmt):
    a = SQUARE[name](N, numpy.float64)
    b = rvec(N, numpy.float64)
    x, info = getattr(kla, name)(to_kumo(a, fmt), kumo.asarray(b), rtol=1e-8)
    ref, _ = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-8)
    assert info == 0
    numpy.testing.assert_allclose(np_(x), np_(ref), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", list(SQUARE))
def test_iteration_count_matches_scipy(name):
    a = SQUARE[name](N, numpy.float64)
    b = rvec(N, numpy.float64)
    kcount, scount = [], []
    kw = {"callback_type": "x"} if name == "gmres" else {}
    getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-8, callback=lambda xk: kcount.append(1), **kw)
    getattr(spla, name)(a, b, rtol=1e-8, callback=lambda xk: scount.append(1), **kw)
    assert len(kcount) == len(scount) > 0


@pytest.mark.parametrize("name", list(SQUARE))
def test_callback_receives_iterates(name):
    a = SQUARE[name](N, numpy.float64)
    b = rvec(N, numpy.float64)
    seen = []
    kw = {"callback_type": "x"} if name == "gmres" else {}
    x, _ = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-8, callback=lambda xk: seen.append(np_(xk)),
                              **kw)
    assert seen[-1].shape == (N,)
    numpy.testing.assert_allclose(seen[-1], np_(x), rtol=1e-12)


@pytest.mark.parametrize("name", list(SQUARE))
def test_x0(name):
    a = SQUARE[name](N, numpy.float64)
    b = rvec(N, numpy.float64)
    x0 = rvec(N, numpy.float64, seed=5)
    (kx, kinfo), (sx, sinfo) = solve_both(name, a, b, x0=x0, rtol=1e-8)
    assert kinfo == sinfo == 0
    numpy.testing.assert_allclose(kx, sx, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("name", ["cg", "bicg", "bicgstab", "cgs", "gmres"])
def test_x0_column_vector_and_mb(name):
    a = SQUARE[name](N, numpy.float64)
    b = rvec(N, numpy.float64)
    m = sps.diags(1 / a.diagonal()).tocsr()
    kx, kinfo = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), x0="Mb", M=to_kumo(m, "csr"), rtol=1e-8)
    sx, sinfo = getattr(spla, name)(a, b, x0="Mb", M=m, rtol=1e-8)
    assert kinfo == sinfo == 0
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-7, atol=1e-9)
    kx2, _ = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b.reshape(-1, 1)),
                                x0=kumo.asarray(b.reshape(-1, 1)), rtol=1e-8)
    assert np_(kx2).shape == (N,)


@pytest.mark.parametrize("name", list(SQUARE))
@pytest.mark.parametrize("kind", ["sparse", "operator"])
def test_preconditioner(name, kind):
    a = SQUARE[name](N, numpy.float64)
    b = rvec(N, numpy.float64)
    d = 1 / a.diagonal()
    sm = sps.diags(d).tocsr()
    if kind == "sparse":
        km = to_kumo(sm, "csr")
    else:
        dk = kumo.asarray(d)
        km = kla.LinearOperator(a.shape, matvec=lambda x: dk * x, rmatvec=lambda x: dk * x, dtype=numpy.float64)
    kc, sc = [], []
    kw = {"callback_type": "x"} if name == "gmres" else {}
    kx, kinfo = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), M=km, rtol=1e-8,
                                   callback=lambda xk: kc.append(1), **kw)
    sx, sinfo = getattr(spla, name)(a, b, M=sm, rtol=1e-8, callback=lambda xk: sc.append(1), **kw)
    assert kinfo == sinfo == 0
    assert len(kc) == len(sc)
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-7, atol=1e-9)


class Diag(kla.LinearOperator):
    """A user subclass with _matvec and _rmatvec over a kumo sparse matrix."""

    def __init__(self, a):
        super().__init__(a.dtype, a.shape)
        self.a = a
        self.calls = 0

    def _matvec(self, x):
        self.calls += 1
        return self.a @ x

    def _rmatvec(self, x):
        return self.a.T.conj() @ x


@pytest.mark.parametrize("name", list(SQUARE))
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128])
def test_linear_operator_subclass(name, dtype):
    a = SQUARE[name](N, dtype)
    b = rvec(N, dtype)
    op = Diag(to_kumo(a, "csr"))
    x, info = getattr(kla, name)(op, kumo.asarray(b), rtol=1e-8)
    ref = getattr(spla, name)(a, b, rtol=1e-8)[0] if scipy_handles(name, dtype) else numpy.linalg.solve(a.toarray(), b)
    assert info == 0
    assert op.calls > 0
    numpy.testing.assert_allclose(np_(x), ref, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("name", list(SQUARE))
def test_dense_and_scipy_inputs(name):
    a = SQUARE[name](N, numpy.float64)
    b = rvec(N, numpy.float64)
    ref, _ = getattr(spla, name)(a, b, rtol=1e-8)
    x1, _ = getattr(kla, name)(kumo.asarray(a.toarray()), kumo.asarray(b), rtol=1e-8)
    x2, _ = getattr(kla, name)(a.toarray(), b, rtol=1e-8)
    numpy.testing.assert_allclose(np_(x1), ref, rtol=1e-7, atol=1e-9)
    numpy.testing.assert_allclose(np_(x2), ref, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("name", ["cg", "bicg", "bicgstab", "cgs", "gmres"])
def test_maxiter_exhausted(name):
    a = SQUARE[name](200, numpy.float64)
    b = rvec(200, numpy.float64)
    maxiter = 1 if name == "gmres" else 3  # gmres counts restart cycles of 20 steps
    kx, kinfo = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-14, maxiter=maxiter)
    sx, sinfo = getattr(spla, name)(a, b, rtol=1e-14, maxiter=maxiter)
    assert kinfo == sinfo == maxiter
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
def test_minres_complex_hermitian(dtype):
    a = hpd(N, dtype)
    b = rvec(N, dtype)
    x, info = kla.minres(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-10)
    assert info == 0
    assert np_(x).dtype == numpy.complex128  # double precision, as SciPy's minres
    numpy.testing.assert_allclose(np_(x), numpy.linalg.solve(a.toarray().astype(numpy.complex128), b), rtol=1e-6)


def test_minres_maxiter_exhausted():
    a = hpd(200, numpy.float64)
    b = rvec(200, numpy.float64)
    kx, kinfo = kla.minres(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-14, maxiter=3)
    sx, sinfo = spla.minres(a, b, rtol=1e-14, maxiter=3)
    assert kinfo == sinfo == 3
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-8, atol=1e-10)


def test_minres_shift_matches_scipy():
    a = hpd(N, numpy.float64)
    b = rvec(N, numpy.float64)
    kx, kinfo = kla.minres(to_kumo(a, "csr"), kumo.asarray(b), shift=0.5, rtol=1e-10)
    sx, sinfo = spla.minres(a, b, shift=0.5, rtol=1e-10)
    assert kinfo == sinfo == 0
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-7)


def test_minres_indefinite_symmetric():
    # MINRES handles symmetric indefinite systems, where cg does not apply.
    a = (hpd(N, numpy.float64) - 6 * sps.identity(N)).tocsr()
    b = rvec(N, numpy.float64)
    kx, info = kla.minres(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-10)
    sx, _ = spla.minres(a, b, rtol=1e-10)
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-6)


def test_minres_check_rejects_nonsymmetric():
    a = general(N, numpy.float64)
    b = rvec(N, numpy.float64)
    with pytest.raises(ValueError, match="non-symmetric"):
        kla.minres(to_kumo(a, "csr"), kumo.asarray(b), check=True)


@pytest.mark.parametrize("callback_type", ["pr_norm", "legacy"])
def test_gmres_residual_callback(callback_type):
    a = general(N, numpy.float64)
    b = rvec(N, numpy.float64)
    kv, sv = [], []
    kla.gmres(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-8, callback=kv.append, callback_type=callback_type)
    spla.gmres(a, b, rtol=1e-8, callback=sv.append, callback_type=callback_type)
    assert len(kv) == len(sv)
    numpy.testing.assert_allclose(kv, sv, rtol=1e-6)


def test_gmres_legacy_maxiter_counts_inner_steps():
    a = general(200, numpy.float64)
    b = rvec(200, numpy.float64)
    kv, sv = [], []
    kx, kinfo = kla.gmres(to_kumo(a, "csr"), kumo.asarray(b), rtol=1e-14, maxiter=5, callback=kv.append,
                          callback_type="legacy")
    sx, sinfo = spla.gmres(a, b, rtol=1e-14, maxiter=5, callback=sv.append, callback_type="legacy")
    assert kinfo == sinfo == 5
    assert len(kv) == len(sv) == 5
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-8)


@pytest.mark.parametrize("restart", [1, 5, 80])
def test_gmres_restart(restart):
    a = general(N, numpy.float64)
    b = rvec(N, numpy.float64)
    (kx, kinfo), (sx, sinfo) = solve_both("gmres", a, b, rtol=1e-8, restart=restart)
    assert kinfo == sinfo
    numpy.testing.assert_allclose(kx, sx, rtol=1e-6, atol=1e-9)


def test_gmres_callback_without_type_warns():
    a = general(N, numpy.float64)
    with pytest.warns(DeprecationWarning):
        kla.gmres(to_kumo(a, "csr"), kumo.asarray(rvec(N, numpy.float64)), callback=lambda r: None)


def test_gmres_unknown_callback_type():
    a = general(N, numpy.float64)
    with pytest.raises(ValueError, match="callback_type"):
        kla.gmres(to_kumo(a, "csr"), kumo.asarray(rvec(N, numpy.float64)), callback=print, callback_type="bad")


@pytest.mark.parametrize("name", list(SQUARE))
def test_zero_rhs_gives_zero(name):
    a = SQUARE[name](N, numpy.float64)
    x, info = getattr(kla, name)(to_kumo(a, "csr"), kumo.zeros(N))
    assert info == 0
    assert not np_(x).any()


@pytest.mark.parametrize("name", list(SQUARE))
@pytest.mark.parametrize("in_dtype,out_dtype", [(numpy.int64, numpy.float64), (numpy.float32, numpy.float32)])
def test_result_dtype(name, in_dtype, out_dtype):
    a = sps.csr_matrix((numpy.diag(numpy.arange(1, 6)) * 4 + numpy.eye(5, k=1) * (name != "cg" and name != "minres")))
    b = numpy.arange(1, 6)
    kx, _ = getattr(kla, name)(ks.csr_matrix(a.astype(in_dtype)), kumo.asarray(b.astype(in_dtype)))
    sx, _ = getattr(spla, name)(a.astype(in_dtype), b.astype(in_dtype))
    # minres iterates in double precision (SciPy's float64 scalars promote).
    assert np_(kx).dtype == sx.dtype == (numpy.float64 if name == "minres" else out_dtype)
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-4)


@pytest.mark.parametrize("name", list(SQUARE))
def test_nonsquare_is_value_error(name):
    a = ks.csr_matrix(sps.random(5, 4, density=0.5, random_state=0))
    with pytest.raises(ValueError):
        getattr(kla, name)(a, kumo.ones(5))
    with pytest.raises(ValueError):
        getattr(spla, name)(a.get(), numpy.ones(5))


@pytest.mark.parametrize("name", list(SQUARE))
def test_rhs_shape_mismatch_is_value_error(name):
    a = to_kumo(SQUARE[name](N, numpy.float64), "csr")
    with pytest.raises(ValueError, match="incompatible"):
        getattr(kla, name)(a, kumo.ones(N + 1))
    with pytest.raises(ValueError, match="incompatible"):
        getattr(kla, name)(a, kumo.ones((N, 2)))


@pytest.mark.parametrize("name", list(SQUARE))
def test_x0_shape_mismatch_is_value_error(name):
    a = to_kumo(SQUARE[name](N, numpy.float64), "csr")
    with pytest.raises(ValueError, match="x0"):
        getattr(kla, name)(a, kumo.ones(N), x0=kumo.ones(N - 1))


@pytest.mark.parametrize("name", list(SQUARE))
def test_preconditioner_shape_mismatch_is_value_error(name):
    a = to_kumo(SQUARE[name](N, numpy.float64), "csr")
    with pytest.raises(ValueError, match="preconditioner"):
        getattr(kla, name)(a, kumo.ones(N), M=ks.csr_matrix(sps.identity(N + 1)))


@pytest.mark.parametrize("name", ["cg", "bicg", "bicgstab", "cgs", "gmres"])
def test_negative_atol_is_value_error(name):
    a = to_kumo(SQUARE[name](N, numpy.float64), "csr")
    with pytest.raises(ValueError, match="atol"):
        getattr(kla, name)(a, kumo.ones(N), atol=-1.0)


def test_bicg_needs_rmatvec():
    a = general(N, numpy.float64)
    ak = to_kumo(a, "csr")
    op = kla.LinearOperator(a.shape, matvec=lambda x: ak @ x, dtype=numpy.float64)
    with pytest.raises(NotImplementedError):
        kla.bicg(op, kumo.ones(N))


def test_exception_in_user_matvec_propagates():
    def bad(x):
        raise KeyError("from the user")

    op = kla.LinearOperator((4, 4), matvec=bad, dtype=numpy.float64)
    with pytest.raises(KeyError, match="from the user"):
        kla.cg(op, kumo.ones(4))


def test_bicgstab_breakdown_code():
    # rho = (r0, r) vanishes at once for this skew system: SciPy's -10.
    a = sps.csr_matrix(numpy.array([[0.0, 1.0], [-1.0, 0.0]]))
    b = numpy.array([1.0, 0.0])
    kx, kinfo = kla.bicgstab(ks.csr_matrix(a), kumo.asarray(b))
    sx, sinfo = spla.bicgstab(a, b)
    assert kinfo == sinfo


# ---- least squares ----

LSQR_FIELDS = ["x", "istop", "itn", "r1norm", "r2norm", "anorm", "acond", "arnorm", "xnorm", "var"]
LSMR_FIELDS = ["x", "istop", "itn", "normr", "normar", "norma", "conda", "normx"]


def rect(m, n, dtype, seed=3):
    """A well-conditioned rectangular matrix: LSQR and LSMR (which do not
    reorthogonalize) converge before rounding separates their iterates from
    SciPy's."""
    rng = numpy.random.default_rng(seed)
    a = sps.random(m, n, density=0.2, random_state=rng, format="csr")
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * sps.random(m, n, density=0.2, random_state=rng, format="csr")
    a = 0.3 * a + 2 * sps.eye(m, n)
    return sps.csr_matrix(a, dtype=dtype)


@pytest.mark.parametrize("name,fields", [("lsqr", LSQR_FIELDS), ("lsmr", LSMR_FIELDS)])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("shape", [(40, 25), (25, 40), (30, 30)])
def test_least_squares_match_scipy(name, fields, dtype, shape):
    a = rect(*shape, dtype)
    b = rvec(shape[0], dtype)
    k = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b))
    s = getattr(spla, name)(a, b)
    assert len(k) == len(s) == len(fields)
    assert k[1] == s[1] and k[2] == s[2]  # istop, itn
    assert np_(k[0]).dtype == s[0].dtype
    # Single-precision input: SciPy starts from ||b|| and u = b / ||b|| in
    # single precision (kumo in double), so the estimates agree to about
    # float32's precision only; x within the solvers' tolerance.
    single = tol(dtype) > 1e-6
    numpy.testing.assert_allclose(np_(k[0]), s[0], rtol=1e-4 if single else 1e-6, atol=1e-6 if single else 1e-8)
    numpy.testing.assert_allclose(k[3:8], s[3:8], rtol=1e-2 if single else 1e-6)


@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
@pytest.mark.parametrize("damp", [0.0, 0.7])
def test_least_squares_damp_and_x0(name, damp):
    a = rect(40, 25, numpy.float64)
    b = rvec(40, numpy.float64)
    x0 = rvec(25, numpy.float64, seed=9)
    k = getattr(kla, name)(to_kumo(a, "csc"), kumo.asarray(b), damp=damp, x0=kumo.asarray(x0), atol=1e-10,
                           btol=1e-10)
    s = getattr(spla, name)(a, b, damp=damp, x0=x0, atol=1e-10, btol=1e-10)
    assert k[1] == s[1] and k[2] == s[2]
    numpy.testing.assert_allclose(np_(k[0]), s[0], rtol=1e-7, atol=1e-9)


def test_lsqr_calc_var():
    a = rect(40, 25, numpy.float64)
    b = rvec(40, numpy.float64)
    k = kla.lsqr(to_kumo(a, "csr"), kumo.asarray(b), calc_var=True)
    s = spla.lsqr(a, b, calc_var=True)
    numpy.testing.assert_allclose(np_(k[9]), s[9], rtol=1e-7)


@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
def test_least_squares_iteration_limit(name):
    a = rect(40, 25, numpy.float64)
    b = rvec(40, numpy.float64)
    kw = {"iter_lim": 2} if name == "lsqr" else {"maxiter": 2}
    k = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), **kw)
    s = getattr(spla, name)(a, b, **kw)
    assert k[1] == s[1] == 7
    numpy.testing.assert_allclose(np_(k[0]), s[0], rtol=1e-8)


@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
def test_least_squares_zero_rhs(name):
    a = rect(10, 6, numpy.float64)
    k = getattr(kla, name)(to_kumo(a, "csr"), kumo.zeros(10))
    s = getattr(spla, name)(a, numpy.zeros(10))
    assert k[1] == s[1] == 0
    assert not np_(k[0]).any()


@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
def test_least_squares_rhs_mismatch(name):
    a = rect(10, 6, numpy.float64)
    with pytest.raises(ValueError):
        getattr(kla, name)(to_kumo(a, "csr"), kumo.ones(7))


@pytest.mark.parametrize("name", ["cg", "bicgstab", "gmres"])
def test_noncanonical_and_int64_index_matrices(name):
    # Duplicates, unsorted indices and explicit zeros in the stored form, and
    # int64 index arrays, mean the same operator as the canonical matrix.
    a = SQUARE[name](N, numpy.float64).tocoo()
    # Each entry stored twice (a quarter and three quarters of it), three
    # explicit zeros, everything in reverse order.
    row = numpy.concatenate([a.row, a.row, a.row[:3]])[::-1].astype(numpy.int64)
    col = numpy.concatenate([a.col, a.col, a.col[:3]])[::-1].astype(numpy.int64)
    data = numpy.concatenate([0.25 * a.data, 0.75 * a.data, numpy.zeros(3)])[::-1]
    s = sps.coo_matrix((data, (row, col)), shape=a.shape)
    # The same entries as a CSR matrix kept as stored (rows grouped, columns unsorted, duplicates).
    order = numpy.argsort(row, kind="stable")
    indptr = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(row, minlength=N))]).astype(numpy.int64)
    k = ks.csr_matrix((kumo.asarray(data[order]), kumo.asarray(col[order]), kumo.asarray(indptr)), shape=a.shape)
    assert not k.has_canonical_format
    b = rvec(N, numpy.float64)
    x, info = getattr(kla, name)(k, kumo.asarray(b), rtol=1e-10)
    ref, sinfo = getattr(spla, name)(s.tocsr(), b, rtol=1e-10)
    assert info == sinfo == 0
    numpy.testing.assert_allclose(np_(x), ref, rtol=1e-8, atol=1e-10)
