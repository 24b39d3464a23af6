"""ProgressBar: a two-bar training progress display redrawn in place."""
import collections
import datetime
import sys
import time

from kumo.autograd.training._extension import Extension


class ProgressBar(Extension):
    """Draws the progress of the whole run and of the current epoch, the
    speed and the estimated time left, every ``update_interval``
    iterations. ``training_length`` ((length, unit)) defaults to the stop
    trigger's ``get_training_length()``."""

    def __init__(self, training_length=None, update_interval=100, bar_length=50, out=sys.stdout):
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._status_template = None
        self._recent = collections.deque(maxlen=100)
        self._drawn = False

    def __call__(self, trainer):
        if trainer.updater.iteration % self._update_interval == 0:
            self._draw(trainer)

    def finalize(self):
        if self._drawn:
            self._out.write("\x1b[J")
            self._flush()

    def _flush(self):
        if hasattr(self._out, "flush"):
            self._out.flush()

    def _bar(self, title, rate):
        marks = "#" * int(rate * self._bar_length)
        return "{} [{}{}] {:6.2%}\n".format(title, marks, "." * (self._bar_length - len(marks)), rate)

    def _draw(self, trainer):
        updater = trainer.updater
        iteration = updater.iteration
        epoch = updater.epoch_detail
        if self._training_length is None:
            self._training_length = trainer.stop_trigger.get_training_length()
        length, unit = self._training_length
        rate = min((iteration if unit == "iteration" else epoch) / length, 1.0)
        lines = [self._bar("     total", rate), self._bar("this epoch", epoch - int(epoch))]
        if self._status_template is None:
            self._status_template = "{0.iteration:10} iter, {0.epoch} epoch / %s %ss\n" % (length, unit)
        lines.append(self._status_template.format(updater))
        now = time.time()
        self._recent.append((iteration, epoch, now))
        old_it, old_ep, old_t = self._recent[0]
        span = now - old_t
        speed_it = (iteration - old_it) / span if span else float("inf")
        speed_ep = (epoch - old_ep) / span if span else float("inf")
        left = (length - iteration) / speed_it if unit == "iteration" else (length - epoch) / speed_ep
        left = max(left, 0.0) if left == left else 0.0
        lines.append("{:10.5g} iters/sec. Estimated time to finish: {}.\n".format(
            speed_it, datetime.timedelta(seconds=left)))
        out = self._out
        out.write("\x1b[J")
        for line in lines:
            out.write(line)
        out.write("\x1b[{:d}A".format(len(lines)))  # back up so the next draw overwrites
        self._flush()
        self._drawn = True
