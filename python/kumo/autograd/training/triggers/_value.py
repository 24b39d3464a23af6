"""Triggers that look at a reported value: BestValueTrigger (Max/Min) and
EarlyStoppingTrigger. Both average the value over the interval between checks."""
import operator
import warnings

from kumo.autograd import reporter
from kumo.autograd.training.triggers._util import get_trigger


class BestValueTrigger:
    """Fires at the checks (``trigger``) where the mean of ``key`` since the
    last check beats the best one so far by ``compare(best, new)``."""

    def __init__(self, key, compare, trigger=(1, "epoch")):
        self._key = key
        self._best_value = None
        self._interval_trigger = get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._compare = compare

    def __call__(self, trainer):
        observation = trainer.observation
        if self._key in observation:
            self._summary.add({self._key: observation[self._key]})
        if not self._interval_trigger(trainer):
            return False
        value = float(self._summary.compute_mean()[self._key])
        self._summary = reporter.DictSummary()
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def serialize(self, serializer):
        self._interval_trigger.serialize(serializer["interval_trigger"])
        self._summary.serialize(serializer["summary"])
        self._best_value = serializer("best_value", self._best_value)


class MaxValueTrigger(BestValueTrigger):
    """Fires when the mean of ``key`` reaches a new maximum."""

    def __init__(self, key, trigger=(1, "epoch")):
        super().__init__(key, lambda best, new: new > best, trigger)


class MinValueTrigger(BestValueTrigger):
    """Fires when the mean of ``key`` reaches a new minimum."""

    def __init__(self, key, trigger=(1, "epoch")):
        super().__init__(key, lambda best, new: new < best, trigger)


class EarlyStoppingTrigger:
    """A stop trigger: fires when ``monitor``'s mean has not improved for
    ``patience`` checks in a row, or when ``max_trigger`` fires. ``mode``
    'max'/'min'/'auto' ('auto': maximise keys containing 'accuracy')."""

    def __init__(self, check_trigger=(1, "epoch"), monitor="main/loss", patience=None, mode="auto",
                 verbose=False, max_trigger=(100, "epoch"), **kwargs):
        patients = kwargs.pop("patients", None)
        if kwargs:
            raise TypeError("unexpected keyword argument(s): %s" % ", ".join(sorted(kwargs)))
        if patients is not None and patience is not None:
            raise TypeError("Both 'patience' and 'patients' arguments are specified. 'patients' is an alias "
                            "of the former. Specify only 'patience'.")
        if patience is None:
            patience = 3 if patients is None else patients
        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self.already_warning = False
        self._max_trigger = get_trigger(max_trigger)
        self._interval_trigger = get_trigger(check_trigger)
        self._summary = reporter.DictSummary()
        maximize = mode == "max" or (mode != "min" and "accuracy" in monitor)
        self._compare = operator.gt if maximize else operator.lt
        if verbose:
            print("early stopping: operator is %s" % ("greater" if maximize else "less"))
        self.best = float("-inf") if maximize else float("inf")

    def __call__(self, trainer):
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False
        if self.monitor not in observation:
            warnings.warn("{} is not in observation".format(self.monitor))
            return False
        current = self._summary.compute_mean()[self.monitor]
        self._summary = reporter.DictSummary()
        if self._compare(float(current), self.best):
            self.best = float(current)
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose:
                print("Epoch {}: early stopping".format(trainer.updater.epoch))
            return True
        return False

    def get_training_length(self):
        return self._max_trigger.get_training_length()
