"""Hyperparameter schedules: each sets an optimizer attribute (``attr``,
e.g. 'lr') at every call, by Chainer's formulas. ``optimizer`` defaults to
the updater's 'main' optimizer; the schedule's position is saved with
snapshots."""
import numpy

from kumo.autograd.training._extension import Extension


class _Shift(Extension):
    """Common part: the step count ``_t`` and the last value set."""

    def __init__(self, attr, optimizer):
        self._attr = attr
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer("main")

    def _update_value(self, optimizer, value):
        setattr(optimizer, self._attr, value)
        self._last_value = value

    def _start(self, trainer):
        # The initial value is the optimizer's unless given; after a resume
        # the saved last value is restored.
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        self._update_value(optimizer, self._init if self._last_value is None else self._last_value)

    def serialize(self, serializer):
        self._t = serializer("_t", self._t)
        self._last_value = serializer("_last_value", self._last_value)
        if isinstance(self._last_value, numpy.ndarray):
            self._last_value = self._last_value.item()


def _clip(value, target, growing):
    """``value`` not beyond ``target`` in the direction the schedule moves."""
    if target is None:
        return value
    if growing:
        return target if value / target > 1 else value
    return target if value / target < 1 else value


class ExponentialShift(_Shift):
    """``init * rate ** t``, stopping at ``target``."""

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        if rate < 0:
            raise ValueError("ExponentialShift does not support negative rate")
        super().__init__(attr, optimizer)
        self._rate = rate
        self._init = init
        self._target = target

    def initialize(self, trainer):
        self._start(trainer)

    def __call__(self, trainer):
        self._t += 1
        value = _clip(self._init * self._rate ** self._t, self._target, self._rate > 1)
        self._update_value(self._get_optimizer(trainer), value)


class InverseShift(_Shift):
    """``init * (1 + gamma * t) ** -power``, stopping at ``target``."""

    def __init__(self, attr, gamma, power, init=None, target=None, optimizer=None):
        if gamma < 0:
            raise ValueError("InverseShift does not support negative gamma")
        super().__init__(attr, optimizer)
        self._gamma = gamma
        self._power = power
        self._init = init
        self._target = target

    def initialize(self, trainer):
        self._start(trainer)

    def __call__(self, trainer):
        self._t += 1
        value = self._init * (1 + self._gamma * self._t) ** (-self._power)
        self._update_value(self._get_optimizer(trainer), _clip(value, self._target, self._power < 0))


class StepShift(_Shift):
    """``init * gamma ** floor(t / step)``, stopping at ``target``."""

    def __init__(self, attr, gamma, step, init=None, target=None, optimizer=None):
        super().__init__(attr, optimizer)
        self._gamma = gamma
        self._step = step
        self._init = init
        self._target = target

    def initialize(self, trainer):
        self._start(trainer)

    def __call__(self, trainer):
        self._t += 1
        value = self._init * self._gamma ** numpy.floor(self._t / self._step)
        self._update_value(self._get_optimizer(trainer), _clip(value, self._target, self._gamma > 1))


class PolynomialShift(_Shift):
    """``init * max(1 - t / max_count, 0) ** rate``, not below ``target``."""

    def __init__(self, attr, rate, max_count, init=None, target=None, optimizer=None):
        super().__init__(attr, optimizer)
        self._rate = rate
        self._max_count = max_count
        self._init = init
        self._target = target

    def initialize(self, trainer):
        self._start(trainer)

    def __call__(self, trainer):
        self._t += 1
        decay = max(1 - self._t / self._max_count, 0)
        value = self._init * decay ** self._rate
        if self._target is not None:
            # A positive rate decays, so the target is a floor (else a
            # ceiling). Compared directly, not as Chainer's target / value,
            # which divides by zero once t reaches max_count.
            if self._rate > 0:
                if self._target > value:
                    value = self._target
            elif self._target < value:
                value = self._target
        self._update_value(self._get_optimizer(trainer), value)


class LinearShift(_Shift):
    """Moves linearly from ``value_range[0]`` to ``value_range[1]`` while
    the call count goes from ``time_range[0]`` to ``time_range[1]``."""

    def __init__(self, attr, value_range, time_range, optimizer=None):
        super().__init__(attr, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def initialize(self, trainer):
        value = self._compute_next_value() if self._last_value is None else self._last_value
        self._update_value(self._get_optimizer(trainer), value)

    def __call__(self, trainer):
        self._t += 1
        self._update_value(self._get_optimizer(trainer), self._compute_next_value())

    def _compute_next_value(self):
        t1, t2 = self._time_range
        v1, v2 = self._value_range
        if self._t <= t1:
            return v1
        if self._t >= t2:
            return v2
        return v1 + (self._t - t1) / (t2 - t1) * (v2 - v1)


class WarmupShift(Extension):
    """Moves linearly from ``warmup_start`` to ``init`` over the first
    ``warmup_iter`` calls, then leaves the attribute alone."""

    def __init__(self, attr, warmup_start, warmup_iter, init, optimizer=None):
        self._attr = attr
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter
        self._init = init
        self._optimizer = optimizer
        self._t = 0

    def initialize(self, trainer):
        optimizer = self._optimizer or trainer.updater.get_optimizer("main")
        if self._warmup_start is None:
            self._warmup_start = getattr(optimizer, self._attr)
        else:
            setattr(optimizer, self._attr, self._warmup_start)

    def __call__(self, trainer):
        self._t += 1
        if self._t <= self._warmup_iter:
            optimizer = self._optimizer or trainer.updater.get_optimizer("main")
            value = (self._t * self._init + (self._warmup_iter - self._t) * self._warmup_start) / self._warmup_iter
            setattr(optimizer, self._attr, value)

    def serialize(self, serializer):
        self._t = serializer("_t", self._t)


class MultistepShift(Extension):
    """``init * gamma ** k`` where k counts the ``step_value`` entries the
    call count has reached."""

    def __init__(self, attr, gamma, step_value, init, optimizer=None):
        self._attr = attr
        self._gamma = gamma
        self._step_value = step_value
        self._init = init
        self._optimizer = optimizer
        self._stepvalue_size = len(step_value)
        self._current_step = 0
        self._t = 0

    def initialize(self, trainer):
        optimizer = self._optimizer or trainer.updater.get_optimizer("main")
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        else:
            setattr(optimizer, self._attr, self._init)

    def __call__(self, trainer):
        self._t += 1
        optimizer = self._optimizer or trainer.updater.get_optimizer("main")
        if self._current_step < self._stepvalue_size and self._t >= self._step_value[self._current_step]:
            self._current_step += 1
        setattr(optimizer, self._attr, self._init * pow(self._gamma, self._current_step))

    def serialize(self, serializer):
        self._t = serializer("_t", self._t)
        self._current_step = serializer("_current_step", self._current_step)
