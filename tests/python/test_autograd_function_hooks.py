"""kumo.autograd.function_hooks: FunctionHook subclasses, TimerHook, PrintHook."""
import io
import threading

import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable
from kumo.autograd.function_hooks import FunctionHook, PrintHook, TimerHook


class Recorder(FunctionHook):
    def __init__(self):
        super().__init__()
        self.events = []

    def forward_preprocess(self, function, in_data):
        self.events.append(("f<", function.label, tuple(a.shape for a in in_data)))

    def forward_postprocess(self, function, in_data):
        self.events.append(("f>", function.label))

    def backward_preprocess(self, function, grad_outputs):
        self.events.append(("b<", function.label))

    def backward_postprocess(self, function, grad_outputs):
        self.events.append(("b>", function.label))


def _x():
    return Variable(kumo.asarray([0.5, -1.0, 2.0]))


def test_python_hook_sees_forward_with_input_shapes():
    x = _x()
    with Recorder() as rec:
        F.tanh(x)
    assert rec.events == [("f<", "Tanh", ((3,),)), ("f>", "Tanh")]


def test_python_hook_sees_backward_in_order():
    x = _x()
    y = F.tanh(x)
    with Recorder() as rec:
        F.sum(y).backward()
    labels = [e for e in rec.events if e[0] in ("b<", "b>")]
    assert labels == [("b<", "Sum"), ("b>", "Sum"), ("b<", "Tanh"), ("b>", "Tanh")]


def test_hook_inactive_after_with_block():
    x = _x()
    with Recorder() as rec:
        pass
    F.exp(x)
    assert rec.events == []


def test_hook_inactive_on_other_threads():
    x = _x()
    with Recorder() as rec:
        t = threading.Thread(target=lambda: F.exp(Variable(kumo.asarray([1.0]))))
        t.start()
        t.join()
    assert rec.events == []


def test_hook_exception_propagates():
    class Boom(FunctionHook):
        def forward_preprocess(self, function, in_data):
            raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        with Boom():
            F.exp(_x())


def test_timer_hook_summary_counts_calls():
    x = _x()
    with TimerHook() as timer:
        for _ in range(4):
            F.exp(x)
    summary = timer.summary()
    assert summary["Exp"]["occurrence"] == 4
    assert summary["Exp"]["elapsed_time"] >= 0
    assert len(timer.call_history) == 4
    assert timer.total_time() == pytest.approx(sum(t for _, t in timer.call_history))


def test_timer_hook_print_report():
    x = _x()
    with TimerHook() as timer:
        F.sum(F.exp(x)).backward()
    out = io.StringIO()
    timer.print_report(unit="ms", file=out)
    text = out.getvalue()
    assert "ElapsedTime(ms)" in text and "Exp" in text and "Sum" in text


def test_timer_hook_bad_unit_raises():
    with pytest.raises(ValueError):
        TimerHook().print_report(unit="hours", file=io.StringIO())


def test_print_hook_writes_inputs_and_gradients():
    out = io.StringIO()
    x = _x()
    with PrintHook(file=out):
        F.sum(x * 2.0).backward()
    text = out.getvalue()
    assert "function\tMul" in text
    assert "shape=(3,), dtype=float64" in text
    assert "(backward)" in text


def test_nested_hooks_both_run():
    x = _x()
    with TimerHook() as outer:
        with Recorder() as inner:
            F.exp(x)
    assert outer.summary()["Exp"]["occurrence"] == 1
    assert inner.events[0][1] == "Exp"
