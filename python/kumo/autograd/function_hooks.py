"""Function hooks (Chainer's chainer.function_hooks): callbacks around every
function's forward and backward on this thread, as context managers::

    from kumo.autograd.function_hooks import TimerHook
    with TimerHook() as timer:
        loss = model(x)
        loss.backward()
    timer.print_report()

Subclass FunctionHook and define any of forward_preprocess(function,
in_data), forward_postprocess(function, in_data),
backward_preprocess(function, grad_outputs) and
backward_postprocess(function, grad_outputs). The hooks run in the C++
engine (autograd/function_hook.h).
"""
import sys

from kumo import _core

_ag = _core.autograd


def _enter(self):
    scopes = self.__dict__.setdefault("_kumo_scopes", [])
    scopes.append(_ag._FunctionHookScope(self))
    return self


def _exit(self, *exc):
    self.__dict__["_kumo_scopes"].pop().close()
    return False


FunctionHook = _ag.FunctionHook
FunctionHook.__enter__ = _enter
FunctionHook.__exit__ = _exit


class TimerHook(_ag.TimerHook):
    """Times every function's forward and backward (device synchronized)."""

    name = "TimerHook"

    def print_report(self, unit="auto", file=sys.stdout):
        """A table of total time and calls per function; unit 'sec', 'ms',
        'us' or 'auto'."""
        file.write(self._report(unit))


class PrintHook(_ag.PrintHook):
    """Prints each function with its inputs (forward) and its outputs'
    gradients (backward): shape, dtype, device, mean and std."""

    name = "PrintHook"

    def __init__(self, sep=None, end="\n", file=sys.stdout, flush=True):
        def write(text):
            file.write(text)
            if flush and hasattr(file, "flush"):
                file.flush()

        super().__init__(write, "" if sep is None else sep, end)


__all__ = ["FunctionHook", "TimerHook", "PrintHook"]
