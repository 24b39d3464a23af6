"""kumo.sparse against scipy.sparse: constructors, attributes, canonical form,
conversions and their errors, over the formats, both flavours and the dtypes."""
import numpy
import pytest
import scipy.sparse as sps

import kumo
import kumo.sparse as ks

# Every dtype scipy.sparse and kumo share.
DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32, numpy.int64,
          numpy.uint64, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]
FORMATS = ["coo", "csr", "csc"]
KINDS = ["array", "matrix"]


def classes(fmt, kind):
    return getattr(ks, f"{fmt}_{kind}"), getattr(sps, f"{fmt}_{kind}")


def np_(a):
    return kumo.asnumpy(a)


def values(n, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(dt)
    v = rng.integers(0 if dt.kind == "u" else -3, 4, n)
    if dt.kind == "c":
        v = v + 1j * rng.integers(-2, 3, n)
    return v.astype(dt)


def noncanonical(dtype):
    """(data, row, col) with duplicates, unsorted entries, an explicit zero and an empty row."""
    row = numpy.array([3, 0, 3, 1, 0, 3, 1], dtype=numpy.int32)
    col = numpy.array([2, 4, 0, 1, 4, 2, 3], dtype=numpy.int32)
    data = values(7, dtype, seed=1)
    data[3] = 0
    return data, row, col


def dense(dtype, shape=(4, 5), seed=2):
    a = values(shape[0] * shape[1], dtype, seed).reshape(shape)
    a[1] = 0  # an empty row
    return a


def check_same(k, s, exact=True):
    """kumo object k matches SciPy object s: class kind, format, shape, dtype, values
    (and the stored arrays, when exact)."""
    assert k.format == s.format
    assert k.shape == s.shape
    assert k.dtype == s.dtype
    assert k.ndim == 2
    assert ks.issparse(k)
    assert isinstance(k, ks.sparray) == isinstance(s, sps.sparray)
    numpy.testing.assert_array_equal(np_(k.toarray()), s.toarray())
    if not exact:
        return
    assert k.nnz == s.nnz
    numpy.testing.assert_array_equal(np_(k.data), s.data)
    if s.format == "coo":
        numpy.testing.assert_array_equal(np_(k.row), s.row)
        numpy.testing.assert_array_equal(np_(k.col), s.col)
        assert k.row.dtype == s.row.dtype
        assert k.has_canonical_format == s.has_canonical_format
    else:
        numpy.testing.assert_array_equal(np_(k.indices), s.indices)
        numpy.testing.assert_array_equal(np_(k.indptr), s.indptr)
        assert k.indices.dtype == s.indices.dtype
        assert k.has_sorted_indices == s.has_sorted_indices
        assert k.has_canonical_format == s.has_canonical_format


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_from_dense(fmt, kind, dtype):
    K, S = classes(fmt, kind)
    d = dense(dtype)
    check_same(K(d), S(d))
    check_same(K(kumo.asarray(d)), S(d))
    k = K(d)
    numpy.testing.assert_array_equal(np_(k.todense()), d)
    assert k.get().format == fmt and type(k.get()) is S
    assert k.count_nonzero() == S(d).count_nonzero()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_from_triplets_noncanonical(fmt, kind, dtype):
    K, S = classes(fmt, kind)
    data, row, col = noncanonical(dtype)
    k, s = K((data, (row, col)), shape=(5, 6)), S((data, (row, col)), shape=(5, 6))
    check_same(k, s)
    check_same(K((data, (row, col))), S((data, (row, col))))  # shape inferred
    # Every conversion of the non-canonical matrix.
    for target in FORMATS:
        check_same(k.asformat(target), s.asformat(target))
    k.sum_duplicates()
    s.sum_duplicates()
    check_same(k, s)
    k.eliminate_zeros()
    s.eliminate_zeros()
    check_same(k, s)
    assert k.count_nonzero() == s.count_nonzero()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int16, numpy.float32, numpy.complex128])
def test_compressed_unsorted(fmt, kind, dtype):
    K, S = classes(fmt, kind)
    indptr = numpy.array([0, 3, 3, 6], dtype=numpy.int32)
    indices = numpy.array([4, 1, 4, 2, 0, 1], dtype=numpy.int32)
    data = values(6, dtype, seed=3)
    shape = (3, 5) if fmt == "csr" else (5, 3)
    k, s = K((data, indices, indptr), shape=shape), S((data, indices, indptr), shape=shape)
    check_same(k, s)
    for target in FORMATS:
        check_same(k.asformat(target), s.asformat(target))
    k2, s2 = k.copy(), s.copy()
    k2.sort_indices()
    s2.sort_indices()
    check_same(k2, s2)
    check_same(k, s)  # copy() left the original alone
    k.sum_duplicates()
    s.sum_duplicates()
    check_same(k, s)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_constructor_forms(fmt, kind):
    K, S = classes(fmt, kind)
    check_same(K((3, 4)), S((3, 4)))
    check_same(K((3, 4), dtype=numpy.int8), S((3, 4), dtype=numpy.int8))
    check_same(K((0, 0)), S((0, 0)))
    d = dense(numpy.float64)
    check_same(K(d, dtype=numpy.complex64), S(d, dtype=numpy.complex64))
    # From kumo and SciPy sparse objects of every format.
    for src in FORMATS:
        s_src = getattr(sps, f"{src}_{kind}")(d)
        check_same(K(s_src), S(s_src))
        check_same(K(getattr(ks, f"{src}_{kind}")(d)), S(s_src))
    # copy=: shares the data by default, not with copy=True.
    data = kumo.asarray(numpy.array([1.0, 2.0]))
    if fmt == "coo":
        args = (data, (kumo.asarray(numpy.array([0, 1], numpy.int32)), kumo.asarray(numpy.array([1, 0], numpy.int32))))
    else:
        args = (data, kumo.asarray(numpy.array([0, 1], numpy.int32)), kumo.asarray(numpy.array([0, 1, 2], numpy.int32)))
    shared, copied = K(args, shape=(2, 2)), K(args, shape=(2, 2), copy=True)
    data[0] = 7.0
    assert float(shared.data[0]) == 7.0 and float(copied.data[0]) == 1.0


@pytest.mark.parametrize("fmt", FORMATS)
def test_matrix_from_1d_and_array_1d(fmt):
    K, S = classes(fmt, "matrix")
    check_same(K(numpy.arange(3.0)), S(numpy.arange(3.0)))
    # SciPy 1.14+ makes a 1-d array of coo and csr (test_sparse_1d.py) and refuses the other formats.
    if fmt not in ("coo", "csr"):
        with pytest.raises(ValueError):
            getattr(ks, f"{fmt}_array")(numpy.arange(3.0))


@pytest.mark.parametrize("fmt", FORMATS)
def test_methods(fmt):
    K, S = classes(fmt, "array")
    d = dense(numpy.complex128)
    k, s = K(d), S(d)
    check_same(k.T, s.T)
    check_same(k.transpose(), s.transpose())
    check_same(k.conj(), s.conj())
    check_same(k.conjugate(), s.conjugate())
    check_same(k.astype(numpy.complex64), s.astype(numpy.complex64))
    check_same(k.astype(numpy.float32, casting="unsafe"), s.astype(numpy.float32, casting="unsafe"))
    with pytest.raises(TypeError):
        k.astype(numpy.float32, casting="safe")
    for off in (-5, -2, 0, 1, 4, 9):
        numpy.testing.assert_array_equal(np_(k.diagonal(off)), s.diagonal(off))
    numpy.testing.assert_array_equal(np_(k.toarray(order="F")), s.toarray(order="F"))
    out = kumo.zeros(d.shape, dtype=d.dtype)
    assert k.toarray(out=out) is out
    numpy.testing.assert_array_equal(np_(out), d)
    for target in FORMATS:
        check_same(k.asformat(target, copy=True), s.asformat(target, copy=True))
    assert k.asformat(fmt) is k
    with pytest.raises(ValueError):
        k.asformat("xyz")
    with pytest.raises(ValueError):
        k.asformat("lil")


@pytest.mark.parametrize("fmt", FORMATS)
def test_getnnz_and_predicates(fmt):
    d = dense(numpy.float64)
    K, S = classes(fmt, "matrix")
    data, row, col = noncanonical(numpy.float64)
    k, s = K((data, (row, col)), shape=(4, 5)), S((data, (row, col)), shape=(4, 5))
    assert k.getnnz() == s.getnnz()
    for axis in (0, 1, -1):
        numpy.testing.assert_array_equal(np_(k.getnnz(axis=axis)), s.getnnz(axis=axis))
    assert getattr(ks, f"isspmatrix_{fmt}")(K(d))
    assert not getattr(ks, f"isspmatrix_{fmt}")(getattr(ks, f"{fmt}_array")(d))
    assert ks.isspmatrix(K(d)) and not ks.isspmatrix(getattr(ks, f"{fmt}_array")(d))
    assert not ks.issparse(d) and not ks.issparse(kumo.asarray(d))
    assert not hasattr(getattr(ks, f"{fmt}_array")(d), "getnnz")


def test_index_dtype_follows_scipy():
    # int64 index input stays int64, as in SciPy 1.17, through conversions too.
    s = sps.csr_array((numpy.ones(2), numpy.array([0, 1], numpy.int64), numpy.array([0, 1, 2], numpy.int64)))
    k = ks.csr_array((numpy.ones(2), numpy.array([0, 1], numpy.int64), numpy.array([0, 1, 2], numpy.int64)))
    check_same(k, s)
    for target in FORMATS:
        check_same(k.asformat(target), s.asformat(target))
    lists = ([1.0, 2.0], ([0, 1], [1, 0]))
    check_same(ks.coo_array(lists), sps.coo_array(lists))
    check_same(ks.csr_array(lists), sps.csr_array(lists))
    big = ks.coo_array((numpy.ones(1), (numpy.array([0]), numpy.array([5]))), shape=(1, 2**32))
    assert big.row.dtype == numpy.int64
    assert big.tocsr().indices.dtype == numpy.int64


def test_empty_matrices():
    for fmt in FORMATS:
        K, S = classes(fmt, "array")
        for shape in [(0, 0), (0, 3), (3, 0), (4, 4)]:
            k, s = K(shape), S(shape)
            check_same(k, s)
            for target in FORMATS:
                check_same(k.asformat(target), s.asformat(target))
            numpy.testing.assert_array_equal(np_(k.diagonal()), s.diagonal())
            assert k.count_nonzero() == 0


def raises_like(scipy_call, kumo_call):
    """kumo_call raises the exception type scipy_call raises."""
    with pytest.raises(Exception) as info:
        scipy_call()
    with pytest.raises(info.type):
        kumo_call()


@pytest.mark.parametrize("fmt", FORMATS)
def test_constructor_errors(fmt):
    K, S = classes(fmt, "array")
    one = numpy.ones(2)
    i = numpy.array([0, 1], numpy.int32)
    # Bad shapes, scalars, float16, an unrecognized tuple, a shape that does not match.
    raises_like(lambda: S((-1, 2)), lambda: K((-1, 2)))
    raises_like(lambda: S(3.0), lambda: K(3.0))
    raises_like(lambda: S(numpy.eye(2, dtype=numpy.float16)), lambda: K(numpy.eye(2, dtype=numpy.float16)))
    raises_like(lambda: S((one,)), lambda: K((one,)))
    raises_like(lambda: S(numpy.eye(2), shape=(3, 3)), lambda: K(numpy.eye(2), shape=(3, 3)))
    # COO triplets: lengths, range, negative, float indices.
    raises_like(lambda: S((numpy.ones(3), (i, i)), shape=(2, 2)), lambda: K((numpy.ones(3), (i, i)), shape=(2, 2)))
    raises_like(lambda: S((one, (i, i + 4)), shape=(2, 2)), lambda: K((one, (i, i + 4)), shape=(2, 2)))
    raises_like(lambda: S((one, (i - 1, i)), shape=(2, 2)), lambda: K((one, (i - 1, i)), shape=(2, 2)))
    raises_like(lambda: S((one, (i * 1.0, i))), lambda: K((one, (i * 1.0, i))))
    if fmt == "coo":
        raises_like(lambda: S((one, i, numpy.array([0, 1, 2]))), lambda: K((one, i, numpy.array([0, 1, 2]))))
        return
    # Compressed: indptr length, start, lengths.
    p = numpy.array([0, 1, 2], numpy.int32)
    raises_like(lambda: S((one, i, p), shape=(3, 3)), lambda: K((one, i, p), shape=(3, 3)))
    raises_like(lambda: S((one, i, p + 1), shape=(2, 2)), lambda: K((one, i, p + 1), shape=(2, 2)))
    raises_like(lambda: S((numpy.ones(3), i, p), shape=(2, 2)), lambda: K((numpy.ones(3), i, p), shape=(2, 2)))
    # kumo checks index bounds and a decreasing indptr when it builds the
    # matrix (SciPy only in check_format(full_check=True)).
    for bad_indices, bad_indptr in [(i + 5, p), (i - 2, p), (i, numpy.array([0, 2, 1, 2], numpy.int32))]:
        shape = (len(bad_indptr) - 1, 2) if fmt == "csr" else (2, len(bad_indptr) - 1)
        with pytest.raises(ValueError):
            K((numpy.ones(2), bad_indices, bad_indptr), shape=shape)
        with pytest.raises(ValueError):
            S((numpy.ones(2), bad_indices, bad_indptr), shape=shape).check_format(full_check=True)
