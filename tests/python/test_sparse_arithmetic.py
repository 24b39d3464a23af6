"""kumo.sparse arithmetic against scipy.sparse: SpMV/SpMM (@ and *_matrix's *),
scalar products and division, sparse + - and multiply, negation, dense
operands on either side, and the errors SciPy raises."""
import numpy
import pytest
import scipy.sparse as sps

import kumo
import kumo.sparse as ks

DTYPES = [numpy.bool_, numpy.int8, numpy.int32, numpy.int64, numpy.uint16, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]
FORMATS = ["coo", "csr", "csc"]


def np_(a):
    return kumo.asnumpy(a)


def values(shape, dtype, seed):
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(dt)
    v = rng.integers(0 if dt.kind == "u" else -3, 4, shape)
    if dt.kind == "c":
        v = v + 1j * rng.integers(-2, 3, shape)
    return v.astype(dt)


def pair(fmt, kind, dtype, shape=(6, 5), seed=0, noncanonical=True):
    """The same matrix in kumo and SciPy; with duplicates, unsorted entries and an empty row."""
    rng = numpy.random.default_rng(seed)
    n = 14
    row = rng.integers(0, shape[0], n).astype(numpy.int32)
    col = rng.integers(0, shape[1], n).astype(numpy.int32)
    row[row == 2] = 0  # row 2 empty
    data = values(n, dtype, seed + 10)
    if noncanonical and fmt != "coo":
        # Build the compressed form directly, unsorted and with duplicates.
        order = numpy.argsort(row if fmt == "csr" else col, kind="stable")
        major = (row if fmt == "csr" else col)[order]
        minor = (col if fmt == "csr" else row)[order]
        indptr = numpy.concatenate([[0], numpy.cumsum(numpy.bincount(major, minlength=shape[0 if fmt == "csr" else 1]))])
        args = (data[order], minor, indptr.astype(numpy.int32))
    else:
        args = (data, (row, col))
    K, S = getattr(ks, f"{fmt}_{kind}"), getattr(sps, f"{fmt}_{kind}")
    return K(args, shape=shape), S(args, shape=shape)


def close(got, want):
    got = np_(got)
    want = numpy.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        numpy.testing.assert_allclose(got, want, rtol=1e-6 if want.dtype.itemsize <= 8 else 1e-12)
    else:
        numpy.testing.assert_array_equal(got, want)


def same_sparse(k, s):
    assert k.format == s.format and k.shape == s.shape and k.dtype == s.dtype
    assert isinstance(k, ks.sparray) == isinstance(s, sps.sparray)
    close(k.toarray(), s.toarray())


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_spmv_spmm(fmt, dtype):
    k, s = pair(fmt, "array", dtype)
    x = values((5,), dtype, 1)
    X = values((5, 3), dtype, 2)
    close(k @ x, s @ x)
    close(k @ X, s @ X)
    close(k @ kumo.asarray(X), s @ X)
    u = values((6,), dtype, 3)
    U = values((4, 6), dtype, 4)
    close(u @ k, u @ s)
    close(U @ k, U @ s)


@pytest.mark.parametrize("fmt", FORMATS)
def test_products_mixed_dtypes_and_matrix_star(fmt):
    k, s = pair(fmt, "matrix", numpy.float32)
    x = values((5,), numpy.float64, 1)
    X = values((5, 2), numpy.int64, 2)
    close(k @ x, s @ x)
    close(k * X, s @ X)  # *_matrix: * is the matrix product
    close(k @ X, s @ X)
    U = values((3, 6), numpy.complex64, 4)
    close(U * k, U @ s.toarray())
    # kumo arrays on the left defer to the sparse operand as NumPy's do.
    close(kumo.asarray(U) * k, U @ s.toarray())
    close(kumo.asarray(U) @ k, U @ s.toarray())
    W = values((5, 6), numpy.float32, 5)
    close(kumo.asarray(W) + k.T, W + s.T.toarray())


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_add_subtract_multiply(fmt, dtype):
    k1, s1 = pair(fmt, "array", dtype, seed=0)
    k2, s2 = pair(fmt, "array", dtype, seed=5)
    same_sparse(k1 + k2, s1 + s2)
    same_sparse(k1.multiply(k2), s1.multiply(s2))
    same_sparse(k1 * k2, s1 * s2)  # *_array: * is elementwise
    if dtype != numpy.bool_:
        same_sparse(k1 - k2, s1 - s2)
        same_sparse(-k1, -s1)
    # Cancellation leaves no explicit zeros in the result, as SciPy's csr_binop.
    if dtype not in (numpy.bool_, numpy.uint16):
        d = k1 - k1
        assert d.nnz == (s1 - s1).nnz == 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_mixed_formats_dtypes_and_scipy_operands(fmt):
    k1, s1 = pair(fmt, "array", numpy.int32)
    k2, s2 = pair("csr", "array", numpy.float32, seed=3)
    same_sparse(k1 + k2, s1 + s2)
    same_sparse(k1 - k2, s1 - s2)
    same_sparse(k1.multiply(k2), s1.multiply(s2))
    same_sparse(k1 + s2, s1 + s2)  # a SciPy operand is taken in


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int64, numpy.float32, numpy.complex64, numpy.complex128])
def test_scalar_operations(fmt, dtype):
    k, s = pair(fmt, "array", dtype)
    for c in (2, 0.5, 3j, numpy.float32(2), numpy.int64(3)):
        if numpy.dtype(dtype).kind != "c" and isinstance(c, complex):
            continue
        same_sparse(k * c, s * c)
        same_sparse(c * k, c * s)
        same_sparse(k.multiply(c), s.multiply(c))
    same_sparse(k / 2, s / 2)
    same_sparse(k / 4.0, s / 4.0)


@pytest.mark.parametrize("fmt", FORMATS)
def test_dense_operands(fmt):
    k, s = pair(fmt, "array", numpy.float64)
    D = values((6, 5), numpy.float64, 7)
    close(k + D, s + D)
    close(k - D, s - D)
    close(D - k, D - s)
    m = k.multiply(D)
    same_sparse(m, s.multiply(D))
    row = values((5,), numpy.float64, 8)
    same_sparse(k.multiply(row), s.multiply(row))
    same_sparse(k + 0, s + 0)


def raises_like(scipy_call, kumo_call):
    with pytest.raises(Exception) as info:
        scipy_call()
    with pytest.raises(info.type):
        kumo_call()


@pytest.mark.parametrize("fmt", FORMATS)
def test_errors(fmt):
    k, s = pair(fmt, "array", numpy.float64)
    kb, sb = pair(fmt, "array", numpy.bool_)
    k3, s3 = pair(fmt, "array", numpy.float64, shape=(3, 3))
    raises_like(lambda: s @ numpy.ones(4), lambda: k @ numpy.ones(4))
    raises_like(lambda: s @ numpy.ones((4, 2)), lambda: k @ numpy.ones((4, 2)))
    raises_like(lambda: numpy.ones(4) @ s, lambda: numpy.ones(4) @ k)
    raises_like(lambda: s @ 2, lambda: k @ 2)
    raises_like(lambda: s + 1, lambda: k + 1)
    raises_like(lambda: s + s3, lambda: k + k3)
    raises_like(lambda: s - s3, lambda: k - k3)
    raises_like(lambda: s.multiply(s3), lambda: k.multiply(k3))
    raises_like(lambda: -sb, lambda: -kb)
    raises_like(lambda: s @ s, lambda: k @ k)  # SpGEMM: inner dimensions differ


def test_empty_products():
    k, s = ks.csr_array((4, 0)), sps.csr_array((4, 0))
    close(k @ numpy.ones(0), s @ numpy.ones(0))
    close(k @ numpy.ones((0, 3)), s @ numpy.ones((0, 3)))
    k, s = ks.csc_array((0, 3)), sps.csc_array((0, 3))
    close(k @ numpy.ones(3), s @ numpy.ones(3))
    same_sparse(k + k, s + s)


def test_larger_spmv_parallel_paths():
    # Large enough for several row parts and private buffers of the transposed product.
    s = sps.random_array((3000, 2000), density=0.02, format="csr", dtype=numpy.float64, rng=0)
    k = ks.csr_array(s)
    x = numpy.random.default_rng(1).standard_normal(2000)
    close(k @ x, s @ x)
    X = numpy.random.default_rng(2).standard_normal((2000, 8))
    close(k @ X, s @ X)
    kc, sc = k.tocsc(), s.tocsc()
    close(kc @ x, sc @ x)
    y = numpy.random.default_rng(3).standard_normal(3000)
    close(y @ k, y @ s)
    coo = s.tocoo()
    perm = numpy.random.default_rng(4).permutation(coo.nnz)
    row = numpy.concatenate([coo.row[perm], coo.row[:500]])
    col = numpy.concatenate([coo.col[perm], coo.col[:500]])
    data = numpy.concatenate([coo.data[perm], coo.data[:500]])
    kk = ks.coo_array((data, (row, col)), shape=s.shape).tocsr()
    ss = sps.coo_array((data, (row, col)), shape=s.shape).tocsr()
    numpy.testing.assert_array_equal(np_(kk.indptr), ss.indptr)
    numpy.testing.assert_array_equal(np_(kk.indices), ss.indices)
    numpy.testing.assert_allclose(np_(kk.data), ss.data, rtol=1e-15)


@pytest.mark.parametrize("right", ["csr", "csc", "coo", "dia", "bsr"])
@pytest.mark.parametrize("left", ["csr", "csc", "coo", "dia", "bsr"])
def test_sparse_product_format_and_blocksize_follow_scipy(left, right):
    # DIA @ DIA stays DIA; BSR @ anything is BSR of (R, C), C the right
    # operand's block width (1 unless it is BSR).
    a = sps.random(6, 6, density=0.4, random_state=1, format="csr") + sps.eye(6)
    sa, sb = getattr(sps, left + "_array")(a), getattr(sps, right + "_array")(a.T)
    if left == "bsr":
        sa = sps.bsr_array(a, blocksize=(2, 3))
    if right == "bsr":
        sb = sps.bsr_array(a.T, blocksize=(3, 2))
    ka, kb = getattr(ks, left + "_array")(sa), getattr(ks, right + "_array")(sb)
    got, want = ka @ kb, sa @ sb
    assert got.format == want.format
    if want.format == "bsr":
        assert got.blocksize == want.blocksize
    numpy.testing.assert_allclose(np_(got.toarray()), want.toarray(), rtol=1e-12)
