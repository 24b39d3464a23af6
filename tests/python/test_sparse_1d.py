"""1-d kumo.sparse arrays (coo_array and csr_array of shape (n,)) against
scipy.sparse 1.17: construction, attributes, conversions, reductions,
arithmetic, products, comparisons, reshaping, indexing, and the 1-d results
of 2-d *_array operations (an integer row, max/min along an axis). Every
check compares result types, shapes, dtypes and values with SciPy's."""
import warnings

import numpy
import pytest
import scipy.sparse as sps

import kumo
import kumo.sparse as ks
from test_sparse_arithmetic import DTYPES, close, raises_like, values

FORMATS_1D = ["coo", "csr"]
NUMERIC = [d for d in DTYPES if d != numpy.bool_]
REAL = [numpy.int8, numpy.int32, numpy.int64, numpy.uint16, numpy.float32, numpy.float64]


def vec_pair(fmt, dtype, n=7, seed=0, nnz=9, scipy_canonical=False):
    """The same 1-d array in kumo and SciPy, built from unsorted coordinates with duplicates (CSR: from
    unsorted indices with duplicates, not canonicalised). SciPy's is canonicalised when asked, for tests of
    several operations on one object: SciPy 1.17 sums a 1-d operand's duplicates in place inside some
    operations, and later results of the same object are then wrong (x + y, then x * y, doubles y's summed
    entries)."""
    rng = numpy.random.default_rng(seed)
    idx = rng.integers(0, n, nnz).astype(numpy.int32) if n else numpy.zeros(0, numpy.int32)
    data = values(idx.size, dtype, seed + 1)
    if fmt == "csr":
        args = (data, idx, numpy.array([0, idx.size], dtype=numpy.int32))
    else:
        args = (data, (idx,))
    # Separate copies: SciPy sorts and sums a matrix's arrays in place.
    scipy_args = (data.copy(), (idx.copy(),)) if fmt == "coo" else tuple(a.copy() for a in args)
    s = getattr(sps, f"{fmt}_array")(scipy_args, shape=(n,))
    if scipy_canonical:
        s.sum_duplicates()
    return getattr(ks, f"{fmt}_array")(args, shape=(n,)), s


def same(k, s):
    """kumo's result is SciPy's: the same sparse class, or dense array, or NumPy scalar; shape, dtype, values."""
    if sps.issparse(s):
        assert type(k).__name__ == type(s).__name__, (type(k), type(s))
        assert k.shape == s.shape and k.ndim == s.ndim
        assert k.dtype == s.dtype, (k.dtype, s.dtype)
        close(k.toarray(), s.toarray())
    elif isinstance(s, numpy.generic):
        assert isinstance(k, numpy.generic), type(k)
        assert k.dtype == s.dtype, (k.dtype, s.dtype)
        close(numpy.asarray(k), numpy.asarray(s))
    elif isinstance(s, (int, bool)):
        assert type(k) is type(s) and k == s
    else:
        assert isinstance(k, kumo.ndarray), type(k)
        close(k, s)


def quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


# ---- construction ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS_1D)
@pytest.mark.parametrize("n", [0, 1, 6])
def test_from_dense(fmt, dtype, n):
    d = values(n, dtype, 3)
    same(getattr(ks, f"{fmt}_array")(d), getattr(sps, f"{fmt}_array")(d))
    same(getattr(ks, f"{fmt}_array")(kumo.asarray(d)), getattr(sps, f"{fmt}_array")(d))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_from_coordinates_with_duplicates(fmt, dtype):
    k, s = vec_pair(fmt, dtype)
    same(k, s)
    assert k.nnz == s.nnz


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_from_coordinates_shape_inferred_and_as_array(fmt):
    data, idx = numpy.array([1.0, 2.0, 5.0]), numpy.array([4, 0, 4])
    K, S = getattr(ks, f"{fmt}_array"), getattr(sps, f"{fmt}_array")
    same(K((data, (idx,))), S((data, (idx,))))
    same(K((data, idx[None, :]), shape=(6,)), S((data, idx[None, :]), shape=(6,)))
    same(K((data, [idx])), S((data, [idx])))


@pytest.mark.parametrize("idx_dtype", [numpy.int8, numpy.int32, numpy.int64])
def test_index_dtype(idx_dtype):
    idx = numpy.array([2, 0], dtype=idx_dtype)
    k, s = ks.coo_array((numpy.ones(2), (idx,)), shape=(3,)), sps.coo_array((numpy.ones(2), (idx,)), shape=(3,))
    assert k.coords[0].dtype == s.coords[0].dtype
    assert k.tocsr().indices.dtype == s.tocsr().indices.dtype


@pytest.mark.parametrize("fmt", FORMATS_1D)
@pytest.mark.parametrize("n", [0, 5])
def test_empty_from_shape(fmt, n):
    same(getattr(ks, f"{fmt}_array")((n,)), getattr(sps, f"{fmt}_array")((n,)))
    same(getattr(ks, f"{fmt}_array")((n,), dtype=numpy.int16), getattr(sps, f"{fmt}_array")((n,), dtype=numpy.int16))


@pytest.mark.parametrize("src", FORMATS_1D)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_from_sparse_and_scipy(fmt, src):
    k, s = vec_pair(src, numpy.float64, scipy_canonical=True)
    K, S = getattr(ks, f"{fmt}_array"), getattr(sps, f"{fmt}_array")
    same(K(k), S(s))
    same(K(s), S(s))
    same(K(k, dtype=numpy.complex64), S(s, dtype=numpy.complex64))
    back = k.get()
    assert type(back) is type(s) and back.shape == s.shape
    numpy.testing.assert_array_equal(back.toarray(), s.toarray())


def test_copy_argument_shares_or_copies():
    data = kumo.asarray(numpy.array([1.0, 2.0]))
    idx = kumo.asarray(numpy.array([3, 1]))
    shared = ks.coo_array((data, (idx,)), shape=(4,))
    copied = ks.coo_array((data, (idx,)), shape=(4,), copy=True)
    data[0] = 9.0
    assert kumo.asnumpy(shared.toarray())[3] == 9.0
    assert kumo.asnumpy(copied.toarray())[3] == 1.0


@pytest.mark.parametrize("call", [
    lambda m: m.csc_array(numpy.arange(3.0)),
    lambda m: m.dia_array(numpy.arange(3.0)),
    lambda m: m.bsr_array(numpy.arange(3.0)),
    lambda m: m.csc_array((3,)),
    lambda m: m.coo_matrix((numpy.ones(1), (numpy.array([0]),)), shape=(3,)),
    lambda m: m.coo_array((numpy.ones(2), (numpy.array([5, 0]),)), shape=(3,)),
    lambda m: m.coo_array((numpy.ones(2), (numpy.array([-1, 0]),)), shape=(3,)),
    lambda m: m.coo_array((numpy.ones(2), (numpy.array([1]),)), shape=(3,)),
    lambda m: m.coo_array((numpy.ones(1), (numpy.array([0]), numpy.array([0]))), shape=(3,)),
    lambda m: m.coo_array((numpy.array([]), (numpy.array([], dtype=int),))),
    lambda m: m.coo_array(numpy.ones((1, 3)), shape=(3,)),
    lambda m: m.coo_array(numpy.ones(3), shape=(4,)),
    lambda m: m.coo_array(numpy.ones(3), shape=(1, 3)),
    lambda m: m.coo_array(numpy.ones(2, dtype=numpy.float16)),
    lambda m: m.csr_array((numpy.ones(2), numpy.array([2, 0]), numpy.array([0, 1, 2])), shape=(3,)),
    lambda m: m.coo_array(3.0),
], ids=range(16))
def test_construction_errors(call):
    raises_like(lambda: call(sps), lambda: call(ks))


def test_1d_sparse_input_to_matrix_class_is_refused():
    with pytest.raises(ValueError):
        ks.coo_matrix(ks.coo_array(numpy.arange(3.0)))
    with pytest.raises(ValueError):
        ks.csc_array(ks.csr_array(numpy.arange(3.0)))


def test_matrix_from_1d_dense_is_a_row():
    same(ks.csr_matrix(numpy.arange(3.0)), sps.csr_matrix(numpy.arange(3.0)))
    same(ks.coo_matrix(numpy.arange(3.0)), sps.coo_matrix(numpy.arange(3.0)))


# ---- attributes and conversions ----

@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_attributes(fmt):
    k, s = vec_pair(fmt, numpy.float32)
    assert (k.shape, k.ndim, k.nnz, k.size, k.dtype, k.format) == (s.shape, s.ndim, s.nnz, s.size, s.dtype, s.format)
    close(k.data, s.data)
    assert repr(k) == repr(s)
    with pytest.raises(TypeError):
        len(k)
    with pytest.raises(ValueError):
        bool(ks.coo_array(numpy.array([3.0])))


def test_coo_coords_and_canonical_flag():
    k, s = vec_pair("coo", numpy.float64)
    assert len(k.coords) == 1
    close(k.coords[0], s.coords[0])
    close(k.col, s.col)
    close(k.row, s.row)
    assert k.has_canonical_format == s.has_canonical_format
    d = ks.coo_array(numpy.array([0.0, 1.0, 0.0, 2.0]))
    assert d.has_canonical_format and sps.coo_array(numpy.array([0.0, 1.0, 0.0, 2.0])).has_canonical_format


def test_csr_structure():
    k, s = vec_pair("csr", numpy.float64)
    close(k.indices, s.indices)
    close(k.indptr, s.indptr)
    assert k.has_sorted_indices == s.has_sorted_indices
    assert k.has_canonical_format == s.has_canonical_format
    k.sort_indices()
    s.sort_indices()
    close(k.indices, s.indices)
    same(k.sorted_indices(), s.sorted_indices())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_toarray_todense(fmt, dtype):
    k, s = vec_pair(fmt, dtype)
    same(k.toarray(), s.toarray())
    same(k.todense(), s.todense())
    out = kumo.zeros(7, dtype=dtype)
    k.toarray(out=out)
    close(out, s.toarray())


@pytest.mark.parametrize("to", ["coo", "csr"])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_tocoo_tocsr(fmt, to):
    k, s = vec_pair(fmt, numpy.complex128, scipy_canonical=True)
    same(getattr(k, "to" + to)(), getattr(s, "to" + to)())
    same(k.asformat(to), s.asformat(to))
    same(getattr(k, "to" + to)(copy=True), getattr(s, "to" + to)(copy=True))


@pytest.mark.parametrize("to", ["tocsc", "todia", "tobsr"])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_conversion_to_2d_only_formats_fails(fmt, to):
    k, s = vec_pair(fmt, numpy.float64)
    raises_like(lambda: getattr(s, to)(), lambda: getattr(k, to)())


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_transpose_is_itself(fmt):
    k, s = vec_pair(fmt, numpy.float64)
    same(k.T, s.T)
    same(k.transpose(), s.transpose())
    same(k.transpose(copy=True), s.transpose(copy=True))
    if fmt == "coo":
        same(k.transpose(axes=(0,)), s.transpose(axes=(0,)))
    else:
        raises_like(lambda: s.transpose(axes=(0,)), lambda: k.transpose(axes=(0,)))


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_npz_roundtrip_with_scipy(fmt, tmp_path):
    k, s = vec_pair(fmt, numpy.float64)
    ks.save_npz(tmp_path / "k.npz", k)
    sps.save_npz(tmp_path / "s.npz", s)
    same(ks.load_npz(tmp_path / "s.npz"), s)
    same(sps.load_npz(tmp_path / "k.npz"), s)
    same(ks.load_npz(tmp_path / "k.npz"), s)


# ---- canonical form ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_sum_duplicates_and_eliminate_zeros(fmt, dtype):
    k, s = vec_pair(fmt, dtype)
    k.sum_duplicates()
    s.sum_duplicates()
    same(k, s)
    assert k.nnz == s.nnz and k.has_canonical_format == s.has_canonical_format
    k.eliminate_zeros()
    s.eliminate_zeros()
    same(k, s)
    assert k.nnz == s.nnz


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_nonzero(fmt):
    k, s = vec_pair(fmt, numpy.int32)
    got, want = k.nonzero(), s.nonzero()
    assert len(got) == len(want) == 1
    close(numpy.sort(kumo.asnumpy(got[0])), numpy.sort(want[0]).astype(kumo.asnumpy(got[0]).dtype))


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_count_nonzero(fmt):
    k, s = vec_pair(fmt, numpy.float64)
    same(k.count_nonzero(), s.count_nonzero())


# ---- reductions ----

@pytest.mark.parametrize("axis", [None, 0, -1, (0,)])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS_1D)
@pytest.mark.parametrize("op", ["sum", "mean", "max", "min", "argmax", "argmin"])
def test_reductions_are_scalars(op, fmt, dtype, axis):
    k, s = vec_pair(fmt, dtype)
    if op.startswith("arg") and axis is not None and not isinstance(axis, int):
        return  # SciPy's argmax takes an int axis only
    got, want = getattr(k, op)(axis=axis), getattr(s, op)(axis=axis)
    if op.startswith("arg"):
        # A Python int (SciPy gives one, or an int64 when the extreme is an implicit zero).
        assert type(got) is int and got == int(want)
    else:
        same(got, want)


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.float64])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("fmt", ["coo", "csr", "csc", "bsr"])
def test_sums_with_duplicates(fmt, axis, dtype):
    # Two stored True at one place are one True (NumPy's bool addition), then counted, as SciPy's sums
    # (SciPy's COO alone counts them twice until something canonicalises it in place: compare with CSR).
    data = numpy.array([True, True, True, False]).astype(dtype)
    args = (data, (numpy.array([0, 0, 1, 1]), numpy.array([1, 1, 0, 1])))
    k, s = getattr(ks, f"{fmt}_array")(args, shape=(2, 2)), sps.csr_array(args, shape=(2, 2))
    same(k.sum(axis=axis), s.sum(axis=axis))
    # SciPy's mean casts before it sums, so its bool duplicates count twice there (kumo's too).
    same(k.mean(axis=axis), getattr(sps, f"{fmt}_array")(args, shape=(2, 2)).mean(axis=axis))


@pytest.mark.parametrize("op", ["nanmax", "nanmin"])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_nan_reductions(fmt, op):
    d = numpy.array([numpy.nan, 0.0, -2.0, 3.0, 0.0])
    k, s = getattr(ks, f"{fmt}_array")(d), getattr(sps, f"{fmt}_array")(d)
    same(getattr(k, op)(), getattr(s, op)())
    same(k.max(), s.max())


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float32])
def test_sum_and_mean_dtype_argument(dtype):
    k, s = vec_pair("coo", numpy.int8)
    same(k.sum(dtype=dtype), s.sum(dtype=dtype))
    same(k.mean(dtype=numpy.float32), s.mean(dtype=numpy.float32))


@pytest.mark.parametrize("fmt", FORMATS_1D)
@pytest.mark.parametrize("op", ["sum", "max", "argmax", "mean"])
def test_reduction_axis_out_of_range(fmt, op):
    k, s = vec_pair(fmt, numpy.float64)
    raises_like(lambda: getattr(s, op)(axis=1), lambda: getattr(k, op)(axis=1))


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_reductions_of_empty(fmt):
    K, S = getattr(ks, f"{fmt}_array"), getattr(sps, f"{fmt}_array")
    k, s = K(numpy.zeros(0)), S(numpy.zeros(0))
    same(k.sum(), s.sum())
    raises_like(s.max, k.max)
    raises_like(s.argmax, k.argmax)


# ---- elementwise ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_copy_astype_conj_abs(fmt, dtype):
    k, s = vec_pair(fmt, dtype)
    same(k.copy(), s.copy())
    same(k.astype(numpy.complex128), s.astype(numpy.complex128))
    same(k.astype(numpy.int64), s.astype(numpy.int64))
    same(k.conj(), s.conj())
    same(abs(k), abs(s))
    if dtype != numpy.bool_:
        same(-k, -s)
        same(k.power(2), s.power(2))


@pytest.mark.parametrize("fmt", ["coo", "csr", "csc"])
def test_power_operator_of_arrays(fmt):
    k, s = vec_pair("coo", numpy.float64, scipy_canonical=True)
    same(k ** 2, s ** 2)
    d = values((3, 4), numpy.int32, 14)
    k2, s2 = getattr(ks, f"{fmt}_array")(d), getattr(sps, f"{fmt}_array")(d)
    same(k2 ** 3, s2 ** 3)
    raises_like(lambda: s2 ** 0, lambda: k2 ** 0)


@pytest.mark.parametrize("fn", ["sqrt", "sin", "expm1", "floor"])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_sparsity_keeping_functions(fmt, fn):
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    k, s = abs(k), abs(s)
    same(getattr(k, fn)(), getattr(s, fn)())


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_scalar_arithmetic(fmt, dtype):
    k, s = vec_pair(fmt, dtype, scipy_canonical=True)
    same(k * 2, s * 2)
    same(3 * k, 3 * s)
    same(k / 2, s / 2)
    same(k + 0, s + 0)
    same(k * numpy.float32(2), s * numpy.float32(2))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fb", FORMATS_1D)
@pytest.mark.parametrize("fa", FORMATS_1D)
def test_sparse_binary(fa, fb, dtype):
    ka, sa = vec_pair(fa, dtype, seed=1, scipy_canonical=True)
    kb, sb = vec_pair(fb, dtype, seed=2, scipy_canonical=True)
    same(ka + kb, sa + sb)
    same(ka * kb, sa * sb)
    same(ka.multiply(kb), sa.multiply(sb))
    if dtype != numpy.bool_:
        same(ka - kb, sa - sb)
    same(ka + sb, sa + sb)  # a SciPy operand


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_dense_binary(fmt, dtype):
    k, s = vec_pair(fmt, dtype, scipy_canonical=True)
    d = values(7, dtype, 5)
    same(k + d, s + d)
    same(k - d, s - d)
    same(k * d, s * d)
    same(d * k, d * s)
    same(k.multiply(d), s.multiply(d))
    same(k * d[:1], s * d[:1])
    same(k + kumo.asarray(d), s + d)


@pytest.mark.parametrize("shape", [(2, 7), (3, 1), (1, 7), (0, 7)])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.complex128])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_multiply_broadcasts_to_2d_dense(fmt, dtype, shape):
    k, s = vec_pair(fmt, dtype, scipy_canonical=True)
    d = values(shape, dtype, 13)
    same(k * d, s * d)
    same(k.multiply(d), s.multiply(d))


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_division(fmt):
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    d = numpy.arange(1.0, 8.0)
    same(k / d, s / d)
    kb, sb = vec_pair("csr", numpy.float64, seed=4, scipy_canonical=True)
    same(quiet(lambda: k / kb), quiet(lambda: s / sb))


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_shape_mismatch_errors(fmt):
    k, s = vec_pair(fmt, numpy.float64)
    k5, s5 = vec_pair(fmt, numpy.float64, n=5)
    raises_like(lambda: s + s5, lambda: k + k5)
    raises_like(lambda: s * s5, lambda: k * k5)
    raises_like(lambda: s + numpy.ones((2, 7)), lambda: k + numpy.ones((2, 7)))
    raises_like(lambda: s * numpy.ones(5), lambda: k * numpy.ones(5))
    raises_like(lambda: s * numpy.ones((2, 5)), lambda: k * numpy.ones((2, 5)))
    raises_like(lambda: s + sps.csr_array(numpy.ones((2, 7))), lambda: k + ks.csr_array(numpy.ones((2, 7))))


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_maximum_minimum(fmt):
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    kb, sb = vec_pair("coo", numpy.float64, seed=3, scipy_canonical=True)
    same(k.maximum(kb), s.maximum(sb))
    same(k.minimum(kb), s.minimum(sb))
    same(k.minimum(0), s.minimum(0))
    same(quiet(k.maximum, 1), quiet(s.maximum, 1))
    same(k.maximum(numpy.ones(7)), s.maximum(numpy.ones(7)))


# ---- comparisons ----

@pytest.mark.parametrize("op", ["eq", "ne", "lt", "gt", "le", "ge"])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_comparisons(fmt, op):
    import operator
    fn = getattr(operator, op)
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    kb, sb = vec_pair("csr", numpy.float64, seed=6, scipy_canonical=True)
    for other in [0, 1, -1]:
        same(quiet(fn, k, other), quiet(fn, s, other))
    same(quiet(fn, k, kb), quiet(fn, s, sb))
    d = numpy.ones(7)
    same(fn(k, d), fn(s, d))


# ---- products ----

@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_matmul_dense(fmt, dtype):
    k, s = vec_pair(fmt, dtype, scipy_canonical=True)
    v, m = values(7, dtype, 8), values((7, 3), dtype, 9)
    same(k @ v, s @ v)
    same(k @ m, s @ m)
    same(v @ k, v @ s)
    same(m.T @ k, m.T @ s)
    same(k.dot(v), s.dot(v))
    same(k @ kumo.asarray(m), s @ m)


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("fb", FORMATS_1D)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_matmul_1d_sparse(fmt, fb, dtype):
    ka, sa = vec_pair(fmt, dtype, seed=1, scipy_canonical=True)
    kb, sb = vec_pair(fb, dtype, seed=2, scipy_canonical=True)
    same(ka @ kb, sa @ sb)
    same(ka.dot(kb), sa.dot(sb))


@pytest.mark.parametrize("f2", ["coo", "csr", "csc"])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_matmul_with_2d_sparse(fmt, f2):
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    d = values((7, 4), numpy.float64, 11)
    K2, S2 = getattr(ks, f"{f2}_array"), getattr(sps, f"{f2}_array")
    same(k @ K2(d), s @ S2(d))
    same(K2(d.T) @ k, S2(d.T) @ s)
    same(k @ ks.csr_matrix(d), s @ sps.csr_matrix(d))
    raises_like(lambda: sps.csr_matrix(d.T) @ s, lambda: ks.csr_matrix(d.T) @ k)


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_matmul_errors(fmt):
    k, s = vec_pair(fmt, numpy.float64)
    k5, s5 = vec_pair(fmt, numpy.float64, n=5)
    raises_like(lambda: s @ numpy.ones(5), lambda: k @ numpy.ones(5))
    raises_like(lambda: s @ numpy.ones((5, 2)), lambda: k @ numpy.ones((5, 2)))
    raises_like(lambda: s @ s5, lambda: k @ k5)
    raises_like(lambda: s @ sps.csr_array(numpy.ones((5, 2))), lambda: k @ ks.csr_array(numpy.ones((5, 2))))
    raises_like(lambda: sps.csr_array(numpy.ones((2, 5))) @ s, lambda: ks.csr_array(numpy.ones((2, 5))) @ k)
    raises_like(lambda: s @ 2, lambda: k @ 2)


@pytest.mark.parametrize("format", [None, "coo", "csr"])
@pytest.mark.parametrize("fb", FORMATS_1D)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_kron_of_1d_arrays(fmt, fb, format):
    ka, sa = vec_pair(fmt, numpy.float64, seed=1, scipy_canonical=True)
    kb, sb = vec_pair(fb, numpy.float64, n=3, seed=2, scipy_canonical=True)
    same(ks.kron(ka, kb, format=format), sps.kron(sa, sb, format=format))


# ---- reshape and resize ----

@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_reshape_1d_to_2d(fmt, order):
    k, s = vec_pair(fmt, numpy.float64, n=6)
    for shape in [(2, 3), (3, 2), (1, -1), (6,), (-1,)]:
        same(k.reshape(shape, order=order), s.reshape(shape, order=order))
    same(k.reshape(2, 3), s.reshape(2, 3))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("fmt", ["coo", "csr", "csc"])
def test_reshape_2d_array_to_1d(fmt, order):
    d = values((3, 4), numpy.int32, 12)
    k, s = getattr(ks, f"{fmt}_array")(d), getattr(sps, f"{fmt}_array")(d)
    same(k.reshape(12, order=order), s.reshape(12, order=order))
    same(k.reshape((-1,), order=order), s.reshape((-1,), order=order))


def test_reshape_errors():
    k, s = vec_pair("coo", numpy.float64, n=6)
    raises_like(lambda: s.reshape(7), lambda: k.reshape(7))
    m = numpy.eye(3)
    raises_like(lambda: sps.csr_matrix(m).reshape(9), lambda: ks.csr_matrix(m).reshape(9))


@pytest.mark.parametrize("n", [3, 7, 10])
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_resize(fmt, n):
    k, s = vec_pair(fmt, numpy.float64)
    k.resize(n)
    s.resize(n)
    same(k, s)


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_two_dimensional_only_methods(fmt):
    k, s = vec_pair(fmt, numpy.float64)
    raises_like(lambda: sps.tril(s), lambda: ks.tril(k))
    raises_like(lambda: sps.triu(s), lambda: ks.triu(k))
    raises_like(s.diagonal, k.diagonal)
    raises_like(s.trace, k.trace)
    raises_like(lambda: s.setdiag(1), lambda: k.setdiag(1))


# ---- indexing a 1-d array ----

KEYS_1D = [1, -1, 0, slice(1, 5), slice(None, None, -2), slice(None), Ellipsis, slice(3, 3), [0, 4, 4], [],
           numpy.array([-1, 2]), numpy.array([True, False, True, False, True, False, True]),
           numpy.array([[0, 4], [2, 6]]), (None, slice(1, 3)), (2, None), (None, 2), (slice(1, 3), None),
           (Ellipsis, None), (None,)]


@pytest.mark.parametrize("key", KEYS_1D, ids=repr)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_getitem(fmt, key):
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    same(k[key], s[key])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_getitem_dtypes(fmt, dtype):
    k, s = vec_pair(fmt, dtype, scipy_canonical=True)
    same(k[2], s[2])
    same(k[::2], s[::2])
    same(k[[6, 0]], s[[6, 0]])


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_getitem_sparse_mask(fmt):
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    same(k[k > 0], s[s > 0])


@pytest.mark.parametrize("key", [7, -8, (1, 2), 1.5, slice(0, 2, 0)], ids=repr)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_getitem_errors(fmt, key):
    k, s = vec_pair(fmt, numpy.float64)
    raises_like(lambda: s[key], lambda: k[key])


@pytest.mark.parametrize("key, x", [(1, 7.0), ([0, 3], [8.0, 9.0]), (slice(1, 3), 5.0), (-1, 0.0),
                                    (numpy.array([True, False, False, False, False, False, True]), 2.0)], ids=repr)
@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_setitem(fmt, key, x):
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    quiet(k.__setitem__, key, x)
    quiet(s.__setitem__, key, x)
    same(k, s)


# ---- 1-d results of 2-d arrays ----

def matrix_pair(fmt, kind="array", dtype=numpy.float64):
    d = numpy.array([[1, 0, 2, 0], [0, 0, 3, 0], [4, 5, 0, 0]]).astype(dtype)
    return getattr(ks, f"{fmt}_{kind}")(d), getattr(sps, f"{fmt}_{kind}")(d)


@pytest.mark.parametrize("key", [1, -1, (1, slice(None)), (slice(None), 2), (2, [0, 3, 3]), ([0, 2], 1),
                                 (1, slice(0, 2)), (slice(None, None, -1), 0), (1, numpy.array([True, False,
                                                                                               True, True]))],
                         ids=repr)
@pytest.mark.parametrize("fmt", ["coo", "csr", "csc"])
def test_integer_on_one_axis_gives_1d_coo(fmt, key):
    k, s = matrix_pair(fmt)
    same(k[key], s[key])


@pytest.mark.parametrize("key", [1, (1, slice(None)), (slice(None), 2), ([0, 2], 1)], ids=repr)
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_matrix_keeps_2d_results(fmt, key):
    k, s = matrix_pair(fmt, "matrix")
    same(k[key], s[key])


@pytest.mark.parametrize("dtype", DTYPES)
def test_coo_inner_index_is_1d_coo(dtype):
    k, s = matrix_pair("coo", dtype=dtype)
    same(k[[0, 1, 2], [2, 2, 0]], s[[0, 1, 2], [2, 2, 0]])


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("op", ["max", "min", "nanmax", "nanmin"])
@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("fmt", ["coo", "csr", "csc"])
def test_max_min_along_axis_give_1d_coo(fmt, dtype, op, axis):
    if op.startswith("nan") and numpy.dtype(dtype).kind != "f":
        return
    k, s = matrix_pair(fmt, dtype=dtype)
    same(getattr(k, op)(axis=axis), getattr(s, op)(axis=axis))
    km, sm = matrix_pair(fmt, "matrix", dtype=dtype)
    same(getattr(km, op)(axis=axis), getattr(sm, op)(axis=axis))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("op", ["argmax", "argmin", "sum", "mean"])
@pytest.mark.parametrize("fmt", ["coo", "csr", "csc"])
def test_other_axis_reductions_stay_dense(fmt, op, axis):
    k, s = matrix_pair(fmt)
    same(getattr(k, op)(axis=axis), getattr(s, op)(axis=axis))


def test_row_of_explicit_zeros_and_duplicates():
    args = (numpy.array([0.0, 2.0, 3.0, 1.0]), (numpy.array([0, 0, 1, 0]), numpy.array([0, 1, 1, 1])))
    for fmt in ["coo", "csr", "csc"]:
        k, s = getattr(ks, f"{fmt}_array")(args, shape=(2, 2)), getattr(sps, f"{fmt}_array")(args, shape=(2, 2))
        same(k[0], s[0])
        same(k[:, 1], s[:, 1])
        same(k.max(axis=0), s.max(axis=0))


def test_empty_2d_row():
    k, s = ks.csr_array((0, 4)), sps.csr_array((0, 4))
    same(k.max(axis=1), s.max(axis=1))
    k, s = ks.csr_array((3, 0)), sps.csr_array((3, 0))
    same(k[1], s[1])


# ---- kumo's reading where SciPy 1.17 fails (docs/sparse.md) ----

@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_count_nonzero_along_axis_0_is_the_count(fmt):
    k, s = vec_pair(fmt, numpy.float64, scipy_canonical=True)
    assert k.count_nonzero(axis=0) == s.count_nonzero()


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_mean_of_empty_is_nan(fmt):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert numpy.isnan(getattr(ks, f"{fmt}_array")(numpy.zeros(0)).mean())


@pytest.mark.parametrize("fmt", FORMATS_1D)
def test_resize_keeps_the_number_of_dimensions(fmt):
    k, _ = vec_pair(fmt, numpy.float64)
    with pytest.raises(ValueError):
        k.resize((1, 7))
    with pytest.raises(ValueError):
        ks.csr_array(numpy.eye(3)).resize(9)
