"""Continuous distributions of kumo.random: distributions against scipy.stats
(Kolmogorov-Smirnov with fixed seeds, so nothing flakes), moments, and the
shape/broadcasting/dtype/error semantics of numpy.random.Generator."""
import math
import warnings

import numpy
import pytest
from scipy import stats

import kumo

N = 20000
P_MIN = 1e-3     # a correct sampler passes the KS test at this level (fixed seeds)
P_WRONG = 1e-8   # a deliberately wrong parameterisation must fail far below it
SEED = 20240611


def rng(seed=SEED):
    return kumo.random.default_rng(seed)


def host(x):
    return kumo.asnumpy(x)


def ks_pvalue(sample, dist):
    return stats.kstest(numpy.asarray(sample, dtype=numpy.float64), dist.cdf).pvalue


def wrap_angle(x):
    return numpy.mod(x + numpy.pi, 2 * numpy.pi) - numpy.pi


# (id, method, args, kwargs, scipy distribution of the samples, a wrong one or None)
KS_CASES = [
    ("exponential", "exponential", (2.0,), {}, stats.expon(scale=2.0), stats.expon(scale=0.5)),
    ("exponential-default", "exponential", (), {}, stats.expon(), None),
    ("standard_exponential", "standard_exponential", (), {}, stats.expon(), stats.expon(scale=1.1)),
    ("standard_exponential-f32", "standard_exponential", (), {"dtype": numpy.float32}, stats.expon(), None),
    ("standard_exponential-inv", "standard_exponential", (), {"method": "inv"}, stats.expon(), None),
    ("gamma-small-shape", "gamma", (0.5, 2.0), {}, stats.gamma(0.5, scale=2.0), stats.gamma(0.5, scale=0.5)),
    ("gamma-large-shape", "gamma", (3.0, 0.5), {}, stats.gamma(3.0, scale=0.5), stats.gamma(3.0, scale=2.0)),
    ("gamma-shape-1", "gamma", (1.0,), {}, stats.gamma(1.0), None),
    ("gamma-tiny-shape", "gamma", (0.05, 3.0), {}, stats.gamma(0.05, scale=3.0), None),
    ("gamma-huge-shape", "gamma", (1e5,), {}, stats.gamma(1e5), None),
    ("standard_gamma", "standard_gamma", (4.2,), {}, stats.gamma(4.2), stats.gamma(4.0)),
    ("standard_gamma-small", "standard_gamma", (0.3,), {}, stats.gamma(0.3), None),
    ("standard_gamma-f32", "standard_gamma", (4.2,), {"dtype": numpy.float32}, stats.gamma(4.2), None),
    ("standard_gamma-f32-small", "standard_gamma", (0.3,), {"dtype": numpy.float32}, stats.gamma(0.3), None),
    ("beta", "beta", (2.0, 5.0), {}, stats.beta(2.0, 5.0), stats.beta(5.0, 2.0)),
    ("beta-small", "beta", (0.3, 0.4), {}, stats.beta(0.3, 0.4), None),
    ("beta-mixed", "beta", (0.5, 3.0), {}, stats.beta(0.5, 3.0), None),
    ("beta-tiny-a", "beta", (0.05, 0.5), {}, stats.beta(0.05, 0.5), None),
    ("chisquare", "chisquare", (3.0,), {}, stats.chi2(3.0), stats.chi2(4.0)),
    ("chisquare-small", "chisquare", (0.5,), {}, stats.chi2(0.5), None),
    ("noncentral_chisquare", "noncentral_chisquare", (3.0, 2.0), {}, stats.ncx2(3.0, 2.0), stats.chi2(3.0)),
    ("noncentral_chisquare-small-df", "noncentral_chisquare", (0.5, 1.5), {}, stats.ncx2(0.5, 1.5), None),
    ("noncentral_chisquare-nonc-0", "noncentral_chisquare", (2.5, 0.0), {}, stats.chi2(2.5), None),
    ("f", "f", (3.0, 7.0), {}, stats.f(3.0, 7.0), stats.f(7.0, 3.0)),
    ("f-small", "f", (0.7, 2.5), {}, stats.f(0.7, 2.5), None),
    ("noncentral_f", "noncentral_f", (3.0, 7.0, 2.0), {}, stats.ncf(3.0, 7.0, 2.0), stats.f(3.0, 7.0)),
    ("standard_t", "standard_t", (4.0,), {}, stats.t(4.0), stats.norm()),
    ("standard_t-small", "standard_t", (0.5,), {}, stats.t(0.5), None),
    ("standard_cauchy", "standard_cauchy", (), {}, stats.cauchy(), stats.cauchy(scale=1.25)),
    ("laplace", "laplace", (1.0, 2.0), {}, stats.laplace(1.0, 2.0), stats.laplace(1.0, 1.0)),
    ("logistic", "logistic", (1.0, 2.0), {}, stats.logistic(1.0, 2.0), stats.logistic(1.0, 1.6)),
    ("gumbel", "gumbel", (1.0, 2.0), {}, stats.gumbel_r(1.0, 2.0), stats.gumbel_l(1.0, 2.0)),
    ("weibull", "weibull", (1.5,), {}, stats.weibull_min(1.5), stats.weibull_min(1 / 1.5)),
    ("weibull-small", "weibull", (0.3,), {}, stats.weibull_min(0.3), None),
    ("pareto", "pareto", (3.0,), {}, stats.lomax(3.0), stats.pareto(3.0)),
    ("power", "power", (2.0,), {}, stats.powerlaw(2.0), stats.powerlaw(0.5)),
    ("power-small", "power", (0.5,), {}, stats.powerlaw(0.5), None),
    ("rayleigh", "rayleigh", (2.0,), {}, stats.rayleigh(scale=2.0), stats.rayleigh(scale=math.sqrt(2.0))),
    ("triangular", "triangular", (0.0, 1.0, 3.0), {}, stats.triang(1 / 3, loc=0.0, scale=3.0),
     stats.triang(1.0, loc=0.0, scale=3.0)),
    ("triangular-left", "triangular", (-1.0, -1.0, 1.0), {}, stats.triang(0.0, loc=-1.0, scale=2.0), None),
    ("triangular-right", "triangular", (-1.0, 1.0, 1.0), {}, stats.triang(1.0, loc=-1.0, scale=2.0), None),
    ("vonmises", "vonmises", (0.0, 2.0), {}, stats.vonmises(2.0), stats.vonmises(1.0)),
    ("vonmises-small-kappa", "vonmises", (0.0, 0.3), {}, stats.vonmises(0.3), None),
    ("vonmises-large-kappa", "vonmises", (0.0, 50.0), {}, stats.vonmises(50.0), None),
    ("vonmises-tiny-kappa", "vonmises", (0.0, 1e-6), {}, stats.uniform(-math.pi, 2 * math.pi), None),
    ("vonmises-zero-kappa", "vonmises", (0.5, 0.0), {}, stats.uniform(-math.pi, 2 * math.pi), None),
    ("vonmises-huge-kappa", "vonmises", (0.0, 1e7), {}, stats.norm(scale=1 / math.sqrt(1e7)), None),
    ("wald", "wald", (1.0, 2.0), {}, stats.invgauss(0.5, scale=2.0), stats.invgauss(1.0, scale=2.0)),
    ("wald-wide", "wald", (3.0, 0.5), {}, stats.invgauss(6.0, scale=0.5), None),
    ("wald-large-mean", "wald", (1000.0, 1.0), {}, stats.invgauss(1000.0, scale=1.0), None),
]
KS_IDS = [c[0] for c in KS_CASES]


def _draw(method, args, kwargs, n=N, seed=SEED):
    return host(getattr(rng(seed), method)(*args, size=n, **kwargs))


@pytest.mark.parametrize("case", KS_CASES, ids=KS_IDS)
def test_ks_matches_scipy(case):
    _, method, args, kwargs, dist, _ = case
    assert ks_pvalue(_draw(method, args, kwargs), dist) > P_MIN


@pytest.mark.parametrize("case", [c for c in KS_CASES if c[5] is not None],
                         ids=[c[0] for c in KS_CASES if c[5] is not None])
def test_ks_rejects_wrong_parameters(case):
    # The same samples against a plausible wrong parameterisation (rate for
    # scale, swapped shapes, classic Pareto for Lomax, ...): the test has power.
    _, method, args, kwargs, _, wrong = case
    assert ks_pvalue(_draw(method, args, kwargs), wrong) < P_WRONG


@pytest.mark.parametrize("mu", [1.0, -2.5, 3.0, 100.0, -1e4])
def test_vonmises_location(mu):
    x = _draw("vonmises", (mu, 2.0), {})
    assert x.min() >= -math.pi and x.max() <= math.pi
    assert ks_pvalue(wrap_angle(x - mu), stats.vonmises(2.0)) > P_MIN


@pytest.mark.parametrize("mu", [math.pi, -3.0, 100.0])
def test_vonmises_huge_kappa_wraps(mu):
    x = _draw("vonmises", (mu, 1e7), {})
    assert x.min() >= -math.pi and x.max() <= math.pi
    assert ks_pvalue(wrap_angle(x - mu), stats.norm(scale=1 / math.sqrt(1e7))) > P_MIN


def _moment_cases():
    out = []
    for c in KS_CASES:
        m, v, k = (float(t) for t in c[4].stats(moments="mvk"))
        if all(math.isfinite(t) for t in (m, v, k)) and c[1] != "vonmises":
            out.append(pytest.param(c[1], c[2], c[3], m, v, k, id=c[0]))
    return out


@pytest.mark.parametrize("method, args, kwargs, mean, var, kurt", _moment_cases())
def test_mean_and_variance(method, args, kwargs, mean, var, kurt):
    x = _draw(method, args, kwargs, seed=SEED + 1)
    n = x.size
    assert abs(x.mean() - mean) <= 6 * math.sqrt(var / n)
    # Var(sample variance) ~ var^2 (excess kurtosis + 2) / n.
    assert abs(x.var() - var) <= 6 * var * math.sqrt((kurt + 2) / n)


# ---------------------------------------------------------------------------
# Parameters broadcast per element
# ---------------------------------------------------------------------------
# (method, parameter arrays broadcasting to (3, 2), scipy distribution from one set of scalars)
PER_ELEMENT = [
    ("exponential", ([[0.5], [1.0], [4.0]],), lambda s: stats.expon(scale=s)),
    ("gamma", ([[0.3], [2.0], [7.0]], [1.0, 3.0]), lambda a, s: stats.gamma(a, scale=s)),
    ("standard_gamma", ([[0.3, 0.9], [2.0, 1.0], [7.0, 12.0]],), lambda a: stats.gamma(a)),
    ("beta", ([[0.3], [2.0], [7.0]], [0.5, 4.0]), lambda a, b: stats.beta(a, b)),
    ("chisquare", ([[0.5, 1.0], [2.0, 3.0], [7.0, 30.0]],), lambda d: stats.chi2(d)),
    ("noncentral_chisquare", ([[0.5], [2.0], [7.0]], [0.0, 3.0]),
     lambda d, nc: stats.chi2(d) if nc == 0 else stats.ncx2(d, nc)),
    ("f", ([[0.5], [2.0], [7.0]], [3.0, 9.0]), lambda a, b: stats.f(a, b)),
    ("noncentral_f", ([[0.5], [2.0], [7.0]], [3.0, 9.0], [[1.0], [0.5], [4.0]]), lambda a, b, c: stats.ncf(a, b, c)),
    ("standard_t", ([[0.5, 1.0], [2.0, 3.0], [7.0, 30.0]],), lambda d: stats.t(d)),
    ("laplace", ([[-1.0], [0.0], [5.0]], [0.5, 2.0]), lambda m, s: stats.laplace(m, s)),
    ("logistic", ([[-1.0], [0.0], [5.0]], [0.5, 2.0]), lambda m, s: stats.logistic(m, s)),
    ("gumbel", ([[-1.0], [0.0], [5.0]], [0.5, 2.0]), lambda m, s: stats.gumbel_r(m, s)),
    ("weibull", ([[0.5, 1.0], [2.0, 3.0], [7.0, 30.0]],), lambda a: stats.weibull_min(a)),
    ("pareto", ([[0.5, 1.0], [2.0, 3.0], [7.0, 30.0]],), lambda a: stats.lomax(a)),
    ("power", ([[0.5, 1.0], [2.0, 3.0], [7.0, 30.0]],), lambda a: stats.powerlaw(a)),
    ("rayleigh", ([[0.5, 1.0], [2.0, 3.0], [7.0, 30.0]],), lambda s: stats.rayleigh(scale=s)),
    ("triangular", ([[-1.0], [0.0], [5.0]], [[0.0], [0.0], [6.0]], [7.0, 8.0]),
     lambda lo, m, hi: stats.triang((m - lo) / (hi - lo), loc=lo, scale=hi - lo)),
    ("vonmises", ([[0.0], [0.0], [0.0]], [0.5, 3.0]), lambda m, k: stats.vonmises(k)),
    ("wald", ([[0.5], [1.0], [4.0]], [0.5, 3.0]), lambda m, s: stats.invgauss(m / s, scale=s)),
]


@pytest.mark.parametrize("method, params, dist", PER_ELEMENT, ids=[c[0] for c in PER_ELEMENT])
def test_array_parameters_apply_per_element(method, params, dist):
    n = 4000
    x = host(getattr(rng(), method)(*params, size=(n, 3, 2)))
    assert x.shape == (n, 3, 2)
    full = [numpy.broadcast_to(numpy.asarray(p, dtype=float), (3, 2)) for p in params]
    for i in range(3):
        for j in range(2):
            d = dist(*(float(p[i, j]) for p in full))
            assert ks_pvalue(x[:, i, j], d) > P_MIN, (i, j)


# ---------------------------------------------------------------------------
# Shapes, size and input kinds against NumPy's Generator
# ---------------------------------------------------------------------------
# Valid scalar parameters for each distribution with parameters.
PARAMS = {
    "exponential": (2.0,), "gamma": (2.0, 1.5), "standard_gamma": (2.0,), "beta": (0.5, 2.0),
    "chisquare": (3.0,), "noncentral_chisquare": (3.0, 1.0), "f": (3.0, 4.0), "noncentral_f": (3.0, 4.0, 1.0),
    "standard_t": (3.0,), "laplace": (0.0, 2.0), "logistic": (0.0, 2.0), "gumbel": (0.0, 2.0), "weibull": (2.0,),
    "pareto": (2.0,), "power": (2.0,), "rayleigh": (2.0,), "triangular": (0.0, 1.0, 2.0), "vonmises": (0.0, 2.0),
    "wald": (1.0, 2.0),
}
NO_PARAMS = ["standard_exponential", "standard_cauchy"]


def _numpy_call(name, *args, **kwargs):
    return getattr(numpy.random.default_rng(0), name)(*args, **kwargs)


def _check_like_numpy(res, method, args, kwargs):
    expected = numpy.asarray(_numpy_call(method, *args, **kwargs))
    assert isinstance(res, kumo.ndarray)
    assert res.shape == expected.shape
    assert res.dtype == expected.dtype


@pytest.mark.parametrize("method", sorted(PARAMS) + NO_PARAMS)
@pytest.mark.parametrize("size", [None, (), 5, (2, 3), (0,), (2, 0, 3)])
def test_scalar_parameters_size(method, size):
    args = PARAMS.get(method, ())
    res = getattr(rng(), method)(*args, size=size)
    _check_like_numpy(res, method, args, {"size": size})


def test_size_none_gives_0d_array():
    res = rng().gamma(2.0)
    assert isinstance(res, kumo.ndarray) and res.shape == () and res.dtype == numpy.float64
    assert float(res) > 0


@pytest.mark.parametrize("method", sorted(PARAMS))
@pytest.mark.parametrize("size", [None, (3, 4), (2, 3, 4)])
def test_array_parameters_broadcast(method, size):
    # The first parameter as a (3, 1) column, the last as a (4,) row.
    args = list(PARAMS[method])
    host_args = list(args)
    host_args[0] = numpy.full((3, 1), args[0])
    if len(args) > 1:
        host_args[-1] = numpy.full((4,), args[-1])
    expected_shape = numpy.broadcast_shapes(*(numpy.shape(a) for a in host_args))
    if size is not None and numpy.broadcast_shapes(size, expected_shape) != size:
        return
    kumo_args = [kumo.asarray(a) if isinstance(a, numpy.ndarray) else a for a in host_args]
    res = getattr(rng(), method)(*kumo_args, size=size)
    _check_like_numpy(res, method, host_args, {"size": size})


@pytest.mark.parametrize("method", sorted(PARAMS))
@pytest.mark.parametrize("kind", ["list", "numpy", "kumo", "kumo-transposed", "kumo-negative-stride", "numpy-0d",
                                  "kumo-0d", "numpy-float32", "int"])
def test_parameter_kinds(method, kind):
    args = PARAMS[method]
    base = numpy.array([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])  # (2, 3)

    def convert(v):
        a = base * v
        if kind == "list":
            return a.tolist()
        if kind == "numpy":
            return a
        if kind == "kumo":
            return kumo.asarray(a)
        if kind == "kumo-transposed":
            return kumo.asarray(numpy.ascontiguousarray(a.T)).T
        if kind == "kumo-negative-stride":
            return kumo.asarray(numpy.repeat(a, 2, axis=1))[::-1, ::-2]
        if kind == "numpy-0d":
            return numpy.array(v)
        if kind == "kumo-0d":
            return kumo.asarray(v)
        if kind == "numpy-float32":
            return a.astype(numpy.float32)
        if kind == "int":
            return int(v) if float(v).is_integer() else v
        raise AssertionError(kind)

    conv = [convert(v) for v in args]
    res = host(getattr(rng(), method)(*conv))
    np_args = [host(c) if isinstance(c, kumo.ndarray) else c for c in conv]
    expected = numpy.asarray(_numpy_call(method, *np_args))
    assert res.shape == expected.shape and res.dtype == expected.dtype
    assert numpy.isfinite(res).all()


@pytest.mark.parametrize("method", sorted(PARAMS))
def test_same_seed_same_samples(method):
    args = PARAMS[method]
    a = host(getattr(rng(7), method)(*args, size=1000))
    b = host(getattr(rng(7), method)(*args, size=1000))
    c = host(getattr(rng(8), method)(*args, size=1000))
    numpy.testing.assert_array_equal(a, b)
    assert not numpy.array_equal(a, c)


@pytest.mark.parametrize("method", NO_PARAMS + ["dirichlet", "multivariate_normal"])
def test_same_seed_same_samples_no_params(method):
    args = {"dirichlet": ([1.0, 2.0],), "multivariate_normal": ([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]])}.get(method, ())
    a = host(getattr(rng(7), method)(*args, size=100))
    b = host(getattr(rng(7), method)(*args, size=100))
    c = host(getattr(rng(8), method)(*args, size=100))
    numpy.testing.assert_array_equal(a, b)
    assert not numpy.array_equal(a, c)


def test_successive_calls_differ():
    g = rng(3)
    a, b = host(g.gamma(2.0, size=100)), host(g.gamma(2.0, size=100))
    assert not numpy.array_equal(a, b)


def test_scalar_and_array_parameters_both_sample_correctly():
    x = host(rng().gamma(numpy.full(N, 2.5), 2.0))
    assert ks_pvalue(x, stats.gamma(2.5, scale=2.0)) > P_MIN


# ---------------------------------------------------------------------------
# Errors: NumPy's exception types and messages
# ---------------------------------------------------------------------------
BAD = [
    ("exponential", (-1.0,)), ("exponential", (-0.0,)), ("standard_gamma", (-1.0,)), ("gamma", (-1.0,)),
    ("gamma", (1.0, -2.0)), ("beta", (0.0, 1.0)), ("beta", (1.0, -1.0)), ("chisquare", (0.0,)),
    ("noncentral_chisquare", (0.0, 1.0)), ("noncentral_chisquare", (1.0, -1.0)), ("f", (0.0, 1.0)),
    ("f", (1.0, 0.0)), ("noncentral_f", (0.0, 1.0, 1.0)), ("noncentral_f", (1.0, 0.0, 1.0)),
    ("noncentral_f", (1.0, 1.0, -1.0)), ("standard_t", (0.0,)), ("standard_t", (-1.0,)), ("laplace", (0.0, -1.0)),
    ("logistic", (0.0, -1.0)), ("gumbel", (0.0, -1.0)), ("weibull", (-1.0,)), ("pareto", (0.0,)),
    ("power", (0.0,)), ("power", (-1.0,)), ("rayleigh", (-1.0,)), ("triangular", (2.0, 1.0, 3.0)),
    ("triangular", (0.0, 4.0, 3.0)), ("triangular", (1.0, 1.0, 1.0)), ("vonmises", (0.0, -1.0)),
    ("wald", (0.0, 1.0)), ("wald", (1.0, 0.0)), ("wald", (-1.0, 1.0)),
]


def _expect_same_error(call_kumo, call_numpy):
    with pytest.raises(Exception) as np_err:
        call_numpy()
    with pytest.raises(type(np_err.value)) as k_err:
        call_kumo()
    assert str(k_err.value) == str(np_err.value)


@pytest.mark.parametrize("method, args", BAD, ids=["%s%s" % (m, a) for m, a in BAD])
def test_invalid_scalar_parameters(method, args):
    _expect_same_error(lambda: getattr(rng(), method)(*args), lambda: _numpy_call(method, *args))


@pytest.mark.parametrize("method, args", BAD, ids=["%s%s" % (m, a) for m, a in BAD])
@pytest.mark.parametrize("kind", ["numpy", "kumo"])
def test_invalid_array_parameters(method, args, kind):
    # One bad element among good ones.
    good = PARAMS[method]
    arrays = []
    for g, b in zip(good, args):
        a = numpy.array([g, b, g]) if g != b else numpy.array([g, g, g])
        arrays.append(kumo.asarray(a) if kind == "kumo" else a)
    np_arrays = [host(a) if isinstance(a, kumo.ndarray) else a for a in arrays]
    _expect_same_error(lambda: getattr(rng(), method)(*arrays), lambda: _numpy_call(method, *np_arrays))


@pytest.mark.parametrize("method", sorted(PARAMS))
@pytest.mark.parametrize("size", [(5,), (4, 2), (2, 3, 1)])
def test_size_incompatible_with_parameters(method, size):
    args = [numpy.full((3,), v) for v in PARAMS[method]]
    _expect_same_error(lambda: getattr(rng(), method)(*[kumo.asarray(a) for a in args], size=size),
                       lambda: _numpy_call(method, *args, size=size))


@pytest.mark.parametrize("size", [-1, (2, -3), 2.0, "a"])
def test_bad_size(size):
    _expect_same_error(lambda: rng().gamma(1.0, size=size), lambda: _numpy_call("gamma", 1.0, size=size))


@pytest.mark.parametrize("value", [1 + 1j, "a", ["a"], numpy.array([1 + 1j]), numpy.array(1 + 1j), numpy.array(["a"]),
                                   [1 + 1j]])
def test_bad_parameter_type(value):
    _expect_same_error(lambda: rng().gamma(value), lambda: _numpy_call("gamma", value))


def test_parameter_on_another_device_is_an_error():
    # Every kumo array lives on the CPU in a run without a GPU; only check the
    # path that compares devices when a CUDA device exists.
    if not kumo.cuda.is_available():
        pytest.skip("needs a CUDA device")
    with kumo.Device("cpu"):
        p = kumo.asarray([1.0, 2.0])
    with kumo.Device("cuda", 0):
        g = rng()
        with pytest.raises(ValueError):
            g.gamma(p)


# NaN parameters: NumPy lets NaN through these constraints and returns NaN.
NAN_CASES = [(m, i) for m in sorted(PARAMS) for i in range(len(PARAMS[m]))
             if not (m == "vonmises" and i == 0)]


@pytest.mark.parametrize("method, index", NAN_CASES, ids=["%s-%d" % c for c in NAN_CASES])
def test_nan_parameter_like_numpy(method, index):
    args = list(PARAMS[method])
    args[index] = numpy.nan
    try:
        expected = numpy.asarray(_numpy_call(method, *args, size=20))
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            getattr(rng(), method)(*args, size=20)
        return
    res = host(getattr(rng(), method)(*args, size=20))
    numpy.testing.assert_array_equal(numpy.isnan(res), numpy.isnan(expected))


def test_vonmises_nan_mu():
    assert numpy.isnan(host(rng().vonmises(numpy.nan, 2.0, size=10))).all()
    # kappa below 1e-8 is the uniform distribution; NumPy ignores mu there.
    assert numpy.isfinite(host(rng().vonmises(numpy.nan, 0.0, size=10))).all()


# ---------------------------------------------------------------------------
# Edge values
# ---------------------------------------------------------------------------
def test_gamma_shape_zero_is_zero():
    numpy.testing.assert_array_equal(host(rng().gamma(0.0, 2.0, size=10)), numpy.zeros(10))
    numpy.testing.assert_array_equal(host(rng().standard_gamma(0.0, size=10, dtype=numpy.float32)),
                                     numpy.zeros(10, numpy.float32))


def test_zero_scale_gives_location():
    numpy.testing.assert_array_equal(host(rng().exponential(0.0, size=10)), numpy.zeros(10))
    numpy.testing.assert_array_equal(host(rng().laplace(3.0, 0.0, size=10)), numpy.full(10, 3.0))
    numpy.testing.assert_array_equal(host(rng().weibull(0.0, size=10)), numpy.zeros(10))


def test_exponential_is_never_negative_zero():
    x = host(rng().standard_exponential(size=N))
    assert not numpy.signbit(x).any()


def assert_unit_interval_mass(x, dist):
    # For tiny shape parameters many draws round to exactly 1.0, which a KS
    # test cannot handle (NumPy's own samples fail it); compare the mass
    # below fixed points instead, down to 1e-100.
    assert not numpy.isnan(x).any() and (x >= 0).all() and (x <= 1).all()
    for q in [1e-100, 1e-10, 1e-5, 0.01, 0.5, 0.99, 1 - 1e-5, 1 - 1e-10]:
        p = dist.cdf(q)
        assert abs((x < q).mean() - p) <= 6 * math.sqrt(p * (1 - p) / x.size) + 1e-12, q


@pytest.mark.parametrize("a, b", [(0.05, 0.05), (0.01, 0.2), (1e-3, 1e-3)])
def test_beta_small_parameters_mass(a, b):
    # A ratio of underflowed gammas would give NaN here.
    assert_unit_interval_mass(host(rng().beta(a, b, size=N)), stats.beta(a, b))


def test_beta_small_parameters_mass_rejects_wrong():
    x = host(rng().beta(0.05, 0.05, size=N))
    with pytest.raises(AssertionError):
        assert_unit_interval_mass(x, stats.beta(0.05, 0.1))


def test_beta_asymmetric_tiny_parameter():
    # Beta(a, 1) has CDF x**a, so P(X < 1e-10) = 1e-10**1e-3 ~ 0.977.
    x = host(rng().beta(1e-3, 1.0, size=N))
    p = (x < 1e-10).mean()
    assert abs(p - 1e-10 ** 1e-3) < 6 * math.sqrt(0.977 * 0.023 / N)


def test_large_parameters_stay_finite():
    assert numpy.isfinite(host(rng().wald(1e200, 1.0, size=1000))).all()
    assert numpy.isfinite(host(rng().gamma(1e300, size=1000))).all()
    assert (host(rng().weibull(1e-3, size=1000)) >= 0).all()


# ---------------------------------------------------------------------------
# dtype= and out=
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("method, args", [("standard_exponential", ()), ("standard_gamma", (2.0,))])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, "f4", "float64"])
def test_dtype(method, args, dtype):
    res = getattr(rng(), method)(*args, size=(3, 2), dtype=dtype)
    _check_like_numpy(res, method, args, {"size": (3, 2), "dtype": dtype})


@pytest.mark.parametrize("method, args", [("standard_exponential", ()), ("standard_gamma", (2.0,))])
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.int32, numpy.complex128])
def test_unsupported_dtype(method, args, dtype):
    _expect_same_error(lambda: getattr(rng(), method)(*args, dtype=dtype),
                       lambda: _numpy_call(method, *args, dtype=dtype))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_standard_gamma_out(dtype):
    out = kumo.zeros((N,), dtype=dtype)
    res = rng().standard_gamma(3.0, out=out, dtype=dtype)
    assert res is out
    assert ks_pvalue(host(out), stats.gamma(3.0)) > P_MIN


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_standard_exponential_out(dtype):
    out = kumo.zeros((N,), dtype=dtype)
    res = rng().standard_exponential(out=out, dtype=dtype)
    assert res is out
    assert ks_pvalue(host(out), stats.expon()) > P_MIN


def test_standard_gamma_out_broadcasts_parameters():
    out = kumo.zeros((N, 2))
    rng().standard_gamma([0.5, 4.0], out=out)
    x = host(out)
    assert ks_pvalue(x[:, 0], stats.gamma(0.5)) > P_MIN
    assert ks_pvalue(x[:, 1], stats.gamma(4.0)) > P_MIN


@pytest.mark.parametrize("method, args", [("standard_exponential", ()), ("standard_gamma", (2.0,))])
@pytest.mark.parametrize("case", ["wrong-dtype", "non-contiguous", "strided", "reversed", "size-mismatch",
                                  "read-only"])
def test_bad_out(method, args, case):
    kw_np, kw_k = {}, {}
    if case == "wrong-dtype":
        kw_np["out"], kw_k["out"] = numpy.zeros(3, numpy.float32), kumo.zeros(3, dtype=numpy.float32)
    elif case == "non-contiguous":
        kw_np["out"], kw_k["out"] = numpy.zeros((2, 3)).T, kumo.zeros((2, 3)).T
    elif case == "strided":
        kw_np["out"], kw_k["out"] = numpy.zeros(6)[::2], kumo.zeros(6)[::2]
    elif case == "reversed":
        kw_np["out"], kw_k["out"] = numpy.zeros(6)[::-1], kumo.zeros(6)[::-1]
    elif case == "read-only":
        kw_np["out"] = numpy.broadcast_to(numpy.zeros(3), (2, 3))
        kw_k["out"] = kumo.broadcast_to(kumo.zeros(3), (2, 3))
    else:
        kw_np["out"], kw_k["out"] = numpy.zeros(3), kumo.zeros(3)
        kw_np["size"] = kw_k["size"] = 4
    if method == "standard_exponential" and case == "non-contiguous":
        # NumPy's fill functions accept an F-contiguous out.
        res = getattr(rng(), method)(*args, **kw_k)
        assert res is kw_k["out"] and (host(res) > 0).all()
        return
    _expect_same_error(lambda: getattr(rng(), method)(*args, **kw_k), lambda: _numpy_call(method, *args, **kw_np))


def test_standard_gamma_out_incompatible_parameters():
    _expect_same_error(lambda: rng().standard_gamma([1.0, 2.0], out=kumo.zeros(3)),
                       lambda: _numpy_call("standard_gamma", [1.0, 2.0], out=numpy.zeros(3)))


@pytest.mark.parametrize("kind", ["numpy", "kumo", "list"])
def test_float32_standard_gamma_float64_parameter_array(kind):
    shape = numpy.array([[0.5], [3.0]])
    conv = {"numpy": shape, "kumo": kumo.asarray(shape), "list": shape.tolist()}[kind]
    x = host(rng().standard_gamma(conv, size=(2, N), dtype=numpy.float32))
    assert x.dtype == numpy.float32
    assert ks_pvalue(x[0], stats.gamma(0.5)) > P_MIN
    assert ks_pvalue(x[1], stats.gamma(3.0)) > P_MIN


def test_float32_standard_gamma_draws_in_single_precision():
    # float32 samples are not rounded float64 draws of the same stream: the
    # kernels compute in the requested precision (and use other draws).
    a = host(rng(5).standard_gamma(2.0, size=100, dtype=numpy.float32))
    b = host(rng(5).standard_gamma(2.0, size=100)).astype(numpy.float32)
    assert a.dtype == numpy.float32
    assert not numpy.array_equal(a, b)


# ---------------------------------------------------------------------------
# dirichlet
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("alpha", [[0.5, 1.5, 2.0], [3.0, 3.0], [0.01, 0.02, 0.03], [1e-4] * 5])
def test_dirichlet_marginals(alpha):
    x = host(rng().dirichlet(alpha, size=N))
    assert x.shape == (N, len(alpha))
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    total = sum(alpha)
    for j, a in enumerate(alpha[:2]):
        if max(alpha) < 0.1:
            assert_unit_interval_mass(x[:, j], stats.beta(a, total - a))
        else:
            assert ks_pvalue(x[:, j], stats.beta(a, total - a)) > P_MIN


def test_dirichlet_rejects_wrong_marginal():
    x = host(rng().dirichlet([0.5, 1.5, 2.0], size=N))
    assert ks_pvalue(x[:, 0], stats.beta(1.5, 2.5)) < P_WRONG


@pytest.mark.parametrize("alpha, size", [([1.0, 2.0], None), ([1.0, 2.0], 3), ([1.0, 2.0, 3.0], (2, 4)),
                                         ([1.0, 2.0], (2, 0)), ([], 3)])
def test_dirichlet_shapes(alpha, size):
    res = rng().dirichlet(alpha, size=size)
    _check_like_numpy(res, "dirichlet", (alpha,), {"size": size})


@pytest.mark.parametrize("kind", ["numpy", "kumo"])
def test_dirichlet_array_alpha(kind):
    alpha = numpy.array([2.0, 1.0, 0.5])
    a = kumo.asarray(alpha) if kind == "kumo" else alpha
    x = host(rng().dirichlet(a, size=N))
    assert ks_pvalue(x[:, 0], stats.beta(2.0, 1.5)) > P_MIN


def test_dirichlet_zero_alpha():
    x = host(rng().dirichlet([0.0, 2.0, 0.0], size=100))
    numpy.testing.assert_array_equal(x[:, 0], 0.0)
    numpy.testing.assert_array_equal(x[:, 1], 1.0)
    numpy.testing.assert_array_equal(host(rng().dirichlet([0.0, 0.0], size=3)), numpy.zeros((3, 2)))


def test_dirichlet_nan_alpha():
    assert numpy.isnan(host(rng().dirichlet([1.0, numpy.nan], size=4))).all()


@pytest.mark.parametrize("alpha", [[1.0, -1.0], [[1.0, 2.0]], 1])
def test_dirichlet_bad_alpha(alpha):
    _expect_same_error(lambda: rng().dirichlet(alpha), lambda: _numpy_call("dirichlet", alpha))


# ---------------------------------------------------------------------------
# multivariate_normal
# ---------------------------------------------------------------------------
MEAN = [1.0, -2.0, 0.5]
COV = [[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]]


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_moments(method):
    x = host(rng().multivariate_normal(MEAN, COV, size=N, method=method))
    assert x.shape == (N, 3)
    cov = numpy.array(COV)
    se = numpy.sqrt(numpy.diag(cov) / N)
    assert (numpy.abs(x.mean(axis=0) - MEAN) < 6 * se).all()
    # Entries of the sample covariance have standard error <= sqrt((s_ii s_jj + s_ij^2) / N).
    se_cov = numpy.sqrt((numpy.outer(numpy.diag(cov), numpy.diag(cov)) + cov ** 2) / N)
    assert (numpy.abs(numpy.cov(x.T) - cov) < 6 * se_cov).all()


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_projection_ks(method):
    v = numpy.array([0.3, -1.0, 2.0])
    x = host(rng().multivariate_normal(MEAN, COV, size=N, method=method)) @ v
    dist = stats.norm(v @ MEAN, math.sqrt(v @ numpy.array(COV) @ v))
    assert ks_pvalue(x, dist) > P_MIN
    wrong = stats.norm(v @ MEAN, math.sqrt(v @ numpy.diag(numpy.diag(COV)) @ v))
    assert ks_pvalue(x, wrong) < P_WRONG


@pytest.mark.parametrize("size", [None, 4, (2, 3), (0,)])
@pytest.mark.parametrize("kind", ["list", "numpy", "kumo"])
def test_multivariate_normal_shapes(size, kind):
    conv = {"list": lambda a: a, "numpy": numpy.array, "kumo": kumo.asarray}[kind]
    res = rng().multivariate_normal(conv(MEAN), conv(COV), size=size)
    _check_like_numpy(res, "multivariate_normal", (MEAN, COV), {"size": size})


def test_multivariate_normal_singular_cov():
    # Positive semi-definite but singular: samples lie on the line x0 == x1.
    x = host(rng().multivariate_normal([0.0, 0.0], [[1.0, 1.0], [1.0, 1.0]], size=100))
    numpy.testing.assert_allclose(x[:, 0], x[:, 1], atol=1e-7)


@pytest.mark.parametrize("kwargs", [{"method": "qr"}, {"check_valid": "nope"}, {"check_valid": "raise"},
                                    {"check_valid": "raise", "method": "eigh"}])
def test_multivariate_normal_errors_kwargs(kwargs):
    cov = [[1.0, 2.0], [2.0, 1.0]]
    _expect_same_error(lambda: rng().multivariate_normal([0.0, 0.0], cov, **kwargs),
                       lambda: _numpy_call("multivariate_normal", [0.0, 0.0], cov, **kwargs))


@pytest.mark.parametrize("mean, cov", [([[0.0, 0.0]], numpy.eye(2)), ([0.0, 0.0, 0.0], numpy.eye(2)),
                                       ([0.0, 0.0], [1.0, 0.0]), (0.0, 1.0), ([0.0, 0.0], numpy.ones((2, 3)))])
def test_multivariate_normal_bad_shapes(mean, cov):
    _expect_same_error(lambda: rng().multivariate_normal(mean, cov),
                       lambda: _numpy_call("multivariate_normal", mean, cov))


def test_multivariate_normal_not_psd_warns():
    with pytest.warns(RuntimeWarning, match="covariance is not symmetric positive-semidefinite"):
        rng().multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]])


def test_multivariate_normal_cholesky_not_pd():
    with pytest.raises(numpy.linalg.LinAlgError):
        rng().multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], method="cholesky")


def test_multivariate_normal_ignore_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rng().multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], check_valid="ignore")


# ---------------------------------------------------------------------------
# The legacy and module-level entry points
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("method, args, dist", [
    ("gamma", (2.0, 3.0), stats.gamma(2.0, scale=3.0)),
    ("beta", (0.5, 2.0), stats.beta(0.5, 2.0)),
    ("exponential", (2.0,), stats.expon(scale=2.0)),
    ("vonmises", (0.0, 1.0), stats.vonmises(1.0)),
])
def test_random_state_methods(method, args, dist):
    x = host(getattr(kumo.random.RandomState(11), method)(*args, size=N))
    assert ks_pvalue(x, dist) > P_MIN
    y = host(getattr(kumo.random.RandomState(11), method)(*args, size=N))
    numpy.testing.assert_array_equal(x, y)


def test_module_level_functions_use_the_global_state():
    kumo.random.seed(5)
    a = host(kumo.random.gamma(2.0, size=N))
    kumo.random.seed(5)
    b = host(kumo.random.gamma(2.0, size=N))
    numpy.testing.assert_array_equal(a, b)
    assert ks_pvalue(a, stats.gamma(2.0)) > P_MIN
