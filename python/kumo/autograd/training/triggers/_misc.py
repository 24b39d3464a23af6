"""OnceTrigger and TimeTrigger."""
import warnings


class OnceTrigger:
    """Fires at its first call only (and once more after a resume when
    ``call_on_resume``)."""

    def __init__(self, call_on_resume=False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self):
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer):
        fire = not self.finished
        self._flag_first = False
        self._flag_resumed = False
        return fire

    def serialize(self, serializer):
        try:
            self._flag_first = serializer("_flag_first", self._flag_first)
        except KeyError:
            warnings.warn("The flag is not saved. OnceTrigger assumes it has already fired.")
            self._flag_first = False


class TimeTrigger:
    """Fires each time ``trainer.elapsed_time`` passes another ``period`` seconds."""

    def __init__(self, period):
        self._period = period
        self._next_time = self._period

    def __call__(self, trainer):
        if self._next_time < trainer.elapsed_time:
            self._next_time += self._period
            return True
        return False

    def serialize(self, serializer):
        self._next_time = serializer("next_time", self._next_time)
