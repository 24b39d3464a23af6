"""kumo.fuse and kumo.memoize against the unfused calls and NumPy."""
import numpy
import pytest

import kumo

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int32, numpy.int64, numpy.float16, numpy.float32,
          numpy.float64, numpy.complex64]
SHAPES = [(), (0,), (5,), (3, 4)]


def _data(shape, dtype, seed):
    r = numpy.random.RandomState(seed)
    return (r.uniform(1, 5, size=shape)).astype(dtype)


def _mad(x, y, z):
    return x * y + z


fused_mad = kumo.fuse()(_mad)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_mad_matches_unfused(dtype, shape):
    n = [_data(shape, dtype, s) for s in range(3)]
    k = [kumo.asarray(a) for a in n]
    r = fused_mad(*k)
    e = _mad(*k)
    assert r.dtype == e.dtype == _mad(*n).dtype
    numpy.testing.assert_array_equal(kumo.asnumpy(r), kumo.asnumpy(e))


@pytest.mark.parametrize("scalar", [2, 2.5, True, 1j])
@pytest.mark.parametrize("dtype", [numpy.int16, numpy.float32, numpy.float64])
def test_weak_python_scalars(scalar, dtype):
    f = kumo.fuse(lambda x, s: x * s + 1)
    n = _data((4,), dtype, 1)
    r = f(kumo.asarray(n), scalar)
    e = n * scalar + 1
    assert r.dtype == e.dtype
    numpy.testing.assert_allclose(kumo.asnumpy(r), e, rtol=1e-6)


def test_broadcast_noncontiguous_negative_strides():
    n1 = numpy.arange(12.0).reshape(3, 4)[:, ::-2]
    n2 = numpy.arange(2.0)
    r = fused_mad(kumo.asarray(numpy.arange(12.0).reshape(3, 4))[:, ::-2], kumo.asarray(n2), 3.0)
    numpy.testing.assert_array_equal(kumo.asnumpy(r), n1 * n2 + 3.0)


def test_broadcast_error_is_value_error():
    with pytest.raises(ValueError):
        fused_mad(kumo.ones(3), kumo.ones(4), 1.0)


def test_ufuncs_where_astype():
    @kumo.fuse(kernel_name="mixed")
    def f(x, y):
        t = kumo.exp(x) - kumo.sqrt(y)
        return kumo.where(t > 0, t, -t).astype(numpy.float32), kumo.maximum(x, y)

    n1, n2 = _data((5,), numpy.float64, 1), _data((5,), numpy.float64, 2)
    a, b = f(kumo.asarray(n1), kumo.asarray(n2))
    t = numpy.exp(n1) - numpy.sqrt(n2)
    assert a.dtype == numpy.float32
    numpy.testing.assert_allclose(kumo.asnumpy(a), numpy.where(t > 0, t, -t).astype(numpy.float32), rtol=1e-6)
    numpy.testing.assert_array_equal(kumo.asnumpy(b), numpy.maximum(n1, n2))


def test_inplace_update():
    @kumo.fuse
    def f(x, y):
        x += y * 2

    x = kumo.arange(5.0)
    assert f(x, kumo.ones(5)) is None
    numpy.testing.assert_array_equal(kumo.asnumpy(x), numpy.arange(5.0) + 2)


@pytest.mark.parametrize("red,npred", [("sum", numpy.sum), ("prod", numpy.prod), ("amax", numpy.amax),
                                       ("amin", numpy.amin)])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float32, numpy.float64])
def test_final_reduction(red, npred, axis, dtype):
    fn = getattr(kumo, red)

    @kumo.fuse
    def f(x, y):
        return fn(x * y - 1, axis=axis)

    n1, n2 = _data((3, 4), dtype, 1), _data((4,), dtype, 2)
    r = f(kumo.asarray(n1), kumo.asarray(n2))
    e = npred(n1 * n2 - 1, axis=axis)
    assert r.dtype == e.dtype
    numpy.testing.assert_allclose(kumo.asnumpy(r), e, rtol=1e-5)


def test_empty_max_raises_value_error():
    f = kumo.fuse(lambda x: kumo.amax(x + 1))
    with pytest.raises(ValueError):
        f(kumo.zeros(0))


def test_data_dependent_control_flow_falls_back():
    @kumo.fuse
    def f(x):
        if kumo.sum(x) > 0:
            return x + 1
        return x - 1

    numpy.testing.assert_array_equal(kumo.asnumpy(f(kumo.ones(3))), numpy.full(3, 2.0))


def test_unknown_call_falls_back():
    f = kumo.fuse(lambda x: kumo.sort(x) + 1)
    numpy.testing.assert_array_equal(kumo.asnumpy(f(kumo.asarray([3.0, 1.0]))), [2.0, 4.0])


def test_numpy_arguments_call_numpy():
    f = kumo.fuse(lambda x, y: x + y)
    r = f(numpy.ones(2), numpy.ones(2))
    assert isinstance(r, numpy.ndarray)


def test_kernel_cached_per_signature():
    f = kumo.fuse(lambda x: x * 2)
    f(kumo.ones(3))
    f(kumo.ones(4))
    f(kumo.ones(3, dtype=numpy.int32))
    assert len(f._cache) == 2


def test_memoize():
    calls = []

    @kumo.memoize()
    def g(a, b=1):
        calls.append(a)
        return a + b

    assert g(1) == 2 and g(1) == 2 and g(2, b=3) == 5
    assert calls == [1, 2]
    kumo.clear_memo()
    g(1)
    assert calls == [1, 2, 1]

    @kumo.memoize(for_each_device=True)
    def h(a):
        calls.append(a)
        return a

    h(7), h(7)
    assert calls.count(7) == 1


def test_weak_int_overflow_not_hidden_by_cache():
    f = kumo.fuse(lambda x, s: x + s)
    x = kumo.ones(3, dtype=numpy.int8)
    numpy.testing.assert_array_equal(kumo.asnumpy(f(x, 3)), numpy.full(3, 4, dtype=numpy.int8))
    with pytest.raises(OverflowError):
        numpy.ones(3, dtype=numpy.int8) + 300
    with pytest.raises(OverflowError):
        f(x, 300)


def test_two_inplace_updates_and_a_result():
    @kumo.fuse
    def f(x, y):
        x += 1
        y *= 2
        return x + y

    x, y = kumo.arange(3.0), kumo.arange(3.0)
    r = f(x, y)
    numpy.testing.assert_array_equal(kumo.asnumpy(x), numpy.arange(3.0) + 1)
    numpy.testing.assert_array_equal(kumo.asnumpy(y), numpy.arange(3.0) * 2)
    numpy.testing.assert_array_equal(kumo.asnumpy(r), numpy.arange(3.0) * 3 + 1)
    assert f._cache[next(iter(f._cache))] != "unfused"
