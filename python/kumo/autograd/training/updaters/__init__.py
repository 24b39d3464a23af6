"""kumo.autograd.training.updaters: Chainer's ``chainer.training.updaters``."""
from kumo.autograd.training.updaters._parallel import ParallelUpdater
from kumo.autograd.training.updaters._standard import StandardUpdater, Updater

__all__ = ["Updater", "StandardUpdater", "ParallelUpdater"]
