"""kumo.autograd.training.extensions with stand-in link / optimizer objects
(expected schedules were checked against Chainer 7.8.1)."""
import io
import json
import os

import numpy
import pytest

import kumo
from _train_standins import SGD, Regressor, regression_data
from kumo import autograd
from kumo.autograd import iterators, reporter, training
from kumo.autograd.serializers import DictionarySerializer, NpzDeserializer, load_npz
from kumo.autograd.training import extensions as E


def make_trainer(tmp_path, stop=(2, "epoch"), n=32, batch_size=8, lr=0.1):
    model = Regressor()
    opt = SGD(lr).setup(model)
    it = iterators.SerialIterator(regression_data(n), batch_size, shuffle=False)
    trainer = training.Trainer(training.StandardUpdater(it, opt), stop, out=str(tmp_path / "result"))
    return trainer, model, opt


def record_losses(trainer, key="main/loss"):
    seen = []

    @training.make_extension(trigger=(1, "iteration"), priority=training.PRIORITY_WRITER + 1)
    def rec(tr):
        seen.append(float(tr.observation[key].array))

    trainer.extend(rec)
    return seen


# ---- LogReport / PrintReport / ProgressBar ---------------------------------------------------------------------

def test_log_report_file_and_means(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(3, "epoch"))
    seen = record_losses(trainer)
    trainer.extend(E.LogReport())
    trainer.run()
    with open(os.path.join(trainer.out, "log")) as f:
        log = json.load(f)
    assert log == trainer.get_extension("LogReport").log
    assert [e["epoch"] for e in log] == [1, 2, 3]
    assert [e["iteration"] for e in log] == [4, 8, 12]
    for i, entry in enumerate(log):
        assert set(entry) == {"main/loss", "main/abs_error", "epoch", "iteration", "elapsed_time"}
        assert entry["main/loss"] == pytest.approx(numpy.mean(seen[4 * i:4 * i + 4]), rel=1e-6)
    assert all(isinstance(e["main/loss"], float) for e in log)


def test_log_report_keys_postprocess_filename(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(4, "iteration"))

    def post(entry):
        entry["twice"] = 2 * entry["main/loss"]

    trainer.extend(E.LogReport(keys=["main/loss"], trigger=(2, "iteration"), postprocess=post,
                               filename="log_{iteration}"))
    trainer.run()
    log = trainer.get_extension("LogReport").log
    assert [e["iteration"] for e in log] == [2, 4]
    assert "main/abs_error" not in log[0] and log[0]["twice"] == 2 * log[0]["main/loss"]
    assert os.path.exists(os.path.join(trainer.out, "log_2")) and os.path.exists(os.path.join(trainer.out, "log_4"))


def test_log_report_no_file(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(1, "epoch"))
    trainer.extend(E.LogReport(filename=None, log_name=None))  # filename=None alone means 'log' (Chainer)
    trainer.run()
    assert os.listdir(trainer.out) == []
    assert len(trainer.get_extension("LogReport").log) == 1


def test_log_report_serialize_round_trip(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, "epoch"))
    trainer.extend(E.LogReport())
    trainer.run()
    s = DictionarySerializer()
    trainer.get_extension("LogReport").serialize(s)
    fresh = E.LogReport()
    fresh.serialize(NpzDeserializer(s.target))
    assert fresh.log == trainer.get_extension("LogReport").log


def test_print_report(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, "epoch"))
    out = io.StringIO()
    trainer.extend(E.LogReport())
    trainer.extend(E.PrintReport(["epoch", "main/loss", "missing"], out=out))
    trainer.run()
    lines = out.getvalue().replace("\x1b[J", "").splitlines()
    assert lines[0].split() == ["epoch", "main/loss", "missing"]
    assert len(lines) == 3
    log = trainer.get_extension("LogReport").log
    for line, entry in zip(lines[1:], log):
        fields = line.split()
        assert fields[0] == str(entry["epoch"]) and float(fields[1]) == pytest.approx(entry["main/loss"], rel=1e-5)
        assert len(fields) == 2


def test_print_report_bad_log_report_type(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(1, "iteration"))
    trainer.extend(E.PrintReport(["epoch"], log_report=3, out=io.StringIO()), trigger=(1, "iteration"))
    with pytest.raises(TypeError):
        trainer.run(show_loop_exception_msg=False)


def test_progress_bar(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(3, "epoch"))
    out = io.StringIO()
    trainer.extend(E.ProgressBar(update_interval=4, out=out))
    trainer.run()
    text = out.getvalue()
    assert text.count("     total [") == 3  # at iterations 4, 8 and 12 only
    assert "100.00%" in text and "12 iter, 3 epoch / 3 epochs" in text


# ---- snapshots ----------------------------------------------------------------------------------------------

def test_snapshot_filename_template(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, "epoch"))
    trainer.extend(E.snapshot())
    trainer.extend(E.snapshot(filename="snap_epoch_{.updater.epoch}"), trigger=(1, "epoch"))
    trainer.run()
    names = set(os.listdir(trainer.out))
    assert {"snapshot_iter_4", "snapshot_iter_8", "snap_epoch_1", "snap_epoch_2"} <= names
    assert not any(n.startswith("tmp") for n in names)


def test_snapshot_object_holds_model_only(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(1, "epoch"))
    trainer.extend(E.snapshot_object(model, "model_{.updater.iteration}.npz"))
    trainer.run()
    with kumo.load(os.path.join(trainer.out, "model_4.npz")) as f:
        assert list(f.keys()) == ["w"]
        numpy.testing.assert_array_equal(kumo.asnumpy(f["w"]), kumo.asnumpy(model.w.array))
    fresh = Regressor(seed=9)
    load_npz(os.path.join(trainer.out, "model_4.npz"), fresh)
    numpy.testing.assert_array_equal(kumo.asnumpy(fresh.w.array), kumo.asnumpy(model.w.array))


def test_snapshot_n_retains(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(5, "iteration"))
    trainer.extend(E.snapshot(n_retains=2), trigger=(1, "iteration"))
    trainer.run()
    assert sorted(n for n in os.listdir(trainer.out) if n.startswith("snapshot")) == ["snapshot_iter_4",
                                                                                        "snapshot_iter_5"]


def test_snapshot_custom_savefun_and_callable_filename(tmp_path):
    calls = []

    def savefun(path, target):
        calls.append(sorted(target))
        with open(path, "w") as f:
            f.write("x")

    trainer, _, _ = make_trainer(tmp_path, stop=(1, "epoch"))
    trainer.extend(E.snapshot(savefun=savefun, filename=lambda tr: "s%d" % tr.updater.iteration))
    trainer.run()
    assert os.path.exists(os.path.join(trainer.out, "s4"))
    assert "updater/model:main/w" in calls[0]


def test_snapshot_savefun_and_writer_conflict():
    with pytest.raises(TypeError):
        E.snapshot(savefun=lambda p, t: None, writer=lambda f, o, t: None)


def test_snapshot_on_error(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(10, "epoch"))

    def boom(tr):
        if tr.updater.iteration == 3:
            raise ValueError("stop")

    trainer.extend(boom, name="boom")
    trainer.extend(E.snapshot(snapshot_on_error=True))
    with pytest.raises(ValueError):
        trainer.run(show_loop_exception_msg=False)
    assert os.path.exists(os.path.join(trainer.out, "snapshot_iter_3"))


def test_snapshot_autoload(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(2, "epoch"))
    trainer.extend(E.snapshot(), trigger=(1, "epoch"))
    trainer.run()
    again, model2, opt2 = make_trainer(tmp_path, stop=(3, "epoch"))
    again.extend(E.snapshot(autoload=True), trigger=(1, "epoch"))
    again.run()
    assert again.updater.iteration == 12 and opt2.t == 12


# ---- Evaluator ----------------------------------------------------------------------------------------------

def _manual_eval(model, data, batch_size):
    w = kumo.asnumpy(model.w.array).astype(numpy.float64)
    losses = []
    for i in range(0, len(data), batch_size):
        x = numpy.stack([d[0] for d in data[i:i + batch_size]]).astype(numpy.float64)
        t = numpy.stack([d[1] for d in data[i:i + batch_size]]).astype(numpy.float64)
        losses.append(numpy.mean((x @ w - t) ** 2))
    return numpy.mean(losses)


def test_evaluator_against_manual(tmp_path):
    data = regression_data(20, seed=5)
    model = Regressor(seed=2)
    ev = E.Evaluator(iterators.SerialIterator(data, 5, repeat=False, shuffle=False), model)
    ev.name = "validation"
    obs = {}
    with reporter.Reporter().scope(obs):
        result = ev()
    assert set(result) == {"validation/main/loss", "validation/main/abs_error"}
    assert float(result["validation/main/loss"]) == pytest.approx(_manual_eval(model, data, 5), rel=1e-5)
    assert obs == result
    # the iterator is reset: a second pass gives the same
    with reporter.Reporter().scope({}):
        again = ev()
    assert float(again["validation/main/loss"]) == pytest.approx(float(result["validation/main/loss"]))


def test_evaluator_mode_and_eval_func():
    data = regression_data(8)
    model = Regressor()
    seen = []

    def eval_func(x, t):
        seen.append((autograd.config.train, autograd.is_backprop_enabled()))
        reporter.report({"n": float(x.shape[0])})

    ev = E.Evaluator(iterators.SerialIterator(data, 4, repeat=False, shuffle=False), model, eval_func=eval_func)
    with reporter.Reporter().scope({}):
        result = ev()
    assert seen == [(False, False)] * 2
    assert float(result["n"]) == 4.0
    assert autograd.config.train


def test_evaluator_in_trainer(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(2, "epoch"))
    val = regression_data(12, seed=4)
    trainer.extend(E.Evaluator(iterators.SerialIterator(val, 4, repeat=False, shuffle=False), model))
    trainer.extend(E.LogReport())
    trainer.run()
    log = trainer.get_extension("LogReport").log
    assert trainer.get_extension("validation") is not None
    assert log[-1]["validation/main/loss"] == pytest.approx(_manual_eval(model, val, 4), rel=1e-5)


# ---- observe_value / FailOnNonNumber / MicroAverage ---------------------------------------------------------

def test_observe_lr_and_value(tmp_path):
    trainer, _, opt = make_trainer(tmp_path, stop=(2, "epoch"), lr=0.25)
    trainer.extend(E.observe_lr())
    trainer.extend(E.observe_value("it", lambda tr: tr.updater.iteration))
    trainer.extend(E.LogReport())
    trainer.run()
    log = trainer.get_extension("LogReport").log
    assert [e["lr"] for e in log] == [0.25, 0.25]
    assert [e["it"] for e in log] == [4, 8]


def test_fail_on_non_number(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(3, "iteration"))
    trainer.extend(E.FailOnNonNumber())

    def poison(tr):
        if tr.updater.iteration == 2:
            model.w.array[0, 0] = numpy.nan

    trainer.extend(poison, name="poison", priority=training.PRIORITY_WRITER)
    with pytest.raises(RuntimeError, match="diverge"):
        trainer.run(show_loop_exception_msg=False)
    assert trainer.updater.iteration == 2


def test_micro_average(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(4, "iteration"))
    counts = {1: (1, 4), 2: (3, 4), 3: (2, 2), 4: (0, 6)}

    @training.make_extension(trigger=(1, "iteration"), priority=training.PRIORITY_WRITER)
    def fill(tr):
        c, n = counts[tr.updater.iteration]
        tr.observation["correct"], tr.observation["total"] = c, n

    trainer.extend(fill)
    trainer.extend(E.MicroAverage("correct", "total", "acc", trigger=(2, "iteration")))
    trainer.extend(E.LogReport(keys=["acc"], trigger=(2, "iteration")))
    trainer.run()
    assert [e["acc"] for e in trainer.get_extension("LogReport").log] == [0.5, 0.25]


# ---- schedules ----------------------------------------------------------------------------------------------

class _Opt:
    lr = 0.1


class _ShiftTrainer:
    def __init__(self, opt):
        self.updater = self
        self._opt = opt

    def get_optimizer(self, name):
        return self._opt


def schedule(ext, n=6):
    opt = _Opt()
    trainer = _ShiftTrainer(opt)
    ext.initialize(trainer)
    values = [opt.lr]
    for _ in range(n):
        ext(trainer)
        values.append(opt.lr)
    return [round(float(v), 12) for v in values]


SCHEDULES = {
    "exp": (lambda: E.ExponentialShift("lr", 0.5), [0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.0015625]),
    "exp_target": (lambda: E.ExponentialShift("lr", 0.5, init=0.2, target=0.03),
                   [0.2, 0.1, 0.05, 0.03, 0.03, 0.03, 0.03]),
    "exp_up": (lambda: E.ExponentialShift("lr", 2.0, target=0.5), [0.1, 0.2, 0.4, 0.5, 0.5, 0.5, 0.5]),
    "inv": (lambda: E.InverseShift("lr", 0.5, 2.0),
            [0.1, 0.044444444444, 0.025, 0.016, 0.011111111111, 0.008163265306, 0.00625]),
    "step": (lambda: E.StepShift("lr", 0.1, 2), [0.1, 0.1, 0.01, 0.01, 0.001, 0.001, 0.0001]),
    "step_target": (lambda: E.StepShift("lr", 0.1, 2, target=0.005), [0.1, 0.1, 0.01, 0.01, 0.005, 0.005, 0.005]),
    "poly": (lambda: E.PolynomialShift("lr", 2.0, 4), [0.1, 0.05625, 0.025, 0.00625, 0.0, 0.0, 0.0]),
    "poly_target": (lambda: E.PolynomialShift("lr", 0.5, 8, target=0.05),
                    [0.1, 0.093541434669, 0.086602540378, 0.079056941504, 0.070710678119, 0.06123724357, 0.05]),
    "lin": (lambda: E.LinearShift("lr", (1.0, 0.2), (1, 5)), [1.0, 1.0, 0.8, 0.6, 0.4, 0.2, 0.2]),
    "warm": (lambda: E.WarmupShift("lr", 0.01, 4, 0.1), [0.01, 0.0325, 0.055, 0.0775, 0.1, 0.1, 0.1]),
    "multi": (lambda: E.MultistepShift("lr", 0.1, [2, 4, 5], 0.5), [0.5, 0.5, 0.05, 0.05, 0.005, 0.0005, 0.0005]),
}


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedule_values(name):
    make, expected = SCHEDULES[name]
    assert schedule(make()) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_polynomial_shift_target_past_max_count():
    # Chainer divides by zero here; the target is simply kept
    assert schedule(E.PolynomialShift("lr", 0.5, 4, target=0.05))[-1] == 0.05


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedule_resume(name):
    make, expected = SCHEDULES[name]
    first = make()
    opt = _Opt()
    trainer = _ShiftTrainer(opt)
    first.initialize(trainer)
    for _ in range(3):
        first(trainer)
    s = DictionarySerializer()
    first.serialize(s)
    resumed = make()
    resumed.serialize(NpzDeserializer(s.target))
    opt2 = _Opt()
    trainer2 = _ShiftTrainer(opt2)
    resumed.initialize(trainer2)
    values = [opt2.lr]
    for _ in range(3):
        resumed(trainer2)
        values.append(opt2.lr)
    if name not in ("warm", "multi"):  # these two do not save the last value (as in Chainer)
        assert values[0] == pytest.approx(expected[3])
    assert values[1:] == pytest.approx(expected[4:], rel=1e-9, abs=1e-12)


def test_exponential_shift_negative_rate():
    with pytest.raises(ValueError):
        E.ExponentialShift("lr", -1.0)


def test_exports():
    assert set(E.__all__) >= {"Evaluator", "LogReport", "PrintReport", "ProgressBar", "snapshot", "snapshot_object",
                              "observe_lr", "observe_value", "FailOnNonNumber", "MicroAverage", "ExponentialShift",
                              "LinearShift", "StepShift", "PolynomialShift", "WarmupShift", "MultistepShift"}


# ---- PlotReport / ParameterStatistics / VariableStatisticsPlot --------------------------------------------

def _is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_plot_report_writes_png(tmp_path):
    pytest.importorskip("matplotlib")
    trainer, _, _ = make_trainer(tmp_path, stop=(3, "epoch"))
    plot = E.PlotReport(["main/loss", "main/abs_error"], x_key="epoch", filename="loss.png")
    trainer.extend(plot)
    trainer.run()
    assert _is_png(os.path.join(trainer.out, "loss.png"))
    s = DictionarySerializer()
    plot.serialize(s)
    data = json.loads(str(s.target["_plot_loss.png"]))
    assert [x for x, _ in data["main/loss"]] == [1, 2, 3]
    fresh = E.PlotReport(["main/loss", "main/abs_error"], x_key="epoch", filename="loss.png")
    fresh.serialize(NpzDeserializer(s.target))
    assert fresh._data == data


def test_parameter_statistics_values(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(1, "iteration"))
    model.name = "m"
    seen = {}

    @training.make_extension(trigger=(1, "iteration"), priority=training.PRIORITY_READER)
    def grab(tr):
        seen.update(tr.observation)

    trainer.extend(E.ParameterStatistics(model, trigger=(1, "iteration"), prefix="p"))
    trainer.extend(grab)
    trainer.run()
    w = kumo.asnumpy(model.w.array).ravel()
    g = kumo.asnumpy(model.w.grad).ravel()
    for attr, ref in (("data", w), ("grad", g)):
        assert float(seen["p/m/w/%s/mean" % attr]) == pytest.approx(ref.mean(), rel=1e-5)
        assert float(seen["p/m/w/%s/std" % attr]) == pytest.approx(ref.std(), rel=1e-5)
        assert float(seen["p/m/w/%s/min" % attr]) == ref.min()
        assert float(seen["p/m/w/%s/max" % attr]) == ref.max()
        assert float(seen["p/m/w/%s/zeros" % attr]) == numpy.count_nonzero(ref == 0)
        pct = numpy.percentile(ref, (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87))
        for i in range(7):
            assert float(seen["p/m/w/%s/percentile/%d" % (attr, i)]) == pytest.approx(pct[i], rel=1e-5)


def test_parameter_statistics_custom_and_skip_nan(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(1, "iteration"))
    model.name = "m"
    ext = E.ParameterStatistics([model], statistics={"sum": lambda x: kumo.sum(x)}, report_grads=False,
                                trigger=(1, "iteration"), skip_nan_params=True)
    ext.register_statistics("n", lambda x: x.size)
    obs = {}
    model.w.array[0, 0] = numpy.nan
    with reporter.Reporter().scope(obs):
        ext(trainer)  # trigger sees iteration 0 -> no fire yet
        trainer.updater.iteration = 1
        ext(trainer)
    assert set(obs) == {"m/w/data/sum", "m/w/data/n"}
    assert numpy.isnan(float(obs["m/w/data/sum"])) and numpy.isnan(float(obs["m/w/data/n"]))


def test_variable_statistics_plot(tmp_path):
    pytest.importorskip("matplotlib")
    trainer, model, _ = make_trainer(tmp_path, stop=(2, "epoch"))
    trainer.extend(E.VariableStatisticsPlot(model, trigger=(1, "epoch")), trigger=(1, "iteration"))
    trainer.run()
    assert _is_png(os.path.join(trainer.out, "statistics.png"))


def test_variable_statistics_plot_errors():
    with pytest.raises(ValueError):
        E.VariableStatisticsPlot([])
    with pytest.raises(ValueError):
        E.VariableStatisticsPlot(Regressor(), plot_mean=False, plot_std=False, percentile_sigmas=())


# ---- DumpGraph / computational_graph ------------------------------------------------------------------------

def _dot_parts(text):
    assert text.startswith("digraph graphname{rankdir=TB;") and text.endswith("}")
    body = text[len("digraph graphname{rankdir=TB;"):-1]
    stmts = [s for s in body.split(";") if s]
    nodes = {}
    edges = []
    for s in stmts:
        if "->" in s:
            a, b = s.split(" -> ")
            edges.append((int(a), int(b)))
        else:
            idx, attrs = s.split(" [", 1)
            nodes[int(idx)] = dict(kv.split("=", 1) for kv in attrs.rstrip("]").split('",'))
    return nodes, edges


def _label(attrs):
    return attrs["label"].strip('"')


def test_build_computational_graph_dot():
    from kumo.autograd import computational_graph as C
    x = autograd.Variable(kumo.ones((2, 3), dtype=numpy.float32))
    x.name = "x"
    w = autograd.Variable(kumo.ones((3, 1), dtype=numpy.float32))
    y = autograd.functions.sum(autograd.functions.matmul(x, w))
    g = C.build_computational_graph([y])
    nodes, edges = _dot_parts(g.dump())
    labels = {i: _label(a) for i, a in nodes.items()}
    by_label = {v: k for k, v in labels.items()}
    assert set(labels.values()) == {"float32", "MatMul", "Sum", "x: (2, 3), float32", "(3, 1), float32",
                                    "(2, 1), float32"}
    assert (by_label["x: (2, 3), float32"], by_label["MatMul"]) in edges
    assert (by_label["(3, 1), float32"], by_label["MatMul"]) in edges
    assert (by_label["MatMul"], by_label["(2, 1), float32"]) in edges
    assert (by_label["(2, 1), float32"], by_label["Sum"]) in edges
    assert (by_label["Sum"], by_label["float32"]) in edges
    assert len(edges) == 5
    assert 'shape="octagon"' in g.dump() and 'shape="record"' in g.dump()


def test_build_computational_graph_remove_variable_and_errors():
    from kumo.autograd import computational_graph as C
    x = autograd.Variable(kumo.ones((2,), dtype=numpy.float32))
    y = autograd.functions.sum(x * x)
    g = C.build_computational_graph(y, remove_variable=True)
    assert all(isinstance(n, C.FunctionNode) for n in g.nodes)
    assert [(a.label, b.label) for a, b in g.edges] == [("Mul", "Sum")]
    with pytest.raises(NotImplementedError):
        g.dump("png")
    with pytest.raises(ValueError):
        C.build_computational_graph(y, rankdir="XX")


def test_dump_graph(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(3, "iteration"))
    trainer.extend(E.DumpGraph("main/loss"))
    trainer.run()
    with open(os.path.join(trainer.out, "cg.dot")) as f:
        nodes, edges = _dot_parts(f.read())
    labels = [_label(a) for a in nodes.values()]
    assert "MatMul" in labels and "float32" in labels and "(8, 3), float32" in labels
    assert len(edges) >= 5
    assert not getattr(autograd.config, "keep_graph_on_report", False)
    from kumo.autograd import computational_graph
    assert computational_graph._captured == {}


def test_dump_graph_root_not_variable(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(1, "iteration"))
    trainer.extend(E.observe_value("v", lambda tr: 1.0), trigger=(1, "iteration"), priority=300)
    trainer.extend(E.DumpGraph("v"))
    with pytest.raises(TypeError):
        trainer.run(show_loop_exception_msg=False)


def test_thread_writer_snapshot(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(2, "epoch"))
    writer = E.snapshot_writers.ThreadWriter()
    trainer.extend(E.snapshot(writer=writer), trigger=(1, "epoch"))
    trainer.run()
    assert {"snapshot_iter_4", "snapshot_iter_8"} <= set(os.listdir(trainer.out))
    with kumo.load(os.path.join(trainer.out, "snapshot_iter_8")) as f:
        numpy.testing.assert_array_equal(kumo.asnumpy(f["updater/model:main/w"]), kumo.asnumpy(model.w.array))


def test_unchain_variables_after_dump_graph(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, "iteration"))
    calls = []
    ext = E.unchain_variables()
    trainer.extend(E.DumpGraph("main/loss"))
    original = E.unchain_variables.__call__

    def spy(self, tr):
        calls.append(tr.updater.iteration)
        original(self, tr)

    ext.__class__ = type("Spy", (E.unchain_variables,), {"__call__": spy})
    trainer.extend(ext)
    trainer.run()
    assert calls == [1]  # only after the iteration that kept the graph
    assert E.dump_graph is E.DumpGraph


def test_evaluator_progress_bar(capsys):
    data = regression_data(8)
    ev = E.Evaluator(iterators.SerialIterator(data, 4, repeat=False, shuffle=False), Regressor(), progress_bar=True)
    with reporter.Reporter().scope({}):
        ev()
    out = capsys.readouterr().out
    assert out.count("validation [") == 2 and "100.00%" in out


def test_micro_average_serialize_float_sums():
    m = E.MicroAverage("c", "t", "acc")
    m._numerator, m._denominator = 2.5, 4
    s = DictionarySerializer()
    m.serialize(s)
    fresh = E.MicroAverage("c", "t", "acc")
    fresh.serialize(NpzDeserializer(s.target))
    assert (float(fresh._numerator), int(fresh._denominator)) == (2.5, 4)


def test_evaluator_warns_on_repeating_iterator():
    with pytest.warns(UserWarning, match="repeat"):
        E.Evaluator(iterators.SerialIterator(regression_data(4), 2), Regressor())
