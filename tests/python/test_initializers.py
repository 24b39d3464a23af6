"""kumo.autograd.initializers against Chainer's rules: fan computations,
scales, statistics of large draws, dtypes and the errors."""
import numpy
import pytest

import kumo
from kumo.autograd import initializers as I

FLOATS = [numpy.float16, numpy.float32, numpy.float64]


def _fill(init, shape, dtype=numpy.float32):
    a = kumo.empty(shape, dtype=dtype)
    init(a)
    return kumo.asnumpy(a)


@pytest.mark.parametrize("shape, fans", [((3, 4), (4, 3)), ((5, 2, 3, 3), (18, 45)), ((2, 3, 4), (12, 8)),
                                         ((6, 1), (1, 6))])
def test_get_fans(shape, fans):
    assert I.get_fans(shape) == fans


@pytest.mark.parametrize("shape", [(3,), ()])
def test_get_fans_needs_two_dims(shape):
    with pytest.raises(ValueError):
        I.get_fans(shape)


def test_get_fans_needs_tuple():
    with pytest.raises(ValueError):
        I.get_fans([3, 4])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("init, value", [(I.Zero(), 0.0), (I.One(), 1.0), (I.Constant(2.5), 2.5)])
def test_constants(init, value, dtype):
    out = _fill(init, (3, 4), dtype)
    assert out.dtype == dtype
    numpy.testing.assert_array_equal(out, numpy.full((3, 4), value, dtype))


def test_nan():
    assert numpy.isnan(_fill(I.NaN(), (2, 3))).all()


@pytest.mark.parametrize("fill", [numpy.arange(4.0), kumo.arange(4.0)])
def test_constant_array_broadcasts(fill):
    out = _fill(I.Constant(fill), (3, 4))
    numpy.testing.assert_array_equal(out, numpy.broadcast_to(numpy.arange(4.0, dtype=numpy.float32), (3, 4)))


def test_constant_rejects_non_scalar():
    with pytest.raises(ValueError):
        I.Constant([1, 2])


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64])
def test_constant_integer_arrays(dtype):
    numpy.testing.assert_array_equal(_fill(I.Constant(3), (2,), dtype), numpy.array([3, 3], dtype))


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_identity(scale):
    numpy.testing.assert_array_equal(_fill(I.Identity(scale), (4, 4)), numpy.eye(4, dtype=numpy.float32) * scale)


@pytest.mark.parametrize("shape", [(3, 4), (3,), (2, 2, 2)])
def test_identity_needs_square_matrix(shape):
    with pytest.raises(ValueError):
        _fill(I.Identity(), shape)


def _std_of(init, shape):
    kumo.random.seed(0)
    out = _fill(init, shape, numpy.float64)
    return out.mean(), out.std(), out


# (initializer, shape, expected standard deviation): the scale rules.
NORMALS = [
    (I.Normal(), (200, 300), 0.05),
    (I.Normal(0.3), (200, 300), 0.3),
    (I.LeCunNormal(), (200, 300), numpy.sqrt(1.0 / 300)),
    (I.LeCunNormal(2.0), (100, 20, 3, 3), 2.0 * numpy.sqrt(1.0 / 180)),
    (I.GlorotNormal(), (200, 300), numpy.sqrt(2.0 / 500)),
    (I.HeNormal(), (200, 300), numpy.sqrt(2.0 / 300)),
    (I.HeNormal(fan_option="fan_out"), (200, 300), numpy.sqrt(2.0 / 200)),
    (I.HeNormal(0.5), (64, 16, 5, 5), 0.5 * numpy.sqrt(2.0 / 400)),
]


@pytest.mark.parametrize("init, shape, std", NORMALS)
def test_normal_statistics(init, shape, std):
    mean, got_std, _ = _std_of(init, shape)
    assert abs(mean) < 4 * std / numpy.sqrt(numpy.prod(shape))
    assert abs(got_std - std) < 0.03 * std


UNIFORMS = [
    (I.Uniform(), (200, 300), 0.05),
    (I.Uniform(2.0), (200, 300), 2.0),
    (I.LeCunUniform(), (200, 300), numpy.sqrt(3.0 / 300)),
    (I.GlorotUniform(), (200, 300), numpy.sqrt(6.0 / 500)),
    (I.GlorotUniform(0.5), (100, 20, 3, 3), 0.5 * numpy.sqrt(6.0 / (180 + 900))),
    (I.HeUniform(), (200, 300), numpy.sqrt(6.0 / 300)),
]


@pytest.mark.parametrize("init, shape, bound", UNIFORMS)
def test_uniform_statistics(init, shape, bound):
    _, std, out = _std_of(init, shape)
    assert out.min() >= -bound and out.max() <= bound
    assert out.min() < -0.95 * bound and out.max() > 0.95 * bound
    assert abs(std - bound / numpy.sqrt(3)) < 0.03 * bound


def test_he_normal_bad_fan_option():
    with pytest.raises(ValueError):
        _fill(I.HeNormal(fan_option="fan_avg"), (3, 4))


@pytest.mark.parametrize("cls", [I.Normal, I.LeCunNormal, I.GlorotNormal, I.HeNormal, I.Uniform, I.LeCunUniform,
                                 I.GlorotUniform, I.HeUniform, I.Orthogonal])
@pytest.mark.parametrize("dtype", FLOATS)
def test_random_dtypes(cls, dtype):
    out = _fill(cls(), (8, 6), dtype)
    assert out.dtype == dtype and numpy.isfinite(out).all()


@pytest.mark.parametrize("cls", [I.Normal, I.HeUniform, I.Orthogonal, I.Constant])
def test_dtype_mismatch_is_an_error(cls):
    init = cls(1.0, dtype=numpy.float64) if cls is not I.Constant else cls(1.0, numpy.float64)
    with pytest.raises(ValueError):
        _fill(init, (4, 4), numpy.float32)


def test_seeded_draws_repeat():
    kumo.random.seed(5)
    a = _fill(I.HeNormal(), (10, 10))
    kumo.random.seed(5)
    b = _fill(I.HeNormal(), (10, 10))
    numpy.testing.assert_array_equal(a, b)


def test_rng_keyword_draws_on_host():
    a = _fill(I.Normal(1.0, rng=numpy.random.RandomState(3)), (5, 5), numpy.float64)
    b = numpy.random.RandomState(3).normal(0.0, 1.0, (5, 5))
    numpy.testing.assert_allclose(a, b)


def test_unknown_keyword():
    with pytest.raises(TypeError):
        I.Normal(1.0, seed=3)


@pytest.mark.parametrize("shape", [(5, 5), (3, 7), (7, 3), (4, 2, 3), (6, 2, 2)])
@pytest.mark.parametrize("scale", [1.0, 1.1])
def test_orthogonal(shape, scale):
    w = _fill(I.Orthogonal(scale), shape, numpy.float64).reshape(shape[0], -1)
    if w.shape[0] <= w.shape[1]:
        numpy.testing.assert_allclose(w @ w.T, scale ** 2 * numpy.eye(w.shape[0]), atol=1e-10)
    else:
        numpy.testing.assert_allclose(w.T @ w, scale ** 2 * numpy.eye(w.shape[1]), atol=1e-10)


def test_orthogonal_0d_is_a_sign():
    out = _fill(I.Orthogonal(2.0), (), numpy.float64)
    assert float(out) in (2.0, -2.0)


def test_orthogonal_empty():
    with pytest.raises(ValueError):
        _fill(I.Orthogonal(), (0, 3))


@pytest.mark.parametrize("mode, shape, ok", [("auto", (3, 7), True), ("auto", (7, 3), True),
                                             ("projection", (7, 3), False), ("projection", (3, 7), True),
                                             ("embedding", (3, 7), False), ("embedding", (7, 3), True),
                                             ("basis", (3, 3), True), ("basis", (3, 4), False)])
def test_orthogonal_modes(mode, shape, ok):
    if ok:
        _fill(I.Orthogonal(mode=mode), shape)
    else:
        with pytest.raises(ValueError):
            _fill(I.Orthogonal(mode=mode), shape)


def test_orthogonal_bad_mode():
    with pytest.raises(ValueError):
        I.Orthogonal(mode="rows")


@pytest.mark.parametrize("dtype, expected", [(None, numpy.float32), (numpy.float64, numpy.float64),
                                             (numpy.float16, numpy.float16)])
def test_generate_array_dtype(dtype, expected):
    a = I.generate_array(I.One(), (2, 3), dtype=dtype)
    assert isinstance(a, kumo.ndarray) and a.dtype == expected and a.shape == (2, 3)


def test_generate_array_uses_initializer_dtype():
    assert I.generate_array(I.One(dtype=numpy.float64), (2,)).dtype == numpy.float64


def test_generate_array_dtype_mismatch():
    with pytest.raises(ValueError):
        I.generate_array(I.One(dtype=numpy.float64), (2,), dtype=numpy.float32)


def test_generate_array_numpy():
    a = I.generate_array(I.One(), (2,), numpy)
    assert isinstance(a, numpy.ndarray) and a.dtype == numpy.float32


def test_get_initializer_rules():
    assert isinstance(I._get_initializer(None), I.LeCunNormal)
    c = I._get_initializer(3)
    assert isinstance(c, I.Constant) and c.fill_value == 3
    arr = numpy.ones((2, 2))
    assert isinstance(I._get_initializer(arr), I.Constant)
    assert isinstance(I._get_initializer(kumo.ones(2)), I.Constant)
    he = I.HeNormal()
    assert I._get_initializer(he) is he
    with pytest.raises(TypeError):
        I._get_initializer("he")


def test_fills_views_in_place():
    a = kumo.zeros((4, 6), dtype=numpy.float32)
    I.One()(a[1:3, ::2])
    expected = numpy.zeros((4, 6), numpy.float32)
    expected[1:3, ::2] = 1
    numpy.testing.assert_array_equal(kumo.asnumpy(a), expected)


def test_orthogonal_with_rng_is_the_sign_fixed_q_factor():
    out = _fill(I.Orthogonal(0.5, rng=numpy.random.RandomState(4)), (3, 5), numpy.float64)
    a = numpy.random.RandomState(4).normal(size=(3, 5)).T  # more inputs than outputs: transposed
    q, r = numpy.linalg.qr(a)
    numpy.testing.assert_allclose(out, (q * numpy.copysign(0.5, numpy.diag(r))).T, atol=1e-12)


def test_initializers_fill_float16_through_float64_draws():
    out = _fill(I.Uniform(1.0, rng=numpy.random.RandomState(0)), (4, 4), numpy.float16)
    expected = numpy.random.RandomState(0).uniform(-1.0, 1.0, (4, 4)).astype(numpy.float16)
    numpy.testing.assert_array_equal(out, expected)
