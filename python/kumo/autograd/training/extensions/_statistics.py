"""ParameterStatistics and VariableStatisticsPlot: statistics of parameters
and gradients, computed on the arrays' device."""
import os

import numpy

from kumo import _creation
from kumo import _interop
from kumo import _manipulation
from kumo import _reductions
from kumo import _statistics
from kumo import _ufuncs as uf
from kumo.autograd import reporter
from kumo.autograd._variable import Variable
from kumo.autograd.training._extension import Extension, PRIORITY_WRITER
from kumo.autograd.training.extensions._plot_report import matplotlib_available, pyplot
from kumo.autograd.training.triggers import get_trigger

_PERCENTILE_SIGMAS = (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)  # the normal's -3..3 sigma points

_default_statistics = {
    "mean": lambda x: _reductions.mean(x),
    "std": lambda x: _reductions.std(x),
    "min": lambda x: _reductions.min(x),
    "max": lambda x: _reductions.max(x),
    "zeros": lambda x: _reductions.count_nonzero(x == 0),
    "percentile": lambda x: _statistics.percentile(x, _PERCENTILE_SIGMAS),
}


class ParameterStatistics(Extension):
    """Reports statistics (mean, std, min, max, zeros, percentiles by
    default; ``statistics`` maps names to functions of a 1-D array) of each
    parameter's data and/or gradient of ``links``, averaged over the
    ``trigger`` interval, under '{prefix/}{link name}{param name}/{data|grad}/{statistic}'."""

    default_name = "parameter_statistics"
    priority = PRIORITY_WRITER
    report_key_template = "{prefix}{link_name}{param_name}/{attr_name}/{function_name}"
    default_statistics = _default_statistics

    def __init__(self, links, statistics="default", report_params=True, report_grads=True, prefix=None,
                 trigger=(1, "epoch"), skip_nan_params=False):
        if not isinstance(links, (list, tuple)):
            links = (links,)
        self._links = links
        if statistics is None:
            statistics = {}
        elif isinstance(statistics, str) and statistics == "default":
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        self._attrs = (["data"] if report_params else []) + (["grad"] if report_grads else [])
        self._prefix = prefix
        self._trigger = get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer):
        statistics = {}
        for link in self._links:
            link_name = getattr(link, "name", "None")
            for param_name, param in link.namedparams():
                for attr_name in self._attrs:
                    array = param.array if attr_name == "data" else param.grad
                    if array is None:
                        continue
                    flat = _manipulation.ravel(_creation.asarray(array))
                    has_nan = self._skip_nan_params and bool(uf.isnan(flat).any())
                    for function_name, function in self._statistics.items():
                        value = numpy.nan if has_nan else function(flat)
                        key = self.report_key_template.format(
                            prefix=self._prefix + "/" if self._prefix else "", link_name=link_name,
                            param_name=param_name, attr_name=attr_name, function_name=function_name)
                        if getattr(value, "size", 1) > 1:
                            statistics.update({"{}/{}".format(key, i): v for i, v in enumerate(value)})
                        else:
                            statistics[key] = value
        self._summary.add(statistics)
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def register_statistics(self, name, function):
        """Adds a statistic ``function`` (of a 1-D array) reported as ``name``."""
        self._statistics[name] = function


def _variables(x):
    """The Variables of ``x``: a Variable, a link (its params) or a list of them."""
    if isinstance(x, Variable):
        return (x,)
    if isinstance(x, (list, tuple)):
        out = ()
        for item in x:
            out += _variables(item)
        return out
    if hasattr(x, "params"):
        return tuple(x.params())
    return ()


class Reservoir:
    """A uniform random sample of at most ``size`` of the rows added
    (reservoir sampling), kept with their indices."""

    def __init__(self, size, data_shape, dtype=numpy.float32):
        self.size = size
        self.data = numpy.zeros((size,) + data_shape, dtype=dtype)
        self.idxs = numpy.zeros((size,), dtype=numpy.int32)
        self.counter = 0

    def add(self, x, idx=None):
        if self.counter < self.size:
            self.data[self.counter] = x
            self.idxs[self.counter] = idx or self.counter
        elif numpy.random.random() < self.size / float(self.counter + 1):
            i = numpy.random.randint(self.size)
            self.data[i] = x
            self.idxs[i] = idx or self.counter
        self.counter += 1

    def get_data(self):
        idxs = self.idxs[:min(self.counter, self.size)]
        order = numpy.argsort(idxs)
        return idxs[order], self.data[order]


class VariableStatisticsPlot(Extension):
    """Samples, at every call, the mean, std and percentiles of the data
    and gradients of ``targets`` (Variables or links), and plots them
    against the iteration into ``trainer.out/filename``
    ('statistics.png') when ``trigger`` fires (needs matplotlib)."""

    def __init__(self, targets, max_sample_size=1000, report_data=True, report_grad=True, plot_mean=True,
                 plot_std=True, percentile_sigmas=(0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100),
                 trigger=(1, "epoch"), filename=None, figsize=None, marker=None, grid=True, *,
                 file_name="statistics.png"):
        self._vars = _variables(targets)
        if not self._vars:
            raise ValueError("Need at least one variables for which to collect statistics.\nActual: 0 <= 0")
        if not any((plot_mean, plot_std, bool(percentile_sigmas))):
            raise ValueError("Nothing to plot")
        self._keys = (["data"] if report_data else []) + (["grad"] if report_grad else [])
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._percentiles = percentile_sigmas
        self._plot_percentile = bool(percentile_sigmas)
        self._trigger = get_trigger(trigger)
        self._filename = file_name if filename is None else filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        if not self._plot_percentile:
            n_percentile = 0
        elif not isinstance(percentile_sigmas, (list, tuple)):
            n_percentile = 1
        else:
            n_percentile = len(percentile_sigmas)
        self._data_shape = (len(self._keys), int(plot_mean) + int(plot_std) + n_percentile)
        self._samples = Reservoir(max_sample_size, data_shape=self._data_shape)

    @staticmethod
    def available():
        return matplotlib_available()

    def _stats(self):
        stats = numpy.zeros(self._data_shape, dtype=numpy.float32)
        for i, key in enumerate(self._keys):
            arrays = [getattr(v, "array" if key == "data" else "grad") for v in self._vars]
            arrays = [_manipulation.ravel(a) for a in arrays if a is not None]
            if not arrays:
                continue
            x = _manipulation.concatenate(arrays)
            row = []
            if self._plot_mean:
                row.append(_manipulation.atleast_1d(_reductions.mean(x)))
            if self._plot_std:
                row.append(_manipulation.atleast_1d(_reductions.std(x)))
            if self._plot_percentile:
                row.append(_manipulation.atleast_1d(_statistics.percentile(x, self._percentiles)))
            # one small copy to the host per call
            stats[i] = _interop.asnumpy(_manipulation.concatenate([r.astype(numpy.float32) for r in row]))
        return stats

    def __call__(self, trainer):
        if not self.available():
            return
        self._samples.add(self._stats(), idx=trainer.updater.iteration)
        if self._trigger(trainer):
            self.save_plot_using_module(os.path.join(trainer.out, self._filename), pyplot())

    def save_plot_using_module(self, file_path, plt):
        import matplotlib.colors
        color = matplotlib.colors.to_rgba("#1f77b4")
        color_trans = color[:3] + (0.2,)
        nrows = int(self._plot_mean or self._plot_std) + int(self._plot_percentile)
        ncols = len(self._keys)
        fig, axes = plt.subplots(nrows, ncols, figsize=self._figsize, sharex=True, squeeze=False)
        idxs, data = self._samples.get_data()
        offset = int(self._plot_mean) + int(self._plot_std)
        n_percentile = data.shape[-1] - offset
        half, odd = n_percentile // 2, n_percentile % 2 == 1
        for col in range(ncols):
            row = 0
            ax = axes[row, col]
            ax.set_title(self._keys[col])
            if self._plot_mean or self._plot_std:
                if self._plot_mean and self._plot_std:
                    ax.errorbar(idxs, data[:, col, 0], data[:, col, 1], color=color, ecolor=color_trans,
                                label="mean, std", marker=self._marker)
                else:
                    ax.plot(idxs, data[:, col, 0], color=color, label="mean" if self._plot_mean else "std",
                            marker=self._marker)
                row += 1
            if self._plot_percentile:
                ax = axes[row, col]
                # symmetric percentile pairs as bands, the middle one (odd count) as a line
                for i in range(half + 1):
                    if odd and i == half:
                        ax.plot(idxs, data[:, col, offset + i], color=color, label="percentile", marker=self._marker)
                    else:
                        ax.fill_between(idxs, data[:, col, offset + i], data[:, col, -i - 1],
                                        label="percentile" if i == half else "_nolegend_", alpha=0.2, linewidth=0,
                                        color=color_trans)
                ax.set_xlabel("iteration")
        for ax in axes.ravel():
            ax.legend()
            if self._grid:
                ax.grid()
                ax.set_axisbelow(True)
        fig.savefig(file_path)
        plt.close(fig)
