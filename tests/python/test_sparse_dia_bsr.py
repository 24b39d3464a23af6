"""kumo.sparse's DIA and BSR formats against scipy.sparse: constructors,
attributes, conversions (with SciPy's blocksize rules), transposes,
products with dense operands, diagonals and errors."""
import numpy
import pytest
import scipy.sparse as sps

import kumo.sparse as ks
from sparse_testing import np_, values

DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int32, numpy.int64, numpy.uint64, numpy.float32,
          numpy.float64, numpy.complex64, numpy.complex128]
KINDS = ["array", "matrix"]
SOURCES = ["coo", "csr", "csc", "dia", "bsr"]


def classes(fmt, kind):
    return getattr(ks, f"{fmt}_{kind}"), getattr(sps, f"{fmt}_{kind}")


def check_dia(k, s, data=True):
    assert isinstance(k, ks.sparray) == isinstance(s, sps.sparray)
    assert k.format == s.format == "dia"
    assert k.shape == s.shape and k.dtype == s.dtype and k.nnz == s.nnz
    assert k.offsets.dtype == s.offsets.dtype
    numpy.testing.assert_array_equal(np_(k.offsets), s.offsets)
    if data:
        numpy.testing.assert_array_equal(np_(k.data), s.data)
    numpy.testing.assert_array_equal(np_(k.toarray()), s.toarray())


def check_bsr(k, s):
    assert isinstance(k, ks.sparray) == isinstance(s, sps.sparray)
    assert k.format == s.format == "bsr"
    assert k.shape == s.shape and k.dtype == s.dtype and k.nnz == s.nnz
    assert k.blocksize == s.blocksize
    assert k.indices.dtype == s.indices.dtype
    numpy.testing.assert_array_equal(np_(k.indices), s.indices)
    numpy.testing.assert_array_equal(np_(k.indptr), s.indptr)
    numpy.testing.assert_array_equal(np_(k.data), s.data)
    numpy.testing.assert_array_equal(np_(k.toarray()), s.toarray())
    assert k.has_sorted_indices == s.has_sorted_indices


def check_other(k, s):
    """A coo/csr/csc result: format, class kind, values and stored arrays."""
    assert isinstance(k, ks.sparray) == isinstance(s, sps.sparray)
    assert k.format == s.format and k.shape == s.shape and k.dtype == s.dtype and k.nnz == s.nnz
    numpy.testing.assert_array_equal(np_(k.toarray()), s.toarray())
    numpy.testing.assert_array_equal(np_(k.data), s.data)
    if s.format == "coo":
        numpy.testing.assert_array_equal(np_(k.row), s.row)
        numpy.testing.assert_array_equal(np_(k.col), s.col)
    else:
        numpy.testing.assert_array_equal(np_(k.indices), s.indices)
        numpy.testing.assert_array_equal(np_(k.indptr), s.indptr)


# ---------------------------------------------------------------- DIA construction

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_dia_from_dense(dtype, kind):
    d = values((4, 5), dtype, seed=1)
    kc, sc = classes("dia", kind)
    check_dia(kc(d), sc(d))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape", [(4, 4), (3, 6), (6, 3), (1, 1)])
def test_dia_from_data_offsets(shape, kind):
    data = numpy.arange(1.0, 1.0 + 3 * 7).reshape(3, 7)
    offsets = numpy.array([0, -2, 3])
    kc, sc = classes("dia", kind)
    check_dia(kc((data, offsets), shape=shape), sc((data, offsets), shape=shape))


def test_dia_one_diagonal_and_scalar_offset():
    check_dia(ks.dia_array((numpy.arange(1.0, 4.0), 1), shape=(3, 4)),
              sps.dia_array((numpy.arange(1.0, 4.0), 1), shape=(3, 4)))


@pytest.mark.parametrize("src", SOURCES)
@pytest.mark.parametrize("kind", KINDS)
def test_dia_from_sparse(kind, src):
    d = values((5, 4), numpy.float64, seed=2)
    s_src = getattr(sps, f"{src}_array")(d)
    kc, sc = classes("dia", kind)
    check_dia(kc(getattr(ks, f"{src}_array")(s_src)), sc(s_src))
    check_dia(kc(s_src), sc(s_src))


def test_dia_from_noncanonical_coo_sums_duplicates():
    data, row, col = numpy.array([1.0, 2.0, 0.0, 5.0]), numpy.array([2, 2, 0, 1]), numpy.array([0, 0, 0, 3])
    k = ks.coo_array((data, (row, col)), shape=(3, 4)).todia()
    s = sps.coo_array((data, (row, col)), shape=(3, 4)).todia()
    check_dia(k, s)


@pytest.mark.parametrize("kind", KINDS)
def test_dia_empty(kind):
    kc, sc = classes("dia", kind)
    check_dia(kc((3, 4)), sc((3, 4)))
    check_dia(kc((3, 4), dtype=numpy.int8), sc((3, 4), dtype=numpy.int8))
    check_dia(kc(numpy.zeros((0, 3))), sc(numpy.zeros((0, 3))))


def test_dia_get_roundtrip():
    s = sps.dia_matrix((numpy.arange(8.0).reshape(2, 4), [0, 1]), shape=(4, 4))
    back = ks.dia_matrix(s).get()
    assert isinstance(back, sps.dia_matrix)
    numpy.testing.assert_array_equal(back.toarray(), s.toarray())


@pytest.mark.parametrize("args,kwargs", [
    ((numpy.ones((2, 3)), [0, 0]), {"shape": (3, 3)}),          # duplicate offsets
    ((numpy.ones((2, 3)), [0]), {"shape": (3, 3)}),             # diagonals vs offsets
    ((numpy.ones((2, 3, 1)), [0, 1]), {"shape": (3, 3)}),       # data rank
    ((numpy.ones((1, 3)), [[0]]), {"shape": (3, 3)}),           # offsets rank
    ((numpy.ones((1, 3)), [0]), {}),                            # no shape
])
def test_dia_constructor_errors(args, kwargs):
    with pytest.raises(ValueError):
        sps.dia_array(args, **kwargs)
    with pytest.raises(ValueError):
        ks.dia_array(args, **kwargs)


# ---------------------------------------------------------------- DIA operations

@pytest.mark.parametrize("to", ["coo", "csr", "csc"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_dia_conversions(dtype, to):
    data = values((3, 6), dtype, seed=3, density=0.7)
    k = ks.dia_array((data, [0, -1, 2]), shape=(5, 4))
    s = sps.dia_array((data, [0, -1, 2]), shape=(5, 4))
    check_other(getattr(k, "to" + to)(), getattr(s, "to" + to)())
    check_other(k.asformat(to), s.asformat(to))


@pytest.mark.parametrize("shape", [(4, 4), (3, 6), (6, 3)])
@pytest.mark.parametrize("width", [3, 7])
def test_dia_transpose(width, shape):
    data = numpy.arange(1.0, 1.0 + 3 * width).reshape(3, width)
    k = ks.dia_matrix((data, [0, -2, 1]), shape=shape)
    s = sps.dia_matrix((data, [0, -2, 1]), shape=shape)
    kt = k.T
    assert isinstance(kt, ks.dia_matrix) and kt.shape == shape[::-1]
    numpy.testing.assert_array_equal(np_(kt.offsets), s.T.offsets)
    assert kt.data.shape == s.T.data.shape
    # SciPy's own transpose misplaces entries when data is wider than the
    # matrix (it wraps around); the dense transpose is the reference.
    numpy.testing.assert_array_equal(np_(kt.toarray()), s.toarray().T)
    assert kt.nnz == s.T.nnz


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 5])
@pytest.mark.parametrize("fmt", ["dia", "bsr"])
def test_dia_bsr_diagonal(fmt, k):
    d = values((4, 6), numpy.complex128, seed=4)
    kk, ss = getattr(ks, f"{fmt}_array")(d), getattr(sps, f"{fmt}_array")(d)
    out = kk.diagonal(k)
    assert out.dtype == ss.diagonal(k).dtype
    numpy.testing.assert_array_equal(np_(out), ss.diagonal(k))


@pytest.mark.parametrize("fmt", ["dia", "bsr"])
@pytest.mark.parametrize("dtypes", [(numpy.float64, numpy.float64), (numpy.float32, numpy.float32),
                                    (numpy.complex64, numpy.float64), (numpy.int32, numpy.float32),
                                    (numpy.bool_, numpy.bool_), (numpy.complex128, numpy.complex128)])
@pytest.mark.parametrize("cols", [None, 1, 3])
def test_matmul_dense(cols, dtypes, fmt):
    a = values((6, 4), dtypes[0], seed=5)
    x = values((4,) if cols is None else (4, cols), dtypes[1], seed=6, density=0.9)
    k, s = getattr(ks, f"{fmt}_array")(a), getattr(sps, f"{fmt}_array")(a)
    got, want = k @ x, s @ x
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(np_(got), want, rtol=1e-6)
    numpy.testing.assert_allclose(np_(x.T @ k.T if cols else k.T.T @ x), x.T @ s.T if cols else want, rtol=1e-6)


def test_dia_matmul_large_parallel():
    rng = numpy.random.default_rng(7)
    n = 200_000
    data = rng.standard_normal((3, n))
    k, s = ks.dia_array((data, [-1, 0, 5]), shape=(n, n)), sps.dia_array((data, [-1, 0, 5]), shape=(n, n))
    x = rng.standard_normal(n)
    numpy.testing.assert_allclose(np_(k @ x), s @ x, rtol=1e-12)


def test_dia_matmul_dimension_mismatch():
    k = ks.dia_array(numpy.eye(3))
    with pytest.raises(ValueError):
        sps.dia_array(numpy.eye(3)) @ numpy.ones(4)
    with pytest.raises(ValueError):
        k @ numpy.ones(4)


def test_dia_methods_from_base():
    d = values((4, 4), numpy.float64, seed=8)
    k, s = ks.dia_matrix(d), sps.dia_matrix(d)
    check_dia(k * 2, s * 2)
    check_dia(k.astype(numpy.complex64), s.astype(numpy.complex64))
    check_dia(k.copy(), s.copy())
    assert k.count_nonzero() == s.count_nonzero()
    numpy.testing.assert_array_equal(np_((k + k).toarray()), (s + s).toarray())


# ---------------------------------------------------------------- BSR construction

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("blocksize", [None, (1, 1), (2, 2), (2, 3), (4, 1), (4, 6)])
def test_bsr_from_dense(blocksize, kind):
    d = values((8, 6), numpy.float64, seed=9, density=0.3)
    kc, sc = classes("bsr", kind)
    check_bsr(kc(d, blocksize=blocksize), sc(d, blocksize=blocksize))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("src", ["coo", "csr", "csc", "dia"])
def test_bsr_from_sparse(src, dtype):
    d = values((6, 6), dtype, seed=10, density=0.4)
    s_src = getattr(sps, f"{src}_array")(d)
    k_src = getattr(ks, f"{src}_array")(s_src)
    check_bsr(ks.bsr_array(k_src, blocksize=(2, 3)), sps.bsr_array(s_src, blocksize=(2, 3)))
    check_bsr(k_src.tobsr(), s_src.tobsr())


@pytest.mark.parametrize("block", [2, 3, 4, 6])
def test_bsr_estimated_blocksize(block):
    rng = numpy.random.default_rng(block)
    pattern = rng.random((24 // block, 24 // block)) < 0.3
    d = numpy.kron(pattern, numpy.ones((block, block))) * rng.integers(1, 5, (24, 24))
    check_bsr(ks.csr_array(d).tobsr(), sps.csr_array(d).tobsr())


def test_bsr_blocks_in_first_occurrence_order():
    # Row 0 of the block row reaches block column 2 before row 1 reaches block column 0.
    d = numpy.zeros((2, 6))
    d[0, 5] = 1.0
    d[1, 0] = 2.0
    d[1, 4] = 3.0
    check_bsr(ks.csr_array(d).tobsr((2, 2)), sps.csr_array(d).tobsr((2, 2)))


@pytest.mark.parametrize("kind", KINDS)
def test_bsr_from_data_indices_indptr(kind):
    data = numpy.arange(1.0, 1.0 + 4 * 2 * 3).reshape(4, 2, 3)
    indices, indptr = numpy.array([2, 0, 1, 2]), numpy.array([0, 2, 2, 4])
    indices, indptr = indices.astype(numpy.int32), indptr.astype(numpy.int32)
    kc, sc = classes("bsr", kind)
    check_bsr(kc((data, indices, indptr), shape=(6, 9)), sc((data, indices, indptr), shape=(6, 9)))
    check_bsr(kc((data, indices, indptr)), sc((data, indices, indptr)))
    check_bsr(kc((data, indices, indptr), blocksize=(2, 3)), sc((data, indices, indptr), blocksize=(2, 3)))


def test_bsr_array_keeps_int64_indices():
    data = numpy.ones((2, 2, 2))
    indices, indptr = numpy.array([1, 0], dtype=numpy.int64), numpy.array([0, 1, 2], dtype=numpy.int64)
    check_bsr(ks.bsr_array((data, indices, indptr), shape=(4, 4)), sps.bsr_array((data, indices, indptr), shape=(4, 4)))


def test_bsr_from_coo_tuple_and_empty():
    data, row, col = numpy.array([1.0, 2.0, 3.0]), numpy.array([0, 3, 3]), numpy.array([1, 2, 2])
    check_bsr(ks.bsr_array((data, (row, col)), shape=(4, 4), blocksize=(2, 2)),
              sps.bsr_array((data, (row, col)), shape=(4, 4), blocksize=(2, 2)))
    check_bsr(ks.bsr_matrix((4, 6), blocksize=(2, 3)), sps.bsr_matrix((4, 6), blocksize=(2, 3)))
    check_bsr(ks.bsr_array((4, 6)), sps.bsr_array((4, 6)))


@pytest.mark.parametrize("args,kwargs", [
    ((numpy.ones((1, 2)), [0], [0, 1]), {"shape": (2, 2)}),                   # data not 3-d
    ((numpy.ones((1, 2, 2)), [0], [0, 1]), {"blocksize": (3, 3)}),            # blocksize mismatch
    ((numpy.ones((1, 2, 2)), [0], [0, 1, 1]), {"shape": (2, 2)}),             # indptr length
    ((numpy.ones((1, 2, 2)), [0], [1, 1]), {"shape": (2, 2)}),                # indptr start
    ((numpy.ones((2, 2, 2)), [0, 5], [0, 2]), {"shape": (2, 4)}),             # block column out of range
    ((numpy.ones((2, 2, 2)), [0], [0, 1]), {"shape": (2, 4)}),                # indices and data sizes
])
def test_bsr_constructor_errors(args, kwargs):
    with pytest.raises(ValueError):
        sps.bsr_array(args, **kwargs).check_format()
    with pytest.raises(ValueError):
        ks.bsr_array(args, **kwargs)


def test_bsr_invalid_blocksize_for_shape():
    d = numpy.ones((4, 6))
    with pytest.raises(ValueError, match="invalid blocksize"):
        sps.csr_array(d).tobsr((3, 3))
    with pytest.raises(ValueError, match="invalid blocksize"):
        ks.csr_array(d).tobsr((3, 3))
    with pytest.raises(ValueError):
        sps.bsr_array((4, 6), blocksize=(3, 3))
    with pytest.raises(ValueError):
        ks.bsr_array((4, 6), blocksize=(3, 3))


# ---------------------------------------------------------------- BSR operations

def noncanonical_bsr(lib):
    data = numpy.arange(1.0, 1.0 + 5 * 4).reshape(5, 2, 2)
    data[3] = 0.0  # an explicit zero block
    indices, indptr = numpy.array([2, 0, 2, 1, 0]), numpy.array([0, 3, 3, 5])
    return lib.bsr_array((data, indices, indptr), shape=(6, 6))


@pytest.mark.parametrize("to", ["coo", "csr", "csc", "dia"])
def test_bsr_conversions(to):
    k, s = noncanonical_bsr(ks), noncanonical_bsr(sps)
    got, want = getattr(k, "to" + to)(), getattr(s, "to" + to)()
    if to == "dia":
        check_dia(got, want)
    elif to == "csc":
        # SciPy's csc keeps duplicates here too; both are sorted.
        numpy.testing.assert_array_equal(np_(got.toarray()), want.toarray())
        assert got.format == "csc" and got.nnz == want.nnz
    else:
        check_other(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_bsr_transpose(dtype):
    d = values((4, 6), dtype, seed=11)
    k, s = ks.bsr_array(d, blocksize=(2, 3)), sps.bsr_array(d, blocksize=(2, 3))
    check_bsr(k.T, s.T)
    check_bsr(ks.bsr_array((4, 6), blocksize=(2, 3)).T, sps.bsr_array((4, 6), blocksize=(2, 3)).T)


def test_bsr_transpose_noncanonical():
    k, s = noncanonical_bsr(ks), noncanonical_bsr(sps)
    check_bsr(k.T, s.T)


def test_bsr_canonical_form():
    k, s = noncanonical_bsr(ks), noncanonical_bsr(sps)
    assert k.has_sorted_indices == s.has_sorted_indices
    assert k.has_canonical_format == s.has_canonical_format
    check_bsr(k.sorted_indices(), s.sorted_indices())
    k.sum_duplicates()
    s.sum_duplicates()
    check_bsr(k, s)
    assert k.has_canonical_format and s.has_canonical_format
    k2, s2 = noncanonical_bsr(ks), noncanonical_bsr(sps)
    k2.eliminate_zeros()
    s2.eliminate_zeros()
    check_bsr(k2, s2)
    assert noncanonical_bsr(ks).count_nonzero() == noncanonical_bsr(sps).count_nonzero()


def test_bsr_tobsr_other_blocksize():
    d = values((6, 6), numpy.float64, seed=12)
    k, s = ks.bsr_matrix(d, blocksize=(2, 2)), sps.bsr_matrix(d, blocksize=(2, 2))
    check_bsr(k.tobsr((3, 3)), s.tobsr((3, 3)))
    assert k.tobsr() is k and k.tobsr((2, 2)) is k


def test_bsr_matmul_large_parallel():
    rng = numpy.random.default_rng(13)
    s = sps.random_array((3000, 3000), density=0.01, rng=rng, format="bsr")
    s = sps.bsr_array(s.toarray(), blocksize=(3, 3))
    k = ks.bsr_array(s)
    x = rng.standard_normal((3000, 5))
    numpy.testing.assert_allclose(np_(k @ x), s @ x, rtol=1e-10)


def test_bsr_get_and_repr():
    k = noncanonical_bsr(ks)
    back = k.get()
    assert isinstance(back, sps.bsr_array)
    numpy.testing.assert_array_equal(back.toarray(), noncanonical_bsr(sps).toarray())
    assert "blocksize=2x2" in repr(k)


def test_isspmatrix_dia_bsr():
    assert ks.isspmatrix_dia(ks.dia_matrix(numpy.eye(2))) and not ks.isspmatrix_dia(ks.dia_array(numpy.eye(2)))
    assert ks.isspmatrix_bsr(ks.bsr_matrix(numpy.eye(2))) and not ks.isspmatrix_bsr(ks.csr_matrix(numpy.eye(2)))
    assert ks.issparse(ks.bsr_array(numpy.eye(2))) and ks.issparse(ks.dia_array(numpy.eye(2)))


@pytest.mark.parametrize("fmt", ["dia", "bsr"])
@pytest.mark.parametrize("src", SOURCES)
def test_asformat_between_all(src, fmt):
    d = values((6, 6), numpy.float32, seed=14)
    k = getattr(ks, f"{src}_matrix")(d).asformat(fmt)
    s = getattr(sps, f"{src}_matrix")(d).asformat(fmt)
    (check_dia if fmt == "dia" else check_bsr)(k, s)


# ---------------------------------------------------------------- arithmetic that keeps the format

@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@pytest.mark.parametrize("offsets_b", [[0, -2, 1], [1, 0], [3, -1, 0, 1, -2], [2]])
@pytest.mark.parametrize("width_b", [4, 6])
def test_dia_with_dia_stays_dia(width_b, offsets_b, op):
    data_a = numpy.arange(1.0, 1.0 + 3 * 6).reshape(3, 6)
    data_b = numpy.arange(2.0, 2.0 + len(offsets_b) * width_b).reshape(len(offsets_b), width_b) * -1
    ka, sa = ks.dia_array((data_a, [0, -2, 1]), shape=(5, 6)), sps.dia_array((data_a, [0, -2, 1]), shape=(5, 6))
    kb, sb = ks.dia_array((data_b, offsets_b), shape=(5, 6)), sps.dia_array((data_b, offsets_b), shape=(5, 6))
    fn = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y}[op]
    if offsets_b == [0, -2, 1] and width_b != 6 and op != "mul":
        # SciPy adds the data arrays of equal offsets directly and fails on
        # unequal widths; kumo aligns them (the dense result is the reference).
        got = fn(ka, kb)
        assert got.format == "dia"
        numpy.testing.assert_array_equal(np_(got.toarray()), fn(sa.toarray(), sb.toarray()))
        return
    check_dia(fn(ka, kb), fn(sa, sb), data=op != "mul")


@pytest.mark.parametrize("dense_shape", [(5, 6), (1, 6), (5, 1), (6,)])
def test_dia_multiply_dense_stays_dia(dense_shape):
    d = values((5, 6), numpy.float64, seed=15)
    other = values(dense_shape, numpy.complex64, seed=16, density=0.9)
    k, s = ks.dia_matrix(d), sps.dia_matrix(d)
    got, want = k.multiply(other), s.multiply(other)
    assert got.format == want.format == "dia" and got.dtype == want.dtype
    numpy.testing.assert_array_equal(np_(got.offsets), want.offsets)
    numpy.testing.assert_array_equal(np_(got.toarray()), want.toarray())


def test_dia_arithmetic_errors():
    a, b = ks.dia_array(numpy.eye(3)), ks.dia_array(numpy.eye(4))
    with pytest.raises(ValueError):
        sps.dia_array(numpy.eye(3)) + sps.dia_array(numpy.eye(4))
    with pytest.raises(ValueError):
        a + b
    with pytest.raises(ValueError):
        sps.dia_array(numpy.eye(3)).multiply(numpy.ones((2, 3)))
    with pytest.raises(ValueError):
        a.multiply(numpy.ones((2, 3)))


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@pytest.mark.parametrize("other_fmt", ["bsr", "csr", "coo"])
def test_bsr_with_sparse_stays_bsr(other_fmt, op):
    a = values((6, 6), numpy.float64, seed=17)
    b = values((6, 6), numpy.float32, seed=18)
    ka, sa = ks.bsr_array(a, blocksize=(2, 3)), sps.bsr_array(a, blocksize=(2, 3))
    kb, sb = getattr(ks, f"{other_fmt}_array")(b), getattr(sps, f"{other_fmt}_array")(b)
    fn = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x.multiply(y)}[op]
    check_bsr(fn(ka, kb), fn(sa, sb))


@pytest.mark.parametrize("fmt", ["dia", "bsr"])
def test_getnnz_in_all_and_per_axis(fmt):
    d = values((4, 4), numpy.float64, seed=19)
    k, s = getattr(ks, f"{fmt}_matrix")(d, **({"blocksize": (2, 2)} if fmt == "bsr" else {})), \
        getattr(sps, f"{fmt}_matrix")(d, **({"blocksize": (2, 2)} if fmt == "bsr" else {}))
    assert k.getnnz() == s.getnnz()
    # SciPy has only the total for DIA and BSR; kumo also counts the stored
    # places per axis, which add up to it.
    with pytest.raises(NotImplementedError):
        s.getnnz(axis=0)
    for axis in (0, 1, -1):
        per = numpy.asarray(k.getnnz(axis=axis).get())
        assert per.sum() == s.getnnz()
    dia = ks.dia_array(d)
    assert not hasattr(dia, "sum_duplicates") and not hasattr(sps.dia_array(d), "sum_duplicates")
    assert not hasattr(dia, "eliminate_zeros")


def test_bsr_from_noncanonical_csr_sums_duplicates():
    data, indices, indptr = numpy.array([1.0, 2.0, 3.0, 4.0]), numpy.array([3, 1, 3, 0]), numpy.array([0, 3, 4])
    k = ks.csr_array((data, indices, indptr), shape=(2, 4)).tobsr((2, 2))
    s = sps.csr_array((data, indices, indptr), shape=(2, 4)).tobsr((2, 2))
    check_bsr(k, s)


def test_dia_unsorted_offsets_from_scipy():
    s = sps.dia_array((numpy.arange(12.0).reshape(3, 4), [2, -1, 0]), shape=(4, 4))
    k = ks.dia_array(s)
    check_dia(k, s)
    check_other(k.tocsr(), s.tocsr())
    numpy.testing.assert_array_equal(np_(k @ numpy.arange(4.0)), s @ numpy.arange(4.0))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128, numpy.int16])
def test_bsr_dia_scalar_products_keep_format(dtype):
    d = values((4, 6), dtype, seed=20)
    for fmt in ("dia", "bsr"):
        k, s = getattr(ks, f"{fmt}_array")(d), getattr(sps, f"{fmt}_array")(d)
        for got, want in ((k * 3, s * 3), (-k, -s), (k / 2, s / 2)):
            assert got.format == want.format and got.dtype == want.dtype
            numpy.testing.assert_allclose(np_(got.toarray()), want.toarray())


def test_dia_offset_beyond_index_dtype_is_value_error():
    with pytest.raises(ValueError, match="does not fit"):
        ks.dia_array((numpy.ones((1, 3)), numpy.array([2**40])), shape=(3, 3))


def test_dia_stored_places_per_axis():
    # Offsets -1, 0, 2 of a 4 x 5 matrix with data 4 wide: place (j - k, j) for j < 4.
    data = numpy.arange(1.0, 13).reshape(3, 4)
    data[1, 1] = 0  # an explicit zero is stored all the same
    k = ks.dia_matrix((data, numpy.array([-1, 0, 2])), shape=(4, 5))
    dense_places = numpy.zeros((4, 5), dtype=int)
    for offset in (-1, 0, 2):
        for j in range(4):
            if 0 <= j - offset < 4:
                dense_places[j - offset, j] = 1
    numpy.testing.assert_array_equal(k.getnnz(axis=0).get(), dense_places.sum(axis=0))
    numpy.testing.assert_array_equal(k.getnnz(axis=1).get(), dense_places.sum(axis=1))
    assert k.getnnz() == dense_places.sum()
    with pytest.raises(ValueError):
        k.getnnz(axis=2)


def test_bsr_stored_entries_per_axis():
    a = values((6, 6), numpy.float64, seed=23)
    k, s = ks.bsr_matrix(a, blocksize=(2, 3)), sps.bsr_matrix(a, blocksize=(2, 3))
    # SciPy's CSR of a BSR keeps every block entry, zeros included.
    for axis in (0, 1):
        numpy.testing.assert_array_equal(k.getnnz(axis=axis).get(), s.tocsr().getnnz(axis=axis))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("fmt", ["dia", "bsr"])
def test_count_nonzero_per_axis(fmt, axis):
    a = values((6, 6), numpy.float64, seed=29)
    kw = {"blocksize": (2, 3)} if fmt == "bsr" else {}
    k, s = getattr(ks, f"{fmt}_array")(a, **kw), getattr(sps, f"{fmt}_array")(a, **kw)
    with pytest.raises(NotImplementedError):
        s.count_nonzero(axis=axis)  # SciPy counts these formats in all only
    numpy.testing.assert_array_equal(numpy.asarray(k.count_nonzero(axis=axis).get()),
                                     s.tocsr().count_nonzero(axis=axis))
