"""Advanced indexing (integer and boolean arrays, mixed with basic indices)
and the index routines compared with NumPy, including random index
expressions (hypothesis) for get and set."""
import numpy
import pytest
from hypothesis import given, settings, strategies as st

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair


def _k(key):
    """The same key with NumPy arrays turned into kumo arrays."""
    if isinstance(key, tuple):
        return tuple(_k(k) for k in key)
    if isinstance(key, numpy.ndarray):
        return kumo.asarray(key)
    return key


I = numpy.array
KEYS = [
    [0, 2], [-1, 0, -1], I([1, 3]), I([[0, 1], [2, 3]]), I([], dtype=numpy.intp), [],
    (slice(None), [1, 0]), (slice(1, None), I([1, 4])), ([0, 2], [1, 3]),
    ([0, 2], slice(None)), (0, [1, 2]), (slice(None), 0, None), ([0], 0), (Ellipsis, [0, 4]),
    ([1, 2], Ellipsis, [0, 4]), (None, [1, 2]), ([1, 2], None, [0, 1]), (slice(None), None, [2, 0]),
    (I([[0], [2]]), I([1, 3])), (slice(None, None, -1), [0, 0, 4]), (1, [1, 2]), (slice(None, None, 2), [[1], [2]]),
    True, False, (True, [1, 2]), ([1, 2], True), (slice(None), True, [1, 2]), (Ellipsis, False),
    I(True), I([True, False, True, True]), (slice(None), I([True, False, True, False, True])),
    I([[True, False, True, False, True]] * 4), (I([True, False, True, False]), [0, 1]),
    (I([True, False, True, False]), I([4, 2])), numpy.int64(2), (I(1), [0, 1]),
    [I(1), 2], I([1, 2], dtype=numpy.uint8), I([-1, 0], dtype=numpy.int8),
]


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_getitem_matches_numpy(key):
    n = numpy.arange(20).reshape(4, 5)
    k = kumo.asarray(n)
    assert_array_equal(k[_k(key)], n[key])


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_getitem_with_numpy_keys(key):
    n = numpy.arange(20).reshape(4, 5)
    assert_array_equal(kumo.asarray(n)[key], n[key])


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_setitem_scalar_matches_numpy(key):
    n = numpy.arange(20).reshape(4, 5)
    k = kumo.asarray(n)
    n[key] = -7
    k[_k(key)] = -7
    assert_array_equal(k, n)


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_setitem_array_matches_numpy(key):
    n = numpy.arange(20).reshape(4, 5)
    k = kumo.asarray(n)
    shape = n[key].shape
    value = numpy.arange(numpy.prod(shape, dtype=int)).reshape(shape) + 100
    n[key] = value
    k[_k(key)] = kumo.asarray(value)
    assert_array_equal(k, n)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative", "broadcast"])
def test_integer_array_get_every_dtype_and_layout(dtype, layout):
    n, k = make_pair(layout, dtype)
    idx = numpy.array([0, -1, 1, 0]) % max(n.shape[0], 1)
    assert_array_equal(k[kumo.asarray(idx)], n[idx])
    assert_array_equal(k[..., [0, -1]], n[..., [0, -1]])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_mask_get_every_dtype_and_layout(dtype, layout):
    n, k = make_pair(layout, dtype)
    mask = numpy.asarray(n != 0) if n.dtype.kind != "b" else n.copy()
    assert_array_equal(k[kumo.asarray(mask)], n[mask])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative"])
def test_mask_set_every_dtype_and_layout(dtype, layout):
    n, k = make_pair(layout, dtype)
    n, k = n.copy(), k.copy()
    mask = numpy.arange(n.size).reshape(n.shape) % 3 == 0
    n[mask] = 1
    k[kumo.asarray(mask)] = 1
    assert_array_equal(k, n)
    values = numpy.ones(int(mask.sum()), dtype=dtype)
    n[mask] = values
    k[kumo.asarray(mask)] = kumo.asarray(values)
    assert_array_equal(k, n)


def test_issue_script_steps():
    z = kumo.arange(10) * 2
    idx = kumo.array([3, 1, 3])
    assert_array_equal(z[idx], numpy.array([6, 2, 6]))
    assert_array_equal(z[z > 10], numpy.array([12, 14, 16, 18]))
    c = kumo.arange(-5, 5)
    c[c < -2] = 0
    assert_array_equal(c, numpy.array([0, 0, 0, -2, -1, 0, 1, 2, 3, 4]))


def test_large_mask_get_and_set():
    n = numpy.random.default_rng(0).standard_normal(1_000_003).astype(numpy.float32)
    k = kumo.asarray(n)
    assert_array_equal(k[k > 0.5], n[n > 0.5])
    n[n < -1] = 0
    k[k < -1] = 0
    assert_array_equal(k, n)


def test_repeated_indices_last_value_wins():
    n = numpy.zeros(5)
    k = kumo.zeros(5)
    idx = numpy.array([1, 3, 1, 1, 3])
    n[idx] = numpy.arange(5)
    k[kumo.asarray(idx)] = kumo.arange(5)
    assert_array_equal(k, n)


def test_self_overlapping_assignment():
    n = numpy.arange(6)
    k = kumo.arange(6)
    n[[0, 1, 2, 3, 4, 5]] = n[::-1]
    k[[0, 1, 2, 3, 4, 5]] = k[::-1]
    assert_array_equal(k, n)


def test_result_is_a_copy():
    k = kumo.arange(6)
    r = k[[0, 1]]
    assert r.base is None
    r[0] = 100
    assert int(k[0]) == 0


@pytest.mark.parametrize("key", [[5], [-6], ([0], [9]), (slice(None), [7]), (0, [6])])
def test_out_of_bounds_raises_index_error(key):
    with pytest.raises(IndexError):
        numpy.zeros((5, 6))[key]
    k = kumo.zeros((5, 6))
    with pytest.raises(IndexError):
        k[key]
    with pytest.raises(IndexError):
        k[key] = 1


@pytest.mark.parametrize("key", [numpy.array([1.0]), [0.5], (0, numpy.array([1.0]))])
def test_float_index_arrays_raise_index_error(key):
    with pytest.raises(IndexError):
        numpy.zeros((3, 3))[key]
    with pytest.raises(IndexError):
        kumo.zeros((3, 3))[key]


def test_mask_shape_mismatch_raises_index_error():
    with pytest.raises(IndexError, match="boolean index did not match"):
        kumo.zeros((3, 3))[numpy.array([True, False])]


def test_index_arrays_that_do_not_broadcast_raise_index_error():
    with pytest.raises(IndexError, match="shape mismatch"):
        kumo.zeros((3, 3))[[0, 1], [0, 1, 2]]


def test_value_that_does_not_broadcast_raises_value_error():
    with pytest.raises(ValueError):
        numpy.zeros(5)[[0, 1]] = numpy.zeros(3)
    with pytest.raises(ValueError):
        kumo.zeros(5)[[0, 1]] = kumo.zeros(3)


def test_read_only_destination_raises():
    k = kumo.broadcast_to(kumo.zeros(3), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        k[[0]] = 1


# ---- random index expressions -------------------------------------------------

SHAPE = (4, 3, 5)


@st.composite
def index_expressions(draw):
    """A random index of SHAPE mixing ints, slices, None, Ellipsis, integer
    arrays (with broadcasting shapes) and boolean masks."""
    parts = []
    dim = 0
    used_ellipsis = False
    n_items = draw(st.integers(0, 4))
    for _ in range(n_items):
        choices = ["int", "slice", "none", "array", "mask", "bool"]
        if not used_ellipsis:
            choices.append("ellipsis")
        kind = draw(st.sampled_from(choices))
        remaining = len(SHAPE) - dim
        if kind in ("int", "slice", "array") and remaining == 0:
            kind = "none"
        if kind == "int":
            parts.append(draw(st.integers(-SHAPE[dim], SHAPE[dim] - 1)))
            dim += 1
        elif kind == "slice":
            parts.append(slice(draw(st.one_of(st.none(), st.integers(-6, 6))),
                               draw(st.one_of(st.none(), st.integers(-6, 6))),
                               draw(st.sampled_from([None, 1, 2, -1, -2]))))
            dim += 1
        elif kind == "none":
            parts.append(None)
        elif kind == "array":
            size = SHAPE[dim]
            shape = draw(st.sampled_from([(2,), (1,), (2, 1), (0,), (3,)]))
            vals = draw(st.lists(st.integers(-size, size - 1), min_size=int(numpy.prod(shape)),
                                 max_size=int(numpy.prod(shape))))
            parts.append(numpy.array(vals, dtype=numpy.intp).reshape(shape))
            dim += 1
        elif kind == "mask":
            k = draw(st.integers(1, max(1, min(2, remaining)))) if remaining else 0
            if k == 0:
                parts.append(draw(st.booleans()))
            else:
                parts.append(numpy.array(draw(st.lists(st.booleans(), min_size=int(numpy.prod(SHAPE[dim:dim + k])),
                                                       max_size=int(numpy.prod(SHAPE[dim:dim + k]))))
                                         ).reshape(SHAPE[dim:dim + k]))
                dim += k
        elif kind == "bool":
            parts.append(draw(st.booleans()))
        else:
            parts.append(Ellipsis)
            used_ellipsis = True
    return tuple(parts)


def _numpy_result(n, key):
    try:
        return n[key], None
    except (IndexError, ValueError) as e:
        return None, type(e)


@settings(max_examples=300, deadline=None)
@given(index_expressions())
def test_random_getitem_matches_numpy(key):
    n = numpy.arange(numpy.prod(SHAPE)).reshape(SHAPE)
    k = kumo.asarray(n)
    want, err = _numpy_result(n, key)
    if err is not None:
        with pytest.raises(err):
            k[_k(key)]
        return
    assert_array_equal(k[_k(key)], want)


@settings(max_examples=300, deadline=None)
@given(index_expressions(), st.booleans())
def test_random_setitem_matches_numpy(key, array_value):
    n = numpy.arange(numpy.prod(SHAPE)).reshape(SHAPE)
    k = kumo.asarray(n)
    want, err = _numpy_result(n, key)
    if err is not None:
        return
    value = (numpy.arange(want.size).reshape(want.shape) + 1000) if array_value else -1
    n[key] = value
    k[_k(key)] = kumo.asarray(value) if array_value else value
    assert_array_equal(k, n)


# ---- the index routines ---------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_nonzero_every_dtype_and_layout(dtype, layout):
    n, k = make_pair(layout, dtype)
    if n.ndim == 0:
        with pytest.raises(ValueError):
            numpy.nonzero(n)
        with pytest.raises(ValueError):
            kumo.nonzero(k)
        return
    want = numpy.nonzero(n)
    got = kumo.nonzero(k)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_array_equal(g, w)
    assert_array_equal(kumo.flatnonzero(k), numpy.flatnonzero(n))
    assert_array_equal(kumo.argwhere(k), numpy.argwhere(n))
    assert_array_equal(k.nonzero()[0], n.nonzero()[0])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_take_every_dtype(dtype):
    n, k = make_pair("3d", dtype)
    for axis in (None, 0, 1, -1):
        idx = numpy.array([[0, 1], [1, 0]])
        assert_array_equal(kumo.take(k, idx, axis=axis), numpy.take(n, idx, axis=axis))
    assert_array_equal(k.take([1, 0]), n.take([1, 0]))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take_modes(mode):
    n = numpy.arange(10.0)
    idx = [0, 3, 9] if mode == "raise" else [-12, 3, 25]
    assert_array_equal(kumo.take(kumo.asarray(n), idx, mode=mode), numpy.take(n, idx, mode=mode))


def test_take_errors_and_out():
    k = kumo.arange(5)
    with pytest.raises(IndexError):
        kumo.take(k, [5])
    with pytest.raises(TypeError):
        kumo.take(k, [1.0])
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.take(k, [1], axis=1)
    out = kumo.empty(2, dtype=k.dtype)
    r = kumo.take(k, [4, 1], out=out)
    assert r is out
    assert_array_equal(out, numpy.array([4, 1]))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative"])
def test_put(mode, layout):
    n, k = make_pair(layout, numpy.float64)
    n, k = n.copy(), k.copy()
    idx = [0, 2, 1] if mode == "raise" else [-100, 2, 100]
    numpy.put(n, idx, [7.0, 8.0], mode=mode)
    k.put(idx, [7.0, 8.0], mode=mode)
    assert_array_equal(k, n)


def test_put_out_of_bounds_raises():
    with pytest.raises(IndexError):
        kumo.put(kumo.zeros(3), [3], [1.0])


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_and_put_along_axis(axis):
    rng = numpy.random.default_rng(1)
    n = rng.standard_normal((3, 4))
    idx = numpy.argsort(n, axis=axis)
    k = kumo.asarray(n)
    assert_array_equal(kumo.take_along_axis(k, kumo.asarray(idx), axis=axis),
                       numpy.take_along_axis(n, idx, axis=axis))
    if axis is not None:
        numpy.put_along_axis(n, idx[:1] if axis == 0 else idx[:, :1], -1.0, axis=axis)
        kumo.put_along_axis(k, kumo.asarray(idx[:1] if axis == 0 else idx[:, :1]), -1.0, axis=axis)
        assert_array_equal(k, n)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_compress(axis):
    n = numpy.arange(12).reshape(3, 4)
    cond = [True, False, True]
    assert_array_equal(kumo.compress(cond, kumo.asarray(n), axis=axis), numpy.compress(cond, n, axis=axis))


def test_extract_place_putmask():
    n = numpy.arange(12).reshape(3, 4)
    k = kumo.asarray(n)
    assert_array_equal(kumo.extract(k % 3 == 0, k), numpy.extract(n % 3 == 0, n))
    numpy.place(n, n > 6, [44, 55])
    kumo.place(k, k > 6, [44, 55])
    assert_array_equal(k, n)
    numpy.putmask(n, n < 3, [-1, -2])
    kumo.putmask(k, k < 3, [-1, -2])
    assert_array_equal(k, n)


def test_ix_and_index_helpers():
    n = numpy.arange(20).reshape(4, 5)
    k = kumo.asarray(n)
    assert_array_equal(k[kumo.ix_([0, 2], [1, 3, 4])], n[numpy.ix_([0, 2], [1, 3, 4])])
    assert_array_equal(k[kumo.ix_([True, False, True, False], [4])], n[numpy.ix_([True, False, True, False], [4])])
    for got, want in zip(kumo.unravel_index([22, 41, 37], (7, 6)), numpy.unravel_index([22, 41, 37], (7, 6))):
        assert_array_equal(got, want)
    for got, want in zip(kumo.unravel_index([3, 5], (2, 3), order="F"), numpy.unravel_index([3, 5], (2, 3), order="F")):
        assert_array_equal(got, want)
    with pytest.raises(ValueError):
        kumo.unravel_index([6], (2, 3))
    arr = [[3, 6, 6], [4, 5, 1]]
    assert_array_equal(kumo.ravel_multi_index(arr, (7, 6)), numpy.ravel_multi_index(arr, (7, 6)))
    assert_array_equal(kumo.ravel_multi_index(arr, (4, 6), mode="clip"), numpy.ravel_multi_index(arr, (4, 6), mode="clip"))
    assert_array_equal(kumo.ravel_multi_index(arr, (4, 4), mode=("clip", "wrap")),
                       numpy.ravel_multi_index(arr, (4, 4), mode=("clip", "wrap")))
    assert_array_equal(kumo.ravel_multi_index(arr, (7, 6), order="F"), numpy.ravel_multi_index(arr, (7, 6), order="F"))
    with pytest.raises(ValueError):
        kumo.ravel_multi_index(arr, (4, 6))


@pytest.mark.parametrize("k_off", [-1, 0, 2])
def test_tri_indices(k_off):
    for got, want in zip(kumo.tril_indices(4, k_off), numpy.tril_indices(4, k_off)):
        assert_array_equal(got, want)
    for got, want in zip(kumo.triu_indices(4, k_off, 5), numpy.triu_indices(4, k_off, 5)):
        assert_array_equal(got, want)
    a = numpy.zeros((3, 5))
    for got, want in zip(kumo.triu_indices_from(kumo.asarray(a), k_off), numpy.triu_indices_from(a, k_off)):
        assert_array_equal(got, want)
    for got, want in zip(kumo.tril_indices_from(kumo.asarray(a), k_off), numpy.tril_indices_from(a, k_off)):
        assert_array_equal(got, want)
    for got, want in zip(kumo.mask_indices(3, kumo.triu, k_off), numpy.mask_indices(3, numpy.triu, k_off)):
        assert_array_equal(got, want)


def test_diag_indices_and_fill_diagonal():
    for got, want in zip(kumo.diag_indices(3, 3), numpy.diag_indices(3, 3)):
        assert_array_equal(got, want)
    for shape, wrap in [((3, 3), False), ((5, 3), False), ((7, 3), True), ((3, 5), False), ((3, 3, 3), False)]:
        n = numpy.zeros(shape)
        k = kumo.zeros(shape)
        numpy.fill_diagonal(n, [1, 2], wrap=wrap)
        kumo.fill_diagonal(k, [1, 2], wrap=wrap)
        assert_array_equal(k, n)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose(mode):
    choices = [numpy.arange(4), numpy.arange(4) * 10, numpy.arange(4) * 100]
    a = numpy.array([2, 0, 1, 1]) if mode == "raise" else numpy.array([5, -1, 1, 3])
    want = numpy.choose(a, choices, mode=mode)
    assert_array_equal(kumo.choose(kumo.asarray(a), [kumo.asarray(c) for c in choices], mode=mode), want)
    with pytest.raises(ValueError):
        kumo.choose(kumo.asarray([3]), choices)


def test_select():
    x = numpy.arange(6)
    condlist = [x < 3, x > 3]
    choicelist = [x, x ** 2]
    assert_array_equal(kumo.select([kumo.asarray(c) for c in condlist], [kumo.asarray(c) for c in choicelist], 42),
                       numpy.select(condlist, choicelist, 42))


def test_flat_get_and_set():
    n = numpy.arange(12).reshape(3, 4).T
    k = kumo.asarray(numpy.arange(12).reshape(3, 4)).T
    assert int(k.flat[5]) == n.flat[5]
    assert_array_equal(k.flat[[1, 7]], n.flat[[1, 7]])
    assert_array_equal(k.flat[2:9:3], n.flat[2:9:3])
    k.flat[[0, 11]] = -1
    n.flat[[0, 11]] = -1
    k.flat[3:5] = 9
    n.flat[3:5] = 9
    assert_array_equal(k, n)
    assert len(k.flat) == 12


# ---- ufunc.at on the array's device ------------------------------------------------

@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d is not numpy.bool_] + [numpy.bool_])
def test_add_at_every_dtype(dtype):
    n = numpy.zeros(5, dtype=dtype)
    k = kumo.zeros(5, dtype=dtype)
    idx = numpy.array([0, 1, 1, 4, 4, 4])
    vals = numpy.ones(6, dtype=dtype)
    numpy.add.at(n, idx, vals)
    kumo.add.at(k, kumo.asarray(idx), kumo.asarray(vals))
    assert_array_equal(k, n)


def test_add_at_rows_and_masks():
    n = numpy.zeros((4, 3))
    k = kumo.zeros((4, 3))
    numpy.add.at(n, ([0, 0, 2], slice(None)), numpy.arange(9.0).reshape(3, 3))
    kumo.add.at(k, ([0, 0, 2], slice(None)), kumo.arange(9.0).reshape(3, 3))
    numpy.add.at(n, n > 2, 1.0)
    kumo.add.at(k, k > 2, 1.0)
    numpy.add.at(n, (slice(1, 3), 0), 5.0)
    kumo.add.at(k, (slice(1, 3), 0), 5.0)
    assert_array_equal(k, n)


def test_ufunc_at_casts_results_back_unsafely():
    # NumPy computes in the loop's type (float64 here) and truncates back.
    n = numpy.array([1, 5, 9])
    k = kumo.asarray(n)
    numpy.add.at(n, [0, 0, 2], numpy.array([-0.5, -0.75, 0.5]))
    kumo.add.at(k, [0, 0, 2], kumo.asarray([-0.5, -0.75, 0.5]))
    assert_array_equal(k, n)


@pytest.mark.parametrize("name", ["subtract", "multiply", "maximum", "minimum", "power", "bitwise_or", "divide",
                                  "floor_divide", "logaddexp"])
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint32, numpy.int64, numpy.float32, numpy.float64,
                                   numpy.complex64])
def test_binary_ufunc_at_matches_numpy(name, dtype):
    nu = getattr(numpy, name)
    idx = numpy.array([0, 3, 3, 1, 3])
    vals = (numpy.arange(5) % 3 + 1).astype(dtype)
    n = (numpy.arange(4) + 2).astype(dtype)
    try:
        nu.at(n, idx, vals)
    except TypeError:  # no loop for the dtype
        with pytest.raises(TypeError):
            getattr(kumo, name).at(kumo.asarray((numpy.arange(4) + 2).astype(dtype)), kumo.asarray(idx),
                                   kumo.asarray(vals))
        return
    k = kumo.asarray((numpy.arange(4) + 2).astype(dtype))
    getattr(kumo, name).at(k, kumo.asarray(idx), kumo.asarray(vals))
    numpy.testing.assert_allclose(kumo.asnumpy(k), n, rtol=1e-6)


@pytest.mark.parametrize("name", ["negative", "square", "sqrt", "invert", "logical_not"])
def test_unary_ufunc_at_matches_numpy(name):
    dtype = numpy.int32 if name in ("invert",) else numpy.float64
    n = numpy.arange(6).astype(dtype)
    k = kumo.asarray(n)
    idx = ([0, 2, 2, 5],)
    try:
        getattr(numpy, name).at(n, idx)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(kumo, name).at(k, idx)
        return
    getattr(kumo, name).at(k, idx)
    numpy.testing.assert_allclose(kumo.asnumpy(k), n)


def test_ufunc_at_with_rows_scalars_and_errors():
    n = numpy.ones((3, 4))
    k = kumo.ones((3, 4))
    numpy.multiply.at(n, ([2, 0, 2], slice(None)), numpy.arange(1.0, 5.0))
    kumo.multiply.at(k, ([2, 0, 2], slice(None)), kumo.arange(1.0, 5.0))
    numpy.maximum.at(n, (slice(None), 1), 7.0)
    kumo.maximum.at(k, (slice(None), 1), 7.0)
    assert_array_equal(k, n)
    with pytest.raises(ValueError):
        kumo.multiply.at(k, [0])
    with pytest.raises(ValueError):
        kumo.negative.at(k, [0], 1.0)
    with pytest.raises(IndexError):
        kumo.multiply.at(k, [5], 2.0)
    f = kumo.zeros(3, dtype=numpy.float32)
    kumo.multiply.at(f, [0, 0], 2.5)  # a weak scalar keeps float32
    assert f.dtype == numpy.float32


def test_put_along_axis_flat():
    n = numpy.arange(12.0).reshape(3, 4)
    k = kumo.asarray(n)
    numpy.put_along_axis(n, numpy.array([0, 5, 11]), -1.0, axis=None)
    kumo.put_along_axis(k, kumo.asarray([0, 5, 11]), -1.0, axis=None)
    assert_array_equal(k, n)
    # NumPy writes through ravel(), a read-only copy for a strided array.
    with pytest.raises(ValueError):
        numpy.put_along_axis(n.T, numpy.array([0]), -1.0, axis=None)
    with pytest.raises(ValueError):
        kumo.put_along_axis(k.T, kumo.asarray([0]), -1.0, axis=None)


# 4 x 5 views of a larger base with negative strides on each subset of the
# indexed axes, offsets and steps: several index arrays are combined into
# byte offsets, which are negative here and must not be wrapped as indices.
VIEWS = {
    "rows_reversed": lambda b: b.reshape(8, 10)[:4, :5][::-1],
    "cols_reversed": lambda b: b.reshape(8, 10)[:4, :5][:, ::-1],
    "both_reversed": lambda b: b.reshape(8, 10)[::-2, ::-2],
    "transposed_reversed": lambda b: b.reshape(10, 8)[:5, 1:5].T[::-1],
    "offset_reversed": lambda b: b.reshape(8, 10)[7:3:-1, 9:4:-1],
}


def _view_pair(name):
    base = numpy.arange(80.0)
    kbase = kumo.asarray(base)
    n = VIEWS[name](base)
    k = VIEWS[name](kbase)
    assert k.strides == n.strides
    return (base, kbase), n, k


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_getitem_on_negative_stride_views(view, key):
    _, n, k = _view_pair(view)
    assert_array_equal(k[_k(key)], n[key])


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_setitem_and_augmented_assignment_reach_the_base_through_negative_strides(view, key):
    (base, kbase), n, k = _view_pair(view)
    n[key] = -7
    k[_k(key)] = -7
    n[key] += 3
    k[_k(key)] += 3
    assert_array_equal(k, n)
    assert_array_equal(kbase, base)


@pytest.mark.parametrize("view", list(VIEWS))
def test_three_index_arrays_and_along_axis_on_negative_stride_views(view):
    b3 = numpy.arange(120.0).reshape(4, 5, 6)[::-1, :, ::-2]
    k3 = kumo.asarray(numpy.arange(120.0)).reshape(4, 5, 6)[::-1, :, ::-2]
    i, j, m = I([0, 3, -1]), I([[1], [4]]), I([2, 0, 1])
    assert_array_equal(k3[_k((i, j, m))], b3[i, j, m])
    assert_array_equal(k3[_k((i, slice(None), m))], b3[i, :, m])
    assert_array_equal(k3[_k((i, 2, m))], b3[i, 2, m])
    _, n, k = _view_pair(view)
    idx = numpy.array([[3, 0, 1, 2, 4]] * 4)
    assert_array_equal(kumo.take_along_axis(k, kumo.asarray(idx), axis=1), numpy.take_along_axis(n, idx, axis=1))
    numpy.put_along_axis(n, idx[:, :2], -1.0, axis=1)
    kumo.put_along_axis(k, kumo.asarray(idx[:, :2]), -1.0, axis=1)
    assert_array_equal(k, n)
    assert_array_equal(k[kumo.ix_([0, 3], [4, 1, 2])], n[numpy.ix_([0, 3], [4, 1, 2])])
    mask = n > 40
    assert_array_equal(k[kumo.asarray(mask)], n[mask])
    n[mask] = 0.5
    k[kumo.asarray(mask)] = 0.5
    assert_array_equal(k, n)


@pytest.mark.parametrize("key", [I(1), (I(1), slice(None)), (slice(None), I(-2)), (I(1), 3), (I(0), None)],
                         ids=repr)
def test_zero_d_integer_array_index_gives_a_copy(key):
    n = numpy.arange(10).reshape(2, 5)
    k = kumo.asarray(n)
    r = k[_k(key)]
    assert_array_equal(r, n[key])
    assert not kumo.shares_memory(r, k)
    r[...] = -1
    assert_array_equal(k, n)
    n[key] = 9
    k[_k(key)] = 9
    assert_array_equal(k, n)
