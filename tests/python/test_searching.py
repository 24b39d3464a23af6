"""where, clip, real, imag, angle compared with NumPy 2."""
import warnings

import numpy
import pytest

import kumo
from conftest import (ALL_DTYPES, COMPLEX_DTYPES, LAYOUTS, NUMERIC_DTYPES, assert_allclose, assert_array_equal,
                      assert_same,
                      make_pair)


_same = assert_same


# ---------------------------------------------------------------- where
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_where_layouts_dtypes(layout, dtype):
    nx, kx = make_pair(layout, dtype, seed=1)
    ny, ky = make_pair(layout, dtype, seed=2)
    nc, kc = make_pair(layout, numpy.bool_, seed=3)
    assert_array_equal(kumo.where(kc, kx, ky), numpy.where(nc, nx, ny))


@pytest.mark.parametrize("cond_dtype", [numpy.int32, numpy.float64, numpy.complex64])
def test_where_non_bool_condition(cond_dtype):
    nc, kc = make_pair("3d", cond_dtype, seed=4)
    nx, kx = make_pair("3d", numpy.float32, seed=1)
    assert_array_equal(kumo.where(kc, kx, 0.5), numpy.where(nc, nx, 0.5))


def test_where_broadcast():
    nc = numpy.array([True, False, True, False])
    nx = numpy.arange(12, dtype=numpy.int64).reshape(3, 1, 4)
    ny = numpy.array([[-1], [-2]], dtype=numpy.int64)
    assert_array_equal(kumo.where(kumo.asarray(nc), kumo.asarray(nx), kumo.asarray(ny)), numpy.where(nc, nx, ny))


def test_where_broadcast_mismatch():
    with pytest.raises(ValueError):
        kumo.where(kumo.ones((2, 3), dtype=bool), kumo.ones(4), kumo.ones(3))


@pytest.mark.parametrize("xd,yd", [(numpy.int8, numpy.uint8), (numpy.int32, numpy.float32),
                                   (numpy.int64, numpy.uint64), (numpy.float16, numpy.complex64),
                                   (numpy.bool_, numpy.int16)])
def test_where_promotion(xd, yd):
    nc, kc = make_pair("1d", numpy.bool_, seed=3)
    nx, kx = make_pair("1d", xd, seed=1)
    ny, ky = make_pair("1d", yd, seed=2)
    assert_array_equal(kumo.where(kc, kx, ky), numpy.where(nc, nx, ny))


@pytest.mark.parametrize("x,y", [(1, 2.5), (True, 0), (1j, 0), (3, -4), (0.5, 1.5)])
def test_where_python_scalars(x, y):
    nc, kc = make_pair("3d", numpy.bool_, seed=3)
    assert_array_equal(kumo.where(kc, x, y), numpy.where(nc, x, y))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint8, numpy.float32, numpy.float16])
def test_where_weak_scalar_keeps_array_dtype(dtype):
    nc, kc = make_pair("3d", numpy.bool_, seed=3)
    nx, kx = make_pair("3d", dtype, seed=1)
    assert_array_equal(kumo.where(kc, kx, 1), numpy.where(nc, nx, 1))
    assert_array_equal(kumo.where(kc, 2, kx), numpy.where(nc, 2, nx))


def test_where_numpy_scalar_is_strong():
    nc, kc = make_pair("1d", numpy.bool_, seed=3)
    nx, kx = make_pair("1d", numpy.int8, seed=1)
    assert_array_equal(kumo.where(kc, kx, numpy.int64(7)), numpy.where(nc, nx, numpy.int64(7)))


def test_where_scalar_condition():
    nx, kx = make_pair("3d", numpy.float64, seed=1)
    assert_array_equal(kumo.where(True, kx, -1.0), numpy.where(True, nx, -1.0))
    assert_array_equal(kumo.where(kumo.asarray(False), kx, -1.0), numpy.where(False, nx, -1.0))


def test_where_0d():
    assert_array_equal(kumo.where(kumo.asarray(True), 1, 2), numpy.where(numpy.asarray(True), 1, 2))


def test_where_one_of_x_y_missing():
    with pytest.raises(ValueError):
        kumo.where(kumo.ones(3, dtype=bool), kumo.ones(3))


def test_where_condition_only_is_nonzero():
    n = numpy.array([[0, 1, 0], [2, 0, 3]])
    got = kumo.where(kumo.asarray(n))
    expected = numpy.where(n)
    assert isinstance(got, tuple) and len(got) == 2
    for g, e in zip(got, expected):
        assert_array_equal(g, e)


# ---------------------------------------------------------------- clip
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES)
def test_clip_scalars(layout, dtype):
    if numpy.dtype(dtype).kind == "c":
        pytest.skip("complex clip is deprecated/ill-defined in NumPy")
    n, k = make_pair(layout, dtype)
    lo, hi = (1, 3) if numpy.dtype(dtype).kind == "u" else (-2, 3)
    _same(kumo.clip(k, lo, hi), numpy.clip(n, lo, hi))


@pytest.mark.parametrize("dtype", [numpy.int16, numpy.float32, numpy.float64])
def test_clip_arrays(dtype):
    n, k = make_pair("3d", dtype)
    lo = numpy.array([-3, -1, 0, 1], dtype=dtype)
    hi = numpy.array([[0], [2], [4]], dtype=dtype)
    _same(kumo.clip(k, kumo.asarray(lo), kumo.asarray(hi)), numpy.clip(n, lo, hi))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64])
def test_clip_min_only(dtype):
    n, k = make_pair("3d", dtype)
    _same(kumo.clip(k, 0, None), numpy.clip(n, 0, None))
    _same(kumo.clip(k, min=1), numpy.clip(n, min=1))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64])
def test_clip_max_only(dtype):
    n, k = make_pair("3d", dtype)
    _same(kumo.clip(k, None, 1), numpy.clip(n, None, 1))
    _same(kumo.clip(k, max=-1), numpy.clip(n, max=-1))


def test_clip_no_bounds():
    n, k = make_pair("1d", numpy.float64)
    # NumPy 2.1+ returns the input unchanged when both bounds are None.
    expected = numpy.clip(n, None, None)
    _same(kumo.clip(k, None, None), expected)


def test_clip_int_array_float_bound_promotes():
    n, k = make_pair("1d", numpy.int32)
    _same(kumo.clip(k, 0.5, 2.5), numpy.clip(n, 0.5, 2.5))


def test_clip_weak_scalar_keeps_dtype():
    n, k = make_pair("1d", numpy.int8)
    _same(kumo.clip(k, -1, 1), numpy.clip(n, -1, 1))
    assert kumo.clip(k, -1, 1).dtype == numpy.int8


def test_clip_nan_propagates():
    n = numpy.array([1.0, numpy.nan, 5.0])
    _same(kumo.clip(kumo.asarray(n), 0, 2), numpy.clip(n, 0, 2))


def test_clip_min_greater_than_max():
    n, k = make_pair("1d", numpy.float64)
    _same(kumo.clip(k, 3, 1), numpy.clip(n, 3, 1))


def test_clip_out():
    n, k = make_pair("3d", numpy.float64)
    out = kumo.zeros((2, 3, 4))
    assert kumo.clip(k, -1, 1, out=out) is out
    _same(out, numpy.clip(n, -1, 1))
    out = kumo.zeros((2, 3, 4))
    assert kumo.clip(k, -1, None, out=out) is out
    _same(out, numpy.clip(n, -1, None))


def test_clip_method():
    n, k = make_pair("3d", numpy.int64)
    _same(k.clip(-1, 2), n.clip(-1, 2))


# ---------------------------------------------------------------- real / imag / angle
@pytest.mark.parametrize("func", ["real", "imag"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128])
def test_real_imag(func, layout, dtype):
    n, k = make_pair(layout, dtype)
    _same(getattr(kumo, func)(k), getattr(numpy, func)(n))


def test_real_is_view_for_complex():
    k = kumo.asarray(numpy.array([1 + 2j, 3 - 4j]))
    r = kumo.real(k)
    r[...] = 9
    assert_array_equal(k, numpy.array([9 + 2j, 9 - 4j]))


def test_real_imag_python_input():
    _same(kumo.real(kumo.asarray([1 + 2j])), numpy.real(numpy.asarray([1 + 2j])))
    _same(kumo.imag([1 + 2j, 3]), numpy.imag(numpy.asarray([1 + 2j, 3])))


@pytest.mark.parametrize("deg", [False, True])
@pytest.mark.parametrize("layout", ["0d", "1d", "3d", "negative", "transposed", "broadcast", "empty"])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int32, numpy.float16, numpy.float32, numpy.float64,
                                   numpy.complex64, numpy.complex128])
def test_angle(deg, layout, dtype):
    n, k = make_pair(layout, dtype)
    _same(kumo.angle(k, deg=deg), numpy.angle(n, deg=deg))


def test_angle_special_values():
    n = numpy.array([-1.0, -0.0, 0.0, numpy.nan, -1 + 0j, -1 - 0j, 1j, -1j], dtype=numpy.complex128)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(kumo.angle(kumo.asarray(n)), numpy.angle(n))
    r = numpy.array([-2.0, -0.0, 0.0, 3.0])
    _same(kumo.angle(kumo.asarray(r), deg=True), numpy.angle(r, deg=True))


@pytest.mark.parametrize("dtype,lo,hi", [
    ("uint8", -1, None), ("uint8", None, -3), ("uint8", None, 300), ("uint8", 300, None), ("uint8", -1, 300),
    ("uint8", True, -3), ("int8", 2**63 - 1, None), ("int8", -1000, None), ("int8", None, 1000),
    ("int8", 2**64, None), ("int8", None, -2**64), ("uint64", None, -3)])
def test_clip_python_int_bound_outside_the_range(dtype, lo, hi):
    # Clamped where it cannot change a value, OverflowError where it would (NumPy 2.4).
    n = numpy.array([1, 2, 100], dtype=dtype)
    try:
        want = numpy.clip(n, lo, hi)
    except OverflowError:
        with pytest.raises(OverflowError):
            kumo.clip(kumo.asarray(n), lo, hi)
        return
    got = kumo.clip(kumo.asarray(n), lo, hi)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


def test_clip_python_int_bound_against_an_array_bound_dtype():
    n = numpy.array([1, 2, 200], numpy.uint8)
    want = numpy.clip(n, numpy.arange(3), -4)
    got = kumo.clip(kumo.asarray(n), kumo.arange(3), -4)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


def test_clip_computes_in_the_result_type_of_all_three():
    # NumPy's result_type at once: int16, uint16 and float16 give float32 (two pairwise steps: float64).
    a = numpy.array([-3, 2, 40000 - 65536], numpy.int16)
    lo = numpy.array([1, 65534, 2], numpy.uint16)
    hi = numpy.array([3.5], numpy.float16)
    want = numpy.clip(a, lo, hi)
    got = kumo.clip(kumo.asarray(a), kumo.asarray(lo), kumo.asarray(hi))
    assert got.dtype == want.dtype == numpy.float32
    numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


def test_clip_python_int_bound_must_fit_the_computing_dtype():
    # A bool array's bounds are not dropped: -3 has to fit uint32, the loop's type.
    with pytest.raises(OverflowError):
        numpy.clip(numpy.array(False), -3, numpy.array(0, numpy.uint32))
    with pytest.raises(OverflowError):
        kumo.clip(kumo.asarray(False), -3, kumo.asarray(numpy.array(0, numpy.uint32)))
