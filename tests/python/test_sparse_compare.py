"""kumo.sparse comparisons against scipy.sparse 1.17: ==, !=, <, >, <=, >=
with sparse, scalar and dense operands, giving sparse bool matrices or dense
arrays as SciPy does, with its SparseEfficiencyWarning where the result is
dense in all but type, and its errors."""
import operator
import warnings

import numpy
import pytest
import scipy.sparse as sps

import kumo
import kumo.sparse as ks
from test_sparse_arithmetic import FORMATS, close, pair, same_sparse

DTYPES = [numpy.bool_, numpy.int8, numpy.int64, numpy.float32, numpy.float64, numpy.complex128]
OPS = [operator.eq, operator.ne, operator.lt, operator.gt, operator.le, operator.ge]


def run(op, a, b):
    """(result, warning categories) of op(a, b), or the exception type."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = op(a, b)
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            return type(e), []
    return r, sorted({x.category.__name__ for x in w})


def canonical_pair(fmt, dtype, seed=0):
    """A pair without duplicates for COO: SciPy's COO compares stored entries one by one, kumo the matrix."""
    k, s = pair(fmt, "array", dtype, seed=seed)
    if fmt == "coo":
        return ks.coo_array(k.tocsr()), sps.coo_array(s.tocsr())
    return k, s


def same_result(got, want):
    if isinstance(want, type):
        assert got is want or issubclass(got, want), (got, want)
        return
    g, gw = got
    w, ww = want
    assert gw == ww
    if isinstance(w, bool):
        assert g is w
    elif sps.issparse(w):
        same_sparse(g, w)
    else:
        close(g, numpy.asarray(w))


@pytest.mark.parametrize("op", OPS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_sparse_sparse(fmt, dtype, op):
    if numpy.dtype(dtype).kind == "c" and op not in (operator.eq, operator.ne):
        pytest.skip("SciPy orders complex values as NumPy; covered by test_complex_order")
    k1, s1 = canonical_pair(fmt, dtype, seed=0)
    k2, s2 = pair("csr", "array", dtype, seed=3)
    same_result(run(op, k1, k2), run(op, s1, s2))
    same_result(run(op, k1, k1), run(op, s1, s1))


def test_complex_order():
    a = numpy.array([[1 + 1j, 0, 1 - 1j], [0, -1j, 2]])
    b = numpy.array([[1 + 2j, 1j, 1 - 1j], [0, 0, 2 + 0j]])
    for op in (operator.lt, operator.gt):
        same_result(run(op, ks.csr_array(a), ks.csr_array(b)), run(op, sps.csr_array(a), sps.csr_array(b)))


@pytest.mark.parametrize("scalar", [0, 2, -2, 0.5, numpy.nan])
@pytest.mark.parametrize("op", OPS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("fmt", FORMATS)
def test_sparse_scalar(fmt, op, scalar):
    k, s = canonical_pair(fmt, numpy.float64)
    got, want = run(op, k, scalar), run(op, s, scalar)
    same_result(got, want)


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32])
@pytest.mark.parametrize("op", OPS, ids=lambda o: o.__name__)
def test_sparse_dense(op, dtype):
    k, s = pair("csr", "matrix", dtype)
    d = numpy.arange(30).reshape(6, 5).astype(dtype) % 3 - 1
    same_result(run(op, k, d), run(op, s, d))


@pytest.mark.parametrize("op", OPS, ids=lambda o: o.__name__)
def test_shape_mismatch(op):
    k1, s1 = pair("csr", "array", numpy.float64)
    k2 = ks.csr_array((5, 6))
    s2 = sps.csr_array((5, 6))
    same_result(run(op, k1, k2), run(op, s1, s2))


def test_explicit_zeros_and_duplicates():
    data = numpy.array([0.0, 1.0, -1.0, 2.0])
    row = numpy.array([0, 1, 1, 2])
    col = numpy.array([0, 1, 1, 2])
    k = ks.csr_array((data, (row, col)), shape=(3, 3))
    s = sps.csr_array((data, (row, col)), shape=(3, 3))
    for op in (operator.ne, operator.lt, operator.gt):
        same_result(run(op, k, 0), run(op, s, 0))
        same_result(run(op, k, ks.csr_array((3, 3))), run(op, s, sps.csr_array((3, 3))))


# ---- division and multiplication with dense and sparse operands ----

@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.complex128])
@pytest.mark.parametrize("fmt", FORMATS)
def test_divide(fmt, dtype, kind):
    k, s = canonical_pair(fmt, dtype) if kind == "array" else pair(fmt, kind, dtype)
    d = (numpy.arange(30).reshape(6, 5) % 7 + 1).astype(numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want_dense = s / d
        want_sparse = s / s
        want_scalar = s / 4
    same_sparse(k / d, want_dense)
    assert not isinstance(k / k, ks.sparray.__mro__[0]) and (k / k).shape == want_sparse.shape
    numpy.testing.assert_allclose(kumo.asnumpy(k / k), numpy.asarray(want_sparse), equal_nan=True)
    assert (k / k).dtype == want_sparse.dtype
    same_sparse(k / 4, want_scalar)


@pytest.mark.parametrize("fmt", FORMATS)
def test_multiply_dense_and_sparse(fmt):
    k, s = pair(fmt, "array", numpy.int32)
    d = numpy.arange(30).reshape(6, 5).astype(numpy.float32)
    same_sparse(k.multiply(d), s.multiply(d))
    same_sparse(k * d, s * d)
    k2, s2 = pair("csc", "array", numpy.float64, seed=4)
    same_sparse(k.multiply(k2), s.multiply(s2))


def test_divide_errors():
    k, s = pair("csr", "array", numpy.float64)
    with pytest.raises(ValueError):
        s / sps.csr_array((2, 2))
    with pytest.raises(ValueError):
        k / ks.csr_array((2, 2))
    d = numpy.ones((6, 5))
    with pytest.raises(TypeError):
        d / s
    with pytest.raises(TypeError):
        d / k


@pytest.mark.parametrize("op", OPS, ids=lambda o: o.__name__)
def test_stored_nan(op):
    d = numpy.array([[numpy.nan, 1.0, 0.0], [0.0, -2.0, numpy.nan]])
    k, s = ks.csr_array(d), sps.csr_array(d)
    # (Where an inequality with a scalar holds at zero, SciPy gives true at
    # stored NaNs; kumo gives NumPy's false: see docs/sparse.md.)
    for scalar in (1.0, -1.0, 0.0):
        if op in (operator.eq, operator.ne) or not op(0.0, scalar):
            same_result(run(op, k, scalar), run(op, s, scalar))
        else:
            close(run(op, k, scalar)[0].toarray(), op(d, scalar))
    e = numpy.array([[numpy.nan, 0.0, 3.0], [0.0, -2.0, 1.0]])
    same_result(run(op, k, ks.csr_array(e)), run(op, s, sps.csr_array(e)))


def test_coo_inner_index_is_1d_coo():
    k, s = pair("coo", "array", numpy.float64)
    same_sparse(k[[0, 1], [1, 2]], s[[0, 1], [1, 2]])
