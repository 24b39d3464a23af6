"""``kumo.autograd.training.updater`` (Chainer's module path for the updaters)."""
from kumo.autograd.training.updaters import ParallelUpdater, StandardUpdater, Updater

__all__ = ["Updater", "StandardUpdater", "ParallelUpdater"]
