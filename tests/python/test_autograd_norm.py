"""kumo.autograd.functions: normalizations, noise and the train flag.
Forward values are compared with NumPy formulas written here; gradients and
second derivatives with central differences (gradient checks below)."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable, config, using_config
from autograd_norm_checks import check_backward, check_double_backward, rand, to_input


# ----------------------------------------------------------------------------- references
def bn_ref(x, gamma, beta, eps, axes):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    keep = [1 if i in axes else n for i, n in enumerate(x.shape)]
    return gamma.reshape(keep) * (x - mean) / numpy.sqrt(var + eps) + beta.reshape(keep)


def default_axes(ndim, gamma_ndim=1):
    return (0,) + tuple(range(gamma_ndim + 1, ndim))


def ln_ref(x, gamma, beta, eps):
    axes = tuple(range(1, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps) * gamma + beta


def gn_ref(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    g = (g - g.mean(axis=2, keepdims=True)) / numpy.sqrt(g.var(axis=2, keepdims=True) + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return g.reshape(x.shape) * gamma.reshape(shape) + beta.reshape(shape)


def lrn_ref(x, n, k, alpha, beta):
    half = n // 2
    x2 = numpy.square(x)
    s = numpy.zeros_like(x)
    c = x.shape[1]
    for ch in range(c):
        lo, hi = max(0, ch - half), min(c, ch + half + 1)
        s[:, ch] = x2[:, lo:hi].sum(axis=1)
    return x / (k + alpha * s) ** beta


def normalize_ref(x, eps, axis):
    return x / (numpy.sqrt(numpy.sum(x * x, axis=axis, keepdims=True)) + eps)


# ----------------------------------------------------------------------------- batch_normalization
BN_SHAPES = [((5, 3), (3,), None), ((1, 3), (3,), None), ((4, 3, 2, 2), (3,), None), ((4, 3, 5), (3, 5), None),
             ((3, 4, 2), (4,), (0, 2)), ((3, 4, 2), (3, 2), 1)]


@pytest.mark.parametrize("xshape,gshape,axis", BN_SHAPES)
@pytest.mark.parametrize("layout", ["c", "nc"])
def test_batch_normalization_forward(xshape, gshape, axis, layout):
    x, g, b = rand(xshape, seed=1), rand(gshape, seed=2, low=0.5, high=1.5), rand(gshape, seed=3)
    y = F.batch_normalization(to_input(x, layout), to_input(g), to_input(b), axis=axis)
    axes = default_axes(x.ndim, len(gshape)) if axis is None else ((axis,) if isinstance(axis, int) else axis)
    numpy.testing.assert_allclose(y.array.get(), bn_ref(x, g, b, 2e-5, axes), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("xshape,gshape,axis", BN_SHAPES)
def test_batch_normalization_backward(xshape, gshape, axis):
    x, g, b = rand(xshape, seed=1), rand(gshape, seed=2, low=0.5, high=1.5), rand(gshape, seed=3)
    if x.shape[0] == 1 and axis is None and x.ndim == 2:
        pytest.skip("a batch of 1 has zero variance: the gradient is 0 / sqrt(eps)")
    f = lambda x, g, b: F.batch_normalization(x, g, b, axis=axis)  # noqa: E731
    check_backward(f, (x, g, b), rand(xshape, seed=4))


@pytest.mark.parametrize("xshape,gshape,axis", BN_SHAPES[:3])
def test_batch_normalization_double_backward(xshape, gshape, axis):
    x, g, b = rand(xshape, seed=1), rand(gshape, seed=2, low=0.5, high=1.5), rand(gshape, seed=3)
    if x.shape[0] == 1:
        pytest.skip("a batch of 1 has zero variance")
    f = lambda x, g, b: F.batch_normalization(x, g, b)  # noqa: E731
    check_double_backward(f, (x, g, b), rand(xshape, seed=4))


def test_batch_normalization_updates_running_statistics():
    x, g, b = rand((6, 3, 2), seed=1), rand((3,), seed=2), rand((3,), seed=3)
    rm, rv = kumo.asarray(rand((3,), seed=5)), kumo.asarray(rand((3,), seed=6, low=0.5, high=1))
    rm0, rv0 = rm.get().copy(), rv.get().copy()
    F.batch_normalization(x, g, b, running_mean=rm, running_var=rv, decay=0.8)
    m = x.shape[0] * x.shape[2]
    numpy.testing.assert_allclose(rm.get(), 0.8 * rm0 + 0.2 * x.mean(axis=(0, 2)), rtol=1e-12)
    numpy.testing.assert_allclose(rv.get(), 0.8 * rv0 + 0.2 * x.var(axis=(0, 2)) * m / (m - 1), rtol=1e-12)


def test_batch_normalization_float32():
    x, g, b = rand((4, 3), seed=1).astype(numpy.float32), numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)
    y = F.batch_normalization(x, g, b)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array.get(), bn_ref(x.astype(float), numpy.ones(3), numpy.zeros(3), 2e-5, (0,)), rtol=1e-4, atol=1e-5)


def test_batch_normalization_running_stat_must_be_kumo():
    with pytest.raises(TypeError):
        F.batch_normalization(rand((4, 3)), numpy.ones(3), numpy.zeros(3), running_mean=numpy.zeros(3))


@pytest.mark.parametrize("gshape", [(4,), (2, 3)])
def test_batch_normalization_bad_gamma(gshape):
    with pytest.raises(ValueError):
        F.batch_normalization(rand((5, 3)), numpy.ones(gshape), numpy.zeros(gshape))


def test_batch_normalization_integer_input():
    with pytest.raises(TypeError):
        F.batch_normalization(numpy.ones((4, 3), numpy.int32), numpy.ones(3), numpy.zeros(3))


# ----------------------------------------------------------------------------- fixed_batch_normalization
@pytest.mark.parametrize("xshape,gshape", [((5, 3), (3,)), ((2, 3, 4), (3,)), ((1, 3), (3,)), ((2, 3, 4), (3, 4))])
def test_fixed_batch_normalization_forward_and_backward(xshape, gshape):
    x, g, b = rand(xshape, seed=1), rand(gshape, seed=2), rand(gshape, seed=3)
    m, v = rand(gshape, seed=4), rand(gshape, seed=5, low=0.5, high=2)
    axes = default_axes(len(xshape), len(gshape))
    keep = [1 if i in axes else n for i, n in enumerate(xshape)]
    ref = g.reshape(keep) * (x - m.reshape(keep)) / numpy.sqrt(v.reshape(keep) + 2e-5) + b.reshape(keep)
    y = F.fixed_batch_normalization(to_input(x, "nc"), g, b, m, v)
    numpy.testing.assert_allclose(y.array.get(), ref, rtol=1e-12)
    check_backward(F.fixed_batch_normalization, (x, g, b, m, v), rand(xshape, seed=6))
    check_double_backward(F.fixed_batch_normalization, (x, g, b, m, v), rand(xshape, seed=6))


# ----------------------------------------------------------------------------- layer / group normalization
@pytest.mark.parametrize("shape", [(3, 5), (1, 4), (2, 3, 4)])
@pytest.mark.parametrize("layout", ["c", "nc"])
def test_layer_normalization_forward(shape, layout):
    x, g, b = rand(shape, seed=1), rand(shape[1:], seed=2), rand(shape[1:], seed=3)
    y = F.layer_normalization(to_input(x, layout), g, b)
    numpy.testing.assert_allclose(y.array.get(), ln_ref(x, g, b, 1e-5), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("shape", [(3, 5), (1, 4), (2, 3, 2)])
def test_layer_normalization_gradients(shape):
    x, g, b = rand(shape, seed=1), rand(shape[1:], seed=2), rand(shape[1:], seed=3)
    check_backward(F.layer_normalization, (x, g, b), rand(shape, seed=4))
    check_double_backward(F.layer_normalization, (x, g, b), rand(shape, seed=4))


def test_layer_normalization_bad_shapes():
    with pytest.raises(ValueError):
        F.layer_normalization(rand((3, 5)), numpy.ones(4), numpy.zeros(4))
    with pytest.raises(ValueError):
        F.layer_normalization(rand((5,)), numpy.ones(5), numpy.zeros(5))


@pytest.mark.parametrize("shape,groups", [((2, 4, 3), 2), ((1, 6, 2, 2), 3), ((3, 4, 5), 4), ((2, 4, 3), 1)])
@pytest.mark.parametrize("layout", ["c", "nc"])
def test_group_normalization_forward(shape, groups, layout):
    x, g, b = rand(shape, seed=1), rand(shape[1:2], seed=2), rand(shape[1:2], seed=3)
    y = F.group_normalization(to_input(x, layout), groups, g, b)
    numpy.testing.assert_allclose(y.array.get(), gn_ref(x, groups, g, b, 1e-5), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("shape,groups", [((2, 4, 3), 2), ((1, 6, 2), 3)])
def test_group_normalization_gradients(shape, groups):
    x, g, b = rand(shape, seed=1), rand(shape[1:2], seed=2), rand(shape[1:2], seed=3)
    f = lambda x, g, b: F.group_normalization(x, groups, g, b)  # noqa: E731
    check_backward(f, (x, g, b), rand(shape, seed=4))
    check_double_backward(f, (x, g, b), rand(shape, seed=4))


@pytest.mark.parametrize("shape,groups", [((2, 4), 2), ((2, 4, 3), 3), ((2, 4, 3), 0)])
def test_group_normalization_errors(shape, groups):
    with pytest.raises(ValueError):
        F.group_normalization(rand(shape), groups, numpy.ones(4), numpy.zeros(4))


# ----------------------------------------------------------------------------- LRN, normalize
@pytest.mark.parametrize("shape", [(2, 7), (2, 6, 3), (1, 3, 2, 2)])
@pytest.mark.parametrize("n", [5, 4, 1])
def test_local_response_normalization_forward(shape, n):
    x = rand(shape, seed=1)
    y = F.local_response_normalization(to_input(x, "nc"), n=n, k=1.5, alpha=0.3, beta=0.75)
    numpy.testing.assert_allclose(y.array.get(), lrn_ref(x, n, 1.5, 0.3, 0.75), rtol=1e-12)


def test_local_response_normalization_defaults():
    x = rand((2, 7, 2), seed=1)
    numpy.testing.assert_allclose(F.local_response_normalization(x).array.get(), lrn_ref(x, 5, 2, 1e-4, .75),
                                  rtol=1e-12)


@pytest.mark.parametrize("shape", [(2, 7), (1, 4, 3)])
def test_local_response_normalization_gradients(shape):
    x = rand(shape, seed=1)
    f = lambda x: F.local_response_normalization(x, n=3, k=1.0, alpha=0.5, beta=0.75)  # noqa: E731
    check_backward(f, (x,), rand(shape, seed=2))
    check_double_backward(f, (x,), rand(shape, seed=2))


@pytest.mark.parametrize("shape,axis", [((3, 4), 1), ((3, 4), 0), ((2, 3, 4), 1), ((1, 5), -1), ((4,), 0)])
@pytest.mark.parametrize("layout", ["c", "nc"])
def test_normalize_forward(shape, axis, layout):
    x = rand(shape, seed=1)
    y = F.normalize(to_input(x, layout), axis=axis)
    numpy.testing.assert_allclose(y.array.get(), normalize_ref(x, 1e-5, axis), rtol=1e-12)


@pytest.mark.parametrize("shape,axis", [((3, 4), 1), ((2, 3, 4), 2), ((1, 5), 1)])
def test_normalize_gradients(shape, axis):
    x = rand(shape, seed=1)
    f = lambda x: F.normalize(x, axis=axis)  # noqa: E731
    check_backward(f, (x,), rand(shape, seed=2))
    check_double_backward(f, (x,), rand(shape, seed=2))


def test_normalize_float32():
    x = rand((3, 4), seed=1).astype(numpy.float32)
    y = F.normalize(x)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array.get(), normalize_ref(x.astype(float), 1e-5, 1), rtol=1e-5)


# ----------------------------------------------------------------------------- train flag, dropout
def test_config_train_default_and_using_config():
    assert config.train is True
    with using_config("train", False):
        assert config.train is False
        with using_config("train", True):
            assert config.train is True
        assert config.train is False
    assert config.train is True


def test_config_train_can_be_set():
    try:
        config.train = False
        assert config.train is False
        y = F.dropout(numpy.ones((3, 3)), 0.9)
        numpy.testing.assert_array_equal(y.array.get(), numpy.ones((3, 3)))
    finally:
        config.train = True
    assert config.train is True


def test_using_config_any_name_is_a_value_for_the_block():
    # Chainer's rule: a program may configure names of its own.
    with using_config("no_such_option", 1):
        assert config.no_such_option == 1
    with pytest.raises(AttributeError):
        config.no_such_option


@pytest.mark.parametrize("ratio", [0.0, 0.3, 0.5, 0.9])
def test_dropout_mask_values(ratio):
    x = Variable(kumo.asarray(rand((200, 50), seed=1)))
    y, mask = F.dropout(x, ratio, return_mask=True)
    m = mask.get()
    assert set(numpy.unique(m)) <= {0.0, 1.0 / (1.0 - ratio)}
    numpy.testing.assert_allclose(y.array.get(), x.array.get() * m, rtol=1e-15)
    assert abs((m == 0).mean() - ratio) < 0.03


def test_dropout_gradient_is_the_mask():
    xn = rand((4, 5), seed=1)
    x = Variable(kumo.asarray(xn))
    y, mask = F.dropout(x, 0.4, return_mask=True)
    F.sum(y * y).backward()
    numpy.testing.assert_allclose(x.grad.get(), 2 * xn * mask.get() ** 2, rtol=1e-12)


def test_dropout_given_mask():
    xn = rand((3, 4), seed=1)
    mask = (rand((3, 4), seed=2) > 0) * 2.0
    f = lambda x: F.dropout(x, 0.5, mask=kumo.asarray(mask))  # noqa: E731
    numpy.testing.assert_allclose(f(xn).array.get(), xn * mask)
    check_backward(f, (xn,), rand((3, 4), seed=3))
    check_double_backward(f, (xn,), rand((3, 4), seed=3))


def test_dropout_is_identity_outside_training():
    x = Variable(kumo.asarray(rand((3, 4), seed=1)))
    with using_config("train", False):
        y, mask = F.dropout(x, 0.5, return_mask=True)
    assert mask is None
    numpy.testing.assert_array_equal(y.array.get(), x.array.get())


def test_dropout_float32_keeps_dtype():
    y = F.dropout(numpy.ones((10, 10), numpy.float32), 0.5)
    assert y.dtype == numpy.float32


@pytest.mark.parametrize("ratio", [-0.1, 1.0, 1.5])
def test_dropout_bad_ratio(ratio):
    with pytest.raises(ValueError):
        F.dropout(rand((2, 2)), ratio)


def test_dropout_integer_input():
    with pytest.raises(TypeError):
        F.dropout(numpy.ones((2, 2), numpy.int64))


def test_dropout_seeded_is_reproducible():
    seed_noise = kumo._core.autograd.functions._seed_noise
    seed_noise(7)
    _, m1 = F.dropout(rand((5, 5)), 0.5, return_mask=True)
    seed_noise(7)
    _, m2 = F.dropout(rand((5, 5)), 0.5, return_mask=True)
    numpy.testing.assert_array_equal(m1.get(), m2.get())


# ----------------------------------------------------------------------------- gaussian, gumbel_softmax
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_gaussian_with_eps(shape):
    m, lv, e = rand(shape, seed=1), rand(shape, seed=2), rand(shape, seed=3)
    f = lambda m, lv: F.gaussian(m, lv, eps=kumo.asarray(e))  # noqa: E731
    numpy.testing.assert_allclose(f(m, lv).array.get(), m + numpy.exp(lv / 2) * e, rtol=1e-12)
    check_backward(f, (m, lv), rand(shape, seed=4))
    check_double_backward(f, (m, lv), rand(shape, seed=4))


def test_gaussian_return_eps_and_statistics():
    m, lv = numpy.full((400, 250), 1.5), numpy.full((400, 250), numpy.log(4.0))
    y, e = F.gaussian(m, lv, return_eps=True)
    numpy.testing.assert_allclose(y.array.get(), 1.5 + 2.0 * e.get(), rtol=1e-12)
    assert abs(y.array.get().mean() - 1.5) < 0.02
    assert abs(y.array.get().std() - 2.0) < 0.02


def test_gaussian_shape_mismatch():
    with pytest.raises(ValueError):
        F.gaussian(rand((2, 3)), rand((3,)))


def test_gumbel_softmax_is_a_distribution():
    log_p = numpy.log(numpy.tile([0.7, 0.2, 0.1], (2000, 1)))
    y = F.gumbel_softmax(log_p, tau=0.1).array.get()
    numpy.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-12)
    freq = numpy.bincount(y.argmax(axis=1), minlength=3) / 2000
    numpy.testing.assert_allclose(freq, [0.7, 0.2, 0.1], atol=0.04)


def test_gumbel_softmax_gradient_flows():
    x = Variable(kumo.asarray(rand((3, 4), seed=1)))
    y = F.gumbel_softmax(x, tau=1.0, axis=1)
    F.sum(y * y).backward()
    assert x.grad.shape == (3, 4)
    numpy.testing.assert_allclose(x.grad.get().sum(axis=1), 0.0, atol=1e-12)  # softmax's gradient sums to 0


def test_gumbel_softmax_axis_and_dtype():
    y = F.gumbel_softmax(numpy.zeros((3, 4, 2), numpy.float32), tau=0.5, axis=2)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array.get().sum(axis=2), 1.0, rtol=1e-5)


# ----------------------------------------------------------------------------- float32
F32_CASES = [
    ("layer_normalization", lambda x, g, b: F.layer_normalization(x, g, b),
     lambda x, g, b: ln_ref(x, g, b, 1e-5), [(3, 4), (4,), (4,)]),
    ("group_normalization", lambda x, g, b: F.group_normalization(x, 2, g, b),
     lambda x, g, b: gn_ref(x, 2, g, b, 1e-5), [(2, 4, 3), (4,), (4,)]),
    ("fixed_batch_normalization", lambda x, g, b: F.fixed_batch_normalization(x, g, b, b, g * g + 1),
     lambda x, g, b: g * (x - b) / numpy.sqrt(g * g + 1 + 2e-5) + b, [(3, 4), (4,), (4,)]),
    ("local_response_normalization", lambda x: F.local_response_normalization(x, 3, 1.0, 0.5, 0.75),
     lambda x: lrn_ref(x, 3, 1.0, 0.5, 0.75), [(2, 5, 2)]),
    ("normalize", lambda x: F.normalize(x, axis=0), lambda x: normalize_ref(x, 1e-5, 0), [(3, 4)]),
]


@pytest.mark.parametrize("name,fn,ref,shapes", F32_CASES, ids=[c[0] for c in F32_CASES])
def test_float32_forward(name, fn, ref, shapes):
    args = [rand(s, seed=i + 1) for i, s in enumerate(shapes)]
    y = fn(*[a.astype(numpy.float32) for a in args])
    assert y.dtype == numpy.float32
    expected = ref(*[a.astype(numpy.float32).astype(numpy.float64) for a in args])
    numpy.testing.assert_allclose(y.array.get(), expected, rtol=2e-4, atol=2e-5)


def test_kumo_random_seed_makes_dropout_reproducible():
    # Chainer's dropout draws from the array library's global generator.
    masks = []
    for _ in range(2):
        kumo.random.seed(3)
        y, mask = F.dropout(numpy.ones((50, 40), numpy.float32), 0.5, return_mask=True)
        masks.append(kumo.asnumpy(mask))
    numpy.testing.assert_array_equal(masks[0], masks[1])
    kumo.random.seed(4)
    _, other = F.dropout(numpy.ones((50, 40), numpy.float32), 0.5, return_mask=True)
    assert not numpy.array_equal(kumo.asnumpy(other), masks[0])
