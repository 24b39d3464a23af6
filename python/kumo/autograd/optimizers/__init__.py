"""kumo.autograd.optimizers: Chainer's optimizers (chainer.optimizers) whose
updates of all parameters run as one fused multi-tensor kernel per group
(see _base.py and autograd/optimizers/ in the C++ core)."""

from kumo import _core
from kumo.autograd.optimizers._base import (GradientMethod, Hyperparameter, HyperparameterProxy, Optimizer,
                                            UpdateRule)

__all__ = ["Optimizer", "GradientMethod", "UpdateRule", "Hyperparameter", "HyperparameterProxy", "SGD",
           "MomentumSGD", "NesterovAG", "Adam", "AdamW", "AMSGrad", "AdaBound", "AMSBound", "AdaGrad", "AdaDelta",
           "RMSprop", "RMSpropGraves", "SMORMS3", "CorrectedMomentumSGD", "MSVAG", "SGDRule", "MomentumSGDRule",
           "NesterovAGRule", "AdamRule", "AdaGradRule", "AdaDeltaRule", "RMSpropRule", "RMSpropGravesRule",
           "SMORMS3Rule", "CorrectedMomentumSGDRule", "MSVAGRule"]

# (class name, engine rule number, hyperparameter names and Chainer defaults)
_SPECS = [
    ("SGD", 0, [("lr", 0.01)]),
    ("MomentumSGD", 1, [("lr", 0.01), ("momentum", 0.9)]),
    ("NesterovAG", 2, [("lr", 0.01), ("momentum", 0.9)]),
    ("Adam", 3, [("alpha", 0.001), ("beta1", 0.9), ("beta2", 0.999), ("eps", 1e-8), ("eta", 1.0),
                 ("weight_decay_rate", 0), ("amsgrad", False), ("adabound", False), ("final_lr", 0.1),
                 ("gamma", 1e-3)]),
    ("AdaGrad", 4, [("lr", 0.001), ("eps", 1e-8)]),
    ("AdaDelta", 5, [("rho", 0.95), ("eps", 1e-6)]),
    ("RMSprop", 6, [("lr", 0.01), ("alpha", 0.99), ("eps", 1e-8), ("eps_inside_sqrt", False)]),
    ("RMSpropGraves", 7, [("lr", 1e-4), ("alpha", 0.95), ("momentum", 0.9), ("eps", 1e-4)]),
    ("SMORMS3", 8, [("lr", 0.001), ("eps", 1e-16)]),
    ("CorrectedMomentumSGD", 9, [("lr", 0.01), ("momentum", 0.9)]),
    ("MSVAG", 10, [("lr", 0.1), ("beta", 0.9), ("eta", 1.0), ("weight_decay_rate", 0)]),
]


def _make(name, rule_id, params):
    names = [p for p, _ in params]
    defaults = dict(params)

    def rule_init(self, parent_hyperparam=None, **kwargs):
        UpdateRule.__init__(self, parent_hyperparam)
        if parent_hyperparam is None:
            for k, v in params:
                setattr(self.hyperparam, k, v)
        for k, v in kwargs.items():
            if k not in defaults:
                raise TypeError("{}Rule() got an unexpected keyword argument '{}'".format(name, k))
            if v is not None:
                setattr(self.hyperparam, k, v)
        if name == "Adam" and self.hyperparam.adabound:
            self.initial_alpha = self.hyperparam.alpha

    rule_cls = type(name + "Rule", (UpdateRule,), {"_rule": rule_id, "__init__": rule_init,
                                                   "__doc__": "Update rule of {} (fused).".format(name)})

    def opt_init(self, *args, **kwargs):
        GradientMethod.__init__(self)
        if len(args) > len(names):
            raise TypeError("{}() takes at most {} positional arguments".format(name, len(names)))
        values = dict(defaults)
        for k, v in zip(names, args):
            values[k] = v
        for k, v in kwargs.items():
            if k not in defaults:
                raise TypeError("{}() got an unexpected keyword argument '{}'".format(name, k))
            values[k] = v
        for k in names:
            setattr(self.hyperparam, k, values[k])

    def create_update_rule(self):
        return rule_cls(self.hyperparam)

    attrs = {"__init__": opt_init, "create_update_rule": create_update_rule,
             "__doc__": "Chainer's {} with fused multi-tensor updates.".format(name)}
    for k in names:
        attrs[k] = HyperparameterProxy(k)
    opt_cls = type(name, (GradientMethod,), attrs)
    rule_cls.__module__ = opt_cls.__module__ = __name__
    return rule_cls, opt_cls


for _name, _rid, _params in _SPECS:
    _r, _o = _make(_name, _rid, _params)
    globals()[_name + "Rule"] = _r
    globals()[_name] = _o
del _name, _rid, _params, _r, _o


def _adam_alpha_t(self):
    if self.t == 0:
        raise RuntimeError("Can't determine the learning rate of Adam optimizer because the update steps have not "
                           "been started.")
    return _core.optimizers.adam_alpha_t(self.hyperparam.get_dict(), self.t)


def _adam_lr(self):
    import warnings
    warnings.warn("Adam.lr has been renamed to AdamRule.alpha_t. Use of Adam.lr is deprecated in Chainer v6.",
                  DeprecationWarning)
    return self.alpha_t


def _adam_rule_bounds(self):
    if self.t == 0:
        raise RuntimeError("Can't determine the bounds of AdaBound optimizer because the update steps have not "
                           "been started.")
    s = self._scalars()
    return s[8], s[9]


Adam.alpha_t = property(_adam_alpha_t)  # noqa: F821
Adam.lr = property(_adam_lr)  # noqa: F821
AdamRule.alpha_t = property(_adam_alpha_t)  # noqa: F821
AdamRule.lr = property(_adam_lr)  # noqa: F821
AdamRule.bounds = property(_adam_rule_bounds)  # noqa: F821


class AdamW(Adam):  # noqa: F821
    """Adam with decoupled weight decay (Chainer's AdamW)."""

    def __init__(self, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0, weight_decay_rate=0):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate, amsgrad=False)


class AMSGrad(Adam):  # noqa: F821
    """Adam with amsgrad=True."""

    def __init__(self, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0, weight_decay_rate=0):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate, amsgrad=True)


class AdaBound(Adam):  # noqa: F821
    """Adam with adabound=True."""

    def __init__(self, alpha=0.001, beta1=0.9, beta2=0.999, final_lr=0.1, gamma=1e-3, eps=1e-8, eta=1.0,
                 weight_decay_rate=0):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate, amsgrad=False, adabound=True, final_lr=final_lr,
                         gamma=gamma)


class AMSBound(Adam):  # noqa: F821
    """Adam with amsgrad=True and adabound=True."""

    def __init__(self, alpha=0.001, beta1=0.9, beta2=0.999, final_lr=0.1, gamma=1e-3, eps=1e-8, eta=1.0,
                 weight_decay_rate=0):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate, amsgrad=True, adabound=True, final_lr=final_lr,
                         gamma=gamma)
