"""The cuDNN backend of the CUDA plugin as the pooling (and convolution)
functions of kumo.autograd.functions use it: on a CUDA device max and average
pooling run on cuDNN (forward, and backward unless double backprop records a
graph), so their values and gradients must be the host's. Without a GPU only
the host-side identities the CUDA path relies on run; the rest skips."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable, grad

needs_gpu = pytest.mark.skipif(not kumo.cuda.is_available(), reason="needs a CUDA device next to the host")

FLOATS = [numpy.float16, numpy.float32, numpy.float64]
TOL = {numpy.float16: 2e-2, numpy.float32: 1e-5, numpy.float64: 1e-12}

POOL_CASES = [  # x shape, ksize, stride, pad
    ((2, 3, 9), 3, 2, 1),
    ((2, 3, 7, 6), 3, 2, 1),
    ((1, 2, 6, 6), 2, None, 0),
    ((2, 2, 5, 7), (2, 3), (1, 2), (1, 1)),
    ((1, 2, 4, 5, 6), 2, 2, 1),
]


def rand(shape, seed=0, dtype=numpy.float64):
    return numpy.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def distinct(shape, seed=0, dtype=numpy.float64):
    """Values without ties, so every window has one maximum."""
    n = int(numpy.prod(shape))
    v = numpy.random.default_rng(seed).permutation(n).astype(numpy.float64) / n
    return v.reshape(shape).astype(dtype)


def tup(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


def outsize(size, k, s, p, cover_all=False):
    return (size + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1


def window_counts(shape, k, s, p):
    """The in-bounds elements of each average-pooling window, (*out)."""
    nd = len(shape) - 2
    k, p = tup(k, nd), tup(p, nd)
    s = k if s is None else tup(s, nd)
    counts = numpy.ones(())
    for a in range(nd):
        n = outsize(shape[2 + a], k[a], s[a], p[a])
        lo = numpy.arange(n) * s[a] - p[a]
        c = numpy.minimum(lo + k[a], shape[2 + a]) - numpy.maximum(lo, 0)
        counts = numpy.multiply.outer(counts, c)
    return counts


def on(device, x):
    with kumo.Device(device):
        return kumo.asarray(x)


def values_and_grad(f, x, gy, device):
    xv = Variable(on(device, x))
    y = f(xv)
    (gx,) = grad([y], [xv], [Variable(on(device, gy))])
    return kumo.asnumpy(y.array), kumo.asnumpy(gx.array)


# ---- host: the identities the CUDA path relies on ----


@pytest.mark.parametrize("case", POOL_CASES, ids=str)
def test_average_pooling_gradient_is_unpooling_of_scaled_gy(case):
    # Under double backprop the cuDNN average pooling returns this
    # differentiable form of its gradient; it must be the fallback's.
    shape, k, s, p = case
    nd = len(shape) - 2
    x = rand(shape)
    y = F.average_pooling_nd(kumo.asarray(x), k, s, p, 0)
    gy = rand(y.shape, 1)
    _, want = values_and_grad(lambda v: F.average_pooling_nd(v, k, s, p, 0), x, gy, "cpu")
    K = numpy.prod(tup(k, nd))
    got = F.unpooling_nd(kumo.asarray(gy / K), k, s, p, shape[2:], False)
    numpy.testing.assert_allclose(kumo.asnumpy(got.array), want, rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("case", POOL_CASES, ids=str)
def test_average_pooling_excluding_pad_gradient_is_unpooling_over_counts(case):
    shape, k, s, p = case
    x = rand(shape)
    y = F.average_pooling_nd(kumo.asarray(x), k, s, p, None)
    gy = rand(y.shape, 1)
    _, want = values_and_grad(lambda v: F.average_pooling_nd(v, k, s, p, None), x, gy, "cpu")
    got = F.unpooling_nd(kumo.asarray(gy / window_counts(shape, k, s, p)), k, s, p, shape[2:], False)
    numpy.testing.assert_allclose(kumo.asnumpy(got.array), want, rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("return_indices", [False, True])
def test_host_max_pooling_same_with_and_without_indices(return_indices):
    # The binding takes the index-free path (where a backend may run) unless
    # indexes are asked for; on the host both are the same kernels.
    x = distinct((2, 3, 7, 6))
    r = F.max_pooling_2d(kumo.asarray(x), 3, 2, 1, True, return_indices=return_indices)
    y = r[0] if return_indices else r
    want = F.max_pooling_2d(kumo.asarray(x), 3, 2, 1, True, return_indices=True)[0]
    numpy.testing.assert_array_equal(kumo.asnumpy(y.array), kumo.asnumpy(want.array))


# ---- CUDA: cuDNN against the host ----


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("cover_all", [False, True])
@pytest.mark.parametrize("case", POOL_CASES, ids=str)
def test_cuda_max_pooling_matches_host(case, cover_all, dtype):
    shape, k, s, p = case
    x = distinct(shape, dtype=dtype)
    f = lambda v: F.max_pooling_nd(v, k, s, p, cover_all)  # noqa: E731
    gy = rand(f(Variable(kumo.asarray(x))).shape, 1, dtype)
    want_y, want_gx = values_and_grad(f, x, gy, "cpu")
    got_y, got_gx = values_and_grad(f, x, gy, "cuda:0")
    assert got_y.dtype == want_y.dtype and got_gx.dtype == want_gx.dtype
    numpy.testing.assert_array_equal(got_y, want_y)
    numpy.testing.assert_allclose(got_gx, want_gx, rtol=TOL[dtype], atol=TOL[dtype])


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("pad_value", [0, None])
@pytest.mark.parametrize("case", POOL_CASES, ids=str)
def test_cuda_average_pooling_matches_host(case, pad_value, dtype):
    shape, k, s, p = case
    x = rand(shape, dtype=dtype)
    f = lambda v: F.average_pooling_nd(v, k, s, p, pad_value)  # noqa: E731
    gy = rand(f(Variable(kumo.asarray(x))).shape, 1, dtype)
    want_y, want_gx = values_and_grad(f, x, gy, "cpu")
    got_y, got_gx = values_and_grad(f, x, gy, "cuda:0")
    assert got_y.dtype == want_y.dtype and got_gx.dtype == want_gx.dtype
    numpy.testing.assert_allclose(got_y, want_y, rtol=TOL[dtype], atol=TOL[dtype])
    numpy.testing.assert_allclose(got_gx, want_gx, rtol=TOL[dtype], atol=TOL[dtype])


@needs_gpu
@pytest.mark.parametrize("pool", ["max", "avg", "avg_exclude"])
def test_cuda_pooling_double_backprop_matches_host(pool):
    # With double backprop the backward records a graph: the CUDA path then
    # takes the differentiable form, whose own gradient must be the host's.
    shape = (2, 3, 7, 6)
    x = distinct(shape)
    fs = {"max": lambda v: F.max_pooling_2d(v, 3, 2, 1, False),
          "avg": lambda v: F.average_pooling_2d(v, 3, 2, 1, 0),
          "avg_exclude": lambda v: F.average_pooling_2d(v, 3, 2, 1, None)}
    f = fs[pool]

    def run(device):
        xv = Variable(on(device, x))
        y = f(xv)
        gy = Variable(on(device, rand(y.shape, 1)))
        (gx,) = grad([y], [xv], [gy], enable_double_backprop=True)
        (ggy,) = grad([gx], [gy], [Variable(on(device, rand(shape, 2)))])
        return kumo.asnumpy(gx.array), kumo.asnumpy(ggy.array)

    for got, want in zip(run("cuda:0"), run("cpu")):
        numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@needs_gpu
def test_cuda_max_pooling_noncontiguous_input():
    x = distinct((6, 2, 5, 3))
    with kumo.Device("cuda:0"):
        kx = kumo.asarray(x).transpose(3, 1, 0, 2)[:, :, ::-1]
    y = F.max_pooling_2d(kx, 2, 1, 1, False)
    want = F.max_pooling_2d(kumo.asarray(x.transpose(3, 1, 0, 2)[:, :, ::-1]), 2, 1, 1, False)
    numpy.testing.assert_array_equal(kumo.asnumpy(y.array), kumo.asnumpy(want.array))


@needs_gpu
def test_cuda_max_pooling_indices_still_available():
    x = distinct((2, 3, 7, 6))
    y, idx = F.max_pooling_2d(on("cuda:0", x), 3, 2, 1, True, return_indices=True)
    want, want_idx = F.max_pooling_2d(kumo.asarray(x), 3, 2, 1, True, return_indices=True)
    numpy.testing.assert_array_equal(kumo.asnumpy(y.array), kumo.asnumpy(want.array))
    numpy.testing.assert_array_equal(kumo.asnumpy(idx), kumo.asnumpy(want_idx))


@needs_gpu
def test_cuda_max_pooling_nan_wins():
    x = distinct((1, 1, 4, 4))
    x[0, 0, 1, 1] = numpy.nan
    y = F.max_pooling_2d(on("cuda:0", x), 2)
    assert numpy.isnan(kumo.asnumpy(y.array)[0, 0, 0, 0])


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("nd,groups", [(1, 1), (2, 1), (2, 2), (3, 1)])
def test_cuda_convolution_matches_host(nd, groups, dtype):
    shape = (2, 4) + (6, 5, 4)[:nd]
    x = rand(shape, 0, dtype)
    W = rand((6, 4 // groups) + (3,) * nd, 1, dtype)
    b = rand((6,), 2, dtype)

    def run(device):
        xv, Wv, bv = (Variable(on(device, a)) for a in (x, W, b))
        y = F.convolution_nd(xv, Wv, bv, 1, 1, groups=groups)
        gy = Variable(on(device, rand(y.shape, 3, dtype)))
        gs = grad([y], [xv, Wv, bv], [gy])
        return [kumo.asnumpy(y.array)] + [kumo.asnumpy(g.array) for g in gs]

    for got, want in zip(run("cuda:0"), run("cpu")):
        numpy.testing.assert_allclose(got, want, rtol=TOL[dtype] * 10, atol=TOL[dtype] * 10)
