"""get_trigger: turns a trigger specification into a callable."""
from kumo.autograd.training.triggers._interval import IntervalTrigger


def _never_fire_trigger(trainer):
    return False


def get_trigger(trigger):
    """A callable is returned as it is, None gives a trigger that never
    fires, and a ``(period, unit)`` tuple gives an IntervalTrigger."""
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    return IntervalTrigger(*trigger)
