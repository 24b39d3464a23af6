"""Evaluator: the validation pass of the trainer."""
import copy
import datetime
import sys
import time
import warnings

from kumo.autograd import reporter as reporter_module
from kumo.autograd._config import using_config
from kumo.autograd._variable import no_backprop_mode
from kumo.autograd.dataset import concat_examples, get_device
from kumo.autograd.training._extension import Extension, PRIORITY_WRITER
from kumo.autograd.training.updaters._standard import _is_iterator, call_converter


class Evaluator(Extension):
    """Runs ``eval_func`` (default: the 'main' target) over every batch of
    the 'main' iterator with backprop off and ``config.train`` False, and
    reports the means of what the targets reported, under the extension's
    name ('validation/main/loss', ...). The iterator is reset (or copied)
    first, so it must not repeat."""

    trigger = (1, "epoch")
    default_name = "validation"
    priority = PRIORITY_WRITER
    name = None

    def __init__(self, iterator, target, converter=concat_examples, device=None, eval_hook=None, eval_func=None,
                 *, progress_bar=False):
        if _is_iterator(iterator):
            iterator = {"main": iterator}
        self._iterators = iterator
        if not isinstance(target, dict):
            target = {"main": target}
        self._targets = target
        for key, it in iterator.items():
            if getattr(it, "repeat", False):
                warnings.warn("The `repeat` property of the iterator {} is set to `True`. The evaluator sweeps over "
                              "iterators until they stop, so this one may never stop and the evaluation may loop "
                              "forever.".format(key))
        self.converter = converter
        self.device = get_device(device)
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar

    def get_iterator(self, name):
        return self._iterators[name]

    def get_all_iterators(self):
        return dict(self._iterators)

    def get_target(self, name):
        return self._targets[name]

    def get_all_targets(self):
        return dict(self._targets)

    def __call__(self, trainer=None):
        """Evaluates and reports the result to the current reporter; returns it too."""
        reporter = reporter_module.Reporter()
        prefix = "" if self.name is None else self.name + "/"
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            namedlinks = getattr(target, "namedlinks", None)
            if namedlinks is not None:
                reporter.add_observers(prefix + name, namedlinks(skipself=True))
        with reporter:
            with using_config("train", False):
                result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self):
        """The dict of the means of the values reported over one pass."""
        iterator = self._iterators["main"]
        eval_func = self.eval_func or self._targets["main"]
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, "reset"):
            iterator.reset()
            it = iterator
        else:
            it = copy.copy(iterator)
        summary = reporter_module.DictSummary()
        bar = _EvaluationBar(it) if self._progress_bar else None
        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = call_converter(self.converter, batch, self.device)
                with no_backprop_mode():
                    if isinstance(in_arrays, tuple):
                        eval_func(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        eval_func(**in_arrays)
                    else:
                        eval_func(in_arrays)
            summary.add(observation)
            if bar is not None:
                bar.update()
        if bar is not None:
            bar.close()
        return summary.compute_mean()

    def finalize(self):
        for it in self._iterators.values():
            fin = getattr(it, "finalize", None)
            if fin is not None:
                fin()


class _EvaluationBar:
    """The evaluation's progress through the iterator's epoch, redrawn in place."""

    def __init__(self, iterator, bar_length=50, out=None):
        if not (hasattr(iterator, "current_position") and hasattr(iterator, "epoch_detail")):
            raise TypeError("Iterator must have the following attributes to enable a progress bar: "
                            "current_position, epoch_detail")
        self._it = iterator
        self._bar_length = bar_length
        self._out = sys.stdout if out is None else out
        self._start = time.time()

    def update(self):
        position = self._it.current_position
        rate = self._it.epoch_detail
        if position == 0 and rate > 0:  # the last batch wrapped to the next epoch
            rate = 1.0
        marks = "#" * int(rate * self._bar_length)
        span = time.time() - self._start
        speed = position / span if span else float("inf")
        left = (1.0 - rate) * span / rate if rate else 0.0
        lines = ["validation [{}{}] {:6.2%}\n".format(marks, "." * (self._bar_length - len(marks)), rate),
                 "{:10} iterations\n".format(position),
                 "{:10.5g} iters/sec. Estimated time to finish: {}.\n".format(
                     speed, datetime.timedelta(seconds=max(left, 0.0)))]
        self._out.write("\x1b[J" + "".join(lines) + "\x1b[{:d}A".format(len(lines)))
        self._out.flush()

    def close(self):
        self._out.write("\x1b[J")
        self._out.flush()
