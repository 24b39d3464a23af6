"""Convolution and pooling functions of kumo.autograd.functions (Chainer's
F.convolution_nd, F.deconvolution_nd, F.max_pooling_nd, ...): forward against
direct NumPy references, gradients by kumo.autograd.gradient_check
(check_backward, check_double_backward: finite differences along a random
direction, Chainer's method), in float64."""
import itertools

import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable, grad

from kumo.autograd.gradient_check import check_backward, check_double_backward


# ---------------------------------------------------------------- helpers

def gcheck(func, x_data, y_grad, **kw):
    check_backward(func, tuple(x_data), y_grad, dtype=numpy.float64, **kw)


def ggcheck(func, x_data, y_grad, x_grad_grad, **kw):
    check_double_backward(func, tuple(x_data), y_grad, x_grad_grad, dtype=numpy.float64, **kw)


def outsize(size, k, s, p, cover_all=False, d=1):
    dk = k + (k - 1) * (d - 1)
    return (size + 2 * p - dk + (s - 1 if cover_all else 0)) // s + 1


def ref_im2col(x, k, s, p, d, cover_all=False, pv=0.0):
    """(N, C, *k, *out), element by element."""
    nd = len(k)
    out = [outsize(x.shape[2 + a], k[a], s[a], p[a], cover_all, d[a]) for a in range(nd)]
    col = numpy.full(x.shape[:2] + tuple(k) + tuple(out), pv, dtype=x.dtype)
    for kp in itertools.product(*[range(e) for e in k]):
        for op in itertools.product(*[range(e) for e in out]):
            pos = [op[a] * s[a] - p[a] + kp[a] * d[a] for a in range(nd)]
            if all(0 <= pos[a] < x.shape[2 + a] for a in range(nd)):
                col[(slice(None), slice(None)) + kp + op] = x[(slice(None), slice(None)) + tuple(pos)]
    return col


def ref_conv(x, W, b, s, p, d, cover_all=False, groups=1):
    nd = x.ndim - 2
    col = ref_im2col(x, W.shape[2:], s, p, d, cover_all)
    N, C = x.shape[:2]
    G, Co = groups, W.shape[0]
    out = col.shape[2 + nd:]
    colg = col.reshape((N, G, C // G * int(numpy.prod(W.shape[2:])), -1))
    Wg = W.reshape((G, Co // G, -1))
    y = numpy.einsum("gok,ngkl->ngol", Wg, colg).reshape((N, Co) + out)
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * nd)
    return y


def ref_deconv(x, W, b, s, p, d, out, groups=1):
    """Scatter of every input element through the kernel."""
    nd = x.ndim - 2
    N, C = x.shape[:2]
    G, Cog = groups, W.shape[1]
    y = numpy.zeros((N, Cog * G) + tuple(out))
    for g in range(G):
        xg = x[:, g * (C // G):(g + 1) * (C // G)]
        Wg = W[g * (C // G):(g + 1) * (C // G)]
        for ip in itertools.product(*[range(e) for e in x.shape[2:]]):
            for kp in itertools.product(*[range(e) for e in W.shape[2:]]):
                pos = [ip[a] * s[a] - p[a] + kp[a] * d[a] for a in range(nd)]
                if all(0 <= pos[a] < out[a] for a in range(nd)):
                    v = numpy.einsum("nc,co->no", xg[(slice(None), slice(None)) + ip],
                                     Wg[(slice(None), slice(None)) + kp])
                    y[(slice(None), slice(g * Cog, (g + 1) * Cog)) + tuple(pos)] += v
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * nd)
    return y


def rand(shape, seed=0, dtype=numpy.float64):
    return numpy.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def distinct(shape, seed=0):
    """Values far enough apart that finite differences keep every argmax."""
    n = int(numpy.prod(shape))
    v = numpy.random.default_rng(seed).permutation(n).astype(numpy.float64) / n
    return v.reshape(shape)


def kval(v):
    return kumo.asnumpy(v.array)


def tup(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


# ---------------------------------------------------------------- im2col

IM2COL_CASES = [  # x shape, ksize, stride, pad, cover_all, dilate
    ((2, 3, 5, 6), 3, 1, 0, False, 1),
    ((2, 3, 5, 6), (2, 3), (2, 1), (1, 0), False, 1),
    ((1, 2, 7, 7), 3, 2, 1, True, 1),
    ((2, 1, 8, 9), 2, 3, 1, True, 1),
    ((1, 2, 9, 8), 3, 1, 2, False, 2),
    ((2, 2, 6), 3, 2, 1, False, 1),
    ((1, 2, 4, 3, 5), 2, 1, 1, False, 1),
]


@pytest.mark.parametrize("case", IM2COL_CASES, ids=str)
def test_im2col_forward(case):
    shape, k, s, p, cover_all, d = case
    nd = len(shape) - 2
    x = rand(shape)
    y = F.im2col(kumo.asarray(x), k, s, p, cover_all, d)
    want = ref_im2col(x, tup(k, nd), tup(s, nd), tup(p, nd), tup(d, nd), cover_all)
    numpy.testing.assert_array_equal(kval(y), want.reshape((shape[0], -1) + want.shape[2 + nd:]))


@pytest.mark.parametrize("case", IM2COL_CASES, ids=str)
def test_im2col_backward(case):
    shape, k, s, p, cover_all, d = case
    x = rand(shape)
    y = F.im2col(kumo.asarray(x), k, s, p, cover_all, d)
    f = lambda v: F.im2col(v, k, s, p, cover_all, d)  # noqa: E731
    gcheck(f, (x,), rand(y.shape, 1))
    ggcheck(f, (x,), rand(y.shape, 1), rand(shape, 2))


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_im2col_dtypes(dtype):
    x = rand((2, 3, 5, 5), dtype=dtype)
    y = F.im2col(kumo.asarray(x), 3, 1, 1)
    assert kval(y).dtype == dtype
    numpy.testing.assert_array_equal(kval(y), ref_im2col(x, (3, 3), (1, 1), (1, 1), (1, 1)).reshape(2, 27, 5, 5))


def test_im2col_noncontiguous():
    x = rand((3, 2, 6, 5)).transpose(1, 0, 3, 2)[:, :, ::-1]
    y = F.im2col(kumo.asarray(x)[:, :, :, :], 2, 1, 0)
    numpy.testing.assert_array_equal(kval(y), ref_im2col(x, (2, 2), (1, 1), (0, 0), (1, 1)).reshape(2, 12, 4, 5))


def test_im2col_errors():
    with pytest.raises(ValueError):
        F.im2col(kumo.zeros((2, 3)), 2)
    with pytest.raises(ValueError):
        F.im2col(kumo.zeros((1, 1, 2, 2)), 3)  # no window fits
    with pytest.raises(ValueError):
        F.im2col(kumo.zeros((1, 1, 4, 4)), (2, 2, 2))
    with pytest.raises(ValueError):
        F.im2col(kumo.zeros((1, 1, 4, 4)), 2, stride=0)


# ---------------------------------------------------------------- convolution

CONV_CASES = [  # x shape, W shape, stride, pad, cover_all, dilate, groups
    ((2, 3, 5, 5), (4, 3, 3, 3), 1, 1, False, 1, 1),
    ((1, 2, 6, 7), (3, 2, 2, 3), (2, 1), (0, 1), False, 1, 1),
    ((2, 2, 7, 6), (2, 2, 3, 2), 2, 1, True, 1, 1),
    ((1, 2, 7, 7), (2, 2, 2, 2), 1, 1, False, 2, 1),
    ((2, 4, 5, 5), (6, 2, 3, 3), 1, 1, False, 1, 2),
    ((2, 3, 8), (4, 3, 3), 2, 1, False, 1, 1),
    ((1, 2, 4, 3, 5), (3, 2, 2, 2, 2), 1, (1, 0, 1), False, 1, 1),
    ((2, 4, 3, 5), (6, 2, 1, 1), 1, 0, False, 1, 2),
    ((2, 3, 4, 5), (5, 3, 1, 1), 1, 0, False, 1, 1),
]


@pytest.mark.parametrize("with_bias", [True, False])
@pytest.mark.parametrize("case", CONV_CASES, ids=str)
def test_convolution_nd_forward(case, with_bias):
    xs, ws, s, p, cover_all, d, g = case
    nd = len(xs) - 2
    x, W = rand(xs), rand(ws, 1)
    b = rand((ws[0],), 2) if with_bias else None
    y = F.convolution_nd(kumo.asarray(x), kumo.asarray(W), None if b is None else kumo.asarray(b), s, p, cover_all,
                         d, g)
    want = ref_conv(x, W, b, tup(s, nd), tup(p, nd), tup(d, nd), cover_all, g)
    numpy.testing.assert_allclose(kval(y), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CONV_CASES, ids=str)
def test_convolution_nd_backward(case):
    xs, ws, s, p, cover_all, d, g = case
    x, W, b = rand(xs), rand(ws, 1), rand((ws[0],), 2)
    f = lambda x, W, b: F.convolution_nd(x, W, b, s, p, cover_all, d, g)  # noqa: E731
    y = f(kumo.asarray(x), kumo.asarray(W), kumo.asarray(b))
    gcheck(f, (x, W, b), rand(y.shape, 3))


@pytest.mark.parametrize("case", CONV_CASES[:3] + CONV_CASES[4:6], ids=str)
def test_convolution_nd_double_backward(case):
    xs, ws, s, p, cover_all, d, g = case
    x, W, b = rand(xs), rand(ws, 1), rand((ws[0],), 2)
    f = lambda x, W, b: F.convolution_nd(x, W, b, s, p, cover_all, d, g)  # noqa: E731
    y = f(kumo.asarray(x), kumo.asarray(W), kumo.asarray(b))
    ggcheck(f, (x, W, b), rand(y.shape, 3), (rand(xs, 4), rand(ws, 5), rand((ws[0],), 6)))


@pytest.mark.parametrize("name,nd", [("convolution_1d", 1), ("convolution_2d", 2), ("convolution_3d", 3)])
def test_convolution_fixed_rank(name, nd):
    x, W = rand((2, 2) + (5,) * nd), rand((3, 2) + (3,) * nd, 1)
    y = getattr(F, name)(kumo.asarray(x), kumo.asarray(W), pad=1)
    numpy.testing.assert_allclose(kval(y), ref_conv(x, W, None, (1,) * nd, (1,) * nd, (1,) * nd), rtol=1e-12,
                                  atol=1e-12)
    with pytest.raises(ValueError):
        getattr(F, name)(kumo.zeros((1, 1) + (4,) * (nd % 3 + 1)), kumo.zeros((1, 1) + (2,) * (nd % 3 + 1)))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float16])
def test_convolution_2d_low_precision(dtype):
    x, W, b = rand((2, 3, 6, 6), dtype=dtype), rand((4, 3, 3, 3), 1, dtype), rand((4,), 2, dtype)
    y = F.convolution_2d(kumo.asarray(x), kumo.asarray(W), kumo.asarray(b), pad=1)
    assert kval(y).dtype == dtype
    want = ref_conv(x.astype(numpy.float64), W.astype(numpy.float64), b.astype(numpy.float64), (1, 1), (1, 1),
                    (1, 1))
    tol = 1e-5 if dtype == numpy.float32 else 2e-2
    numpy.testing.assert_allclose(kval(y).astype(numpy.float64), want, rtol=tol, atol=tol)


def test_convolution_2d_float32_gradients_keep_dtype():
    x = Variable(kumo.asarray(rand((2, 3, 5, 5), dtype=numpy.float32)))
    W = Variable(kumo.asarray(rand((4, 3, 3, 3), 1, numpy.float32)))
    F.sum(F.convolution_2d(x, W, pad=1)).backward()
    assert x.grad.dtype == kumo.float32 and W.grad.dtype == kumo.float32


def test_convolution_2d_batch_one_and_noncontiguous():
    x = rand((3, 1, 7, 6)).transpose(1, 0, 3, 2)  # (1, 3, 6, 7), not contiguous
    W = rand((3, 4, 2, 2), 1).transpose(1, 0, 3, 2)[:, :, ::-1]
    y = F.convolution_2d(kumo.asarray(rand((3, 1, 7, 6))).transpose(1, 0, 3, 2),
                         kumo.asarray(rand((3, 4, 2, 2), 1)).transpose(1, 0, 3, 2)[:, :, ::-1], stride=2)
    numpy.testing.assert_allclose(kval(y), ref_conv(x, W, None, (2, 2), (0, 0), (1, 1)), rtol=1e-12, atol=1e-12)


def test_convolution_2d_matches_backward_formulas():
    """dL/dx is the deconvolution of gy by W; dL/dW correlates gy with x."""
    x, W, gy = rand((2, 3, 6, 6)), rand((4, 3, 3, 3), 1), rand((2, 4, 3, 3), 2)
    xv, Wv = Variable(kumo.asarray(x)), Variable(kumo.asarray(W))
    gx, gW = grad([F.convolution_2d(xv, Wv, stride=2, pad=1)], [xv, Wv], [Variable(kumo.asarray(gy))])
    numpy.testing.assert_allclose(kval(gx), ref_deconv(gy, W, None, (2, 2), (1, 1), (1, 1), (6, 6)), rtol=1e-12,
                                  atol=1e-12)
    col = ref_im2col(x, (3, 3), (2, 2), (1, 1), (1, 1))
    numpy.testing.assert_allclose(kval(gW), numpy.einsum("nohw,ncijhw->ocij", gy, col), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("bad", ["int_x", "complex_W", "channels", "groups", "bias", "rank", "too_small"])
def test_convolution_errors(bad):
    x, W = kumo.zeros((1, 4, 5, 5)), kumo.zeros((2, 4, 3, 3))
    with pytest.raises(TypeError if bad in ("int_x", "complex_W") else ValueError):
        if bad == "int_x":
            F.convolution_2d(kumo.zeros((1, 4, 5, 5), dtype=kumo.int32), W)
        elif bad == "complex_W":
            F.convolution_2d(x, kumo.zeros((2, 4, 3, 3), dtype=kumo.complex128))
        elif bad == "channels":
            F.convolution_2d(x, kumo.zeros((2, 3, 3, 3)))
        elif bad == "groups":
            F.convolution_2d(x, kumo.zeros((3, 2, 3, 3)), groups=2)
        elif bad == "bias":
            F.convolution_2d(x, W, kumo.zeros((3,)))
        elif bad == "rank":
            F.convolution_2d(x, kumo.zeros((2, 4, 3)))
        else:
            F.convolution_2d(x, kumo.zeros((2, 4, 7, 7)))


# ---------------------------------------------------------------- deconvolution

def deconv_out(i, k, s, p, d=1):
    return s * (i - 1) + (k - 1) * d + 1 - 2 * p


DECONV_CASES = [  # x shape, W shape, stride, pad, outsize, dilate, groups
    ((2, 3, 4, 4), (3, 2, 3, 3), 1, 1, None, 1, 1),
    ((1, 2, 3, 4), (2, 3, 2, 3), (2, 1), (0, 1), None, 1, 1),
    ((2, 2, 3, 3), (2, 2, 3, 3), 2, 1, (6, 6), 1, 1),
    ((1, 2, 3, 3), (2, 1, 2, 2), 1, 0, None, 2, 1),
    ((2, 4, 3, 3), (4, 3, 3, 3), 2, 0, None, 1, 2),
    ((2, 3, 5), (3, 2, 3), 2, 1, None, 1, 1),
    ((1, 2, 2, 3, 2), (2, 2, 2, 2, 2), 1, 0, None, 1, 1),
]


def _deconv_ref_case(case, with_bias=True):
    xs, ws, s, p, out, d, g = case
    nd = len(xs) - 2
    s, p, d = tup(s, nd), tup(p, nd), tup(d, nd)
    if out is None:
        out = tuple(deconv_out(xs[2 + a], ws[2 + a], s[a], p[a], d[a]) for a in range(nd))
    x, W = rand(xs), rand(ws, 1)
    b = rand((ws[1] * g,), 2) if with_bias else None
    return x, W, b, ref_deconv(x, W, b, s, p, d, out, g)


@pytest.mark.parametrize("case", DECONV_CASES, ids=str)
def test_deconvolution_nd_forward(case):
    x, W, b, want = _deconv_ref_case(case)
    _, _, s, p, out, d, g = case
    y = F.deconvolution_nd(kumo.asarray(x), kumo.asarray(W), kumo.asarray(b), s, p, out, d, g)
    numpy.testing.assert_allclose(kval(y), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", DECONV_CASES, ids=str)
def test_deconvolution_nd_backward(case):
    x, W, b, want = _deconv_ref_case(case)
    _, _, s, p, out, d, g = case
    f = lambda x, W, b: F.deconvolution_nd(x, W, b, s, p, out, d, g)  # noqa: E731
    gcheck(f, (x, W, b), rand(want.shape, 3))


@pytest.mark.parametrize("case", DECONV_CASES[:3], ids=str)
def test_deconvolution_nd_double_backward(case):
    x, W, b, want = _deconv_ref_case(case)
    _, _, s, p, out, d, g = case
    f = lambda x, W, b: F.deconvolution_nd(x, W, b, s, p, out, d, g)  # noqa: E731
    ggcheck(f, (x, W, b), rand(want.shape, 3), (rand(x.shape, 4), rand(W.shape, 5), rand(b.shape, 6)))


@pytest.mark.parametrize("name,nd", [("deconvolution_1d", 1), ("deconvolution_2d", 2), ("deconvolution_3d", 3)])
def test_deconvolution_fixed_rank(name, nd):
    x, W = rand((1, 2) + (3,) * nd), rand((2, 3) + (2,) * nd, 1)
    y = getattr(F, name)(kumo.asarray(x), kumo.asarray(W), stride=2)
    numpy.testing.assert_allclose(kval(y), ref_deconv(x, W, None, (2,) * nd, (0,) * nd, (1,) * nd, (6,) * nd),
                                  rtol=1e-12, atol=1e-12)


def test_deconvolution_is_the_input_gradient_of_convolution():
    x, W, gy = rand((2, 3, 7, 7)), rand((4, 3, 3, 3), 1), rand((2, 4, 4, 4), 2)
    xv = Variable(kumo.asarray(x))
    gx, = grad([F.convolution_2d(xv, kumo.asarray(W), stride=2, pad=1, cover_all=True)], [xv],
               [Variable(kumo.asarray(gy))])
    y = F.deconvolution_2d(kumo.asarray(gy), kumo.asarray(W), stride=2, pad=1, outsize=(7, 7))
    numpy.testing.assert_allclose(kval(y), kval(gx), rtol=1e-12, atol=1e-12)


def test_deconvolution_errors():
    x, W = kumo.zeros((1, 2, 3, 3)), kumo.zeros((2, 3, 3, 3))
    with pytest.raises(ValueError):
        F.deconvolution_2d(x, kumo.zeros((3, 3, 3, 3)))  # channels
    with pytest.raises(ValueError):
        F.deconvolution_2d(x, W, stride=2, outsize=(20, 20))  # outsize that does not fit
    with pytest.raises(TypeError):
        F.deconvolution_2d(kumo.zeros((1, 2, 3, 3), dtype=kumo.int64), W)


# ---------------------------------------------------------------- depthwise

def ref_depthwise(x, W, b, s, p):
    M, C = W.shape[:2]
    Wg = W.transpose(1, 0, 2, 3).reshape(C * M, 1, *W.shape[2:])
    return ref_conv(x, Wg, b, s, p, (1, 1), False, C)


@pytest.mark.parametrize("s,p", [(1, 0), (2, 1), ((1, 2), (1, 0))])
def test_depthwise_convolution_2d_forward(s, p):
    x, W, b = rand((2, 3, 6, 5)), rand((2, 3, 3, 2), 1), rand((6,), 2)
    y = F.depthwise_convolution_2d(kumo.asarray(x), kumo.asarray(W), kumo.asarray(b), s, p)
    # Channel c * M + m is channel c convolved with W[m, c], as Chainer orders them.
    want = numpy.zeros(kval(y).shape)
    for c in range(3):
        for m in range(2):
            want[:, c * 2 + m] = ref_conv(x[:, c:c + 1], W[m:m + 1, c:c + 1], None, tup(s, 2), tup(p, 2),
                                          (1, 1))[:, 0] + b[c * 2 + m]
    numpy.testing.assert_allclose(kval(y), want, rtol=1e-12, atol=1e-12)


def test_depthwise_convolution_2d_backward():
    x, W, b = rand((2, 3, 5, 5)), rand((2, 3, 2, 2), 1), rand((6,), 2)
    f = lambda x, W, b: F.depthwise_convolution_2d(x, W, b, 2, 1)  # noqa: E731
    y = f(kumo.asarray(x), kumo.asarray(W), kumo.asarray(b))
    gcheck(f, (x, W, b), rand(y.shape, 3))
    ggcheck(f, (x, W, b), rand(y.shape, 3), (rand(x.shape, 4), rand(W.shape, 5), rand(b.shape, 6)))


# ---------------------------------------------------------------- max pooling

POOL_CASES = [  # x shape, ksize, stride, pad, cover_all
    ((2, 3, 6, 6), 2, None, 0, True),
    ((2, 2, 7, 5), 3, 2, 1, True),
    ((1, 2, 7, 5), 3, 2, 1, False),
    ((2, 2, 5, 6), (2, 3), (1, 2), (1, 0), True),
    ((2, 3, 9), 3, 2, 1, True),
    ((1, 2, 4, 5, 3), 2, None, 0, True),
]


def ref_max_pool(x, k, s, p, cover_all):
    nd = x.ndim - 2
    k, p = tup(k, nd), tup(p, nd)
    s = k if s is None else tup(s, nd)
    col = ref_im2col(x, k, s, p, (1,) * nd, cover_all, -numpy.inf)
    col = col.reshape(x.shape[:2] + (-1,) + col.shape[2 + nd:])
    return col.max(axis=2), col.argmax(axis=2)


@pytest.mark.parametrize("case", POOL_CASES, ids=str)
def test_max_pooling_nd_forward(case):
    shape, k, s, p, cover_all = case
    x = rand(shape)
    y, idx = F.max_pooling_nd(kumo.asarray(x), k, s, p, cover_all, return_indices=True)
    want, want_idx = ref_max_pool(x, k, s, p, cover_all)
    numpy.testing.assert_array_equal(kval(y), want)
    numpy.testing.assert_array_equal(kumo.asnumpy(idx), want_idx)


@pytest.mark.parametrize("case", POOL_CASES, ids=str)
def test_max_pooling_nd_backward(case):
    shape, k, s, p, cover_all = case
    x = distinct(shape)
    f = lambda x: F.max_pooling_nd(x, k, s, p, cover_all)  # noqa: E731
    y = f(kumo.asarray(x))
    gcheck(f, (x,), rand(y.shape, 1), eps=1e-4)
    ggcheck(f, (x,), rand(y.shape, 1), rand(shape, 2), eps=1e-4)


@pytest.mark.parametrize("name,nd", [("max_pooling_1d", 1), ("max_pooling_2d", 2), ("max_pooling_3d", 3)])
def test_max_pooling_fixed_rank(name, nd):
    x = rand((2, 2) + (4,) * nd)
    y = getattr(F, name)(kumo.asarray(x), 2)
    numpy.testing.assert_array_equal(kval(y), ref_max_pool(x, 2, None, 0, True)[0])
    with pytest.raises(ValueError):
        getattr(F, name)(kumo.zeros((1, 1) + (4,) * (nd % 3 + 1)), 2)


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32])
def test_max_pooling_2d_dtypes(dtype):
    x = rand((2, 3, 6, 6), dtype=dtype)
    y = F.max_pooling_2d(kumo.asarray(x), 3, 2, 1)
    assert kval(y).dtype == dtype
    numpy.testing.assert_array_equal(kval(y), ref_max_pool(x, 3, 2, 1, True)[0])


def test_max_pooling_2d_nan_wins():
    x = numpy.array([[[[1.0, numpy.nan], [3.0, 2.0]]]])
    y, idx = F.max_pooling_2d(kumo.asarray(x), 2, return_indices=True)
    assert numpy.isnan(kval(y)).all() and kumo.asnumpy(idx).item() == 1


def test_max_pooling_2d_ties_first():
    x = numpy.ones((1, 1, 2, 2))
    xv = Variable(kumo.asarray(x))
    F.sum(F.max_pooling_2d(xv, 2)).backward()
    numpy.testing.assert_array_equal(kumo.asnumpy(xv.grad), [[[[1, 0], [0, 0]]]])


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape,k,s,p", [((2, 3, 28, 30), 2, None, 0), ((2, 3, 15, 13), 2, None, 0),
                                         ((1, 2, 12, 17), 2, 2, 1), ((1, 2, 11, 10), 3, 2, 1)])
def test_max_pooling_2d_host_kernels_ties_nan_inf(dtype, shape, k, s, p):
    # Rows long enough for the host's four-at-a-time 2x2 loop, with ties,
    # NaNs and all -inf windows: the first maximum, NaN wins, position 0.
    x = numpy.floor(rand(shape) * 2).astype(dtype)
    flat = x.reshape(-1)
    flat[::37] = numpy.nan
    flat[5::11] = -numpy.inf
    x[0, 0, :4, :4] = -numpy.inf
    y, idx = F.max_pooling_2d(kumo.asarray(x), k, s, p, return_indices=True)
    want, want_idx = ref_max_pool(x, k, s, p, True)
    numpy.testing.assert_array_equal(kval(y), want)
    numpy.testing.assert_array_equal(kumo.asnumpy(idx), want_idx)
    # The gradient goes to the window position the index names.
    xv = Variable(kumo.asarray(x))
    gy = rand(want.shape, 1).astype(dtype)
    yv = F.max_pooling_2d(xv, k, s, p)
    yv.grad = kumo.asarray(gy)
    yv.backward()
    (ky, kx), (sy, sx), (py, px) = tup(k, 2), tup(s if s else k, 2), tup(p, 2)
    n, c, oy, ox = numpy.indices(want.shape)
    iy, ix = oy * sy - py + want_idx // kx, ox * sx - px + want_idx % kx
    inside = (iy >= 0) & (iy < shape[2]) & (ix >= 0) & (ix < shape[3])
    gx = numpy.zeros(shape, dtype)
    numpy.add.at(gx, (n[inside], c[inside], iy[inside], ix[inside]), gy[inside])
    numpy.testing.assert_allclose(kumo.asnumpy(xv.grad), gx, rtol=1e-6)


def test_max_pooling_2d_noncontiguous():
    x = rand((6, 2, 5, 1)).transpose(3, 1, 0, 2)[:, :, ::-1]
    y = F.max_pooling_2d(kumo.asarray(rand((6, 2, 5, 1))).transpose(3, 1, 0, 2)[:, :, ::-1], 2)
    numpy.testing.assert_array_equal(kval(y), ref_max_pool(x, 2, None, 0, True)[0])


@pytest.mark.parametrize("bad", ["int", "ksize", "stride", "rank"])
def test_max_pooling_errors(bad):
    with pytest.raises(TypeError if bad == "int" else ValueError):
        if bad == "int":
            F.max_pooling_2d(kumo.zeros((1, 1, 4, 4), dtype=kumo.int32), 2)
        elif bad == "ksize":
            F.max_pooling_2d(kumo.zeros((1, 1, 4, 4)), 0)
        elif bad == "stride":
            F.max_pooling_2d(kumo.zeros((1, 1, 4, 4)), 2, (1, 1, 1))
        else:
            F.max_pooling_nd(kumo.zeros((4, 4)), 2)


# ---------------------------------------------------------------- average pooling

def ref_avg_pool(x, k, s, p, pad_value):
    nd = x.ndim - 2
    k, p = tup(k, nd), tup(p, nd)
    s = k if s is None else tup(s, nd)
    col = ref_im2col(x, k, s, p, (1,) * nd)
    col = col.reshape(x.shape[:2] + (-1,) + col.shape[2 + nd:])
    if pad_value is not None:
        return col.mean(axis=2)
    ones = ref_im2col(numpy.ones((1, 1) + x.shape[2:]), k, s, p, (1,) * nd)
    return col.sum(axis=2) / ones.reshape((1, 1, -1) + col.shape[3:]).sum(axis=2)


AVG_CASES = [
    ((2, 3, 6, 6), 2, None, 0),
    ((2, 2, 7, 5), 3, 2, 1),
    ((2, 2, 5, 6), (2, 3), (1, 2), (1, 0)),
    ((2, 3, 9), 3, 2, 1),
    ((1, 2, 4, 5, 3), 2, 1, 1),
]


@pytest.mark.parametrize("pad_value", [0, None])
@pytest.mark.parametrize("case", AVG_CASES, ids=str)
def test_average_pooling_nd_forward(case, pad_value):
    shape, k, s, p = case
    x = rand(shape)
    y = F.average_pooling_nd(kumo.asarray(x), k, s, p, pad_value)
    numpy.testing.assert_allclose(kval(y), ref_avg_pool(x, k, s, p, pad_value), rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("pad_value", [0, None])
@pytest.mark.parametrize("case", AVG_CASES, ids=str)
def test_average_pooling_nd_backward(case, pad_value):
    shape, k, s, p = case
    f = lambda x: F.average_pooling_nd(x, k, s, p, pad_value)  # noqa: E731
    y = f(kumo.asarray(rand(shape)))
    gcheck(f, (rand(shape),), rand(y.shape, 1))
    ggcheck(f, (rand(shape),), rand(y.shape, 1), rand(shape, 2))


@pytest.mark.parametrize("name,nd", [("average_pooling_1d", 1), ("average_pooling_2d", 2),
                                     ("average_pooling_3d", 3)])
def test_average_pooling_fixed_rank(name, nd):
    x = rand((2, 2) + (4,) * nd)
    y = getattr(F, name)(kumo.asarray(x), 2, 1, 1)
    numpy.testing.assert_allclose(kval(y), ref_avg_pool(x, 2, 1, 1, 0), rtol=1e-13)


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32])
def test_average_pooling_2d_dtypes(dtype):
    x = rand((2, 3, 6, 6), dtype=dtype)
    y = F.average_pooling_2d(kumo.asarray(x), 3, 2, 1)
    assert kval(y).dtype == dtype
    tol = 1e-6 if dtype == numpy.float32 else 2e-3
    numpy.testing.assert_allclose(kval(y), ref_avg_pool(x.astype(numpy.float64), 3, 2, 1, 0), rtol=tol, atol=tol)


def test_average_pooling_errors():
    with pytest.raises(ValueError):
        F.average_pooling_2d(kumo.zeros((1, 1, 4, 4)), 2, pad_value=1)
    with pytest.raises(TypeError):
        F.average_pooling_2d(kumo.zeros((1, 1, 4, 4), dtype=kumo.int16), 2)
    with pytest.raises(ValueError):
        F.average_pooling_2d(kumo.zeros((1, 1, 1, 1)), 2)


# ---------------------------------------------------------------- unpooling, upsampling, global

def ref_unpool(x, k, s, p, out, idx=None):
    y = numpy.zeros(x.shape[:2] + tuple(out))
    for i, j in itertools.product(range(x.shape[2]), range(x.shape[3])):
        for ki, kj in itertools.product(range(k[0]), range(k[1])):
            if idx is not None:
                keep = idx[:, :, i, j] == ki * k[1] + kj
            else:
                keep = True
            a, b = i * s[0] - p[0] + ki, j * s[1] - p[1] + kj
            if 0 <= a < out[0] and 0 <= b < out[1]:
                y[:, :, a, b] += numpy.where(keep, x[:, :, i, j], 0)
    return y


UNPOOL_CASES = [  # x shape, ksize, stride, pad, outsize, cover_all
    ((2, 3, 3, 3), 2, None, 0, None, True),
    ((1, 2, 3, 4), 3, 2, 1, None, True),
    ((1, 2, 3, 4), 3, 2, 1, None, False),
    ((2, 2, 3, 2), (2, 3), (1, 2), (0, 1), (5, 6), True),
]


def _unpool_out(case):
    shape, k, s, p, out, cover_all = case
    k, p = tup(k, 2), tup(p, 2)
    s = k if s is None else tup(s, 2)
    if out is None:
        out = tuple(s[a] * (shape[2 + a] - 1) + k[a] - (s[a] - 1 if cover_all else 0) - 2 * p[a] for a in range(2))
    return k, s, p, out


@pytest.mark.parametrize("case", UNPOOL_CASES, ids=str)
def test_unpooling_2d(case):
    shape, k0, s0, p0, out0, cover_all = case
    x = rand(shape)
    y = F.unpooling_2d(kumo.asarray(x), k0, s0, p0, out0, cover_all)
    numpy.testing.assert_allclose(kval(y), ref_unpool(x, *_unpool_out(case)), rtol=1e-13)
    f = lambda x: F.unpooling_2d(x, k0, s0, p0, out0, cover_all)  # noqa: E731
    gcheck(f, (x,), rand(kval(y).shape, 1))
    ggcheck(f, (x,), rand(kval(y).shape, 1), rand(shape, 2))


@pytest.mark.parametrize("case", UNPOOL_CASES, ids=str)
def test_upsampling_2d(case):
    shape, k0, s0, p0, out0, cover_all = case
    k, s, p, out = _unpool_out(case)
    idx = numpy.random.default_rng(3).integers(0, k[0] * k[1], shape)
    x = rand(shape)
    y = F.upsampling_2d(kumo.asarray(x), kumo.asarray(idx), k0, s0, p0, out0, cover_all)
    numpy.testing.assert_allclose(kval(y), ref_unpool(x, k, s, p, out, idx), rtol=1e-13)
    f = lambda x: F.upsampling_2d(x, kumo.asarray(idx), k0, s0, p0, out0, cover_all)  # noqa: E731
    gcheck(f, (x,), rand(kval(y).shape, 1))
    ggcheck(f, (x,), rand(kval(y).shape, 1), rand(shape, 2))


def test_upsampling_2d_inverts_max_pooling_positions():
    x = distinct((2, 3, 6, 6))
    y, idx = F.max_pooling_2d(kumo.asarray(x), 2, return_indices=True)
    up = kval(F.upsampling_2d(y, idx, 2, outsize=(6, 6)))
    mask = up != 0
    numpy.testing.assert_array_equal(up[mask], x[mask])
    assert mask.sum() == y.size


def test_upsampling_2d_errors():
    with pytest.raises(ValueError):
        F.upsampling_2d(kumo.zeros((1, 1, 2, 2)), kumo.zeros((1, 1, 2, 3), dtype=kumo.int64), 2)
    with pytest.raises(TypeError):
        F.upsampling_2d(kumo.zeros((1, 1, 2, 2)), kumo.zeros((1, 1, 2, 2)), 2)


@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (1, 1, 1, 1)])
def test_global_average_pooling_2d(shape):
    x = rand(shape)
    y = F.global_average_pooling_2d(kumo.asarray(x))
    assert y.shape == shape[:2]
    numpy.testing.assert_allclose(kval(y), x.mean(axis=(2, 3)), rtol=1e-14)
    gcheck(F.global_average_pooling_2d, (x,), rand(shape[:2], 1))
    with pytest.raises(ValueError):
        F.global_average_pooling_2d(kumo.zeros((2, 3, 4)))


# ---------------------------------------------------------------- a small network

def test_small_cnn_trains_one_step():
    """conv -> relu -> max pool -> conv -> global average: every parameter gets a gradient."""
    x = Variable(kumo.asarray(rand((2, 3, 8, 8))), requires_grad=False)
    W1, b1 = Variable(kumo.asarray(rand((4, 3, 3, 3), 1))), Variable(kumo.asarray(rand((4,), 2)))
    W2 = Variable(kumo.asarray(rand((5, 4, 3, 3), 3)))
    h = F.max_pooling_2d(F.relu(F.convolution_2d(x, W1, b1, pad=1)), 2)
    loss = F.sum(F.global_average_pooling_2d(F.convolution_2d(h, W2, pad=1)))
    loss.backward()
    for p in (W1, b1, W2):
        assert p.grad is not None and p.grad.shape == p.shape


@pytest.mark.parametrize("name", ["convolution_2d", "deconvolution_2d", "max_pooling_2d", "average_pooling_2d",
                                  "unpooling_2d", "im2col"])
def test_empty_batch(name):
    x = Variable(kumo.zeros((0, 3, 5, 5)))
    if name == "convolution_2d":
        W = Variable(kumo.ones((4, 3, 3, 3)))
        y = F.convolution_2d(x, W, pad=1)
    elif name == "deconvolution_2d":
        W = Variable(kumo.ones((3, 2, 3, 3)))
        y = F.deconvolution_2d(x, W)
    else:
        W = None
        y = getattr(F, name)(x, 2)
    assert y.shape[0] == 0
    F.sum(y).backward()
    assert x.grad.shape == x.shape
    if W is not None:
        numpy.testing.assert_array_equal(kumo.asnumpy(W.grad), numpy.zeros(W.shape))
