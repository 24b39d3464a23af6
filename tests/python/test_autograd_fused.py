"""Fused activations (autograd/functions/fused.h): each activation is one
FunctionNode whose forward is one generated kernel (softmax family: their
reductions plus one kernel) and whose unrecorded backward is one kernel.
Checked against NumPy/SciPy, against the composed (double-backprop) backward,
and with gradient_check; float16 takes the composed path."""
import numpy
import pytest
import scipy.special

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable, grad
from kumo.autograd import gradient_check
from kumo.autograd.function_hooks import FunctionHook

SQRT2 = numpy.sqrt(2.0)
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def _where_pos(x, neg):
    return numpy.where(x >= 0, x, neg)


def _gelu_tanh(x):
    # 0.5 x (1 + tanh(u)) = x sigmoid(2u): no cancellation for x << 0
    return x * scipy.special.expit(2 * numpy.sqrt(2 / numpy.pi) * (x + 0.044715 * x ** 3))


# name -> (kumo function of x, float64 reference, kinks to keep away from in
# gradient checks)
UNARY = {
    "leaky_relu": (lambda x: F.leaky_relu(x, slope=0.3), lambda x: _where_pos(x, 0.3 * x), [0.0]),
    "elu": (lambda x: F.elu(x, alpha=0.7), lambda x: _where_pos(x, 0.7 * numpy.expm1(x)), [0.0]),
    "selu": (F.selu, lambda x: SELU_SCALE * _where_pos(x, SELU_ALPHA * numpy.expm1(x)), [0.0]),
    "celu": (lambda x: F.celu(x, alpha=1.3), lambda x: _where_pos(x, 1.3 * numpy.expm1(x / 1.3)), [0.0]),
    "gelu": (F.gelu, lambda x: 0.5 * x * scipy.special.erfc(-x / SQRT2), []),
    "gelu_tanh": (lambda x: F.gelu(x, approximate=True), _gelu_tanh, []),
    "silu": (F.silu, lambda x: x * scipy.special.expit(x), []),
    "sigmoid": (F.sigmoid, scipy.special.expit, []),
    "softplus": (lambda x: F.softplus(x, beta=2.0), lambda x: numpy.logaddexp(0, 2.0 * x) / 2.0, []),
    "hard_sigmoid": (F.hard_sigmoid, lambda x: numpy.clip(0.2 * x + 0.5, 0, 1), [-2.5, 2.5]),
    "clipped_relu": (lambda x: F.clipped_relu(x, z=1.5), lambda x: numpy.minimum(numpy.maximum(x, 0), 1.5),
                     [0.0, 1.5]),
}
AXIS = {
    "softmax": (lambda x: F.softmax(x, axis=1), lambda x: scipy.special.softmax(x, axis=1)),
    "softmax_last": (lambda x: F.softmax(x, axis=-1), lambda x: scipy.special.softmax(x, axis=-1)),
    "log_softmax": (lambda x: F.log_softmax(x, axis=1), lambda x: scipy.special.log_softmax(x, axis=1)),
    "log_softmax_first": (lambda x: F.log_softmax(x, axis=0), lambda x: scipy.special.log_softmax(x, axis=0)),
    "logsumexp": (lambda x: F.logsumexp(x, axis=1), lambda x: scipy.special.logsumexp(x, axis=1)),
}
# x and a per-channel parameter of shape x.shape[1:2]
PARAM = {
    "swish": (F.swish, lambda x, p: x * scipy.special.expit(p * x)),
    "prelu": (F.prelu, lambda x, p: numpy.where(x >= 0, x, p * x)),
}
UNARY_SHAPES = [(), (1,), (1, 4), (3, 5), (2, 3, 4)]
AXIS_SHAPES = [(1, 4), (3, 5), (2, 3, 4)]
PARAM_SHAPES = [(1, 3), (4, 3), (2, 3, 5)]
FLOATS = [numpy.float32, numpy.float64]
TOL = {numpy.float32: dict(rtol=2e-5, atol=1e-6), numpy.float64: dict(rtol=1e-12, atol=1e-14)}
# fused vs composed backward: the same formula, rounded in another order
GRAD_TOL = {numpy.float32: dict(rtol=1e-5, atol=1e-6), numpy.float64: dict(rtol=1e-11, atol=1e-13)}


def _data(shape, seed, kinks=(), low=-3.0, high=3.0):
    x = numpy.random.default_rng(seed).uniform(low, high, shape)
    for k in kinks:  # finite differences must not straddle a kink
        near = numpy.abs(x - k) < 0.05
        x = numpy.where(near, k + numpy.where(x >= k, 0.1, -0.1), x)
    return x


def _param(shape, seed):
    return numpy.random.default_rng(seed + 100).uniform(0.3, 1.5, shape[1:2])


def _broadcast_param(p, ndim):
    return p.reshape((1, -1) + (1,) * (ndim - 2))


def _grads(fn, xs, gy, double):
    vs = [Variable(kumo.asarray(x)) for x in xs]
    y = fn(*vs)
    gs = grad([y], vs, [kumo.asarray(gy)], enable_double_backprop=double)
    return [g.array.get() for g in gs]


# ---------------------------------------------------------------- forward


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", UNARY_SHAPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_forward_matches_reference(name, shape, dtype):
    fn, ref, _ = UNARY[name]
    x = _data(shape, 1).astype(dtype)
    y = fn(Variable(kumo.asarray(x)))
    assert y.dtype == dtype and y.shape == shape
    numpy.testing.assert_allclose(y.array.get(), ref(x.astype(numpy.float64)), **TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", AXIS_SHAPES)
@pytest.mark.parametrize("name", sorted(AXIS))
def test_axis_forward_matches_reference(name, shape, dtype):
    fn, ref = AXIS[name]
    x = _data(shape, 2).astype(dtype)
    y = fn(Variable(kumo.asarray(x)))
    want = ref(x.astype(numpy.float64))
    assert y.dtype == dtype and y.shape == want.shape
    numpy.testing.assert_allclose(y.array.get(), want, **TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", PARAM_SHAPES)
@pytest.mark.parametrize("name", sorted(PARAM))
def test_param_forward_matches_reference(name, shape, dtype):
    fn, ref = PARAM[name]
    x, p = _data(shape, 3).astype(dtype), _param(shape, 3).astype(dtype)
    y = fn(Variable(kumo.asarray(x)), Variable(kumo.asarray(p)))
    assert y.dtype == dtype and y.shape == shape
    want = ref(x.astype(numpy.float64), _broadcast_param(p.astype(numpy.float64), len(shape)))
    numpy.testing.assert_allclose(y.array.get(), want, **TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["softplus", "sigmoid", "silu", "gelu", "gelu_tanh", "elu", "selu", "celu"])
def test_unary_forward_extreme_values_stay_finite(name, dtype):
    fn, ref, _ = UNARY[name]
    x = numpy.array([-1e4, -100.0, -30.0, 30.0, 100.0, 1e4], dtype=dtype)
    got = fn(Variable(kumo.asarray(x))).array.get()
    assert numpy.all(numpy.isfinite(got))
    with numpy.errstate(over="ignore"):
        numpy.testing.assert_allclose(got, ref(x.astype(numpy.float64)), **TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["softmax", "log_softmax", "logsumexp"])
def test_axis_forward_large_values_stay_finite(name, dtype):
    fn, ref = AXIS[name]
    x = numpy.array([[1e3, -1e3, 0.0], [500.0, 501.0, 499.0]], dtype=dtype)
    got = fn(Variable(kumo.asarray(x))).array.get()
    assert numpy.all(numpy.isfinite(got))
    numpy.testing.assert_allclose(got, ref(x.astype(numpy.float64)), **TOL[dtype])


@pytest.mark.parametrize("name", ["leaky_relu", "hard_sigmoid", "clipped_relu", "elu", "softplus"])
def test_unary_forward_propagates_nan(name):
    fn, _, _ = UNARY[name]
    got = fn(Variable(kumo.asarray(numpy.array([numpy.nan, 1.0])))).array.get()
    assert numpy.isnan(got[0]) and not numpy.isnan(got[1])


def test_scalar_parameters_are_kernel_arguments_not_source():
    x = Variable(kumo.asarray(_data((5,), 4)))
    F.elu(x, alpha=0.5)  # compiles (or loads) the kernel once
    before = kumo._core.kernel_cache_stats()
    for alpha in (0.25, 0.75, 2.0):
        y = F.elu(x, alpha=alpha)
        xn = x.array.get()
        numpy.testing.assert_allclose(y.array.get(), _where_pos(xn, alpha * numpy.expm1(xn)), rtol=1e-12)
    after = kumo._core.kernel_cache_stats()
    assert after["host_compiles"] == before["host_compiles"]
    assert after["disk_hits"] == before["disk_hits"]


# ---------------------------------------------------------------- backward: fused == composed


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", UNARY_SHAPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_fused_backward_equals_composed(name, shape, dtype):
    fn, _, kinks = UNARY[name]
    x = _data(shape, 5, kinks).astype(dtype)
    gy = _data(shape, 6).astype(dtype)
    fused = _grads(fn, [x], gy, double=False)
    composed = _grads(fn, [x], gy, double=True)
    assert fused[0].dtype == dtype
    numpy.testing.assert_allclose(fused[0], composed[0], **GRAD_TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", AXIS_SHAPES)
@pytest.mark.parametrize("name", sorted(AXIS))
def test_axis_fused_backward_equals_composed(name, shape, dtype):
    fn, ref = AXIS[name]
    x = _data(shape, 7).astype(dtype)
    gy = _data(ref(x.astype(numpy.float64)).shape, 8).astype(dtype)
    fused = _grads(fn, [x], gy, double=False)
    composed = _grads(fn, [x], gy, double=True)
    assert fused[0].dtype == dtype
    numpy.testing.assert_allclose(fused[0], composed[0], **GRAD_TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", PARAM_SHAPES)
@pytest.mark.parametrize("name", sorted(PARAM))
def test_param_fused_backward_equals_composed(name, shape, dtype):
    fn, _ = PARAM[name]
    x, p = _data(shape, 9, [0.0]).astype(dtype), _param(shape, 9).astype(dtype)
    gy = _data(shape, 10).astype(dtype)
    fused = _grads(fn, [x, p], gy, double=False)
    composed = _grads(fn, [x, p], gy, double=True)
    for f, c, want_shape in zip(fused, composed, [shape, p.shape]):
        assert f.dtype == dtype and f.shape == want_shape
        numpy.testing.assert_allclose(f, c, rtol=GRAD_TOL[dtype]["rtol"], atol=GRAD_TOL[dtype]["atol"] * x.size)


# ---------------------------------------------------------------- gradient checks (float64)


@pytest.mark.parametrize("shape", UNARY_SHAPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_check_backward(name, shape):
    fn, _, kinks = UNARY[name]
    gradient_check.check_backward(fn, _data(shape, 11, kinks), _data(shape, 12), atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("shape", UNARY_SHAPES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_check_double_backward(name, shape):
    fn, _, kinks = UNARY[name]
    gradient_check.check_double_backward(fn, _data(shape, 13, kinks), _data(shape, 14), _data(shape, 15),
                                         atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("shape", AXIS_SHAPES)
@pytest.mark.parametrize("name", sorted(AXIS))
def test_axis_check_backward(name, shape):
    fn, ref = AXIS[name]
    x = _data(shape, 16)
    gradient_check.check_backward(fn, x, _data(ref(x).shape, 17), atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("shape", AXIS_SHAPES)
@pytest.mark.parametrize("name", sorted(AXIS))
def test_axis_check_double_backward(name, shape):
    fn, ref = AXIS[name]
    x = _data(shape, 18)
    gradient_check.check_double_backward(fn, x, _data(ref(x).shape, 19), _data(shape, 20), atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("shape", PARAM_SHAPES)
@pytest.mark.parametrize("name", sorted(PARAM))
def test_param_check_backward(name, shape):
    fn, _ = PARAM[name]
    gradient_check.check_backward(fn, (_data(shape, 21, [0.0]), _param(shape, 21)), _data(shape, 22),
                                  atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("shape", PARAM_SHAPES)
@pytest.mark.parametrize("name", sorted(PARAM))
def test_param_check_double_backward(name, shape):
    fn, _ = PARAM[name]
    p = _param(shape, 23)
    gradient_check.check_double_backward(fn, (_data(shape, 23, [0.0]), p), _data(shape, 24),
                                         (_data(shape, 25), _data(p.shape, 26)), atol=1e-5, rtol=1e-4)


# ---------------------------------------------------------------- layouts, float16, mixed dtypes


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_non_contiguous_negative_stride(name, dtype):
    fn, ref, kinks = UNARY[name]
    big = _data((6, 8), 27, kinks).astype(dtype)
    xn = big[::2, ::-3]
    xk = kumo.asarray(big)[::2, ::-3]
    x = Variable(xk)
    y = fn(x)
    numpy.testing.assert_allclose(y.array.get(), ref(xn.astype(numpy.float64)), **TOL[dtype])
    gy = _data(xn.shape, 28).astype(dtype)
    (g,) = grad([y], [x], [kumo.asarray(gy)])
    (want,) = _grads(fn, [numpy.ascontiguousarray(xn)], gy, double=True)
    numpy.testing.assert_allclose(g.array.get(), want, **GRAD_TOL[dtype])


@pytest.mark.parametrize("name", sorted(AXIS))
def test_axis_non_contiguous(name):
    fn, ref = AXIS[name]
    big = _data((5, 8), 29)
    xn = big[::-2, 1::2]
    x = Variable(kumo.asarray(big)[::-2, 1::2])
    y = fn(x)
    numpy.testing.assert_allclose(y.array.get(), ref(xn), rtol=1e-12, atol=1e-14)
    gy = _data(y.shape, 30)
    (g,) = grad([y], [x], [kumo.asarray(gy)])
    (want,) = _grads(fn, [numpy.ascontiguousarray(xn)], gy, double=True)
    numpy.testing.assert_allclose(g.array.get(), want, rtol=1e-11, atol=1e-13)


@pytest.mark.parametrize("name", sorted(PARAM))
def test_param_non_contiguous(name):
    fn, ref = PARAM[name]
    big = _data((4, 6, 3), 31, [0.0])
    xn = big[:, ::-2]
    p = _param((4, 3), 31)
    x, pv = Variable(kumo.asarray(big)[:, ::-2]), Variable(kumo.asarray(p))
    y = fn(x, pv)
    numpy.testing.assert_allclose(y.array.get(), ref(xn, _broadcast_param(p, 3)), rtol=1e-12, atol=1e-14)
    gy = _data(xn.shape, 32)
    gx, gp = grad([y], [x, pv], [kumo.asarray(gy)])
    want = _grads(fn, [numpy.ascontiguousarray(xn), p], gy, double=True)
    numpy.testing.assert_allclose(gx.array.get(), want[0], rtol=1e-11, atol=1e-13)
    numpy.testing.assert_allclose(gp.array.get(), want[1], rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_float16_takes_composed_path(name):
    fn, ref, kinks = UNARY[name]
    x = _data((3, 4), 33, kinks).astype(numpy.float16)
    xv = Variable(kumo.asarray(x))
    y = fn(xv)
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(y.array.get().astype(numpy.float64), ref(x.astype(numpy.float64)),
                                  rtol=1e-2, atol=1e-3)
    (g,) = grad([y], [xv], [kumo.ones((3, 4), dtype=numpy.float16)])
    assert g.dtype == numpy.float16
    (want,) = _grads(fn, [x.astype(numpy.float64)], numpy.ones((3, 4)), double=False)
    numpy.testing.assert_allclose(g.array.get().astype(numpy.float64), want, rtol=2e-2, atol=2e-3)


@pytest.mark.parametrize("name", sorted(AXIS))
def test_axis_float16_takes_composed_path(name):
    fn, ref = AXIS[name]
    x = _data((3, 4), 34).astype(numpy.float16)
    y = fn(Variable(kumo.asarray(x)))
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(y.array.get().astype(numpy.float64), ref(x.astype(numpy.float64)),
                                  rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("name", sorted(PARAM))
def test_param_mixed_dtypes_take_composed_path(name):
    fn, ref = PARAM[name]
    x, p = _data((2, 3), 35, [0.0]).astype(numpy.float32), _param((2, 3), 35)
    xv, pv = Variable(kumo.asarray(x)), Variable(kumo.asarray(p))
    y = fn(xv, pv)
    assert y.dtype == numpy.result_type(x, p)
    numpy.testing.assert_allclose(y.array.get(), ref(x.astype(numpy.float64), p[None]), rtol=1e-6)
    gx, gp = grad([y], [xv, pv], [kumo.ones((2, 3), dtype=y.dtype)])
    assert gx.dtype == numpy.float32 and gp.dtype == numpy.float64


# ---------------------------------------------------------------- one node forward, no chain backward


class _Recorder(FunctionHook):
    def __init__(self):
        super().__init__()
        self.forward, self.backward = [], []

    def forward_preprocess(self, function, in_data):
        self.forward.append(function.label)

    def backward_preprocess(self, function, grad_outputs):
        self.backward.append(function.label)


def _run_recorded(fn, xs, double):
    vs = [Variable(kumo.asarray(x)) for x in xs]
    with _Recorder() as forward:
        y = fn(*vs)
    with _Recorder() as backward:
        grad([y], vs, [kumo.ones(y.shape)], enable_double_backprop=double)
    return forward, backward


# logsumexp stays composed (its recorded exp output makes its backward cheap)
ALL = [(n, UNARY[n][0], 1) for n in sorted(UNARY)] + \
      [(n, AXIS[n][0], 1) for n in sorted(AXIS) if n != "logsumexp"] + \
      [(n, PARAM[n][0], 2) for n in sorted(PARAM)]


@pytest.mark.parametrize("name,fn,nin", ALL, ids=[a[0] for a in ALL])
def test_forward_is_one_function_node(name, fn, nin):
    xs = [_data((2, 3), 36, [0.0])] + ([_param((2, 3), 36)] if nin == 2 else [])
    forward, _ = _run_recorded(fn, xs, double=False)
    assert len(forward.forward) == 1, forward.forward


@pytest.mark.parametrize("name,fn,nin", ALL, ids=[a[0] for a in ALL])
def test_unrecorded_backward_runs_no_composed_functions(name, fn, nin):
    xs = [_data((2, 3), 37, [0.0])] + ([_param((2, 3), 37)] if nin == 2 else [])
    _, fused = _run_recorded(fn, xs, double=False)
    assert fused.forward == []  # the fused kernel, no differentiable functions
    _, composed = _run_recorded(fn, xs, double=True)
    assert composed.forward != []  # the recorded backward is a composition


# ---------------------------------------------------------------- errors keep their messages


def test_errors_unchanged():
    x = Variable(kumo.asarray(numpy.ones((2, 3))))
    with pytest.raises(ValueError):
        F.softplus(x, beta=0)
    with pytest.raises(ValueError):
        F.clipped_relu(x, z=-1.0)
    with pytest.raises(ValueError):
        F.celu(x, alpha=0)
    with pytest.raises(numpy.exceptions.AxisError):
        F.softmax(Variable(kumo.asarray(numpy.ones(3))))
    with pytest.raises(ValueError):
        F.swish(x, Variable(kumo.asarray(numpy.ones(4))))
    with pytest.raises(TypeError):
        F.gelu(Variable(kumo.asarray(numpy.ones(3, dtype=numpy.int32))))


@pytest.mark.parametrize("name", ["gelu", "gelu_tanh", "sigmoid", "silu", "softplus", "elu", "celu"])
def test_float32_forward_accurate_over_a_wide_range(name):
    # the float32 kernels use their own exp/log/erfc (vectorizable): within
    # a few 1e-6 relative of float64 SciPy where the result is normal
    fn, ref, _ = UNARY[name]
    x = numpy.linspace(-9, 9, 20001).astype(numpy.float32)
    got = fn(Variable(kumo.asarray(x))).array.get().astype(numpy.float64)
    numpy.testing.assert_allclose(got, ref(x.astype(numpy.float64)), rtol=1e-5, atol=1e-30)
