"""kumo.linalg solvers and matrix functions (solve, inv, det, slogdet,
pinv, lstsq, matrix_rank, cond, tensorsolve, tensorinv) against NumPy."""
import numpy
import pytest

import kumo
import kumo.linalg as KL
from linalg_testing import DTYPES, LAYOUTS, host, make_check, rand, to_kumo


def _tol(dtype):
    return 1e-10 if numpy.dtype(dtype) in (numpy.float64, numpy.complex128) else 5e-4


check = make_check(_tol)


# ---------------------------------------------------------------- solve
SOLVE_SHAPES = [((4, 4), (4,)), ((4, 4), (4, 2)), ((2, 3, 4, 4), (4,)), ((2, 3, 4, 4), (2, 3, 4, 2)),
                ((4, 4), (2, 3, 4, 2)), ((2, 1, 4, 4), (3, 4, 5)), ((1, 1), (1, 1)), ((3, 3), (3, 0))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", SOLVE_SHAPES)
def test_solve_matches_numpy(dtype, shapes):
    a = rand(shapes[0], dtype, 1, diag=4)
    b = rand(shapes[1], dtype, 2)
    check(KL.solve(to_kumo(a), to_kumo(b)), numpy.linalg.solve(a, b))


@pytest.mark.parametrize("layout_a", LAYOUTS)
@pytest.mark.parametrize("layout_b", LAYOUTS)
def test_solve_layouts(layout_a, layout_b):
    a = rand((2, 5, 5), numpy.float64, 1, diag=4)
    b = rand((2, 5, 3), numpy.float64, 2)
    check(KL.solve(to_kumo(a, layout_a), to_kumo(b, layout_b)), numpy.linalg.solve(a, b))


def test_solve_reversed_and_stepped_batches():
    a = rand((3, 4, 4), numpy.float64, 1, diag=4)
    b = rand((6, 4, 2), numpy.float64, 2)
    check(KL.solve(to_kumo(a)[::-1], to_kumo(b)[::-2]), numpy.linalg.solve(a[::-1], b[::-2]))


def test_inv_of_broadcast_batch():
    a = rand((4, 4), numpy.complex128, 1, diag=4)
    ka = kumo.broadcast_to(to_kumo(a), (3, 4, 4))
    check(KL.inv(ka), numpy.linalg.inv(numpy.broadcast_to(a, (3, 4, 4))))


@pytest.mark.parametrize("da,db", [(numpy.int32, numpy.int64), (numpy.float32, numpy.float64),
                                   (numpy.float32, numpy.complex64), (numpy.int8, numpy.complex64),
                                   (numpy.bool_, numpy.float32)])
def test_solve_mixed_dtypes(da, db):
    a = (numpy.eye(3) * 2 + numpy.triu(numpy.ones((3, 3)))).astype(da)
    b = numpy.arange(6).reshape(3, 2).astype(db)
    check(KL.solve(to_kumo(a), to_kumo(b)), numpy.linalg.solve(a, b), tol=1e-5)


@pytest.mark.parametrize("shapes", [((0, 0), (0,)), ((0, 0), (0, 2)), ((0, 3, 3), (0, 3, 1)), ((0, 3, 3), (3,)),
                                    ((2, 0, 0), (2, 0, 4))])
def test_solve_empty(shapes):
    a, b = numpy.zeros(shapes[0]), numpy.zeros(shapes[1])
    check(KL.solve(to_kumo(a), to_kumo(b)), numpy.linalg.solve(a, b))


@pytest.mark.parametrize("rhs", [(3,), (3, 2), (3, 0)])
def test_solve_singular(rhs):
    a = numpy.ones((3, 3))
    with pytest.raises(numpy.linalg.LinAlgError, match="Singular matrix"):
        KL.solve(to_kumo(a), to_kumo(numpy.ones(rhs)))


def test_solve_one_singular_in_batch():
    a = numpy.stack([numpy.eye(3), numpy.zeros((3, 3))])
    with pytest.raises(numpy.linalg.LinAlgError, match="Singular matrix"):
        KL.solve(to_kumo(a), to_kumo(numpy.ones((2, 3, 1))))


@pytest.mark.parametrize("bshape", [(4,), (4, 1), (2, 4, 2)])
def test_solve_core_mismatch(bshape):
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        KL.solve(kumo.eye(3), kumo.ones(bshape))


def test_solve_batch_mismatch():
    with pytest.raises(ValueError):
        KL.solve(kumo.ones((2, 3, 3)), kumo.ones((4, 3, 1)))


def test_solve_not_square():
    with pytest.raises(numpy.linalg.LinAlgError, match="must be square"):
        KL.solve(kumo.ones((3, 2)), kumo.ones(3))


# ---------------------------------------------------------------- inv
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (2, 3, 5, 5)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_inv_matches_numpy(dtype, shape, layout):
    a = rand(shape, dtype, diag=4)
    check(KL.inv(to_kumo(a, layout)), numpy.linalg.inv(a))


def test_inv_integer_input():
    a = numpy.array([[2, 1], [7, 4]], dtype=numpy.int16)
    check(KL.inv(to_kumo(a)), numpy.linalg.inv(a))


@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3), (3, 0, 0)])
def test_inv_empty(shape):
    a = numpy.zeros(shape, numpy.complex64)
    check(KL.inv(to_kumo(a)), numpy.linalg.inv(a))


def test_inv_singular():
    with pytest.raises(numpy.linalg.LinAlgError, match="Singular matrix"):
        KL.inv(to_kumo(numpy.array([[1.0, 2.0], [2.0, 4.0]])))


def test_inv_1d():
    with pytest.raises(numpy.linalg.LinAlgError, match="1-dimensional array given"):
        KL.inv(kumo.ones(3))


def test_inv_float16():
    with pytest.raises(TypeError, match="unsupported in linalg"):
        KL.inv(kumo.eye(2, dtype=numpy.float16))


# ---------------------------------------------------------------- det / slogdet
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (2, 3, 5, 5)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_det_matches_numpy(dtype, shape, layout):
    a = rand(shape, dtype)
    check(KL.det(to_kumo(a, layout)), numpy.linalg.det(a))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 5, 5)])
def test_slogdet_matches_numpy(dtype, shape):
    a = rand(shape, dtype)
    sign, logdet = KL.slogdet(to_kumo(a))
    nsign, nlogdet = numpy.linalg.slogdet(a)
    check(sign, nsign)
    check(logdet, nlogdet)


def test_slogdet_result_type():
    res = KL.slogdet(kumo.eye(3))
    assert isinstance(res, numpy.linalg._linalg.SlogdetResult)
    assert float(res.sign) == 1.0 and float(res.logabsdet) == 0.0


@pytest.mark.parametrize("perm", [[1, 0, 2], [1, 2, 0], [2, 1, 0, 3]])
def test_det_of_permutation_matrix(perm):
    a = numpy.eye(len(perm))[perm]
    check(KL.det(to_kumo(a)), numpy.linalg.det(a), tol=1e-14)


def test_det_integer_input():
    a = numpy.array([[1, 2], [3, 4]], dtype=numpy.int64)
    check(KL.det(to_kumo(a)), numpy.linalg.det(a))


@pytest.mark.parametrize("dtype", DTYPES)
def test_slogdet_singular(dtype):
    a = numpy.stack([numpy.ones((3, 3)), numpy.eye(3)]).astype(dtype)
    sign, logdet = KL.slogdet(to_kumo(a))
    nsign, nlogdet = numpy.linalg.slogdet(a)
    check(sign, nsign)
    numpy.testing.assert_array_equal(host(logdet), nlogdet)
    check(KL.det(to_kumo(a)), numpy.linalg.det(a))


def test_slogdet_large_values_do_not_overflow():
    a = numpy.eye(4) * 1e200
    sign, logdet = KL.slogdet(to_kumo(a))
    check(logdet, numpy.linalg.slogdet(a)[1])
    assert float(sign) == 1.0


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 2, 2)])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128])
def test_det_empty(shape, dtype):
    a = numpy.zeros(shape, dtype)
    check(KL.det(to_kumo(a)), numpy.linalg.det(a))
    sign, logdet = KL.slogdet(to_kumo(a))
    nsign, nlogdet = numpy.linalg.slogdet(a)
    check(sign, nsign)
    check(logdet, nlogdet)


def test_det_not_square():
    with pytest.raises(numpy.linalg.LinAlgError, match="must be square"):
        KL.det(kumo.ones((2, 3)))


# ---------------------------------------------------------------- pinv
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 3, 4, 2)])
def test_pinv_matches_numpy(dtype, shape):
    a = rand(shape, dtype)
    check(KL.pinv(to_kumo(a)), numpy.linalg.pinv(a))


@pytest.mark.parametrize("dtype", DTYPES)
def test_pinv_hermitian(dtype):
    x = rand((2, 4, 4), dtype)
    a = (x + x.conj().swapaxes(-1, -2)).astype(dtype)
    check(KL.pinv(to_kumo(a), hermitian=True), numpy.linalg.pinv(a, hermitian=True))


def test_pinv_rank_deficient_cutoff():
    a = numpy.diag([1.0, 1e-3, 1e-20])
    check(KL.pinv(to_kumo(a)), numpy.linalg.pinv(a))
    check(KL.pinv(to_kumo(a), rcond=1e-2), numpy.linalg.pinv(a, rcond=1e-2))
    check(KL.pinv(to_kumo(a), rtol=None), numpy.linalg.pinv(a, rtol=None))
    check(KL.pinv(to_kumo(a), rtol=1e-2), numpy.linalg.pinv(a, rtol=1e-2))


def test_pinv_rcond_per_matrix():
    a = numpy.stack([numpy.diag([1.0, 1e-3]), numpy.diag([1.0, 1e-3])])
    rc = numpy.array([1e-4, 1e-2])
    check(KL.pinv(to_kumo(a), rcond=to_kumo(rc)), numpy.linalg.pinv(a, rcond=rc))


def test_pinv_rcond_and_rtol():
    with pytest.raises(ValueError, match="can't be both set"):
        KL.pinv(kumo.eye(2), rcond=1e-3, rtol=1e-3)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0, 4)])
def test_pinv_empty(shape):
    a = numpy.zeros(shape)
    got = KL.pinv(to_kumo(a))
    assert host(got).shape == numpy.linalg.pinv(a).shape


def test_pinv_layout():
    a = rand((4, 6), numpy.complex128)
    check(KL.pinv(to_kumo(a, "negative")), numpy.linalg.pinv(a))


# ---------------------------------------------------------------- lstsq
def _check_lstsq(a, b, **kw):
    x, res, rank, s = KL.lstsq(to_kumo(a), to_kumo(b), **kw)
    nx, nres, nrank, ns = numpy.linalg.lstsq(a, b, **kw)
    check(x, nx)
    check(res, nres)
    check(s, ns)
    assert rank == nrank and type(rank) is type(nrank)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3, 2)), ((4, 4), (4, 1)),
                                    ((6, 3), (6, 0))])
def test_lstsq_matches_numpy(dtype, shapes):
    _check_lstsq(rand(shapes[0], dtype, 1), rand(shapes[1], dtype, 2))


def test_lstsq_rank_deficient():
    a = numpy.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    _check_lstsq(a, numpy.array([1.0, 2.0, 2.0]))


@pytest.mark.parametrize("rcond", [None, 1e-3, 0.5, -1])
def test_lstsq_rcond(rcond):
    a = numpy.diag([1.0, 0.1, 1e-4])[:, :2].copy()
    a = numpy.vstack([a, [[0.0, 0.2]]])
    _check_lstsq(a, numpy.arange(4.0), rcond=rcond)


def test_lstsq_integer_input():
    a = numpy.array([[1, 0], [1, 1], [1, 2]], dtype=numpy.int32)
    _check_lstsq(a, numpy.array([1, 2, 2], dtype=numpy.int32))


@pytest.mark.parametrize("shapes", [((0, 3), (0, 2)), ((3, 0), (3, 2)), ((3, 0), (3,))])
def test_lstsq_empty(shapes):
    _check_lstsq(numpy.ones(shapes[0]), numpy.ones(shapes[1]))


def test_lstsq_incompatible():
    with pytest.raises(numpy.linalg.LinAlgError, match="Incompatible dimensions"):
        KL.lstsq(kumo.ones((3, 2)), kumo.ones(4))


def test_lstsq_3d():
    with pytest.raises(numpy.linalg.LinAlgError, match="Array must be two-dimensional"):
        KL.lstsq(kumo.ones((2, 3, 2)), kumo.ones((2, 3, 1)))


# ---------------------------------------------------------------- matrix_rank
@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_rank_batched(dtype):
    a = rand((3, 5, 4), dtype)
    a[1, :, 3] = a[1, :, 0] + a[1, :, 1]
    a[2] = 0
    check(KL.matrix_rank(to_kumo(a)), numpy.linalg.matrix_rank(a), dtype=False)


def test_matrix_rank_dtype_is_int64():
    assert host(KL.matrix_rank(kumo.eye(3))).dtype == numpy.int64


@pytest.mark.parametrize("kw", [{"tol": 0.5}, {"rtol": 0.5}, {"hermitian": True}, {"tol": 1e-30}])
def test_matrix_rank_options(kw):
    a = numpy.diag([3.0, 1.0, 1e-3, 0.0])
    check(KL.matrix_rank(to_kumo(a), **kw), numpy.linalg.matrix_rank(a, **kw), dtype=False)


@pytest.mark.parametrize("v", [[0.0, 0.0], [0.0, 1.0], []])
def test_matrix_rank_1d(v):
    assert KL.matrix_rank(to_kumo(numpy.array(v))) == numpy.linalg.matrix_rank(numpy.array(v))


def test_matrix_rank_tol_and_rtol():
    with pytest.raises(ValueError, match="can't be both set"):
        KL.matrix_rank(kumo.eye(2), tol=1, rtol=1)


# ---------------------------------------------------------------- cond
@pytest.mark.parametrize("p", [None, 1, -1, 2, -2, numpy.inf, -numpy.inf, "fro", "nuc"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64])
def test_cond_matches_numpy(p, dtype):
    a = rand((2, 4, 4), dtype, diag=1)
    check(KL.cond(to_kumo(a), p), numpy.linalg.cond(a, p), tol=1e-4 if dtype == numpy.complex64 else 1e-9)


@pytest.mark.parametrize("p", [None, 2, -2])
def test_cond_rectangular(p):
    a = rand((5, 3), numpy.float64)
    check(KL.cond(to_kumo(a), p), numpy.linalg.cond(a, p))


@pytest.mark.parametrize("p", [None, 1, numpy.inf, "fro"])
def test_cond_singular_is_inf(p):
    a = numpy.stack([numpy.ones((3, 3)), numpy.eye(3)])
    got = host(KL.cond(to_kumo(a), p))
    want = numpy.linalg.cond(a, p)
    assert numpy.isinf(got[0]) == numpy.isinf(want[0])
    assert got[1] == pytest.approx(want[1])


def test_cond_nan_input_stays_nan():
    a = numpy.eye(3)
    a[0, 0] = numpy.nan
    assert numpy.isnan(host(KL.cond(to_kumo(a), 1)))


def test_cond_empty():
    with pytest.raises(numpy.linalg.LinAlgError, match="cond is not defined on empty arrays"):
        KL.cond(kumo.ones((0, 0)))


def test_cond_not_square_for_p1():
    with pytest.raises(numpy.linalg.LinAlgError, match="must be square"):
        KL.cond(kumo.ones((2, 3)), 1)


# ---------------------------------------------------------------- tensor forms
@pytest.mark.parametrize("shape,ind", [((6, 2, 3), 1), ((2, 3, 6), 2), ((4, 6, 8, 3), 2)])
def test_tensorinv(shape, ind):
    a = rand(shape, numpy.float64, diag=0)
    n = numpy.prod(shape[:ind])
    a = (a.reshape(n, -1) + 3 * numpy.eye(n)).reshape(shape)
    check(KL.tensorinv(to_kumo(a), ind), numpy.linalg.tensorinv(a, ind))


def test_tensorinv_bad_ind():
    with pytest.raises(ValueError, match="Invalid ind argument"):
        KL.tensorinv(kumo.ones((2, 2)), 0)


@pytest.mark.parametrize("axes", [None, (1,)])
def test_tensorsolve(axes):
    rng = numpy.random.default_rng(3)
    m = rng.standard_normal((6, 6)) + 4 * numpy.eye(6)
    a = m.reshape(2, 3, 6)
    if axes is not None:
        a = a.transpose(0, 2, 1)  # (2, 6, 3): axis 1 goes to the end again inside tensorsolve
    b = rng.standard_normal((2, 3))
    check(KL.tensorsolve(to_kumo(a), to_kumo(b), axes=axes), numpy.linalg.tensorsolve(a, b, axes=axes))


def test_tensorsolve_bad_shape():
    with pytest.raises(numpy.linalg.LinAlgError, match="Input arrays must satisfy"):
        KL.tensorsolve(kumo.ones((2, 3, 4)), kumo.ones((2, 3)))
