"""Regressions found by the kumo.sparse vs scipy.sparse differential harness
(tests/differential/sparse): BSR reductions and elementwise functions, BSR
maximum/minimum formats and indexing errors, prune, getH, dense - sparse of
unsigned dtypes, astype's ComplexWarning, spsolve's warning for a sparse b
outside CSC. Each compared against SciPy 1.17."""
import warnings

import numpy
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spl

import kumo
import kumo.sparse as ks
import kumo.sparse.linalg as ksl

DENSE = numpy.array([[0, 2, 0, -1], [3, 0, 0, 0], [0, 0, -4, 1], [0, 5, 0, 0]])


def both(cls, dense, dtype, **kw):
    d = dense.astype(dtype)
    return getattr(sps, cls)(d, **kw), getattr(ks, cls)(kumo.asarray(d), **kw)


def same(n, k):
    if sps.issparse(n):
        assert ks.issparse(k) and k.format == n.format, (type(n), type(k))
        assert isinstance(k, ks.sparray) == isinstance(n, sps.sparray)
        assert k.dtype == n.dtype and k.shape == n.shape
        numpy.testing.assert_allclose(kumo.asnumpy(k.toarray()), n.toarray(), rtol=1e-6)
    else:
        k = kumo.asnumpy(k) if hasattr(k, "__dlpack__") and not isinstance(k, numpy.generic) else k
        numpy.testing.assert_allclose(numpy.asarray(k), numpy.asarray(n), rtol=1e-6)


@pytest.mark.parametrize("cls", ["bsr_array", "bsr_matrix"])
@pytest.mark.parametrize("op,axis", [("max", None), ("min", 0), ("argmax", None), ("argmin", 1), ("nanmax", 1),
                                     ("max", 1)])
@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_bsr_reductions(cls, op, axis, dtype):
    n, k = both(cls, DENSE, dtype, blocksize=(2, 2))
    if op == "nanmax" and dtype == "int32":
        pytest.skip("float only")
    same(getattr(n, op)(axis=axis), getattr(k, op)(axis=axis))


@pytest.mark.parametrize("cls", ["bsr_array", "bsr_matrix"])
@pytest.mark.parametrize("fn", ["sin", "sqrt", "expm1", "floor", "__abs__", "__round__"])
def test_bsr_elementwise(cls, fn):
    n, k = both(cls, numpy.abs(DENSE), "float64", blocksize=(2, 1))
    same(getattr(n, fn)(), getattr(k, fn)())


@pytest.mark.parametrize("other", [2, -1, 0])
@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_bsr_maximum_minimum_format(name, other):
    n, k = both("bsr_array", DENSE, "float64", blocksize=(2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(getattr(n, name)(other), getattr(k, name)(other))
        n2, k2 = both("csr_array", DENSE.T, "float64")
        same(getattr(n, name)(n2), getattr(k, name)(k2))


@pytest.mark.parametrize("key", [0, (0, 1), slice(1, 3)])
def test_bsr_not_subscriptable(key):
    n, k = both("bsr_array", DENSE, "float64", blocksize=(2, 2))
    with pytest.raises(NotImplementedError):
        n[key]
    with pytest.raises(NotImplementedError):
        k[key]


@pytest.mark.parametrize("cls", ["csr_matrix", "csc_array", "bsr_matrix", "csr_array"])
def test_prune(cls):
    n, k = both(cls, DENSE, "float64")
    assert n.prune() is None and k.prune() is None
    same(n, k)


@pytest.mark.parametrize("cls", ["csr_matrix", "csc_matrix", "coo_matrix", "bsr_matrix", "dia_matrix"])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_getH(cls, dtype):
    d = DENSE + (1j * DENSE.T if dtype == "complex128" else 0)
    n, k = both(cls, d, dtype)
    same(n.getH(), k.getH())


@pytest.mark.parametrize("dtype", ["uint8", "uint32", "uint64", "int16", "float32"])
@pytest.mark.parametrize("cls", ["csr_array", "coo_matrix", "csc_array"])
def test_dense_minus_sparse_promotes(dtype, cls):
    n, k = both(cls, numpy.abs(DENSE), dtype)
    left = numpy.linspace(-3, 3, 16).reshape(4, 4)
    same(left - n, left - k)
    same(0 - n, 0 - k)


@pytest.mark.parametrize("target", ["float64", "float32", "int32", "bool"])
def test_astype_complex_to_real_warns(target):
    n, k = both("csr_array", DENSE + 1j, "complex128")
    with warnings.catch_warnings(record=True) as wn:
        warnings.simplefilter("always")
        rn = n.astype(target)
    with warnings.catch_warnings(record=True) as wk:
        warnings.simplefilter("always")
        rk = k.astype(target)
    want = set() if target == "bool" else {numpy.exceptions.ComplexWarning}
    assert {w.category for w in wn} == {w.category for w in wk} == want
    same(rn, rk)


@pytest.mark.parametrize("fmt", ["csr", "coo", "csc", "bsr"])
@pytest.mark.parametrize("cols", [1, 2])
def test_spsolve_sparse_rhs_warning(fmt, cols):
    a = numpy.eye(4) * 3 + numpy.triu(numpy.ones((4, 4)), 1)
    b = numpy.arange(4.0 * cols).reshape(4, cols)
    An, Ak = sps.csc_array(a), ks.csc_array(kumo.asarray(a))
    bn, bk = sps.csr_array(b).asformat(fmt), ks.csr_array(kumo.asarray(b)).asformat(fmt)
    with warnings.catch_warnings(record=True) as wn:
        warnings.simplefilter("always")
        xn = spl.spsolve(An, bn)
    with warnings.catch_warnings(record=True) as wk:
        warnings.simplefilter("always")
        xk = ksl.spsolve(Ak, bk)
    assert {w.category.__name__ for w in wn} == {w.category.__name__ for w in wk}
    same(xn, xk)


@pytest.mark.parametrize("op", ["add", "sub"])
@pytest.mark.parametrize("widths", [(1, 3), (3, 1), (2, 2)])
def test_dia_sum_of_operands_without_diagonals(op, widths):
    # No diagonal on either side (the merged offsets are empty) and data of
    # different widths: this died with SIGSEGV. (SciPy 1.17 itself raises a
    # broadcasting ValueError when one width is 0; kumo returns the empty sum.)
    def make(lib, m, w):
        return m.dia_array((lib.zeros((0, w), "int16"), lib.zeros(0, "int32")), shape=(5, 1))
    n = [make(numpy, sps, w) for w in widths]
    k = [make(kumo, ks, w) for w in widths]
    rn = n[0] + n[1] if op == "add" else n[0] - n[1]
    rk = k[0] + k[1] if op == "add" else k[0] - k[1]
    same(rn, rk)


@pytest.mark.parametrize("rows", [[[-4.0, 0.0]], [[0.0, -3.0], [0.0, 0.0]], [[-4.0, 1.0]], [[-1e150, -2e150]]])
@pytest.mark.parametrize("ord", [None, "fro"])
def test_frobenius_norm_of_negative_entries(rows, ord):
    a = numpy.array(rows)
    want = spl.norm(sps.csr_array(a), ord=ord)
    got = ksl.norm(ks.csr_array(kumo.asarray(a)), ord=ord)
    numpy.testing.assert_allclose(float(got), want, rtol=1e-15)


# ---- setdiag as SciPy's: offsets on empty/thin shapes, the dtype after values of another kind, NumPy's casts ----

SETDIAG_DENSE = numpy.array([[0, 2, 0, -1, 0], [3, 0, 0, 0, 1], [0, 0, 4, 1, 0]])


def _setdiag_both(fmt, kind, dense, dtype):
    cls = f"{fmt}_{kind}"
    d = dense.astype(dtype)
    return getattr(sps, cls)(d), getattr(ks, cls)(kumo.asarray(d))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("dtype", ["int16", "bool", "float32", "uint8"])
@pytest.mark.parametrize("values", [numpy.array([7, 8, 9], dtype="int64"), numpy.array([1.5, 2.5]),
                                    numpy.array([1 + 2j, 3j]), numpy.float64(2.5), -3, numpy.array([5], "int8"),
                                    numpy.array([], "float64")])
@pytest.mark.parametrize("k", [0, 1, -2, 4])
def test_setdiag_as_scipy(fmt, kind, dtype, values, k):
    n, kk = _setdiag_both(fmt, kind, SETDIAG_DENSE, dtype)
    with warnings.catch_warnings(record=True) as wn:
        warnings.simplefilter("always")
        n.setdiag(values, k)
    with warnings.catch_warnings(record=True) as wk:
        warnings.simplefilter("always")
        kk.setdiag(kumo.asarray(values) if isinstance(values, numpy.ndarray) else values, k)
    assert {w.category for w in wk} == {w.category for w in wn}
    same(n, kk)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
@pytest.mark.parametrize("shape", [(0, 4), (3, 0), (0, 0), (1, 4), (4, 1)])
@pytest.mark.parametrize("values", [1.5, numpy.array([2, 3], "uint32")])
def test_setdiag_empty_and_thin_shapes(fmt, shape, values):
    n, kk = _setdiag_both(fmt, "array", numpy.zeros(shape), "int16")
    n.setdiag(values)
    kk.setdiag(kumo.asarray(values) if isinstance(values, numpy.ndarray) else values)
    same(n, kk)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_setdiag_bool_duplicates(fmt):
    # Duplicates on the diagonal are summed as bools first (CSR/CSC); elsewhere they add in the new dtype.
    row, col = numpy.array([0, 0, 1, 1, 2]), numpy.array([0, 0, 2, 2, 1])
    data = numpy.ones(5, bool)
    n = getattr(sps, f"{fmt}_matrix")((data, (row, col)), shape=(3, 4)) if fmt == "coo" else \
        getattr(sps, f"{fmt}_matrix")(sps.coo_matrix((data, (row, col)), shape=(3, 4)))
    kk = getattr(ks, f"{fmt}_matrix")((kumo.asarray(data), (kumo.asarray(row), kumo.asarray(col))), shape=(3, 4)) \
        if fmt == "coo" else getattr(ks, f"{fmt}_matrix")(ks.coo_matrix(
            (kumo.asarray(data), (kumo.asarray(row), kumo.asarray(col))), shape=(3, 4)))
    vals = numpy.array([2, 3, 4], "int64")
    n.setdiag(vals)
    kk.setdiag(kumo.asarray(vals))
    same(n, kk)


@pytest.mark.parametrize("k", [5, -3, 6])
def test_setdiag_k_out_of_range(k):
    n, kk = _setdiag_both("csr", "array", SETDIAG_DENSE, "float64")
    with pytest.raises(ValueError):
        n.setdiag(1.0, k)
    with pytest.raises(ValueError):
        kk.setdiag(1.0, k)
