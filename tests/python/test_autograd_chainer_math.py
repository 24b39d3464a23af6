"""Chainer 7's F.arctanh, F.relu6, F.sign, F.fix, F.broadcast, F.matmul(transa=,
transb=) and F.batch_matmul: forward against NumPy over dtypes and layouts,
first and second derivatives against finite differences, and Chainer's
graph behaviour (sign and fix are outside the graph)."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from conftest import LAYOUTS, make_numpy, to_kumo
from kumo.autograd import Variable
from kumo.autograd.gradient_check import check_backward, check_double_backward
from test_autograd_math import out, rng, v

FLOATS = [numpy.float16, numpy.float32, numpy.float64]


def tol(dtype):
    return {numpy.float16: 2e-3, numpy.float32: 2e-6, numpy.float64: 1e-13}[dtype]


# ---- arctanh and relu6 --------------------------------------------------------------------

def relu6_ref(x):
    return numpy.minimum(numpy.maximum(x, 0), 6).astype(x.dtype)


UNARY = [("arctanh", F.arctanh, numpy.arctanh, 0.9), ("relu6", F.relu6, relu6_ref, 8.0)]
# make_numpy's value ranges: inside arctanh's domain, across both kinks of relu6.
RANGES = {"arctanh": (0, 1), "relu6": (-5, 9)}


@pytest.mark.parametrize("name,fn,ref,scale", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_unary_forward(name, fn, ref, scale, dtype, layout):
    low, high = RANGES[name]
    n = make_numpy(layout, dtype, low=low, high=high)
    y = fn(Variable(to_kumo(n)))
    expected = ref(n)
    assert y.dtype == dtype and y.shape == expected.shape
    numpy.testing.assert_allclose(out(y), expected, rtol=tol(dtype), atol=tol(dtype))


@pytest.mark.parametrize("name,fn,ref,scale", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_unary_backward(name, fn, ref, scale, shape):
    r = rng(1)
    x = r.uniform(-scale, scale, shape)
    if name == "relu6":  # keep finite differences away from the kinks at 0 and 6
        x = numpy.where(numpy.abs(x) < 0.1, 0.5, x)
        x = numpy.where(numpy.abs(x - 6) < 0.1, 5.5, x)
    check_backward(fn, x, r.uniform(-1, 1, shape), eps=1e-6, atol=1e-6, rtol=1e-5)


def test_arctanh_double_backward():
    r = rng(2)
    x = r.uniform(-0.8, 0.8, (2, 3))
    check_double_backward(F.arctanh, x, r.uniform(-1, 1, (2, 3)), r.uniform(-1, 1, (2, 3)), eps=1e-5, atol=1e-5,
                          rtol=1e-4)


def test_relu6_gradient_is_one_inside_zero_outside():
    x = v(numpy.array([-1.0, 0.5, 3.0, 5.9, 6.5, 10.0]))
    y = F.relu6(x)
    y.grad = kumo.ones(6)
    y.backward()
    numpy.testing.assert_array_equal(kumo.asnumpy(x.grad), [0, 1, 1, 1, 0, 0])


@pytest.mark.parametrize("fn", [F.arctanh, F.relu6])
def test_unary_integer_input_is_type_error(fn):
    with pytest.raises(TypeError):
        fn(v(numpy.arange(3)))


# ---- sign and fix: outside the graph ----------------------------------------------------

@pytest.mark.parametrize("name,fn,ref", [("sign", F.sign, numpy.sign), ("fix", F.fix, numpy.fix)])
@pytest.mark.parametrize("dtype", FLOATS + [numpy.int32, numpy.int64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_sign_fix_forward(name, fn, ref, dtype, layout):
    n = make_numpy(layout, dtype)
    y = fn(Variable(to_kumo(n), requires_grad=numpy.dtype(dtype).kind == "f"))
    expected = ref(n)
    assert y.dtype == expected.dtype and y.shape == expected.shape
    numpy.testing.assert_array_equal(out(y), expected)
    assert not y.requires_grad and y.creator is None


@pytest.mark.parametrize("fn", [F.sign, F.fix])
def test_sign_fix_give_no_gradient(fn):
    x = v(numpy.array([-1.5, 0.5, 2.5]))
    y = F.sum(fn(x) * x)  # only the second factor carries a gradient
    y.backward()
    numpy.testing.assert_array_equal(kumo.asnumpy(x.grad), kumo.asnumpy(fn(x).array))


def test_fix_of_nan_and_inf():
    x = numpy.array([numpy.nan, numpy.inf, -numpy.inf, -2.7, 2.7, -0.2, -0.0])
    got = out(F.fix(v(x)))
    numpy.testing.assert_array_equal(got, numpy.fix(x))
    numpy.testing.assert_array_equal(numpy.signbit(got), numpy.signbit(numpy.fix(x)))


# ---- broadcast ------------------------------------------------------------------------

def test_broadcast_values_and_gradients():
    r = rng(3)
    a, b, c = r.standard_normal((3, 1)), r.standard_normal((4,)), r.standard_normal(())
    ys = F.broadcast(v(a), v(b), v(c))
    assert isinstance(ys, tuple) and len(ys) == 3
    for y, x in zip(ys, (a, b, c)):
        numpy.testing.assert_array_equal(out(y), numpy.broadcast_to(x, (3, 4)))

    def f(a, b, c):
        return F.broadcast(a, b, c)

    gys = tuple(r.standard_normal((3, 4)) for _ in range(3))
    check_backward(f, (a, b, c), gys, eps=1e-6, atol=1e-6)
    check_double_backward(f, (a, b, c), gys, (r.standard_normal((3, 1)), r.standard_normal(4), r.standard_normal(())),
                          eps=1e-5, atol=1e-5)


def test_broadcast_one_argument_is_a_variable():
    y = F.broadcast(v(numpy.ones((2, 3))))
    assert isinstance(y, Variable) and y.shape == (2, 3)


def test_broadcast_mismatch_is_value_error():
    with pytest.raises(ValueError):
        F.broadcast(v(numpy.ones((2, 3))), v(numpy.ones((4,))))


def test_broadcast_of_nothing_is_value_error():
    with pytest.raises(ValueError):
        F.broadcast()


# ---- matmul with transa/transb, batch_matmul ----------------------------------------------

MATMUL_CASES = [((3, 4), (4, 5), False, False), ((4, 3), (4, 5), True, False), ((3, 4), (5, 4), False, True),
                ((4, 3), (5, 4), True, True), ((2, 4, 3), (2, 5, 4), True, True), ((4,), (5, 4), False, True),
                ((4, 3), (4,), True, False), ((2, 1, 3, 4), (5, 3, 5), True, False)]


def _t(x, flag):
    return numpy.swapaxes(x, -1, -2) if flag and x.ndim >= 2 else x


@pytest.mark.parametrize("sa,sb,ta,tb", MATMUL_CASES)
def test_matmul_transposes(sa, sb, ta, tb):
    r = rng(4)
    a, b = r.standard_normal(sa), r.standard_normal(sb)
    y = F.matmul(v(a), v(b), transa=ta, transb=tb)
    expected = numpy.matmul(_t(a, ta), _t(b, tb))
    numpy.testing.assert_allclose(out(y), expected, rtol=1e-12, atol=1e-12)

    def f(a, b):
        return F.matmul(a, b, ta, tb)

    gy = r.standard_normal(expected.shape)
    check_backward(f, (a, b), gy, eps=1e-6, atol=1e-6)
    check_double_backward(f, (a, b), gy, (r.standard_normal(sa), r.standard_normal(sb)), eps=1e-5, atol=1e-5)


def test_matmul_negative_stride_operands():
    r = rng(5)
    a, b = r.standard_normal((4, 3))[::-1], r.standard_normal((5, 4))[:, ::-1]
    y = F.matmul(v(a), v(b), transa=True, transb=True)
    numpy.testing.assert_allclose(out(y), a.T @ b.T, rtol=1e-12, atol=1e-12)


BATCH_CASES = [((2, 3, 4), (2, 4, 5), False, False), ((2, 3), (2, 3), True, False), ((2, 3), (2, 4), False, True),
               ((2, 3, 2, 2), (2, 3, 5), True, False)]


def _as_batch(x):
    return x.reshape(x.shape[0], x.shape[1], -1)


@pytest.mark.parametrize("sa,sb,ta,tb", BATCH_CASES)
def test_batch_matmul(sa, sb, ta, tb):
    r = rng(6)
    a, b = r.standard_normal(sa), r.standard_normal(sb)
    with pytest.warns(DeprecationWarning):
        y = F.batch_matmul(v(a), v(b), transa=ta, transb=tb)
    expected = numpy.matmul(_t(_as_batch(a), ta), _t(_as_batch(b), tb))
    numpy.testing.assert_allclose(out(y), expected, rtol=1e-12, atol=1e-12)

    def f(a, b):
        return F._f.batch_matmul(a, b, ta, tb)

    check_backward(f, (a, b), r.standard_normal(expected.shape), eps=1e-6, atol=1e-6)


def test_batch_matmul_needs_2d():
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError):
        F.batch_matmul(v(numpy.ones(3)), v(numpy.ones((3, 1))))


# ---- Chainer's signatures: logsumexp(axis=None|int|tuple), clip with None, -----------------
# ---- linear(n_batch_axes=), split_axis(force_tuple=), variadic add --------------------------

def logsumexp_ref(x, axis):
    m = numpy.max(x, axis=axis, keepdims=True)
    return numpy.squeeze(numpy.log(numpy.sum(numpy.exp(x - m), axis=axis, keepdims=True)) + m,
                         axis=axis if axis is not None else tuple(range(x.ndim)))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 0), ()])
def test_logsumexp_axes(axis):
    r = rng(7)
    x = r.standard_normal((2, 3, 4)) * 3
    y = F.logsumexp(v(x), axis=axis)
    expected = logsumexp_ref(x, axis)
    assert y.shape == expected.shape
    numpy.testing.assert_allclose(out(y), expected, rtol=1e-12, atol=1e-12)

    def f(x):
        return F.logsumexp(x, axis=axis)

    gy = r.standard_normal(expected.shape)
    check_backward(f, x, gy, eps=1e-6, atol=1e-6)
    check_double_backward(f, x, gy, r.standard_normal(x.shape), eps=1e-5, atol=1e-5)


def test_logsumexp_default_reduces_everything():
    x = numpy.arange(6.0).reshape(2, 3)
    y = F.logsumexp(v(x))
    assert y.shape == ()
    numpy.testing.assert_allclose(out(y), numpy.log(numpy.exp(x).sum()), rtol=1e-12)


def test_logsumexp_bad_axis():
    x = v(numpy.ones((2, 3)))
    with pytest.raises(numpy.exceptions.AxisError):
        F.logsumexp(x, axis=2)
    with pytest.raises(ValueError):
        F.logsumexp(x, axis=(0, 0))


@pytest.mark.parametrize("lo,hi", [(None, 0.5), (-0.5, None), (-0.5, 0.5)])
def test_clip_with_none_bounds(lo, hi):
    r = rng(8)
    x = r.uniform(-1, 1, (3, 4))
    x = numpy.where(numpy.abs(numpy.abs(x) - 0.5) < 0.05, 0.2, x)  # away from the kinks
    y = F.clip(v(x), lo, hi)
    numpy.testing.assert_array_equal(out(y), numpy.clip(x, lo, hi))
    check_backward(lambda x: F.clip(x, lo, hi), x, r.standard_normal((3, 4)), eps=1e-6, atol=1e-6)


def test_clip_without_bounds_is_value_error():
    with pytest.raises(ValueError):
        F.clip(v(numpy.ones(3)), None, None)


@pytest.mark.parametrize("n_batch_axes,xshape", [(1, (5, 4)), (1, (5, 2, 2)), (2, (2, 3, 4)), (3, (2, 1, 3, 4))])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_n_batch_axes(n_batch_axes, xshape, bias):
    r = rng(9)
    x = r.standard_normal(xshape)
    batch = xshape[:n_batch_axes]
    features = int(numpy.prod(xshape[n_batch_axes:]))
    W, b = r.standard_normal((3, features)), r.standard_normal(3)
    args = (x, W, b) if bias else (x, W)
    y = F.linear(*[v(a) for a in args], n_batch_axes=n_batch_axes)
    expected = x.reshape(int(numpy.prod(batch)), features) @ W.T + (b if bias else 0)
    expected = expected.reshape(batch + (3,))
    numpy.testing.assert_allclose(out(y), expected, rtol=1e-12, atol=1e-12)

    def f(*a):
        return F.linear(*a, n_batch_axes=n_batch_axes)

    check_backward(f, args, r.standard_normal(expected.shape), eps=1e-6, atol=1e-6)


def test_linear_bad_n_batch_axes():
    with pytest.raises(ValueError):
        F.linear(v(numpy.ones((2, 3))), v(numpy.ones((4, 3))), n_batch_axes=0)
    with pytest.raises(ValueError):
        F.linear(v(numpy.ones((2, 3))), v(numpy.ones((4, 3))), n_batch_axes=2)


def test_split_axis_force_tuple():
    x = v(numpy.arange(6.0).reshape(2, 3))
    parts = F.split_axis(x, 1, 0)
    assert isinstance(parts, tuple) and len(parts) == 1
    y = F.split_axis(x, 1, 0, force_tuple=False)
    assert isinstance(y, Variable) and y.shape == (2, 3)
    two = F.split_axis(x, [1], 1, force_tuple=False)
    assert isinstance(two, tuple) and [p.shape for p in two] == [(2, 1), (2, 2)]


def test_add_variadic():
    r = rng(10)
    xs = [r.standard_normal((2, 3)) for _ in range(4)]
    y = F.add(*[v(x) for x in xs])
    numpy.testing.assert_allclose(out(y), xs[0] + xs[1] + xs[2] + xs[3], rtol=1e-12)
    check_backward(lambda *a: F.add(*a), tuple(xs), r.standard_normal((2, 3)), eps=1e-6, atol=1e-6)
    with pytest.raises(TypeError):
        F.add(v(xs[0]))


def test_where_and_select_item_take_variables_as_data():
    r = rng(11)
    c = r.standard_normal((2, 3)) > 0
    a, b = r.standard_normal((2, 3)), r.standard_normal((2, 3))
    y = F.where(v(c, requires_grad=False), v(a), v(b))
    numpy.testing.assert_array_equal(out(y), numpy.where(c, a, b))
    t = numpy.array([2, 0], dtype=numpy.int32)
    z = F.select_item(v(a), v(t, requires_grad=False))
    numpy.testing.assert_array_equal(out(z), a[numpy.arange(2), t])


# ---- Variable's array-like methods -------------------------------------------------------

@pytest.mark.parametrize("axis,keepdims", [(None, False), (1, False), ((0, 1), True)])
def test_variable_mean(axis, keepdims):
    x = numpy.arange(6.0).reshape(2, 3)
    xv = v(x)
    y = xv.mean(axis=axis, keepdims=keepdims)
    numpy.testing.assert_allclose(out(y), numpy.mean(x, axis=axis, keepdims=keepdims))
    F.sum(y).backward()
    n = x.size if axis is None else numpy.prod([x.shape[a] for a in numpy.atleast_1d(axis)])
    numpy.testing.assert_allclose(kumo.asnumpy(xv.grad), numpy.full(x.shape, 1.0 / n))


def test_variable_mean_weights():
    x, w = numpy.arange(6.0).reshape(2, 3), numpy.array([1.0, 2.0, 3.0])
    y = v(x).mean(axis=1, weights=v(w, requires_grad=False))
    numpy.testing.assert_allclose(out(y), numpy.average(x, axis=1, weights=w))


def test_variable_floordiv_is_outside_the_graph():
    x = numpy.array([-3.5, 2.0, 7.25])
    xv = v(x)
    for y, expected in ((xv // 2, x // 2), (7 // xv, 7 // x), (xv // v(x[::-1]), x // x[::-1])):
        numpy.testing.assert_array_equal(out(y), expected)
        assert not y.requires_grad and y.creator is None


def test_variable_xp_and_to_cpu():
    xv = v(numpy.ones(3))
    assert xv.xp is kumo
    xv.grad = kumo.ones(3)
    xv.to_cpu()
    assert xv.device == kumo.ones(1).device and xv.grad.device == xv.device
    assert xv.to_device("cpu") is xv
