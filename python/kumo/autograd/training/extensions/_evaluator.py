"""Evaluator: the validation pass of the trainer."""
import copy

from kumo import autograd
from kumo.autograd import reporter as reporter_module
from kumo.autograd.dataset import concat_examples, get_device
from kumo.autograd.training._extension import PRIORITY_WRITER, Extension
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
            with autograd.using_config("train", False):
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
        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = call_converter(self.converter, batch, self.device)
                with autograd.no_backprop_mode():
                    if isinstance(in_arrays, tuple):
                        eval_func(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        eval_func(**in_arrays)
                    else:
                        eval_func(in_arrays)
            summary.add(observation)
        return summary.compute_mean()

    def finalize(self):
        for it in self._iterators.values():
            fin = getattr(it, "finalize", None)
            if fin is not None:
                fin()
