"""Type promotion of binary operations against NumPy 2: every pair of the 14
dtypes, Python scalars on either side (NEP 50 weak scalars), and the
result_type / promote_types / can_cast functions."""
import itertools

import numpy
import pytest

import kumo
from conftest import ALL_DTYPES

NAMES = [numpy.dtype(d).name for d in ALL_DTYPES]
PAIRS = list(itertools.product(ALL_DTYPES, repeat=2))


def _ids(pair):
    return "%s-%s" % tuple(numpy.dtype(d).name for d in pair)


def _arr(dtype):
    return kumo.array(numpy.ones(3, dtype=dtype))


@pytest.mark.parametrize("pair", PAIRS, ids=_ids)
def test_add_dtype_of_every_pair(pair):
    a, b = pair
    want = (numpy.ones(3, a) + numpy.ones(3, b)).dtype
    got = _arr(a) + _arr(b)
    assert got.dtype == want
    assert kumo.asnumpy(got).tolist() == (numpy.ones(3, a) + numpy.ones(3, b)).tolist()


@pytest.mark.parametrize("pair", PAIRS, ids=_ids)
def test_promote_types_every_pair(pair):
    a, b = pair
    assert kumo.promote_types(a, b) == numpy.promote_types(a, b)


@pytest.mark.parametrize("pair", PAIRS, ids=_ids)
def test_result_type_every_pair(pair):
    a, b = pair
    assert kumo.result_type(a, b) == numpy.result_type(a, b)
    assert kumo.result_type(_arr(a), _arr(b)) == numpy.result_type(numpy.ones(3, a), numpy.ones(3, b))


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_every_pair(casting):
    for a, b in PAIRS:
        assert kumo.can_cast(a, b, casting=casting) == numpy.can_cast(a, b, casting=casting), (a, b, casting)


def test_can_cast_default_is_safe():
    assert kumo.can_cast("i", "d") and not kumo.can_cast("d", "i")
    assert kumo.can_cast(_arr("f"), "d")


SCALARS = [True, False, 1, -3, 300, 2.5, -0.0, 1 + 2j]


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=NAMES)
def test_python_scalar_on_either_side(dtype, scalar):
    a = numpy.ones(3, dtype)
    for fn in (lambda x, s: x + s, lambda x, s: s + x, lambda x, s: x * s):
        try:
            want = fn(a, scalar)
        except OverflowError:
            with pytest.raises(OverflowError):
                fn(_arr(dtype), scalar)
            continue
        got = fn(_arr(dtype), scalar)
        assert got.dtype == want.dtype
        numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=NAMES)
def test_result_type_with_python_scalar(dtype, scalar):
    assert kumo.result_type(_arr(dtype), scalar) == numpy.result_type(numpy.ones(3, dtype), scalar)
    assert kumo.result_type(scalar, dtype) == numpy.result_type(scalar, dtype)


@pytest.mark.parametrize("scalar", [numpy.int8(1), numpy.uint64(2), numpy.float16(1), numpy.float64(1),
                                    numpy.complex64(1)], ids=lambda s: type(s).__name__)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=NAMES)
def test_numpy_scalar_promotes_strongly(dtype, scalar):
    want = (numpy.ones(3, dtype) + scalar).dtype
    assert (_arr(dtype) + scalar).dtype == want
    assert kumo.result_type(_arr(dtype), scalar) == want


def test_result_type_python_scalars_only():
    for args in [(1,), (1.0,), (1j,), (True,), (1, 2.0), (True, 1), (1, 1j)]:
        assert kumo.result_type(*args) == numpy.result_type(*args), args


def test_result_type_many_arguments():
    args = ["i1", "u2", 3, "f2"]
    assert kumo.result_type(*args) == numpy.result_type(*args)
    args = ["b", "B", "h"]
    assert kumo.result_type(*args) == numpy.result_type(*args)


def test_uint64_int64_gives_float64():
    assert (_arr("Q") + _arr("q")).dtype == numpy.float64


def test_bool_plus_bool_is_logical_or():
    a = kumo.array(numpy.array([True, True, False, False]))
    b = kumo.array(numpy.array([True, False, True, False]))
    got = a + b
    assert got.dtype == numpy.bool_
    assert kumo.asnumpy(got).tolist() == [True, True, True, False]


def test_integer_true_division_is_float64():
    for d in ["b", "B", "h", "i", "l", "L", "?"]:
        assert (_arr(d) / _arr(d)).dtype == numpy.float64
    assert (_arr("e") / _arr("e")).dtype == numpy.float16
