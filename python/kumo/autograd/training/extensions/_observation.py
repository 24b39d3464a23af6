"""observe_value / observe_lr, FailOnNonNumber and MicroAverage."""
import numpy

from kumo import _ufuncs as uf
from kumo.autograd import reporter
from kumo.autograd.serializer import Serializer
from kumo.autograd.training._extension import Extension, make_extension, PRIORITY_EDITOR, PRIORITY_WRITER
from kumo.autograd.training.triggers import get_trigger


def observe_value(observation_key, target_func):
    """An extension putting ``target_func(trainer)`` into the observation
    under ``observation_key`` (every epoch by default)."""

    @make_extension(trigger=(1, "epoch"), priority=PRIORITY_WRITER)
    def _observe_value(trainer):
        trainer.observation[observation_key] = target_func(trainer)

    return _observe_value


def observe_lr(optimizer_name="main", observation_key="lr"):
    """observe_value of the optimizer's ``lr`` attribute."""
    return observe_value(observation_key, lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)


class FailOnNonNumber(Extension):
    """Raises RuntimeError when a parameter of an optimizer's target holds NaN or infinity."""

    def __call__(self, trainer):
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            for param in optimizer.target.params():
                array = param.array
                if array is None:
                    continue
                # one reduction on the device, one bool to the host
                if not bool(uf.isfinite(array).all()):
                    raise RuntimeError("Kill the process since parameters in optimizer '{}' diverge. "
                                       "R.I.P.".format(name))


class MicroAverage(Extension):
    """Reports ``sum(numerator) / sum(denominator)`` of two observed keys
    under ``result_key`` each time ``trigger`` fires (e.g. accuracy over all
    examples from per-batch counts)."""

    priority = PRIORITY_EDITOR

    def __init__(self, numerator_key, denominator_key, result_key, trigger=(1, "epoch")):
        self._trigger = get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator = 0
        self._denominator = 0

    def __call__(self, trainer):
        observation = trainer.observation
        if not (self._numerator_key in observation and self._denominator_key in observation):
            return
        self._numerator += observation[self._numerator_key]
        self._denominator += observation[self._denominator_key]
        if self._trigger(trainer):
            result = float(self._numerator) / float(self._denominator)
            self._numerator = 0
            self._denominator = 0
            reporter.report({self._result_key: result})

    def serialize(self, serializer):
        if isinstance(serializer, Serializer):
            serializer("_numerator", self._numerator)
            serializer("_denominator", self._denominator)
            return
        # loaded as stored: the sums may be floats while a fresh one holds the int 0
        for key in ("_numerator", "_denominator"):
            value = serializer(key, None)
            if value is not None:
                setattr(self, key, value[()] if isinstance(value, numpy.ndarray) else value)
