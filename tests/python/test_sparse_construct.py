"""kumo.sparse's construction functions against scipy.sparse: result classes
(array vs matrix), formats, dtypes, index dtypes, values and errors."""
import warnings

import numpy
import pytest
import scipy.sparse as sps

import kumo.sparse as ks
from sparse_testing import np_, values

DTYPES = [numpy.bool_, numpy.int8, numpy.int32, numpy.int64, numpy.uint16, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]
NUMERIC = [d for d in DTYPES if d is not numpy.bool_]
FORMATS = [None, "coo", "csr", "csc", "dia", "bsr"]


def check_same(k, s, stored=True):
    """The kumo result k matches SciPy's s: kind, format, shape, dtype, values (and index dtype)."""
    assert isinstance(k, ks.sparray) == isinstance(s, sps.sparray), (type(k), type(s))
    assert k.format == s.format
    assert k.shape == s.shape
    assert k.dtype == s.dtype
    numpy.testing.assert_array_equal(np_(k.toarray()), s.toarray())
    if not stored:
        return
    assert k.nnz == s.nnz
    if s.format in ("csr", "csc", "bsr"):
        assert k.indices.dtype == s.indices.dtype
        numpy.testing.assert_array_equal(np_(k.indices), s.indices)
        numpy.testing.assert_array_equal(np_(k.indptr), s.indptr)
        numpy.testing.assert_array_equal(np_(k.data), s.data)
    elif s.format == "coo":
        assert k.row.dtype == s.row.dtype
        numpy.testing.assert_array_equal(np_(k.row), s.row)
        numpy.testing.assert_array_equal(np_(k.col), s.col)
        numpy.testing.assert_array_equal(np_(k.data), s.data)
    elif s.format == "dia":
        assert k.offsets.dtype == s.offsets.dtype
        numpy.testing.assert_array_equal(np_(k.offsets), s.offsets)
        numpy.testing.assert_array_equal(np_(k.data), s.data)


def pair(dense, fmt, kind):
    """The same matrix as kumo and SciPy objects of format fmt and kind."""
    s = getattr(sps, f"{fmt}_{kind}")(dense)
    return getattr(ks, f"{fmt}_{kind}")(s), s


# ---------------------------------------------------------------- eye, identity

@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape,k", [((4, 4), 0), ((4, 4), 1), ((3, 5), -1), ((5, 3), 2), ((0, 0), 0), ((3, 3), 2)])
def test_eye_array(shape, k, fmt):
    check_same(ks.eye_array(*shape, k=k, format=fmt), sps.eye_array(*shape, k=k, format=fmt))


@pytest.mark.parametrize("k", [5, -4])
def test_eye_diagonal_outside_is_value_error(k):
    with pytest.raises(ValueError):
        sps.eye_array(3, 3, k=k)
    with pytest.raises(ValueError, match="out of bounds"):
        ks.eye_array(3, 3, k=k)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_eye_matrix_dtypes(dtype, fmt):
    check_same(ks.eye(4, 4, dtype=dtype, format=fmt), sps.eye(4, 4, dtype=dtype, format=fmt))


def test_eye_coo_fast_path_is_not_canonical():
    assert ks.eye(3, format="coo").has_canonical_format == sps.eye(3, format="coo").has_canonical_format


@pytest.mark.parametrize("fmt", FORMATS)
def test_identity(fmt):
    check_same(ks.identity(5, dtype="int8", format=fmt), sps.identity(5, dtype="int8", format=fmt))


# ---------------------------------------------------------------- diags, spdiags

@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("offsets,shape", [([-1, 0, 1], (4, 4)), ([0, 2], (3, 5)), ([-2, 1], (5, 3)), ([0], None)])
def test_diags_array(offsets, shape, fmt):
    rng = numpy.random.default_rng(1)
    m, n = shape or (4, 4)
    diagonals = [rng.standard_normal(min(m + k, n - k, min(m, n))) for k in offsets]
    check_same(ks.diags_array(diagonals, offsets=offsets, shape=shape, format=fmt, dtype=None),
               sps.diags_array(diagonals, offsets=offsets, shape=shape, format=fmt, dtype=None))


@pytest.mark.parametrize("dtype", DTYPES)
def test_diags_array_dtype_none_is_result_type(dtype):
    diagonals = [values(4, dtype, seed=2), values(3, dtype, seed=3)]
    check_same(ks.diags_array(diagonals, offsets=[0, 1], dtype=None),
               sps.diags_array(diagonals, offsets=[0, 1], dtype=None))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_diags_default_dtype_and_future_warning(dtype):
    d = values(4, dtype, seed=4)
    with warnings.catch_warnings(record=True) as kw:
        warnings.simplefilter("always")
        k = ks.diags(d)
    with warnings.catch_warnings(record=True) as sw:
        warnings.simplefilter("always")
        s = sps.diags(d)
    check_same(k, s)
    assert [w.category for w in kw] == [w.category for w in sw]


def test_diags_bool_without_dtype_is_type_error():
    with pytest.raises(TypeError):
        sps.diags_array(numpy.array([True, False]))
    with pytest.raises(TypeError):
        ks.diags_array(numpy.array([True, False]))


def test_diags_scalar_broadcast():
    check_same(ks.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(5, 5)),
               sps.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(5, 5)))


def test_diags_single_diagonal_with_offset():
    check_same(ks.diags_array([1.0, 2.0, 3.0], offsets=1), sps.diags_array([1.0, 2.0, 3.0], offsets=1))


def test_diags_longer_diagonal_is_cut():
    check_same(ks.diags_array([numpy.arange(6.0)], offsets=[0], shape=(3, 3)),
               sps.diags_array([numpy.arange(6.0)], offsets=[0], shape=(3, 3)))


@pytest.mark.parametrize("args,kwargs", [
    (([[1.0, 2.0], [3.0]],), {"offsets": [0]}),              # as many diagonals as offsets
    (([[1.0, 2.0]],), {"offsets": [0], "shape": (4, 4)}),     # too short
    (([[1.0]],), {"offsets": [5], "shape": (3, 3)}),          # outside the matrix
    (([[1.0, 2.0], [3.0]],), {"offsets": 0}),                 # a scalar offset with several diagonals
])
def test_diags_errors(args, kwargs):
    with pytest.raises(ValueError):
        sps.diags_array(*args, **kwargs)
    with pytest.raises(ValueError):
        ks.diags_array(*args, **kwargs)


@pytest.mark.parametrize("fmt", FORMATS)
def test_spdiags(fmt):
    data = numpy.arange(1.0, 13.0).reshape(3, 4)
    check_same(ks.spdiags(data, [0, -1, 2], 4, 4, format=fmt), sps.spdiags(data, [0, -1, 2], 4, 4, format=fmt))
    check_same(ks.spdiags(data, [0, -1, 2], (3, 5)), sps.spdiags(data, [0, -1, 2], (3, 5)))


# ---------------------------------------------------------------- kron, kronsum

@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", [None, "coo", "csr", "bsr"])
@pytest.mark.parametrize("b_density", [0.2, 0.9])
def test_kron(b_density, fmt, kind):
    a = values((3, 4), numpy.float64, seed=5)
    b = values((2, 3), numpy.float64, seed=6, density=b_density)
    ka, sa = pair(a, "csr", kind)
    kb, sb = pair(b, "coo", kind)
    check_same(ks.kron(ka, kb, format=fmt), sps.kron(sa, sb, format=fmt))


@pytest.mark.parametrize("dtypes", [(numpy.int8, numpy.float32), (numpy.bool_, numpy.bool_),
                                    (numpy.complex64, numpy.float64), (numpy.int32, numpy.uint16)])
def test_kron_dtypes(dtypes):
    a, b = values((3, 2), dtypes[0], seed=7), values((2, 2), dtypes[1], seed=8, density=0.3)
    check_same(ks.kron(ks.coo_array(a), ks.coo_array(b)), sps.kron(sps.coo_array(a), sps.coo_array(b)))


def test_kron_dense_and_mixed_kinds():
    a = values((2, 3), numpy.float64, seed=9)
    b = values((3, 2), numpy.float64, seed=10, density=0.9)
    check_same(ks.kron(a, b), sps.kron(a, b))
    check_same(ks.kron(ks.csr_matrix(a), ks.csr_array(b)), sps.kron(sps.csr_matrix(a), sps.csr_array(b)))


def test_kron_with_empty_factor():
    a = numpy.zeros((2, 3))
    b = values((2, 2), numpy.float64, seed=11, density=0.9)
    check_same(ks.kron(ks.csr_array(a), ks.csr_array(b)), sps.kron(sps.csr_array(a), sps.csr_array(b)))


def test_kron_noncanonical_a_keeps_entry_order():
    data, row, col = numpy.array([1.0, 2.0, 3.0]), numpy.array([1, 0, 1]), numpy.array([0, 1, 0])
    ka, sa = ks.coo_array((data, (row, col)), shape=(2, 2)), sps.coo_array((data, (row, col)), shape=(2, 2))
    b = numpy.array([[0.0, 1.0], [0.0, 0.0]])
    check_same(ks.kron(ka, b, format="coo"), sps.kron(sa, b, format="coo"))


@pytest.mark.parametrize("fmt", [None, "csr", "coo"])
@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_kronsum(kind, fmt):
    ka, sa = pair(values((3, 3), numpy.float64, seed=12), "csr", kind)
    kb, sb = pair(values((2, 2), numpy.float32, seed=13), "csr", kind)
    check_same(ks.kronsum(ka, kb, format=fmt), sps.kronsum(sa, sb, format=fmt), stored=fmt != "coo")


def test_kronsum_not_square():
    with pytest.raises(ValueError):
        sps.kronsum(sps.csr_array(numpy.ones((2, 3))), sps.csr_array(numpy.ones((2, 2))))
    with pytest.raises(ValueError, match="not square"):
        ks.kronsum(ks.csr_array(numpy.ones((2, 3))), ks.csr_array(numpy.ones((2, 2))))


# ---------------------------------------------------------------- stacking

@pytest.mark.parametrize("fmt", [None, "coo", "csr", "csc", "dia"])
@pytest.mark.parametrize("in_fmt", ["coo", "csr", "csc"])
@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_hstack_vstack(kind, in_fmt, fmt):
    ka, sa = pair(values((3, 2), numpy.float64, seed=14), in_fmt, kind)
    kb, sb = pair(values((3, 4), numpy.float64, seed=15), in_fmt, kind)
    check_same(ks.hstack([ka, kb], format=fmt), sps.hstack([sa, sb], format=fmt))
    kc, sc = pair(values((2, 2), numpy.float64, seed=16), in_fmt, kind)
    check_same(ks.vstack([ka, kc.T.T, ka], format=fmt), sps.vstack([sa, sc, sa], format=fmt))


@pytest.mark.parametrize("dtypes", [(numpy.int8, numpy.float32), (numpy.bool_, numpy.int64),
                                    (numpy.complex64, numpy.float64)])
@pytest.mark.parametrize("in_fmt", ["coo", "csr", "csc"])
def test_stack_dtypes_promote(in_fmt, dtypes):
    ka, sa = pair(values((2, 3), dtypes[0], seed=17), in_fmt, "array")
    kb, sb = pair(values((2, 3), dtypes[1], seed=18), in_fmt, "array")
    check_same(ks.vstack([ka, kb]), sps.vstack([sa, sb]))
    check_same(ks.hstack([ka, kb], dtype=numpy.complex128), sps.hstack([sa, sb], dtype=numpy.complex128))


def test_stack_mixed_kinds_and_dense():
    a = values((2, 2), numpy.float64, seed=19)
    check_same(ks.hstack([ks.csr_array(a), ks.csr_matrix(a)]), sps.hstack([sps.csr_array(a), sps.csr_matrix(a)]))
    check_same(ks.hstack([a, ks.csr_matrix(a)]), sps.hstack([a, sps.csr_matrix(a)]))


def test_stack_noncanonical_csr_keeps_entries():
    data, indices, indptr = numpy.array([1.0, 2.0, 3.0]), numpy.array([2, 0, 2]), numpy.array([0, 3])
    k, s = ks.csr_array((data, indices, indptr), shape=(1, 3)), sps.csr_array((data, indices, indptr), shape=(1, 3))
    check_same(ks.vstack([k, k]), sps.vstack([s, s]))
    check_same(ks.hstack([k, k]), sps.hstack([s, s]), stored=False)


def test_stack_empty_blocks():
    a = numpy.zeros((0, 3))
    b = values((2, 3), numpy.float64, seed=20)
    for fmt in ("csr", "csc", "coo"):
        check_same(ks.vstack([getattr(ks, f"{fmt}_array")(a), getattr(ks, f"{fmt}_array")(b)]),
                   sps.vstack([getattr(sps, f"{fmt}_array")(a), getattr(sps, f"{fmt}_array")(b)]))


@pytest.mark.parametrize("in_fmt", ["coo", "csr", "csc"])
def test_stack_mismatched_shapes(in_fmt):
    ka, sa = pair(numpy.ones((2, 2)), in_fmt, "array")
    kb, sb = pair(numpy.ones((3, 3)), in_fmt, "array")
    with pytest.raises(ValueError):
        sps.hstack([sa, sb])
    with pytest.raises(ValueError):
        ks.hstack([ka, kb])
    with pytest.raises(ValueError):
        sps.vstack([sa, sb])
    with pytest.raises(ValueError):
        ks.vstack([ka, kb])


@pytest.mark.parametrize("fmt", [None, "csr", "coo"])
def test_bmat_with_none(fmt):
    a = values((2, 3), numpy.float64, seed=21)
    b = values((2, 2), numpy.float64, seed=22)
    c = values((1, 3), numpy.int32, seed=23)
    k = ks.bmat([[ks.coo_matrix(a), ks.csr_matrix(b)], [ks.csc_matrix(c), None]], format=fmt)
    s = sps.bmat([[sps.coo_matrix(a), sps.csr_matrix(b)], [sps.csc_matrix(c), None]], format=fmt)
    check_same(k, s)


def test_bmat_all_none_and_block_array():
    check_same(ks.bmat([[None, None], [None, None]]), sps.bmat([[None, None], [None, None]]))
    a = values((2, 2), numpy.float32, seed=24)
    check_same(ks.block_array([[ks.csr_matrix(a), None], [None, a]]),
               sps.block_array([[sps.csr_matrix(a), None], [None, a]]))


def test_bmat_errors():
    a, b = numpy.ones((2, 2)), numpy.ones((3, 3))
    for lib in (sps, ks):
        with pytest.raises(ValueError, match="incompatible row dimensions"):
            lib.bmat([[lib.coo_array(a), lib.coo_array(b)]])
        with pytest.raises(ValueError, match="incompatible column dimensions"):
            lib.bmat([[lib.coo_array(a)], [lib.coo_array(b)]])
        with pytest.raises(ValueError, match="blocks must be 2-D"):
            lib.bmat([lib.coo_array(a)])


@pytest.mark.parametrize("fmt", [None, "csr", "csc"])
def test_block_diag(fmt):
    a = values((2, 3), numpy.float64, seed=25)
    mats_k = [ks.csr_matrix(a), numpy.array([[0.0, 1.0]]), [[1, 0], [0, 2]], 7]
    mats_s = [sps.csr_matrix(a), numpy.array([[0.0, 1.0]]), [[1, 0], [0, 2]], 7]
    check_same(ks.block_diag(mats_k, format=fmt), sps.block_diag(mats_s, format=fmt))
    check_same(ks.block_diag(mats_k, dtype=numpy.complex64), sps.block_diag(mats_s, dtype=numpy.complex64))


def test_block_diag_array_kind_and_empty_block():
    a = values((2, 2), numpy.int8, seed=26)
    check_same(ks.block_diag([ks.coo_array(a), ks.coo_array(numpy.zeros((0, 2)))]),
               sps.block_diag([sps.coo_array(a), sps.coo_array(numpy.zeros((0, 2)))]))


# ---------------------------------------------------------------- tril, triu, find

@pytest.mark.parametrize("fn", ["tril", "triu"])
@pytest.mark.parametrize("k", [-2, 0, 1, 3])
@pytest.mark.parametrize("in_fmt", ["coo", "csr", "csc", "dia", "bsr"])
@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_tril_triu(kind, in_fmt, k, fn):
    ka, sa = pair(values((4, 6), numpy.float64, seed=27), in_fmt, kind)
    check_same(getattr(ks, fn)(ka, k), getattr(sps, fn)(sa, k), stored=in_fmt in ("coo", "csr", "dia"))


@pytest.mark.parametrize("fmt", ["csr", "csc", "dia"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_tril_dtypes_and_format(dtype, fmt):
    d = values((5, 4), dtype, seed=28)
    check_same(ks.tril(ks.coo_array(d), -1, format=fmt), sps.tril(sps.coo_array(d), -1, format=fmt))


def test_tril_noncanonical_keeps_duplicates():
    data, row, col = numpy.array([1.0, 2.0, 0.0, 4.0]), numpy.array([2, 2, 0, 0]), numpy.array([0, 0, 0, 2])
    k = ks.tril(ks.coo_array((data, (row, col)), shape=(3, 3)))
    s = sps.tril(sps.coo_array((data, (row, col)), shape=(3, 3)))
    check_same(k, s)


def test_tril_dense_input_gives_matrix():
    d = values((3, 3), numpy.float64, seed=29)
    check_same(ks.triu(d), sps.triu(d))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("in_fmt", ["coo", "csr", "csc", "dia", "bsr"])
def test_find(in_fmt, dtype):
    ka, sa = pair(values((4, 5), dtype, seed=30), in_fmt, "array")
    for k, s in zip(ks.find(ka), sps.find(sa)):
        assert k.dtype == s.dtype
        numpy.testing.assert_array_equal(np_(k), s)


def test_find_sums_duplicates_and_drops_zeros():
    data, row, col = numpy.array([1.0, -1.0, 0.0, 4.0]), numpy.array([1, 1, 0, 2]), numpy.array([1, 1, 0, 2])
    k = ks.find(ks.coo_matrix((data, (row, col)), shape=(3, 3)))
    s = sps.find(sps.coo_matrix((data, (row, col)), shape=(3, 3)))
    for a, b in zip(k, s):
        numpy.testing.assert_array_equal(np_(a), b)


# ---------------------------------------------------------------- random

@pytest.mark.parametrize("shape,density", [((10, 20), 0.1), ((7, 3), 0.5), ((5, 5), 1.0), ((4, 6), 0.0),
                                           ((0, 5), 0.3), ((30, 40), 0.0125)])
def test_random_array_nnz_and_distinct_places(shape, density):
    k = ks.random_array(shape, density=density, rng=1)
    s = sps.random_array(shape, density=density, rng=1)
    assert isinstance(k, ks.coo_array) and k.format == "coo" and k.dtype == numpy.float64
    assert k.nnz == s.nnz == round(density * shape[0] * shape[1])
    assert k.row.dtype == s.row.dtype
    places = set(zip(np_(k.row).tolist(), np_(k.col).tolist()))
    assert len(places) == k.nnz
    assert all(0 <= r < shape[0] and 0 <= c < shape[1] for r, c in places)
    data = np_(k.data)
    assert ((data >= 0) & (data < 1)).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_random_dtypes(dtype):
    k = ks.random(6, 8, density=0.5, dtype=dtype, rng=numpy.random.default_rng(3))
    s = sps.random(6, 8, density=0.5, dtype=dtype, rng=numpy.random.default_rng(3))
    assert isinstance(k, ks.coo_matrix)
    assert k.dtype == s.dtype and k.nnz == s.nnz
    data = np_(k.data)
    if numpy.dtype(dtype).kind == "c":
        assert ((data.real >= 0) & (data.real < 1) & (data.imag >= 0) & (data.imag < 1)).all()
    if numpy.dtype(dtype).kind in "iu":
        assert (data >= numpy.iinfo(dtype).min).all() and (data < numpy.iinfo(dtype).max).all()


@pytest.mark.parametrize("fmt", ["csr", "csc", "dia", "bsr"])
def test_random_format(fmt):
    assert ks.random(6, 8, density=0.3, format=fmt).format == sps.random(6, 8, density=0.3, format=fmt).format


def test_random_same_seed_same_matrix():
    a = ks.random_array((20, 20), density=0.2, rng=42)
    b = ks.random_array((20, 20), density=0.2, rng=42)
    c = ks.random_array((20, 20), density=0.2, rng=43)
    numpy.testing.assert_array_equal(np_(a.toarray()), np_(b.toarray()))
    assert not numpy.array_equal(np_(a.toarray()), np_(c.toarray()))


def test_random_places_are_uniform():
    counts = numpy.zeros((4, 5))
    for seed in range(200):
        counts += np_(ks.random_array((4, 5), density=0.25, rng=seed).toarray()) != 0
    # Each place is chosen with probability 1/4: 50 of 200 expected.
    assert counts.min() > 25 and counts.max() < 80


def test_random_samplers():
    k = ks.random_array((5, 5), density=0.4, rng=0, data_sampler=lambda size: numpy.full(size, 7.0))
    numpy.testing.assert_array_equal(np_(k.data), numpy.full(10, 7.0))
    m = ks.random(5, 5, density=0.4, dtype=numpy.int32, data_rvs=lambda n: numpy.arange(n))
    assert m.dtype == numpy.int32
    numpy.testing.assert_array_equal(numpy.sort(np_(m.data)), numpy.arange(10))
    legacy = ks.random(5, 5, density=0.4, random_state=numpy.random.RandomState(0))
    assert legacy.nnz == 10


@pytest.mark.parametrize("density", [-0.1, 1.5])
def test_random_bad_density(density):
    with pytest.raises(ValueError):
        sps.random_array((3, 3), density=density)
    with pytest.raises(ValueError, match="density"):
        ks.random_array((3, 3), density=density)


@pytest.mark.parametrize("call", [lambda lib: lib.hstack([]), lambda lib: lib.vstack([]), lambda lib: lib.bmat([[]]),
                                  lambda lib: lib.bmat([]), lambda lib: lib.block_diag([])])
def test_no_blocks_errors(call):
    with pytest.raises((ValueError, IndexError)) as s_err:
        call(sps)
    with pytest.raises(s_err.type):
        call(ks)


def test_bmat_noncanonical_blocks_keep_entries():
    data = numpy.array([1.0, 2.0, 0.0])
    row, col = numpy.array([1, 1, 0], numpy.int32), numpy.array([0, 0, 1], numpy.int32)
    k = ks.coo_matrix((data, (row, col)), shape=(2, 2))
    s = sps.coo_matrix((data, (row, col)), shape=(2, 2))
    check_same(ks.bmat([[k, None], [None, k]]), sps.bmat([[s, None], [None, s]]))
    check_same(ks.block_diag([k, k]), sps.block_diag([s, s]))


def test_block_diag_int64_indices():
    data, row, col = numpy.array([1.0]), numpy.array([0], dtype=numpy.int64), numpy.array([1], dtype=numpy.int64)
    k = ks.coo_array((data, (row, col)), shape=(2, 2))
    s = sps.coo_array((data, (row, col)), shape=(2, 2))
    check_same(ks.block_diag([k, numpy.ones((1, 1))]), sps.block_diag([s, numpy.ones((1, 1))]))


def test_random_array_other_ranks_are_value_error():
    with pytest.raises(ValueError, match="2-d"):
        ks.random_array((3, 4, 5), density=0.1)


def test_scipy_inputs_keep_their_kind_and_fast_paths():
    a = values((3, 3), numpy.float64, seed=31)
    check_same(ks.vstack([sps.csr_array(a), sps.csr_array(a)]), sps.vstack([sps.csr_array(a), sps.csr_array(a)]))
    check_same(ks.hstack([sps.csc_matrix(a), ks.csc_matrix(a)]), sps.hstack([sps.csc_matrix(a), sps.csc_matrix(a)]))
    check_same(ks.tril(sps.csr_array(a)), sps.tril(sps.csr_array(a)))
    check_same(ks.kron(sps.coo_array(a), a), sps.kron(sps.coo_array(a), a))
