"""Which error NumPy reports first, and when it reports none: the cases the
differential campaigns found (output casting before broadcasting, read-only
before value conversion, errors raised from inside a loop that does not run)."""
import numpy
import pytest

import kumo


def both_raise(fn, exc):
    with pytest.raises(exc) as n:
        fn(numpy)
    with pytest.raises(exc) as k:
        fn(kumo)
    return n.value, k.value


@pytest.mark.parametrize("out_dtype", ["bool", "uint8"])
def test_ufunc_output_casting_is_checked_before_broadcasting(out_dtype):
    def call(xp):
        out = xp.zeros((3, 4), dtype=out_dtype)
        xp.add(xp.ones((3, 4), dtype="int16"), xp.ones((2,), dtype="int16"), out=out)

    n, k = both_raise(call, TypeError)
    assert "Cannot cast ufunc 'add' output" in str(n) and "Cannot cast ufunc 'add' output" in str(k)


def test_inplace_power_into_bool_is_the_casting_error_not_the_negative_power_one():
    def call(xp):
        a = xp.zeros(3, dtype=bool)
        a **= xp.array([-1, 2, 3], dtype="int8")

    n, k = both_raise(call, TypeError)
    assert "output" in str(n) and "output" in str(k)


@pytest.mark.parametrize("shapes", [((3, 0, 5), (5,)), ((0,), ()), ((2, 0), (2, 1))])
def test_negative_integer_power_of_an_empty_result_raises_nothing(shapes):
    xs, ys = shapes
    for xp in (numpy, kumo):
        x = xp.zeros(xs, dtype="int16")
        y = xp.full(ys, -1, dtype="int16")
        assert xp.power(x, y).size == 0


def test_negative_integer_power_still_raises_with_elements():
    both_raise(lambda xp: xp.power(xp.arange(3), xp.array([1, -1, 2])), ValueError)


def test_clip_without_bounds_is_positive_which_bool_refuses():
    both_raise(lambda xp: xp.clip(xp.array([True, False]), None, None), TypeError)


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64"])
def test_clip_without_bounds_copies(dtype):
    a = kumo.arange(4).astype(dtype)
    r = kumo.clip(a, None, None)
    assert r.dtype == a.dtype and not numpy.shares_memory(kumo.asnumpy(r), kumo.asnumpy(a))
    numpy.testing.assert_array_equal(kumo.asnumpy(r), numpy.clip(numpy.arange(4).astype(dtype), None, None))


@pytest.mark.parametrize("shape", [(0, 1), (3, 3)])
def test_fill_diagonal_refuses_a_read_only_view_first(shape):
    def call(xp):
        a = xp.broadcast_to(xp.array(3, dtype="uint8"), shape)
        xp.fill_diagonal(a, 1j)  # a value uint8 cannot take: read-only is reported first

    n, k = both_raise(call, ValueError)
    assert "read-only" in str(n) and "read-only" in str(k)


@pytest.mark.parametrize("out_dtype", ["uint8", "int32"])
@pytest.mark.parametrize("axis", [None, 1])
def test_median_with_a_nan_into_an_integer_out_raises(out_dtype, axis):
    data = numpy.array([[1.0, numpy.nan, 3.0], [4.0, 5.0, 6.0]])

    def call(xp):
        out = xp.zeros(() if axis is None else (2,), dtype=out_dtype)
        xp.median(xp.asarray(data), axis=axis, out=out)

    n, k = both_raise(call, TypeError)
    assert "same_kind" in str(n) and "same_kind" in str(k)


def test_median_without_a_nan_into_an_integer_out_returns():
    data = numpy.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    n_out = numpy.zeros((2,), dtype="int32")
    k_out = kumo.zeros((2,), dtype="int32")
    numpy.median(data, axis=1, out=n_out)
    kumo.median(kumo.asarray(data), axis=1, out=k_out)
    numpy.testing.assert_array_equal(kumo.asnumpy(k_out), n_out)


def test_setitem_on_a_read_only_array_is_reported_before_the_value():
    def call(xp):
        a = xp.broadcast_to(xp.array([3], dtype="int16"), (2,))
        a[xp.asarray(numpy.array([0]))] = 1j

    n, k = both_raise(call, ValueError)
    assert "read-only" in str(n) and "read-only" in str(k)


def test_complex_into_an_integer_array_through_a_basic_index_raises_int_error():
    def call(xp):
        a = xp.zeros(3, dtype="int32")
        a[1] = 1j

    n, k = both_raise(call, TypeError)
    assert str(n) == str(k)


def test_put_refuses_a_read_only_array_before_it_converts_the_values():
    def call(xp):
        a = xp.broadcast_to(xp.array(1, dtype="uint64"), (3,))
        xp.put(a, xp.asarray(numpy.zeros(0, dtype="int64")), 3.5j)

    n, k = both_raise(call, ValueError)
    assert "read-only" in str(n) and "read-only" in str(k)


@pytest.mark.parametrize("values_shape", [(2,), (3, 1)])
def test_ufunc_at_checks_the_values_shape_even_with_an_empty_index(values_shape):
    def call(xp):
        a = xp.zeros(5, dtype="float32")
        xp.maximum.at(a, xp.asarray(numpy.zeros(0, dtype="int64")), xp.ones(values_shape, dtype="float32"))

    both_raise(call, ValueError)
