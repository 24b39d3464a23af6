"""flip, roll, rot90, resize, append, insert, delete, trim_zeros and vander
compared with NumPy 2.4 over dtypes, layouts and the argument forms."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair


def same(fn_np, fn_k):
    """Both raise the same exception type, or give equal arrays."""
    try:
        want = fn_np()
    except Exception as e:  # noqa: BLE001 (the exception type is what is compared)
        with pytest.raises(type(e)):
            fn_k()
        return None
    got = fn_k()
    assert_array_equal(got, want)
    return got


def _axes(ndim):
    return [None] + list(range(-ndim, ndim))


# ---------------------------------------------------------------- flip
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_flip_axes(layout, dtype):
    n, k = make_pair(layout, dtype)
    for axis in _axes(n.ndim) + ([(0, -1)] if n.ndim > 1 else []):
        r = same(lambda: numpy.flip(n, axis), lambda: kumo.flip(k, axis))
        assert r.base is not None or r.size == 0 or n.ndim == 0


def test_flip_is_view():
    k = kumo.arange(6).reshape(2, 3)
    f = kumo.flip(k, 1)
    f[0, 0] = 100
    assert int(k[0, 2]) == 100


@pytest.mark.parametrize("axis", [2, -3, (0, 0), (0, 5)])
def test_flip_bad_axis(axis):
    n = numpy.zeros((2, 3))
    same(lambda: numpy.flip(n, axis), lambda: kumo.flip(kumo.asarray(n), axis))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_fliplr_flipud(layout):
    n, k = make_pair(layout, numpy.int32)
    same(lambda: numpy.fliplr(n), lambda: kumo.fliplr(k))
    same(lambda: numpy.flipud(n), lambda: kumo.flipud(k))


# ---------------------------------------------------------------- roll
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_roll_layouts(layout, dtype):
    n, k = make_pair(layout, dtype)
    for axis in _axes(n.ndim):
        for shift in (1, -2, 9):
            same(lambda: numpy.roll(n, shift, axis), lambda: kumo.roll(k, shift, axis))


@pytest.mark.parametrize("shift,axis", [((1, 2), (0, 1)), ((1, -1), 0), (3, (1, 0, 1)), ((1, 2), None),
                                        ((1, 2, 3), (0, 1)), ([[1]], 0), (1, 3), (0, (0, 1))])
def test_roll_tuples(shift, axis):
    n = numpy.arange(24).reshape(4, 6)
    same(lambda: numpy.roll(n, shift, axis), lambda: kumo.roll(kumo.asarray(n), shift, axis))


def test_roll_returns_copy():
    k = kumo.arange(5)
    r = kumo.roll(k, 0)
    r[0] = 9
    assert int(k[0]) == 0


# ---------------------------------------------------------------- rot90
@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative", "broadcast", "empty"])
@pytest.mark.parametrize("k_turns", [-1, 0, 1, 2, 3, 4, 5])
def test_rot90(layout, k_turns):
    n, k = make_pair(layout, numpy.float32)
    for axes in [(0, 1), (1, 0), (-1, 0), (0, 2), (0, 0), (0, 5), (0, 1, 2)]:
        same(lambda: numpy.rot90(n, k_turns, axes), lambda: kumo.rot90(k, k_turns, axes))


def test_rot90_is_view():
    k = kumo.arange(6).reshape(2, 3)
    r = kumo.rot90(k)
    r[0, 0] = 50
    assert int(k[0, 2]) == 50


# ---------------------------------------------------------------- resize / append
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_resize(layout, dtype):
    n, k = make_pair(layout, dtype)
    for shape in [5, (2, 7), (0,), (3, 0), (), (4, 4, 4)]:
        same(lambda: numpy.resize(n, shape), lambda: kumo.resize(k, shape))


def test_resize_negative():
    same(lambda: numpy.resize(numpy.arange(3), (2, -1)), lambda: kumo.resize(kumo.arange(3), (2, -1)))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.uint8, numpy.int64, numpy.float16, numpy.complex64])
def test_append(layout, dtype):
    n, k = make_pair(layout, dtype)
    v = numpy.ones(n.shape, dtype=numpy.float32)
    for axis in _axes(n.ndim):
        same(lambda: numpy.append(n, v, axis), lambda: kumo.append(k, kumo.asarray(v), axis))
    same(lambda: numpy.append(n, [7, 8]), lambda: kumo.append(k, [7, 8]))


# ---------------------------------------------------------------- insert
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("obj", [0, 2, -1, 4, [1], [0, 2, 2], [3, 0, -1], slice(None, None, 2), slice(1, 3),
                                 [], numpy.array([True, False, True, False]), 9, [9], [1.5]])
def test_insert_positions(dtype, obj):
    n = make_pair("3d", dtype)[0].reshape(4, 6)[:, ::-1]
    k = kumo.asarray(numpy.ascontiguousarray(n))[:, :]
    for axis in (0, 1, -1):
        same(lambda: numpy.insert(n, obj, 1, axis=axis), lambda: kumo.insert(k, obj, 1, axis=axis))
    same(lambda: numpy.insert(n, obj, 3), lambda: kumo.insert(k, obj, 3))


@pytest.mark.parametrize("values", [[[1, 2, 3, 4]], [1, 2, 3, 4], [[1], [2], [3], [4]], 7.5, [[1, 2], [3, 4]]])
@pytest.mark.parametrize("obj", [1, [1], [1, 3]])
def test_insert_values_shapes(values, obj):
    n = numpy.arange(16, dtype=numpy.int16).reshape(4, 4)
    same(lambda: numpy.insert(n, obj, values, axis=1), lambda: kumo.insert(kumo.asarray(n), obj, values, axis=1))


def test_insert_bad_args():
    n = numpy.arange(6).reshape(2, 3)
    k = kumo.asarray(n)
    for obj, axis in [([[1]], 1), (1, 2), (numpy.array([[True]]), 1)]:
        same(lambda: numpy.insert(n, obj, 0, axis=axis), lambda: kumo.insert(k, obj, 0, axis=axis))


# ---------------------------------------------------------------- delete
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_delete_layouts(layout, dtype):
    n, k = make_pair(layout, dtype)
    for axis in _axes(n.ndim):
        for obj in (0, -1, [0, 1], slice(None, None, 2), slice(None, None, -3), slice(5, 1, -1), slice(3, 3),
                    numpy.array([], dtype=numpy.int64), [], [1, 1, 0]):
            same(lambda: numpy.delete(n, obj, axis), lambda: kumo.delete(k, obj, axis))


@pytest.mark.parametrize("obj", [7, -8, [7], [1.0], numpy.array([True, False]),
                                 numpy.array([True, False, True, False, False, True, True])])
def test_delete_errors_and_masks(obj):
    n = numpy.arange(7)
    same(lambda: numpy.delete(n, obj), lambda: kumo.delete(kumo.asarray(n), obj))


def test_delete_is_copy():
    k = kumo.arange(4)
    r = kumo.delete(k, slice(5, 6))
    r[0] = 9
    assert int(k[0]) == 0


# ---------------------------------------------------------------- trim_zeros
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF", "x"])
def test_trim_zeros_1d(dtype, trim):
    for vals in ([0, 0, 1, 0, 1, 0], [0, 0, 0], [1, 1], []):
        n = numpy.array(vals, dtype=dtype)
        same(lambda: numpy.trim_zeros(n, trim), lambda: kumo.trim_zeros(kumo.asarray(n), trim))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, 2])
@pytest.mark.parametrize("trim", ["fb", "f", "b"])
def test_trim_zeros_nd(axis, trim):
    n = numpy.zeros((5, 6), dtype=numpy.float64)
    n[1, 2] = 1
    n[3, 4] = -2
    same(lambda: numpy.trim_zeros(n, trim, axis), lambda: kumo.trim_zeros(kumo.asarray(n), trim, axis))
    z = numpy.zeros((3, 4))
    same(lambda: numpy.trim_zeros(z, trim, axis), lambda: kumo.trim_zeros(kumo.asarray(z), trim, axis))


def test_trim_zeros_view_and_list():
    k = kumo.asarray([0, 3, 4, 0])
    t = kumo.trim_zeros(k)
    t[0] = 7
    assert int(k[1]) == 7
    assert kumo.trim_zeros([0, 1, 2, 0, 0]) == numpy.trim_zeros([0, 1, 2, 0, 0])


# ---------------------------------------------------------------- vander
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("N", [None, 0, 1, 4])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(dtype, N, increasing):
    n = make_pair("1d", dtype)[0]
    got = kumo.vander(kumo.asarray(n), N, increasing)
    want = numpy.vander(n, N, increasing)
    assert_array_equal(got, want)


def test_vander_layouts_and_errors():
    n = numpy.arange(10.0)[::-3]
    assert_array_equal(kumo.vander(kumo.asarray(numpy.arange(10.0))[::-3]), numpy.vander(n))
    same(lambda: numpy.vander(numpy.ones((2, 2))), lambda: kumo.vander(kumo.ones((2, 2))))
    same(lambda: numpy.vander(numpy.ones(2), -1), lambda: kumo.vander(kumo.ones(2), -1))
