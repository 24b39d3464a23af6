"""kumo.autograd.training: Chainer's ``chainer.training`` (the Trainer, its
updaters, extensions and triggers)."""
from kumo.autograd.training._extension import (PRIORITY_EDITOR, PRIORITY_READER, PRIORITY_WRITER, Extension,
                                               make_extension)
from kumo.autograd.training import triggers  # noqa: F401
from kumo.autograd.training.triggers import get_trigger
from kumo.autograd.training import updaters  # noqa: F401
from kumo.autograd.training.updaters import ParallelUpdater, StandardUpdater, Updater
from kumo.autograd.training._trainer import Trainer
from kumo.autograd.training import extensions  # noqa: F401

__all__ = ["Trainer", "Extension", "make_extension", "PRIORITY_WRITER", "PRIORITY_EDITOR", "PRIORITY_READER",
           "Updater", "StandardUpdater", "ParallelUpdater", "get_trigger", "triggers", "updaters", "extensions"]
from kumo.autograd.training import extension, trigger, updater, util  # noqa: E402,F401  Chainer's module paths
