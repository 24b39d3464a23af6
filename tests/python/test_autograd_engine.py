"""kumo.autograd from Python: Variable, backward, grad, double backprop,
FunctionNode subclasses, the modes, in-place detection and errors. Gradients
are compared with NumPy's finite differences."""
import gc
import weakref

import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import FunctionNode, Variable, force_backprop_mode, grad, no_backprop_mode


def numerical_grad(f, x, eps=1e-6):
    """d sum(f(x)) / dx for a NumPy function f, by central differences."""
    g = numpy.zeros_like(x)
    for i in numpy.ndindex(x.shape):
        p, m = x.copy(), x.copy()
        p[i] += eps
        m[i] -= eps
        g[i] = (f(p).sum() - f(m).sum()) / (2 * eps)
    return g


UNARY = [
    ("exp", F.exp, numpy.exp, False),
    ("log", F.log, numpy.log, True),
    ("sqrt", F.sqrt, numpy.sqrt, True),
    ("square", F.square, numpy.square, False),
    ("sin", F.sin, numpy.sin, False),
    ("cos", F.cos, numpy.cos, False),
    ("tanh", F.tanh, numpy.tanh, False),
    ("sigmoid", F.sigmoid, lambda v: 1 / (1 + numpy.exp(-v)), False),
    ("relu", F.relu, lambda v: numpy.maximum(v, 0), False),
    ("absolute", F.absolute, numpy.abs, False),
    ("neg", F.neg, numpy.negative, False),
    ("log2", F.log2, numpy.log2, True),
    ("log10", F.log10, numpy.log10, True),
    ("log1p", F.log1p, numpy.log1p, True),
    ("expm1", F.expm1, numpy.expm1, False),
    ("tan", F.tan, numpy.tan, False),
    ("arcsin", F.arcsin, numpy.arcsin, "unit"),
    ("arccos", F.arccos, numpy.arccos, "unit"),
    ("arctan", F.arctan, numpy.arctan, False),
    ("sinh", F.sinh, numpy.sinh, False),
    ("cosh", F.cosh, numpy.cosh, False),
    ("rsqrt", F.rsqrt, lambda v: 1 / numpy.sqrt(v), True),
    ("floor", F.floor, numpy.floor, False),
    ("ceil", F.ceil, numpy.ceil, False),
]


@pytest.mark.parametrize("name,fn,ref,positive", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_unary_forward_and_gradient(name, fn, ref, positive, shape):
    rng = numpy.random.default_rng(0)
    if positive == "unit":
        xn = rng.uniform(-0.9, 0.9, shape)
    else:
        xn = rng.uniform(0.3, 2.0, shape) if positive else rng.uniform(-1.4, 1.4, shape)
    if name in ("relu", "absolute", "floor", "ceil"):
        xn = numpy.where(numpy.abs(xn - numpy.round(xn)) < 0.1, 0.5, xn)  # away from kinks and steps
    x = Variable(kumo.asarray(xn))
    y = fn(x)
    numpy.testing.assert_allclose(y.array.get(), ref(xn), rtol=1e-12)
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad.get(), numerical_grad(ref, xn), rtol=1e-5, atol=1e-8)


BINARY = [
    ("add", lambda a, b: a + b),
    ("sub", lambda a, b: a - b),
    ("mul", lambda a, b: a * b),
    ("div", lambda a, b: a / b),
    ("pow", lambda a, b: a ** b),
]


@pytest.mark.parametrize("name,op", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((2, 1), (1, 4)), ((), (2, 3)), ((2, 3), ())])
def test_binary_broadcast_gradients(name, op, shapes):
    rng = numpy.random.default_rng(1)
    an = rng.uniform(0.5, 2.0, shapes[0])
    bn = rng.uniform(0.5, 2.0, shapes[1])
    a, b = Variable(kumo.asarray(an)), Variable(kumo.asarray(bn))
    F.sum(op(a, b)).backward()
    assert a.grad.shape == an.shape and b.grad.shape == bn.shape
    numpy.testing.assert_allclose(a.grad.get(), numerical_grad(lambda v: op(v, bn), an), rtol=1e-5)
    numpy.testing.assert_allclose(b.grad.get(), numerical_grad(lambda v: op(an, v), bn), rtol=1e-5)


@pytest.mark.parametrize("name,op", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("scalar", [2, 0.5])
def test_scalar_operands_on_both_sides(name, op, scalar):
    xn = numpy.array([0.7, 1.3, 2.1], dtype=numpy.float32)
    for f, ref in ((lambda v: op(v, scalar), lambda v: op(v, scalar)),
                   (lambda v: op(scalar, v), lambda v: op(scalar, v))):
        x = Variable(kumo.asarray(xn))
        y = f(x)
        assert y.dtype == numpy.float32  # Python scalars are weak, as in NumPy 2
        F.sum(y).backward()
        want = numerical_grad(lambda v: ref(v.astype(numpy.float64)), xn.astype(numpy.float64))
        numpy.testing.assert_allclose(x.grad.get(), want, rtol=1e-3)


def test_array_operand_is_a_constant():
    x = Variable(kumo.asarray([1.0, 2.0]))
    c = kumo.asarray([3.0, 4.0])
    y = F.sum(x * c + c * x)
    y.backward()
    numpy.testing.assert_array_equal(x.grad.get(), [6.0, 8.0])


def test_mixed_dtype_gradients_keep_input_dtypes():
    x = Variable(kumo.asarray([1.0, 2.0], dtype=numpy.float32))
    w = Variable(kumo.asarray([0.5, 0.25]))
    F.sum(x * w).backward()
    assert x.grad.dtype == numpy.float32 and w.grad.dtype == numpy.float64


def test_shape_functions_gradients():
    xn = numpy.arange(6.0).reshape(2, 3)
    x = Variable(kumo.asarray(xn))
    y = F.sum(F.reshape(x, (3, 2)) * kumo.asarray(numpy.arange(6.0).reshape(3, 2)))
    y = y + F.sum(x.T * kumo.asarray(numpy.ones((3, 2)) * 2))
    y = y + F.sum(F.sum(x, axis=1, keepdims=True) * x)
    y = y + F.sum(F.broadcast_to(F.sum(x, axis=0), (4, 3)))
    y.backward()
    want = numerical_grad(lambda v: (v.reshape(3, 2) * numpy.arange(6.0).reshape(3, 2)).sum()
                          + (v.T * 2).sum() + (v.sum(1, keepdims=True) * v).sum()
                          + numpy.broadcast_to(v.sum(0), (4, 3)).sum(), xn)
    numpy.testing.assert_allclose(x.grad.get(), want, rtol=1e-6)


def test_cast_gradient_comes_back_in_input_dtype():
    x = Variable(kumo.asarray([1.0, 2.0], dtype=numpy.float32))
    y = F.cast(x, numpy.float64)
    assert y.dtype == numpy.float64
    F.sum(y * y).backward()
    assert x.grad.dtype == numpy.float32
    numpy.testing.assert_allclose(x.grad.get(), [2.0, 4.0])


def test_backward_of_non_scalar_needs_grad():
    x = Variable(kumo.asarray([1.0, 2.0]))
    y = x * 2
    with pytest.raises(ValueError, match="give its gradient"):
        y.backward()
    y.grad = kumo.asarray([1.0, 3.0])
    y.backward()
    numpy.testing.assert_array_equal(x.grad.get(), [2.0, 6.0])


def test_grad_leaves_grads_alone_and_returns_none_for_unreached():
    x, u = Variable(kumo.asarray([1.0])), Variable(kumo.asarray([1.0]))
    gx, gu = grad([x * 3.0], [x, u])
    assert gu is None
    numpy.testing.assert_array_equal(gx.array.get(), [3.0])
    assert x.grad is None


def test_double_backprop_second_derivative():
    x = Variable(kumo.asarray([1.0, 2.0]))
    gx, = grad([F.sum(F.tanh(x))], [x], enable_double_backprop=True)
    ggx, = grad([F.sum(gx)], [x])
    t = numpy.tanh([1.0, 2.0])
    numpy.testing.assert_allclose(ggx.array.get(), -2 * t * (1 - t * t), rtol=1e-12)


def test_gradient_penalty_trains_through_the_gradient():
    w = Variable(kumo.asarray([0.5, -1.5]))
    xn = numpy.array([1.0, 2.0])
    x = Variable(kumo.asarray(xn))
    gx, = grad([F.sum(F.tanh(w * x))], [x], enable_double_backprop=True)
    F.sum(gx * gx).backward()

    def penalty(wn):
        d = wn * (1 - numpy.tanh(wn * xn) ** 2)
        return d * d
    numpy.testing.assert_allclose(w.grad.get(), numerical_grad(penalty, numpy.array([0.5, -1.5])), rtol=1e-5)


class Cube(FunctionNode):
    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x * x,

    def backward(self, target_input_indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return 3.0 * x * x * gy,


def test_python_function_node_forward_backward_and_double_backprop():
    x = Variable(kumo.asarray([1.0, -2.0]))
    y, = Cube().apply((x,))
    assert y.creator_node.label == "Cube"
    numpy.testing.assert_array_equal(y.array.get(), [1.0, -8.0])
    gx, = grad([F.sum(y)], [x], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gx.array.get(), [3.0, 12.0])
    ggx, = grad([F.sum(gx)], [x])
    numpy.testing.assert_array_equal(ggx.array.get(), [6.0, -12.0])


def test_python_function_node_lives_as_long_as_the_graph():
    x = Variable(kumo.asarray([2.0]))
    node = Cube()
    ref = weakref.ref(node)
    y, = node.apply((x,))
    del node
    gc.collect()
    assert ref() is not None  # the graph holds it
    y.backward()
    numpy.testing.assert_array_equal(x.grad.get(), [12.0])
    del y
    gc.collect()
    assert ref() is None  # released with the graph


def test_python_function_node_errors_surface():
    class Broken(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

        def backward(self, target_input_indexes, grad_outputs):
            raise ArithmeticError("boom")

    x = Variable(kumo.asarray([1.0]))
    y, = Broken().apply((x,))
    with pytest.raises(ArithmeticError, match="boom"):
        y.backward()


def test_modes():
    x = Variable(kumo.asarray([1.0]))
    with no_backprop_mode():
        assert not kumo.autograd.is_backprop_enabled()
        assert (x * 2).creator_node is None
        with force_backprop_mode():
            assert (x * 2).creator_node is not None
    assert kumo.autograd.is_backprop_enabled()


def test_in_place_change_of_retained_array_raises():
    x = Variable(kumo.asarray([0.1, 0.2]))
    y = F.tanh(x)
    y.array[...] = 0
    with pytest.raises(RuntimeError, match="modified in place"):
        F.sum(y).backward()


def test_in_place_change_through_out_argument_raises():
    x = Variable(kumo.asarray([0.1, 0.2]))
    y = F.sum(F.log(x + 1.0) * x)
    a = x.array
    kumo.add(a, 1.0, out=a)
    with pytest.raises(RuntimeError, match="modified in place"):
        y.backward()


def test_grad_setter_and_cleargrad():
    x = Variable(kumo.asarray([1.0, 2.0]))
    x.grad = kumo.asarray([5.0, 6.0])
    numpy.testing.assert_array_equal(x.grad.get(), [5.0, 6.0])
    x.cleargrad()
    assert x.grad is None
    x.zerograd()
    numpy.testing.assert_array_equal(x.grad.get(), [0.0, 0.0])
    with pytest.raises(ValueError, match="shape"):
        x.grad = kumo.asarray([1.0])


def test_unchain_backward_releases_the_graph():
    x = Variable(kumo.asarray([1.0]))
    y = F.exp(F.tanh(x))
    assert y.creator_node is not None
    y.unchain_backward()
    assert y.creator_node is None


def test_variable_attributes_and_repr():
    x = Variable(kumo.asarray([[1.0, 2.0]]), name="x")
    assert x.name == "x" and x.shape == (1, 2) and x.ndim == 2 and x.size == 2 and len(x) == 1
    assert x.dtype == numpy.float64 and x.requires_grad
    assert repr(x) == "variable([[1., 2.]])"
    assert x.reshape(2, 1).shape == (2, 1) and x.T.shape == (2, 1) and x.transpose().shape == (2, 1)
    assert isinstance(x.data, kumo.ndarray)
    c = Variable(kumo.asarray([1.0]), requires_grad=False)
    assert not (c * 2).requires_grad


@pytest.mark.parametrize("shapes", [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)), ((4, 2, 3), (3, 2))])
def test_matmul_gradients(shapes):
    rng = numpy.random.default_rng(3)
    an, bn = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    a, b = Variable(kumo.asarray(an)), Variable(kumo.asarray(bn))
    y = a @ b
    numpy.testing.assert_allclose(y.array.get(), an @ bn, rtol=1e-12)
    F.sum(y).backward()
    numpy.testing.assert_allclose(a.grad.get(), numerical_grad(lambda v: v @ bn, an), rtol=1e-5)
    numpy.testing.assert_allclose(b.grad.get(), numerical_grad(lambda v: an @ v, bn), rtol=1e-5)


def test_linear_and_mse_train_a_step():
    rng = numpy.random.default_rng(4)
    xn, tn = rng.standard_normal((8, 3)), rng.standard_normal((8, 2))
    W = Variable(kumo.asarray(rng.standard_normal((2, 3))))
    b = Variable(kumo.zeros(2))
    loss = F.mean_squared_error(F.linear(kumo.asarray(xn), W, b), kumo.asarray(tn))
    want = ((xn @ W.array.get().T - tn) ** 2).mean()
    numpy.testing.assert_allclose(float(loss.array), want, rtol=1e-12)
    loss.backward()
    gW = 2 * ((xn @ W.array.get().T - tn).T @ xn) / tn.size
    numpy.testing.assert_allclose(W.grad.get(), gW, rtol=1e-10)


@pytest.mark.parametrize("fn,ref", [
    (F.softmax, lambda v: numpy.exp(v) / numpy.exp(v).sum(1, keepdims=True)),
    (F.log_softmax, lambda v: v - numpy.log(numpy.exp(v).sum(1, keepdims=True))),
    (lambda x: F.logsumexp(x, axis=1), lambda v: numpy.log(numpy.exp(v).sum(1))),
])
def test_softmax_family(fn, ref):
    xn = numpy.random.default_rng(5).standard_normal((3, 4))
    x = Variable(kumo.asarray(xn))
    y = fn(x)
    numpy.testing.assert_allclose(y.array.get(), ref(xn), rtol=1e-12)
    F.sum(y * kumo.asarray(numpy.arange(y.size, dtype=float).reshape(y.shape))).backward()
    w = numpy.arange(y.size, dtype=float).reshape(y.shape)
    numpy.testing.assert_allclose(x.grad.get(), numerical_grad(lambda v: ref(v) * w, xn), rtol=1e-5, atol=1e-9)


def test_mean_along_an_axis():
    x = Variable(kumo.asarray([[1.0, 2.0], [3.0, 5.0]]))
    m = F.mean(x, axis=0)
    numpy.testing.assert_allclose(m.array.get(), [2.0, 3.5])
    F.sum(m).backward()
    numpy.testing.assert_allclose(x.grad.get(), numpy.full((2, 2), 0.5))


@pytest.mark.parametrize("key", [1, slice(1, None), (slice(None), 0), (Ellipsis, None, 1),
                                 numpy.array([2, 0, 2]), (numpy.array([0, 1, 1]), numpy.array([2, 2, 0])),
                                 numpy.array([True, False, True])])
def test_get_item_gradient_accumulates_repeats(key):
    xn = numpy.arange(12.0).reshape(3, 4)
    x = Variable(kumo.asarray(xn))
    y = x[key]
    numpy.testing.assert_array_equal(y.array.get(), xn[key])
    w = numpy.arange(1.0, 1.0 + y.size).reshape(y.shape)
    F.sum(y * kumo.asarray(w)).backward()
    want = numpy.zeros_like(xn)
    numpy.add.at(want, key, w)
    numpy.testing.assert_array_equal(x.grad.get(), want)


def test_get_item_out_of_bounds_raises():
    with pytest.raises(IndexError):
        Variable(kumo.asarray([1.0, 2.0]))[numpy.array([5])]


def _softmax_cross_entropy_ref(xn, tn, ignore=-1, normalize=True):
    logp = xn - numpy.log(numpy.exp(xn).sum(1, keepdims=True))
    valid = tn != ignore
    picked = -logp[numpy.arange(len(tn)), numpy.where(valid, tn, 0)] * valid
    return picked.sum() / max(valid.sum() if normalize else len(tn), 1)


@pytest.mark.parametrize("normalize", [True, False])
def test_softmax_cross_entropy_and_gradient(normalize):
    rng = numpy.random.default_rng(6)
    xn = rng.standard_normal((5, 4))
    tn = numpy.array([0, 3, -1, 2, 3])
    x = Variable(kumo.asarray(xn))
    loss = F.softmax_cross_entropy(x, kumo.asarray(tn), normalize=normalize)
    numpy.testing.assert_allclose(float(loss.array), _softmax_cross_entropy_ref(xn, tn, normalize=normalize),
                                  rtol=1e-12)
    loss.backward()
    want = numerical_grad(lambda v: numpy.asarray(_softmax_cross_entropy_ref(v, tn, normalize=normalize)), xn)
    numpy.testing.assert_allclose(x.grad.get(), want, rtol=1e-5, atol=1e-9)


def test_softmax_cross_entropy_reduce_no_and_errors():
    xn = numpy.zeros((2, 3))
    per = F.softmax_cross_entropy(kumo.asarray(xn), kumo.asarray([1, -1]), reduce="no")
    numpy.testing.assert_allclose(per.array.get(), [numpy.log(3.0), 0.0])
    with pytest.raises(ValueError, match="reduce"):
        F.softmax_cross_entropy(kumo.asarray(xn), kumo.asarray([1, 0]), reduce="sum")
    with pytest.raises(IndexError):
        F.softmax_cross_entropy(kumo.asarray(xn), kumo.asarray([1, 3]))


def test_accuracy():
    y = kumo.asarray([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    assert float(F.accuracy(y, kumo.asarray([1, 1, 1])).array) == pytest.approx(2 / 3)
    assert float(F.accuracy(y, kumo.asarray([1, -1, 1]), ignore_label=-1).array) == 1.0
    assert float(F.accuracy(y, kumo.asarray([-1, -1, -1]), ignore_label=-1).array) == 0.0


ACTIVATIONS = [
    (lambda x: F.leaky_relu(x, 0.1), lambda v: numpy.where(v >= 0, v, 0.1 * v)),
    (lambda x: F.elu(x, 1.5), lambda v: numpy.where(v >= 0, v, 1.5 * numpy.expm1(numpy.minimum(v, 0)))),
    (F.selu, lambda v: 1.0507009873554805 * numpy.where(v >= 0, v, 1.6732632423543772 * numpy.expm1(numpy.minimum(v, 0)))),
    (lambda x: F.softplus(x, 2.0), lambda v: numpy.logaddexp(0, 2.0 * v) / 2.0),
    (F.silu, lambda v: v / (1 + numpy.exp(-v))),
    (F.hard_sigmoid, lambda v: numpy.clip(0.2 * v + 0.5, 0, 1)),
    (lambda x: F.clipped_relu(x, 1.0), lambda v: numpy.minimum(numpy.maximum(v, 0), 1.0)),
    (lambda x: F.clip(x, -0.5, 0.7), lambda v: numpy.clip(v, -0.5, 0.7)),
    (lambda x: F.max(x, axis=1), lambda v: v.max(axis=1)),
    (lambda x: F.min(x, axis=0, keepdims=True), lambda v: v.min(axis=0, keepdims=True)),
    (F.max, lambda v: v.max()),
    (lambda x: F.concat((x, x * 2.0), axis=0), lambda v: numpy.concatenate((v, v * 2.0), axis=0)),
    (lambda x: F.stack((x, x * 3.0), axis=1), lambda v: numpy.stack((v, v * 3.0), axis=1)),
    (lambda x: F.split_axis(x, 2, 0)[1] * F.split_axis(x, [1], 1)[0][:2],
     lambda v: numpy.split(v, 2, 0)[1] * numpy.split(v, [1], 1)[0][:2]),
    (lambda x: F.where(kumo.asarray([[True, False, True]] * 4), x, x * x),
     lambda v: numpy.where([[True, False, True]] * 4, v, v * v)),
    (lambda x: F.maximum(x, x[::-1]), lambda v: numpy.maximum(v, v[::-1])),
    (lambda x: F.squeeze(F.expand_dims(x, 1)), lambda v: v),
]


@pytest.mark.parametrize("case", range(len(ACTIVATIONS)))
def test_more_functions_forward_and_gradient(case):
    fn, ref = ACTIVATIONS[case]
    rng = numpy.random.default_rng(7 + case)
    xn = rng.uniform(-1.5, 1.5, (4, 3))
    xn = numpy.where(numpy.abs(xn) < 0.05, 0.3, xn)  # away from kinks
    x = Variable(kumo.asarray(xn))
    y = fn(x)
    numpy.testing.assert_allclose(y.array.get(), ref(xn), rtol=1e-12)
    w = numpy.linspace(0.5, 1.5, y.size).reshape(y.shape)
    F.sum(y * kumo.asarray(w)).backward()
    numpy.testing.assert_allclose(x.grad.get(), numerical_grad(lambda v: ref(v) * w, xn), rtol=1e-5, atol=1e-8)


def test_copy_to_device_and_back():
    x = Variable(kumo.asarray([1.0, 2.0]))
    y = F.copy(x, "cpu")
    assert y.device == "cpu" and y.array._ptr != x.array._ptr
    F.sum(y * 3.0).backward()
    numpy.testing.assert_array_equal(x.grad.get(), [3.0, 3.0])
    assert x.to_device("cpu").device == x.device


def test_training_a_classifier_lowers_the_loss():
    # Two Gaussian blobs, a 2-16-2 network, plain gradient descent.
    rng = numpy.random.default_rng(8)
    xn = numpy.concatenate([rng.normal(-1, 0.7, (64, 2)), rng.normal(1, 0.7, (64, 2))])
    tn = numpy.repeat([0, 1], 64)
    x, t = kumo.asarray(xn), kumo.asarray(tn)
    W1 = Variable(kumo.asarray(rng.normal(0, 0.5, (16, 2))))
    b1 = Variable(kumo.zeros(16))
    W2 = Variable(kumo.asarray(rng.normal(0, 0.5, (2, 16))))
    b2 = Variable(kumo.zeros(2))
    params = (W1, b1, W2, b2)
    losses = []
    for _ in range(60):
        y = F.linear(F.relu(F.linear(x, W1, b1)), W2, b2)
        loss = F.softmax_cross_entropy(y, t)
        for p in params:
            p.cleargrad()
        loss.backward()
        for p in params:
            p.array -= 0.5 * p.grad
        losses.append(float(loss.array))
    assert losses[-1] < 0.5 * losses[0]
    assert float(F.accuracy(y, t).array) > 0.9


_FUSED = ["exp", "log", "sqrt", "square", "tanh", "sigmoid", "relu", "log1p", "expm1", "tan", "arctan", "rsqrt",
          "absolute"]


@pytest.mark.parametrize("name", _FUSED)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fused_backward_matches_recorded_backward(name, dtype):
    # Without double backprop the gradient is one fused kernel; recorded, it
    # is composed of differentiable functions. Both must agree.
    import kumo.autograd as A
    import kumo.autograd.functions as F
    data = numpy.array([[0.3, 1.2, -0.7], [0.05, 2.0, -1.5]], dtype=dtype)
    if name in ("log", "sqrt", "rsqrt", "log1p"):
        data = numpy.abs(data) + 0.1
    fn = getattr(F, name)
    gy = kumo.asarray(numpy.linspace(-1, 1, 6, dtype=dtype).reshape(2, 3))
    x = A.Variable(kumo.asarray(data))
    y = fn(x)
    y.grad = gy
    y.backward()
    fused = kumo.asnumpy(x.grad)
    x2 = A.Variable(kumo.asarray(data))
    (composed,) = A.grad([fn(x2)], [x2], [gy], enable_double_backprop=True)
    assert fused.dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(fused, kumo.asnumpy(composed.array), rtol=1e-6 if dtype == "float32" else 1e-13)


def test_second_backward_of_the_same_graph_accumulates_again():
    # Chainer's rule: backward keeps the graph.
    x = Variable(kumo.asarray([0.5, -1.0]))
    y = F.sum(F.tanh(x))
    y.backward()
    once = 1 - numpy.tanh([0.5, -1.0]) ** 2
    numpy.testing.assert_allclose(x.grad.get(), once)
    y.backward()
    numpy.testing.assert_allclose(x.grad.get(), 2 * once)


def test_two_losses_sharing_a_graph_each_reach_the_leaves():
    # The pattern of a GAN's updater: two losses over a shared intermediate.
    x = Variable(kumo.asarray([0.5, -1.0]))
    h = F.tanh(x)
    loss_a, loss_b = F.sum(h), F.sum(h * h)
    loss_a.backward()
    x.cleargrad()
    loss_b.backward()
    t = numpy.tanh([0.5, -1.0])
    numpy.testing.assert_allclose(x.grad.get(), 2 * t * (1 - t * t))


def test_release_graph_frees_the_graph_as_backward_passes():
    x = Variable(kumo.asarray([0.5, -1.0]))
    y = F.sum(F.tanh(x))
    y.backward(release_graph=True)
    assert y.creator is None
    y.backward()  # nothing reaches x any more
    numpy.testing.assert_allclose(x.grad.get(), 1 - numpy.tanh([0.5, -1.0]) ** 2)


def test_backward_of_several_outputs():
    x = Variable(kumo.asarray([1.0, 2.0]))
    a, b = x * 2.0, x * x
    kumo.autograd.backward([a, b], [kumo.asarray([1.0, 1.0]), kumo.asarray([0.5, 0.5])])
    numpy.testing.assert_allclose(x.grad.get(), [2.0 + 1.0, 2.0 + 2.0])
    assert a.grad_var is None and b.grad_var is None


def test_backward_of_several_outputs_uses_and_clears_their_grads():
    x = Variable(kumo.asarray([1.0, 2.0]))
    a, b = x * 3.0, x * 1.0
    a.grad = kumo.asarray([1.0, 2.0])
    with pytest.warns(RuntimeWarning):
        kumo.autograd.backward([a, b])  # b has no grad: skipped, not started from ones
    numpy.testing.assert_allclose(x.grad.get(), [3.0, 6.0])
    assert a.grad_var is None


def test_backward_of_several_outputs_checks_lengths():
    x = Variable(kumo.asarray([1.0]))
    with pytest.raises(ValueError):
        kumo.autograd.backward([x * 2.0], [])
