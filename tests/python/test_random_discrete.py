"""kumo.random discrete distributions: goodness of fit against scipy.stats,
moments, shapes/dtypes/broadcasting and argument errors against NumPy's
Generator, reproducibility."""
import itertools

import numpy
import pytest
from scipy import stats

import kumo

N = 20000          # draws per goodness-of-fit test
P_MIN = 1e-3       # a correct sampler fails a fit test with this probability


def gen(seed=1234):
    return kumo.random.default_rng(seed)


def chisq_pvalue(samples, pmf_values, lo):
    """Chi-square goodness of fit of integer samples to pmf_values[k - lo] on
    lo..lo+len-1. Mass outside the range is added to the end bins and samples
    outside are clipped into them; neighbouring bins are merged until every
    expected count is at least 5."""
    samples = numpy.asarray(samples).ravel()
    probs = numpy.array(pmf_values, dtype=numpy.float64)
    hi = lo + probs.size - 1
    outside = max(0.0, 1.0 - probs.sum())
    probs[-1] += outside  # callers put lo at the bottom of the support
    counts = numpy.bincount(numpy.clip(samples, lo, hi) - lo, minlength=probs.size)
    expected = probs * samples.size
    obs_bins, exp_bins = [], []
    acc_o = acc_e = 0.0
    for o, e in zip(counts, expected):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            obs_bins.append(acc_o)
            exp_bins.append(acc_e)
            acc_o = acc_e = 0.0
    obs_bins[-1] += acc_o
    exp_bins[-1] += acc_e
    obs_bins, exp_bins = numpy.array(obs_bins), numpy.array(exp_bins)
    assert len(exp_bins) >= 2, "degenerate binning"
    stat = ((obs_bins - exp_bins) ** 2 / exp_bins).sum()
    return stats.chi2.sf(stat, len(exp_bins) - 1)


def fit_pvalue(samples, dist, lo=None, tail=1e-7):
    """p-value of samples against a frozen scipy.stats discrete distribution."""
    if lo is None:
        lo = int(max(dist.support()[0], dist.ppf(tail) - 1))
    hi = int(dist.ppf(1 - tail)) + 1
    return chisq_pvalue(samples, dist.pmf(numpy.arange(lo, hi + 1)), lo)


def draw(method, *args, seed=1234, size=N):
    r = getattr(gen(seed), method)(*args, size=size)
    assert isinstance(r, kumo.ndarray)
    return kumo.asnumpy(r)


# ---------------------------------------------------------------- goodness of fit
@pytest.mark.parametrize("lam", [0.5, 5.0, 9.99, 10.0, 50.0, 5000.0, 1e9])
def test_poisson_fit(lam):
    assert fit_pvalue(draw("poisson", lam), stats.poisson(lam)) > P_MIN


@pytest.mark.parametrize("n,p", [(20, 0.3), (1000, 0.005), (30, 0.66), (100, 0.5), (1000, 0.7), (45, 0.25),
                                 (10 ** 6, 0.99), (10 ** 12, 1e-6), (7, 0.999)])
def test_binomial_fit(n, p):
    assert fit_pvalue(draw("binomial", n, p), stats.binom(n, p)) > P_MIN


def test_binomial_huge_n_tiny_p_fit():
    # n p = 4 with n = 10**18: the inversion branch; Binomial(n, 4/n) equals
    # Poisson(4) to double precision (scipy's binom.ppf fails at this n).
    assert fit_pvalue(draw("binomial", 10 ** 18, 4e-18), stats.poisson(4.0)) > P_MIN


@pytest.mark.parametrize("p", [0.01, 0.3, 0.9])
def test_geometric_fit(p):
    assert fit_pvalue(draw("geometric", p), stats.geom(p)) > P_MIN


@pytest.mark.parametrize("n,p", [(5, 0.3), (0.5, 0.8), (100, 0.5)])
def test_negative_binomial_fit(n, p):
    assert fit_pvalue(draw("negative_binomial", n, p), stats.nbinom(n, p)) > P_MIN


@pytest.mark.parametrize("ngood,nbad,nsample", [(10, 20, 5), (5, 1000, 100), (1000, 5, 100), (100, 200, 50),
                                                (20, 30, 12), (500, 500, 990), (10 ** 6, 2 * 10 ** 6, 10 ** 5),
                                                (3, 4, 7)])
def test_hypergeometric_fit(ngood, nbad, nsample):
    dist = stats.hypergeom(ngood + nbad, ngood, nsample)
    if nsample == ngood + nbad:  # the whole urn: no randomness left
        assert numpy.all(draw("hypergeometric", ngood, nbad, nsample) == ngood)
    else:
        assert fit_pvalue(draw("hypergeometric", ngood, nbad, nsample), dist) > P_MIN


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9, 0.999])
def test_logseries_fit(p):
    assert fit_pvalue(draw("logseries", p), stats.logser(p), lo=1, tail=1e-5) > P_MIN


@pytest.mark.parametrize("a", [1.5, 2.0, 4.0])
def test_zipf_fit(a):
    dist = stats.zipf(a)
    ks = numpy.arange(1, 1001)
    assert chisq_pvalue(draw("zipf", a), dist.pmf(ks), 1) > P_MIN


def _joint_pvalue(rows, outcomes, pmf):
    """Chi-square fit of the rows of a 2-d sample to a pmf over listed outcomes."""
    index = {tuple(o): j for j, o in enumerate(outcomes)}
    codes = numpy.array([index[tuple(r)] for r in rows.tolist()])
    return chisq_pvalue(codes, numpy.array([pmf(o) for o in outcomes]), 0)


def test_multinomial_joint_fit():
    pvals = [0.2, 0.3, 0.5]
    rows = kumo.asnumpy(gen().multinomial(5, pvals, size=N))
    outcomes = [o for o in itertools.product(range(6), repeat=3) if sum(o) == 5]
    dist = stats.multinomial(5, pvals)
    assert _joint_pvalue(rows, outcomes, dist.pmf) > P_MIN


@pytest.mark.parametrize("n", [1000, 10 ** 7])
def test_multinomial_marginals_fit(n):
    pvals = numpy.array([0.1, 0.2, 0.3, 0.4])
    rows = kumo.asnumpy(gen().multinomial(n, pvals, size=N))
    assert numpy.all(rows.sum(axis=1) == n)
    for j, pj in enumerate(pvals):
        assert fit_pvalue(rows[:, j], stats.binom(n, pj)) > P_MIN


@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric_joint_fit(method):
    colors = [4, 3, 5]
    rows = kumo.asnumpy(gen().multivariate_hypergeometric(colors, 5, size=N, method=method))
    outcomes = [o for o in itertools.product(*(range(c + 1) for c in colors)) if sum(o) == 5]
    dist = stats.multivariate_hypergeom(colors, 5)
    assert _joint_pvalue(rows, outcomes, dist.pmf) > P_MIN


@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric_marginals_fit(method):
    colors = numpy.array([30, 200, 70, 100])
    nsample = 300  # more than half the urn: 'count' draws the complement
    rows = kumo.asnumpy(gen().multivariate_hypergeometric(colors, nsample, size=N, method=method))
    assert numpy.all(rows.sum(axis=1) == nsample)
    assert numpy.all(rows <= colors)
    for j, c in enumerate(colors):
        assert fit_pvalue(rows[:, j], stats.hypergeom(colors.sum(), c, nsample)) > P_MIN


# ---------------------------------------------------------------- the fit test has power
@pytest.mark.parametrize("method,args,wrong", [
    ("poisson", (50.0,), stats.poisson(51.0)),
    ("binomial", (100, 0.5), stats.binom(100, 0.52)),
    ("binomial", (10 ** 6, 0.99), stats.binom(10 ** 6, 0.9899)),
    ("hypergeometric", (100, 200, 50), stats.hypergeom(300, 106, 50)),
    ("geometric", (0.3,), stats.geom(0.32)),
])
def test_fit_rejects_wrong_parameter(method, args, wrong):
    assert fit_pvalue(draw(method, *args), wrong) < P_MIN


# ---------------------------------------------------------------- moments with array parameters
def _check_moments(samples, mean, var, axis=0, var_rtol=0.1):
    """Column means within 5 standard errors, variances within var_rtol."""
    n = samples.shape[axis]
    m = samples.mean(axis=axis)
    numpy.testing.assert_array_less(numpy.abs(m - mean), 5 * numpy.sqrt(var / n) + 1e-12)
    v = samples.var(axis=axis)
    numpy.testing.assert_allclose(v, var, rtol=var_rtol, atol=1e-12)


def test_poisson_array_lam_moments():
    lam = numpy.array([0.0, 0.5, 5.0, 50.0, 5000.0])
    s = kumo.asnumpy(gen().poisson(kumo.asarray(lam), size=(N, 5)))
    _check_moments(s, lam, lam)


def test_binomial_broadcast_moments():
    n = numpy.array([[10], [1000]])
    p = numpy.array([0.1, 0.5, 0.95])
    s = kumo.asnumpy(gen().binomial(n, p, size=(N, 2, 3)))
    _check_moments(s, n * p, n * p * (1 - p))


def test_hypergeometric_array_moments():
    ngood = numpy.array([5, 100, 600, 40])
    nbad = numpy.array([7, 300, 400, 0])
    nsample = numpy.array([6, 250, 500, 30])
    s = kumo.asnumpy(gen().hypergeometric(ngood, nbad, nsample, size=(N, 4)))
    tot = ngood + nbad
    mean = nsample * ngood / tot
    var = nsample * (ngood / tot) * (nbad / tot) * (tot - nsample) / (tot - 1)
    _check_moments(s, mean, var)


def test_negative_binomial_array_moments():
    n = numpy.array([1.0, 3.5, 50.0])
    p = numpy.array([0.2, 0.5, 0.9])
    s = kumo.asnumpy(gen().negative_binomial(n, p, size=(N, 3)))
    _check_moments(s, n * (1 - p) / p, n * (1 - p) / p ** 2)


def test_geometric_logseries_zipf_array_moments():
    p = numpy.array([0.05, 0.5, 1.0])
    _check_moments(kumo.asnumpy(gen().geometric(p, size=(N, 3))), 1 / p, (1 - p) / p ** 2)
    p = numpy.array([0.3, 0.8])
    mean = -p / ((1 - p) * numpy.log1p(-p))
    m2 = -p / ((1 - p) ** 2 * numpy.log1p(-p))
    _check_moments(kumo.asnumpy(gen().logseries(p, size=(N, 2))), mean, m2 - mean ** 2)
    a = numpy.array([6.5, 9.0])  # finite fourth moment, but a large kurtosis: a loose variance check
    z = stats.zipf(a)
    _check_moments(kumo.asnumpy(gen().zipf(a, size=(N, 2))), z.mean(), z.var(), var_rtol=0.35)


# ---------------------------------------------------------------- degenerate and extreme parameters
@pytest.mark.parametrize("method,args,expected", [
    ("binomial", (0, 0.5), 0), ("binomial", (7, 0.0), 0), ("binomial", (7, 1.0), 7),
    ("binomial", (2 ** 63 - 1, 1.0), 2 ** 63 - 1), ("poisson", (0.0,), 0), ("geometric", (1.0,), 1),
    ("geometric", (1e-300,), 2 ** 63 - 1), ("logseries", (0.0,), 1), ("zipf", (numpy.inf,), 1),
    ("zipf", (3000.0,), 1), ("negative_binomial", (3.0, 1.0), 0), ("hypergeometric", (0, 5, 3), 0),
    ("hypergeometric", (5, 0, 3), 3), ("hypergeometric", (5, 7, 0), 0), ("hypergeometric", (5, 7, 12), 5),
])
def test_degenerate_values(method, args, expected):
    assert numpy.all(draw(method, *args, size=100) == expected)


@pytest.mark.parametrize("method,args,mean,sd", [
    ("binomial", (2 ** 62, 0.5), 2.0 ** 61, 2.0 ** 30),
    ("binomial", (2 ** 62, 0.75), 3 * 2.0 ** 60, (2.0 ** 62 * 0.75 * 0.25) ** 0.5),
    ("poisson", (1e15,), 1e15, 1e15 ** 0.5),
    ("hypergeometric", (10 ** 9 - 1, 10 ** 9 - 1, 10 ** 9), 5e8, (10 ** 9 / 8) ** 0.5),
])
def test_huge_parameters(method, args, mean, sd):
    s = draw(method, *args, size=2000).astype(numpy.float64)
    assert abs(s.mean() - mean) < 5 * sd / 2000 ** 0.5
    assert 0.8 * sd < s.std() < 1.2 * sd


# ---------------------------------------------------------------- shapes, dtypes, broadcasting vs NumPy
SHAPE_CASES = [
    ("poisson", (5.0,), None), ("poisson", (5.0,), 3), ("poisson", ([1.0, 2.0],), None),
    ("poisson", ([1.0, 2.0],), (4, 2)), ("poisson", (5.0,), (2, 0)), ("poisson", ([[1.0], [2.0]],), (2, 3)),
    ("binomial", (10, 0.5), None), ("binomial", ([10, 20], 0.5), (3, 2)), ("binomial", (10, [[0.1], [0.2]]), None),
    ("binomial", (10, 0.5), 0), ("geometric", (0.5,), (2, 3)), ("geometric", ([0.5, 0.2],), None),
    ("negative_binomial", (3.0, [0.5, 0.2]), None), ("negative_binomial", (3.0, 0.5), (2, 2)),
    ("hypergeometric", (5, [3, 4], 2), None), ("hypergeometric", ([[5], [6]], [3, 4], 2), (3, 2, 2)),
    ("logseries", (0.5,), 4), ("logseries", ([0.5, 0.1, 0.2],), None), ("zipf", (2.0,), (1, 1)),
    ("zipf", ([2.0, 3.0],), None),
    ("multinomial", (10, [0.2, 0.8]), None), ("multinomial", (10, [0.2, 0.8]), 3),
    ("multinomial", ([10, 20], [0.2, 0.8]), None), ("multinomial", (10, [[0.2, 0.8], [0.5, 0.5]]), (3, 2)),
    ("multinomial", ([[10], [20]], [[0.2, 0.8], [0.5, 0.5]]), None), ("multinomial", (10, [0.5, 0.5]), ()),
    ("multinomial", (10, [0.5, 0.5]), (0, 2)), ("multinomial", (10, [1.0]), 2),
    ("multivariate_hypergeometric", ([3, 4, 5], 6), None), ("multivariate_hypergeometric", ([3, 4, 5], 6), 2),
    ("multivariate_hypergeometric", ([3, 4, 5], 6), (2, 3)), ("multivariate_hypergeometric", ([3, 4, 5], 6), 0),
    ("multivariate_hypergeometric", ([], 0), None), ("multivariate_hypergeometric", ([7], 3), 2),
]


@pytest.mark.parametrize("method,args,size", SHAPE_CASES)
def test_shape_and_dtype_match_numpy(method, args, size):
    expected = numpy.asarray(getattr(numpy.random.default_rng(0), method)(*args, size=size))
    r = getattr(gen(), method)(*args, size=size)
    assert isinstance(r, kumo.ndarray)
    assert r.shape == expected.shape
    assert r.dtype == expected.dtype == numpy.int64


@pytest.mark.parametrize("method,args,size", [
    ("poisson", ([1.0, 2.0],), 3), ("binomial", ([10, 20], 0.5), (3,)), ("binomial", (10, [[0.5], [0.2]]), (3, 3)),
    ("hypergeometric", ([5, 6], [3, 4, 5], 2), None), ("multinomial", ([10, 20], [0.5, 0.5]), 3),
    ("multinomial", (10, [[0.5, 0.5], [0.1, 0.9]]), (3, 1)), ("geometric", ([0.5, 0.2],), (2, 3)),
])
def test_broadcast_errors(method, args, size):
    with pytest.raises(ValueError):
        getattr(numpy.random.default_rng(0), method)(*args, size=size)
    with pytest.raises(ValueError):
        getattr(gen(), method)(*args, size=size)


@pytest.mark.parametrize("kind", ["kumo", "numpy", "list", "kumo_negative_stride", "kumo_transposed", "kumo_0d"])
def test_parameter_kinds_give_same_samples(kind):
    lam = numpy.array([[0.5, 3.0, 20.0], [100.0, 7.0, 0.0]])
    if kind == "kumo":
        arg = kumo.asarray(lam)
    elif kind == "numpy":
        arg = lam
    elif kind == "list":
        arg = lam.tolist()
    elif kind == "kumo_negative_stride":
        arg = kumo.asarray(numpy.ascontiguousarray(lam[::-1, ::-1]))[::-1, ::-1]
    elif kind == "kumo_transposed":
        arg = kumo.asarray(numpy.ascontiguousarray(lam.T)).T
    else:
        lam = numpy.array(3.0)
        arg = kumo.asarray(lam)
    expected = kumo.asnumpy(gen(5).poisson(kumo.asarray(lam)))
    got = kumo.asnumpy(gen(5).poisson(arg))
    numpy.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint8, numpy.int32, numpy.uint32, numpy.int64, numpy.bool_])
def test_integer_parameter_dtypes(dtype):
    n = numpy.array([0, 1, 5, 100]).astype(dtype)
    expected = numpy.random.default_rng(0).binomial(n, 0.5)
    r = gen().binomial(kumo.asarray(n), 0.5)
    assert r.dtype == expected.dtype and r.shape == expected.shape
    assert numpy.all(kumo.asnumpy(r) <= n.astype(numpy.int64))


@pytest.mark.parametrize("n", [numpy.array([5.0]), numpy.array([5], dtype=numpy.uint64)])
def test_integer_parameter_unsafe_cast_is_type_error(n):
    with pytest.raises(TypeError):
        numpy.random.default_rng(0).binomial(n, 0.5)
    with pytest.raises(TypeError):
        gen().binomial(n, 0.5)
    with pytest.raises(TypeError):
        gen().binomial(kumo.asarray(n), 0.5)


def test_integer_parameter_float_scalar_and_list_truncate():
    assert kumo.asnumpy(gen().binomial(5.7, 1.0)) == 5
    assert kumo.asnumpy(gen().binomial([5.7, 3.0], 1.0)).tolist() == [5, 3]
    assert kumo.asnumpy(gen().hypergeometric(4.9, 3, 7.2)) == 4


def test_float32_parameters():
    r = gen().binomial(10, numpy.float32(0.5), size=5)
    assert r.dtype == numpy.int64
    r = gen().poisson(kumo.asarray(numpy.array([1.0, 2.0], dtype=numpy.float32)))
    assert r.dtype == numpy.int64 and r.shape == (2,)


def test_scalar_result_is_0d_array():
    for r in (gen().poisson(3.0), gen().binomial(10, 0.5), gen().zipf(2.0), gen().hypergeometric(3, 4, 5)):
        assert isinstance(r, kumo.ndarray) and r.shape == () and r.dtype == numpy.int64


def test_multinomial_rows_sum_to_n():
    n = numpy.array([[0], [1], [17], [10 ** 9]])
    pvals = numpy.array([[0.0, 0.25, 0.25, 0.5], [0.3, 0.3, 0.3, 0.1], [1.0, 0.0, 0.0, 0.0]])
    rows = kumo.asnumpy(gen().multinomial(n, pvals))
    assert rows.shape == (4, 3, 4)
    numpy.testing.assert_array_equal(rows.sum(axis=-1), numpy.broadcast_to(n, (4, 3)))
    assert numpy.all(rows[:, 0, 0] == 0)
    numpy.testing.assert_array_equal(rows[:, 2, 0], n[:, 0])


def test_multinomial_last_probability_is_implied():
    # As in NumPy, the last category takes whatever the others leave.
    rows = kumo.asnumpy(gen().multinomial(100, [0.2, 0.7], size=N))
    assert abs(rows[:, 0].mean() - 20) < 5 * (100 * 0.2 * 0.8 / N) ** 0.5
    numpy.testing.assert_array_equal(rows[:, 1], 100 - rows[:, 0])


def test_multinomial_kumo_pvals_non_contiguous():
    pv = numpy.array([[0.5, 0.1], [0.2, 0.3], [0.3, 0.6]])  # columns are the two rows of probabilities
    kpv = kumo.asarray(pv).T
    rows = kumo.asnumpy(gen().multinomial(50, kpv, size=(N, 2)))
    means = rows.mean(axis=0)
    numpy.testing.assert_allclose(means, 50 * pv.T, atol=0.2)


@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric_edges(method):
    g = gen()
    colors = numpy.array([3, 0, 4, 5])
    numpy.testing.assert_array_equal(kumo.asnumpy(g.multivariate_hypergeometric(colors, 12, method=method)),
                                     colors)
    numpy.testing.assert_array_equal(kumo.asnumpy(g.multivariate_hypergeometric(colors, 0, method=method)), 0)
    rows = kumo.asnumpy(g.multivariate_hypergeometric(kumo.asarray(colors), 7, size=500, method=method))
    assert numpy.all(rows.sum(axis=1) == 7) and numpy.all(rows <= colors) and numpy.all(rows[:, 1] == 0)


def test_multivariate_hypergeometric_count_huge_urn():
    # NumPy's 'count' allocates sum(colors) items; kumo's draws item by item.
    colors = [10 ** 12, 3 * 10 ** 12]
    rows = kumo.asnumpy(gen().multivariate_hypergeometric(colors, 1000, size=N, method="count"))
    assert numpy.all(rows.sum(axis=1) == 1000)
    assert fit_pvalue(rows[:, 0], stats.binom(1000, 0.25)) > P_MIN


# ---------------------------------------------------------------- argument errors vs NumPy
ERROR_CASES = [
    ("binomial", (-1, 0.5)), ("binomial", (5, -0.1)), ("binomial", (5, 1.1)), ("binomial", (5, numpy.nan)),
    ("binomial", (-1, 1.5)), ("binomial", ([5, -1], 0.5)), ("binomial", (numpy.nan, 0.5)),
    ("binomial", (2 ** 63, 0.5)),
    ("poisson", (-1.0,)), ("poisson", (numpy.nan,)), ("poisson", (1e19,)), ("poisson", (numpy.inf,)),
    ("poisson", ([1.0, 1e19],)),
    ("geometric", (0.0,)), ("geometric", (-0.1,)), ("geometric", (1.1,)), ("geometric", (numpy.nan,)),
    ("geometric", ([0.5, 0.0],)),
    ("negative_binomial", (0, 0.5)), ("negative_binomial", (-1, 0.5)), ("negative_binomial", (numpy.nan, 0.5)),
    ("negative_binomial", (1, 0.0)), ("negative_binomial", (1, 1.1)), ("negative_binomial", (1, numpy.nan)),
    ("negative_binomial", (0, 0)), ("negative_binomial", ([1.0, 0.0], 0.5)), ("negative_binomial", (1, 1e-18)),
    ("negative_binomial", (1e10, 1e-10)), ("negative_binomial", ([1.0, 1e9], 1.0753e-10)),
    ("negative_binomial", (numpy.inf, 0.5)),
    ("hypergeometric", (-1, 2, 1)), ("hypergeometric", (1, -2, 1)), ("hypergeometric", (1, 2, -1)),
    ("hypergeometric", (1, 2, 4)), ("hypergeometric", (10 ** 9, 2, 1)), ("hypergeometric", (10 ** 9, -2, 1)),
    ("hypergeometric", (1, -2, -5)), ("hypergeometric", ([5, 1], [2, 2], [3, 4])), ("hypergeometric", (-1, 5, 10)),
    ("hypergeometric", (5, -2, 1)), ("hypergeometric", ([0], [-1], [-3])), ("hypergeometric", (5, 1, [2, -1])),
    ("hypergeometric", (1, [10 ** 9], 1)), ("hypergeometric", (2 ** 63, 1, 1)),
    ("logseries", (1.0,)), ("logseries", (-0.1,)), ("logseries", (numpy.nan,)),
    ("zipf", (1.0,)), ("zipf", (0.5,)), ("zipf", (numpy.nan,)),
    ("multinomial", (10, [-0.1, 1.1])), ("multinomial", (10, [numpy.nan, 0.5])), ("multinomial", (10, 0.5)),
    ("multinomial", (10, [])), ("multinomial", (-1, [0.5, 0.5])), ("multinomial", (10, [0.6, 0.6, 0.1])),
    ("multinomial", (10, [[0.6, 0.6, 0.1], [0.1, 0.1, 0.8]])), ("multinomial", ([-1], [0.6, 0.6, 0.1])),
    ("multinomial", (10, numpy.zeros((2, 0)))),
    ("multivariate_hypergeometric", ([3, 4, 5], 13)), ("multivariate_hypergeometric", ([3, -4, 5], 6)),
    ("multivariate_hypergeometric", ([3, 4, 5], -1)), ("multivariate_hypergeometric", ([[3, 4, 5]], 6)),
    ("multivariate_hypergeometric", ([3.5, 4, 5], 6)), ("multivariate_hypergeometric", ([3, 4, 5], 6.0)),
    ("multivariate_hypergeometric", ([3, 4, 5], [6, 7])), ("multivariate_hypergeometric", ([10 ** 9, 10 ** 9], 5)),
    ("multivariate_hypergeometric", ([2 ** 62, 2 ** 62], 5)),
]


def _numpy_error(method, args, kwargs=None):
    try:
        getattr(numpy.random.default_rng(0), method)(*args, **(kwargs or {}))
    except Exception as e:  # noqa: BLE001 -- we want whatever NumPy raises
        return e
    raise AssertionError("NumPy accepted %s%r" % (method, args))


def _same_message(ours, numpys):
    # Array parameters: NumPy says "contains NaNs" where scalars say "is NaN";
    # compare up to that wording.
    cut = lambda s: s.split(" or ")[0] if (" is NaN" in s or " contains NaNs" in s or "too large" in s) else s
    return ours == numpys or cut(ours) == cut(numpys) or (
        "lam" in numpys and numpys.startswith("lam") and ours.startswith("lam"))


@pytest.mark.parametrize("method,args", ERROR_CASES)
def test_errors_match_numpy(method, args):
    expected = _numpy_error(method, args)
    with pytest.raises(type(expected)) as info:
        getattr(gen(), method)(*args)
    if any(isinstance(a, list) for a in args) and method in ("poisson", "geometric", "negative_binomial"):
        assert _same_message(str(info.value), str(expected))
    else:
        assert str(info.value) == str(expected)


def test_multivariate_hypergeometric_bad_method():
    expected = _numpy_error("multivariate_hypergeometric", ([3, 4], 2), {"method": "foo"})
    with pytest.raises(ValueError, match=str(expected).replace(".", r"\.")):
        gen().multivariate_hypergeometric([3, 4], 2, method="foo")


@pytest.mark.parametrize("method,args", [("binomial", (5, [1.1])), ("logseries", ([1.0],)), ("zipf", ([1.0],)),
                                         ("poisson", ([-1.0],)), ("binomial", (5, kumo.asarray([numpy.nan]))),
                                         ("multinomial", (10, kumo.asarray([0.6, 0.6, 0.1]))),
                                         ("multinomial", (10, kumo.asarray([[0.2, 0.3, 0.5], [0.6, 0.6, 0.1]]))),
                                         ("multinomial", (10, kumo.asarray([0.5, numpy.nan]))),
                                         ("multinomial", (10, kumo.asarray([0.5, 1.5]))),
                                         ("multinomial", (kumo.asarray([5, -1]), [0.5, 0.5])),
                                         ("hypergeometric", (kumo.asarray([5, 6]), 2, kumo.asarray([3, 9])))])
def test_array_parameter_errors(method, args):
    np_args = tuple(kumo.asnumpy(a) if isinstance(a, kumo.ndarray) else a for a in args)
    expected = _numpy_error(method, np_args)
    with pytest.raises(type(expected)) as info:
        getattr(gen(), method)(*args)
    assert _same_message(str(info.value), str(expected))


def test_bad_size_type():
    with pytest.raises(TypeError):
        gen().poisson(1.0, size=2.5)
    with pytest.raises(ValueError):
        gen().poisson(1.0, size=-1)


# ---------------------------------------------------------------- reproducibility
@pytest.mark.parametrize("method,args", [("poisson", (40.0,)), ("binomial", (100, 0.3)), ("geometric", (0.2,)),
                                         ("hypergeometric", (30, 40, 20)), ("logseries", (0.7,)),
                                         ("zipf", (2.5,)), ("negative_binomial", (3.0, 0.4)),
                                         ("multinomial", (20, [0.3, 0.3, 0.4])),
                                         ("multivariate_hypergeometric", ([5, 6, 7], 9))])
def test_same_seed_same_samples(method, args):
    a = kumo.asnumpy(getattr(gen(99), method)(*args, size=500))
    b = kumo.asnumpy(getattr(gen(99), method)(*args, size=500))
    c = kumo.asnumpy(getattr(gen(100), method)(*args, size=500))
    numpy.testing.assert_array_equal(a, b)
    assert not numpy.array_equal(a, c)


def test_successive_calls_differ():
    g = gen(3)
    a = kumo.asnumpy(g.binomial(1000, 0.5, size=200))
    b = kumo.asnumpy(g.binomial(1000, 0.5, size=200))
    assert not numpy.array_equal(a, b)


def test_scalar_and_array_parameter_same_stream():
    # Poisson uses one kernel for scalar and array lam (see _discrete's notes).
    a = kumo.asnumpy(gen(8).poisson(25.0, size=300))
    b = kumo.asnumpy(gen(8).poisson(numpy.full(300, 25.0)))
    numpy.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------- public entry points
def test_random_state_methods():
    rs = kumo.random.RandomState(11)
    a = kumo.asnumpy(rs.poisson(5.0, size=1000))
    b = kumo.asnumpy(kumo.random.RandomState(11).poisson(5.0, size=1000))
    numpy.testing.assert_array_equal(a, b)
    assert abs(a.mean() - 5.0) < 5 * (5.0 / 1000) ** 0.5
    h = kumo.asnumpy(rs.hypergeometric(10, 20, 5, size=10))
    assert h.dtype == numpy.int64 and numpy.all((0 <= h) & (h <= 5))


def test_module_level_functions():
    kumo.random.seed(21)
    a = kumo.asnumpy(kumo.random.binomial(10, 0.5, size=50))
    kumo.random.seed(21)
    b = kumo.asnumpy(kumo.random.binomial(10, 0.5, size=50))
    numpy.testing.assert_array_equal(a, b)
    assert kumo.random.zipf(3.0).shape == ()
    assert kumo.random.multinomial(5, [0.5, 0.5], size=2).shape == (2, 2)
