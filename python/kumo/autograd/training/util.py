"""``kumo.autograd.training.util`` (Chainer's module path for get_trigger)."""
from kumo.autograd.training.triggers import get_trigger

__all__ = ["get_trigger"]
