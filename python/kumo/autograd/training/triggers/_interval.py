"""IntervalTrigger and ManualScheduleTrigger: fire when the iteration count
or the epoch progress crosses a multiple of a period / a listed point."""
import warnings

_UNITS = ("epoch", "iteration")


def _check_unit(unit):
    if unit not in _UNITS:
        raise ValueError("Trigger unit must be either 'epoch' or 'iteration'.")


class _ProgressTrigger:
    """Remembers the progress seen at the previous call, so that a trigger
    called after several updates still fires once for a crossed boundary."""

    def __init__(self, unit):
        _check_unit(unit)
        self.unit = unit
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.0

    def _progress(self, updater):
        """(previous, current) progress in this trigger's unit."""
        if self.unit == "epoch":
            previous = self._previous_epoch_detail
            if previous < 0:  # resumed from a snapshot that did not save it
                previous = updater.previous_epoch_detail
            return previous, updater.epoch_detail
        previous = self._previous_iteration
        if previous < 0:
            previous = updater.iteration - 1
        return previous, updater.iteration

    def _remember(self, updater):
        self._previous_iteration = updater.iteration
        if hasattr(updater, "epoch_detail"):
            self._previous_epoch_detail = updater.epoch_detail

    def _serialize_progress(self, serializer):
        name = type(self).__name__
        try:
            self._previous_iteration = serializer("previous_iteration", self._previous_iteration)
        except KeyError:
            warnings.warn("The previous value of iteration is not saved. %s guesses it from the current "
                          "iteration; if it is not called at every iteration it may fire late." % name)
            self._previous_iteration = -1
        try:
            self._previous_epoch_detail = serializer("previous_epoch_detail", self._previous_epoch_detail)
        except KeyError:
            warnings.warn("The previous value of epoch_detail is not saved. %s uses "
                          "updater.previous_epoch_detail instead." % name)
            self._previous_epoch_detail = -1.0


class IntervalTrigger(_ProgressTrigger):
    """Fires every ``period`` iterations or epochs (``unit``: 'iteration' or
    'epoch'; a fractional epoch period is allowed)."""

    def __init__(self, period, unit):
        super().__init__(unit)
        self.period = period
        self.count = 0

    def __call__(self, trainer):
        updater = trainer.updater
        previous, current = self._progress(updater)
        if self.unit == "epoch":
            self.count = current // self.period
        fire = previous // self.period != current // self.period
        self._remember(updater)
        return fire

    def serialize(self, serializer):
        self._serialize_progress(serializer)

    def get_training_length(self):
        return (self.period, self.unit)

    def __str__(self):
        return "{}({}, '{}')".format(type(self).__name__, self.period, self.unit)


class ManualScheduleTrigger(_ProgressTrigger):
    """Fires when the progress passes one of ``points`` (a number or a list);
    ``finished`` becomes True once the last point has been passed."""

    def __init__(self, points, unit):
        super().__init__(unit)
        self.points = points if isinstance(points, list) else [points]
        self.finished = False

    def __call__(self, trainer):
        updater = trainer.updater
        previous, current = self._progress(updater)
        fire = any(previous < p <= current for p in self.points)
        last = max(self.points)
        if getattr(self, "_finished_unknown", False):
            # resumed without the flag: recompute it from the progress
            del self._finished_unknown
            if current >= last:
                self.finished = True
        if fire and current >= last:
            self.finished = True
        self._remember(updater)
        return fire

    def serialize(self, serializer):
        self._serialize_progress(serializer)
        try:
            self.finished = serializer("finished", self.finished)
        except KeyError:
            warnings.warn("The flag of finished is not saved. ManualScheduleTrigger recomputes it at its next call.")
            self.finished = False
            self._finished_unknown = True
