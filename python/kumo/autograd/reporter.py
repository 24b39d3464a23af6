"""Reporting values during training (Chainer's ``chainer.reporter``).

A Reporter collects named values into its ``observation`` dict while it is
the current one (``with reporter:`` or ``reporter.scope(dict)``); code
anywhere calls ``report({'loss': loss}, observer)`` and the value lands under
'<observer's name>/loss'. Summary and DictSummary average reported scalars.
"""
import collections
import contextlib
import json
import threading
import warnings

import numpy

import kumo

_local = threading.local()


def _reporters():
    stack = getattr(_local, "reporters", None)
    if stack is None:
        stack = _local.reporters = []
    return stack


def _is_variable(value):
    from kumo.autograd import Variable

    return isinstance(value, Variable)


def _detached(value):
    # A reported Variable is kept without its graph, so that the
    # observation does not hold the whole computation alive.
    if _is_variable(value):
        from kumo.autograd import Variable

        return Variable(value.array, requires_grad=False)
    return value


class Reporter:
    """Collects observed values; ``add_observer(name, obj)`` names the
    objects that report."""

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        _reporters().append(self)

    def __exit__(self, exc_type, exc_value, traceback):
        _reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation):
        """Makes this reporter current, writing into ``observation``."""
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name, observer):
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Registers (name, observer) pairs as prefix + name (e.g. a link's
        ``namedlinks(skipself=True)``)."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        values = {k: _detached(v) for k, v in values.items()}
        if observer is None:
            self.observation.update(values)
            return
        name = self._observer_names.get(id(observer))
        if name is None:
            raise KeyError("Given observer is not registered to the reporter.")
        for key, value in values.items():
            self.observation["%s/%s" % (name, key)] = value


def get_current_reporter():
    """The innermost current reporter of this thread."""
    return _reporters()[-1]


def report(values, observer=None):
    """Reports ``values`` (a dict) to the current reporter; nothing happens
    when there is none."""
    stack = _reporters()
    if stack:
        stack[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Makes the current reporter write into ``observation`` for the block."""
    current = _reporters()[-1]
    old = current.observation
    current.observation = observation
    try:
        yield
    finally:
        current.observation = old


def _device_of(value):
    return kumo.Device(str(value.device)) if isinstance(value, kumo.ndarray) else kumo.Device("cpu")


class Summary:
    """Weighted running mean and standard deviation of scalars."""

    def __init__(self):
        self._x = 0.0
        self._x2 = 0.0
        self._n = 0

    def add(self, value, weight=1):
        with _device_of(value):
            self._x += weight * value
            self._x2 += weight * value * value
            self._n += weight

    def compute_mean(self):
        with _device_of(self._x):
            return self._x / self._n

    def make_statistics(self):
        """(mean, std)."""
        with _device_of(self._x):
            mean = self._x / self._n
            var = self._x2 / self._n - mean * mean
            std = kumo.sqrt(var) if isinstance(var, kumo.ndarray) else numpy.sqrt(var)
            return mean, std

    def serialize(self, serializer):
        try:
            self._x = serializer("_x", self._x)
            self._x2 = serializer("_x2", self._x2)
            self._n = serializer("_n", self._n)
        except KeyError:
            warnings.warn("The previous statistics are not saved.")


def _is_scalar(v):
    return numpy.isscalar(v) or getattr(v, "ndim", -1) == 0


def _is_writer(serializer):
    """True for a serializer that saves (Chainer's Serializer), False for one
    that loads. The base classes live in kumo.autograd.serializer (another
    piece of the training package); without it the class name tells."""
    try:
        from kumo.autograd.serializer import Deserializer, Serializer
    except ImportError:
        Serializer = Deserializer = None
    if Serializer is not None and isinstance(serializer, (Serializer, Deserializer)):
        return isinstance(serializer, Serializer)
    name = type(serializer).__name__
    return "Deserializer" not in name and "Serializer" in name


class DictSummary:
    """Summaries of the scalars of reported dicts, by key; a value may be a
    (value, weight) tuple. Non-scalars are skipped."""

    def __init__(self):
        self._summaries = collections.defaultdict(Summary)

    def add(self, d):
        for k, v in d.items():
            w = 1
            if isinstance(v, tuple):
                v, w = v[0], v[1]
                if _is_variable(w):
                    w = w.array
                if not _is_scalar(w):
                    raise ValueError("Given weight to {} was not scalar.".format(k))
            if _is_variable(v):
                v = v.array
            if _is_scalar(v):
                self._summaries[k].add(v, weight=w)

    def compute_mean(self):
        return {name: s.compute_mean() for name, s in self._summaries.items()}

    def make_statistics(self):
        """{name: mean, name + '.std': std}."""
        stats = {}
        for name, s in self._summaries.items():
            mean, std = s.make_statistics()
            stats[name] = mean
            stats[name + ".std"] = std
        return stats

    def serialize(self, serializer):
        if _is_writer(serializer):
            names = list(self._summaries.keys())
            serializer("_names", json.dumps(names))
            for index, name in enumerate(names):
                self._summaries[name].serialize(serializer["_summaries"][str(index)])
        else:
            self._summaries.clear()
            try:
                names = json.loads(serializer("_names", ""))
            except KeyError:
                warnings.warn("The names of statistics are not saved.")
                return
            for index, name in enumerate(names):
                self._summaries[name].serialize(serializer["_summaries"][str(index)])


__all__ = ["Reporter", "report", "report_scope", "get_current_reporter", "Summary", "DictSummary"]
