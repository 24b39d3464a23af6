"""kumo.autograd.functions: losses and evaluation functions against NumPy
formulas written here, gradients and second derivatives against central
differences."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable
from autograd_norm_checks import check_backward, check_double_backward, rand, to_input


def log_softmax_ref(x, axis=1):
    m = x.max(axis=axis, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True))


def softplus_ref(x):
    return numpy.logaddexp(0, x)


def labels(shape, classes, seed=0, ignore=None):
    t = numpy.random.default_rng(seed).integers(0, classes, shape).astype(numpy.int32)
    if ignore is not None and t.size:
        t.flat[::3] = ignore
    return t


# ----------------------------------------------------------------------------- softmax_cross_entropy
def sce_ref(x, t, normalize=True, class_weight=None, ignore_label=-1, reduce="mean"):
    log_y = log_softmax_ref(x)
    if class_weight is not None:
        log_y = log_y * class_weight.reshape((1, -1) + (1,) * (x.ndim - 2))
    ly = numpy.moveaxis(log_y, 1, -1).reshape(-1, x.shape[1])
    valid = (t != ignore_label).ravel()
    safe = numpy.where(valid, t.ravel(), 0)
    loss = -ly[numpy.arange(t.size), safe] * valid
    if reduce == "no":
        return loss.reshape(t.shape)
    count = valid.sum() if normalize else len(x)
    return loss.sum() / max(count, 1)


SCE_CASES = [((4, 3), None), ((1, 5), None), ((4, 3), -1), ((2, 3, 4), None), ((2, 4, 2, 3), -1)]


@pytest.mark.parametrize("shape,ignore", SCE_CASES)
@pytest.mark.parametrize("normalize", [True, False])
@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_softmax_cross_entropy_forward(shape, ignore, normalize, reduce):
    x = rand(shape, seed=1, low=-2, high=2)
    t = labels((shape[0],) + shape[2:], shape[1], seed=2, ignore=ignore)
    y = F.softmax_cross_entropy(to_input(x, "nc"), t, normalize=normalize, reduce=reduce)
    numpy.testing.assert_allclose(y.array.get(), sce_ref(x, t, normalize, reduce=reduce), rtol=1e-12)


@pytest.mark.parametrize("shape,ignore", SCE_CASES)
def test_softmax_cross_entropy_class_weight(shape, ignore):
    x = rand(shape, seed=1)
    t = labels((shape[0],) + shape[2:], shape[1], seed=2, ignore=ignore)
    w = rand(shape[1:2], seed=3, low=0.5, high=2)
    y = F.softmax_cross_entropy(x, t, class_weight=kumo.asarray(w))
    numpy.testing.assert_allclose(y.array.get(), sce_ref(x, t, class_weight=w), rtol=1e-12)


@pytest.mark.parametrize("shape,ignore", SCE_CASES)
@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_softmax_cross_entropy_gradients(shape, ignore, reduce):
    x = rand(shape, seed=1)
    t = labels((shape[0],) + shape[2:], shape[1], seed=2, ignore=ignore)
    w = rand(shape[1:2], seed=3, low=0.5, high=2)
    f = lambda x: F.softmax_cross_entropy(x, t, class_weight=w, reduce=reduce,  # noqa: E731
                                          enable_double_backprop=True)
    gy = rand(() if reduce == "mean" else t.shape, seed=4)
    check_backward(f, (x,), gy)
    check_double_backward(f, (x,), gy)


@pytest.mark.parametrize("loss", ["cross-entropy", "kl-divergence"])
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 2)])
@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_softmax_cross_entropy_soft_target(loss, shape, reduce):
    x = rand(shape, seed=1)
    t = numpy.exp(log_softmax_ref(rand(shape, seed=2)))
    log_y = log_softmax_ref(x)
    if loss == "kl-divergence":
        ref = numpy.sum(t * (numpy.log(t + 1e-7) - log_y), axis=1)
    else:
        ref = -numpy.sum(t * log_y, axis=1)
    if reduce == "mean":
        ref = ref.sum() / (x.size / x.shape[1])
    f = lambda x: F.softmax_cross_entropy(x, t, reduce=reduce, soft_target_loss=loss)  # noqa: E731
    numpy.testing.assert_allclose(f(x).array.get(), ref, rtol=1e-12)
    check_backward(f, (x,), rand(numpy.shape(ref), seed=3))


def test_softmax_cross_entropy_float32_and_float16():
    x = rand((4, 3), seed=1)
    t = labels((4,), 3, seed=2)
    for dt, tol in [(numpy.float32, 1e-6), (numpy.float16, 2e-3)]:
        y = F.softmax_cross_entropy(x.astype(dt), t)
        assert y.dtype == dt
        numpy.testing.assert_allclose(float(y.array.get()), sce_ref(x.astype(dt).astype(float), t), rtol=tol)


def test_softmax_cross_entropy_all_ignored_is_zero():
    y = F.softmax_cross_entropy(rand((3, 4)), numpy.full(3, -1, numpy.int32))
    assert float(y.array.get()) == 0.0


@pytest.mark.parametrize("kwargs", [{"reduce": "sum"}, {"soft_target_loss": "l2"},
                                    {"class_weight": numpy.ones((2, 3))}, {"class_weight": numpy.ones(3, int)}])
def test_softmax_cross_entropy_bad_options(kwargs):
    with pytest.raises(ValueError):
        F.softmax_cross_entropy(rand((4, 3)), labels((4,), 3), **kwargs)


def test_softmax_cross_entropy_bad_label_shape():
    with pytest.raises(ValueError):
        F.softmax_cross_entropy(rand((4, 3)), labels((3,), 3))


def test_softmax_cross_entropy_integer_scores():
    with pytest.raises(TypeError):
        F.softmax_cross_entropy(numpy.ones((4, 3), numpy.int32), labels((4,), 3))


# ----------------------------------------------------------------------------- elementwise errors
PAIRS = [
    ("squared_error", F.squared_error, lambda a, b: (a - b) ** 2),
    ("absolute_error", F.absolute_error, lambda a, b: numpy.abs(a - b)),
    ("mean_absolute_error", F.mean_absolute_error, lambda a, b: numpy.abs(a - b).mean()),
]


@pytest.mark.parametrize("name,fn,ref", PAIRS, ids=[p[0] for p in PAIRS])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
@pytest.mark.parametrize("layout", ["c", "nc"])
def test_pair_errors_forward(name, fn, ref, shape, layout):
    a, b = rand(shape, seed=1), rand(shape, seed=2)
    numpy.testing.assert_allclose(fn(to_input(a, layout), b).array.get(), ref(a, b), rtol=1e-12)


@pytest.mark.parametrize("name,fn,ref", PAIRS, ids=[p[0] for p in PAIRS])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
def test_pair_errors_gradients(name, fn, ref, shape):
    a, b = rand(shape, seed=1), rand(shape, seed=2)
    gy = rand(numpy.shape(ref(a, b)), seed=3)
    check_backward(fn, (a, b), gy)
    check_double_backward(fn, (a, b), gy)


@pytest.mark.parametrize("name,fn,ref", PAIRS, ids=[p[0] for p in PAIRS])
def test_pair_errors_shape_mismatch(name, fn, ref):
    with pytest.raises(ValueError):
        fn(rand((2, 3)), rand((3,)))


def test_pair_errors_float32():
    a, b = rand((3,), seed=1).astype(numpy.float32), rand((3,), seed=2).astype(numpy.float32)
    y = F.mean_absolute_error(a, b)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array.get(), numpy.abs(a - b).mean(), rtol=1e-6)


# ----------------------------------------------------------------------------- sigmoid_cross_entropy
def sigce_ref(x, t, normalize=True, reduce="mean"):
    valid = t != -1
    loss = (softplus_ref(x) - x * numpy.where(valid, t, 0)) * valid
    if reduce == "no":
        return loss
    count = valid.sum() if normalize else x.shape[0]
    return loss.sum() / max(count, 1)


@pytest.mark.parametrize("shape", [(4, 3), (1, 2), (5,), (2, 3, 2)])
@pytest.mark.parametrize("normalize", [True, False])
@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_sigmoid_cross_entropy(shape, normalize, reduce):
    x = rand(shape, seed=1, low=-3, high=3)
    t = labels(shape, 2, seed=2, ignore=-1)
    f = lambda x: F.sigmoid_cross_entropy(x, t, normalize=normalize, reduce=reduce)  # noqa: E731
    ref = sigce_ref(x, t, normalize, reduce)
    numpy.testing.assert_allclose(f(to_input(x, "nc")).array.get(), ref, rtol=1e-12)
    gy = rand(numpy.shape(ref), seed=3)
    check_backward(f, (x,), gy)
    check_double_backward(f, (x,), gy)


def test_sigmoid_cross_entropy_errors():
    with pytest.raises(ValueError):
        F.sigmoid_cross_entropy(rand((2, 3)), labels((3, 2), 2))
    with pytest.raises(ValueError):
        F.sigmoid_cross_entropy(rand((2, 3)), labels((2, 3), 2), reduce="sum")
    with pytest.raises(TypeError):
        F.sigmoid_cross_entropy(rand((2, 3)), rand((2, 3)))


# ----------------------------------------------------------------------------- huber, hinge
def huber_ref(x, t, delta, reduce):
    d = x - t
    loss = numpy.where(numpy.abs(d) <= delta, 0.5 * d * d, delta * (numpy.abs(d) - 0.5 * delta))
    return loss.sum(axis=1) if reduce == "sum_along_second_axis" else loss


@pytest.mark.parametrize("shape", [(4, 3), (1, 5), (2, 3, 2)])
@pytest.mark.parametrize("reduce", ["sum_along_second_axis", "no"])
def test_huber_loss(shape, reduce):
    x, t = rand(shape, seed=1, low=-2, high=2), rand(shape, seed=2, low=-2, high=2)
    f = lambda x, t: F.huber_loss(x, t, 1.0, reduce=reduce)  # noqa: E731
    ref = huber_ref(x, t, 1.0, reduce)
    numpy.testing.assert_allclose(f(to_input(x, "nc"), t).array.get(), ref, rtol=1e-12)
    gy = rand(ref.shape, seed=3)
    check_backward(f, (x, t), gy)
    check_double_backward(f, (x, t), gy)


def test_huber_loss_bad_reduce():
    with pytest.raises(ValueError):
        F.huber_loss(rand((2, 3)), rand((2, 3)), 1.0, reduce="mean")


def hinge_ref(x, t, norm, reduce):
    s = numpy.ones_like(x)
    s[numpy.arange(len(t)), t] = -1
    loss = numpy.maximum(0, 1 + s * x)
    if norm == "L2":
        loss = loss ** 2
    return loss.sum() / len(x) if reduce == "mean" else loss


@pytest.mark.parametrize("shape", [(4, 3), (1, 5)])
@pytest.mark.parametrize("norm", ["L1", "L2"])
@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_hinge(shape, norm, reduce):
    x = rand(shape, seed=1, low=-2, high=2)
    t = labels(shape[:1], shape[1], seed=2)
    f = lambda x: F.hinge(x, t, norm=norm, reduce=reduce)  # noqa: E731
    ref = hinge_ref(x, t, norm, reduce)
    numpy.testing.assert_allclose(f(to_input(x, "nc")).array.get(), ref, rtol=1e-12)
    gy = rand(numpy.shape(ref), seed=3)
    check_backward(f, (x,), gy)
    if norm == "L2":
        check_double_backward(f, (x,), gy)


def test_hinge_errors():
    with pytest.raises(ValueError):
        F.hinge(rand((2, 3)), labels((2,), 3), norm="L3")
    with pytest.raises(ValueError):
        F.hinge(rand((2, 3)), labels((3,), 3))


# ----------------------------------------------------------------------------- contrastive, triplet
def contrastive_ref(x0, x1, y, margin, reduce):
    d2 = ((x0 - x1) ** 2).sum(axis=1)
    d = numpy.sqrt(d2)
    loss = 0.5 * (y * d2 + (1 - y) * numpy.maximum(margin - d, 0) ** 2)
    return loss.sum() / len(x0) if reduce == "mean" else loss


@pytest.mark.parametrize("shape", [(5, 3), (1, 4)])
@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_contrastive(shape, reduce):
    x0, x1 = rand(shape, seed=1), rand(shape, seed=2)
    y = labels(shape[:1], 2, seed=3)
    f = lambda a, b: F.contrastive(a, b, y, margin=1.5, reduce=reduce)  # noqa: E731
    ref = contrastive_ref(x0, x1, y, 1.5, reduce)
    numpy.testing.assert_allclose(f(to_input(x0, "nc"), x1).array.get(), ref, rtol=1e-12)
    gy = rand(numpy.shape(ref), seed=4)
    check_backward(f, (x0, x1), gy)
    check_double_backward(f, (x0, x1), gy)


def test_contrastive_zero_distance_has_finite_gradient():
    x = Variable(kumo.asarray(numpy.ones((2, 3))))
    F.contrastive(x, numpy.ones((2, 3)), numpy.array([0, 1], numpy.int32)).backward()
    assert numpy.isfinite(x.grad.get()).all()


def test_contrastive_bad_margin():
    with pytest.raises(ValueError):
        F.contrastive(rand((2, 3)), rand((2, 3)), labels((2,), 2), margin=0)


def triplet_ref(a, p, n, margin, reduce):
    loss = numpy.maximum(((a - p) ** 2).sum(axis=1) - ((a - n) ** 2).sum(axis=1) + margin, 0)
    return loss.mean() if reduce == "mean" else loss


@pytest.mark.parametrize("shape", [(5, 3), (1, 4)])
@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_triplet(shape, reduce):
    a, p, n = rand(shape, seed=1), rand(shape, seed=2), rand(shape, seed=3)
    f = lambda a, p, n: F.triplet(a, p, n, margin=0.5, reduce=reduce)  # noqa: E731
    ref = triplet_ref(a, p, n, 0.5, reduce)
    numpy.testing.assert_allclose(f(to_input(a, "nc"), p, n).array.get(), ref, rtol=1e-12)
    gy = rand(numpy.shape(ref), seed=4)
    check_backward(f, (a, p, n), gy)
    check_double_backward(f, (a, p, n), gy)


def test_triplet_errors():
    with pytest.raises(ValueError):
        F.triplet(rand((2, 3)), rand((2, 3)), rand((2, 4)))
    with pytest.raises(ValueError):
        F.triplet(rand((2, 3)), rand((2, 3)), rand((2, 3)), reduce="sum")


# ----------------------------------------------------------------------------- VAE losses
VAE = [
    ("gaussian_kl_divergence", lambda m, v, **k: F.gaussian_kl_divergence(m, v, **k),
     lambda m, v: 0.5 * (m * m + numpy.exp(v) - v - 1), 2),
    ("bernoulli_nll", lambda x, y, **k: F.bernoulli_nll(x, y, **k),
     lambda x, y: softplus_ref(y) - x * y, 2),
    ("gaussian_nll", lambda x, m, v, **k: F.gaussian_nll(x, m, v, **k),
     lambda x, m, v: 0.5 * (v + numpy.log(2 * numpy.pi)) + 0.5 * (x - m) ** 2 * numpy.exp(-v), 3),
]


@pytest.mark.parametrize("name,fn,ref,nargs", VAE, ids=[v[0] for v in VAE])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
@pytest.mark.parametrize("reduce", ["sum", "no"])
def test_vae_losses(name, fn, ref, nargs, shape, reduce):
    args = [rand(shape, seed=i + 1) for i in range(nargs)]
    expected = ref(*args)
    if reduce == "sum":
        expected = expected.sum()
    f = lambda *a: fn(*a, reduce=reduce)  # noqa: E731
    numpy.testing.assert_allclose(f(*[to_input(a, "nc") for a in args]).array.get(), expected, rtol=1e-12)
    gy = rand(numpy.shape(expected), seed=9)
    check_backward(f, args, gy)
    check_double_backward(f, args, gy)


@pytest.mark.parametrize("name,fn,ref,nargs", VAE, ids=[v[0] for v in VAE])
def test_vae_losses_bad_reduce(name, fn, ref, nargs):
    with pytest.raises(ValueError):
        fn(*[rand((2,))] * nargs, reduce="mean")


# ----------------------------------------------------------------------------- covariance losses
def cov_ref(y, z):
    return (y - y.mean(axis=0)).T @ (z - z.mean(axis=0)) / len(y)


@pytest.mark.parametrize("yshape,zshape", [((5, 3), (5, 2)), ((1, 2), (1, 3)), ((4, 1), (4, 4))])
@pytest.mark.parametrize("reduce", ["half_squared_sum", "no"])
def test_cross_covariance(yshape, zshape, reduce):
    y, z = rand(yshape, seed=1), rand(zshape, seed=2)
    ref = cov_ref(y, z)
    if reduce == "half_squared_sum":
        ref = 0.5 * (ref ** 2).sum()
    f = lambda y, z: F.cross_covariance(y, z, reduce=reduce)  # noqa: E731
    numpy.testing.assert_allclose(f(to_input(y, "nc"), z).array.get(), ref, rtol=1e-12, atol=1e-15)
    gy = rand(numpy.shape(ref), seed=3)
    check_backward(f, (y, z), gy)
    check_double_backward(f, (y, z), gy)


@pytest.mark.parametrize("shape", [(5, 3), (2, 2), (4, 1)])
@pytest.mark.parametrize("reduce", ["half_squared_sum", "no"])
def test_decov(shape, reduce):
    h = rand(shape, seed=1)
    ref = cov_ref(h, h) * (1 - numpy.eye(shape[1]))
    if reduce == "half_squared_sum":
        ref = 0.5 * (ref ** 2).sum()
    f = lambda h: F.decov(h, reduce=reduce)  # noqa: E731
    numpy.testing.assert_allclose(f(to_input(h, "nc")).array.get(), ref, rtol=1e-12, atol=1e-15)
    gy = rand(numpy.shape(ref), seed=3)
    check_backward(f, (h,), gy)
    check_double_backward(f, (h,), gy)


def test_covariance_errors():
    with pytest.raises(ValueError):
        F.cross_covariance(rand((3, 2)), rand((4, 2)))
    with pytest.raises(ValueError):
        F.decov(rand((3,)))
    with pytest.raises(ValueError):
        F.decov(rand((3, 2)), reduce="sum")


# ----------------------------------------------------------------------------- evaluation
@pytest.mark.parametrize("shape", [(6, 4), (1, 3), (3, 4, 5)])
@pytest.mark.parametrize("ignore", [None, 1])
def test_accuracy(shape, ignore):
    y = rand(shape, seed=1)
    t = labels((shape[0],) + shape[2:], shape[1], seed=2)
    pred = y.argmax(axis=1)
    if ignore is None:
        ref = (pred == t).mean()
    else:
        counted = t != ignore
        ref = ((pred == t) & counted).sum() / counted.sum() if counted.sum() else 0.0
    acc = F.accuracy(to_input(y, "nc"), t, ignore_label=ignore)
    assert acc.dtype == numpy.float64
    numpy.testing.assert_allclose(acc.array.get(), ref, rtol=1e-12)


def test_accuracy_all_ignored():
    assert float(F.accuracy(rand((3, 2)), numpy.full(3, -1, numpy.int32), ignore_label=-1).array.get()) == 0.0


def test_accuracy_float32_and_errors():
    assert F.accuracy(rand((3, 2)).astype(numpy.float32), labels((3,), 2)).dtype == numpy.float32
    with pytest.raises(ValueError):
        F.accuracy(rand((3, 2)), labels((2,), 2))


@pytest.mark.parametrize("shape", [(6,), (4, 3), (1, 1)])
def test_binary_accuracy(shape):
    y = rand(shape, seed=1)
    t = labels(shape, 2, seed=2, ignore=-1)
    counted = t != -1
    ref = ((y >= 0) == t).sum() / max(counted.sum(), 1)
    acc = F.binary_accuracy(to_input(y, "nc"), t)
    assert acc.dtype == numpy.float64
    numpy.testing.assert_allclose(acc.array.get(), ref, rtol=1e-12)


def test_binary_accuracy_errors():
    with pytest.raises(ValueError):
        F.binary_accuracy(rand((3,)), labels((4,), 2))
    with pytest.raises(TypeError):
        F.binary_accuracy(rand((3,)), rand((3,)))


def r2_ref(p, t, multioutput):
    ss_res = ((p - t) ** 2).sum(axis=0)
    ss_tot = ((t - t.mean(axis=0)) ** 2).sum(axis=0)
    r2 = numpy.where(ss_tot == 0, 0.0, 1 - ss_res / numpy.where(ss_tot == 0, 1, ss_tot))
    return r2.mean() if multioutput == "uniform_average" else r2


@pytest.mark.parametrize("shape", [(6,), (5, 3), (4, 2, 2)])
@pytest.mark.parametrize("multioutput", ["uniform_average", "raw_values"])
def test_r2_score(shape, multioutput):
    p, t = rand(shape, seed=1), rand(shape, seed=2)
    numpy.testing.assert_allclose(F.r2_score(to_input(p, "nc"), t, multioutput=multioutput).array.get(),
                                  r2_ref(p, t, multioutput), rtol=1e-12)


def test_r2_score_constant_truth_is_zero():
    t = numpy.ones((4, 2))
    numpy.testing.assert_array_equal(F.r2_score(rand((4, 2)), t, multioutput="raw_values").array.get(), [0.0, 0.0])


@pytest.mark.parametrize("shape", [(6,), (6, 3)])
@pytest.mark.parametrize("multioutput", ["uniform_average", "raw_values"])
def test_r2_score_sample_weight(shape, multioutput):
    rng = numpy.random.default_rng(7)
    p, t, w = rng.standard_normal(shape), rng.standard_normal(shape), rng.uniform(0.1, 2.0, shape[0])
    wc = w.reshape((-1,) + (1,) * (len(shape) - 1))
    mean = (wc * t).sum(0) / w.sum()
    want = 1 - (wc * (p - t) ** 2).sum(0) / (wc * (t - mean) ** 2).sum(0)
    if multioutput == "uniform_average":
        want = want.mean()
    got = F.r2_score(kumo.asarray(p), kumo.asarray(t), sample_weight=kumo.asarray(w), multioutput=multioutput)
    numpy.testing.assert_allclose(kumo.asnumpy(got.array), want, rtol=1e-12)


def test_r2_score_unit_weights_equal_unweighted():
    rng = numpy.random.default_rng(8)
    p, t = kumo.asarray(rng.standard_normal((5, 2))), kumo.asarray(rng.standard_normal((5, 2)))
    numpy.testing.assert_allclose(kumo.asnumpy(F.r2_score(p, t, sample_weight=kumo.ones(5)).array),
                                  kumo.asnumpy(F.r2_score(p, t).array), rtol=1e-14)


def test_r2_score_errors():
    with pytest.raises(ValueError):
        F.r2_score(rand((3,)), rand((3,)), sample_weight=numpy.ones(4))
    with pytest.raises(ValueError):
        F.r2_score(rand((3,)), rand((3,)), multioutput="variance_weighted")
    with pytest.raises(ValueError):
        F.r2_score(rand((3,)), rand((4,)))


# ----------------------------------------------------------------------------- float32
_T = labels((4, 3), 2, seed=7, ignore=-1)
_T1 = labels((4,), 3, seed=8)
F32_CASES = [
    ("sigmoid_cross_entropy", lambda x: F.sigmoid_cross_entropy(x, _T), lambda x: sigce_ref(x, _T), 1),
    ("huber_loss", lambda x, t: F.huber_loss(x, t, 0.5), lambda x, t: huber_ref(x, t, 0.5, "sum_along_second_axis"),
     2),
    ("hinge", lambda x: F.hinge(x, _T1, norm="L2"), lambda x: hinge_ref(x, _T1, "L2", "mean"), 1),
    ("contrastive", lambda a, b: F.contrastive(a, b, _T1 % 2), lambda a, b: contrastive_ref(a, b, _T1 % 2, 1, "mean"),
     2),
    ("triplet", lambda a, p, n: F.triplet(a, p, n), lambda a, p, n: triplet_ref(a, p, n, 0.2, "mean"), 3),
    ("gaussian_nll", lambda x, m, v: F.gaussian_nll(x, m, v), VAE[2][2], 3),
    ("cross_covariance", lambda y, z: F.cross_covariance(y, z), lambda y, z: 0.5 * (cov_ref(y, z) ** 2).sum(), 2),
    ("decov", lambda h: F.decov(h, reduce="no"), lambda h: cov_ref(h, h) * (1 - numpy.eye(3)), 1),
    ("r2_score", lambda p, t: F.r2_score(p, t), lambda p, t: r2_ref(p, t, "uniform_average"), 2),
]


@pytest.mark.parametrize("name,fn,ref,nargs", F32_CASES, ids=[c[0] for c in F32_CASES])
def test_float32_forward(name, fn, ref, nargs):
    args = [rand((4, 3), seed=i + 1) for i in range(nargs)]
    y = fn(*[a.astype(numpy.float32) for a in args])
    assert y.dtype == numpy.float32
    expected = ref(*[a.astype(numpy.float32).astype(numpy.float64) for a in args])
    if name == "gaussian_nll":
        expected = expected.sum()
    numpy.testing.assert_allclose(y.array.get(), expected, rtol=2e-4, atol=2e-5)
