"""kumo.autograd.reporter: Chainer's ``chainer.reporter``.

A Reporter gathers named values ("observations") while a model runs. Links
report their values with ``report({'loss': loss}, self)``; the reporter turns
the link into the name it was registered under (``'main/loss'``). The trainer
and the Evaluator make their reporter current around each step; outside any
reporter ``report`` does nothing. Summary / DictSummary average the reported
scalars over many steps (LogReport, Evaluator and the value triggers use them).
"""
import collections
import contextlib
import json
import threading
import warnings

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo.autograd import _config, computational_graph, serializer as serializer_module
from kumo.autograd._variable import Variable

__all__ = ["Reporter", "get_current_reporter", "report", "report_scope", "Summary", "DictSummary"]

# Each thread has its own stack of current reporters (the innermost is used).
_local = threading.local()


def _reporters():
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def _detach(value):
    # A reported Variable keeps its value, not the graph that made it: a
    # shallow copy made without backprop holds the same array and no creator.
    if isinstance(value, Variable):
        return Variable(value.array, requires_grad=value.requires_grad, name=value.name or None)
    return value


class Reporter:
    """Collects reported values into ``observation`` (a dict), prefixing
    each name with the name of the observer object it was reported for."""

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        _reporters().append(self)

    def __exit__(self, exc_type, exc_value, traceback):
        _reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation):
        """Makes this reporter current and writes to ``observation`` within the block."""
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name, observer):
        """Registers ``observer`` (told apart by identity) under ``name``."""
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Registers each ``(name, observer)`` pair under ``prefix + name``."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Stores ``values`` (a dict) in the observation, each key prefixed
        by ``observer``'s registered name when an observer is given.
        Variables are stored without their graph unless
        ``config.keep_graph_on_report`` is set (DumpGraph sets it)."""
        if not getattr(_config.config, "keep_graph_on_report", False):
            values = {key: _detach(value) for key, value in values.items()}
        else:
            for value in values.values():
                if isinstance(value, Variable):
                    computational_graph.capture(value)
        if observer is None:
            self.observation.update(values)
            return
        name = self._observer_names.get(id(observer))
        if name is None:
            raise KeyError("Given observer is not registered to the reporter.")
        for key, value in values.items():
            self.observation["%s/%s" % (name, key)] = value


def get_current_reporter():
    """The innermost current reporter (IndexError when there is none)."""
    return _reporters()[-1]


def report(values, observer=None):
    """Reports ``values`` to the current reporter; does nothing when no reporter is current."""
    stack = _reporters()
    if stack:
        stack[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Sends what the current reporter receives to ``observation`` within the block."""
    current = _reporters()[-1]
    old = current.observation
    current.observation = observation
    try:
        yield
    finally:
        current.observation = old


def _scalar(value):
    """A reported scalar as a float accumulator term: kumo 0-d arrays are
    kept on their device (no host round trip per step)."""
    if isinstance(value, Variable):
        value = value.array
    return value


class Summary:
    """Running weighted mean and standard deviation of scalars."""

    def __init__(self):
        self._x = 0.0
        self._x2 = 0.0
        self._n = 0

    def add(self, value, weight=1):
        """Adds a scalar (Python/NumPy scalar or 0-d array) with ``weight``."""
        value = _scalar(value)
        weight = _scalar(weight)
        self._x = self._x + weight * value
        self._x2 = self._x2 + weight * value * value
        self._n = self._n + weight

    def compute_mean(self):
        """The weighted mean of what was added."""
        return self._x / self._n

    def make_statistics(self):
        """``(mean, std)`` of what was added (std is the population one)."""
        mean = self._x / self._n
        var = self._x2 / self._n - mean * mean
        sqrt = uf.sqrt if isinstance(var, _core.ndarray) else numpy.sqrt
        return mean, sqrt(var)

    def serialize(self, serializer):
        if isinstance(serializer, serializer_module.Serializer):
            serializer("_x", self._x)
            serializer("_x2", self._x2)
            serializer("_n", self._n)
            return
        # Loaded as stored (a float weight total must not be forced into
        # the int a fresh Summary starts with).
        try:
            x, x2, n = (serializer(key, None) for key in ("_x", "_x2", "_n"))
        except KeyError:
            warnings.warn("The previous statistics are not saved.")
            return
        if x is None or x2 is None or n is None:  # a non-strict load without them keeps the current state
            return
        self._x, self._x2, self._n = (v[()] if isinstance(v, numpy.ndarray) else v for v in (x, x2, n))


def _is_scalar(v):
    # numbers and 0-d arrays; strings (which numpy.isscalar accepts) are not summable
    if isinstance(v, (str, bytes)):
        return False
    return numpy.isscalar(v) or getattr(v, "ndim", -1) == 0


class DictSummary:
    """A Summary per key of dicts of scalars; other values are ignored. A
    ``(value, weight)`` tuple adds ``value`` with that weight."""

    def __init__(self):
        self._summaries = collections.defaultdict(Summary)

    def add(self, d):
        for key, value in d.items():
            weight = 1
            if isinstance(value, tuple):
                value, weight = value[0], value[1]
                if isinstance(weight, Variable):
                    weight = weight.array
                if not _is_scalar(weight):
                    raise ValueError("Given weight to {} was not scalar.".format(key))
            if isinstance(value, Variable):
                value = value.array
            if _is_scalar(value):
                self._summaries[key].add(value, weight=weight)

    def compute_mean(self):
        """A dict of each key's mean."""
        return {name: s.compute_mean() for name, s in self._summaries.items()}

    def make_statistics(self):
        """A dict with each key's mean under ``key`` and its standard deviation under ``key + '.std'``."""
        stats = {}
        for name, s in self._summaries.items():
            mean, std = s.make_statistics()
            stats[name] = mean
            stats[name + ".std"] = std
        return stats

    def serialize(self, serializer):
        # The names go in as one JSON string (Chainer's layout), each
        # summary under its index.
        if isinstance(serializer, serializer_module.Serializer):
            names = list(self._summaries.keys())
            serializer("_names", json.dumps(names))
            for i, name in enumerate(names):
                self._summaries[name].serialize(serializer["_summaries"][str(i)])
            return
        self._summaries.clear()
        try:
            names = json.loads(str(serializer("_names", "")))
        except KeyError:
            warnings.warn("The names of statistics are not saved.")
            return
        for i, name in enumerate(names):
            self._summaries[name].serialize(serializer["_summaries"][str(i)])

