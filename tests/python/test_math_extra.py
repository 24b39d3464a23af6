"""Logic and math routines (routines/math_extra.h) against NumPy."""
import numpy
import pytest

import kumo
from conftest import (ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, INT_DTYPES, LAYOUTS, assert_allclose,
                      assert_array_equal, assert_ulp_close, make_pair, to_kumo)

REAL_DTYPES = [numpy.bool_] + INT_DTYPES + FLOAT_DTYPES
SPECIAL = numpy.array([0.0, -0.0, 1.5, -2.25, numpy.inf, -numpy.inf, numpy.nan, 1e300, -7.0])


def special_pair(dtype):
    dt = numpy.dtype(dtype)
    with numpy.errstate(all="ignore"):
        n = SPECIAL.astype(dt) if dt.kind in "fc" else numpy.arange(-3, 6).astype(dt)
    if dt.kind == "c":
        n = n + (SPECIAL[::-1] * 1j).astype(dt)
    return n, kumo.asarray(n)


def both_raise(exc, np_fn, k_fn):
    with pytest.raises(exc):
        np_fn()
    with pytest.raises(exc):
        k_fn()


# ---- classification ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_signed_inf(name, dtype):
    n, k = special_pair(dtype)
    assert_array_equal(getattr(kumo, name)(k), getattr(numpy, name)(n))


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_signed_inf_layouts(name, layout):
    n, k = make_pair(layout, numpy.float64)
    assert_array_equal(getattr(kumo, name)(k), getattr(numpy, name)(n))


@pytest.mark.parametrize("name", ["isposinf", "isneginf"])
@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_signed_inf_complex_raises(name, dtype):
    n, k = special_pair(dtype)
    both_raise(TypeError, lambda: getattr(numpy, name)(n), lambda: getattr(kumo, name)(k))


def test_isposinf_out():
    n, k = special_pair(numpy.float64)
    out = kumo.zeros(n.shape, dtype=bool)
    r = kumo.isposinf(k, out=out)
    assert r is out
    assert_array_equal(out, numpy.isposinf(n))


@pytest.mark.parametrize("name", ["iscomplex", "isreal"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_iscomplex_isreal(name, dtype, layout):
    n, k = make_pair(layout, dtype)
    assert_array_equal(getattr(kumo, name)(k), getattr(numpy, name)(n))


@pytest.mark.parametrize("name", ["iscomplexobj", "isrealobj"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_iscomplexobj(name, dtype):
    n, k = make_pair("1d", dtype)
    assert getattr(kumo, name)(k) == getattr(numpy, name)(n)
    assert getattr(kumo, name)([1, 2j]) == getattr(numpy, name)([1, 2j])
    assert getattr(kumo, name)(3.0) == getattr(numpy, name)(3.0)


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES + [numpy.float64])
@pytest.mark.parametrize("tol", [100, 1000, 1e-10])
def test_real_if_close(dtype, tol):
    n = numpy.array([2.1 + 4e-14j, 5.2 + 3e-15j]).astype(dtype)
    assert_array_equal(kumo.real_if_close(kumo.asarray(n), tol=tol), numpy.real_if_close(n, tol=tol))


@pytest.mark.parametrize("a, b", [([1, 2], [1, 2]), ([1, 2], [[1, 2], [1, 2]]), ([1, 2], [[1, 2, 1, 2]]),
                                  ([1, 2], [1, 3]), ([[1], [2]], [1, 2]), (3, [3, 3]), ([], [])])
def test_array_equiv(a, b):
    assert kumo.array_equiv(kumo.asarray(a), kumo.asarray(b)) == numpy.array_equiv(a, b)


# ---- special functions ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL_DTYPES + COMPLEX_DTYPES)
def test_sinc(dtype):
    n, k = special_pair(dtype)
    with numpy.errstate(all="ignore"):
        want = numpy.sinc(n)
    assert_ulp_close(kumo.sinc(k), want, maxulp=64)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_sinc_layouts(layout):
    n, k = make_pair(layout, numpy.float32)
    assert_ulp_close(kumo.sinc(k), numpy.sinc(n), maxulp=16)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_i0(dtype):
    n, k = special_pair(dtype)
    with numpy.errstate(all="ignore"):
        want = numpy.i0(n)
    got = kumo.i0(k)
    assert got.dtype == want.dtype
    assert_allclose(got, want, rtol={"e": 2e-3, "f": 1e-5}.get(want.dtype.char, 1e-13))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_i0_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    assert_allclose(kumo.i0(k), numpy.i0(n), rtol=1e-13)


def test_i0_large_values():
    n = numpy.linspace(-40, 40, 101)
    assert_allclose(kumo.i0(kumo.asarray(n)), numpy.i0(n), rtol=1e-13)


@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_i0_complex_raises(dtype):
    n, k = special_pair(dtype)
    both_raise(TypeError, lambda: numpy.i0(n), lambda: kumo.i0(k))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_nan_to_num(dtype):
    n, k = special_pair(dtype)
    assert_array_equal(kumo.nan_to_num(k), numpy.nan_to_num(n))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
def test_nan_to_num_values(dtype):
    n, k = special_pair(dtype)
    with numpy.errstate(all="ignore"):
        want = numpy.nan_to_num(n, nan=-1.5, posinf=1e10, neginf=-3)
    assert_array_equal(kumo.nan_to_num(k, nan=-1.5, posinf=1e10, neginf=-3), want)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_nan_to_num_layouts(layout):
    n, k = make_pair(layout, numpy.float32)
    assert_array_equal(kumo.nan_to_num(k), numpy.nan_to_num(n))


def test_nan_to_num_copy_false_in_place():
    n, _ = special_pair(numpy.float64)
    k = kumo.asarray(n.copy())
    r = kumo.nan_to_num(k, copy=False)
    numpy.nan_to_num(n, copy=False)
    assert kumo.shares_memory(r, k)
    assert_array_equal(k, n)


def test_nan_to_num_copy_true_keeps_input():
    n, k = special_pair(numpy.float64)
    kumo.nan_to_num(k)
    assert_array_equal(k, n)


# ---- gradient ---------------------------------------------------------------------------

GRAD_DTYPES = INT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES


@pytest.mark.parametrize("dtype", GRAD_DTYPES)
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_dtypes(dtype, edge_order):
    n, k = make_pair("3d", dtype)
    want = numpy.gradient(n, edge_order=edge_order, axis=(1, 2))
    got = kumo.gradient(k, edge_order=edge_order, axis=(1, 2))
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert_allclose(g, w)


@pytest.mark.parametrize("layout", ["1d", "broadcast", "transposed", "negative"])
def test_gradient_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    want = numpy.gradient(n)
    got = kumo.gradient(k)
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            assert_allclose(g, w)
    else:
        assert_allclose(got, want)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_scalar_spacing(edge_order):
    n = numpy.array([[1, 2, 4, 7, 11], [2, 4, 8, 16, 32], [3, 1, 4, 1, 5]], dtype=numpy.float32)
    k = kumo.asarray(n)
    for g, w in zip(kumo.gradient(k, 0.5, edge_order=edge_order), numpy.gradient(n, 0.5, edge_order=edge_order)):
        assert_allclose(g, w)
    for g, w in zip(kumo.gradient(k, 2, 3.0, edge_order=edge_order),
                    numpy.gradient(n, 2, 3.0, edge_order=edge_order)):
        assert_allclose(g, w)


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("coords", [[0.0, 1.0, 1.5, 3.5, 4.0, 7.0], [0, 2, 4, 6, 8, 10], [1, 2, 4, 8, 16, 32]])
def test_gradient_coordinates(edge_order, coords):
    n = numpy.array([1.0, 2.0, 4.0, 7.0, 11.0, 16.0]) ** 1.5
    got = kumo.gradient(kumo.asarray(n), kumo.asarray(coords), edge_order=edge_order)
    assert_allclose(got, numpy.gradient(n, numpy.array(coords), edge_order=edge_order))


def test_gradient_mixed_spacing_axis():
    n = numpy.arange(24.0).reshape(2, 3, 4) ** 2
    x = numpy.array([0.0, 1.0, 3.0, 3.5])
    got = kumo.gradient(kumo.asarray(n), 2.0, kumo.asarray(x), axis=(0, -1))
    want = numpy.gradient(n, 2.0, x, axis=(0, -1))
    for g, w in zip(got, want):
        assert_allclose(g, w)
    assert_allclose(kumo.gradient(kumo.asarray(n), axis=1), numpy.gradient(n, axis=1))


@pytest.mark.parametrize("call, exc", [
    (lambda m, a: m.gradient(a, edge_order=3), ValueError),
    (lambda m, a: m.gradient(a, 1.0, 2.0, 3.0), TypeError),
    (lambda m, a: m.gradient(a, m.asarray([[1.0, 2.0]]), 1.0), ValueError),
    (lambda m, a: m.gradient(a, m.asarray([1.0, 2.0, 3.0]), 1.0), ValueError),
    (lambda m, a: m.gradient(a[:, :1]), ValueError),
    (lambda m, a: m.gradient(a[:2], edge_order=2), ValueError),
    (lambda m, a: m.gradient(a, axis=2), numpy.exceptions.AxisError),
    (lambda m, a: m.gradient(a, axis=(0, 0)), ValueError),
    (lambda m, a: m.gradient(a.astype(bool)), TypeError),
])
def test_gradient_errors(call, exc):
    n = numpy.arange(12.0).reshape(4, 3)
    both_raise(exc, lambda: call(numpy, n), lambda: call(kumo, kumo.asarray(n)))


# ---- ediff1d, trapezoid -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_ediff1d(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert_array_equal(kumo.ediff1d(k), numpy.ediff1d(n))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float32, numpy.complex128])
def test_ediff1d_ends(dtype):
    n = numpy.array([1, 2, 4, 7], dtype=dtype)
    k = kumo.asarray(n)
    assert_array_equal(kumo.ediff1d(k, to_begin=-9, to_end=[8, 9]), numpy.ediff1d(n, to_begin=-9, to_end=[8, 9]))
    assert_array_equal(kumo.ediff1d(k, to_end=kumo.asarray([[5]], dtype=dtype)),
                       numpy.ediff1d(n, to_end=numpy.array([[5]], dtype=dtype)))
    assert_array_equal(kumo.ediff1d(k[:1], to_begin=[1, 2]), numpy.ediff1d(n[:1], to_begin=[1, 2]))


def test_ediff1d_incompatible_ends():
    n = numpy.array([1, 2, 4], dtype=numpy.int16)
    both_raise(TypeError, lambda: numpy.ediff1d(n, to_begin=[1.5]), lambda: kumo.ediff1d(kumo.asarray(n), to_begin=[1.5]))
    both_raise(TypeError, lambda: numpy.ediff1d(n, to_end=[1j]), lambda: kumo.ediff1d(kumo.asarray(n), to_end=[1j]))


def test_ediff1d_bool_raises():
    n = numpy.array([True, False, True])
    both_raise(TypeError, lambda: numpy.ediff1d(n), lambda: kumo.ediff1d(kumo.asarray(n)))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_trapezoid_dtypes(dtype):
    n, k = make_pair("3d", dtype)
    assert_allclose(kumo.trapezoid(k), numpy.trapezoid(n))
    assert_allclose(kumo.trapezoid(k, dx=0.5, axis=0), numpy.trapezoid(n, dx=0.5, axis=0))


@pytest.mark.parametrize("layout", ["empty", "1d", "3d", "broadcast", "transposed", "negative"])
def test_trapezoid_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    assert_allclose(kumo.trapezoid(k, axis=0), numpy.trapezoid(n, axis=0))


def test_trapezoid_x():
    n = numpy.arange(15.0).reshape(3, 5) ** 2
    x1 = numpy.array([0.0, 1.0, 1.5, 4.0, 4.5])
    assert_allclose(kumo.trapezoid(kumo.asarray(n), kumo.asarray(x1)), numpy.trapezoid(n, x1))
    x2 = numpy.cumsum(numpy.arange(1.0, 16.0).reshape(3, 5), axis=0)
    assert_allclose(kumo.trapezoid(kumo.asarray(n), kumo.asarray(x2), axis=0), numpy.trapezoid(n, x2, axis=0))
    assert_allclose(kumo.trapezoid(kumo.asarray(n), dx=kumo.asarray(n[0, :4])),
                    numpy.trapezoid(n, dx=n[0, :4]))


def test_trapezoid_bad_axis():
    n = numpy.arange(6.0)
    both_raise(IndexError, lambda: numpy.trapezoid(n, axis=1), lambda: kumo.trapezoid(kumo.asarray(n), axis=1))


# ---- interp -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL_DTYPES + COMPLEX_DTYPES)
def test_interp_dtypes(dtype):
    xp = numpy.array([0, 1, 2, 4, 5])
    fp = make_pair("1d", dtype)[0][:5]
    x = numpy.array([-1.0, 0.0, 0.5, 1.0, 3.0, 4.9, 5.0, 7.0, numpy.nan])
    assert_allclose(kumo.interp(kumo.asarray(x), kumo.asarray(xp), kumo.asarray(fp)), numpy.interp(x, xp, fp))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_interp_layouts(layout):
    n, k = make_pair(layout, numpy.float32)
    xp, fp = numpy.array([-3.0, -1.0, 0.5, 2.0]), numpy.array([1.0, -2.0, 4.0, 0.0])
    assert_allclose(kumo.interp(k, kumo.asarray(xp), kumo.asarray(fp)), numpy.interp(n, xp, fp))


@pytest.mark.parametrize("fp", [[1.0, 2.0, 3.0], [1 + 1j, 2 - 1j, 0.5j]])
def test_interp_left_right(fp):
    xp, x = [0.0, 1.0, 2.0], [-5.0, 0.5, 2.0, 9.0]
    assert_allclose(kumo.interp(x, xp, fp, left=-1, right=10), numpy.interp(x, xp, fp, left=-1, right=10))


def test_interp_single_point_and_scalar():
    assert_allclose(kumo.interp([-1.0, 0.0, 1.0], [0.0], [3.0], left=1, right=2),
                    numpy.interp([-1.0, 0.0, 1.0], [0.0], [3.0], left=1, right=2))
    assert_allclose(kumo.interp(1.5, [1, 2], [10, 20]), numpy.interp(1.5, [1, 2], [10, 20]))


def test_interp_infinite_fp():
    xp, fp = [0.0, 1.0, 2.0, 3.0], [0.0, numpy.inf, numpy.inf, 1.0]
    x = [0.5, 1.0, 1.5, 2.5]
    assert_allclose(kumo.interp(x, xp, fp), numpy.interp(x, xp, fp))


@pytest.mark.parametrize("fp", [[5, 10, 3, 4], [5j, 10, 3 + 1j, 4]])
def test_interp_period(fp):
    x = [-180, -170, -185, 185, -10, -5, 0, 365]
    xp = [190, -190, 350, -350]
    assert_allclose(kumo.interp(x, xp, fp, period=360), numpy.interp(x, xp, fp, period=360))


@pytest.mark.parametrize("args, kw", [
    (([1.0], [], []), {}),
    (([1.0], [1.0, 2.0], [1.0]), {}),
    (([1.0], [[1.0, 2.0]], [[1.0, 2.0]]), {}),
    (([1.0], 1.0, 1.0), {}),
    (([1.0], [1.0, 2.0], [1.0, 2.0]), {"period": 0}),
    (([1.0], [1.0, 2.0], [1.0]), {"period": 3}),
])
def test_interp_errors(args, kw):
    both_raise(ValueError, lambda: numpy.interp(*args, **kw), lambda: kumo.interp(*args, **kw))


# ---- unwrap -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_unwrap_float(dtype):
    n = (numpy.linspace(0, 6 * numpy.pi, 40) % (2 * numpy.pi) - numpy.pi).astype(dtype)
    assert_allclose(kumo.unwrap(kumo.asarray(n)), numpy.unwrap(n))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int16, numpy.int32, numpy.int64])
def test_unwrap_int_period(dtype):
    n = numpy.array([0, 1, 2, 3, 0, 1, 2, 3, 0, 3, 2], dtype=dtype)
    assert_array_equal(kumo.unwrap(kumo.asarray(n), period=4), numpy.unwrap(n, period=4))
    assert_array_equal(kumo.unwrap(kumo.asarray(n), period=5), numpy.unwrap(n, period=5))


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.uint64])
def test_unwrap_unsigned_overflow(dtype):
    # -period/2 does not fit an unsigned array: OverflowError in both.
    n = numpy.array([0, 1, 2, 3, 0], dtype=dtype)
    both_raise(OverflowError, lambda: numpy.unwrap(n, period=4), lambda: kumo.unwrap(kumo.asarray(n), period=4))


def test_unwrap_axis_discont_period():
    rng = numpy.random.default_rng(1)
    n = rng.uniform(-400, 400, (4, 6))
    for kw in [{"axis": 0}, {"discont": 200.0, "period": 360}, {"axis": 0, "period": 360.0, "discont": 90}]:
        assert_allclose(kumo.unwrap(kumo.asarray(n), **kw), numpy.unwrap(n, **kw))


@pytest.mark.parametrize("layout", ["empty", "1d", "3d", "broadcast", "transposed", "negative"])
def test_unwrap_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    assert_allclose(kumo.unwrap(k, period=3), numpy.unwrap(n, period=3))


def test_unwrap_errors():
    both_raise(ValueError, lambda: numpy.unwrap(numpy.float64(1)), lambda: kumo.unwrap(kumo.asarray(1.0)))
    both_raise(numpy.exceptions.AxisError, lambda: numpy.unwrap(numpy.ones(3), axis=1),
               lambda: kumo.unwrap(kumo.ones(3), axis=1))


# ---- windows ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [-2, 0, 1, 2, 5, 6, 51, 5.5])
def test_window(name, M):
    assert_allclose(getattr(kumo, name)(M), getattr(numpy, name)(M), atol=1e-15)


@pytest.mark.parametrize("M, beta", [(0, 5.0), (1, 5.0), (2, 0.0), (7, 8.6), (64, 14.0), (10, -3)])
def test_kaiser(M, beta):
    assert_allclose(kumo.kaiser(M, beta), numpy.kaiser(M, beta), rtol=1e-12)


# ---- bits -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [numpy.bool_] + INT_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_bitwise_count(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert_array_equal(kumo.bitwise_count(k), numpy.bitwise_count(n))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_bitwise_count_extremes(dtype):
    info = numpy.iinfo(dtype)
    n = numpy.array([info.min, info.max, 0, 1, info.max // 3], dtype=dtype)
    assert_array_equal(kumo.bitwise_count(kumo.asarray(n)), numpy.bitwise_count(n))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
def test_bitwise_count_inexact_raises(dtype):
    n, k = make_pair("1d", dtype)
    both_raise(TypeError, lambda: numpy.bitwise_count(n), lambda: kumo.bitwise_count(k))


@pytest.mark.parametrize("dtype", [numpy.bool_] + INT_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits(dtype, layout, bitorder):
    n, k = make_pair(layout, dtype)
    assert_array_equal(kumo.packbits(k, bitorder=bitorder), numpy.packbits(n, bitorder=bitorder))
    if n.ndim:
        for axis in range(-n.ndim, n.ndim):
            assert_array_equal(kumo.packbits(k, axis=axis, bitorder=bitorder),
                               numpy.packbits(n, axis=axis, bitorder=bitorder))


def test_packbits_errors():
    both_raise(TypeError, lambda: numpy.packbits([1.0]), lambda: kumo.packbits(kumo.asarray([1.0])))
    both_raise(ValueError, lambda: numpy.packbits([1], bitorder="middle"),
               lambda: kumo.packbits(kumo.asarray([1]), bitorder="middle"))
    both_raise(numpy.exceptions.AxisError, lambda: numpy.packbits(numpy.ones((2, 3), int), axis=2),
               lambda: kumo.packbits(kumo.ones((2, 3), dtype=int), axis=2))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("bitorder", ["big", "little"])
@pytest.mark.parametrize("count", [None, 0, 3, 8, 13, 40, -1, -9, -1000])
def test_unpackbits(layout, bitorder, count):
    n, _ = make_pair(layout, numpy.uint8, seed=3)
    n = (n.astype(numpy.int64) * 37 % 256).astype(numpy.uint8)
    k = to_kumo(n)
    calls = [{}] + [{"axis": axis} for axis in range(-max(n.ndim, 1), max(n.ndim, 1))]
    for kw in calls:
        try:
            want = numpy.unpackbits(n, count=count, bitorder=bitorder, **kw)
        except ValueError:
            with pytest.raises(ValueError):
                kumo.unpackbits(k, count=count, bitorder=bitorder, **kw)
            continue
        got = kumo.unpackbits(k, count=count, bitorder=bitorder, **kw)
        if n.size == 0:
            # NumPy leaves the padding of an empty input uninitialised; kumo's is 0.
            assert got.shape == want.shape and got.dtype == want.dtype
            assert not kumo.asnumpy(got).any()
        else:
            assert_array_equal(got, want)


def test_unpackbits_errors():
    both_raise(TypeError, lambda: numpy.unpackbits(numpy.array([1])), lambda: kumo.unpackbits(kumo.asarray([1])))
    both_raise(ValueError, lambda: numpy.unpackbits(numpy.array([1], numpy.uint8), bitorder="x"),
               lambda: kumo.unpackbits(kumo.asarray([1], dtype=kumo.uint8), bitorder="x"))


def test_packbits_roundtrip():
    rng = numpy.random.default_rng(5)
    bits = rng.integers(0, 2, (5, 37)).astype(numpy.uint8)
    k = kumo.asarray(bits)
    assert_array_equal(kumo.unpackbits(kumo.packbits(k, axis=1), axis=1, count=37), bits)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_byteswap(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert_array_equal(k.byteswap(), n.byteswap())


@pytest.mark.parametrize("dtype", [numpy.int16, numpy.uint32, numpy.float64, numpy.complex64])
def test_byteswap_inplace(dtype):
    n, _ = make_pair("negative", dtype)
    k = to_kumo(n)
    r = k.byteswap(inplace=True)
    want = n.copy().byteswap(inplace=True)
    assert_array_equal(k, want)
    assert kumo.shares_memory(r, k)


def test_byteswap_inplace_readonly():
    n = numpy.broadcast_to(numpy.arange(3, dtype=numpy.int32), (2, 3))
    k = kumo.broadcast_to(kumo.arange(3, dtype=kumo.int32), (2, 3))
    both_raise(ValueError, lambda: n.byteswap(inplace=True), lambda: k.byteswap(inplace=True))


# ---- memory overlap ---------------------------------------------------------------------

def _views(m):
    return [m, m[::2], m[1::2], m[:, ::2], m[:, 1::2], m[1:3], m[3:], m[::-1], m[:, ::-3], m.T, m[2], m[:, 5],
            m[1:2, 3:4], m[:0]]


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float64, numpy.complex128])
def test_shares_memory_views(dtype):
    n = numpy.zeros((6, 8), dtype=dtype)
    k = kumo.zeros((6, 8), dtype=dtype)
    for i, (na, ka) in enumerate(zip(_views(n), _views(k))):
        for j, (nb, kb) in enumerate(zip(_views(n), _views(k))):
            assert kumo.shares_memory(ka, kb) == numpy.shares_memory(na, nb), (i, j)
            assert kumo.may_share_memory(ka, kb) == numpy.may_share_memory(na, nb), (i, j)


def test_shares_memory_interleaved_bytes():
    n = numpy.zeros(64, dtype=numpy.int8)
    k = kumo.zeros(64, dtype=kumo.int8)
    nv = [n.view(numpy.int16)[::2], n[1::4], n[2::4], n.view(numpy.int32)[1::2], n[5:9]]
    kv = [k.view(kumo.int16)[::2], k[1::4], k[2::4], k.view(kumo.int32)[1::2], k[5:9]]
    for i in range(len(nv)):
        for j in range(len(nv)):
            assert kumo.shares_memory(kv[i], kv[j]) == numpy.shares_memory(nv[i], nv[j]), (i, j)


def test_shares_memory_other_objects():
    k = kumo.arange(5)
    assert not kumo.shares_memory(k, kumo.arange(5))
    assert not kumo.shares_memory(k, [1, 2])
    assert not kumo.may_share_memory(k, k.copy())
    n = numpy.arange(4)
    assert kumo.shares_memory(n, n[1:]) == numpy.shares_memory(n, n[1:])


def test_shares_memory_max_work():
    k = kumo.zeros((50, 50))
    assert kumo.shares_memory(k[:, ::2], k[:, 1::2], max_work=0)  # bounds only
    assert not kumo.shares_memory(k[:, ::2], k[:, 1::2])
    assert not kumo.shares_memory(k[:, ::2], k[:, 1::2], max_work=1)  # the strides' gcd decides, as NumPy
    n = numpy.zeros((50, 50))
    with pytest.raises(numpy.exceptions.TooHardError):
        numpy.shares_memory(n[::3, ::2], n[1::2, 1::3], max_work=1)
    with pytest.raises(numpy.exceptions.TooHardError):
        kumo.shares_memory(k[::3, ::2], k[1::2, 1::3], max_work=1)
    assert kumo.shares_memory(k[::3, ::2], k[1::2, 1::3])
