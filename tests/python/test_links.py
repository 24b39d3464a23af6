"""kumo.autograd.links (Chainer's chainer.links): Parameter, the Link tree
API, and each link's forward against NumPy."""
import warnings

import numpy
import pytest

import kumo
from kumo.autograd import Variable, using_config
from kumo.autograd import functions as F
from kumo.autograd import initializers
from kumo.autograd import links as L
from kumo.autograd import reporter as reporter_module
from kumo.autograd.initializers import HeNormal
from kumo.autograd.links import Chain, ChainList, Link, Parameter, Sequential


def _np(x):
    return kumo.asnumpy(x.array if hasattr(x, "array") else x)


def _rand(*shape, seed=0, dtype=numpy.float32):
    return numpy.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _close(got, expected, rtol=1e-5, atol=1e-5):
    numpy.testing.assert_allclose(_np(got), expected, rtol=rtol, atol=atol)


# ---------------------------------------------------------------- Parameter
def test_parameter_is_a_variable():
    p = Parameter(HeNormal(), (3, 4))
    assert isinstance(p, Variable) and isinstance(p, kumo.autograd.Parameter)
    assert p.shape == (3, 4) and p.dtype == numpy.float32 and p.requires_grad
    assert p.update_rule is None and p.is_initialized


def test_parameter_grad_starts_nan():
    p = Parameter(0, (3,))
    assert numpy.isnan(_np(p.grad)).all()
    p.cleargrad()
    assert p.grad is None


@pytest.mark.parametrize("init, expected", [(0, 0.0), (2.5, 2.5), (initializers.One(), 1.0)])
def test_parameter_constant(init, expected):
    numpy.testing.assert_array_equal(_np(Parameter(init, (2, 3))), numpy.full((2, 3), expected, numpy.float32))


def test_parameter_none_is_nan():
    assert numpy.isnan(_np(Parameter(None, (2,)))).all()


@pytest.mark.parametrize("make", [numpy.asarray, kumo.asarray])
def test_parameter_from_array(make):
    a = make(numpy.arange(6.0).reshape(2, 3))
    p = Parameter(a)
    assert p.shape == (2, 3) and p.dtype == numpy.float64
    numpy.testing.assert_array_equal(_np(p), numpy.arange(6.0).reshape(2, 3))


def test_parameter_lazy_initialization():
    p = Parameter(initializers.Constant(3.0))
    assert not p.is_initialized and p.array is None and p.grad is None
    p.initialize((2, 4))
    assert p.is_initialized and p.shape == (2, 4)
    numpy.testing.assert_array_equal(_np(p), numpy.full((2, 4), 3.0, numpy.float32))
    assert numpy.isnan(_np(p.grad)).all()


def test_parameter_lazy_grad_follows_cleargrad_and_zerograd():
    p = Parameter(initializers.One())
    p.cleargrad()
    p.initialize((2,))
    assert p.grad is None
    q = Parameter(initializers.One())
    q.zerograd()
    q.initialize((2,))
    numpy.testing.assert_array_equal(_np(q.grad), numpy.zeros(2, numpy.float32))


def test_parameter_lazy_dtype():
    assert Parameter(initializers.One(dtype=numpy.float64)).dtype == numpy.float64
    with pytest.raises(RuntimeError):
        Parameter(initializers.One()).dtype


def test_parameter_in_functions_gets_gradient():
    p = Parameter(initializers.Constant(2.0), (3,))
    p.cleargrad()
    F.sum(p * p).backward()
    numpy.testing.assert_array_equal(_np(p.grad), numpy.full(3, 4.0, numpy.float32))


def test_parameter_sgd_step_in_place():
    p = Parameter(initializers.Constant(1.0), (3,))
    p.cleargrad()
    F.sum(p * 3.0).backward()
    view = p.array
    p.array -= 0.5 * p.grad
    numpy.testing.assert_array_equal(_np(p), numpy.full(3, -0.5, numpy.float32))
    numpy.testing.assert_array_equal(_np(view), numpy.full(3, -0.5, numpy.float32))


def test_parameter_array_assignment_may_change_shape():
    p = Parameter(0, (3,))
    p.array = kumo.ones((2, 2), dtype=numpy.float64)
    assert p.shape == (2, 2) and p.dtype == numpy.float64


def test_parameter_update_calls_rule():
    class Rule:
        enabled = True
        calls = []

        def update(self, param):
            self.calls.append(param)

    p = Parameter(0, (2,))
    p.update()  # no rule: nothing
    p.update_rule = Rule()
    p.update()
    assert Rule.calls == [p]


def test_parameter_copydata_and_addgrad():
    p = Parameter(0, (2,))
    q = Parameter(initializers.Constant(5.0), (2,))
    p.copydata(q)
    numpy.testing.assert_array_equal(_np(p), [5.0, 5.0])
    p.cleargrad()
    q.grad = kumo.ones(2, dtype=numpy.float32)
    p.addgrad(q)
    p.addgrad(q)
    numpy.testing.assert_array_equal(_np(p.grad), [2.0, 2.0])


# ------------------------------------------------------------ the Figure 2 code
# The seed paper's Figure 2 with kumo's imports; Chainer 7 (and kumo) need
# the super().__init__() calls the figure leaves out.
from kumo.autograd import Chain as _Chain, Link as _Link, Parameter as _Parameter  # noqa: E402
from kumo.autograd.functions import relu  # noqa: E402


class Linear(_Link):
    def __init__(self, n_in, n_out):
        super().__init__()
        with self.init_scope():
            self.W = _Parameter(HeNormal(), (n_out, n_in))
            self.b = _Parameter(0, (n_out,))

    def forward(self, x):
        return x @ self.W.T + self.b


class MultiLayerPerceptron(_Chain):
    def __init__(self, n_in, n_hid, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = Linear(n_in, n_hid)
            self.l2 = Linear(n_hid, n_out)

    def forward(self, x):
        h = relu(self.l1(x))
        return self.l2(h)


def test_figure2_trains():
    kumo.random.seed(0)
    model = MultiLayerPerceptron(4, 16, 3)
    assert [name for name, _ in model.namedparams()] == ["/l1/W", "/l1/b", "/l2/W", "/l2/b"]
    x = kumo.asarray(_rand(32, 4))
    t = kumo.asarray((_rand(32, 4, seed=1).sum(axis=1) > 0).astype(numpy.int32) + 1)
    losses = []
    for _ in range(30):
        loss = F.softmax_cross_entropy(model(x), t)
        losses.append(float(_np(loss)))
        model.cleargrads()
        loss.backward()
        for p in model.params():
            p.array -= 0.1 * p.grad
    assert losses[-1] < 0.7 * losses[0]


# ---------------------------------------------------------------- Link tree API
def test_init_scope_registers_parameters_only_inside():
    link = Link()
    with link.init_scope():
        assert link.within_init_scope
        link.a = Parameter(0, (2,))
    assert not link.within_init_scope
    link.b = Parameter(0, (2,))  # outside: a plain attribute
    assert [n for n, _ in link.namedparams()] == ["/a"]
    assert link.a.name == "a"


def test_add_param_and_persistent():
    link = Link()
    link.add_param("w", (2, 3))
    link.add_param("v")
    link.add_persistent("count", 0)
    assert numpy.isnan(_np(link.w)).all() and not link.v.is_initialized
    assert sorted(link._persistent) == ["count"]
    with pytest.raises(AttributeError):
        link.add_param("w", (1,))
    with pytest.raises(AttributeError):
        link.add_persistent("count", 1)


def test_link_kwargs_params():
    link = Link(x=(2, 3), y=None, z=5, w=((2,), numpy.float64), v=(4, numpy.float16))
    assert link.x.shape == (2, 3) and link.x.dtype == numpy.float32 and not link.y.is_initialized
    assert link.z.shape == (5,) and link.w.dtype == numpy.float64 and link.v.shape == (4,)
    assert link.v.dtype == numpy.float16
    assert not hasattr(link.y, "shape")


def test_delattr_unregisters():
    link = Link(x=(2,))
    del link.x
    assert list(link.params()) == []


def _tree():
    c = Chain()
    with c.init_scope():
        c.b = L.Linear(2, 3)
        c.a = L.Linear(3, 2, nobias=True)
        c.p = Parameter(0, (1,))
    return c


def test_chain_names_and_order():
    c = _tree()
    assert [n for n, _ in c.namedparams()] == ["/p", "/a/W", "/b/W", "/b/b"]
    assert [n for n, _ in c.namedlinks()] == ["/", "/a", "/b"]
    assert [n for n, _ in c.namedlinks(skipself=True)] == ["/a", "/b"]
    assert list(c.children()) == [c.a, c.b]
    assert list(c.links()) == [c, c.a, c.b]
    assert c["a"] is c.a and c.a.name == "a"


def test_chain_add_link():
    c = Chain(x=L.Linear(2, 2))
    c.add_link("y", L.Linear(2, 2))
    assert [n for n, _ in c.namedlinks(skipself=True)] == ["/x", "/y"]
    with pytest.raises(TypeError):
        c.add_link("z", 3)
    with pytest.raises(AttributeError):
        c.add_link("x", L.Linear(2, 2))


def test_chain_register_existing_attribute_fails():
    c = Chain()
    c.foo = 1
    with pytest.raises(AttributeError):
        with c.init_scope():
            c.foo = L.Linear(2, 2)


def test_chainlist():
    cl = ChainList(L.Linear(2, 3), L.Linear(3, 4))
    cl.append(L.Linear(4, 1))
    assert len(cl) == 3 and cl[2].name == "2"
    assert [n for n, _ in cl.namedparams()] == ["/0/W", "/0/b", "/1/W", "/1/b", "/2/W", "/2/b"]
    assert [n for n, _ in cl.namedlinks()] == ["/", "/0", "/1", "/2"]
    with pytest.raises(TypeError):
        with cl.init_scope():
            cl.x = L.Linear(1, 1)


def test_sequential():
    kumo.random.seed(0)
    seq = Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
    assert len(seq) == 3 and [n for n, _ in seq.namedlinks(skipself=True)] == ["/0", "/1"]
    x = kumo.asarray(_rand(5, 3))
    expected = F.linear(F.relu(F.linear(x, seq[0].W, seq[0].b)), seq[2].W, seq[2].b)
    _close(seq(x), _np(expected))
    seq.insert(0, F.tanh)
    assert [n for n, _ in seq.namedparams()] == ["/0/W", "/0/b", "/1/W", "/1/b"]
    seq.remove(F.tanh)
    assert len(seq) == 3 and seq.count_by_layer_type("Linear") == 2
    with pytest.raises(RuntimeError):
        Sequential()(x)
    with pytest.raises(ValueError):
        seq.append(3)


def test_count_params():
    c = _tree()
    assert c.count_params() == 6 + 3 + 6 + 1
    lazy = L.Linear(3)
    with pytest.warns(UserWarning):
        assert lazy.count_params() == 3


def test_cleargrads_and_zerograds():
    c = _tree()
    c.cleargrads()
    assert all(p.grad is None for p in c.params())
    with pytest.warns(DeprecationWarning):
        c.zerograds()
    assert all((_np(p.grad) == 0).all() for p in c.params())


def test_params_include_uninit():
    c = Chain()
    with c.init_scope():
        c.l = L.Linear(None, 3)
    assert len(list(c.params())) == 2 and len(list(c.params(include_uninit=False))) == 1


def test_copyparams_and_addgrads():
    a, b = _tree(), _tree()
    a.copyparams(b)
    for (_, pa), (_, pb) in zip(a.namedparams(), b.namedparams()):
        numpy.testing.assert_array_equal(_np(pa), _np(pb))
    a.cleargrads()
    for p in b.params():
        p.grad = kumo.ones(p.shape, dtype=p.dtype)
    a.addgrads(b)
    a.addgrads(b)
    assert all((_np(p.grad) == 2).all() for p in a.params())


def test_copy_share():
    c = _tree()
    s = c.copy("share")
    assert s.name is None and s.a is not c.a and s.a.W is not c.a.W
    assert s.a.W.grad is None
    c.a.W.array[...] = 7
    assert (_np(s.a.W) == 7).all()


def test_copy_copy():
    c = _tree()
    d = c.copy("copy")
    numpy.testing.assert_array_equal(_np(d.b.W), _np(c.b.W))
    c.b.W.array[...] = 7
    assert not (_np(d.b.W) == 7).any()
    assert [n for n, _ in d.namedparams()] == [n for n, _ in c.namedparams()]


def test_copy_init():
    kumo.random.seed(0)
    c = _tree()
    d = c.copy("init")
    assert d.b.W.shape == c.b.W.shape and not numpy.array_equal(_np(d.b.W), _np(c.b.W))


def test_copy_bad_mode():
    with pytest.raises(ValueError):
        _tree().copy("deep")


@pytest.mark.parametrize("mode", ["init", "copy", "share"])
def test_repeat(mode):
    link = L.Linear(3, 3)
    seq = link.repeat(3, mode)
    assert isinstance(seq, Sequential) and len(seq) == 3
    assert [n for n, _ in seq.namedparams()][:2] == ["/0/W", "/0/b"]
    shared = numpy.array_equal(_np(seq[0].W), _np(link.W))
    assert shared == (mode != "init")
    assert len(link.repeat(0)) == 0


class _DictSerializer:
    """A stand-in for Chainer's serializers: writes into (or reads from) a
    flat dict with '/'-joined keys."""

    def __init__(self, target, path="", reading=False):
        self.target, self.path, self.reading = target, path, reading

    def __getitem__(self, key):
        return _DictSerializer(self.target, self.path + key + "/", self.reading)

    def __call__(self, key, value):
        if self.reading:
            loaded = self.target[self.path + key]
            if value is None:
                return loaded
            if isinstance(value, kumo.ndarray):
                value[...] = kumo.asarray(loaded)
                return value
            return type(value)(loaded)
        self.target[self.path + key] = kumo.asnumpy(value) if isinstance(value, kumo.ndarray) else value
        return value


def test_serialize_key_layout_and_round_trip():
    kumo.random.seed(0)
    c = Chain()
    with c.init_scope():
        c.l1 = L.Linear(2, 3)
        c.bn = L.BatchNormalization(3)
    saved = {}
    c.serialize(_DictSerializer(saved))
    assert sorted(saved) == ["bn/N", "bn/avg_mean", "bn/avg_var", "bn/beta", "bn/gamma", "l1/W", "l1/b"]
    d = Chain()
    with d.init_scope():
        d.l1 = L.Linear(None, 3)  # lazy: loading initializes it
        d.bn = L.BatchNormalization(3)
    d.serialize(_DictSerializer(saved, reading=True))
    numpy.testing.assert_array_equal(_np(d.l1.W), saved["l1/W"])


def test_to_device_cpu():
    c = _tree()
    assert c.to_device("cpu") is c and c.to_cpu() is c
    assert str(c.device) == "cpu" and str(c.a.W.array.device) == "cpu"


def test_to_gpu_without_cuda():
    if kumo.cuda.is_available():
        pytest.skip("CUDA is available here")
    with pytest.raises(Exception):
        _tree().to_gpu()


def test_update_enabled():
    class Rule:
        enabled = True

    c = _tree()
    assert not c.update_enabled
    for p in c.params():
        p.update_rule = Rule()
    assert c.update_enabled
    c.disable_update()
    assert not c.update_enabled and all(not p.update_rule.enabled for p in c.params())
    c.enable_update()
    assert all(p.update_rule.enabled for p in c.params())


def test_call_needs_init():
    class Bad(Link):
        def __init__(self):
            pass

        def forward(self, x):
            return x

    with pytest.raises(RuntimeError):
        Bad()(1)


# ---------------------------------------------------------------- the links
def test_linear():
    link = L.Linear(3, 4)
    assert link.W.shape == (4, 3) and link.b.shape == (4,) and (_np(link.b) == 0).all()
    x = _rand(5, 3)
    _close(link(kumo.asarray(x)), x @ _np(link.W).T + _np(link.b))


def test_linear_lazy_and_flattening():
    link = L.Linear(4)
    assert link.W.array is None
    x = _rand(2, 3, 2)
    y = link(kumo.asarray(x))
    assert link.W.shape == (4, 6)
    _close(y, x.reshape(2, 6) @ _np(link.W).T)


def test_linear_n_batch_axes():
    link = L.Linear(None, 5, initial_bias=1.0)
    x = _rand(2, 3, 4)
    y = link(kumo.asarray(x), n_batch_axes=2)
    assert y.shape == (2, 3, 5)
    _close(y, x @ _np(link.W).T + 1.0)


def test_linear_nobias_and_initializers():
    link = L.Linear(2, 3, nobias=True, initialW=initializers.One())
    assert link.b is None and (_np(link.W) == 1).all()
    w = numpy.arange(6.0, dtype=numpy.float32).reshape(3, 2)
    link = L.Linear(2, 3, initialW=w, initial_bias=numpy.ones(3, numpy.float32))
    _close(link(kumo.asarray(numpy.eye(2, dtype=numpy.float32))), w.T + 1)


def test_linear_from_params():
    link = L.Linear.from_params(numpy.ones((3, 2), numpy.float32), numpy.zeros(3, numpy.float32))
    assert link.W.shape == (3, 2)


def test_linear_default_initializer_scale():
    kumo.random.seed(0)
    w = _np(L.Linear(400, 300).W)
    assert abs(w.std() - numpy.sqrt(1 / 400)) < 0.03 * numpy.sqrt(1 / 400)


def _conv2d_ref(x, W, b, stride, pad, dilate=(1, 1), groups=1):
    n, c, h, w = x.shape
    oc, icg, kh, kw = W.shape
    xp = numpy.pad(x, ((0, 0), (0, 0), (pad[0], pad[0]), (pad[1], pad[1])))
    oh = (h + 2 * pad[0] - dilate[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (w + 2 * pad[1] - dilate[1] * (kw - 1) - 1) // stride[1] + 1
    y = numpy.zeros((n, oc, oh, ow))
    ocg = oc // groups
    for o in range(oc):
        g = o // ocg
        for i in range(oh):
            for j in range(ow):
                hs, ws = i * stride[0], j * stride[1]
                patch = xp[:, g * icg:(g + 1) * icg, hs:hs + dilate[0] * (kh - 1) + 1:dilate[0],
                           ws:ws + dilate[1] * (kw - 1) + 1:dilate[1]]
                y[:, o, i, j] = (patch * W[o]).sum(axis=(1, 2, 3))
    return y + (0 if b is None else b.reshape(1, -1, 1, 1))


@pytest.mark.parametrize("stride, pad, dilate, groups", [(1, 0, 1, 1), (2, 1, 1, 1), (1, 1, 2, 1), (1, 1, 1, 2)])
def test_convolution_2d(stride, pad, dilate, groups):
    link = L.Convolution2D(4, 6, 3, stride=stride, pad=pad, dilate=dilate, groups=groups, initial_bias=0.5)
    assert link.W.shape == (6, 4 // groups, 3, 3)
    x = _rand(2, 4, 7, 6)
    _close(link(kumo.asarray(x)),
           _conv2d_ref(x, _np(link.W), _np(link.b), (stride,) * 2, (pad,) * 2, (dilate,) * 2, groups), 1e-4, 1e-4)


def test_convolution_2d_lazy_two_argument_form():
    link = L.Convolution2D(5, 3)  # out_channels, ksize
    assert link.W.array is None and link.out_channels == 5
    y = link(kumo.asarray(_rand(1, 2, 6, 6)))
    assert link.W.shape == (5, 2, 3, 3) and y.shape == (1, 5, 4, 4)


def test_convolution_groups_must_divide():
    with pytest.raises(ValueError):
        L.Convolution2D(3, 4, 3, groups=2)


def test_dilated_convolution_2d():
    link = L.DilatedConvolution2D(2, 3, 3, pad=2, dilate=2)
    x = _rand(1, 2, 6, 6)
    _close(link(kumo.asarray(x)), _conv2d_ref(x, _np(link.W), _np(link.b), (1, 1), (2, 2), (2, 2)), 1e-4, 1e-4)


@pytest.mark.parametrize("cls, ndim", [(L.Convolution1D, 1), (L.Convolution3D, 3)])
def test_convolution_nd(cls, ndim):
    link = cls(2, 3, 3, pad=1, nobias=True)
    assert link.W.shape == (3, 2) + (3,) * ndim and link.b is None
    x = kumo.asarray(_rand(2, 2, *([5] * ndim)))
    y = link(x)
    assert y.shape == (2, 3) + (5,) * ndim
    _close(y, _np(F.convolution_nd(x, link.W, None, 1, 1)))


def test_convolution_nd_1d_against_numpy():
    link = L.ConvolutionND(1, 2, 3, 2)
    x = _rand(2, 2, 5)
    W, b = _np(link.W), _np(link.b)
    ref = numpy.stack([numpy.einsum("ncK,ocK->no", x[:, :, i:i + 2], W) for i in range(4)], axis=2) + b[:, None]
    _close(link(kumo.asarray(x)), ref, 1e-4, 1e-4)


def _deconv2d_ref(x, W, b, stride, pad):
    n, c, h, w = x.shape
    _, oc, kh, kw = W.shape
    full = numpy.zeros((n, oc, (h - 1) * stride + kh, (w - 1) * stride + kw))
    for i in range(h):
        for j in range(w):
            full[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw] += numpy.einsum(
                "nc,cokl->nokl", x[:, :, i, j], W)
    y = full[:, :, pad:full.shape[2] - pad, pad:full.shape[3] - pad]
    return y + b.reshape(1, -1, 1, 1)


@pytest.mark.parametrize("stride, pad", [(1, 0), (2, 1)])
def test_deconvolution_2d(stride, pad):
    link = L.Deconvolution2D(3, 2, 3, stride=stride, pad=pad, initial_bias=0.25)
    assert link.W.shape == (3, 2, 3, 3)
    x = _rand(2, 3, 4, 5)
    _close(link(kumo.asarray(x)), _deconv2d_ref(x, _np(link.W), _np(link.b), stride, pad), 1e-4, 1e-4)


@pytest.mark.parametrize("cls, ndim", [(L.Deconvolution1D, 1), (L.Deconvolution3D, 3)])
def test_deconvolution_nd(cls, ndim):
    link = cls(2, 4, 2, stride=2)
    assert link.W.shape == (2, 4) + (2,) * ndim
    x = kumo.asarray(_rand(1, 2, *([3] * ndim)))
    y = link(x)
    assert y.shape == (1, 4) + (6,) * ndim
    _close(y, _np(F.deconvolution_nd(x, link.W, link.b, 2, 0)))


def test_deconvolution_lazy():
    link = L.Deconvolution2D(4, 2)
    y = link(kumo.asarray(_rand(1, 3, 3, 3)))
    assert link.W.shape == (3, 4, 2, 2) and y.shape == (1, 4, 4, 4)


def test_depthwise_convolution_2d():
    link = L.DepthwiseConvolution2D(3, 2, 3, pad=1)
    assert link.W.shape == (2, 3, 3, 3) and link.b.shape == (6,)
    x = _rand(1, 3, 4, 4)
    W = _np(link.W)
    # Output channel c * multiplier + m convolves input channel c with W[m, c].
    w_full = numpy.zeros((6, 3, 3, 3), numpy.float32)
    for c in range(3):
        for m in range(2):
            w_full[c * 2 + m, c] = W[m, c]
    _close(link(kumo.asarray(x)), _conv2d_ref(x, w_full, _np(link.b), (1, 1), (1, 1)), 1e-4, 1e-4)


def test_depthwise_lazy():
    link = L.DepthwiseConvolution2D(None, 2, 3)
    link(kumo.asarray(_rand(1, 4, 5, 5)))
    assert link.W.shape == (2, 4, 3, 3) and link.b.shape == (8,)


def test_embed_id():
    link = L.EmbedID(5, 3, ignore_label=-1)
    ids = numpy.array([0, 4, -1, 2], numpy.int32)
    ref = _np(link.W)[numpy.where(ids < 0, 0, ids)] * (ids >= 0)[:, None]
    _close(link(kumo.asarray(ids)), ref)


def test_embed_id_default_scale():
    kumo.random.seed(0)
    assert abs(_np(L.EmbedID(300, 300).W).std() - 1.0) < 0.03


def test_bilinear():
    link = L.Bilinear(2, 3, 4)
    e1, e2 = _rand(5, 2), _rand(5, 3, seed=1)
    W, V1, V2, b = (_np(p) for p in (link.W, link.V1, link.V2, link.b))
    ref = numpy.einsum("ni,nj,ijk->nk", e1, e2, W) + e1 @ V1 + e2 @ V2 + b
    _close(link(kumo.asarray(e1), kumo.asarray(e2)), ref, 1e-4, 1e-4)
    nb = L.Bilinear(2, 3, 4, nobias=True)
    _close(nb(kumo.asarray(e1), kumo.asarray(e2)), numpy.einsum("ni,nj,ijk->nk", e1, e2, _np(nb.W)), 1e-4, 1e-4)
    with pytest.raises(ValueError):
        L.Bilinear(2, 3, 4, initial_bias=1.0)


def test_maxout():
    link = L.Maxout(3, 2, 4)
    assert link.linear.W.shape == (8, 3)
    x = _rand(5, 3)
    z = x @ _np(link.linear.W).T + _np(link.linear.b)
    _close(link(kumo.asarray(x)), z.reshape(5, 2, 4).max(axis=2))


def test_maxout_array_initializers():
    w = _rand(2, 4, 3)
    b = _rand(2, 4, seed=1)
    link = L.Maxout(3, 2, 4, initialW=w, initial_bias=b)
    numpy.testing.assert_array_equal(_np(link.linear.W), w.reshape(8, 3))
    with pytest.raises(ValueError):
        L.Maxout(3, 2, 4, initialW=w.reshape(8, 3))


def test_prelu():
    link = L.PReLU((3,), init=0.1)
    x = _rand(4, 3, 2)
    _close(link(kumo.asarray(x)), numpy.where(x >= 0, x, 0.1 * x))


def test_highway():
    link = L.Highway(3)
    x = _rand(4, 3)
    assert (_np(link.transform.b) == -1).all()
    h = numpy.maximum(x @ _np(link.plain.W).T + _np(link.plain.b), 0)
    t = 1 / (1 + numpy.exp(-(x @ _np(link.transform.W).T + _np(link.transform.b))))
    _close(link(kumo.asarray(x)), h * t + x * (1 - t))


# ---------------------------------------------------------------- normalization
def test_batch_normalization_train():
    link = L.BatchNormalization(3, decay=0.8)
    assert link.gamma.shape == (3,) and link.avg_mean.shape == (3,) and link.avg_var.dtype == numpy.float32
    x = _rand(6, 3, 2, seed=2) * 3 + 1
    y = link(kumo.asarray(x))
    mean, var = x.mean(axis=(0, 2)), x.var(axis=(0, 2))
    _close(y, (x - mean[:, None]) / numpy.sqrt(var[:, None] + 2e-5), 1e-4, 1e-4)
    m = x.size // 3
    _close(link.avg_mean, 0.2 * mean, 1e-4, 1e-5)
    _close(link.avg_var, 0.8 + 0.2 * var * m / (m - 1), 1e-4, 1e-5)


def test_batch_normalization_test_mode():
    link = L.BatchNormalization(3, initial_avg_mean=numpy.array([1.0, 2.0, 3.0], numpy.float32),
                                initial_gamma=2.0, initial_beta=0.5)
    x = _rand(4, 3)
    with using_config("train", False):
        y = link(kumo.asarray(x))
    _close(y, 2.0 * (x - [1.0, 2.0, 3.0]) / numpy.sqrt(1 + 2e-5) + 0.5, 1e-4, 1e-4)
    _close(link.avg_mean, [1.0, 2.0, 3.0])


def test_batch_normalization_finetune():
    link = L.BatchNormalization(2)
    a, b = _rand(5, 2), _rand(5, 2, seed=3)
    link(kumo.asarray(a), finetune=True)
    link(kumo.asarray(b), finetune=True)
    assert link.N == 2
    _close(link.avg_mean, (a.mean(0) + b.mean(0)) / 2, 1e-4, 1e-5)
    link.start_finetuning()
    assert link.N == 0


def test_batch_normalization_without_gamma_beta_and_lazy_axis():
    link = L.BatchNormalization(axis=(0, 2), use_gamma=False, use_beta=False)
    assert link.gamma is None and link.beta is None and link.avg_mean is None
    x = _rand(4, 3, 5)
    y = link(kumo.asarray(x))
    assert link.avg_mean.shape == (3,) and [n for n, _ in link.namedparams()] == []
    _close(y, (x - x.mean(axis=(0, 2))[:, None]) / numpy.sqrt(x.var(axis=(0, 2))[:, None] + 2e-5), 1e-4, 1e-4)


def test_batch_normalization_needs_size_or_axis():
    with pytest.raises(RuntimeError):
        L.BatchNormalization()


def test_layer_normalization():
    link = L.LayerNormalization()
    x = _rand(4, 6)
    y = link(kumo.asarray(x))
    assert link.gamma.shape == (6,)
    _close(y, (x - x.mean(1, keepdims=True)) / numpy.sqrt(x.var(1, keepdims=True) + 1e-6), 1e-4, 1e-4)


def test_group_normalization():
    link = L.GroupNormalization(2)
    x = _rand(3, 4, 5)
    y = link(kumo.asarray(x))
    assert link.gamma.shape == (4,)
    g = x.reshape(3, 2, 10)
    ref = ((g - g.mean(2, keepdims=True)) / numpy.sqrt(g.var(2, keepdims=True) + 1e-5)).reshape(3, 4, 5)
    _close(y, ref, 1e-4, 1e-4)
    with pytest.raises(ValueError):
        L.GroupNormalization(2)(kumo.ones(3, dtype=numpy.float32))


# ---------------------------------------------------------------- Classifier
def test_classifier_reports_loss_and_accuracy():
    kumo.random.seed(0)
    model = L.Classifier(L.Linear(3, 4))
    x = kumo.asarray(_rand(6, 3))
    t = kumo.asarray(numpy.array([0, 1, 2, 3, 0, 1], numpy.int32))
    rep = reporter_module.Reporter()
    rep.add_observer("main", model)
    observation = {}
    with rep.scope(observation):
        loss = model(x, t)
    _close(loss, _np(F.softmax_cross_entropy(model.y, t)))
    assert sorted(observation) == ["main/accuracy", "main/loss"]
    _close(observation["main/accuracy"], _np(F.accuracy(model.y, t)))
    assert [n for n, _ in model.namedparams()] == ["/predictor/W", "/predictor/b"]


def test_classifier_label_key():
    model = L.Classifier(lambda a, b: a + b, lossfun=lambda y, t: F.sum(y * t), label_key="t")
    model.compute_accuracy = False
    loss = model(kumo.ones(2), kumo.ones(2), t=kumo.asarray([1.0, 2.0]))
    assert float(_np(loss)) == 6.0 and model.accuracy is None
    with pytest.raises(ValueError):
        model(kumo.ones(2), kumo.ones(2))
    with pytest.raises(TypeError):
        L.Classifier(model, label_key=1.5)
    with pytest.raises(ValueError):
        L.Classifier(model, label_key=3)(kumo.ones(2))


def test_reporter_summary():
    s = reporter_module.DictSummary()
    s.add({"a": 1.0, "b": kumo.asarray(2.0)})
    s.add({"a": (3.0, 3), "skip": kumo.ones(2)})
    means = s.compute_mean()
    assert means["a"] == pytest.approx(2.5) and float(means["b"]) == 2.0 and "skip" not in means
    stats = s.make_statistics()
    assert stats["a.std"] == pytest.approx(numpy.sqrt((1 + 27) / 4 - 2.5 ** 2))


def test_report_without_reporter_is_silent_and_unknown_observer_fails():
    reporter_module.report({"x": 1.0})
    rep = reporter_module.Reporter()
    with rep:
        with pytest.raises(KeyError):
            reporter_module.report({"x": 1.0}, object())


# ---------------------------------------------------------------- RNNs
def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_ref(c, z):
    # z (B, 4H) with the gates a, i, f, o interleaved per unit.
    B, H4 = z.shape
    z = z.reshape(B, H4 // 4, 4)
    a, i, f, o = (z[:, :, k] for k in range(4))
    c_new = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c
    return c_new, _sigmoid(o) * numpy.tanh(c_new)


def test_lstm_link_steps():
    link = L.LSTM(3, 2)
    b = _np(link.upward.b)
    numpy.testing.assert_array_equal(b, numpy.tile([0, 0, 1, 0], 2))  # forget-gate bias 1
    xs = [_rand(4, 3, seed=s) for s in range(3)]
    Wu, bu, Wl = _np(link.upward.W), _np(link.upward.b), _np(link.lateral.W)
    c = numpy.zeros((4, 2))
    h = None
    for x in xs:
        z = x @ Wu.T + bu + (0 if h is None else h @ Wl.T)
        c, h = _lstm_ref(c, z)
        _close(link(kumo.asarray(x)), h, 1e-4, 1e-4)
    link.reset_state()
    assert link.h is None and link.c is None


def test_lstm_shrinking_batch_and_lazy():
    link = L.LSTM(2)
    link(kumo.asarray(_rand(3, 5)))
    assert link.upward.W.shape == (8, 5)
    y = link(kumo.asarray(_rand(2, 5, seed=1)))
    assert y.shape == (2, 2) and link.h.shape == (3, 2)
    with pytest.raises(TypeError):
        link(kumo.asarray(_rand(4, 5)))


def test_stateless_lstm():
    link = L.StatelessLSTM(3, 2)
    x = _rand(4, 3)
    c, h = link(None, None, kumo.asarray(x))
    c_ref, h_ref = _lstm_ref(numpy.zeros((4, 2)), x @ _np(link.upward.W).T + _np(link.upward.b))
    _close(c, c_ref, 1e-4, 1e-4)
    _close(h, h_ref, 1e-4, 1e-4)


def _gru_ref(link, h, x):
    lin = lambda l, v: v @ _np(l.W).T + _np(l.b)  # noqa: E731
    r = _sigmoid(lin(link.W_r, x) + lin(link.U_r, h))
    z = _sigmoid(lin(link.W_z, x) + lin(link.U_z, h))
    h_bar = numpy.tanh(lin(link.W, x) + lin(link.U, r * h))
    return z * h_bar + (1 - z) * h


def test_stateless_gru():
    link = L.StatelessGRU(3, 2)
    h, x = _rand(4, 2), _rand(4, 3, seed=1)
    _close(link(kumo.asarray(h), kumo.asarray(x)), _gru_ref(link, h, x), 1e-4, 1e-4)


def test_gru_stateful():
    link = L.GRU(3, 2)
    x1, x2 = _rand(4, 3), _rand(4, 3, seed=1)
    lin = lambda l, v: v @ _np(l.W).T + _np(l.b)  # noqa: E731
    h1 = _sigmoid(lin(link.W_z, x1)) * numpy.tanh(lin(link.W, x1))
    _close(link(kumo.asarray(x1)), h1, 1e-4, 1e-4)
    _close(link(kumo.asarray(x2)), _gru_ref(link, h1, x2), 1e-4, 1e-4)
    with pytest.raises(ValueError):
        link(kumo.asarray(x1), kumo.asarray(x2))


def test_n_step_rnn_tanh():
    link = L.NStepRNNTanh(1, 3, 2, 0.0)
    assert [n for n, _ in link.namedparams()] == ["/0/b0", "/0/b1", "/0/w0", "/0/w1"]
    xs = [_rand(2, 3), _rand(4, 3, seed=1), _rand(3, 3, seed=2)]
    hy, ys = link(None, [kumo.asarray(x) for x in xs])
    w0, w1, b0, b1 = (_np(p) for p in (link[0].w0, link[0].w1, link[0].b0, link[0].b1))
    assert hy.shape == (1, 3, 2)
    for k, x in enumerate(xs):
        h = numpy.zeros(2)
        out = []
        for t in range(len(x)):
            h = numpy.tanh(x[t] @ w0.T + b0 + h @ w1.T + b1)
            out.append(h)
        _close(ys[k], numpy.array(out), 1e-4, 1e-4)
        _close(hy[0, k], h, 1e-4, 1e-4)


def test_n_step_lstm_matches_one_step_cells():
    link = L.NStepLSTM(1, 3, 2, 0.0)
    xs = [_rand(3, 3), _rand(2, 3, seed=1)]
    hy, cy, ys = link(None, None, [kumo.asarray(x) for x in xs])
    p = link[0]
    w = [_np(getattr(p, "w%d" % j)) for j in range(8)]
    b = [_np(getattr(p, "b%d" % j)) for j in range(8)]
    for k, x in enumerate(xs):
        h, c = numpy.zeros(2), numpy.zeros(2)
        for t in range(len(x)):
            # gates i, f, a, o: ws[0..3] on x, ws[4..7] on h
            g = [x[t] @ w[j].T + b[j] + h @ w[j + 4].T + b[j + 4] for j in range(4)]
            c = _sigmoid(g[1]) * c + _sigmoid(g[0]) * numpy.tanh(g[2])
            h = _sigmoid(g[3]) * numpy.tanh(c)
        _close(ys[k][-1], h, 1e-4, 1e-4)
        _close(hy[0, k], h, 1e-4, 1e-4)
        _close(cy[0, k], c, 1e-4, 1e-4)


@pytest.mark.parametrize("cls, n_weights, direction", [(L.NStepGRU, 6, 1), (L.NStepBiLSTM, 8, 2),
                                                       (L.NStepBiGRU, 6, 2), (L.NStepRNNReLU, 2, 1),
                                                       (L.NStepBiRNNTanh, 2, 2)])
def test_n_step_shapes(cls, n_weights, direction):
    link = cls(2, 3, 4, 0.0)
    assert len(link) == 2 * direction and len(link.ws[0]) == n_weights
    assert link[direction].w0.shape == (4, 4 * direction)
    xs = [kumo.asarray(_rand(n, 3, seed=n)) for n in (2, 5, 3)]
    out = link(None, None, xs) if n_weights == 8 else link(None, xs)
    ys = out[-1]
    assert [y.shape for y in ys] == [(2, 4 * direction), (5, 4 * direction), (3, 4 * direction)]
    assert out[0].shape == (2 * direction, 3, 4)


def test_n_step_copy_keeps_weight_lists():
    link = L.NStepLSTM(1, 2, 2, 0.0)
    for mode in ("share", "copy"):
        c = link.copy(mode)
        assert c.ws[0][0] is c[0].w0


def test_rnn_backward_reaches_parameters():
    link = L.NStepLSTM(1, 2, 3, 0.0)
    link.cleargrads()
    _, _, ys = link(None, None, [kumo.asarray(_rand(3, 2))])
    F.sum(ys[0]).backward()
    assert all(p.grad is not None for p in link.params())


def test_warnings_clean():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        L.Linear(2, 3).count_params()


def test_pickle_round_trip():
    import pickle

    kumo.random.seed(0)
    c = _tree()
    c.a.W.cleargrad()
    d = pickle.loads(pickle.dumps(c))
    assert [n for n, _ in d.namedparams()] == [n for n, _ in c.namedparams()]
    numpy.testing.assert_array_equal(_np(d.b.W), _np(c.b.W))
    assert d.a.W.grad is None and numpy.isnan(_np(d.b.W.grad)).all()
    lazy = pickle.loads(pickle.dumps(L.Linear(3)))
    assert not lazy.W.is_initialized
    lazy(kumo.ones((1, 2), dtype=numpy.float32))
    assert lazy.W.shape == (3, 2)


def test_deepcopy_batch_normalization_copies_statistics():
    bn = L.BatchNormalization(3)
    d = bn.copy("copy")
    assert d.avg_mean is not bn.avg_mean
    bn.avg_mean[...] = 5
    assert (_np(d.avg_mean) == 0).all()


def test_str():
    assert str(L.Linear(2, 3)) == "Linear(in_size=2, out_size=3, nobias=False)"
    c = Chain()
    with c.init_scope():
        c.l1 = L.Linear(2, 3, nobias=True)
        c.sub = ChainList(L.Linear(3, 1))
    assert str(c) == ("Chain(\n  (l1): Linear(in_size=2, out_size=3, nobias=True),\n  (sub): ChainList(\n"
                      "    (0): Linear(in_size=3, out_size=1, nobias=False),\n  ),\n)")
    assert str(Link()) == "Link()"


LINK_CASES = [
    (lambda: L.Linear(3, 4), (2, 3)),
    (lambda: L.Linear(None, 4), (2, 3, 2)),
    (lambda: L.Convolution2D(2, 3, 3, pad=1), (2, 2, 4, 4)),
    (lambda: L.Convolution1D(2, 3, 2), (2, 2, 5)),
    (lambda: L.Deconvolution2D(2, 3, 2, stride=2), (1, 2, 3, 3)),
    (lambda: L.DepthwiseConvolution2D(2, 2, 3), (1, 2, 4, 4)),
    (lambda: L.DilatedConvolution2D(2, 2, 3, dilate=2), (1, 2, 6, 6)),
    (lambda: L.BatchNormalization(3), (4, 3)),
    (lambda: L.LayerNormalization(), (4, 5)),
    (lambda: L.GroupNormalization(2), (3, 4, 2)),
    (lambda: L.Maxout(3, 2, 2), (4, 3)),
    (lambda: L.PReLU(), (4, 3)),
    (lambda: L.Highway(3), (4, 3)),
    (lambda: L.LSTM(3, 2), (4, 3)),
    (lambda: Sequential(L.Linear(3, 3), F.tanh, L.Linear(3, 1)), (2, 3)),
]


@pytest.mark.parametrize("make, shape", LINK_CASES)
def test_backward_reaches_every_parameter(make, shape):
    link = make()
    if isinstance(link, L.LSTM):
        link(kumo.asarray(_rand(*shape, seed=1)))  # the lateral weight acts from the second step on
    link.cleargrads()
    F.sum(F.square(link(kumo.asarray(_rand(*shape))))).backward()
    for name, p in link.namedparams():
        assert p.grad is not None and p.grad.shape == p.shape, name
        assert numpy.isfinite(_np(p.grad)).all(), name


def test_linear_gradient_check():
    from kumo.autograd import gradient_check

    link = L.Linear(3, 2, initialW=initializers.Normal(1.0, dtype=numpy.float64),
                    initial_bias=initializers.Zero(dtype=numpy.float64))
    x = _rand(4, 3, dtype=numpy.float64)
    gy = _rand(4, 2, seed=1, dtype=numpy.float64)
    gradient_check.check_backward(link, kumo.asarray(x), kumo.asarray(gy), params=(link.W, link.b), atol=1e-4,
                                  rtol=1e-4)


def test_n_step_with_initial_state_in_any_order():
    link = L.NStepRNNTanh(1, 2, 3, 0.0)
    xs = [_rand(2, 2), _rand(4, 2, seed=1), _rand(1, 2, seed=2)]
    hx = _rand(1, 3, 3, seed=3)
    hy, ys = link(kumo.asarray(hx), [kumo.asarray(x) for x in xs])
    w0, w1, b0, b1 = (_np(p) for p in (link[0].w0, link[0].w1, link[0].b0, link[0].b1))
    for k, x in enumerate(xs):
        h = hx[0, k]
        for t in range(len(x)):
            h = numpy.tanh(x[t] @ w0.T + b0 + h @ w1.T + b1)
        _close(ys[k][-1], h, 1e-4, 1e-4)
        _close(hy[0, k], h, 1e-4, 1e-4)


def test_n_step_dropout_only_in_train_mode():
    link = L.NStepLSTM(2, 3, 4, 0.9)
    xs = [kumo.asarray(_rand(3, 3))]
    with using_config("train", False):
        a = _np(link(None, None, xs)[2][0])
        b = _np(link(None, None, xs)[2][0])
    numpy.testing.assert_array_equal(a, b)


def test_sequential_with_functions_copies():
    seq = Sequential(L.Linear(2, 3), F.relu, L.Linear(3, 1))
    for mode in ("share", "copy", "init"):
        c = seq.copy(mode)
        assert c[1] is F.relu and [n for n, _ in c.namedparams()] == ["/0/W", "/0/b", "/1/W", "/1/b"]
    rep = seq.repeat(2)
    assert len(rep) == 2 and len(rep[0]) == 3
    x = kumo.asarray(_rand(4, 2))
    assert rep[0](x).shape == (4, 1) and rep[0][0].W is not seq[0].W


def test_from_params():
    w = _rand(4, 3, 2, 2)
    conv = L.Convolution2D.from_params(w, numpy.zeros(4, numpy.float32), pad=1)
    assert conv.W.shape == (4, 3, 2, 2) and conv.pad == (1, 1)
    numpy.testing.assert_array_equal(_np(conv.W), w)
    grouped = L.Convolution2D.from_params(_rand(6, 1, 2, 2), groups=3, nobias=True)
    assert grouped.W.shape == (6, 1, 2, 2) and grouped.groups == 3 and grouped.b is None
    assert grouped(kumo.asarray(_rand(1, 3, 3, 3))).shape == (1, 6, 2, 2)
    nd = L.ConvolutionND.from_params(_rand(2, 3, 2, 2, 2))
    assert nd.W.shape == (2, 3, 2, 2, 2) and nd.b.shape == (2,)
    src = L.EmbedID(4, 3)
    emb = L.EmbedID.from_params(src.W)
    numpy.testing.assert_array_equal(_np(emb.W), _np(src.W))
    emb.W.array[...] = 0
    assert (_np(src.W) != 0).any()
    with pytest.raises(ValueError):
        L.Convolution2D.from_params(w, numpy.zeros(3, numpy.float32))


def test_deep_copies_of_links_holding_variables():
    lstm = L.LSTM(3, 2)
    lstm(kumo.asarray(_rand(2, 3)))
    c = lstm.copy("copy")
    numpy.testing.assert_array_equal(_np(c.h), _np(lstm.h))
    assert c.h is not lstm.h and c.h.creator is None
    model = L.Classifier(L.Linear(3, 2))
    model(kumo.asarray(_rand(4, 3)), kumo.asarray(numpy.array([0, 1, 1, 0], numpy.int32)))
    assert float(_np(model.copy("copy").loss)) == float(_np(model.loss))


def test_pickle_link_with_state():
    import pickle

    lstm = L.LSTM(3, 2)
    y = lstm(kumo.asarray(_rand(2, 3)))
    back = pickle.loads(pickle.dumps(lstm))
    numpy.testing.assert_array_equal(_np(back.h), _np(y))
    numpy.testing.assert_array_equal(_np(back(kumo.asarray(_rand(2, 3, seed=1)))),
                                     _np(lstm(kumo.asarray(_rand(2, 3, seed=1)))))


def test_device_objects_answer_chainer_questions():
    link = L.Linear(2, 3)
    for dev in (link.device, link.W.device, L.Linear(3).W.device):
        assert dev == kumo.Device("cpu") and dev.xp is kumo
    sent = link.device.send((numpy.ones(2), [numpy.zeros(1)]))
    assert isinstance(sent, tuple) and isinstance(sent[0], kumo.ndarray) and isinstance(sent[1][0], kumo.ndarray)
    with link.device:
        pass


def _f32(*shape):
    return kumo.ones(shape, dtype=numpy.float32)


@pytest.mark.parametrize("call, exc", [
    (lambda: L.Linear(3, 4)(_f32(2, 5)), ValueError),
    (lambda: L.Convolution2D(3, 4, 3)(_f32(1, 2, 5, 5)), ValueError),
    (lambda: L.Deconvolution2D(3, 4, 3)(_f32(1, 2, 5, 5)), ValueError),
    (lambda: L.EmbedID(3, 2)(kumo.asarray([0, 5])), IndexError),
    (lambda: Parameter(0).initialize((-1, 2)), ValueError),
    (lambda: L.BatchNormalization(3)(_f32(2, 4)), ValueError),
    (lambda: L.LayerNormalization(3)(_f32(2, 4)), ValueError),
    (lambda: L.GroupNormalization(3)(_f32(2, 4, 2)), ValueError),
    (lambda: L.PReLU((3,))(_f32(2, 4)), ValueError),
    (lambda: L.Maxout(3, 2, 2)(_f32(2, 4)), ValueError),
    (lambda: L.NStepLSTM(1, 3, 2, 0.0)(None, None, [_f32(2, 4)]), ValueError),
    (lambda: L.NStepLSTM(1, 3, 2, 0.0)(None, None, _f32(2, 3)), TypeError),
    (lambda: L.Linear(3, 4)(_f32(2, 3), n_batch_axes=0), ValueError),
    (lambda: ChainList(L.Linear(1, 1)).__setitem__("a", L.Linear(1, 1)), TypeError),
])
def test_bad_inputs_raise(call, exc):
    with pytest.raises(exc):
        call()
