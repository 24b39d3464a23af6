"""kumo.linalg factorizations (cholesky, qr, svd, svdvals, eigh, eigvalsh,
eig, eigvals) against NumPy: direct comparison where the result is unique,
reconstruction where it is unique only up to phases."""
import numpy
import pytest

import kumo
import kumo.linalg as KL
from linalg_testing import DTYPES, LAYOUTS, host, make_check, rand, to_kumo


def _tol(dtype):
    return 1e-10 if numpy.dtype(dtype) in (numpy.float64, numpy.complex128) else 2e-4


def hermitian_pd(shape, dtype, seed=0):
    x = rand(shape, dtype, seed)
    n = shape[-1]
    return (x @ x.conj().swapaxes(-1, -2) + n * numpy.eye(n)).astype(dtype)


check = make_check(_tol)


def ch(x):
    return x.conj().swapaxes(-1, -2)


def check_orthonormal_columns(q, tol):
    k = q.shape[-1]
    numpy.testing.assert_allclose(ch(q) @ q, numpy.broadcast_to(numpy.eye(k), q.shape[:-2] + (k, k)), atol=tol * 10)


SQUARE_SHAPES = [(1, 1), (4, 4), (2, 3, 5, 5)]


# ---------------------------------------------------------------- cholesky
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SQUARE_SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_cholesky_matches_numpy(dtype, shape, layout):
    a = hermitian_pd(shape, dtype)
    check(KL.cholesky(to_kumo(a, layout)), numpy.linalg.cholesky(a))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky_upper(dtype):
    a = hermitian_pd((3, 4, 4), dtype)
    check(KL.cholesky(to_kumo(a), upper=True), numpy.linalg.cholesky(a, upper=True))


def test_cholesky_integer_input_is_float64():
    a = numpy.array([[4, 2], [2, 3]], dtype=numpy.int32)
    check(KL.cholesky(to_kumo(a)), numpy.linalg.cholesky(a))


@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3), (2, 0, 0)])
def test_cholesky_empty(shape):
    a = numpy.zeros(shape)
    check(KL.cholesky(to_kumo(a)), numpy.linalg.cholesky(a))


def test_cholesky_not_positive_definite():
    a = numpy.stack([numpy.eye(3), -numpy.eye(3)])
    with pytest.raises(KL.LinAlgError, match="Matrix is not positive definite"):
        KL.cholesky(to_kumo(a))


def test_cholesky_not_square():
    with pytest.raises(numpy.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        KL.cholesky(kumo.ones((3, 4)))


def test_cholesky_1d():
    with pytest.raises(numpy.linalg.LinAlgError, match="1-dimensional array given. Array must be at least two"):
        KL.cholesky(kumo.ones(3))


def test_float16_unsupported():
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg"):
        KL.cholesky(kumo.ones((2, 2), dtype=numpy.float16))


# ---------------------------------------------------------------- qr
QR_SHAPES = [(5, 3), (3, 5), (4, 4), (2, 3, 5, 3), (2, 3, 3, 5)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", QR_SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs(dtype, shape, mode):
    a = rand(shape, dtype)
    q, r = KL.qr(to_kumo(a), mode=mode)
    nq, nr = numpy.linalg.qr(a, mode=mode)
    q, r = host(q), host(r)
    assert (q.shape, r.shape, q.dtype, r.dtype) == (nq.shape, nr.shape, nq.dtype, nr.dtype)
    tol = _tol(dtype)
    numpy.testing.assert_allclose(q @ r, a, atol=tol * 10)
    check_orthonormal_columns(q, tol)
    assert numpy.array_equal(r, numpy.triu(r))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_qr_layouts(layout):
    a = rand((2, 5, 4), numpy.float64)
    q, r = KL.qr(to_kumo(a, layout))
    numpy.testing.assert_allclose(host(q) @ host(r), a, atol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", QR_SHAPES)
def test_qr_r_mode(dtype, shape):
    a = rand(shape, dtype)
    r = KL.qr(to_kumo(a), mode="r")
    nr = numpy.linalg.qr(a, mode="r")
    # R is unique up to a unit-modulus factor per row.
    check(kumo.absolute(r), numpy.abs(nr))
    assert host(r).dtype == nr.dtype


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 3)])
def test_qr_raw_mode(dtype, shape):
    a = rand(shape, dtype)
    h, tau = KL.qr(to_kumo(a), mode="raw")
    nh, ntau = numpy.linalg.qr(a, mode="raw")
    h, tau = host(h), host(tau)
    assert (h.shape, tau.shape, h.dtype, tau.dtype) == (nh.shape, ntau.shape, nh.dtype, ntau.dtype)
    k = min(shape[-2:])
    # h holds R in its upper part (as the transpose LAPACK leaves it).
    r = numpy.triu(h.swapaxes(-1, -2)[..., :k, :])
    numpy.testing.assert_allclose(numpy.abs(r), numpy.abs(numpy.linalg.qr(a, mode="r")), atol=_tol(dtype) * 10)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (0, 4, 2)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_empty(shape, mode):
    a = numpy.zeros(shape)
    got = KL.qr(to_kumo(a), mode=mode)
    want = numpy.linalg.qr(a, mode=mode)
    if mode == "r":
        check(got, want)
    else:
        check(got.Q, want.Q)
        check(got.R, want.R)


def test_qr_result_type():
    res = KL.qr(to_kumo(rand((4, 3), numpy.float64)))
    assert isinstance(res, numpy.linalg._linalg.QRResult)
    assert res.Q.shape == (4, 3) and res.R.shape == (3, 3)


def test_qr_bad_mode():
    with pytest.raises(ValueError, match="Unrecognized mode"):
        KL.qr(kumo.ones((2, 2)), mode="bogus")


def test_qr_1d():
    with pytest.raises(numpy.linalg.LinAlgError, match="at least two-dimensional"):
        KL.qr(kumo.ones(3))


# ---------------------------------------------------------------- svd
SVD_SHAPES = [(5, 3), (3, 5), (4, 4), (2, 3, 4, 2), (1, 1)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SVD_SHAPES)
@pytest.mark.parametrize("full", [True, False])
def test_svd_reconstructs(dtype, shape, full):
    a = rand(shape, dtype)
    u, s, vh = KL.svd(to_kumo(a), full_matrices=full)
    nu, ns, nvh = numpy.linalg.svd(a, full_matrices=full)
    check(s, ns)
    u, vh = host(u), host(vh)
    assert (u.shape, vh.shape, u.dtype, vh.dtype) == (nu.shape, nvh.shape, nu.dtype, nvh.dtype)
    k = min(shape[-2:])
    tol = _tol(dtype)
    numpy.testing.assert_allclose((u[..., :, :k] * host(s)[..., None, :]) @ vh[..., :k, :], a, atol=tol * 20)
    check_orthonormal_columns(u, tol)
    check_orthonormal_columns(ch(vh), tol)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_svd_layouts(layout):
    a = rand((2, 4, 3), numpy.complex128)
    check(KL.svd(to_kumo(a, layout), compute_uv=False), numpy.linalg.svd(a, compute_uv=False))


@pytest.mark.parametrize("dtype", DTYPES + [numpy.int64])
def test_svd_values_only(dtype):
    a = (rand((3, 4, 6), numpy.float64) * 4).astype(dtype) if dtype == numpy.int64 else rand((3, 4, 6), dtype)
    check(KL.svd(to_kumo(a), compute_uv=False), numpy.linalg.svd(a, compute_uv=False))
    check(KL.svdvals(to_kumo(a)), numpy.linalg.svdvals(a))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 5, 5)])
def test_svd_hermitian(dtype, shape):
    x = rand(shape, dtype)
    a = (x + ch(x)).astype(dtype)  # indefinite: negative eigenvalues exercise the reordering
    u, s, vh = KL.svd(to_kumo(a), hermitian=True)
    ns = numpy.linalg.svd(a, hermitian=True, compute_uv=False)
    check(s, ns)
    u, vh = host(u), host(vh)
    numpy.testing.assert_allclose((u * host(s)[..., None, :]) @ vh, a, atol=_tol(dtype) * 20)
    check(KL.svd(to_kumo(a), hermitian=True, compute_uv=False), ns)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3), (0, 2, 2)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_empty(shape, full):
    a = numpy.zeros(shape)
    u, s, vh = KL.svd(to_kumo(a), full_matrices=full)
    nu, ns, nvh = numpy.linalg.svd(a, full_matrices=full)
    check(u, nu)
    check(s, ns)
    check(vh, nvh)


def test_svd_result_type():
    res = KL.svd(to_kumo(rand((3, 2), numpy.float64)))
    assert isinstance(res, numpy.linalg._linalg.SVDResult)
    assert res.U.shape == (3, 3) and res.S.shape == (2,) and res.Vh.shape == (2, 2)


def test_svd_1d():
    with pytest.raises(numpy.linalg.LinAlgError, match="1-dimensional array given"):
        KL.svd(kumo.ones(3))


# ---------------------------------------------------------------- eigh
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SQUARE_SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_eigh_decomposes(dtype, shape, layout):
    x = rand(shape, dtype)
    a = (x + ch(x)).astype(dtype)
    w, v = KL.eigh(to_kumo(a, layout))
    nw, nv = numpy.linalg.eigh(a)
    check(w, nw)
    v = host(v)
    assert v.shape == nv.shape and v.dtype == nv.dtype
    tol = _tol(dtype)
    numpy.testing.assert_allclose(a @ v, v * host(w)[..., None, :], atol=tol * 50)
    check_orthonormal_columns(v, tol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigvalsh_uses_one_triangle(dtype, uplo):
    a = rand((2, 5, 5), dtype)  # not Hermitian: only the named triangle may be read
    check(KL.eigvalsh(to_kumo(a), UPLO=uplo), numpy.linalg.eigvalsh(a, UPLO=uplo))
    check(KL.eigh(to_kumo(a), UPLO=uplo)[0], numpy.linalg.eigh(a, UPLO=uplo)[0])


def test_eigh_integer_input():
    a = numpy.array([[2, 1], [1, 3]], dtype=numpy.int16)
    check(KL.eigvalsh(to_kumo(a)), numpy.linalg.eigvalsh(a))


@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3), (2, 0, 0)])
def test_eigh_empty(shape):
    a = numpy.zeros(shape, numpy.complex64)
    w, v = KL.eigh(to_kumo(a))
    nw, nv = numpy.linalg.eigh(a)
    check(w, nw)
    check(v, nv)


def test_eigh_result_type():
    res = KL.eigh(to_kumo(hermitian_pd((3, 3), numpy.float64)))
    assert isinstance(res, numpy.linalg._linalg.EighResult)
    assert res.eigenvalues.shape == (3,) and res.eigenvectors.shape == (3, 3)


def test_eigh_bad_uplo():
    with pytest.raises(ValueError, match="UPLO argument must be 'L' or 'U'"):
        KL.eigh(kumo.eye(2), UPLO="X")


def test_eigh_not_square():
    with pytest.raises(numpy.linalg.LinAlgError, match="must be square"):
        KL.eigvalsh(kumo.ones((2, 3)))


# ---------------------------------------------------------------- eig
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SQUARE_SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_eig_decomposes(dtype, shape, layout):
    a = rand(shape, dtype)
    w, v = KL.eig(to_kumo(a, layout))
    nw, nv = numpy.linalg.eig(a)
    w, v = host(w), host(v)
    assert (w.shape, v.shape, w.dtype, v.dtype) == (nw.shape, nv.shape, nw.dtype, nv.dtype)
    tol = _tol(dtype)
    numpy.testing.assert_allclose(a @ v, v * w[..., None, :], atol=tol * 100)
    numpy.testing.assert_allclose(numpy.linalg.norm(v, axis=-2), 1, rtol=tol * 10)
    numpy.testing.assert_allclose(numpy.sort_complex(w.reshape(-1, w.shape[-1])),
                                  numpy.sort_complex(nw.reshape(-1, nw.shape[-1])), atol=tol * 100)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_eig_real_results_when_all_eigenvalues_real(dtype):
    a = numpy.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]], dtype=dtype)
    w, v = KL.eig(to_kumo(a))
    assert host(w).dtype == dtype and host(v).dtype == dtype
    numpy.testing.assert_allclose(numpy.sort(host(w)), numpy.sort(numpy.linalg.eigvals(a)), rtol=_tol(dtype))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_eig_complex_results_for_rotation(dtype):
    a = numpy.array([[0, -1], [1, 0]], dtype=dtype)
    w = KL.eigvals(to_kumo(a))
    nw = numpy.linalg.eigvals(a)
    assert host(w).dtype == nw.dtype
    numpy.testing.assert_allclose(numpy.sort_complex(host(w)), numpy.sort_complex(nw), atol=1e-6)


def test_eigvals_integer_input():
    a = numpy.array([[1, 2], [2, 1]], dtype=numpy.int64)
    w = KL.eigvals(to_kumo(a))
    assert host(w).dtype == numpy.float64
    numpy.testing.assert_allclose(numpy.sort(host(w)), [-1, 3])


@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3)])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64])
def test_eig_empty(shape, dtype):
    a = numpy.zeros(shape, dtype)
    w, v = KL.eig(to_kumo(a))
    nw, nv = numpy.linalg.eig(a)
    check(w, nw)
    check(v, nv)


def test_eig_result_type():
    res = KL.eig(to_kumo(rand((3, 3), numpy.float64)))
    assert isinstance(res, numpy.linalg._linalg.EigResult)
    assert res.eigenvalues.shape == (3,) and res.eigenvectors.shape == (3, 3)


def test_eig_not_square():
    with pytest.raises(numpy.linalg.LinAlgError, match="must be square"):
        KL.eig(kumo.ones((2, 3)))


@pytest.mark.parametrize("value", [numpy.nan, numpy.inf])
def test_eig_nonfinite_input(value):
    a = numpy.eye(3)
    a[1, 2] = value
    with pytest.raises(numpy.linalg.LinAlgError, match="Array must not contain infs or NaNs"):
        KL.eigvals(to_kumo(a))


@pytest.mark.parametrize("compute_uv", [True, False])
def test_svd_nan_does_not_converge(compute_uv):
    a = numpy.eye(3)
    a[0, 1] = numpy.nan
    with pytest.raises(numpy.linalg.LinAlgError, match="SVD did not converge"):
        KL.svd(to_kumo(a), compute_uv=compute_uv)


def test_eigvalsh_nan_does_not_converge():
    with pytest.raises(numpy.linalg.LinAlgError, match="Eigenvalues did not converge"):
        KL.eigvalsh(to_kumo(numpy.full((3, 3), numpy.nan)))
