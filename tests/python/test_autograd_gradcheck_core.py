"""First and second derivatives of the core differentiable functions (basic
math, the unary table, activations, shape and combining functions,
indexing, products and losses) with gradient_check, in float64, over 0-d,
batch-1, ordinary and non-contiguous inputs."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import gradient_check

SHAPES = [(), (1, 3), (3, 4)]


def _data(shape, seed, kind="real"):
    rng = numpy.random.default_rng(seed)
    u = rng.uniform(-1, 1, shape)
    if kind == "positive":
        u = numpy.abs(u) + 0.3
    elif kind == "unit":
        u = u * 0.8
    elif kind == "away":  # no element near a kink at 0
        u = numpy.sign(u + 1e-9) * (numpy.abs(u) + 0.2)
    return u


def _inputs(shape, kind, seed, layout):
    a = _data(shape, seed, kind)
    if layout == "transposed" and a.ndim == 2:
        return kumo.asarray(numpy.ascontiguousarray(a.T)).T  # a non-contiguous view with a's values
    return kumo.asarray(a)


UNARY = [
    ("exp", F.exp, "real"), ("log", F.log, "positive"), ("sqrt", F.sqrt, "positive"), ("square", F.square, "real"),
    ("sin", F.sin, "real"), ("cos", F.cos, "real"), ("tanh", F.tanh, "real"), ("sigmoid", F.sigmoid, "real"),
    ("relu", F.relu, "away"), ("absolute", F.absolute, "away"), ("log2", F.log2, "positive"),
    ("log10", F.log10, "positive"), ("log1p", F.log1p, "positive"), ("expm1", F.expm1, "real"),
    ("tan", F.tan, "unit"), ("arcsin", F.arcsin, "unit"), ("arccos", F.arccos, "unit"),
    ("arctan", F.arctan, "real"), ("sinh", F.sinh, "real"), ("cosh", F.cosh, "real"), ("rsqrt", F.rsqrt, "positive"),
    ("neg", F.neg, "real"), ("leaky_relu", F.leaky_relu, "away"), ("elu", F.elu, "away"), ("selu", F.selu, "away"),
    ("softplus", F.softplus, "real"), ("silu", F.silu, "real"), ("hard_sigmoid", F.hard_sigmoid, "unit"),
    ("clipped_relu", lambda x: F.clipped_relu(x, 0.5), "unit"),
]


@pytest.mark.parametrize("name,fn,kind", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_unary_first_and_second_derivatives(name, fn, kind, shape, layout):
    if name == "clipped_relu":
        kind = "away"  # and away from the clip at 0.5
    x = _inputs(shape, kind, 1, layout)
    if name == "clipped_relu":
        x = kumo.asarray(numpy.where(numpy.abs(kumo.asnumpy(x) - 0.5) < 0.1, 0.3, kumo.asnumpy(x)))
    gy = _data(shape, 2)
    ggx = _data(shape, 3)
    gradient_check.check_backward(fn, x, gy)
    gradient_check.check_double_backward(fn, x, gy, ggx)


BINARY = [("add", F.add), ("sub", F.sub), ("mul", F.mul), ("div", F.div), ("pow", F.pow),
          ("maximum", F.maximum), ("minimum", F.minimum)]
BROADCAST = [((3, 4), (3, 4)), ((3, 4), (4,)), ((1, 4), (3, 1)), ((), (2, 3))]


@pytest.mark.parametrize("name,fn", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("shapes", BROADCAST, ids=str)
def test_binary_broadcast_first_and_second_derivatives(name, fn, shapes):
    sa, sb = shapes
    kind = "positive" if name in ("pow", "div") else "real"
    a, b = kumo.asarray(_data(sa, 4, kind)), kumo.asarray(_data(sb, 5, kind) + (0.05 if name in ("maximum", "minimum") else 0))
    out = numpy.broadcast_shapes(sa, sb)
    gy, gga, ggb = _data(out, 6), _data(sa, 7), _data(sb, 8)
    gradient_check.check_backward(fn, (a, b), gy)
    gradient_check.check_double_backward(fn, (a, b), gy, (gga, ggb))


STRUCTURAL = [
    ("sum_axis", lambda x: F.sum(x, axis=1), (3, 4)),
    ("sum_keepdims", lambda x: F.sum(x, axis=0, keepdims=True), (3, 4)),
    ("mean", lambda x: F.mean(x, axis=(0, 1)), (3, 4)),
    ("reshape", lambda x: F.reshape(x, (4, 3)), (3, 4)),
    ("transpose", lambda x: F.transpose(x, (1, 0)), (3, 4)),
    ("broadcast_to", lambda x: F.broadcast_to(x, (2, 3, 4)), (3, 4)),
    ("sum_to", lambda x: F.sum_to(x, (1, 4)), (3, 4)),
    ("expand_squeeze", lambda x: F.squeeze(F.expand_dims(x, 1), 1), (3, 4)),
    ("max", lambda x: F.max(x, axis=1), (3, 4)),
    ("min", lambda x: F.min(x), (3, 4)),
    ("clip", lambda x: F.clip(x, -0.5, 0.5), (3, 4)),
    ("get_item_basic", lambda x: F.get_item(x, (slice(None, None, -1), 1)), (3, 4)),
    ("get_item_advanced", lambda x: F.get_item(x, ([0, 2, 0], slice(1, 3))), (3, 4)),
    ("softmax", lambda x: F.softmax(x), (3, 4)),
    ("log_softmax", lambda x: F.log_softmax(x), (3, 4)),
    ("logsumexp", lambda x: F.logsumexp(x), (3, 4)),
    ("matmul_self", lambda x: F.matmul(x, F.transpose(x)), (3, 4)),
    ("split_concat", lambda x: F.concat(F.split_axis(x, 2, 1)[::-1], axis=1), (3, 4)),
    ("stack", lambda x: F.stack([x, x * 2.0], axis=1), (3, 4)),
]


@pytest.mark.parametrize("name,fn,shape", STRUCTURAL, ids=[s[0] for s in STRUCTURAL])
def test_structural_first_and_second_derivatives(name, fn, shape):
    x = kumo.asarray(_data(shape, 9, "away" if name in ("max", "min", "clip") else "real"))
    with kumo.autograd.no_backprop_mode():
        out_shape = fn(kumo.autograd.Variable(x)).shape
    gy, ggx = _data(out_shape, 10), _data(shape, 11)
    gradient_check.check_backward(fn, x, gy)
    gradient_check.check_double_backward(fn, x, gy, ggx)


def test_where_gradients():
    cond = kumo.asarray(numpy.array([[True, False, True], [False, False, True]]))
    fn = lambda a, b: F.where(cond, a, b)  # noqa: E731
    a, b = kumo.asarray(_data((2, 3), 12)), kumo.asarray(_data((2, 3), 13))
    gradient_check.check_backward(fn, (a, b), _data((2, 3), 14))
    gradient_check.check_double_backward(fn, (a, b), _data((2, 3), 14), (_data((2, 3), 15), _data((2, 3), 16)))


@pytest.mark.parametrize("batch", [1, 4])
def test_linear_first_and_second_derivatives(batch):
    x, W, b = (kumo.asarray(_data(s, k)) for s, k in (((batch, 3), 17), ((2, 3), 18), ((2,), 19)))
    gy = _data((batch, 2), 20)
    gradient_check.check_backward(F.linear, (x, W, b), gy)
    gradient_check.check_double_backward(F.linear, (x, W, b), gy, (_data((batch, 3), 21), _data((2, 3), 22),
                                                                    _data((2,), 23)))


@pytest.mark.parametrize("with_bias", [True, False])
def test_linear_is_one_node_with_a_contiguous_weight_gradient(with_bias):
    # The fused optimizer updates a C-contiguous gradient in place; a
    # transposed view would cost a copy in and back every step.
    x = kumo.autograd.Variable(kumo.asarray(_data((4, 3), 29)))
    W = kumo.autograd.Variable(kumo.asarray(_data((2, 3), 30)))
    b = kumo.autograd.Variable(kumo.asarray(_data((2,), 31))) if with_bias else None
    y = F.linear(x, W, b)
    assert y.creator.label == "LinearFunction"
    F.sum(y * y).backward()
    assert W.grad.flags.c_contiguous
    expected = 2 * kumo.asnumpy(y.array).T @ kumo.asnumpy(x.array)
    numpy.testing.assert_allclose(kumo.asnumpy(W.grad), expected, rtol=1e-6)


def test_linear_with_a_broadcast_bias_still_adds_it():
    x, W = kumo.asarray(_data((4, 3), 32)), kumo.asarray(_data((2, 3), 33))
    b = kumo.asarray(_data((1, 2), 34))
    y = F.linear(x, W, b)
    numpy.testing.assert_allclose(kumo.asnumpy(y.array), kumo.asnumpy(x) @ kumo.asnumpy(W).T + kumo.asnumpy(b),
                                  rtol=1e-6)


def test_linear_rejects_mismatched_features():
    with pytest.raises(ValueError, match="features"):
        F.linear(kumo.ones((4, 3)), kumo.ones((2, 5)))


@pytest.mark.parametrize("batch", [1, 5])
def test_losses_first_and_second_derivatives(batch):
    x = kumo.asarray(_data((batch, 4), 24))
    t = kumo.asarray(numpy.arange(batch) % 4)
    y = kumo.asarray(_data((batch, 4), 25))
    gradient_check.check_backward(lambda x: F.softmax_cross_entropy(x, t), x, None)
    gradient_check.check_double_backward(lambda x: F.softmax_cross_entropy(x, t), x, None, _data((batch, 4), 26))
    gradient_check.check_backward(F.mean_squared_error, (x, y), None)
    gradient_check.check_double_backward(F.mean_squared_error, (x, y), None, (_data((batch, 4), 27),
                                                                              _data((batch, 4), 28)))


def test_squeeze_axis_as_chainer():
    x = kumo.autograd.Variable(kumo.ones((1, 3, 1)))
    assert F.squeeze(x).shape == (3,)
    assert F.squeeze(x, 0).shape == (3, 1)
    assert F.squeeze(x, (0, -1)).shape == (3,)
    with pytest.raises(ValueError):
        F.squeeze(x, 1)
    with pytest.raises(numpy.exceptions.AxisError):
        F.squeeze(x, 3)
