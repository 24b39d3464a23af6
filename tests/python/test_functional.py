"""apply_along_axis, apply_over_axes, piecewise and vectorize against NumPy."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_allclose, assert_array_equal, make_pair


def both_raise(exc, np_fn, k_fn):
    with pytest.raises(exc):
        np_fn()
    with pytest.raises(exc):
        k_fn()


def _xp(v):
    return kumo if isinstance(v, kumo.ndarray) else numpy


# ---- apply_along_axis -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_apply_along_axis_dtypes(dtype, axis):
    n, k = make_pair("3d", dtype)
    fn = lambda v: v[::-1]  # noqa: E731
    got = kumo.apply_along_axis(fn, axis, k)
    assert isinstance(got, kumo.ndarray)
    assert_array_equal(got, numpy.apply_along_axis(fn, axis, n))


@pytest.mark.parametrize("layout", ["1d", "3d", "broadcast", "transposed", "negative"])
def test_apply_along_axis_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    assert_allclose(kumo.apply_along_axis(lambda v: _xp(v).sum(v), 0, k), numpy.apply_along_axis(numpy.sum, 0, n))


def test_apply_along_axis_result_dims_and_args():
    n = numpy.arange(24.0).reshape(2, 3, 4)
    k = kumo.asarray(n)
    outer = lambda v, s: _xp(v).outer(v, v) * s  # noqa: E731
    for axis in range(3):
        assert_allclose(kumo.apply_along_axis(outer, axis, k, 2.0), numpy.apply_along_axis(outer, axis, n, 2.0))
    scalar = lambda v, p=1: float(v[0]) ** p  # noqa: E731
    assert_allclose(kumo.apply_along_axis(scalar, 1, k, p=2), numpy.apply_along_axis(scalar, 1, n, p=2))


def test_apply_along_axis_errors():
    n = numpy.zeros((0, 3))
    both_raise(ValueError, lambda: numpy.apply_along_axis(numpy.sum, 1, n),
               lambda: kumo.apply_along_axis(kumo.sum, 1, kumo.asarray(n)))
    both_raise(numpy.exceptions.AxisError, lambda: numpy.apply_along_axis(numpy.sum, 2, numpy.ones((2, 2))),
               lambda: kumo.apply_along_axis(kumo.sum, 2, kumo.ones((2, 2))))


# ---- apply_over_axes --------------------------------------------------------------------

@pytest.mark.parametrize("axes", [0, [0, 2], (-1,), [1, -1]])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64, numpy.complex64])
def test_apply_over_axes(axes, dtype):
    n, k = make_pair("3d", dtype)
    assert_allclose(kumo.apply_over_axes(kumo.sum, k, axes), numpy.apply_over_axes(numpy.sum, n, axes))


def test_apply_over_axes_keepdims_function():
    n, k = make_pair("3d", numpy.float64)
    fk = lambda a, axis: kumo.max(a, axis=axis, keepdims=True)  # noqa: E731
    fn = lambda a, axis: numpy.max(a, axis=axis, keepdims=True)  # noqa: E731
    assert_allclose(kumo.apply_over_axes(fk, k, [0, 1]), numpy.apply_over_axes(fn, n, [0, 1]))


def test_apply_over_axes_bad_shape():
    n, k = make_pair("3d", numpy.float64)
    both_raise(ValueError, lambda: numpy.apply_over_axes(lambda a, ax: a.ravel(), n, [0]),
               lambda: kumo.apply_over_axes(lambda a, ax: a.ravel(), k, [0]))


# ---- piecewise --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [numpy.int16, numpy.float32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_piecewise_functions(dtype, layout):
    n, k = make_pair(layout, dtype)
    with numpy.errstate(all="ignore"):
        want = numpy.piecewise(n, [n.real < 0, n.real >= 0], [lambda v: -v, lambda v: v * 2])
    got = kumo.piecewise(k, [k.real < 0, k.real >= 0], [lambda v: -v, lambda v: v * 2])
    assert_array_equal(got, want)


def test_piecewise_otherwise_and_constants():
    n = numpy.linspace(-2.5, 2.5, 11)
    k = kumo.asarray(n)
    assert_array_equal(kumo.piecewise(k, [k < -1, k > 1], [-1.0, lambda v: v ** 2, 0.5]),
                       numpy.piecewise(n, [n < -1, n > 1], [-1.0, lambda v: v ** 2, 0.5]))
    assert_array_equal(kumo.piecewise(k, k > 0, [lambda v: v + 1]), numpy.piecewise(n, n > 0, [lambda v: v + 1]))
    assert_array_equal(kumo.piecewise(k, [k > 0], [3, 4]), numpy.piecewise(n, [n > 0], [3, 4]))


def test_piecewise_extra_args():
    n = numpy.arange(6.0)
    k = kumo.asarray(n)
    f = lambda v, a, b=0: v * a + b  # noqa: E731
    assert_array_equal(kumo.piecewise(k, [k < 3], [f, 0], 2, b=1), numpy.piecewise(n, [n < 3], [f, 0], 2, b=1))


def test_piecewise_scalar_input():
    assert_array_equal(kumo.piecewise(kumo.asarray(3.0), [True, False], [1, 2]),
                       numpy.piecewise(numpy.float64(3.0), [True, False], [1, 2]))


def test_piecewise_wrong_count():
    n = numpy.arange(4.0)
    both_raise(ValueError, lambda: numpy.piecewise(n, [n < 1, n > 2], [1]),
               lambda: kumo.piecewise(kumo.asarray(n), [kumo.asarray(n) < 1, kumo.asarray(n) > 2], [1]))


# ---- vectorize --------------------------------------------------------------------------

def _branchy(a, b):
    return a - b if a > b else a + b


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint32, numpy.int64, numpy.float32,
                                   numpy.float64, numpy.complex64])
def test_vectorize_dtypes(dtype):
    n, k = make_pair("3d", dtype)
    f = lambda v: v * 2  # noqa: E731
    got = kumo.vectorize(f)(k)
    assert isinstance(got, kumo.ndarray)
    assert_array_equal(got, numpy.vectorize(f)(n))


@pytest.mark.parametrize("layout", ["0d", "1d", "3d", "broadcast", "transposed", "negative"])
def test_vectorize_broadcast_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    assert_array_equal(kumo.vectorize(_branchy)(k, 1.5), numpy.vectorize(_branchy)(n, 1.5))


def test_vectorize_otypes_and_multiple_outputs():
    n = numpy.arange(5)
    k = kumo.asarray(n)
    f = lambda v: (v, v * 2.5)  # noqa: E731
    got = kumo.vectorize(f, otypes=[int, float])(k)
    want = numpy.vectorize(f, otypes=[int, float])(n)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want):
        assert_array_equal(g, w)
    assert_array_equal(kumo.vectorize(lambda v: v / 2, otypes="f")(k), numpy.vectorize(lambda v: v / 2, otypes="f")(n))
    got = kumo.vectorize(f)(k)
    for g, w in zip(got, numpy.vectorize(f)(n)):
        assert_array_equal(g, w)


def test_vectorize_empty_input():
    both_raise(ValueError, lambda: numpy.vectorize(abs)(numpy.zeros(0)), lambda: kumo.vectorize(abs)(kumo.zeros(0)))
    assert_array_equal(kumo.vectorize(abs, otypes=[float])(kumo.zeros((0, 2))),
                       numpy.vectorize(abs, otypes=[float])(numpy.zeros((0, 2))))


def test_vectorize_invalid_otype():
    both_raise(ValueError, lambda: numpy.vectorize(abs, otypes="?z"), lambda: kumo.vectorize(abs, otypes="?z"))


def test_vectorize_excluded():
    def poly(x, coeffs):
        return sum(c * x ** i for i, c in enumerate(coeffs))
    n = numpy.arange(4.0)
    want = numpy.vectorize(poly, excluded=["coeffs"])(n, coeffs=[1, 2, 3])
    assert_array_equal(kumo.vectorize(poly, excluded=["coeffs"])(kumo.asarray(n), coeffs=[1, 2, 3]), want)
    want = numpy.vectorize(poly, excluded={1})(n, [1, 2, 3])
    assert_array_equal(kumo.vectorize(poly, excluded={1})(kumo.asarray(n), [1, 2, 3]), want)


def test_vectorize_cache_calls_first_once():
    calls = []

    def f(v):
        calls.append(v)
        return v + 1
    kumo.vectorize(f, cache=True)(kumo.arange(4))
    assert len(calls) == 4
    calls.clear()
    kumo.vectorize(f)(kumo.arange(4))
    assert len(calls) == 5  # once more to find the output type, as NumPy


def test_vectorize_attributes_and_decorator():
    def f(v):
        """doc of f"""
        return v
    vf = kumo.vectorize(f)
    assert vf.pyfunc is f
    assert vf.__doc__ == "doc of f"
    assert kumo.vectorize(f, doc="other").__doc__ == "other"

    @kumo.vectorize
    def g(v):
        return v * 3
    assert_array_equal(g(kumo.arange(3)), numpy.arange(3) * 3)

    @kumo.vectorize(otypes=[float])
    def h(v):
        return v / 4
    assert_array_equal(h(kumo.arange(3)), numpy.arange(3) / 4)


def test_vectorize_signature():
    n = numpy.arange(24.0).reshape(2, 3, 4)
    k = kumo.asarray(n)
    got = kumo.vectorize(lambda v: (v * v).sum(), signature="(n)->()")(k)
    assert_allclose(got, (n * n).sum(-1))
    mv = kumo.vectorize(lambda m, v: m @ v, signature="(m,n),(n)->(m)")
    mn = numpy.vectorize(lambda m, v: m @ v, signature="(m,n),(n)->(m)")
    v = numpy.array([1.0, -1.0, 2.0, 0.5])
    assert_allclose(mv(k, kumo.asarray(v)), mn(n, v))
    two = kumo.vectorize(lambda v: (v.min(), v.max()), signature="(n)->(),()")
    for g, w in zip(two(k), numpy.vectorize(lambda v: (v.min(), v.max()), signature="(n)->(),()")(n)):
        assert_allclose(g, w)


def test_vectorize_signature_errors():
    f = lambda m, v: m @ v  # noqa: E731
    sig = "(m,n),(n)->(m)"
    both_raise(ValueError, lambda: numpy.vectorize(f, signature=sig)(numpy.ones((2, 3)), numpy.ones(4)),
               lambda: kumo.vectorize(f, signature=sig)(kumo.ones((2, 3)), kumo.ones(4)))
    both_raise(ValueError, lambda: numpy.vectorize(f, signature=sig)(numpy.ones(3), numpy.ones(3)),
               lambda: kumo.vectorize(f, signature=sig)(kumo.ones(3), kumo.ones(3)))
    both_raise(TypeError, lambda: numpy.vectorize(f, signature=sig)(numpy.ones((2, 3))),
               lambda: kumo.vectorize(f, signature=sig)(kumo.ones((2, 3))))
    both_raise(ValueError, lambda: numpy.vectorize(f, signature="(n->m)"), lambda: kumo.vectorize(f, signature="(n->m)"))
