"""Reductions and statistics compared with NumPy 2."""
import warnings

import numpy
import pytest

import kumo
from conftest import (ALL_DTYPES, COMPLEX_DTYPES, FLOAT_DTYPES, INT_DTYPES, LAYOUTS, NUMERIC_DTYPES,
                      assert_same,
                      assert_allclose, assert_array_equal, make_numpy, make_pair, to_kumo)


def _dtype_layouts(layout_dtypes=(numpy.int32, numpy.float64, numpy.complex64), dtype_layouts=("1d", "negative", "empty")):
    """Every dtype on a few layouts and every layout on a few dtypes (keeps the number of
    distinct kernels, and so the cold-cache compile time, down)."""
    pairs = [(d, l) for d in ALL_DTYPES for l in dtype_layouts]
    pairs += [(d, l) for d in layout_dtypes for l in LAYOUTS if l not in dtype_layouts]
    return pairs


DTYPE_LAYOUTS = _dtype_layouts()
DTYPE_LAYOUTS_NONEMPTY = [(d, l) for d, l in DTYPE_LAYOUTS if l != "empty"]


_same = assert_same


def _compare(name, layout, dtype, /, *args, np_name=None, **kwargs):
    """Runs kumo.<name> and numpy.<name> on the same data; same result or same exception class."""
    n, k = make_pair(layout, dtype)
    nfunc = getattr(numpy, np_name or name)
    kfunc = getattr(kumo, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = nfunc(n, *args, **kwargs)
        except Exception as e:  # noqa: BLE001 - the same class must be raised by kumo
            with pytest.raises(type(e)):
                kfunc(k, *args, **kwargs)
            return
        got = kfunc(k, *args, **kwargs)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            _same(g, e)
    else:
        _same(got, expected)


# ---------------------------------------------------------------- sum / prod
@pytest.mark.parametrize("dtype,layout", DTYPE_LAYOUTS)
def test_sum_all_dtypes_layouts(dtype, layout):
    _compare("sum", layout, dtype)


@pytest.mark.parametrize("dtype,layout", DTYPE_LAYOUTS)
def test_prod_all_dtypes_layouts(dtype, layout):
    _compare("prod", layout, dtype)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, (0, 2), (2, 0), (0, 1, 2), ()])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64])
def test_sum_axis_keepdims(axis, keepdims, dtype):
    _compare("sum", "3d", dtype, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("axis", [0, -1, (0, 1)])
@pytest.mark.parametrize("layout", ["empty", "broadcast", "transposed", "negative"])
def test_sum_axis_layouts(axis, layout):
    _compare("sum", layout, numpy.float64, axis=axis)


@pytest.mark.parametrize("dtype,expected", [(numpy.bool_, numpy.int64), (numpy.int8, numpy.int64),
                                            (numpy.int16, numpy.int64), (numpy.int32, numpy.int64),
                                            (numpy.uint8, numpy.uint64), (numpy.uint32, numpy.uint64),
                                            (numpy.float16, numpy.float16), (numpy.float32, numpy.float32),
                                            (numpy.complex64, numpy.complex64)])
def test_sum_result_dtype(dtype, expected):
    k = kumo.ones((3, 2), dtype=dtype)
    assert kumo.sum(k).dtype == expected
    assert kumo.sum(k, axis=0).dtype == expected
    assert kumo.prod(k, axis=1).dtype == expected


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int16, numpy.complex128])
def test_sum_dtype_argument(dtype):
    _compare("sum", "3d", numpy.int8, axis=1, dtype=dtype)


def test_sum_int8_no_overflow():
    n = numpy.full(1000, 100, dtype=numpy.int8)
    assert_array_equal(kumo.sum(kumo.asarray(n)), numpy.sum(n))


def test_sum_explicit_small_dtype_wraps():
    n = numpy.full(10, 100, dtype=numpy.int8)
    assert_array_equal(kumo.sum(kumo.asarray(n), dtype=numpy.int8), numpy.sum(n, dtype=numpy.int8))


@pytest.mark.parametrize("func,value", [("sum", 0), ("prod", 1), ("all", True), ("any", False)])
def test_empty_reduction_identity(func, value):
    k = getattr(kumo, func)(kumo.zeros((0,), dtype=numpy.float32))
    n = getattr(numpy, func)(numpy.zeros((0,), dtype=numpy.float32))
    assert n == value
    _same(k, n)


@pytest.mark.parametrize("func", ["sum", "prod", "max", "min", "all", "any"])
def test_empty_axis_reduction(func):
    # reducing the non-empty axis of a (0, 3) array gives an empty result, even for max
    _compare(func, "empty", numpy.float64, axis=1)


@pytest.mark.parametrize("func", ["sum", "prod", "max", "min"])
def test_initial(func):
    _compare(func, "3d", numpy.float64, axis=1, initial=2.0)


@pytest.mark.parametrize("func", ["max", "min"])
def test_empty_with_initial(func):
    _compare(func, "empty", numpy.float64, initial=-1.5)


@pytest.mark.parametrize("func", ["sum", "prod"])
def test_where_mask(func):
    n, k = make_pair("3d", numpy.float64)
    mask = numpy.arange(4) % 2 == 0
    _same(getattr(kumo, func)(k, axis=2, where=kumo.asarray(mask)), getattr(numpy, func)(n, axis=2, where=mask))


@pytest.mark.parametrize("func", ["max", "min"])
def test_where_mask_needs_initial(func):
    n, k = make_pair("3d", numpy.float64)
    mask = numpy.arange(4) % 2 == 0
    with pytest.raises(ValueError):
        getattr(numpy, func)(n, axis=2, where=mask)
    with pytest.raises(ValueError):
        getattr(kumo, func)(k, axis=2, where=kumo.asarray(mask))
    _same(getattr(kumo, func)(k, axis=2, where=kumo.asarray(mask), initial=0.0),
          getattr(numpy, func)(n, axis=2, where=mask, initial=0.0))


@pytest.mark.parametrize("func", ["sum", "prod", "max", "min", "mean", "all", "any"])
def test_out_argument(func):
    n, k = make_pair("3d", numpy.float64)
    out = kumo.zeros((2, 4), dtype=numpy.float64 if func not in ("all", "any") else numpy.bool_)
    r = getattr(kumo, func)(k, axis=1, out=out)
    assert r is out
    _same(out, getattr(numpy, func)(n, axis=1))


def test_out_wrong_shape():
    k = kumo.ones((2, 3))
    with pytest.raises(ValueError):
        kumo.sum(k, axis=0, out=kumo.zeros((2,)))


def test_out_casts_to_out_dtype():
    n, k = make_pair("3d", numpy.int64)
    out = kumo.zeros((2, 4), dtype=numpy.float32)
    kumo.sum(k, axis=1, out=out)
    assert_array_equal(out, numpy.sum(n, axis=1).astype(numpy.float32))


# ---------------------------------------------------------------- axis errors
@pytest.mark.parametrize("func", ["sum", "prod", "max", "min", "mean", "var", "std", "argmax", "argmin", "all",
                                  "any", "cumsum", "nansum", "nanmax", "count_nonzero"])
def test_bad_axis(func):
    k = kumo.ones((2, 3))
    with pytest.raises(numpy.exceptions.AxisError):
        getattr(kumo, func)(k, axis=2)
    with pytest.raises(numpy.exceptions.AxisError):
        getattr(kumo, func)(k, axis=-3)


def test_duplicate_axis():
    with pytest.raises(ValueError):
        kumo.sum(kumo.ones((2, 3)), axis=(0, -2))


def test_axis_on_0d():
    _compare("sum", "0d", numpy.float64, axis=0)


# ---------------------------------------------------------------- min / max / ptp
@pytest.mark.parametrize("dtype,layout", DTYPE_LAYOUTS)
def test_max_all_dtypes_layouts(dtype, layout):
    _compare("max", layout, dtype)


@pytest.mark.parametrize("dtype,layout", DTYPE_LAYOUTS)
def test_min_all_dtypes_layouts(dtype, layout):
    _compare("min", layout, dtype)


@pytest.mark.parametrize("name", ["amax", "amin"])
def test_amax_amin_aliases(name):
    _compare(name, "3d", numpy.int32, axis=(0, 2), keepdims=True)


@pytest.mark.parametrize("func", ["max", "min", "argmax", "argmin", "ptp"])
def test_empty_raises_value_error(func):
    with pytest.raises(ValueError):
        getattr(kumo, func)(kumo.zeros((0, 3)))
    with pytest.raises(ValueError):
        getattr(kumo, func)(kumo.zeros((0, 3)), axis=0)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("dtype", [numpy.int16, numpy.float32])
def test_max_axes(axis, dtype):
    _compare("max", "3d", dtype, axis=axis, keepdims=True)


@pytest.mark.parametrize("func", ["max", "min"])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
def test_max_min_propagate_nan(func, dtype):
    n = numpy.array([[1, numpy.nan, 3], [4, 5, 6]], dtype=dtype)
    k = kumo.asarray(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(getattr(kumo, func)(k), getattr(numpy, func)(n))
        _same(getattr(kumo, func)(k, axis=1), getattr(numpy, func)(n, axis=1))


@pytest.mark.parametrize("func", ["max", "min"])
def test_max_min_nan_late(func):
    # NaN after other values (and after a larger value) must still win.
    n = numpy.array([1.0, 9.0, -3.0, numpy.nan, 2.0] * 7, dtype=numpy.float64)
    _same(getattr(kumo, func)(kumo.asarray(n)), getattr(numpy, func)(n))


@pytest.mark.parametrize("func", ["max", "min", "argmax", "argmin"])
@pytest.mark.parametrize("dtype", COMPLEX_DTYPES)
def test_complex_lexicographic(func, dtype):
    n = numpy.array([1 + 5j, 2 - 1j, 2 + 0j, -3 + 9j, 2 - 2j, 1 + 6j], dtype=dtype)
    _same(getattr(kumo, func)(kumo.asarray(n)), getattr(numpy, func)(n))


@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative", "broadcast", "0d"])
@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int32, numpy.float64, numpy.complex64, numpy.bool_])
def test_ptp(layout, dtype):
    _compare("ptp", layout, dtype)


def test_ptp_axis():
    _compare("ptp", "3d", numpy.int64, axis=(0, 2), keepdims=True)


# ---------------------------------------------------------------- argmin / argmax
@pytest.mark.parametrize("dtype,layout", DTYPE_LAYOUTS_NONEMPTY)
def test_argmax_all_dtypes_layouts(dtype, layout):
    _compare("argmax", layout, dtype)


@pytest.mark.parametrize("dtype,layout", DTYPE_LAYOUTS_NONEMPTY)
def test_argmin_all_dtypes_layouts(dtype, layout):
    _compare("argmin", layout, dtype)


@pytest.mark.parametrize("func", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_argmax_axis(func, axis, keepdims):
    _compare(func, "3d", numpy.int16, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("func", ["argmax", "argmin"])
@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast"])
def test_argmax_axis_layouts(func, layout):
    _compare(func, layout, numpy.float32, axis=0)
    _compare(func, layout, numpy.float32, axis=1)


@pytest.mark.parametrize("func", ["argmax", "argmin"])
def test_argmax_ties_first_index(func):
    n = numpy.array([3, 1, 3, 1, 3, 1] * 5, dtype=numpy.int32)
    _same(getattr(kumo, func)(kumo.asarray(n)), getattr(numpy, func)(n))


@pytest.mark.parametrize("func", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES + COMPLEX_DTYPES)
def test_argmax_first_nan(func, dtype):
    n = numpy.array([1, 7, numpy.nan, -2, numpy.nan, 9] * 3, dtype=dtype)
    _same(getattr(kumo, func)(kumo.asarray(n)), getattr(numpy, func)(n))
    m = n.reshape(3, 6)
    _same(getattr(kumo, func)(kumo.asarray(m), axis=1), getattr(numpy, func)(m, axis=1))


# Long contiguous runs take the vectorized host paths (blocks of 256, four
# vectors of lanes, NaN noticed by running sums): NaN, ties and infinities
# placed across block and lane boundaries.
_LONG_DTYPES = [numpy.float32, numpy.float64, numpy.int32, numpy.uint64]


def _long_cases(dtype, n=1000):
    rng = numpy.random.default_rng(7)
    base = rng.integers(0, 50, n).astype(dtype)
    cases = [base, numpy.sort(base), numpy.sort(base)[::-1].copy(), numpy.full(n, 3, dtype=dtype)]
    if numpy.issubdtype(dtype, numpy.floating):
        for pos in (0, 15, 16, 255, 256, 700, n - 9, n - 1):
            c = base.copy()
            c[pos] = numpy.nan
            c[min(pos + 40, n - 1)] = numpy.nan
            cases.append(c)
        c = base.copy()
        c[[3, 300]], c[[5, 600]] = numpy.inf, -numpy.inf  # the sums become NaN: no NaN is there
        cases.append(c)
        big = numpy.full(n, numpy.finfo(dtype).max, dtype=dtype)
        big[1::2] *= -1
        cases.append(big)
        z = numpy.zeros(n, dtype=dtype)
        z[::3] = -0.0
        cases.append(z)
    return cases


@pytest.mark.parametrize("func", ["argmax", "argmin", "max", "min"])
@pytest.mark.parametrize("dtype", _LONG_DTYPES)
def test_extrema_long_runs(func, dtype):
    nfunc, kfunc = getattr(numpy, func), getattr(kumo, func)
    for n in _long_cases(dtype):
        _same(kfunc(kumo.asarray(n)), nfunc(n))
        m = n.reshape(4, 250)
        for axis in (0, 1):
            _same(kfunc(kumo.asarray(m), axis=axis), nfunc(m, axis=axis))
        _same(kfunc(kumo.asarray(m)[:, ::-1], axis=1), nfunc(m[:, ::-1], axis=1))


@pytest.mark.parametrize("func", ["argmax", "argmin", "max", "min"])
def test_extrema_large_split(func):
    # Past the size at which rows and flat runs are split over the threads.
    n = numpy.full(2_200_000, 1.0)
    n[[1_100_003, 2_000_001]] = 5.0
    n[[1_500_000, 1_099_999]] = -5.0
    nfunc, kfunc = getattr(numpy, func), getattr(kumo, func)
    _same(kfunc(kumo.asarray(n)), nfunc(n))
    m = n.reshape(1100, 2000)
    _same(kfunc(kumo.asarray(m), axis=1), nfunc(m, axis=1))
    n[1_700_000] = numpy.nan
    _same(kfunc(kumo.asarray(n)), nfunc(n))


@pytest.mark.parametrize("shape,axis", [((1003, 7), 0), ((5, 6, 9), (0, 1)), ((3, 1001, 4), 1), ((9, 5, 6), (0, 2))])
def test_column_reductions_rows_in_fours(shape, axis):
    n = numpy.random.default_rng(3).standard_normal(shape)
    k = kumo.asarray(n)
    assert_allclose(kumo.sum(k, axis=axis), numpy.sum(n, axis=axis))
    _same(kumo.max(k, axis=axis), numpy.max(n, axis=axis))
    n[(0,) * (len(shape) - 1) + (1,)] = numpy.nan
    _same(kumo.min(kumo.asarray(n), axis=axis), numpy.min(n, axis=axis))


def test_argmax_out():
    n, k = make_pair("3d", numpy.float64)
    out = kumo.zeros((2, 4), dtype=numpy.int64)
    assert kumo.argmax(k, axis=1, out=out) is out
    assert_array_equal(out, numpy.argmax(n, axis=1))


def test_argmax_tuple_axis_rejected():
    with pytest.raises(TypeError):
        numpy.argmax(numpy.ones((2, 3)), axis=(0, 1))
    with pytest.raises(TypeError):
        kumo.argmax(kumo.ones((2, 3)), axis=(0, 1))


# ---------------------------------------------------------------- all / any / count_nonzero
@pytest.mark.parametrize("func", ["all", "any"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.float64, numpy.complex64])
def test_all_any(func, layout, dtype):
    _compare(func, layout, dtype)


@pytest.mark.parametrize("func", ["all", "any"])
@pytest.mark.parametrize("axis", [0, -1, (0, 2)])
def test_all_any_axis(func, axis):
    _compare(func, "3d", numpy.bool_, axis=axis, keepdims=True)


@pytest.mark.parametrize("func", ["all", "any"])
def test_all_any_nan_is_true(func):
    n = numpy.array([numpy.nan, 0.0])
    _same(getattr(kumo, func)(kumo.asarray(n)), getattr(numpy, func)(n))
    n = numpy.array([numpy.nan])
    _same(getattr(kumo, func)(kumo.asarray(n)), getattr(numpy, func)(n))


@pytest.mark.parametrize("func", ["all", "any"])
def test_all_any_where(func):
    n, k = make_pair("3d", numpy.bool_)
    mask = numpy.array([True, False, True, False])
    _same(getattr(kumo, func)(k, axis=2, where=kumo.asarray(mask)), getattr(numpy, func)(n, axis=2, where=mask))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int32, numpy.float32, numpy.complex128])
def test_count_nonzero(layout, dtype):
    _compare("count_nonzero", layout, dtype)


@pytest.mark.parametrize("axis", [0, (0, 2), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_count_nonzero_axis(axis, keepdims):
    _compare("count_nonzero", "3d", numpy.int8, axis=axis, keepdims=keepdims)


def test_count_nonzero_python_int_result():
    assert kumo.count_nonzero(kumo.asarray([1, 0, 2])) == 2


# ---------------------------------------------------------------- mean / average
@pytest.mark.parametrize("dtype,layout", DTYPE_LAYOUTS_NONEMPTY)
def test_mean_all_dtypes_layouts(dtype, layout):
    _compare("mean", layout, dtype)


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint32, numpy.bool_, numpy.int64])
def test_mean_of_ints_is_float64(dtype):
    assert kumo.mean(kumo.ones((3,), dtype=dtype)).dtype == numpy.float64


def test_mean_float16_accumulates_in_float32():
    # 10000 * 1.0 overflows nothing but float16 accumulation would stall at 2048.
    n = numpy.ones(10000, dtype=numpy.float16)
    k = kumo.mean(kumo.asarray(n))
    assert k.dtype == numpy.float16
    assert_array_equal(k, numpy.mean(n))
    n = numpy.full(5000, 0.1, dtype=numpy.float16)
    assert_array_equal(kumo.mean(kumo.asarray(n)), numpy.mean(n))


@pytest.mark.parametrize("axis", [0, -1, (0, 2), None])
@pytest.mark.parametrize("keepdims", [False, True])
def test_mean_axis(axis, keepdims):
    _compare("mean", "3d", numpy.float32, axis=axis, keepdims=keepdims)


def test_mean_dtype_argument():
    _compare("mean", "3d", numpy.int32, axis=1, dtype=numpy.float32)


def test_mean_empty_is_nan():
    _compare("mean", "empty", numpy.float64)
    _compare("mean", "empty", numpy.float64, axis=0)


def test_mean_where():
    n, k = make_pair("3d", numpy.float64)
    mask = numpy.array([[True, False, True, True]] * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the all-False column is an empty slice (NaN)
        _same(kumo.mean(k, axis=1, where=kumo.asarray(mask)), numpy.mean(n, axis=1, where=mask))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64, numpy.complex128])
def test_average_no_weights(dtype):
    _compare("average", "3d", dtype, axis=1)


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64])
def test_average_weights_same_shape(dtype):
    n, k = make_pair("3d", dtype)
    w = numpy.arange(24, dtype=numpy.float64).reshape(2, 3, 4) + 1
    _same(kumo.average(k, weights=kumo.asarray(w)), numpy.average(n, weights=w))
    _same(kumo.average(k, axis=2, weights=kumo.asarray(w)), numpy.average(n, axis=2, weights=w))


def test_average_weights_1d_along_axis():
    n, k = make_pair("3d", numpy.float64)
    w = numpy.array([1.0, 2.0, 0.5])
    _same(kumo.average(k, axis=1, weights=kumo.asarray(w)), numpy.average(n, axis=1, weights=w))


def test_average_returned():
    n, k = make_pair("3d", numpy.float32)
    w = numpy.array([1, 2, 3, 4], dtype=numpy.int64)
    kr = kumo.average(k, axis=-1, weights=kumo.asarray(w), returned=True)
    nr = numpy.average(n, axis=-1, weights=w, returned=True)
    assert isinstance(kr, tuple) and len(kr) == 2
    _same(kr[0], nr[0])
    _same(kr[1], nr[1])


def test_average_returned_no_weights():
    n, k = make_pair("3d", numpy.int32)
    kr = kumo.average(k, axis=(0, 2), returned=True)
    nr = numpy.average(n, axis=(0, 2), returned=True)
    _same(kr[0], nr[0])
    _same(kr[1], nr[1])


def test_average_keepdims():
    _compare("average", "3d", numpy.float64, axis=1, keepdims=True)


def test_average_zero_weights():
    with pytest.raises(ZeroDivisionError):
        kumo.average(kumo.ones(3), weights=kumo.zeros(3))


def test_average_weights_shape_mismatch():
    with pytest.raises(TypeError):
        kumo.average(kumo.ones((2, 3)), weights=kumo.ones(3))
    with pytest.raises(ValueError):
        kumo.average(kumo.ones((2, 3)), axis=1, weights=kumo.ones(2))


# ---------------------------------------------------------------- var / std
@pytest.mark.parametrize("func", ["var", "std"])
@pytest.mark.parametrize("layout", ["0d", "1d", "3d", "broadcast", "transposed", "negative"])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16,
                                   numpy.float32, numpy.float64, numpy.complex64, numpy.complex128])
def test_var_std(func, layout, dtype):
    _compare(func, layout, dtype)


@pytest.mark.parametrize("func", ["var", "std"])
@pytest.mark.parametrize("ddof", [0, 1, 2])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
def test_var_std_ddof_axis(func, ddof, axis):
    _compare(func, "3d", numpy.float64, axis=axis, ddof=ddof)


@pytest.mark.parametrize("func", ["var", "std"])
def test_var_std_keepdims_dtype(func):
    _compare(func, "3d", numpy.int32, axis=-1, keepdims=True, dtype=numpy.float32)


@pytest.mark.parametrize("func", ["var", "std"])
def test_var_std_ddof_too_large_is_inf(func):
    _compare(func, "1d", numpy.float64, ddof=7)
    _compare(func, "1d", numpy.float64, ddof=9)


@pytest.mark.parametrize("func", ["var", "std"])
def test_var_std_correction(func):
    _compare(func, "3d", numpy.float64, axis=1, correction=1)


@pytest.mark.parametrize("func", ["var", "std"])
def test_var_std_out(func):
    n, k = make_pair("3d", numpy.float64)
    out = kumo.zeros((2, 3))
    assert getattr(kumo, func)(k, axis=2, out=out, ddof=1) is out
    _same(out, getattr(numpy, func)(n, axis=2, ddof=1))


@pytest.mark.parametrize("func", ["var", "std"])
def test_var_std_where(func):
    n, k = make_pair("3d", numpy.float64)
    mask = numpy.array([True, True, False, True])
    _same(getattr(kumo, func)(k, axis=2, where=kumo.asarray(mask)), getattr(numpy, func)(n, axis=2, where=mask))


def test_var_mean_argument():
    n, k = make_pair("3d", numpy.float64)
    nm = numpy.mean(n, axis=1, keepdims=True)
    _same(kumo.var(k, axis=1, mean=kumo.asarray(nm)), numpy.var(n, axis=1, mean=nm))


# ---------------------------------------------------------------- nan-functions
def _nan_pair(dtype, shape=(3, 4)):
    rng = numpy.random.default_rng(1)
    n = rng.integers(-5, 5, size=shape).astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        n = n + 1j * rng.integers(-5, 5, size=shape)
    n.flat[[1, 5, 6]] = numpy.nan
    return n, kumo.asarray(n)


NAN_FUNCS = ["nansum", "nanprod", "nanmin", "nanmax", "nanargmin", "nanargmax", "nanmean", "nanvar", "nanstd"]


@pytest.mark.parametrize("func", NAN_FUNCS)
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64, numpy.complex64])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_nan_functions(func, dtype, axis):
    n, k = _nan_pair(dtype)
    if numpy.dtype(dtype).kind == "c" and func in ("nanmin", "nanmax"):
        pytest.skip("NumPy's nanmin/nanmax of complex is lexicographic with its own NaN handling")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(getattr(kumo, func)(k, axis=axis), getattr(numpy, func)(n, axis=axis))


@pytest.mark.parametrize("func", NAN_FUNCS)
@pytest.mark.parametrize("layout", ["0d", "1d", "3d", "transposed", "negative", "broadcast"])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64, numpy.bool_])
def test_nan_functions_layouts(func, layout, dtype):
    if func in ("nanvar", "nanstd", "nanmean") and dtype == numpy.bool_:
        pytest.skip("NumPy rejects bool here in some versions")
    _compare(func, layout, dtype)


@pytest.mark.parametrize("func", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin"])
def test_nan_functions_keepdims(func):
    n, k = _nan_pair(numpy.float64, (2, 3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(getattr(kumo, func)(k, axis=(0, 2), keepdims=True),
              getattr(numpy, func)(n, axis=(0, 2), keepdims=True))


@pytest.mark.parametrize("func", ["nanmax", "nanmin", "nanmean", "nanvar", "nanstd"])
def test_nan_all_nan_slice_is_nan(func):
    n = numpy.array([[numpy.nan, numpy.nan], [1.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(getattr(kumo, func)(kumo.asarray(n), axis=1), getattr(numpy, func)(n, axis=1))


@pytest.mark.parametrize("func", ["nanargmax", "nanargmin"])
def test_nanarg_all_nan_raises(func):
    n = numpy.array([[numpy.nan, numpy.nan], [1.0, 2.0]])
    with pytest.raises(ValueError):
        getattr(numpy, func)(n, axis=1)
    with pytest.raises(ValueError):
        getattr(kumo, func)(kumo.asarray(n), axis=1)


@pytest.mark.parametrize("func", ["nansum", "nanprod"])
def test_nansum_all_nan(func):
    n = numpy.full((2, 2), numpy.nan)
    _same(getattr(kumo, func)(kumo.asarray(n)), getattr(numpy, func)(n))


@pytest.mark.parametrize("func", ["nansum", "nanmean"])
def test_nan_functions_out_dtype(func):
    n, k = _nan_pair(numpy.float32)
    _same(getattr(kumo, func)(k, axis=0, dtype=numpy.float64), getattr(numpy, func)(n, axis=0, dtype=numpy.float64))
    out = kumo.zeros(4, dtype=numpy.float64)
    assert getattr(kumo, func)(k, axis=0, out=out) is out
    _same(out, getattr(numpy, func)(n, axis=0).astype(numpy.float64))


@pytest.mark.parametrize("func", ["nanvar", "nanstd"])
def test_nanvar_ddof(func):
    n, k = _nan_pair(numpy.float64)
    _same(getattr(kumo, func)(k, axis=1, ddof=1), getattr(numpy, func)(n, axis=1, ddof=1))


# ---------------------------------------------------------------- cumsum / cumprod / diff
@pytest.mark.parametrize("func", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype,layout", DTYPE_LAYOUTS)
def test_cumulative_all_dtypes_layouts(func, dtype, layout):
    _compare(func, layout, dtype)


@pytest.mark.parametrize("func", ["cumsum", "cumprod"])
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("layout", ["3d"])
def test_cumulative_axis(func, axis, layout):
    _compare(func, layout, numpy.int32, axis=axis)


@pytest.mark.parametrize("func", ["cumsum", "cumprod"])
@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast", "empty"])
def test_cumulative_axis_layouts(func, layout):
    _compare(func, layout, numpy.float64, axis=0)
    _compare(func, layout, numpy.float64, axis=1)


@pytest.mark.parametrize("func", ["cumsum", "cumprod"])
def test_cumulative_dtype_and_out(func):
    n, k = make_pair("3d", numpy.int8)
    _same(getattr(kumo, func)(k, axis=1, dtype=numpy.float32), getattr(numpy, func)(n, axis=1, dtype=numpy.float32))
    out = kumo.zeros((2, 3, 4), dtype=numpy.int64)
    assert getattr(kumo, func)(k, axis=2, out=out) is out
    _same(out, getattr(numpy, func)(n, axis=2))


@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative", "broadcast", "empty"])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.uint8, numpy.int32, numpy.float32, numpy.complex128])
def test_diff(layout, dtype):
    _compare("diff", layout, dtype)


@pytest.mark.parametrize("n_order", [0, 1, 2, 3])
@pytest.mark.parametrize("axis", [0, -1, 1])
def test_diff_n_axis(n_order, axis):
    _compare("diff", "3d", numpy.int64, n=n_order, axis=axis)


def test_diff_n_too_large_gives_empty():
    _compare("diff", "1d", numpy.float64, n=10)


def test_diff_negative_n():
    _compare("diff", "1d", numpy.float64, n=-1)


def test_diff_0d_raises():
    _compare("diff", "0d", numpy.float64)


@pytest.mark.parametrize("kw", [{"prepend": 0}, {"append": 2.5}, {"prepend": 1, "append": -1}])
def test_diff_prepend_append_scalars(kw):
    _compare("diff", "3d", numpy.float64, axis=1, **kw)


def test_diff_prepend_append_arrays():
    n, k = make_pair("3d", numpy.int32)
    pre = numpy.arange(8, dtype=numpy.int32).reshape(2, 1, 4)
    app = numpy.ones((2, 2, 4), dtype=numpy.int16)
    _same(kumo.diff(k, axis=1, prepend=kumo.asarray(pre), append=kumo.asarray(app)),
          numpy.diff(n, axis=1, prepend=pre, append=app))


def test_diff_bad_axis():
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.diff(kumo.ones((2, 3)), axis=2)


# ---------------------------------------------------------------- methods
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "var", "std", "argmax", "argmin", "all",
                                  "any", "cumsum", "cumprod", "ptp"])
def test_ndarray_methods(name):
    n, k = make_pair("3d", numpy.float64)
    if name == "ptp":
        _same(getattr(k, name)(axis=1), numpy.ptp(n, axis=1))
    else:
        _same(getattr(k, name)(axis=1), getattr(n, name)(axis=1))


# ---------------------------------------------------------------- accuracy
def test_float32_sum_pairwise_accuracy():
    rng = numpy.random.default_rng(42)
    n = rng.random(10 ** 7, dtype=numpy.float32)
    ref = numpy.sum(n.astype(numpy.float64))
    err_numpy = abs(float(numpy.sum(n)) - ref)
    err_kumo = abs(float(kumo.sum(kumo.asarray(n))) - ref)
    # A naive float32 loop is off by ~1e2 here; pairwise summation by ~1e-1.
    assert err_kumo <= max(err_numpy * 2, ref * 1e-7), (err_kumo, err_numpy)


def test_float32_mean_accuracy_strided():
    rng = numpy.random.default_rng(7)
    n = rng.random((2000, 1000), dtype=numpy.float32)
    ref = numpy.mean(n.astype(numpy.float64), axis=0)
    got = kumo.asnumpy(kumo.mean(kumo.asarray(n), axis=0)).astype(numpy.float64)
    assert numpy.max(numpy.abs(got - ref)) < 1e-5


# ---------------------------------------------------------------- C++ routines (routines/reduction.h)
@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_scans(name, axis):
    n = numpy.array([[1.0, numpy.nan, 2.0], [numpy.nan, 3.0, 0.5]])
    _same(getattr(kumo, name)(kumo.asarray(n), axis=axis), getattr(numpy, name)(n, axis=axis))


def test_where_with_initial_counts_initial_once():
    n = numpy.arange(6.0).reshape(2, 3)
    w = numpy.array([True, False, True])
    _same(kumo.sum(kumo.asarray(n), axis=1, where=kumo.asarray(w), initial=10),
          numpy.sum(n, axis=1, where=w, initial=10))
    _same(kumo.add.reduce(kumo.asarray(n), axis=1, where=kumo.asarray(w), initial=10),
          numpy.add.reduce(n, axis=1, where=w, initial=10))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_extrema_of_long_arrays(name):
    # Long arrays are searched block by block: ties across blocks, a winner in
    # the tail after the last full block, and NaN in either part.
    n = numpy.zeros(4096 * 6 + 78)  # divisible by 7 for the 2-D views below
    n[5000] = n[9000] = 3.0
    n[6000] = n[17000] = -3.0
    cases = [n.copy()]
    n[-3] = 9.0
    n[-2] = -9.0
    cases.append(n.copy())
    n[-1] = numpy.nan
    cases.append(n.copy())
    n[100] = numpy.nan
    cases.append(n.copy())
    for c in cases:
        assert int(getattr(kumo, name)(kumo.asarray(c))) == int(getattr(numpy, name)(c))
        for a in (c.reshape(-1, 7), c.reshape(7, -1)):
            _same(getattr(kumo, name)(kumo.asarray(a), axis=0), getattr(numpy, name)(a, axis=0))
            _same(getattr(kumo, name)(kumo.asarray(a), axis=1), getattr(numpy, name)(a, axis=1))


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.int16, numpy.complex64])
def test_var_one_pass_over_broadcast_mean(dtype):
    rng = numpy.random.default_rng(3)
    n = (rng.random((30, 20)) * 10).astype(dtype)  # float16 sums stay finite
    k = kumo.asarray(n)
    for axis in (None, 0, 1, (0, 1)):
        got = kumo.var(k, axis=axis, ddof=1)
        ref = numpy.var(n, axis=axis, ddof=1)
        assert got.dtype == ref.dtype
        assert_allclose(got, ref, rtol=2e-3 if dtype == numpy.float16 else 1e-5)


@pytest.mark.parametrize("func", ["var", "std"])
@pytest.mark.parametrize("in_dtype", [numpy.int32, numpy.float16, numpy.float32, numpy.complex128])
@pytest.mark.parametrize("dtype", [None, numpy.float16, numpy.float32, numpy.float64, numpy.complex64])
def test_var_and_std_result_in_the_given_dtype(func, in_dtype, dtype):
    n = (numpy.arange(12).reshape(3, 4) * (1 + 1j if numpy.dtype(in_dtype).kind == "c" else 1)).astype(in_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        want = getattr(numpy, func)(n, axis=0, dtype=dtype)
    got = getattr(kumo, func)(kumo.asarray(n), axis=0, dtype=dtype)
    assert got.dtype == want.dtype
    numpy.testing.assert_allclose(kumo.asnumpy(got), want, rtol=2e-3)


@pytest.mark.parametrize("func", ["all", "any"])
@pytest.mark.parametrize("out_dtype", [numpy.bool_, numpy.int32, numpy.float64, numpy.complex64])
def test_all_and_any_cast_into_an_out_of_any_dtype(func, out_dtype):
    n = numpy.array([[1, 0, 2], [0, 0, 3]], numpy.int32)
    want = getattr(numpy, func)(n, axis=0, out=numpy.empty(3, out_dtype))
    out = kumo.empty(3, out_dtype)
    got = getattr(kumo, func)(kumo.asarray(n), axis=0, out=out)
    assert got is out
    assert_array_equal(out, want)


def test_sum_into_a_wider_out_accumulates_in_the_outs_dtype():
    n = numpy.array([1e8, 1, -1e8], numpy.float32)
    want = numpy.sum(n, out=numpy.empty((), numpy.float64))
    out = kumo.empty((), numpy.float64)
    kumo.sum(kumo.asarray(n), out=out)
    assert float(out) == float(want) == 1.0


@pytest.mark.parametrize("func", ["sum", "prod"])
def test_float16_sum_and_prod_accumulate_in_float32(func):
    n = numpy.full((10, 100), 1.001, numpy.float16)
    for axis in (None, 1):
        assert_array_equal(getattr(kumo, func)(kumo.asarray(n), axis=axis), getattr(numpy, func)(n, axis=axis))


@pytest.mark.parametrize("ufunc", ["subtract", "divide"])
@pytest.mark.parametrize("axis", [0, 1])
def test_initial_is_the_first_operand_of_an_ordered_reduction(ufunc, axis):
    n = numpy.array([[1.0, 2, 3], [4, 5, 0.5]])
    want = getattr(numpy, ufunc).reduce(n, axis=axis, initial=3.0)
    assert_array_equal(getattr(kumo, ufunc).reduce(kumo.asarray(n), axis=axis, initial=3.0), want)
    empty = numpy.zeros((2, 0))
    assert_array_equal(getattr(kumo, ufunc).reduce(kumo.asarray(empty), axis=1, initial=3.0),
                       getattr(numpy, ufunc).reduce(empty, axis=1, initial=3.0))


@pytest.mark.parametrize("ufunc", ["subtract", "divide"])
@pytest.mark.parametrize("axis", [0, 1])
def test_ordered_reduction_with_initial_skips_the_elements_where_leaves_out(ufunc, axis):
    n = numpy.array([[1.0, 2, 3], [4, 5, 6]])
    mask = numpy.array([[True, False, True], [False, True, True]])
    want = getattr(numpy, ufunc).reduce(n, axis=axis, initial=10.0, where=mask)
    got = getattr(kumo, ufunc).reduce(kumo.asarray(n), axis=axis, initial=10.0, where=kumo.asarray(mask))
    assert_array_equal(got, want)


@pytest.mark.parametrize("where", [None, True, False])
def test_ordered_reduction_of_a_0d_array_puts_initial_first(where):
    n = numpy.array(3.0)
    kw = {} if where is None else {"where": numpy.array(where)}
    kkw = {} if where is None else {"where": kumo.asarray(where)}
    assert_array_equal(kumo.subtract.reduce(kumo.asarray(n), initial=10.0, **kkw),
                       numpy.subtract.reduce(n, initial=10.0, **kw))


# count_nonzero counts the values in one reduction (no boolean copy): zeros,
# -0.0 and NaN over every dtype, layout and axis form.
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("axis", [None, 0, -1, (0,), ()])
def test_count_nonzero_of_values(dtype, layout, axis):
    n = make_numpy(layout, dtype, seed=3, low=-1, high=2)
    if n.dtype.kind == "f" and n.size > 1:
        n = n.copy()
        n.flat[0] = numpy.nan
        n.flat[1] = -0.0
    k = to_kumo(n)
    if n.ndim == 0 and isinstance(axis, tuple) and axis:  # an int axis 0/-1 of a 0-d array is NumPy's legacy rule
        with pytest.raises(numpy.exceptions.AxisError):
            kumo.count_nonzero(k, axis=axis)
        return
    want = numpy.count_nonzero(n, axis=axis)
    got = kumo.count_nonzero(k, axis=axis)
    assert kumo.asnumpy(got).dtype == numpy.asarray(want).dtype
    numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


@pytest.mark.parametrize("initial", [-1.75, 300.0, 2.5, -0.5, float("nan"), float("inf"), 1e30])
@pytest.mark.parametrize("reduce", ["max", "min", "sum", "add.reduce", "maximum.reduce"])
def test_float_initial_of_an_integer_reduction(initial, reduce):
    # initial= is stored like an assignment: int() of the float, then the range check.
    n = numpy.array([1, 2], numpy.uint16)
    outcome = []
    for xp, a in ((numpy, n), (kumo, kumo.asarray(n))):
        f = xp
        for part in reduce.split("."):
            f = getattr(f, part)
        try:
            outcome.append(int(f(a, initial=initial)))
        except (ValueError, OverflowError) as e:
            outcome.append(type(e))
    assert outcome[0] == outcome[1]


@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("dtype", ["float16", "int64", "uint8", "complex64"])
@pytest.mark.parametrize("method", ["reduce", "accumulate"])
def test_logical_reduction_with_dtype_bool(name, dtype, method):
    n = numpy.array([[0, 3], [2, 0], [1, 1]], dtype=dtype)
    want = getattr(getattr(numpy, name), method)(n, dtype=bool)
    got = getattr(getattr(kumo, name), method)(kumo.asarray(n), dtype=bool)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("out_dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("fn", ["var", "std"])
def test_var_std_into_out_of_another_dtype(dtype, out_dtype, fn):
    # The stepwise path (out= of another dtype) squares bool deviations too.
    rng = numpy.random.default_rng(2)
    n = rng.integers(0, 2 if dtype == "bool" else 5, size=(5, 4)).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        want = getattr(numpy, fn)(n, keepdims=True, out=numpy.zeros((1, 1), out_dtype))
        got = getattr(kumo, fn)(kumo.asarray(n), keepdims=True, out=kumo.zeros((1, 1), out_dtype))
    numpy.testing.assert_allclose(kumo.asnumpy(got), want, rtol=2e-3)


@pytest.mark.parametrize("dtype,out_dtype", [("int64", "uint8"), ("float16", "int8"), ("bool", "bool"),
                                             ("int8", "int16"), ("float32", "float64"), ("uint8", "uint8")])
def test_ptp_into_out_follows_subtract_casting(dtype, out_dtype):
    # NumPy: the maximum into out=, then subtract(out, minimum, out=out) under same_kind.
    n = numpy.array([[3, 1, 2], [0, 4, 1]], dtype=dtype)
    outcome = []
    for xp, a in ((numpy, n), (kumo, kumo.asarray(n))):
        out = xp.zeros(3, dtype=out_dtype)
        try:
            r = xp.ptp(a, axis=0, out=out)
            assert r is out
            outcome.append(numpy.asarray(kumo.asnumpy(out) if xp is kumo else out))
        except TypeError as e:
            outcome.append(TypeError)
    if outcome[0] is TypeError or outcome[1] is TypeError:
        assert outcome[0] is outcome[1]
    else:
        numpy.testing.assert_array_equal(outcome[1], outcome[0])
