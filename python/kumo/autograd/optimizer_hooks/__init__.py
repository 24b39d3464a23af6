"""kumo.autograd.optimizer_hooks: Chainer's optimizer hooks. The elementwise
ones (WeightDecay, Lasso, GradientHardClipping) and GradientClipping's
rescale run as one fused launch per parameter group inside a fused optimizer
update; called directly (``hook(rule, param)``) they work on one parameter."""

from kumo import _core
from kumo import _dtypes
from kumo._namespace import package

__all__ = ["WeightDecay", "Lasso", "GradientClipping", "GradientHardClipping", "GradientNoise", "GradientLARS",
           "exponential_decay_noise"]

_engine = _core.optimizers


def _fused_grad_rule(rule_id, groups, works, scalars):
    for arrays, grads in works:
        _engine.multi_tensor_update(rule_id, arrays, grads, [], scalars)


def _one(rule_id, param, scalars):
    p, g = param.array, param.grad
    if p is None or g is None:
        return
    _engine.multi_tensor_update(rule_id, [p], [g], [], scalars)


class WeightDecay:
    """Adds ``rate * param`` to each gradient (L2 regularisation)."""

    name = "WeightDecay"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, rate):
        self.rate = rate

    def _rate(self, param_or_opt):
        rate = self.rate
        scale = getattr(param_or_opt, "_loss_scale", None)
        return rate * scale if scale is not None else rate

    def __call__(self, rule, param):
        _one(11, param, [self._rate(param)])

    def _fused_apply(self, opt, groups, works):
        for g, (arrays, grads) in zip(groups, works):
            scale = getattr(g.params[0], "_loss_scale", None) if g.params else None
            rate = self.rate * scale if scale is not None else self.rate
            _engine.multi_tensor_update(11, arrays, grads, [], [rate])


class Lasso:
    """Adds ``rate * sign(param)`` to each gradient (L1 regularisation)."""

    name = "Lasso"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        _one(12, param, [self.rate])

    def _fused_apply(self, opt, groups, works):
        _fused_grad_rule(12, groups, works, [self.rate])


class GradientHardClipping:
    """Clips every gradient element into [lower_bound, upper_bound]."""

    name = "GradientHardClipping"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param):
        _one(13, param, [self.lower_bound, self.upper_bound])

    def _fused_apply(self, opt, groups, works):
        _fused_grad_rule(13, groups, works, [self.lower_bound, self.upper_bound])


class GradientClipping:
    """Rescales all gradients so that their global L2 norm is at most
    ``threshold``."""

    name = "GradientClipping"
    timing = "pre"

    def __init__(self, threshold):
        self.threshold = threshold

    @staticmethod
    def _sqnorm(grad_lists):
        total = 0.0
        for grads in grad_lists:
            by_kind = {}
            for g in grads:
                if g is None:
                    continue
                if g.dtype == _dtypes.float16:
                    g = g.astype(_dtypes.float32)
                by_kind.setdefault((str(g.dtype), str(g.device)), []).append(g)
            for arrays in by_kind.values():
                total += _engine.sum_squares(arrays)
        return total

    def _rate(self, sqnorm):
        norm = sqnorm ** 0.5
        return self.threshold / norm if norm > 0 else float("inf")

    def __call__(self, opt):
        params = list(opt.target.params())
        rate = self._rate(self._sqnorm([[p.grad for p in params]]))
        if rate >= 1:
            return
        for p in params:
            if p.grad is not None:
                p.grad *= rate

    def _fused_apply(self, opt, groups, works):
        fused_ids = set()
        for g in groups:
            fused_ids.update(id(p) for p in g.params)
        others = [p for p in opt.target.params() if id(p) not in fused_ids and p.grad is not None]
        rate = self._rate(self._sqnorm([grads for _, grads in works] + [[p.grad for p in others]]))
        if rate >= 1:
            return
        _fused_grad_rule(14, groups, works, [rate])
        for p in others:
            p.grad *= rate


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Gaussian noise with variance ``eta / (1 + t) ** 0.55`` (Chainer's default)."""
    std = (hook.eta / (1 + opt.t) ** 0.55) ** 0.5
    return xp.random.normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Adds noise from ``noise_func`` to each gradient (per parameter: the
    noise itself is one random draw per parameter)."""

    name = "GradientNoise"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, eta, noise_func=exponential_decay_noise):
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        noise = self.noise_func(package(), g.shape, g.dtype, self, rule)
        g += noise


class GradientLARS:
    """Layer-wise adaptive rate scaling (per parameter: each rate needs that
    parameter's two norms)."""

    name = "GradientLARS"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, threshold=1e-2, weight_decay=0.0, eps=1e-9):
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        p_norm = float(_engine.sum_squares([p])) ** 0.5
        g_norm = float(_engine.sum_squares([g])) ** 0.5
        local_rate = p_norm / (self.eps + g_norm + self.weight_decay * p_norm)
        rate = local_rate if p_norm > self.threshold else 1.0
        # g = (g + weight_decay * p) * rate, as two fused passes on this tensor
        _engine.multi_tensor_update(11, [p], [g], [], [self.weight_decay])
        _engine.multi_tensor_update(14, [p], [g], [], [rate])
