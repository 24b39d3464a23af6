"""numpy.pad compared with NumPy 2.4: every mode over dtypes and layouts,
the pad_width / stat_length / constant_values / end_values forms,
reflect_type, the dict form, a callable mode, and the errors."""
import warnings

import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair

MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric", "wrap"]


def same(fn_np, fn_k):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = fn_np()
    except Exception as e:  # noqa: BLE001 (the exception type is what is compared)
        with pytest.raises(type(e)):
            fn_k()
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = fn_k()
    if want.dtype.kind in "fc" and want.size:
        # mean/median/linear_ramp compute in floating point like NumPy; the
        # summation order of a mean may differ in the last bit.
        numpy.testing.assert_allclose(kumo.asnumpy(got), want, rtol=2e-3 if want.dtype == numpy.float16 else 1e-6)
        assert got.dtype == want.dtype and got.shape == want.shape
    else:
        assert_array_equal(got, want)
    return got


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_pad_modes(mode, layout, dtype):
    n, k = make_pair(layout, dtype)
    for width in (0, 2, ((1, 3),) * n.ndim if n.ndim else 1, 9):
        if mode in ("linear_ramp", "mean", "median") and dtype == numpy.bool_:
            continue  # NumPy's float -> bool stores of these need no separate check
        same(lambda: numpy.pad(n, width, mode), lambda: kumo.pad(k, width, mode))


@pytest.mark.parametrize("mode", MODES + ["empty"])
def test_pad_empty_input(mode):
    n = numpy.zeros((0, 3))
    for width in (((0, 0), (1, 2)), ((1, 0), (0, 0)), 1):
        if mode == "empty":
            # The new elements are uninitialised: only the shape and dtype are defined.
            r, want = kumo.pad(kumo.asarray(n), width, mode), numpy.pad(n, width, mode)
            assert r.shape == want.shape and r.dtype == want.dtype
            continue
        same(lambda: numpy.pad(n, width, mode), lambda: kumo.pad(kumo.asarray(n), width, mode))


def test_pad_empty_mode_shape():
    k = kumo.pad(kumo.ones((2, 3), numpy.int8), ((1, 2), (3, 4)), "empty")
    assert k.shape == (5, 10) and k.dtype == numpy.int8
    assert_array_equal(k[1:3, 3:6], numpy.ones((2, 3), numpy.int8))


@pytest.mark.parametrize("width", [3, (3,), (1, 2), ((1, 2),), ((1, 2), (3, 0)), [[0, 4], [2, 1]], 2.4,
                                   numpy.array([1, 2]), ((1, 2, 3),), -1, ((1, -2), (0, 0)), ((1, 2), (3, 4), (5, 6))])
def test_pad_width_forms(width):
    n = numpy.arange(12.0).reshape(3, 4)
    same(lambda: numpy.pad(n, width), lambda: kumo.pad(kumo.asarray(n), width))


def test_pad_width_dict():
    n = numpy.arange(12).reshape(3, 4)
    for width in ({0: 1}, {1: (2, 3)}, {-1: 2, 0: (0, 1)}):
        same(lambda: numpy.pad(n, width), lambda: kumo.pad(kumo.asarray(n), width))


@pytest.mark.parametrize("values", [5, (1, 2), ((1, 2), (3, 4)), 2.7, -1, 300, [[7], [8]]])
@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int32, numpy.float32, numpy.complex64])
def test_pad_constant_values(values, dtype):
    n = numpy.arange(6, dtype=dtype).reshape(2, 3)
    same(lambda: numpy.pad(n, ((1, 2), (2, 1)), constant_values=values),
         lambda: kumo.pad(kumo.asarray(n), ((1, 2), (2, 1)), constant_values=values))


@pytest.mark.parametrize("end_values", [0, 5, (1, -3), ((1, 2), (10, 20))])
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint16, numpy.float64, numpy.complex128])
def test_pad_linear_ramp_end_values(end_values, dtype):
    n = (numpy.arange(12).reshape(3, 4) * 3).astype(dtype)
    same(lambda: numpy.pad(n, ((4, 3), (2, 5)), "linear_ramp", end_values=end_values),
         lambda: kumo.pad(kumo.asarray(n), ((4, 3), (2, 5)), "linear_ramp", end_values=end_values))


@pytest.mark.parametrize("mode", ["maximum", "mean", "median", "minimum"])
@pytest.mark.parametrize("stat_length", [None, 1, 2, (1, 3), ((2, 1), (3, 2)), 100, 0, -1])
@pytest.mark.parametrize("dtype", [numpy.int16, numpy.uint8, numpy.float32, numpy.float64])
def test_pad_stat_length(mode, stat_length, dtype):
    n = numpy.array([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3], [5, 8, 9, 7, 9], [3, 2, 3, 8, 4]], dtype=dtype)
    same(lambda: numpy.pad(n, ((2, 3), (4, 1)), mode, stat_length=stat_length),
         lambda: kumo.pad(kumo.asarray(n), ((2, 3), (4, 1)), mode, stat_length=stat_length))


def test_pad_median_nan_and_rounding():
    n = numpy.array([1.0, numpy.nan, 3.0, 2.0])
    same(lambda: numpy.pad(n, 2, "median"), lambda: kumo.pad(kumo.asarray(n), 2, "median"))
    i = numpy.array([1, 2, 4, 7], numpy.int32)  # medians and means that end in .5 round to even
    for mode in ("mean", "median"):
        for sl in (2, 4):
            same(lambda: numpy.pad(i, 2, mode, stat_length=sl), lambda: kumo.pad(kumo.asarray(i), 2, mode,
                                                                                  stat_length=sl))


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("reflect_type", ["even", "odd"])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.uint8, numpy.int64, numpy.float16, numpy.complex64])
def test_pad_reflect_type(mode, reflect_type, dtype):
    n = make_pair("3d", dtype)[0]
    for width in (1, 3, 7, ((0, 5), (9, 1), (2, 11))):
        same(lambda: numpy.pad(n, width, mode, reflect_type=reflect_type),
             lambda: kumo.pad(kumo.asarray(n), width, mode, reflect_type=reflect_type))


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap", "edge"])
def test_pad_singleton_and_long_widths(mode):
    n = numpy.array([[5.0, 6.0, 7.0]])
    for width in (((3, 2), (0, 0)), ((1, 1), (8, 10))):
        same(lambda: numpy.pad(n, width, mode), lambda: kumo.pad(kumo.asarray(n), width, mode))


def test_pad_callable():
    def pad_with(vector, pad_width, iaxis, kwargs):
        pad_value = kwargs.get("padder", 10)
        vector[:pad_width[0]] = pad_value
        if pad_width[1]:
            vector[-pad_width[1]:] = pad_value

    n = numpy.arange(6).reshape(2, 3)
    same(lambda: numpy.pad(n, 2, pad_with), lambda: kumo.pad(kumo.asarray(n), 2, pad_with))
    same(lambda: numpy.pad(n, 1, pad_with, padder=-1), lambda: kumo.pad(kumo.asarray(n), 1, pad_with, padder=-1))


def test_pad_errors():
    n = numpy.arange(6).reshape(2, 3)
    k = kumo.asarray(n)
    for kwargs in ({"mode": "bogus"}, {"mode": "edge", "constant_values": 1}, {"mode": "constant", "stat_length": 1},
                   {"mode": "maximum", "stat_length": 0}):
        same(lambda: numpy.pad(n, 1, **kwargs), lambda: kumo.pad(k, 1, **kwargs))
    same(lambda: numpy.pad(n, 1.5), lambda: kumo.pad(k, 1.5))
    same(lambda: numpy.pad(n, ((1, 2), (1, 2), (1, 2))), lambda: kumo.pad(k, ((1, 2), (1, 2), (1, 2))))
    same(lambda: numpy.pad(numpy.arange(3, dtype=numpy.int8), 1, constant_values=1000),
         lambda: kumo.pad(kumo.arange(3, dtype=numpy.int8), 1, constant_values=1000))


def test_pad_result_is_new_and_f_order():
    a = kumo.arange(12.0).reshape(4, 3).T
    p = kumo.pad(a, 1, "edge")
    assert p.flags.f_contiguous and not p.flags.c_contiguous
    assert_array_equal(p, numpy.pad(numpy.arange(12.0).reshape(4, 3).T, 1, "edge"))
    p[1, 1] = -5
    assert float(a[0, 0]) == 0


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("view", ["c", "rows_reversed", "sliced", "3d"])
def test_pad_long_rows(dtype, view):
    # Rows of 64+ elements take the row-by-row copy of the middle.
    base = (numpy.arange(5 * 7 * 100) % 11).astype(dtype).reshape(5 * 7, 100)
    n = {"c": base, "rows_reversed": base[::-1], "sliced": base[1:30:3, 5:90], "3d": base.reshape(5, 7, 100)}[view]
    k = kumo.asarray(base)
    k = {"c": k, "rows_reversed": k[::-1], "sliced": k[1:30:3, 5:90], "3d": k.reshape(5, 7, 100)}[view]
    for mode in ("constant", "edge", "reflect"):
        assert_array_equal(kumo.pad(k, 3, mode), numpy.pad(n, 3, mode))
