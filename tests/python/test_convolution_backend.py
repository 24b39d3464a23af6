"""The vendor-library path of the convolutions (oneDNN for float32 host
arrays, cuDNN on CUDA) against kumo's own im2col + GEMM path, switched with
Chainer's ``using_config('use_ideep' / 'use_cudnn', 'never')``: forward, the
gradients in x, W and b, deconvolutions and second-order gradients must agree
to float32 accuracy, on every geometry (strides, padding, cover_all's
asymmetric padding, dilation, groups, 1-3 spatial axes, batch 1,
non-contiguous input)."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable, config, grad, using_config

_f = kumo._core.autograd.functions

# (x shape, W shape, stride, pad, dilate, groups, cover_all)
GEOMETRIES = [
    ((2, 16, 9, 9), (16, 16, 3, 3), 1, 1, 1, 1, False),
    ((3, 8, 10, 7), (24, 8, 3, 2), 2, 1, 1, 1, False),
    ((2, 16, 11, 11), (8, 16, 3, 3), 2, 0, 1, 1, True),
    ((2, 16, 12, 12), (16, 16, 3, 3), 1, 2, 2, 1, False),
    ((2, 32, 8, 8), (32, 16, 3, 3), 1, 1, 1, 2, False),
    ((1, 8, 6, 6), (8, 8, 1, 1), 1, 0, 1, 1, False),
    ((2, 8, 13), (16, 8, 5), 3, 2, 1, 1, True),
    ((1, 8, 5, 6, 4), (8, 8, 3, 3, 2), 1, 1, 1, 1, False),
    ((2, 3, 9, 9), (8, 3, 3, 3), 1, 1, 1, 1, False),  # few channels: kumo's own path either way
]


def ids(g):
    return "x%s-W%s-s%s-p%s-d%s-g%s%s" % (g[0], g[1], g[2], g[3], g[4], g[5], "-cover" if g[6] else "")


def data(shape, seed):
    return numpy.random.default_rng(seed).standard_normal(shape).astype(numpy.float32)


def conv_and_grads(xs, ws, stride, pad, dilate, groups, cover_all, mode, x_view=None):
    x = Variable(kumo.asarray(data(xs, 1)) if x_view is None else x_view)
    W = Variable(kumo.asarray(data(ws, 2)))
    b = Variable(kumo.asarray(data((ws[0],), 3)))
    with using_config("use_ideep", mode):
        y = F.convolution_nd(x, W, b, stride=stride, pad=pad, dilate=dilate, groups=groups, cover_all=cover_all)
        gy = kumo.asarray(data(y.shape, 4))
        gx, gW, gb = grad([y], [x, W, b], [Variable(gy)])
    return [kumo.asnumpy(v.array) for v in (y, gx, gW, gb)]


def assert_agree(got, want):
    scale = max(1.0, float(numpy.abs(want).max()))
    numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-5 * scale)


def test_host_backend_is_onednn():
    name = _f._host_dnn_backend()
    if name is None:
        pytest.skip("this build has no oneDNN (libdnnl-dev was not found)")
    assert name.startswith("oneDNN ")


def test_config_default_and_switch():
    assert config.use_ideep == "auto"
    with using_config("use_ideep", "never"):
        assert config.use_ideep == "never"
        with using_config("use_ideep", "always"):
            assert config.use_ideep == "auto"
        assert config.use_ideep == "never"
    assert config.use_ideep == "auto"


def test_config_rejects_unknown_value():
    with pytest.raises(ValueError, match="use_cudnn"):
        config.use_cudnn = "sometimes"
    with pytest.raises(ValueError):
        with using_config("use_ideep", True):
            pass


@pytest.mark.parametrize("g", GEOMETRIES, ids=ids)
def test_convolution_matches_own_path(g):
    got = conv_and_grads(*g, mode="auto")
    want = conv_and_grads(*g, mode="never")
    for a, b in zip(got, want):
        assert a.dtype == numpy.float32
        assert_agree(a, b)


@pytest.mark.parametrize("g", GEOMETRIES[:3], ids=ids)
def test_convolution_matches_float64_reference(g):
    # The float64 path is kumo's own (oneDNN has no float64 kernels), so
    # this pins both paths to the same exact answer.
    xs, ws, stride, pad, dilate, groups, cover_all = g
    y32 = conv_and_grads(*g, mode="auto")[0]
    x = kumo.asarray(data(xs, 1).astype(numpy.float64))
    W = kumo.asarray(data(ws, 2).astype(numpy.float64))
    b = kumo.asarray(data((ws[0],), 3).astype(numpy.float64))
    y64 = F.convolution_nd(x, W, b, stride=stride, pad=pad, dilate=dilate, groups=groups, cover_all=cover_all)
    assert_agree(y32, kumo.asnumpy(y64.array).astype(numpy.float32))


def test_non_contiguous_input():
    base = data((2, 9, 9, 16), 1)
    view = kumo.asarray(base).transpose(0, 3, 1, 2)  # (2, 16, 9, 9), not C-contiguous
    g = GEOMETRIES[0]
    got = conv_and_grads(*g, mode="auto", x_view=view)
    want = conv_and_grads(*g, mode="never", x_view=kumo.asarray(numpy.ascontiguousarray(base.transpose(0, 3, 1, 2))))
    for a, b in zip(got, want):
        assert_agree(a, b)


@pytest.mark.parametrize("outsize", [None, (11, 11), (12, 12)])
def test_deconvolution_matches_own_path(outsize):
    res = {}
    for mode in ("auto", "never"):
        x = Variable(kumo.asarray(data((2, 16, 6, 6), 5)))
        W = Variable(kumo.asarray(data((16, 8, 3, 3), 6)))
        b = Variable(kumo.asarray(data((8,), 7)))
        with using_config("use_ideep", mode):
            y = F.deconvolution_2d(x, W, b, stride=2, pad=1, outsize=outsize)
            gx, gW, gb = grad([y], [x, W, b], [Variable(kumo.asarray(data(y.shape, 8)))])
        res[mode] = [kumo.asnumpy(v.array) for v in (y, gx, gW, gb)]
    for a, b in zip(res["auto"], res["never"]):
        assert_agree(a, b)


def test_double_backprop_matches_own_path():
    # Second derivatives run through the data- and weight-gradient nodes,
    # which differentiate into each other.
    res = {}
    for mode in ("auto", "never"):
        x = Variable(kumo.asarray(data((2, 8, 7, 7), 1)))
        W = Variable(kumo.asarray(data((16, 8, 3, 3), 2)))
        with using_config("use_ideep", mode):
            y = F.convolution_2d(x, W, pad=1)
            gx, gW = grad([F.sum(y * y)], [x, W], enable_double_backprop=True)
            penalty = F.sum(gx * gx) + F.sum(gW * gW)
            ggx, ggW = grad([penalty], [x, W])
        res[mode] = [kumo.asnumpy(v.array) for v in (gx, gW, ggx, ggW)]
    for a, b in zip(res["auto"], res["never"]):
        assert_agree(a, b)


def test_mixed_dtypes_promote():
    x = Variable(kumo.asarray(data((2, 8, 5, 5), 1)))
    W = Variable(kumo.asarray(data((8, 8, 3, 3), 2).astype(numpy.float64)))
    y = F.convolution_2d(x, W, pad=1)
    assert y.dtype == numpy.float64
    gx, gW = grad([F.sum(y)], [x, W])
    assert gx.dtype == numpy.float32 and gW.dtype == numpy.float64


def test_empty_batch():
    x = Variable(kumo.asarray(numpy.zeros((0, 8, 5, 5), numpy.float32)))
    W = Variable(kumo.asarray(data((8, 8, 3, 3), 2)))
    y = F.convolution_2d(x, W, pad=1)
    assert y.shape == (0, 8, 5, 5)
    (gW,) = grad([F.sum(y)], [W])
    numpy.testing.assert_array_equal(kumo.asnumpy(gW.array), numpy.zeros((8, 8, 3, 3), numpy.float32))


def test_integer_input_is_rejected():
    x = Variable(kumo.asarray(numpy.ones((1, 8, 5, 5), numpy.int32)))
    W = Variable(kumo.asarray(data((8, 8, 3, 3), 2)))
    with pytest.raises(TypeError):
        F.convolution_2d(x, W)
