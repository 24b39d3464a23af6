"""Python numbers outside an array's dtype range, and output casting with
where=: the same result or the same exception as NumPy."""
import numpy
import pytest

import kumo
from conftest import assert_array_equal


@pytest.mark.parametrize("value", [300, -300, 2**40])
@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
def test_logical_ufuncs_take_any_python_int_as_a_truth_value(name, value):
    n = numpy.array([1, 0, 2], numpy.int8)
    assert_array_equal(getattr(kumo, name)(kumo.asarray(n), value), getattr(numpy, name)(n, value))
    assert_array_equal(getattr(kumo, name)(value, kumo.asarray(n)), getattr(numpy, name)(value, n))
    with pytest.raises(OverflowError):  # NumPy cannot convert it
        getattr(numpy, name)(n, 2**63)
    with pytest.raises(OverflowError):
        getattr(kumo, name)(kumo.asarray(n), 2**63)


def test_ufunc_at_casts_a_python_int_unsafely_as_numpy():
    n = numpy.zeros(3, numpy.int8)
    k = kumo.zeros(3, numpy.int8)
    numpy.add.at(n, [0, 0, 2], 300)
    kumo.add.at(k, [0, 0, 2], 300)
    assert_array_equal(k, n)


@pytest.mark.parametrize("call", [
    lambda m, a: m.fill_diagonal(a, 300),
    lambda m, a: m.insert(a.ravel(), 1, 300),
    lambda m, a: m.insert(a.ravel(), 1, [1, 300]),
], ids=["fill_diagonal", "insert", "insert_list"])
def test_python_int_out_of_the_arrays_range_is_an_overflow_error(call):
    with pytest.raises(OverflowError):
        call(numpy, numpy.zeros((3, 3), numpy.int8))
    with pytest.raises(OverflowError):
        call(kumo, kumo.zeros((3, 3), numpy.int8))


def test_fill_diagonal_and_insert_cast_arrays_unsafely():
    n, k = numpy.zeros((3, 3), numpy.int8), kumo.zeros((3, 3), numpy.int8)
    numpy.fill_diagonal(n, numpy.array([300, 1.5, -1]))
    kumo.fill_diagonal(k, kumo.asarray([300, 1.5, -1]))
    assert_array_equal(k, n)
    n1 = numpy.array([1, 2], numpy.int64)
    assert_array_equal(kumo.insert(kumo.asarray(n1), 1, 2.5), numpy.insert(n1, 1, 2.5))


@pytest.mark.parametrize("casting", ["same_kind", "safe", "no"])
def test_where_keeps_the_output_casting_rule(casting):
    x, out, where = numpy.array([1.5, 2.5]), numpy.zeros(2, numpy.int64), numpy.array([True, False])
    with pytest.raises(TypeError):
        numpy.add(x, 1, out=out, where=where, casting=casting)
    with pytest.raises(TypeError):
        kumo.add(kumo.asarray(x), 1, out=kumo.asarray(out), where=kumo.asarray(where), casting=casting)
    ko = kumo.zeros(2, numpy.int64)
    kumo.add(kumo.asarray(x), 1, out=ko, where=kumo.asarray(where), casting="unsafe")
    assert_array_equal(ko, numpy.add(x, 1, out=out, where=where, casting="unsafe"))
