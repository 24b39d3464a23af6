"""ufunc.reduce, accumulate, outer and at against NumPy."""
import warnings

import numpy
import pytest

import kumo
from conftest import assert_array_equal, make_numpy, to_kumo

REDUCIBLE = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
             "bitwise_and", "bitwise_or", "bitwise_xor", "subtract", "gcd", "lcm", "hypot", "logaddexp"]


def _ref(fn):
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def check(got, want, rtol=0):
    want = numpy.asarray(want)
    assert isinstance(got, kumo.ndarray), type(got)
    g = kumo.asnumpy(got)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    if rtol:
        numpy.testing.assert_allclose(g, want, rtol=rtol)
    else:
        numpy.testing.assert_array_equal(g, want)


def _dtype_for(name):
    if name in ("hypot", "logaddexp"):
        return "d"
    if name in ("gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor"):
        return "i"
    return "l" if name in ("add", "multiply", "subtract") else "d"


def compare_reduce(name, a, rtol=0, **kw):
    try:
        want = _ref(lambda: getattr(numpy, name).reduce(a, **kw))
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)):
            getattr(kumo, name).reduce(to_kumo(a), **kw)
        return
    got = getattr(kumo, name).reduce(to_kumo(a), **kw)
    check(got, want, rtol)


# ---- reduce --------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3, None, (0, 2), (), (2, 0, 1)], ids=repr)
@pytest.mark.parametrize("name", REDUCIBLE)
def test_reduce_axis(name, axis):
    a = make_numpy("3d", _dtype_for(name), seed=1)
    compare_reduce(name, a, axis=axis, rtol=1e-12 if name in ("hypot", "logaddexp") else 0)


@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast", "0d"])
@pytest.mark.parametrize("name", ["add", "maximum", "multiply"])
def test_reduce_layouts(name, layout):
    a = make_numpy(layout, "d", seed=2)
    compare_reduce(name, a, axis=None)
    if a.ndim:
        compare_reduce(name, a, axis=0)
        compare_reduce(name, a, axis=-1)


@pytest.mark.parametrize("name", ["add", "maximum", "logical_or"])
def test_reduce_keepdims(name):
    a = make_numpy("3d", "d", seed=3)
    for axis in (None, 1, (0, 2)):
        compare_reduce(name, a, axis=axis, keepdims=True)


@pytest.mark.parametrize("dtype", ["?", "b", "B", "h", "i", "I", "l", "L", "e", "f", "F"])
@pytest.mark.parametrize("name", ["add", "multiply"])
def test_reduce_default_accumulator_dtype(name, dtype):
    a = make_numpy("3d", dtype, seed=4)
    compare_reduce(name, a, axis=None, rtol=1e-3 if dtype in "eF" else 0)
    compare_reduce(name, a, axis=1, rtol=1e-3 if dtype in "eF" else 0)


@pytest.mark.parametrize("dtype", ["f", "d", "l", "i"])
def test_reduce_dtype_keyword(dtype):
    a = make_numpy("3d", "b", seed=5)
    compare_reduce("add", a, axis=0, dtype=dtype)
    compare_reduce("maximum", a, axis=2, dtype=dtype)


def test_reduce_out():
    a = make_numpy("3d", "d", seed=6)
    out = kumo.zeros((2, 4))
    r = kumo.add.reduce(to_kumo(a), axis=1, out=out)
    assert r is out
    numpy.testing.assert_array_equal(kumo.asnumpy(out), numpy.add.reduce(a, axis=1))
    with pytest.raises(ValueError):
        kumo.add.reduce(to_kumo(a), axis=1, out=kumo.zeros((3, 4)))


@pytest.mark.parametrize("name,initial", [("add", 10), ("multiply", 2), ("maximum", 100), ("minimum", -100),
                                          ("maximum", -100)])
def test_reduce_initial(name, initial):
    a = make_numpy("3d", "l", seed=7)
    compare_reduce(name, a, axis=1, initial=initial)
    compare_reduce(name, a, axis=None, initial=initial)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "logical_and"])
def test_reduce_where(name):
    a = make_numpy("3d", "d", seed=8)
    mask = make_numpy("3d", "?", seed=9)
    initial = {"maximum": -numpy.inf}.get(name, numpy._NoValue)
    kw = {} if initial is numpy._NoValue else {"initial": initial}
    want = _ref(lambda: getattr(numpy, name).reduce(a, axis=1, where=mask, **kw))
    got = getattr(kumo, name).reduce(to_kumo(a), axis=1, where=to_kumo(mask), **kw)
    check(got, want)


def test_reduce_where_without_identity_needs_initial():
    a = make_numpy("1d", "d")
    with pytest.raises(ValueError):
        numpy.maximum.reduce(a, where=a > 0)
    with pytest.raises(ValueError):
        kumo.maximum.reduce(to_kumo(a), where=to_kumo(a > 0))


@pytest.mark.parametrize("name", ["add", "multiply", "logical_and", "logical_or", "bitwise_and", "bitwise_or"])
def test_reduce_empty_with_identity(name):
    a = numpy.zeros((0, 3), dtype="i" if "bitwise" in name else "d")
    compare_reduce(name, a, axis=0)
    compare_reduce(name, a, axis=None)
    compare_reduce(name, a, axis=1)


@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "subtract"])
def test_reduce_empty_without_identity_raises(name):
    a = numpy.zeros((0, 3))
    with pytest.raises(ValueError):
        numpy.__dict__[name].reduce(a, axis=0)
    with pytest.raises(ValueError):
        getattr(kumo, name).reduce(to_kumo(a), axis=0)
    compare_reduce(name, a, axis=1)  # reducing the non-empty axis is fine


def test_reduce_empty_with_initial():
    a = numpy.zeros((0, 3))
    compare_reduce("maximum", a, axis=0, initial=5.0)


def test_reduce_nan_propagation():
    a = numpy.array([[1.0, numpy.nan, 3.0], [numpy.nan, numpy.nan, 0.0]])
    for name in ("maximum", "minimum", "fmax", "fmin", "add"):
        compare_reduce(name, a, axis=1)


def test_reduce_bad_axis_raises_axis_error():
    a = to_kumo(make_numpy("3d", "d"))
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.add.reduce(a, axis=3)
    with pytest.raises(ValueError):
        kumo.add.reduce(a, axis=(0, 0))


def test_reduce_unary_ufunc_raises():
    with pytest.raises(ValueError):
        kumo.sqrt.reduce(kumo.ones(3))


# ---- accumulate ----------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract", "logical_or"])
def test_accumulate_axis(name, axis):
    a = make_numpy("3d", "d", seed=10)
    check(getattr(kumo, name).accumulate(to_kumo(a), axis=axis), getattr(numpy, name).accumulate(a, axis=axis))


@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast", "empty"])
def test_accumulate_layouts(layout):
    a = make_numpy(layout, "d", seed=11)
    check(kumo.add.accumulate(to_kumo(a)), numpy.add.accumulate(a))
    check(kumo.add.accumulate(to_kumo(a), axis=1), numpy.add.accumulate(a, axis=1))


@pytest.mark.parametrize("src,dtype", [("b", None), ("?", None), ("B", None), ("b", "f"), ("d", "f"), ("i", "d")])
def test_accumulate_dtype(src, dtype):
    a = make_numpy("3d", src, seed=12)
    check(kumo.add.accumulate(to_kumo(a), axis=2, dtype=dtype), numpy.add.accumulate(a, axis=2, dtype=dtype))
    check(kumo.multiply.accumulate(to_kumo(a), dtype=dtype), numpy.multiply.accumulate(a, dtype=dtype))


def test_accumulate_out():
    a = make_numpy("1d", "d")
    out = kumo.zeros(7)
    r = kumo.add.accumulate(to_kumo(a), out=out)
    assert r is out
    numpy.testing.assert_array_equal(kumo.asnumpy(out), numpy.add.accumulate(a))


# ---- outer -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "less", "maximum", "power", "arctan2"])
def test_outer(name):
    a = make_numpy("1d", "d", seed=13)
    b = make_numpy("3d", "d", seed=14)
    want = _ref(lambda: getattr(numpy, name).outer(a, b))
    check(getattr(kumo, name).outer(to_kumo(a), to_kumo(b)), want, rtol=1e-12)


def test_outer_mixed_dtypes_and_scalars():
    a = make_numpy("1d", "b", seed=15)
    b = make_numpy("1d", "f", seed=16)
    check(kumo.multiply.outer(to_kumo(a), to_kumo(b)), numpy.multiply.outer(a, b))
    check(kumo.add.outer(to_kumo(a), 3), numpy.add.outer(a, 3))


def test_outer_unary_raises():
    with pytest.raises(ValueError):
        kumo.sqrt.outer(kumo.ones(2), kumo.ones(2))


# ---- at --------------------------------------------------------------------------------


def test_at_repeated_indices_accumulate():
    a = numpy.arange(6, dtype="d")
    k = to_kumo(a)
    idx = numpy.array([0, 1, 1, 5, 0, 0])
    numpy.add.at(a, idx, 1.0)
    kumo.add.at(k, kumo.array(idx), 1.0)
    numpy.testing.assert_array_equal(kumo.asnumpy(k), a)
    assert a[0] == 3.0


def test_at_with_array_values_and_list_index():
    a = numpy.zeros(4, dtype="l")
    k = to_kumo(a)
    vals = numpy.array([1, 2, 3, 4, 5])
    numpy.multiply.at(a, [0, 0, 1, 2, 3], 0)
    kumo.multiply.at(k, [0, 0, 1, 2, 3], 0)
    numpy.add.at(a, [3, 3, 3, 2, 0], vals)
    kumo.add.at(k, [3, 3, 3, 2, 0], kumo.array(vals))
    check(k, a)


def test_at_unary_and_2d_index():
    a = make_numpy("3d", "d", seed=17).reshape(6, 4)
    k = to_kumo(a)
    numpy.negative.at(a, (numpy.array([0, 2, 2]), numpy.array([1, 1, 1])))
    kumo.negative.at(k, (kumo.array(numpy.array([0, 2, 2])), kumo.array(numpy.array([1, 1, 1]))))
    check(k, a)
    numpy.maximum.at(a, [1, 1, 4], 100.0)
    kumo.maximum.at(k, [1, 1, 4], 100.0)
    check(k, a)


def test_at_out_of_bounds_raises_index_error():
    with pytest.raises(IndexError):
        kumo.add.at(kumo.zeros(3), [5], 1)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or", "bitwise_xor", "subtract"])
@pytest.mark.parametrize("indices", [[0, 4, 1, 5], [5, 2], [0], [3, 3, 7], [7]])
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float32, numpy.bool_])
def test_reduceat_matches_numpy(name, indices, dtype):
    n = (numpy.arange(8) % 5).astype(dtype)
    if name in ("subtract", "bitwise_xor") and dtype == numpy.bool_:
        return  # NumPy has no bool loop for them either way
    if name == "bitwise_xor" and dtype == numpy.float32:
        return
    want = getattr(numpy, name).reduceat(n, indices)
    assert_array_equal(getattr(kumo, name).reduceat(kumo.asarray(n), indices), want)


def test_reduceat_along_an_axis_with_dtype_out_and_bad_indices():
    n = numpy.arange(24).reshape(2, 3, 4)[:, ::-1]
    k = kumo.asarray(numpy.arange(24)).reshape(2, 3, 4)[:, ::-1]
    assert_array_equal(kumo.add.reduceat(k, [0, 2], axis=1), numpy.add.reduceat(n, [0, 2], axis=1))
    assert_array_equal(kumo.add.reduceat(k, [1, 0], axis=-1, dtype=float), numpy.add.reduceat(n, [1, 0], axis=-1, dtype=float))
    out = kumo.zeros((2, 3, 2))
    kumo.add.reduceat(k, [0, 3], axis=2, out=out)
    assert_array_equal(out, numpy.add.reduceat(n, [0, 3], axis=2).astype(float))
    for bad in ([4], [-1]):
        with pytest.raises(IndexError):
            numpy.add.reduceat(n, bad, axis=2)
        with pytest.raises(IndexError):
            kumo.add.reduceat(k, bad, axis=2)
    with pytest.raises(TypeError):
        kumo.add.reduceat(kumo.asarray(5), [0])
