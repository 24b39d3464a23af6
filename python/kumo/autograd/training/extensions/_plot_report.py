"""PlotReport: PNG plots of averaged observations (needs matplotlib)."""
import json
import os
import warnings

import numpy

from kumo.autograd import reporter
from kumo.autograd import serializer as serializer_module
from kumo.autograd.training._extension import Extension
from kumo.autograd.training.triggers import get_trigger

_available = None


def matplotlib_available():
    """Whether matplotlib can be imported (checked once); warns when it cannot."""
    global _available
    if _available is None:
        try:
            import matplotlib  # noqa: F401
            _available = True
        except (ImportError, TypeError):
            _available = False
    if not _available:
        warnings.warn("matplotlib is not installed on your environment, so nothing will be plotted at this time. "
                      "Please install matplotlib to plot figures.\n\n  $ pip install matplotlib\n")
    return _available


def pyplot():
    """matplotlib.pyplot on the file-only Agg backend (no display needed)."""
    import matplotlib
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    return plt


class PlotReport(Extension):
    """Plots the means of ``y_keys`` over each ``trigger`` interval against
    ``x_key`` ('iteration' or 'epoch') into ``trainer.out/filename``
    ('plot.png'). ``postprocess(figure, axes, summary)`` may edit the plot.
    Does nothing (with a warning) without matplotlib."""

    def __init__(self, y_keys, x_key="iteration", trigger=(1, "epoch"), postprocess=None, filename=None, marker="x",
                 grid=True, *, file_name="plot.png"):
        if filename is None:
            filename = file_name
        matplotlib_available()
        self._x_key = x_key
        if isinstance(y_keys, str):
            y_keys = (y_keys,)
        self._y_keys = y_keys
        self._trigger = get_trigger(trigger)
        self._file_name = filename
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._summary = reporter.DictSummary()
        self._data = {k: [] for k in y_keys}

    @staticmethod
    def available():
        return matplotlib_available()

    def __call__(self, trainer):
        if not self.available():
            return
        keys = self._y_keys
        observation = trainer.observation
        summary = self._summary
        summary.add({k: observation[k] for k in keys if k in observation})
        if not (trainer.is_before_training or self._trigger(trainer)):
            return
        stats = {name: float(value) for name, value in summary.compute_mean().items()}
        stats["epoch"] = trainer.updater.epoch
        stats["iteration"] = trainer.updater.iteration
        x = stats[self._x_key]
        for k in keys:
            if k in stats:
                self._data[k].append((x, stats[k]))
        plt = pyplot()
        fig = plt.figure()
        ax = fig.add_subplot(111)
        ax.set_xlabel(self._x_key)
        if self._grid:
            ax.grid()
        for k in keys:
            if self._data[k]:
                xy = numpy.array(self._data[k])
                ax.plot(xy[:, 0], xy[:, 1], marker=self._marker, label=k)
        if ax.has_data():
            if self._postprocess is not None:
                self._postprocess(fig, ax, summary)
            legend = ax.legend(bbox_to_anchor=(1.05, 1), loc=2, borderaxespad=0.0)
            fig.savefig(os.path.join(trainer.out, self._file_name), bbox_extra_artists=(legend,),
                        bbox_inches="tight")
        plt.close(fig)
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        key = "_plot_{}".format(self._file_name)
        if isinstance(serializer, serializer_module.Serializer):
            serializer(key, json.dumps(self._data))
        else:
            self._data = json.loads(str(serializer(key, "")))
