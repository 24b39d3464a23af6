"""The C++ slots behind Python's operators and ufunc calls
(bindings/fast_paths.cpp) give exactly what the complete path gives: the
same values and dtypes as NumPy, and the same exceptions."""
import operator

import numpy
import pytest

import kumo
from conftest import assert_within_ulp

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.pow]
BITWISE = [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift]
COMPARE = [operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge]
INPLACE = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv, operator.imod]


def _pair(dtype):
    x = numpy.array([3, 1, 4, 1, 5, 9], dtype=dtype)
    y = numpy.array([2, 7, 1, 8, 2, 8], dtype=dtype)
    return x, y


def _same(got, want):
    assert isinstance(got, kumo.ndarray)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


@pytest.mark.parametrize("op", BINARY + COMPARE)
@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "float64"])
def test_array_array(op, dtype):
    x, y = _pair(dtype)
    _same(op(kumo.asarray(x), kumo.asarray(y)), op(x, y))


@pytest.mark.parametrize("op", BITWISE)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32"])
def test_bitwise(op, dtype):
    if dtype == "bool" and op in (operator.lshift, operator.rshift):
        pytest.skip("NumPy has no bool shifts")
    x, y = _pair(dtype)
    y = y % 3 if dtype != "bool" else y
    _same(op(kumo.asarray(x), kumo.asarray(y)), op(x, y))


@pytest.mark.parametrize("op", BINARY + COMPARE)
@pytest.mark.parametrize("scalar", [2, 2.5, True, 1 + 1j])
@pytest.mark.parametrize("dtype", ["int16", "float32"])
def test_python_scalar_both_sides(op, scalar, dtype):
    if op in (operator.floordiv, operator.mod) and isinstance(scalar, complex):
        pytest.skip("NumPy has no complex floor division")
    if op in COMPARE[:2] + COMPARE[4:] and isinstance(scalar, complex):
        pytest.skip("complex ordering is not defined for Python complex in NumPy 2")
    x, _ = _pair(dtype)
    k = kumo.asarray(x)
    with numpy.errstate(all="ignore"):
        _same(op(k, scalar), op(x, scalar))
        _same(op(scalar, k), op(scalar, x))


@pytest.mark.parametrize("op", INPLACE)
def test_inplace_returns_the_same_object(op):
    x, y = _pair("float64")
    k = kumo.asarray(x)
    r = op(k, kumo.asarray(y))
    assert r is k
    numpy.testing.assert_array_equal(kumo.asnumpy(k), op(x.copy(), y))


def test_inplace_casting_error():
    k = kumo.arange(3)
    with pytest.raises(kumo.UFuncTypeError, match="same_kind"):
        k += 1.5
    numpy.testing.assert_array_equal(kumo.asnumpy(k), [0, 1, 2])


def test_square_for_power_two():
    # NumPy computes a ** 2 as square(a): bool ** 2 is int8.
    b = numpy.array([True, False])
    _same(kumo.asarray(b) ** 2, b ** 2)


def test_three_argument_pow_is_a_type_error():
    with pytest.raises(TypeError):
        pow(kumo.arange(3), 2, 5)


def test_negative_integer_power_raises():
    with pytest.raises(ValueError, match="negative integer powers"):
        kumo.arange(3) ** -1


@pytest.mark.parametrize("other", ["x", object()])
def test_unsupported_operand_is_a_type_error(other):
    with pytest.raises(TypeError):
        kumo.arange(3) + other


def test_broadcast_error_is_a_value_error():
    with pytest.raises(ValueError, match="could not be broadcast"):
        kumo.arange(3) + kumo.arange(4)


def test_numpy_array_on_the_left():
    x, y = _pair("float64")
    r = x + kumo.asarray(y)
    _same(r, x + y)


def test_tuple_operand():
    x, _ = _pair("int64")
    _same(kumo.asarray(x[:2]) + (1, 2), x[:2] + (1, 2))


def test_list_operand():
    x, _ = _pair("int64")
    _same(kumo.asarray(x) + [1, 2, 3, 4, 5, 6], x + [1, 2, 3, 4, 5, 6])


@pytest.mark.parametrize("name", ["add", "multiply", "less"])
def test_ufunc_call_positional(name):
    x, y = _pair("float32")
    _same(getattr(kumo, name)(kumo.asarray(x), kumo.asarray(y)), getattr(numpy, name)(x, y))


def test_ufunc_call_positional_transcendental():
    # arctan2 is not correctly rounded: NumPy's AVX-512 loop and libm differ
    # in the last bit on some inputs, so it is compared within a few ulp.
    x, y = _pair("float32")
    got = kumo.arctan2(kumo.asarray(x), kumo.asarray(y))
    assert isinstance(got, kumo.ndarray) and got.dtype == numpy.float32
    assert_within_ulp(kumo.asnumpy(got), numpy.arctan2(x, y))


def test_ufunc_call_two_outputs():
    x, y = _pair("int64")
    q, r = kumo.divmod(kumo.asarray(x), kumo.asarray(y))
    _same(q, x // y)
    _same(r, x % y)


def test_ufunc_call_with_keywords_and_out():
    x, y = _pair("float64")
    out = kumo.empty(6, dtype=kumo.float32)
    r = kumo.add(kumo.asarray(x), kumo.asarray(y), out=out, casting="unsafe")
    assert r is out
    _same(kumo.add(kumo.asarray(x), 1, dtype=kumo.float32), numpy.add(x, 1, dtype=numpy.float32))


@pytest.mark.parametrize("args", [(), (1,), (1, 2, 3, 4)])
def test_ufunc_call_argument_count(args):
    with pytest.raises(TypeError, match="positional arguments"):
        kumo.add(*args)


def test_ufunc_call_refused_loop():
    with pytest.raises(TypeError, match="boolean subtract"):
        kumo.subtract(kumo.asarray([True]), kumo.asarray([False]))


@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((4,), (4, 2)), ((2, 3, 4), (4, 2)), ((3, 0), (0, 2))])
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128"])
def test_matmul_operator(shapes, dtype):
    x = (numpy.arange(numpy.prod(shapes[0])) % 5).reshape(shapes[0]).astype(dtype)
    y = (numpy.arange(numpy.prod(shapes[1])) % 3).reshape(shapes[1]).astype(dtype)
    _same(kumo.asarray(x) @ kumo.asarray(y), x @ y)
    _same(x @ kumo.asarray(y), x @ y)


def test_matmul_operator_shape_error():
    with pytest.raises(ValueError):
        kumo.ones((2, 3)) @ kumo.ones((2, 3))


def test_results_free_their_memory_when_dropped():
    # Results of the fast paths are made outside pybind11's instance table;
    # dropping them must still give their memory back to the pool.
    pool = kumo.get_default_memory_pool()
    a = kumo.ones(1 << 16)
    before = pool.used_bytes()
    results = [a + a, a * 2.0, kumo.add(a, a), a.sum(), a[1:5], a < 1.0]
    assert pool.used_bytes() > before
    del results
    assert pool.used_bytes() == before


def test_view_results_keep_their_base():
    a = kumo.arange(10.0)
    v = a[2:8]
    w = v[1:3]
    assert v.base is a and w.base is a
    del a
    numpy.testing.assert_array_equal(kumo.asnumpy(w), [3.0, 4.0])
