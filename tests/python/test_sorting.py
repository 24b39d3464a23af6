"""sort, argsort, partition, lexsort, searchsorted, unique and the set
routines compared with NumPy 2, over dtypes, layouts and axes."""
import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import kumo
from conftest import ALL_DTYPES, FLOAT_DTYPES, LAYOUTS, assert_array_equal, make_pair

SPECIALS = [numpy.nan, -numpy.inf, -0.0, 0.0, numpy.inf, 1.5, -2.0, numpy.nan, 0.0, -0.0]


def _axes(ndim):
    return [None] + list(range(-ndim, ndim)) if ndim else [None]


# ---------------------------------------------------------------- sort / argsort
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_sort_argsort_layouts(layout, dtype):
    n, k = make_pair(layout, dtype, seed=3)
    for axis in _axes(n.ndim):
        assert_array_equal(kumo.sort(k, axis=axis), numpy.sort(n, axis=axis))
        assert_array_equal(kumo.argsort(k, axis=axis), numpy.argsort(n, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + [numpy.complex64, numpy.complex128])
def test_sort_special_values(dtype):
    n = numpy.array(SPECIALS, dtype=dtype)
    if n.dtype.kind == "c":
        n = n + 1j * numpy.array(SPECIALS[::-1], dtype=n.real.dtype)
    k = kumo.asarray(n)
    assert_array_equal(kumo.sort(k), numpy.sort(n))
    assert_array_equal(kumo.argsort(k), numpy.argsort(n, kind="stable"))
    if n.dtype.kind == "f":
        # Stable: the zeros keep their order, signs included.
        got = kumo.asnumpy(kumo.sort(k))
        want = numpy.sort(n, kind="stable")
        assert (numpy.signbit(got) == numpy.signbit(want)).all()


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int64, numpy.uint32, numpy.int8])
def test_sort_long_arrays_radix_path(dtype):
    rng = numpy.random.default_rng(0)
    n = (rng.standard_normal(200_003) * 50).astype(dtype)
    if n.dtype.kind == "f":
        n[::997] = numpy.nan
    k = kumo.asarray(n)
    assert_array_equal(kumo.sort(k), numpy.sort(n))
    assert_array_equal(kumo.argsort(k), numpy.argsort(n, kind="stable"))
    m = n[: 200_000].reshape(400, 500)
    assert_array_equal(kumo.sort(kumo.asarray(m), axis=0), numpy.sort(m, axis=0))


def test_sort_errors_match_numpy():
    k = kumo.arange(5.0)
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.sort(k, axis=1)
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.sort(kumo.asarray(3.0))
    with pytest.raises(ValueError, match="sort kind"):
        kumo.sort(k, kind="bogus")
    with pytest.raises(ValueError, match="at the same time"):
        kumo.sort(k, kind="stable", stable=True)
    with pytest.raises(ValueError, match="no fields"):
        kumo.argsort(k, order="x")
    assert_array_equal(kumo.sort(kumo.asarray(3.0), axis=None), numpy.sort(numpy.asarray(3.0), axis=None))
    assert_array_equal(kumo.argsort(kumo.asarray(3.0)), numpy.argsort(numpy.asarray(3.0)))


def test_ndarray_methods_sort_in_place():
    n = numpy.array([[3, 1, 2], [9, 7, 8]], dtype=numpy.int16)
    k = kumo.asarray(n)
    view = k[:, ::-1]
    view.sort(axis=1)
    n[:, ::-1].sort(axis=1)
    assert_array_equal(k, n)
    assert_array_equal(k.argsort(axis=0), n.argsort(axis=0, kind="stable"))
    k2 = kumo.asarray([5.0, 1.0, 4.0, 2.0])
    k2.partition(1)
    got = kumo.asnumpy(k2)
    assert got[1] == 2.0 and got[0] == 1.0
    assert_array_equal(kumo.asarray([1, 3, 5]).searchsorted(4), numpy.array([1, 3, 5]).searchsorted(4))
    assert kumo.asnumpy(kumo.asarray([4, 1, 3]).argpartition(0))[0] == 1


def test_sort_complex_dtypes():
    for dtype in [numpy.int8, numpy.uint16, numpy.int64, numpy.float32, numpy.bool_, numpy.complex64]:
        n = numpy.array([3, 1, 2, 0], dtype=dtype)
        assert_array_equal(kumo.sort_complex(kumo.asarray(n)), numpy.sort_complex(n))


# ---------------------------------------------------------------- partition
def _check_partition(got, src, kth, axis):
    want = numpy.sort(src, axis=axis)
    got = numpy.moveaxis(got, axis, -1)
    want = numpy.moveaxis(want, axis, -1)
    for k in numpy.atleast_1d(kth):
        k = int(k) % got.shape[-1]
        numpy.testing.assert_array_equal(got[..., k], want[..., k])
        pivot = want[..., k:k + 1]
        before, after = got[..., :k], got[..., k + 1:]
        if src.dtype.kind == "c":
            continue  # checked at kth; complex order is covered by sort
        with numpy.errstate(invalid="ignore"):
            assert (numpy.isnan(pivot) | (before <= pivot)).all()
            assert ((after >= pivot) | numpy.isnan(after)).all()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("kth", [0, 2, -1, [1, 3], (0, -1, 2)])
def test_partition_property(dtype, kth):
    n, k = make_pair("3d", dtype, seed=5)
    for axis in (-1, 0, 1):
        if any(not -n.shape[axis] <= x < n.shape[axis] for x in numpy.atleast_1d(kth)):
            continue
        _check_partition(kumo.asnumpy(kumo.partition(k, kth, axis=axis)), n, kth, axis)
        idx = kumo.asnumpy(kumo.argpartition(k, kth, axis=axis))
        _check_partition(numpy.take_along_axis(n, idx, axis=axis), n, kth, axis)


def test_partition_nan_and_errors():
    n = numpy.array([3.0, numpy.nan, 1.0, -0.0, numpy.inf, 2.0])
    k = kumo.asarray(n)
    for kth in range(6):
        assert_array_equal(kumo.partition(k, kth)[kth], numpy.partition(n, kth)[kth])
    with pytest.raises(ValueError, match="out of bounds"):
        kumo.partition(k, 6)
    with pytest.raises(ValueError, match="out of bounds"):
        kumo.argpartition(k, -7)
    with pytest.raises(TypeError, match="must be integer"):
        kumo.partition(k, 1.5)
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.partition(kumo.asarray(1.0), 0)
    assert_array_equal(kumo.argpartition(kumo.asarray(1.0), 0), numpy.argpartition(numpy.asarray(1.0), 0))


# ---------------------------------------------------------------- lexsort
def test_lexsort():
    a = numpy.array([1, 5, 1, 4, 3, 4, 4])
    b = numpy.array([9.0, 4.0, 0.0, 4.0, 0.0, 2.0, 1.0])
    c = numpy.array([1 + 1j, 0j, 2j, 1j, 1j, 3 + 0j, 0j])
    assert_array_equal(kumo.lexsort([kumo.asarray(b), kumo.asarray(a)]), numpy.lexsort([b, a]))
    assert_array_equal(kumo.lexsort([kumo.asarray(c), kumo.asarray(a)]), numpy.lexsort([c, a]))
    m = numpy.array([[3, 1, 2], [1, 1, 0]])
    assert_array_equal(kumo.lexsort(kumo.asarray(m), axis=0), numpy.lexsort(m, axis=0))
    assert_array_equal(kumo.lexsort(kumo.asarray(m)), numpy.lexsort(m))
    with pytest.raises(ValueError, match="same shape"):
        kumo.lexsort([kumo.asarray([1, 2]), kumo.asarray([1])])
    with pytest.raises(TypeError, match="len > 0"):
        kumo.lexsort([])


# ---------------------------------------------------------------- searchsorted
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_dtypes(dtype, side):
    rng = numpy.random.default_rng(1)
    a = numpy.sort(make_pair("1d", dtype, seed=2)[0])
    v = make_pair("3d", dtype, seed=4)[0]
    assert_array_equal(kumo.searchsorted(kumo.asarray(a), kumo.asarray(v), side=side),
                       numpy.searchsorted(a, v, side=side))
    perm = rng.permutation(a.size)
    shuffled = a[perm]
    sorter = numpy.argsort(shuffled, kind="stable")
    assert_array_equal(kumo.searchsorted(kumo.asarray(shuffled), kumo.asarray(v), side=side,
                                         sorter=kumo.asarray(sorter)),
                       numpy.searchsorted(shuffled, v, side=side, sorter=sorter))


def test_searchsorted_special_values_and_errors():
    a = numpy.sort(numpy.array(SPECIALS))
    v = numpy.array(SPECIALS[::-1] + [7.0])
    for side in ("left", "right"):
        assert_array_equal(kumo.searchsorted(kumo.asarray(a), kumo.asarray(v), side=side),
                           numpy.searchsorted(a, v, side=side))
    assert_array_equal(kumo.searchsorted(kumo.asarray(a), 1.0), numpy.searchsorted(a, 1.0))
    assert_array_equal(kumo.searchsorted(kumo.asarray([1, 2, 3], dtype="int8"), 1000),
                       numpy.searchsorted(numpy.array([1, 2, 3], numpy.int8), 1000))
    k = kumo.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="search side"):
        kumo.searchsorted(k, 1.0, side="middle")
    with pytest.raises(ValueError, match="too deep"):
        kumo.searchsorted(kumo.asarray([[1.0]]), 1.0)
    with pytest.raises(ValueError, match="sorter.size"):
        kumo.searchsorted(k, 1.0, sorter=kumo.asarray([0]))
    with pytest.raises(TypeError, match="integers"):
        kumo.searchsorted(k, 1.0, sorter=kumo.asarray([0.0, 1.0]))


# ---------------------------------------------------------------- unique
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_unique_all_outputs(layout, dtype):
    n, k = make_pair(layout, dtype, seed=6)
    got = kumo.unique(k, return_index=True, return_inverse=True, return_counts=True)
    want = numpy.unique(n, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want):
        assert_array_equal(g, w)
    assert_array_equal(kumo.unique(k), numpy.unique(n))


@pytest.mark.parametrize("equal_nan", [True, False])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES + [numpy.complex128])
def test_unique_nan(dtype, equal_nan):
    n = numpy.array(SPECIALS * 2, dtype=numpy.float64)
    n = n.astype(dtype) if numpy.dtype(dtype).kind == "f" else n + 1j * n[::-1]
    k = kumo.asarray(n)
    got = kumo.unique(k, return_counts=True, equal_nan=equal_nan)
    want = numpy.unique(n, return_counts=True, equal_nan=equal_nan)
    assert_array_equal(got[0], want[0])
    assert_array_equal(got[1], want[1])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unique_axis(axis):
    n = numpy.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [1, 0, 0]], dtype=numpy.int32)
    got = kumo.unique(kumo.asarray(n), return_index=True, return_inverse=True, return_counts=True, axis=axis)
    want = numpy.unique(n, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    for g, w in zip(got, want):
        assert_array_equal(g, w)
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.unique(kumo.asarray(n), axis=2)


def test_array_api_unique():
    n = numpy.array([[3, 1, numpy.nan], [1, 3, numpy.nan]])
    k = kumo.asarray(n)
    got, want = kumo.unique_all(k), numpy.unique_all(n)
    assert type(got).__name__ == "UniqueAllResult"
    # NumPy 2.3+ may return these unsorted; kumo's are sorted.
    order = numpy.argsort(want.values, kind="stable")
    assert_array_equal(got.values, want.values[order])
    assert_array_equal(got.indices, want.indices[order])
    assert_array_equal(got.counts, want.counts[order])
    inv = kumo.asnumpy(got.inverse_indices)
    assert inv.shape == n.shape
    numpy.testing.assert_array_equal(kumo.asnumpy(got.values)[inv], n)
    assert_array_equal(kumo.unique_counts(k).counts, numpy.array([2, 2, 1, 1]))
    assert kumo.unique_inverse(k).inverse_indices.shape == n.shape
    assert_array_equal(kumo.unique_values(k), numpy.sort(numpy.unique_values(n)))


# ---------------------------------------------------------------- set routines
SET_CASES = [
    ([1, 2, 2, 3, 7], [3, 2, 5, 5]),
    ([1.5, numpy.nan, -0.0, 4.0], [0.0, numpy.nan, 4.0]),
    ([], [1, 2]),
    ([[5, 1], [1, 9]], [9, 9, 0]),
]


@pytest.mark.parametrize("a,b", SET_CASES)
def test_set_routines(a, b):
    na, nb = numpy.asarray(a), numpy.asarray(b)
    ka, kb = kumo.asarray(na), kumo.asarray(nb)
    assert_array_equal(kumo.isin(ka, kb), numpy.isin(na, nb))
    assert_array_equal(kumo.isin(ka, kb, invert=True), numpy.isin(na, nb, invert=True))
    assert_array_equal(kumo.union1d(ka, kb), numpy.union1d(na, nb))
    assert_array_equal(kumo.setdiff1d(ka, kb), numpy.setdiff1d(na, nb))
    assert_array_equal(kumo.setxor1d(ka, kb), numpy.setxor1d(na, nb))
    assert_array_equal(kumo.intersect1d(ka, kb), numpy.intersect1d(na, nb))
    for g, w in zip(kumo.intersect1d(ka, kb, return_indices=True), numpy.intersect1d(na, nb, return_indices=True)):
        assert_array_equal(g, w)


def test_isin_kind_errors():
    with pytest.raises(ValueError, match="Invalid kind"):
        kumo.isin(kumo.asarray([1]), kumo.asarray([1]), kind="hash")
    with pytest.raises(ValueError, match="only supported for boolean or integer"):
        kumo.isin(kumo.asarray([1.0]), kumo.asarray([1.0]), kind="table")
    assert_array_equal(kumo.isin(kumo.asarray([1, 2]), kumo.asarray([2]), kind="table"), numpy.array([False, True]))


# ---------------------------------------------------------------- properties
_real_dtypes = st.sampled_from([numpy.int8, numpy.uint16, numpy.int32, numpy.int64, numpy.float16, numpy.float32,
                                numpy.float64])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_property_sort_unique_searchsorted(data):
    dtype = data.draw(_real_dtypes)
    n = data.draw(hnp.arrays(dtype, st.integers(0, 600), elements=hnp.from_dtype(numpy.dtype(dtype))))
    k = kumo.asarray(n)
    assert_array_equal(kumo.sort(k), numpy.sort(n))
    assert_array_equal(kumo.argsort(k), numpy.argsort(n, kind="stable"))
    assert_array_equal(kumo.unique(k), numpy.unique(n))
    s = numpy.sort(n)
    v = data.draw(hnp.arrays(dtype, st.integers(0, 20), elements=hnp.from_dtype(numpy.dtype(dtype))))
    for side in ("left", "right"):
        assert_array_equal(kumo.searchsorted(kumo.asarray(s), kumo.asarray(v), side=side),
                           numpy.searchsorted(s, v, side=side))


def test_lexsort_of_0d_keys_is_0d():
    got = kumo.lexsort([kumo.asarray(3.0), kumo.asarray(1)])
    want = numpy.lexsort([numpy.array(3.0), numpy.array(1)])
    assert got.shape == want.shape == ()
    assert int(got) == int(want)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if numpy.dtype(d).kind in "biuf"])
def test_array_api_unique_functions_merge_repeats_of_every_value(dtype):
    # Integer bit patterns like -2's (all ones but one) or a nonzero byte were
    # once taken for NaNs, which equal_nan=False keeps apart.
    info = numpy.iinfo(dtype) if numpy.dtype(dtype).kind in "iu" else None
    values = [1, 1, 0, 1] if dtype == numpy.bool_ else [-2, -2, 0, 3, 3, 1, -2, -1, -1]
    if info is not None:
        values = [v for v in values if info.min <= v] + [int(info.max)] * 2 + [int(info.min)] * 3
    n = numpy.array(values, dtype=dtype)
    k = kumo.asarray(n)
    r, e = kumo.unique_all(k), numpy.unique(n, return_index=True, return_inverse=True, return_counts=True)
    for got, want in zip(r, e):
        assert_array_equal(got, want)
    assert_array_equal(kumo.unique_values(k), e[0])
    assert_array_equal(kumo.unique_counts(k).counts, e[3])
    assert_array_equal(kumo.unique_inverse(k).inverse_indices, e[2])


@pytest.mark.parametrize("other", [numpy.int16, numpy.float32, numpy.uint64])
def test_setdiff1d_keeps_the_first_arrays_dtype(other):
    na, nb = numpy.array([3, 1, 2, 5, 3], numpy.int8), numpy.array([1, 2], other)
    assert_array_equal(kumo.setdiff1d(kumo.asarray(na), kumo.asarray(nb)), numpy.setdiff1d(na, nb))
    assert_array_equal(kumo.setdiff1d(kumo.asarray(na), []), numpy.setdiff1d(na, []))


@pytest.mark.parametrize("shape,axis,kth", [((0,), -1, 0), ((3, 0), 1, 0), ((0, 3), 1, 5), ((2, 0), None, -3)])
def test_partition_of_an_empty_array_checks_no_kth(shape, axis, kth):
    n = numpy.zeros(shape)
    assert_array_equal(kumo.partition(kumo.asarray(n), kth, axis=axis), numpy.partition(n, kth, axis=axis))
    assert_array_equal(kumo.argpartition(kumo.asarray(n), kth, axis=axis), numpy.argpartition(n, kth, axis=axis))


# ndarray.sort sorts where the array lies (integer rows) or through a copy
# written back (others): every dtype, views, axes.
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape,axis", [((300,), -1), ((3, 700), -1), ((700, 3), 0), ((4, 5), 0), ((0,), -1),
                                        ((70000,), -1)])
def test_ndarray_sort_in_place(dtype, shape, axis):
    rng = numpy.random.default_rng(1)
    n = rng.integers(0 if numpy.dtype(dtype).kind in "ub" else -100, 2 if dtype == numpy.bool_ else 100,
                     size=shape).astype(dtype)
    k = kumo.asarray(n)
    n.sort(axis=axis)
    k.sort(axis=axis)
    assert_array_equal(k, n)


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int32, numpy.float32])
def test_ndarray_sort_of_a_view_writes_through(dtype):
    base_n = numpy.arange(20, dtype=dtype)[::-1].copy()
    base_k = kumo.asarray(base_n)
    base_n[::2].sort()
    base_k[::2].sort()
    assert_array_equal(base_k, base_n)


def test_ndarray_sort_errors():
    with pytest.raises(ValueError, match="read-only"):
        kumo.broadcast_to(kumo.arange(3), (2, 3)).sort()
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.asarray(3).sort()
    with pytest.raises(TypeError):
        kumo.arange(3).sort(axis=None)
    with pytest.raises(ValueError):
        kumo.arange(3).sort(kind="bogus")
