"""Trainer: the training loop (Chainer's ``chainer.training.Trainer``)."""
import collections
import os
import sys
import time
import traceback

from kumo.autograd import reporter as reporter_module
from kumo.autograd import serializer as serializer_module
from kumo.autograd.training import _extension
from kumo.autograd.training.triggers import get_trigger


class _Entry:
    def __init__(self, extension, priority, trigger, call_before_training):
        self.extension = extension
        self.priority = priority
        self.trigger = trigger
        self.call_before_training = call_before_training


class Trainer:
    """Runs ``updater.update()`` until ``stop_trigger`` fires, calling the
    extensions whose triggers fire after each update. The observation of
    each iteration (``trainer.observation``) is what the models reported,
    each optimizer's target (and its sublinks) being an observer named
    after the optimizer ('main', 'main/l1', ...). ``out``: the output
    folder (created when training starts)."""

    def __init__(self, updater, stop_trigger=None, out="result", extensions=None):
        self.updater = updater
        self.stop_trigger = get_trigger(stop_trigger)
        self.observation = {}
        self.out = out
        reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            target = optimizer.target
            reporter.add_observer(name, target)
            namedlinks = getattr(target, "namedlinks", None)
            if namedlinks is not None:
                reporter.add_observers(name, namedlinks(skipself=True))
        self.reporter = reporter
        self._done = False
        self._extensions = collections.OrderedDict()
        self._start_at = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time = None
        updater.connect_trainer(self)
        for ext in extensions or []:
            self.extend(ext)

    @property
    def is_before_training(self):
        return self.updater.iteration == 0

    @property
    def elapsed_time(self):
        """Seconds spent in run(), including the time before a resumed snapshot."""
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError("training has not been started yet")
        return time.perf_counter() - self._start_at + self._snapshot_elapsed_time

    def extend(self, extension, name=None, trigger=None, priority=None, *, call_before_training=False):
        """Registers ``extension``; missing arguments come from its
        attributes (``name``/``default_name``/``__name__``, ``trigger``,
        ``priority``). A taken name gets a suffix ``_1``, ``_2``, ..."""
        if name is None:
            name = getattr(extension, "name", None)
            if name is None:
                name = getattr(extension, "default_name", None)
                if name is None:
                    name = getattr(extension, "__name__", None)
                    if name is None:
                        raise TypeError("name is not given for the extension")
        if name == "training":
            raise ValueError('the name "training" is prohibited as an extension name')
        if trigger is None:
            trigger = getattr(extension, "trigger", (1, "iteration"))
        trigger = get_trigger(trigger)
        if priority is None:
            priority = getattr(extension, "priority", _extension.PRIORITY_READER)
        unique = name
        ordinal = 0
        while unique in self._extensions:
            ordinal += 1
            unique = "%s_%d" % (name, ordinal)
        extension.name = unique
        self._extensions[unique] = _Entry(extension, priority, trigger, call_before_training)

    def get_extension(self, name):
        """The extension registered under ``name`` (ValueError if none)."""
        if name in self._extensions:
            return self._extensions[name].extension
        raise ValueError("extension %s not found" % name)

    def run(self, show_loop_exception_msg=True):
        """Runs the training loop until the stop trigger fires (once per trainer)."""
        if self._done:
            raise RuntimeError("cannot run training loop multiple times")
        os.makedirs(self.out, exist_ok=True)
        # sorted() is stable: equal priorities keep their registration order
        extensions = sorted(self._extensions.items(), key=lambda item: item[1].priority, reverse=True)
        self._start_at = time.perf_counter()
        for _, entry in extensions:
            initializer = getattr(entry.extension, "initialize", None)
            if initializer and not getattr(entry.trigger, "finished", False):
                initializer(self)

        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger
        if self.is_before_training:
            self.observation = {}
            with reporter.scope(self.observation):
                for _, entry in extensions:
                    if entry.call_before_training:
                        entry.extension(self)
        try:
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for _, entry in extensions:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as e:
            err = sys.stderr
            if show_loop_exception_msg:
                err.write("Exception in main training loop: {}\n".format(e))
                err.write("Traceback (most recent call last):\n")
                traceback.print_tb(sys.exc_info()[2])
                err.write("Will finalize trainer extensions and updater before reraising the exception.\n")
            tb = sys.exc_info()[2]
            for _, entry in extensions:
                handler = getattr(entry.extension, "on_error", None)
                if handler:
                    try:
                        handler(self, e, tb)
                    except Exception as he:
                        err.write("Exception in error handler: {}\n".format(he))
                        err.write("Traceback (most recent call last):\n")
                        traceback.print_tb(sys.exc_info()[2])
            raise
        finally:
            for _, entry in extensions:
                finalize = getattr(entry.extension, "finalize", None)
                if finalize:
                    finalize()
            self.updater.finalize()
        self._final_elapsed_time = self.elapsed_time
        self._done = True

    def serialize(self, serializer):
        self.updater.serialize(serializer["updater"])
        if hasattr(self.stop_trigger, "serialize"):
            self.stop_trigger.serialize(serializer["stop_trigger"])
        s = serializer["extensions"]
        t = serializer["extension_triggers"]
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, "serialize"):
                entry.extension.serialize(s[name])
            if hasattr(entry.trigger, "serialize"):
                entry.trigger.serialize(t[name])
        if isinstance(serializer, serializer_module.Serializer):
            serializer("_snapshot_elapsed_time", self.elapsed_time)
        else:
            self._snapshot_elapsed_time = serializer("_snapshot_elapsed_time", 0.0)
