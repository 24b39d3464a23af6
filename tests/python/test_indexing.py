"""Basic indexing (views) and assignment compared with NumPy (advanced indexing:
test_advanced_indexing.py)."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_numpy, make_pair, to_kumo

KEYS_3D = [0, 1, -1, -2, (1, 2), (1, -1, 3), (-2, -3, -4), slice(None), slice(1, None), slice(None, None, -1),
           slice(None, None, 2), slice(None, None, -2), slice(5, None), slice(-100, 100), slice(1, 0),
           (slice(None), slice(None, None, -2), slice(1, None)), Ellipsis, (Ellipsis, 1), (0, Ellipsis),
           (Ellipsis, 1, Ellipsis)[:2], None, (None, 0), (slice(None), None, slice(None, None, 2)),
           (Ellipsis, None), (0, Ellipsis, None, -1), (None, Ellipsis, None), (1, slice(None, None, -1), 2),
           (numpy.int64(1), numpy.int32(-1)), slice(numpy.int8(0), numpy.int8(2)), ()]


def shares_memory(a, b):
    return a._same_memory(b)


@pytest.mark.parametrize("key", KEYS_3D, ids=[repr(k) for k in KEYS_3D])
def test_getitem_3d(key):
    n = numpy.arange(24).reshape(2, 3, 4)
    k = kumo.array(n)
    r, e = k[key], numpy.asarray(n[key])
    assert_array_equal(r, e)
    if r.size:
        assert r.strides == e.strides


@pytest.mark.parametrize("key", KEYS_3D[:12], ids=[repr(k) for k in KEYS_3D[:12]])
def test_getitem_is_view(key):
    k = kumo.arange(24).reshape(2, 3, 4)
    assert shares_memory(k[key], k)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_getitem_ellipsis_is_view_of_every_layout(dtype, layout):
    n, k = make_pair(layout, dtype)
    v = k[...]
    assert_array_equal(v, n[...])
    assert v is not k and shares_memory(v, k)


@pytest.mark.parametrize("layout", ["1d", "3d", "broadcast", "transposed", "negative"])
@pytest.mark.parametrize("key", [0, -1, (slice(None, None, -1),), (Ellipsis, 0), (None, Ellipsis),
                                 (slice(1, None, 2),)])
def test_getitem_layouts(layout, key):
    n, k = make_pair(layout, numpy.float32)
    assert_array_equal(k[key], numpy.asarray(n[key]))


@pytest.mark.parametrize("key", [(), Ellipsis, None, (Ellipsis, None)])
def test_getitem_0d(key):
    n = numpy.array(5.5)
    k = kumo.array(n)
    assert_array_equal(k[key], numpy.asarray(n[key]))


def test_getitem_0d_empty_tuple_shape():
    assert kumo.array(3)[()].shape == ()


def test_getitem_0d_ellipsis_is_view():
    k = kumo.array(3)
    v = k[...]
    v[...] = 7
    assert int(k) == 7 and v.base is k


def test_integer_index_of_1d_is_0d():
    k = kumo.arange(3)
    assert k[1].shape == () and int(k[1]) == 1


@pytest.mark.parametrize("key", [3, -4, (0, 3), (1, 0, 4), (Ellipsis, -5), (2, Ellipsis)])
def test_out_of_bounds_raises_index_error(key):
    with pytest.raises(IndexError):
        numpy.zeros((2, 3, 4))[key] if key != 3 and key != -4 else numpy.zeros(3)[key]
    with pytest.raises(IndexError):
        kumo.zeros((2, 3, 4))[key] if key != 3 and key != -4 else kumo.zeros(3)[key]


@pytest.mark.parametrize("key", [(0, 0, 0, 0), (Ellipsis, 0, 0, 0, 0)])
def test_too_many_indices_raises_index_error(key):
    with pytest.raises(IndexError):
        kumo.zeros((2, 3, 4))[key]


def test_index_into_0d_raises_index_error():
    with pytest.raises(IndexError):
        kumo.array(1)[0]


def test_two_ellipses_raise_index_error():
    with pytest.raises(IndexError):
        kumo.zeros((2, 3))[..., ...]


def test_zero_slice_step_raises_value_error():
    with pytest.raises(ValueError):
        kumo.zeros(3)[::0]


@pytest.mark.parametrize("key", [1.0, "a", 2 ** 70])
def test_invalid_index_type_raises_index_error(key):
    with pytest.raises(IndexError):
        numpy.zeros(3)[key]
    with pytest.raises(IndexError):
        kumo.zeros(3)[key]


@pytest.mark.parametrize("index", [lambda m: m.array(1), lambda m: numpy.array(1, dtype=numpy.uint8),
                                   lambda m: m.array(-1, dtype=numpy.int8)])
def test_0d_integer_array_index_acts_as_integer(index):
    n = numpy.arange(12).reshape(3, 4)
    k = kumo.array(n)
    assert_array_equal(k[index(kumo)], n[index(numpy)])
    assert_array_equal(k[:, index(kumo)], n[:, index(numpy)])


# ---- assignment ----

@pytest.mark.parametrize("key,value", [(0, 5), ((slice(None), 1), [1, 2]), (Ellipsis, [0, 1, 2]),
                                       ((0, slice(None, None, -1)), [7, 8, 9]), ((1, 2), -3), (slice(None), [[4], [5]]),
                                       ((slice(None), slice(None, None, 2)), 2.5), ((None, 1), [1, 2, 3])])
def test_setitem(key, value):
    n = numpy.zeros((2, 3))
    k = kumo.zeros((2, 3))
    n[key] = value
    k[key] = value
    assert_array_equal(k, n)


@pytest.mark.parametrize("layout", ["0d", "empty", "1d", "3d", "transposed", "negative"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_setitem_scalar_every_layout(dtype, layout):
    n, k = make_pair(layout, dtype)
    n = n.copy()
    n[...] = 1
    k[...] = 1
    assert_array_equal(k, n)


@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative"])
def test_setitem_through_view_writes_base(layout):
    n, k = make_pair(layout, numpy.int32)
    n = n.copy()
    n[0] = 42
    k[0] = 42
    assert_array_equal(k, n)


@pytest.mark.parametrize("src_layout", ["0d", "1d", "broadcast", "transposed", "negative"])
def test_setitem_array_value_broadcasts(src_layout):
    src_n, src_k = make_pair(src_layout, numpy.float64, seed=3)
    shape = (3, 4) if src_layout != "1d" else (2, 7)
    if src_layout in ("transposed", "negative"):
        shape = (2,) + src_n.shape
    n = numpy.zeros(shape)
    k = kumo.zeros(shape)
    n[...] = src_n
    k[...] = src_k
    assert_array_equal(k, n)


def test_setitem_numpy_array_value():
    k = kumo.zeros((2, 3))
    k[1] = numpy.array([1.5, 2.5, 3.5], dtype=numpy.float32)
    assert_array_equal(k, numpy.array([[0, 0, 0], [1.5, 2.5, 3.5]]))


@pytest.mark.parametrize("dst_dtype,src_dtype", [(numpy.float32, numpy.int64), (numpy.int16, numpy.float64),
                                                 (numpy.bool_, numpy.int8), (numpy.complex64, numpy.float16),
                                                 (numpy.uint8, numpy.int8)])
def test_setitem_casts_array_values(dst_dtype, src_dtype):
    src = numpy.array([-1.75, 0, 2.5, 3]).astype(src_dtype)
    n = numpy.zeros(4, dtype=dst_dtype)
    k = kumo.zeros(4, dtype=dst_dtype)
    n[:] = src
    k[:] = kumo.array(src)
    assert_array_equal(k, n)


def test_setitem_value_with_leading_unit_axes():
    n = numpy.zeros((2, 3))
    k = kumo.zeros((2, 3))
    n[0] = numpy.ones((1, 1, 3))
    k[0] = kumo.ones((1, 1, 3))
    assert_array_equal(k, n)


def test_setitem_0d_from_one_element_array():
    n = numpy.zeros(())
    k = kumo.zeros(())
    n[...] = numpy.array([3.0])
    k[...] = kumo.array([3.0])
    assert_array_equal(k, n)


@pytest.mark.parametrize("dst_shape,key,value_shape", [((2, 3), slice(None), (4,)), ((2, 3), 0, (2, 3)),
                                                       ((3,), slice(None), (2,)), ((), Ellipsis, (2,)),
                                                       ((2, 3), (slice(None), 0), (3,))])
def test_setitem_shape_mismatch_raises_value_error(dst_shape, key, value_shape):
    with pytest.raises(ValueError):
        numpy.zeros(dst_shape)[key] = numpy.ones(value_shape)
    with pytest.raises(ValueError, match="could not broadcast"):
        kumo.zeros(dst_shape)[key] = kumo.ones(value_shape)


def test_setitem_list_shape_mismatch_raises_value_error():
    with pytest.raises(ValueError):
        kumo.zeros(3)[:] = [1, 2]


@pytest.mark.parametrize("value", [1, 1.5, [1, 2, 3]])
def test_setitem_broadcast_view_is_read_only(value):
    k = kumo.broadcast_to(kumo.arange(3.0), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        k[...] = value


def test_setitem_read_only_array_raises():
    k = kumo.arange(3)
    k.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        k[1:] = kumo.arange(2)


@pytest.mark.parametrize("dtype,value", [(numpy.int8, 1000), (numpy.int8, -129), (numpy.uint8, -1), (numpy.uint8, 256),
                                         (numpy.int16, 2 ** 15), (numpy.uint64, 2 ** 64), (numpy.int64, 2 ** 63)])
def test_setitem_out_of_range_python_int_raises_overflow(dtype, value):
    with pytest.raises(OverflowError):
        numpy.zeros(2, dtype=dtype)[0] = value
    with pytest.raises(OverflowError):
        kumo.zeros(2, dtype=dtype)[0] = value


@pytest.mark.parametrize("dtype,value", [(numpy.int8, 127), (numpy.int8, -128), (numpy.uint8, 255),
                                         (numpy.uint64, 2 ** 64 - 1), (numpy.int64, -2 ** 63)])
def test_setitem_python_int_at_limits(dtype, value):
    n = numpy.zeros(2, dtype=dtype)
    k = kumo.zeros(2, dtype=dtype)
    n[0] = value
    k[0] = value
    assert_array_equal(k, n)


def test_setitem_list_with_out_of_range_int_raises_overflow():
    with pytest.raises(OverflowError):
        kumo.zeros(2, dtype=numpy.int8)[:] = [1000, 2]


def test_setitem_numpy_scalar_out_of_range_raises_overflow():
    with pytest.raises(OverflowError):
        numpy.zeros(2, dtype=numpy.int8)[0] = numpy.int64(1000)
    with pytest.raises(OverflowError):
        kumo.zeros(2, dtype=numpy.int8)[0] = numpy.int64(1000)


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int32, numpy.uint16, numpy.int64])
@pytest.mark.parametrize("value", [2.9, -2.9, 0.5, 100.99])
def test_setitem_float_into_int_truncates(dtype, value):
    if value < 0 and numpy.dtype(dtype).kind == "u":
        pytest.skip("negative float into unsigned is undefined in C")
    n = numpy.zeros(2, dtype=dtype)
    k = kumo.zeros(2, dtype=dtype)
    n[0] = value
    k[0] = value
    assert_array_equal(k, n)


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_setitem_non_finite_float_into_int_raises(value):
    with pytest.raises((ValueError, OverflowError)):
        numpy.zeros(2, dtype=numpy.int32)[0] = value
    with pytest.raises((ValueError, OverflowError)):
        kumo.zeros(2, dtype=numpy.int32)[0] = value


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64])
def test_setitem_complex_into_real_raises_type_error(dtype):
    with pytest.raises(TypeError):
        numpy.zeros(2, dtype=dtype)[0] = 1 + 2j
    with pytest.raises(TypeError):
        kumo.zeros(2, dtype=dtype)[0] = 1 + 2j


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.float16, numpy.complex64])
@pytest.mark.parametrize("value", [0, 3, 2.5, True, numpy.float32(1.25), None])
def test_setitem_scalar_conversions(dtype, value):
    n = numpy.zeros(2, dtype=dtype)
    k = kumo.zeros(2, dtype=dtype)
    try:
        n[0] = value
    except TypeError:
        with pytest.raises(TypeError):
            k[0] = value
        return
    k[0] = value
    assert_array_equal(k, n)


def test_setitem_string_number_into_float():
    n = numpy.zeros(2)
    k = kumo.zeros(2)
    n[0] = "2.5"
    k[0] = "2.5"
    assert_array_equal(k, n)


def test_setitem_overlapping_self_assignment():
    n = numpy.arange(6)
    k = kumo.arange(6)
    n[1:] = n[:-1]
    k[1:] = k[:-1]
    assert_array_equal(k, n)


def test_setitem_reversed_self_assignment():
    n = numpy.arange(6)
    k = kumo.arange(6)
    n[::-1] = n
    k[::-1] = k
    assert_array_equal(k, n)


def test_setitem_0d_integer_array_key():
    n = numpy.zeros(4)
    k = kumo.zeros(4)
    n[numpy.array(2)] = 1
    k[kumo.array(2)] = 1
    assert_array_equal(k, n)


def test_setitem_out_of_bounds_raises_index_error():
    with pytest.raises(IndexError):
        kumo.zeros(3)[3] = 1


# nonzero/flatnonzero/argwhere read number arrays as they are (x != 0), with
# NaN nonzero and -0.0 zero, over every dtype and layout.
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", [l for l in LAYOUTS if l != "0d"])
@pytest.mark.parametrize("fn", ["nonzero", "flatnonzero", "argwhere"])
def test_nonzero_of_values(dtype, layout, fn):
    n = make_numpy(layout, dtype, seed=5, low=-1, high=2)
    if n.dtype.kind == "f" and n.size > 1:
        n = n.copy()
        n.flat[0] = numpy.nan
        n.flat[1] = -0.0
    want = getattr(numpy, fn)(n)
    got = getattr(kumo, fn)(to_kumo(n))
    if fn == "nonzero":
        assert len(got) == len(want)
        for g, w in zip(got, want):
            numpy.testing.assert_array_equal(kumo.asnumpy(g), w)
    else:
        numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


# A Python float assigned into an integer array goes through int(), as NumPy's
# setitem does: truncated, and NaN/inf/out-of-range values raise.
FLOAT_INTO_INT = [-1.75, 300.0, 2.5, -0.5, float("nan"), float("inf"), 1e30, 1e19, 9.3e18, -9.3e18]


def _assign_both(dtype, value, assign):
    outcome = []
    for xp in (numpy, kumo):
        a = xp.zeros(3, dtype)
        try:
            assign(xp, a, value)
            outcome.append(numpy.asarray(kumo.asnumpy(a) if xp is kumo else a))
        except (ValueError, OverflowError) as e:
            outcome.append(type(e))
    if isinstance(outcome[0], type) or isinstance(outcome[1], type):
        assert outcome[0] is outcome[1]
    else:
        numpy.testing.assert_array_equal(outcome[1], outcome[0])


ASSIGNMENTS = {
    "index": lambda xp, a, v: a.__setitem__(0, v),
    "slice": lambda xp, a, v: a.__setitem__(slice(1, None), v),
    "ellipsis": lambda xp, a, v: a.__setitem__(Ellipsis, v),
    "integer array": lambda xp, a, v: a.__setitem__(xp.asarray([0, 2]), v),
    "mask": lambda xp, a, v: a.__setitem__(xp.asarray([True, False, True]), v),
    "fill": lambda xp, a, v: a.fill(v),
    "put": lambda xp, a, v: xp.put(a, [1], v),
}


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int64", "uint64", "bool", "float32"])
@pytest.mark.parametrize("value", FLOAT_INTO_INT)
@pytest.mark.parametrize("how", list(ASSIGNMENTS))
def test_python_float_assigned_into_array(dtype, value, how):
    with numpy.errstate(all="ignore"):
        _assign_both(dtype, value, ASSIGNMENTS[how])


@pytest.mark.parametrize("fn", ["take", "compress"])
def test_take_from_an_empty_array_checks_no_index(fn):
    # NumPy moves nothing, so an index past a non-empty axis of an empty array is not an error.
    for xp in (numpy, kumo):
        a = xp.zeros((0, 1, 4))
        if fn == "take":
            r = xp.take(a, xp.asarray([5, 1]), axis=1)
        else:
            r = xp.compress(xp.asarray([False, True, True]), a, axis=1)
        assert r.shape == ((0, 2, 4) if fn == "take" else (0, 2, 4))
    with pytest.raises(IndexError):
        kumo.take(kumo.zeros((0, 1)), kumo.asarray([1]), axis=0)
    # An empty array whose axes before `axis` are not empty: NumPy checks.
    for xp in (numpy, kumo):
        with pytest.raises(IndexError):
            xp.compress(xp.asarray([False, False, True]), xp.zeros((1, 0, 5)), axis=0)
