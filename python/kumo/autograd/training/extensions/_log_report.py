"""LogReport and PrintReport."""
import json
import sys
import warnings

from kumo.autograd import reporter
from kumo.autograd import serializer as serializer_module
from kumo.autograd.training._extension import Extension
from kumo.autograd.training.extensions.snapshot_writers import write_atomically
from kumo.autograd.training.triggers import get_trigger


class LogReport(Extension):
    """Averages the observed scalars (``keys``, or all) over each interval
    of ``trigger`` and appends the means, with 'epoch', 'iteration' and
    'elapsed_time', to ``log`` (a list of dicts), written as a JSON list to
    ``trainer.out/filename`` ('log'; None: no file). ``postprocess(dict)``
    may edit each entry first."""

    def __init__(self, keys=None, trigger=(1, "epoch"), postprocess=None, filename=None, *, log_name="log"):
        self._keys = keys
        self._trigger = get_trigger(trigger)
        self._postprocess = postprocess
        self._log = []
        self._log_name = log_name if filename is None else filename
        self._summary = reporter.DictSummary()

    def __call__(self, trainer):
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({k: observation[k] for k in self._keys if k in observation})
        if not (trainer.is_before_training or self._trigger(trainer)):
            return
        entry = {name: float(value) for name, value in self._summary.compute_mean().items()}
        updater = trainer.updater
        entry["epoch"] = updater.epoch
        entry["iteration"] = updater.iteration
        entry["elapsed_time"] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)
        if self._log_name is not None:
            name = self._log_name.format(**entry)

            def dump(path):
                with open(path, "w") as f:
                    json.dump(self._log, f, indent=4)

            write_atomically(trainer.out, name, dump)
        self._summary = reporter.DictSummary()

    @property
    def log(self):
        """The list of entries written so far."""
        return self._log

    def serialize(self, serializer):
        if hasattr(self._trigger, "serialize"):
            self._trigger.serialize(serializer["_trigger"])
        try:
            self._summary.serialize(serializer["_summary"])
        except KeyError:
            warnings.warn("The statistics are not saved.")
        if isinstance(serializer, serializer_module.Serializer):
            serializer("_log", json.dumps(self._log))
        else:
            self._log = json.loads(str(serializer("_log", "")))


class PrintReport(Extension):
    """Prints the new entries of a LogReport (the extension named
    ``log_report``, or a LogReport object that this extension then calls)
    as a table of ``entries`` to ``out``."""

    def __init__(self, entries, log_report="LogReport", out=sys.stdout):
        self._entries = entries
        self._log_report = log_report
        self._out = out
        self._log_len = 0
        widths = [max(10, len(s)) for s in entries]
        self._header = "  ".join("{:%d}" % w for w in widths).format(*entries) + "\n"
        self._templates = [(entry, "{:<%dg}  " % w, " " * (w + 2)) for entry, w in zip(entries, widths)]

    def __call__(self, trainer):
        out = self._out
        if self._header:
            out.write(self._header)
            self._header = None
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, LogReport):
            log_report(trainer)
        else:
            raise TypeError("log report has a wrong type %s" % type(log_report))
        log = log_report.log
        while len(log) > self._log_len:
            out.write("\x1b[J")  # clears what a progress bar drew below the cursor
            self._print(log[self._log_len])
            self._log_len += 1

    def serialize(self, serializer):
        if isinstance(self._log_report, LogReport):
            self._log_report.serialize(serializer["_log_report"])

    def _print(self, observation):
        out = self._out
        for entry, template, empty in self._templates:
            out.write(template.format(observation[entry]) if entry in observation else empty)
        out.write("\n")
        if hasattr(out, "flush"):
            out.flush()
