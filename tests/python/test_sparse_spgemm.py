"""kumo.sparse sparse @ sparse (SpGEMM) against scipy.sparse: every pair of
formats and flavours, dtypes and their promotion, non-canonical operands,
empty matrices and rows, cancellation, and the errors SciPy raises."""
import numpy
import pytest
import scipy.sparse as sps

import kumo.sparse as ks
from test_sparse_arithmetic import DTYPES, FORMATS, close, pair, same_sparse


def canonical_sparse(k, s):
    same_sparse(k, s)
    if k.format != "coo":
        assert k.has_canonical_format


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_formats(fa, fb):
    ka, sa = pair(fa, "array", numpy.float64, shape=(6, 5), seed=1)
    kb, sb = pair(fb, "array", numpy.float64, shape=(5, 7), seed=2)
    canonical_sparse(ka @ kb, sa @ sb)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_dtypes_noncanonical(fmt, dtype):
    ka, sa = pair(fmt, "array", dtype, shape=(6, 5), seed=3)
    kb, sb = pair(fmt, "array", dtype, shape=(5, 6), seed=4)
    canonical_sparse(ka @ kb, sa @ sb)


@pytest.mark.parametrize("da,db", [(numpy.float32, numpy.float64), (numpy.int8, numpy.bool_),
                                   (numpy.int32, numpy.complex64), (numpy.float32, numpy.int64),
                                   (numpy.uint16, numpy.int8)])
def test_promotion(da, db):
    ka, sa = pair("csr", "array", da, shape=(6, 5), seed=5)
    kb, sb = pair("csc", "array", db, shape=(5, 4), seed=6)
    canonical_sparse(ka @ kb, sa @ sb)


@pytest.mark.parametrize("fmt", FORMATS)
def test_matrix_star_and_dot(fmt):
    ka, sa = pair(fmt, "matrix", numpy.float64, shape=(6, 5), seed=7)
    kb, sb = pair("csr", "matrix", numpy.float64, shape=(5, 6), seed=8)
    canonical_sparse(ka * kb, sa * sb)  # *_matrix: * is the product
    canonical_sparse(ka.dot(kb), sa.dot(sb))
    ka2, sa2 = pair(fmt, "array", numpy.float64, shape=(6, 5), seed=7)
    canonical_sparse(ka2.dot(kb), sa2.dot(sb))


def test_scipy_operand():
    ka, sa = pair("csr", "array", numpy.float64, shape=(6, 5), seed=9)
    _, sb = pair("coo", "array", numpy.float64, shape=(5, 3), seed=10)
    canonical_sparse(ka @ sb, sa @ sb)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape_a,shape_b", [((0, 4), (4, 3)), ((3, 0), (0, 5)), ((3, 4), (4, 0)), ((0, 0), (0, 0))])
def test_empty(fmt, shape_a, shape_b):
    ka = getattr(ks, f"{fmt}_array")(shape_a)
    kb = getattr(ks, f"{fmt}_array")(shape_b)
    sa = getattr(sps, f"{fmt}_array")(shape_a)
    sb = getattr(sps, f"{fmt}_array")(shape_b)
    r = ka @ kb
    same_sparse(r, sa @ sb)
    assert r.nnz == 0


def test_empty_rows_and_explicit_zeros():
    data = numpy.array([1.0, 0.0, 2.0, 3.0])
    indices = numpy.array([0, 2, 2, 1])
    indptr = numpy.array([0, 2, 2, 4, 4])  # rows 1 and 3 empty, an explicit zero in row 0
    ka, sa = ks.csr_array((data, indices, indptr), shape=(4, 3)), sps.csr_array((data, indices, indptr), shape=(4, 3))
    canonical_sparse(ka @ ka.T, sa @ sa.T)
    canonical_sparse(ka.T @ ka, sa.T @ sa)


def test_cancellation_drops_zeros():
    a = numpy.array([[1.0, 1.0], [2.0, 0.0]])
    b = numpy.array([[1.0, 0.0], [-1.0, 3.0]])
    r = ks.csr_array(a) @ ks.csr_array(b)
    s = sps.csr_array(a) @ sps.csr_array(b)
    assert r.nnz == s.nnz == 2
    close(r.toarray(), s.toarray())


def test_random_larger():
    sa = sps.random_array((300, 200), density=0.05, format="csr", rng=1)
    sb = sps.random_array((200, 250), density=0.05, format="csr", rng=2)
    r = ks.csr_array(sa) @ ks.csr_array(sb)
    canonical_sparse(r, sa @ sb)
    # A row of A that reaches many rows of B (more work in one part).
    sa2 = sa.tolil()
    sa2[5, :] = 1.0
    sa2 = sa2.tocsr()
    canonical_sparse(ks.csr_array(sa2) @ ks.csr_array(sb), sa2 @ sb)


def test_int64_indices_stay():
    sa = sps.random_array((20, 30), density=0.2, format="csr", rng=3)
    sa.indices = sa.indices.astype(numpy.int64)
    sa.indptr = sa.indptr.astype(numpy.int64)
    r = ks.csr_array(sa) @ ks.csr_array(sa.T.tocsr())
    assert r.indices.dtype == numpy.int64
    close(r.toarray(), (sa @ sa.T).toarray())


@pytest.mark.parametrize("fmt", FORMATS)
def test_dimension_mismatch(fmt):
    ka, sa = pair(fmt, "array", numpy.float64, shape=(6, 5), seed=1)
    with pytest.raises(ValueError):
        sa @ sa
    with pytest.raises(ValueError, match="dimension mismatch"):
        ka @ ka


def test_many_multiply_adds_few_results():
    # 7 * 10^7 multiply-adds for 10^4 results: past the size up to which rows
    # are written in place, so rows are collected per part instead.
    rng = numpy.random.default_rng(0)
    a = rng.standard_normal((100, 7000))
    b = rng.standard_normal((7000, 100))
    r = ks.csr_array(a) @ ks.csr_array(b)
    canonical_sparse(r, sps.csr_array(a) @ sps.csr_array(b))
