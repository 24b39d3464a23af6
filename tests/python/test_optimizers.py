"""kumo.autograd.optimizers and optimizer_hooks against Chainer 7's update
formulas written in NumPy: several steps over parameters of several shapes
(0-d, vectors, matrices, non-contiguous gradients), float32 and float64;
convergence on a small least-squares problem; hooks; disabled and custom
update rules; serialize round trips; dynamic loss scaling with float16."""
import math

import numpy
import pytest

import kumo
from kumo import _core
from kumo.autograd import functions as F
from kumo.autograd import optimizer_hooks as H
from kumo.autograd import optimizers as O
from kumo.autograd import Variable


# -- minimal stand-ins for Chainer's Parameter and Link --------------------------------------------------------------

class Param:
    """Duck-typed parameter: array, grad, name, update_rule, update()."""

    def __init__(self, array, name=None):
        self.array = array
        self.grad = None
        self.name = name
        self.update_rule = None

    def update(self):
        if self.update_rule is not None:
            self.update_rule.update(self)


class VParam(Variable):
    """A Variable usable as a parameter (for lossfun-driven updates)."""


class Link:
    def __init__(self, **params):
        self._params = params

    def params(self, include_uninit=True):
        yield from self._params.values()

    def namedparams(self, include_uninit=True):
        for k, v in self._params.items():
            yield "/" + k, v

    def cleargrads(self):
        for p in self._params.values():
            p.grad = None

    def zerograds(self):
        for p in self._params.values():
            p.grad = kumo.zeros_like(p.array)


class DictSerializer:
    """Writes into a flat dict with '/'-joined keys (Chainer's layout)."""

    is_deserializer = False

    def __init__(self, target, path=""):
        self.target, self.path = target, path

    def __getitem__(self, key):
        return type(self)(self.target, self.path + key.strip("/") + "/")

    def __call__(self, key, value):
        self.target[self.path + key] = numpy.array(kumo.asnumpy(value)) if hasattr(value, "shape") else value
        return value


class DictDeserializer(DictSerializer):
    is_deserializer = True

    def __call__(self, key, value):
        full = self.path + key
        if full not in self.target:
            raise KeyError(full)
        v = self.target[full]
        if value is None:
            return v
        if hasattr(value, "shape"):
            kumo.copyto(value, kumo.asarray(v))
            return value
        return type(value)(v)


# -- NumPy references of Chainer 7's rules ----------------------------------------------------------------------------

DEFAULTS = {
    "SGD": dict(lr=0.01), "MomentumSGD": dict(lr=0.01, momentum=0.9), "NesterovAG": dict(lr=0.01, momentum=0.9),
    "Adam": dict(alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0, weight_decay_rate=0, amsgrad=False,
                 adabound=False, final_lr=0.1, gamma=1e-3),
    "AdaGrad": dict(lr=0.001, eps=1e-8), "AdaDelta": dict(rho=0.95, eps=1e-6),
    "RMSprop": dict(lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False),
    "RMSpropGraves": dict(lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4), "SMORMS3": dict(lr=0.001, eps=1e-16),
    "CorrectedMomentumSGD": dict(lr=0.01, momentum=0.9), "MSVAG": dict(lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0),
}


def ref_step(name, hp, p, g, s, t):
    """One update of p (NumPy, in place on copies) with state dict s at step t."""
    if name == "SGD":
        return p - hp["lr"] * g
    if name == "MomentumSGD":
        s["v"] = hp["momentum"] * s["v"] - hp["lr"] * g
        return p + s["v"]
    if name == "NesterovAG":
        mu, lr = hp["momentum"], hp["lr"]
        s["v"] = s["v"] * mu - lr * g
        return p + mu * mu * s["v"] - (1 + mu) * lr * g
    if name == "CorrectedMomentumSGD":
        s["v"] = hp["momentum"] * s["v"] - g
        return p + hp["lr"] * s["v"]
    if name == "Adam":
        s["m"] = s["m"] + (1 - hp["beta1"]) * (g - s["m"])
        s["v"] = s["v"] + (1 - hp["beta2"]) * (g * g - s["v"])
        vv = s["v"]
        if hp["amsgrad"]:
            s["vhat"] = numpy.maximum(s["vhat"], s["v"])
            vv = s["vhat"]
        alpha_t = hp["alpha"] * math.sqrt(1 - hp["beta2"] ** t) / (1 - hp["beta1"] ** t)
        step = alpha_t / (numpy.sqrt(vv) + hp["eps"])
        if hp["adabound"]:
            final_lr = hp["final_lr"]
            lower = final_lr * (1 - 1 / (hp["gamma"] * t + 1))
            upper = final_lr * (1 + 1 / (hp["gamma"] * t))
            step = numpy.clip(step, lower, upper)
        return p - hp["eta"] * (step * s["m"] + hp["weight_decay_rate"] * p)
    if name == "AdaGrad":
        s["h"] = s["h"] + g * g
        return p - hp["lr"] * g / (numpy.sqrt(s["h"]) + hp["eps"])
    if name == "AdaDelta":
        rho, eps = hp["rho"], hp["eps"]
        s["msg"] = rho * s["msg"] + (1 - rho) * g * g
        dx = numpy.sqrt((s["msdx"] + eps) / (s["msg"] + eps)) * g
        s["msdx"] = rho * s["msdx"] + (1 - rho) * dx * dx
        return p - dx
    if name == "RMSprop":
        s["ms"] = hp["alpha"] * s["ms"] + (1 - hp["alpha"]) * g * g
        denom = numpy.sqrt(s["ms"] + hp["eps"]) if hp["eps_inside_sqrt"] else numpy.sqrt(s["ms"]) + hp["eps"]
        return p - hp["lr"] * g / denom
    if name == "RMSpropGraves":
        a = hp["alpha"]
        s["n"] = a * s["n"] + (1 - a) * g * g
        s["g"] = a * s["g"] + (1 - a) * g
        s["delta"] = s["delta"] * hp["momentum"] - hp["lr"] * g / numpy.sqrt(s["n"] - s["g"] * s["g"] + hp["eps"])
        return p + s["delta"]
    if name == "SMORMS3":
        r = 1 / (s["mem"] + 1)
        s["g"] = (1 - r) * s["g"] + r * g
        s["g2"] = (1 - r) * s["g2"] + r * g * g
        x = s["g"] * s["g"] / (s["g2"] + hp["eps"])
        p = p - g * numpy.minimum(x, hp["lr"]) / (numpy.sqrt(s["g2"]) + hp["eps"])
        s["mem"] = 1 + s["mem"] * (1 - x)
        return p
    if name == "MSVAG":
        beta = hp["beta"]
        bp = beta ** t
        rho = ((1 - beta) ** 2) * (1 - bp ** 2) / (((1 - bp) ** 2) * (1 - beta ** 2))
        rho = min(rho, 0.9999)
        s["m"] = s["m"] + (1 - beta) * (g - s["m"])
        s["v"] = s["v"] + (1 - beta) * (g * g - s["v"])
        mt = s["m"] / (1 - bp)
        vt = s["v"] / (1 - bp)
        mt2 = mt ** 2
        sv = (vt - mt2) / (1 - rho)
        with numpy.errstate(invalid="ignore", divide="ignore"):
            factor = numpy.clip(mt2 / (mt2 + rho * sv), 0, 1)
        factor = numpy.where(numpy.isnan(factor), 0, factor)
        return p - hp["eta"] * (hp["lr"] * mt * factor + hp["weight_decay_rate"] * p)
    raise ValueError(name)


STATES = {"SGD": [], "MomentumSGD": ["v"], "NesterovAG": ["v"], "CorrectedMomentumSGD": ["v"], "Adam": ["m", "v"],
          "AdaGrad": ["h"], "AdaDelta": ["msg", "msdx"], "RMSprop": ["ms"], "RMSpropGraves": ["n", "g", "delta"],
          "SMORMS3": ["mem", "g", "g2"], "MSVAG": ["m", "v"]}

SHAPES = [(), (7,), (3, 4), (40000,)]

CASES = [(n, {}) for n in DEFAULTS] + [
    ("Adam", dict(amsgrad=True)), ("Adam", dict(adabound=True)), ("Adam", dict(amsgrad=True, adabound=True)),
    ("Adam", dict(weight_decay_rate=0.1, eta=0.5)), ("RMSprop", dict(eps_inside_sqrt=True)),
    ("MSVAG", dict(weight_decay_rate=0.01)), ("SGD", dict(lr=0.5)),
]


def _grads(rng, shapes, dtype, step):
    out = []
    for i, shape in enumerate(shapes):
        g = rng.standard_normal(shape).astype(dtype)
        if step == 1:
            g.flat[0:1] = 0  # a zero gradient exercises 0/0 in MSVAG's factor
        out.append(g)
    return out


def _run_against_reference(name, extra, dtype, steps=4, noncontig=False):
    rng = numpy.random.default_rng(1)
    hp = dict(DEFAULTS[name], **extra)
    if name == "Adam":
        hp["alpha"] = 0.01
    opt = getattr(O, name)(**{k: v for k, v in hp.items()})
    np_params = [rng.standard_normal(s).astype(dtype) for s in SHAPES]
    params = [Param(kumo.asarray(p.copy()), name="p%d" % i) for i, p in enumerate(np_params)]
    opt.setup(Link(**{"p%d" % i: p for i, p in enumerate(params)}))
    names = list(STATES[name]) + (["vhat"] if name == "Adam" and hp["amsgrad"] else [])
    ref_states = [{k: (numpy.ones_like(p) if (name == "SMORMS3" and k == "mem") else numpy.zeros_like(p))
                   for k in names} for p in np_params]
    for t in range(1, steps + 1):
        grads = _grads(rng, SHAPES, dtype, t)
        for p, g in zip(params, grads):
            if noncontig and g.ndim == 2:
                big = numpy.zeros((g.shape[1], g.shape[0]), dtype)
                big[...] = g.T
                p.grad = kumo.asarray(big).T  # a transposed (non-contiguous) gradient
                assert not p.grad.flags.c_contiguous
            else:
                p.grad = kumo.asarray(g)
        opt.update()
        for i, g in enumerate(grads):
            np_params[i] = ref_step(name, hp, np_params[i].astype(numpy.float64), g.astype(numpy.float64),
                                    ref_states[i], t)
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == numpy.float32 else dict(rtol=1e-10, atol=1e-12)
    if name == "MSVAG" and dtype == numpy.float32:
        # rho starts at 0.9999, so s = (vt - mt^2) / (1 - rho) amplifies float32 rounding 10^4 times.
        tol = dict(rtol=3e-3, atol=3e-3)
    for p, ref in zip(params, np_params):
        assert p.array.dtype == dtype
        numpy.testing.assert_allclose(kumo.asnumpy(p.array), ref, **tol)
    for p, ref in zip(params, ref_states):
        for k in names:
            numpy.testing.assert_allclose(kumo.asnumpy(p.update_rule.state[k]), ref[k], **tol)
    assert opt.t == steps
    assert all(p.update_rule.t == steps for p in params)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("name,extra", CASES, ids=[n + ("-" + "-".join(e) if e else "") for n, e in CASES])
def test_update_matches_formula(name, extra, dtype):
    _run_against_reference(name, extra, dtype)


@pytest.mark.parametrize("name", ["MomentumSGD", "Adam", "RMSpropGraves"])
def test_non_contiguous_grads(name):
    _run_against_reference(name, {}, numpy.float64, steps=2, noncontig=True)


# -- convergence ------------------------------------------------------------------------------------------------------

CONVERGE = {"SGD": dict(lr=0.1), "MomentumSGD": dict(lr=0.05), "NesterovAG": dict(lr=0.05), "Adam": dict(alpha=0.05),
            "AdaGrad": dict(lr=0.5), "AdaDelta": dict(), "RMSprop": dict(lr=0.01), "RMSpropGraves": dict(lr=0.01),
            "SMORMS3": dict(lr=0.05), "CorrectedMomentumSGD": dict(lr=0.05), "MSVAG": dict(lr=0.5)}


@pytest.mark.parametrize("name", sorted(CONVERGE))
def test_converges_on_least_squares(name):
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((64, 3)).astype(numpy.float32)
    w_true = numpy.array([[1.5], [-2.0], [0.5]], numpy.float32)
    y = x @ w_true + 0.3
    w = VParam(kumo.zeros((3, 1), dtype=kumo.float32))
    b = VParam(kumo.zeros((1,), dtype=kumo.float32))
    link = Link(w=w, b=b)
    opt = getattr(O, name)(**CONVERGE[name])
    opt.setup(link)
    xv, yv = Variable(kumo.asarray(x), requires_grad=False), Variable(kumo.asarray(y), requires_grad=False)

    def lossfun():
        pred = F.matmul(xv, w) + F.broadcast_to(b, (64, 1))
        return F.mean_squared_error(pred, yv)

    first = float(kumo.asnumpy(lossfun().array))
    steps = 3000 if name == "AdaDelta" else 400
    for _ in range(steps):
        opt.update(lossfun)
    last = float(kumo.asnumpy(lossfun().array))
    assert last < 0.05 * first, (first, last)


# -- optimizer API ----------------------------------------------------------------------------------------------------

def _setup(opt, *arrays):
    params = [Param(kumo.asarray(numpy.asarray(a, numpy.float64)), name="p%d" % i) for i, a in enumerate(arrays)]
    opt.setup(Link(**{"p%d" % i: p for i, p in enumerate(params)}))
    return params


def test_hyperparameter_proxy_and_rule_parent():
    opt = O.MomentumSGD(lr=0.2)
    (p,) = _setup(opt, [1.0])
    assert opt.lr == 0.2 and p.update_rule.hyperparam.lr == 0.2
    opt.lr = 0.3
    assert p.update_rule.hyperparam.lr == 0.3
    assert opt.hyperparam.get_dict() == {"lr": 0.3, "momentum": 0.9}


def test_changed_hyperparameter_is_used():
    opt = O.SGD(lr=0.1)
    (p,) = _setup(opt, [1.0])
    p.grad = kumo.asarray([1.0])
    opt.update()
    opt.lr = 0.5
    p.grad = kumo.asarray([1.0])
    opt.update()
    numpy.testing.assert_allclose(kumo.asnumpy(p.array), [0.4])


def test_per_parameter_hyperparameter_forms_own_group():
    opt = O.SGD(lr=0.1)
    a, b = _setup(opt, [1.0], [1.0])
    b.update_rule.hyperparam.lr = 0.5
    for p in (a, b):
        p.grad = kumo.asarray([1.0])
    opt.update()
    numpy.testing.assert_allclose(kumo.asnumpy(a.array), [0.9])
    numpy.testing.assert_allclose(kumo.asnumpy(b.array), [0.5])


def test_disabled_rule_is_skipped():
    opt = O.Adam()
    a, b = _setup(opt, [1.0], [1.0])
    b.update_rule.enabled = False
    for _ in range(2):
        a.grad, b.grad = kumo.asarray([1.0]), kumo.asarray([1.0])
        opt.update()
    assert kumo.asnumpy(b.array)[0] == 1.0 and b.update_rule.t == 0
    assert kumo.asnumpy(a.array)[0] < 1.0 and a.update_rule.t == 2
    b.update_rule.enabled = True
    a.grad, b.grad = kumo.asarray([1.0]), kumo.asarray([1.0])
    opt.update()
    assert b.update_rule.t == 1 and a.update_rule.t == 3
    # b's first Adam step moves it by alpha_t(1) * m/(sqrt(v)+eps) = alpha
    numpy.testing.assert_allclose(kumo.asnumpy(b.array), [1.0 - 0.001], rtol=1e-6)


def test_custom_rule_falls_back_to_its_update():
    class HalfStep(O.SGDRule):
        def update_core(self, param):
            param.array -= 0.5 * param.grad

    opt = O.SGD(lr=0.1)
    a, b = _setup(opt, [1.0], [1.0])
    b.update_rule = HalfStep(opt.hyperparam)
    a.grad, b.grad = kumo.asarray([1.0]), kumo.asarray([1.0])
    opt.update()
    numpy.testing.assert_allclose(kumo.asnumpy(a.array), [0.9])
    numpy.testing.assert_allclose(kumo.asnumpy(b.array), [0.5])
    assert b.update_rule.t == 1


def test_cleared_grad_is_reallocated_as_zeros():
    opt = O.SGD()
    (p,) = _setup(opt, [1.0, 2.0])
    opt.update()
    numpy.testing.assert_array_equal(kumo.asnumpy(p.grad), [0.0, 0.0])
    numpy.testing.assert_array_equal(kumo.asnumpy(p.array), [1.0, 2.0])


def test_t_epoch_new_epoch():
    opt = O.SGD()
    _setup(opt, [1.0])
    assert opt.t == 0 and opt.epoch == 0
    opt.update()
    opt.new_epoch()
    assert opt.t == 1 and opt.epoch == 1
    with pytest.raises(RuntimeError):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError):
        opt.new_epoch()


def test_adam_alpha_t_and_lr():
    opt = O.Adam(alpha=0.01)
    _setup(opt, [1.0])
    with pytest.raises(RuntimeError):
        opt.alpha_t
    opt.update()
    opt.update()
    want = 0.01 * math.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2)
    assert opt.alpha_t == pytest.approx(want)
    with pytest.warns(DeprecationWarning):
        assert opt.lr == pytest.approx(want)


def test_adam_variants():
    assert O.AMSGrad().amsgrad and O.AdaBound().adabound
    assert O.AMSBound().amsgrad and O.AMSBound().adabound
    assert O.AdamW(weight_decay_rate=0.1).weight_decay_rate == 0.1


def test_unknown_keyword_raises():
    with pytest.raises(TypeError):
        O.SGD(alpha=1.0)


def test_hooks_registry():
    opt = O.SGD()
    _setup(opt, [1.0])
    opt.add_hook(H.WeightDecay(0.1))
    with pytest.raises(KeyError):
        opt.add_hook(H.WeightDecay(0.1))
    opt.remove_hook("WeightDecay")
    with pytest.raises(TypeError):
        opt.add_hook(3)
    with pytest.raises(ValueError):
        opt.add_hook(H.Lasso(1.0), timing="later")


def test_add_hook_before_setup_raises():
    with pytest.raises(RuntimeError):
        O.SGD().add_hook(H.WeightDecay(0.1))


def test_setup_requires_params():
    with pytest.raises(TypeError):
        O.SGD().setup(object())


# -- hooks against NumPy ----------------------------------------------------------------------------------------------

P0 = numpy.array([1.0, -2.0, 0.0, 3.0])
G0 = numpy.array([0.5, 4.0, -6.0, 0.25])


def _one_step_with_hook(hook):
    opt = O.SGD(lr=1.0)
    (p,) = _setup(opt, P0)
    opt.add_hook(hook)
    p.grad = kumo.asarray(G0.copy())
    opt.update()
    return P0 - kumo.asnumpy(p.array)  # the gradient the rule used


@pytest.mark.parametrize("hook,want", [
    (H.WeightDecay(0.1), G0 + 0.1 * P0),
    (H.Lasso(0.1), G0 + 0.1 * numpy.sign(P0)),
    (H.GradientHardClipping(-1.0, 2.0), numpy.clip(G0, -1.0, 2.0)),
    (H.GradientClipping(1.0), G0 / numpy.linalg.norm(G0)),
    (H.GradientClipping(100.0), G0),
    (H.GradientLARS(threshold=1e-2, weight_decay=0.01),
     (G0 + 0.01 * P0) * numpy.linalg.norm(P0) / (1e-9 + numpy.linalg.norm(G0) + 0.01 * numpy.linalg.norm(P0))),
], ids=["weight_decay", "lasso", "hard_clipping", "clipping", "clipping_inactive", "lars"])
def test_hook_matches_formula(hook, want):
    numpy.testing.assert_allclose(_one_step_with_hook(hook), want, rtol=1e-12, atol=1e-12)


def test_gradient_clipping_uses_global_norm_over_params():
    opt = O.SGD(lr=1.0)
    a, b = _setup(opt, [0.0, 0.0], [0.0])
    opt.add_hook(H.GradientClipping(1.0))
    a.grad, b.grad = kumo.asarray([3.0, 0.0]), kumo.asarray([4.0])
    opt.update()
    numpy.testing.assert_allclose(kumo.asnumpy(a.array), [-0.6, 0.0])
    numpy.testing.assert_allclose(kumo.asnumpy(b.array), [-0.8])


def test_gradient_noise_adds_noise_of_the_right_scale():
    kumo.random.seed(0)
    opt = O.SGD(lr=1.0)
    (p,) = _setup(opt, numpy.zeros(20000))
    opt.add_hook(H.GradientNoise(eta=0.3))
    p.grad = kumo.zeros(20000)
    opt.update()
    std = float(numpy.std(kumo.asnumpy(p.array)))
    assert std == pytest.approx(math.sqrt(0.3 / (1 + 0) ** 0.55), rel=0.05)


def test_hook_called_directly_on_one_param():
    p = Param(kumo.asarray(P0.copy()))
    p.grad = kumo.asarray(G0.copy())
    H.WeightDecay(0.5)(None, p)
    numpy.testing.assert_allclose(kumo.asnumpy(p.grad), G0 + 0.5 * P0)


# -- serialization ----------------------------------------------------------------------------------------------------

def test_serialize_round_trip_continues_identically():
    rng = numpy.random.default_rng(3)
    init = [rng.standard_normal((3, 2)), rng.standard_normal(4)]
    grads = [[rng.standard_normal((3, 2)), rng.standard_normal(4)] for _ in range(4)]

    def run(opt, params, steps):
        for gs in steps:
            for p, g in zip(params, gs):
                p.grad = kumo.asarray(g)
            opt.update()

    a = O.Adam(amsgrad=True)
    pa = _setup(a, *init)
    run(a, pa, grads[:2])
    store = {}
    a.serialize(DictSerializer(store))
    assert store["t"] == 2 and store["epoch"] == 0
    assert set(store) >= {"p0/t", "p0/m", "p0/v", "p0/vhat", "p1/m"}

    b = O.Adam(amsgrad=True)
    pb = _setup(b, *[kumo.asnumpy(p.array) for p in pa])
    b.serialize(DictDeserializer(store))
    assert b.t == 2 and pb[0].update_rule.t == 2
    run(a, pa, grads[2:])
    run(b, pb, grads[2:])
    for x, y in zip(pa, pb):
        numpy.testing.assert_allclose(kumo.asnumpy(x.array), kumo.asnumpy(y.array), rtol=1e-14)


# -- loss scaling and float16 -----------------------------------------------------------------------------------------

def test_dynamic_loss_scaling_float16_converges():
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((32, 2)).astype(numpy.float16)
    y = (x.astype(numpy.float32) @ numpy.array([[1.0], [-1.0]], numpy.float32)).astype(numpy.float16)
    w = VParam(kumo.zeros((2, 1), dtype=kumo.float16))
    opt = O.Adam(alpha=0.02)
    opt.setup(Link(w=w))
    opt.loss_scaling(interval=50)
    xv, yv = Variable(kumo.asarray(x), requires_grad=False), Variable(kumo.asarray(y), requires_grad=False)

    def lossfun():
        return F.mean_squared_error(F.matmul(xv, w), yv)

    first = float(kumo.asnumpy(lossfun().array))
    for _ in range(300):
        opt.update(lossfun)
    last = float(kumo.asnumpy(lossfun().array))
    assert w.array.dtype == kumo.float16
    assert w.update_rule._fp32_array.dtype == kumo.float32
    assert last < 0.02 * first
    assert 1 < opt._loss_scale <= 65504


def test_dynamic_loss_scaling_skips_overflowing_step():
    w = VParam(kumo.asarray(numpy.array([1.0], numpy.float16)))
    opt = O.SGD(lr=1e-6)
    opt.setup(Link(w=w))
    opt.loss_scaling()

    def lossfun():
        return F.sum(w * 30000.0)

    opt.update(lossfun)  # scale 1: finite, then the scale doubles
    after_first = float(kumo.asnumpy(w.update_rule._fp32_array)[0])
    assert after_first == pytest.approx(1.0 - 1e-6 * 30000.0, rel=1e-4)
    assert opt._loss_scale == 2.0
    opt.update(lossfun)  # scale 2: 60000 fits float16
    assert opt._loss_scale == 4.0
    with pytest.warns(UserWarning, match="Non finite"):
        opt.update(lossfun)  # scale 4: 120000 overflows float16, the step is skipped and the scale halves
    assert opt._loss_scale == 2.0
    assert opt.t == 3
    assert float(kumo.asnumpy(w.update_rule._fp32_array)[0]) == pytest.approx(1.0 - 2e-6 * 30000.0, rel=1e-4)


def test_static_loss_scale_divides_gradients():
    w = VParam(kumo.asarray([1.0]))
    opt = O.SGD(lr=0.1)
    opt.setup(Link(w=w))
    opt.set_loss_scale(128.0)
    opt.update(lambda: F.sum(w * 2.0))
    numpy.testing.assert_allclose(kumo.asnumpy(w.array), [1.0 - 0.1 * 2.0])


def test_backward_loss_scale_scales_the_seed_and_marks_the_leaves():
    w = VParam(kumo.asarray([1.0, 2.0]))
    c = VParam(kumo.asarray([3.0, 4.0]), requires_grad=False)
    F.sum(w * c).backward(loss_scale=8.0)
    numpy.testing.assert_array_equal(kumo.asnumpy(w.grad), [24.0, 32.0])
    assert w._loss_scale == 8.0
    assert c._loss_scale is None          # no gradient reached it
    v = VParam(kumo.asarray([1.0]))
    F.sum(v * 2.0).backward()
    assert v._loss_scale is None


def test_backward_loss_scale_keeps_a_given_gradient():
    w = VParam(kumo.asarray([1.0, 2.0]))
    y = w * 3.0
    y.grad = kumo.asarray([1.0, 1.0])
    y.backward(loss_scale=4.0)
    numpy.testing.assert_array_equal(kumo.asnumpy(w.grad), [3.0, 3.0])
    assert w._loss_scale == 4.0


@pytest.mark.parametrize("scale", [0.0, -2.0])
def test_backward_loss_scale_must_be_positive(scale):
    w = VParam(kumo.asarray([1.0]))
    with pytest.raises(ValueError):
        F.sum(w).backward(loss_scale=scale)


@pytest.mark.parametrize("fused", [True, False])
def test_update_divides_by_the_scale_backward_recorded(fused):
    # ParallelUpdater's path: loss.backward(loss_scale=...) then update().
    w = VParam(kumo.asarray([1.0])) if fused else Param(kumo.asarray([1.0]))
    opt = O.SGD(lr=0.1)
    opt.setup(Link(w=w))
    if fused:
        F.sum(w * 2.0).backward(loss_scale=64.0)
    else:
        w.grad = kumo.asarray([2.0 * 64.0])
        w._loss_scale = 64.0
    opt.update()
    numpy.testing.assert_allclose(kumo.asnumpy(w.array), [1.0 - 0.1 * 2.0])


def test_loss_scaling_rejects_bad_arguments():
    with pytest.raises(ValueError):
        O.SGD().loss_scaling(interval=0)
    with pytest.raises(ValueError):
        O.SGD().loss_scaling(scale=-1.0)


def test_float16_params_update_through_masters():
    opt = O.SGD(lr=1e-4)
    p = Param(kumo.ones(3, dtype=kumo.float16))
    opt.setup(Link(p=p))
    for _ in range(10):
        p.grad = kumo.ones(3, dtype=kumo.float16)
        opt.update()
    numpy.testing.assert_allclose(kumo.asnumpy(p.update_rule._fp32_array), 1 - 1e-3, rtol=1e-6)
    assert p.array.dtype == kumo.float16


# -- the engine -------------------------------------------------------------------------------------------------------

def test_engine_rejects_integer_arrays():
    a = kumo.zeros(3, dtype=kumo.int32)
    with pytest.raises(TypeError):
        _core.optimizers.multi_tensor_update(0, [a], [a], [], [0.1])


def test_engine_rejects_mismatched_shapes():
    with pytest.raises(ValueError):
        _core.optimizers.multi_tensor_update(0, [kumo.zeros(3)], [kumo.zeros(4)], [], [0.1])


def test_engine_empty_and_many_tensors():
    ps = [kumo.ones(n) for n in (0, 1, 5, 0, 33000)]
    gs = [kumo.ones(n) for n in (0, 1, 5, 0, 33000)]
    _core.optimizers.multi_tensor_update(0, ps, gs, [], [0.25])
    for p in ps:
        numpy.testing.assert_array_equal(kumo.asnumpy(p), numpy.full(p.shape, 0.75))


def test_engine_cuda_sources_are_generated():
    src = _core.optimizers.cuda_source(3, "float32")
    assert "kumo_opt_r3_float" in src and "kumo_opt_rule3" in src


def test_one_launch_per_group(monkeypatch):
    from kumo.autograd.optimizers import _base
    calls = []
    real = _base._engine.multi_tensor_update

    class Spy:
        def __getattr__(self, name):
            return getattr(_core.optimizers, name)

        def multi_tensor_update(self, *args):
            calls.append(args[0])
            return real(*args)

    monkeypatch.setattr(_base, "_engine", Spy())
    opt = O.Adam()
    params = _setup(opt, *[numpy.ones(n) for n in (1, 2, 3, 4, 5)])
    for _ in range(3):
        for p in params:
            p.grad = kumo.ones_like(p.array)
        calls.clear()
        opt.update()
        assert calls == [3]  # every parameter in one Adam launch


def test_mixed_dtypes_form_one_group_each(monkeypatch):
    from kumo.autograd.optimizers import _base
    calls = []
    real = _base._engine.multi_tensor_update

    class Spy:
        def __getattr__(self, name):
            return getattr(_core.optimizers, name)

        def multi_tensor_update(self, *args):
            calls.append(args[0])
            return real(*args)

    monkeypatch.setattr(_base, "_engine", Spy())
    opt = O.MomentumSGD(lr=0.5, momentum=0.0)
    a = Param(kumo.ones(3, dtype=kumo.float32))
    b = Param(kumo.ones(2, dtype=kumo.float64))
    c = Param(kumo.ones(4, dtype=kumo.float32))
    opt.setup(Link(a=a, b=b, c=c))
    for p in (a, b, c):
        p.grad = kumo.ones_like(p.array)
    opt.update()
    assert calls == [1, 1]
    for p in (a, b, c):
        numpy.testing.assert_allclose(kumo.asnumpy(p.array), 0.5)


def test_lazily_initialized_param_joins_after_initialization():
    opt = O.SGD(lr=0.5)
    a = Param(kumo.ones(2))
    b = Param(None)  # uninitialized, as a link's parameter before its first forward
    opt.setup(Link(a=a, b=b))
    a.grad = kumo.ones(2)
    opt.update()
    assert b.array is None and b.grad is None
    b.array = kumo.ones(3)
    a.grad, b.grad = kumo.ones(2), kumo.ones(3)
    opt.update()
    numpy.testing.assert_allclose(kumo.asnumpy(a.array), 0.0)
    numpy.testing.assert_allclose(kumo.asnumpy(b.array), 0.5)


# -- with kumo's own links and serializers, where this tree has them ---------------------------------------------------

def _links():
    try:
        from kumo.autograd import links
        return links
    except ImportError:
        pytest.skip("kumo.autograd.links is not in this tree")


def test_trains_kumo_linear_classifier():
    L = _links()
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((100, 2)).astype(numpy.float32)
    t = (x[:, 0] + x[:, 1] > 0).astype(numpy.int32)
    model = L.Classifier(L.Linear(2, 2))
    opt = O.MomentumSGD(lr=0.5)
    opt.setup(model)
    opt.add_hook(H.WeightDecay(1e-4))
    xv, tv = kumo.asarray(x), kumo.asarray(t)
    for _ in range(100):
        opt.update(model, xv, tv)
    assert float(kumo.asnumpy(model.accuracy.array)) > 0.95
    assert opt.t == 100


def test_npz_round_trip_with_kumo_serializers(tmp_path):
    L = _links()
    from kumo.autograd import serializers as S
    model = L.Linear(3, 2)
    opt = O.Adam()
    opt.setup(model)
    for p in model.params():
        p.grad = kumo.ones_like(p.array)
    opt.update()
    S.save_npz(str(tmp_path / "opt.npz"), opt)
    with numpy.load(str(tmp_path / "opt.npz")) as f:
        keys = set(f.keys())
    assert {"t", "epoch", "W/t", "W/m", "W/v", "b/m"} <= keys
    opt2 = O.Adam()
    opt2.setup(L.Linear(3, 2))
    S.load_npz(str(tmp_path / "opt.npz"), opt2)
    assert opt2.t == 1
    numpy.testing.assert_allclose(kumo.asnumpy(opt2.target.W.update_rule.state["m"]),
                                  kumo.asnumpy(model.W.update_rule.state["m"]))
