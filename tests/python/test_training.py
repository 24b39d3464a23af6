"""Trainer and StandardUpdater (kumo.autograd.training) with stand-in
link / optimizer objects that follow Chainer's interfaces."""
import json
import os

import numpy
import pytest

import kumo
from _train_standins import SGD, Regressor, StateSeededSampler, regression_data
from kumo.autograd import iterators, reporter, training
from kumo.autograd.dataset import concat_examples, converter
from kumo.autograd.serializers import load_npz, serialize
from kumo.autograd.training import extensions


def make_trainer(tmp_path, stop=(2, "epoch"), batch_size=8, lr=0.1, shuffle=False, sampler=None, n=32, **kw):
    model = Regressor()
    opt = SGD(lr).setup(model)
    if sampler is not None:
        it = iterators.SerialIterator(regression_data(n), batch_size, order_sampler=sampler)
    else:
        it = iterators.SerialIterator(regression_data(n), batch_size, shuffle=shuffle)
    updater = training.updaters.StandardUpdater(it, opt, **kw)
    return training.Trainer(updater, stop, out=str(tmp_path / "result")), model, opt


def test_layout():
    assert training.StandardUpdater is training.updaters.StandardUpdater
    assert training.PRIORITY_WRITER > training.PRIORITY_EDITOR > training.PRIORITY_READER
    assert hasattr(training.extensions, "LogReport") and hasattr(training.triggers, "IntervalTrigger")
    assert training.extension.Extension is training.Extension
    assert training.trigger.get_trigger is training.util.get_trigger is training.get_trigger
    assert training.updater.StandardUpdater is training.StandardUpdater


def test_run_counts_and_out_dir(tmp_path):
    trainer, model, opt = make_trainer(tmp_path, stop=(3, "epoch"))
    trainer.run()
    assert os.path.isdir(trainer.out)
    assert trainer.updater.iteration == 12 and trainer.updater.epoch == 3
    assert opt.t == 12 and opt.epoch == 3  # new_epoch(auto=True) after each epoch
    assert opt.use_auto_new_epoch
    assert trainer.elapsed_time > 0


def test_updater_matches_manual_sgd(tmp_path):
    data = regression_data(32)
    trainer, model, _ = make_trainer(tmp_path, stop=(5, "iteration"))
    w = kumo.asnumpy(model.w.array).astype(numpy.float64)
    trainer.run()
    for i in range(5):
        batch = data[(i * 8) % 32:(i * 8) % 32 + 8]
        x = numpy.stack([b[0] for b in batch]).astype(numpy.float64)
        t = numpy.stack([b[1] for b in batch]).astype(numpy.float64)
        grad = 2 * x.T @ (x @ w - t) / t.size
        w = w - 0.1 * grad
    numpy.testing.assert_allclose(kumo.asnumpy(model.w.array), w, rtol=1e-4, atol=1e-5)


def test_loss_decreases_and_observed(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(10, "epoch"))
    seen = []
    trainer.extend(lambda tr: seen.append(float(tr.observation["main/loss"].array)), name="rec")
    trainer.run()
    assert len(seen) == 40
    assert seen[-1] < 0.1 * seen[0]


def test_loss_func_and_dict_converter(tmp_path):
    calls = []

    @converter()
    def to_dict(batch, device):
        x, t = concat_examples(batch, device)
        return {"x": x, "t": t}

    model = Regressor()

    def loss_func(x, t):
        calls.append((x.shape, t.shape))
        return model(x, t)

    opt = SGD().setup(model)
    it = iterators.SerialIterator(regression_data(16), 4, shuffle=False)
    updater = training.StandardUpdater(it, opt, converter=to_dict, loss_func=loss_func)
    training.Trainer(updater, (3, "iteration"), out=str(tmp_path)).run()
    assert calls == [((4, 3), (4, 1))] * 3


def test_plain_function_converter_gets_device_number(tmp_path):
    got = []

    def conv(batch, device):
        got.append(device)
        return concat_examples(batch)

    trainer, _, _ = make_trainer(tmp_path, stop=(1, "iteration"), converter=conv, device="cpu")
    trainer.run()
    assert got == [-1]


def test_updater_serialize_keys(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, "iteration"))
    trainer.run()
    keys = serialize(trainer.updater)
    assert keys["iteration"] == 2
    assert "optimizer:main/t" in keys and "model:main/w" in keys
    assert "iterator:main/current_position" in keys


def test_trainer_serialize_keys(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, "iteration"))
    trainer.extend(extensions.LogReport(trigger=(1, "iteration")))
    trainer.run()
    keys = serialize(trainer)
    assert "updater/iteration" in keys and "stop_trigger/previous_iteration" in keys
    assert "extensions/LogReport/_log" in keys
    assert "extension_triggers/LogReport/previous_iteration" in keys
    assert float(keys["_snapshot_elapsed_time"]) > 0


def test_extend_names():
    trainer = training.Trainer(_NullUpdater(), (1, "iteration"))

    def ext(tr):
        pass

    trainer.extend(ext)
    trainer.extend(ext)
    trainer.extend(extensions.LogReport())
    assert trainer.get_extension("ext") is ext
    assert ext.name == "ext_1"  # the attribute holds the last name given
    assert isinstance(trainer.get_extension("LogReport"), extensions.LogReport)
    with pytest.raises(ValueError):
        trainer.get_extension("missing")
    with pytest.raises(ValueError):
        trainer.extend(lambda tr: None, name="training")


def test_extension_order_triggers_and_hooks(tmp_path):
    trainer = training.Trainer(_NullUpdater(), (4, "iteration"), out=str(tmp_path))
    log = []

    @training.make_extension(trigger=(2, "iteration"), priority=training.PRIORITY_READER,
                             initializer=lambda tr: log.append("init"), finalizer=lambda: log.append("fin"))
    def reader(tr):
        log.append(("reader", tr.updater.iteration))

    class Writer(training.Extension):
        priority = training.PRIORITY_WRITER

        def __call__(self, tr):
            log.append(("writer", tr.updater.iteration))

    trainer.extend(reader)
    trainer.extend(Writer(), trigger=(2, "iteration"))
    trainer.run()
    assert log == ["init", ("writer", 2), ("reader", 2), ("writer", 4), ("reader", 4), "fin"]
    with pytest.raises(RuntimeError):
        trainer.run()


def test_call_before_training(tmp_path):
    trainer = training.Trainer(_NullUpdater(), (2, "iteration"), out=str(tmp_path))
    seen = []
    trainer.extend(lambda tr: seen.append(tr.updater.iteration), name="e", trigger=(10, "iteration"),
                   call_before_training=True)
    trainer.run()
    assert seen == [0]


def test_on_error_and_finalize(tmp_path, capsys):
    trainer = training.Trainer(_NullUpdater(), (5, "iteration"), out=str(tmp_path))
    log = []

    class Failing(training.Extension):
        def __call__(self, tr):
            if tr.updater.iteration == 2:
                raise ZeroDivisionError("boom")

        def on_error(self, tr, exc, tb):
            log.append(("on_error", type(exc).__name__))

        def finalize(self):
            log.append("finalize")

    trainer.extend(Failing())
    with pytest.raises(ZeroDivisionError):
        trainer.run()
    assert log == [("on_error", "ZeroDivisionError"), "finalize"]
    assert trainer.updater.finalized
    assert "Exception in main training loop: boom" in capsys.readouterr().err


def test_elapsed_time_before_run():
    with pytest.raises(RuntimeError):
        training.Trainer(_NullUpdater()).elapsed_time


def test_trainer_reporter_observers(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(1, "iteration"))
    obs = {}
    with trainer.reporter.scope(obs):
        reporter.report({"v": 1.0}, model)
    assert obs == {"main/v": 1.0}


class _NullUpdater(training.Updater):
    """Counts iterations only."""

    def __init__(self):
        self.iteration = 0
        self.epoch = 0
        self.epoch_detail = 0.0
        self.previous_epoch_detail = 0.0
        self.finalized = False

    def update(self):
        self.iteration += 1
        self.epoch_detail = self.iteration / 10

    def get_all_optimizers(self):
        return {}

    def finalize(self):
        self.finalized = True

    def serialize(self, serializer):
        self.iteration = serializer("iteration", self.iteration)


def _full_run(tmp_path, name, stop, snapshot_every=None, resume=None):
    model = Regressor(seed=3)
    opt = SGD(0.05).setup(model)
    it = iterators.SerialIterator(regression_data(20), 6, order_sampler=StateSeededSampler(7))
    updater = training.StandardUpdater(it, opt)
    trainer = training.Trainer(updater, stop, out=str(tmp_path / name))
    trainer.extend(extensions.LogReport(trigger=(1, "epoch")))
    trainer.extend(extensions.ExponentialShift("lr", 0.5), trigger=(2, "epoch"))
    if snapshot_every is not None:
        trainer.extend(extensions.snapshot(), trigger=snapshot_every)
    if resume is not None:
        load_npz(resume, trainer)
    trainer.run()
    return trainer, model, opt


@pytest.mark.parametrize("cut", [(3, "epoch"), (7, "iteration")])
def test_resume_matches_uninterrupted_run(tmp_path, cut):
    full, model_full, opt_full = _full_run(tmp_path, "full", (6, "epoch"))
    first, _, _ = _full_run(tmp_path, "first", cut, snapshot_every=cut)
    path = os.path.join(first.out, "snapshot_iter_%d" % first.updater.iteration)
    assert os.path.exists(path)
    resumed, model_res, opt_res = _full_run(tmp_path, "second", (6, "epoch"), resume=path)
    numpy.testing.assert_array_equal(kumo.asnumpy(model_res.w.array), kumo.asnumpy(model_full.w.array))
    assert resumed.updater.iteration == full.updater.iteration
    assert (opt_res.t, opt_res.epoch, opt_res.lr) == (opt_full.t, opt_full.epoch, opt_full.lr)
    log_full = full.get_extension("LogReport").log
    log_res = resumed.get_extension("LogReport").log
    assert [e["iteration"] for e in log_res] == [e["iteration"] for e in log_full]
    numpy.testing.assert_allclose([e["main/loss"] for e in log_res], [e["main/loss"] for e in log_full],
                                  rtol=1e-6)
    with open(os.path.join(resumed.out, "log")) as f:
        assert len(json.load(f)) == 6


def _half_grads(w, batch):
    grads = []
    for part in (batch[0::2], batch[1::2]):
        x = numpy.stack([b[0] for b in part]).astype(numpy.float64)
        t = numpy.stack([b[1] for b in part]).astype(numpy.float64)
        grads.append(2 * x.T @ (x @ w - t) / t.size)
    return grads[0] + grads[1]


@pytest.mark.parametrize("loss_scale", [None, 128.0])
@pytest.mark.parametrize("how", ["devices", "models"])
def test_parallel_updater_sums_shares(tmp_path, how, loss_scale):
    data = regression_data(16)
    model = Regressor()
    w = kumo.asnumpy(model.w.array).astype(numpy.float64)
    opt = SGD(0.05).setup(model)
    it = iterators.SerialIterator(data, 8, shuffle=False)
    if how == "devices":
        updater = training.ParallelUpdater(it, opt, devices={"main": "cpu", "second": "cpu"}, loss_scale=loss_scale)
    else:
        import copy
        updater = training.updaters.ParallelUpdater(it, opt, models={"main": model, "second": copy.deepcopy(model)},
                                                    loss_scale=loss_scale)
    trainer = training.Trainer(updater, (3, "iteration"), out=str(tmp_path))
    trainer.run()
    for i in range(3):
        batch = data[(i * 8) % 16:(i * 8) % 16 + 8]
        w = w - 0.05 * _half_grads(w, batch)
    numpy.testing.assert_allclose(kumo.asnumpy(model.w.array), w, rtol=1e-4, atol=1e-5)
    second = updater._models["second"]
    numpy.testing.assert_array_equal(kumo.asnumpy(second.w.array), kumo.asnumpy(model.w.array))
    assert opt.t == 3
    assert model.w._loss_scale == loss_scale


def test_parallel_updater_needs_models_or_devices():
    it = iterators.SerialIterator(regression_data(4), 2)
    opt = SGD().setup(Regressor())
    with pytest.raises(ValueError):
        training.ParallelUpdater(it, opt)
    with pytest.raises(KeyError):
        training.ParallelUpdater(it, opt, devices={"a": "cpu"})


@pytest.mark.skipif(not kumo.cuda.is_available(), reason="needs a CUDA device")
def test_updater_device_moves_model_and_batches(tmp_path):
    host, model_host, _ = make_trainer(tmp_path / "h", stop=(6, "iteration"))
    host.run()
    dev, model_dev, _ = make_trainer(tmp_path / "d", stop=(6, "iteration"), device="cuda:0")
    assert model_dev.w.array.device.type == "cuda"
    dev.run()
    assert dev.updater.device.type == "cuda"
    numpy.testing.assert_allclose(kumo.asnumpy(model_dev.w.array), kumo.asnumpy(model_host.w.array), rtol=1e-5,
                                  atol=1e-6)


# A run recorded with Chainer 7.8.1 (chainer.Link holding the same w, SGD(lr=0.05), the same data and
# extensions): the LogReport entries (without elapsed_time) and the final parameter.
_CHAINER_LOG = [
    {"epoch": 1, "iteration": 7, "lr": 0.042499999999999996, "main/abs_error": 1.8752176931926183,
     "main/loss": 5.27760078225817, "validation/main/abs_error": 1.6602278153101604,
     "validation/main/loss": 4.219509919484456},
    {"epoch": 2, "iteration": 14, "lr": 0.02975, "main/abs_error": 1.2440661447388786,
     "main/loss": 1.969983628817967, "validation/main/abs_error": 1.2519312302271526,
     "validation/main/loss": 2.258235732714335},
]
_CHAINER_W = [0.9377622008323669, 1.4042726755142212, 1.6349955797195435]


def test_run_matches_chainer_reference(tmp_path):
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal((24, 3)).astype(numpy.float32)
    t = (x @ numpy.arange(1, 4, dtype=numpy.float32).reshape(3, 1)
         + 0.01 * rng.standard_normal((24, 1))).astype(numpy.float32)
    data = [(x[i], t[i]) for i in range(24)]
    model = Regressor()
    model.w.array[...] = kumo.asarray(numpy.random.default_rng(0).standard_normal((3, 1)).astype(numpy.float32))
    opt = SGD(0.05).setup(model)
    it = iterators.SerialIterator(data, 5, shuffle=False)
    val = iterators.SerialIterator(data[:10], 4, repeat=False, shuffle=False)
    trainer = training.Trainer(training.StandardUpdater(it, opt), (4, "epoch"), out=str(tmp_path))
    trainer.extend(extensions.Evaluator(val, model))
    trainer.extend(extensions.LogReport(trigger=(7, "iteration")))
    trainer.extend(extensions.ExponentialShift("lr", 0.7), trigger=(1, "epoch"))
    trainer.extend(extensions.observe_lr(), trigger=(3, "iteration"))
    trainer.run()
    log = trainer.get_extension("LogReport").log
    assert len(log) == len(_CHAINER_LOG)
    for got, want in zip(log, _CHAINER_LOG):
        assert set(got) == set(want) | {"elapsed_time"}
        for key, value in want.items():
            assert got[key] == pytest.approx(value, rel=1e-5), key
    numpy.testing.assert_allclose(kumo.asnumpy(model.w.array).ravel(), _CHAINER_W, rtol=1e-5)


def test_updater_dicts_of_iterators_and_optimizers(tmp_path):
    model = Regressor()
    opt = SGD().setup(model)
    main = iterators.SerialIterator(regression_data(8), 4, shuffle=False)
    other = iterators.SerialIterator(regression_data(8), 2, shuffle=False)
    updater = training.StandardUpdater({"main": main, "other": other}, {"main": opt})
    assert updater.get_iterator("other") is other and updater.get_optimizer("main") is opt
    assert updater.get_all_optimizers() == {"main": opt}
    training.Trainer(updater, (1, "epoch"), out=str(tmp_path)).run()
    assert updater.iteration == 2 and updater.epoch == 1 and updater.is_new_epoch
    assert updater.epoch_detail == 1.0 and updater.previous_epoch_detail == 0.5
    keys = serialize(updater)
    assert "iterator:other/current_position" in keys
