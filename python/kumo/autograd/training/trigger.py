"""``kumo.autograd.training.trigger`` (Chainer's module path for IntervalTrigger and get_trigger)."""
from kumo.autograd.training.triggers import IntervalTrigger, get_trigger

__all__ = ["IntervalTrigger", "get_trigger"]
