"""kumo.autograd.training.triggers: Chainer's ``chainer.training.triggers``.

A trigger is a callable ``trigger(trainer) -> bool`` saying whether an
extension runs (or training stops) after the current update."""
from kumo.autograd.training.triggers._interval import IntervalTrigger, ManualScheduleTrigger
from kumo.autograd.training.triggers._misc import OnceTrigger, TimeTrigger
from kumo.autograd.training.triggers._util import get_trigger
from kumo.autograd.training.triggers._value import (BestValueTrigger, EarlyStoppingTrigger, MaxValueTrigger,
                                                    MinValueTrigger)

__all__ = ["IntervalTrigger", "ManualScheduleTrigger", "OnceTrigger", "TimeTrigger", "BestValueTrigger",
           "MaxValueTrigger", "MinValueTrigger", "EarlyStoppingTrigger", "get_trigger"]
