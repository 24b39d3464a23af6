"""kumo.autograd.training.triggers: the firing patterns of Chainer 7's
triggers (the expected iteration lists were checked against Chainer 7.8.1)."""

import pytest

from _train_standins import FakeTrainer
from kumo.autograd import training
from kumo.autograd.serializers import DictionarySerializer, NpzDeserializer
from kumo.autograd.training import triggers as T


def fires(trigger, trainer, n, values=None, key="main/loss", every=1):
    """The iterations (1-based) at which ``trigger`` fired when called after
    each update (or each ``every`` updates); ``values[i]`` is reported at iteration i + 1."""
    fired = []
    for i in range(n):
        trainer.updater.step()
        trainer.observation = {} if values is None else {key: values[i]}
        if trainer.updater.iteration % every == 0 and trigger(trainer):
            fired.append(trainer.updater.iteration)
    return fired


def round_trip(obj, fresh):
    s = DictionarySerializer()
    obj.serialize(s)
    fresh.serialize(NpzDeserializer(s.target))
    return fresh


@pytest.mark.parametrize("period,unit,per_epoch,n,expected", [
    (2, "iteration", 5, 10, [2, 4, 6, 8, 10]),
    (1, "iteration", 5, 3, [1, 2, 3]),
    (1, "epoch", 5, 12, [5, 10]),
    (0.5, "epoch", 4, 8, [2, 4, 6, 8]),
    (2, "epoch", 3, 13, [6, 12]),
])
def test_interval_trigger(period, unit, per_epoch, n, expected):
    assert fires(T.IntervalTrigger(period, unit), FakeTrainer(per_epoch), n) == expected


def test_interval_trigger_called_sparsely_fires_on_crossing():
    # called every 3 iterations with period 2: each call crosses a multiple of 2
    assert fires(T.IntervalTrigger(2, "iteration"), FakeTrainer(5), 9, every=3) == [3, 6, 9]


def test_interval_trigger_bad_unit():
    with pytest.raises(ValueError):
        T.IntervalTrigger(1, "second")


def test_interval_trigger_training_length_and_str():
    t = T.IntervalTrigger(3, "epoch")
    assert t.get_training_length() == (3, "epoch")
    assert str(t) == "IntervalTrigger(3, 'epoch')"


def test_interval_trigger_serialize_resume():
    trainer = FakeTrainer(5)
    t = T.IntervalTrigger(4, "iteration")
    assert fires(t, trainer, 6) == [4]
    t2 = round_trip(t, T.IntervalTrigger(4, "iteration"))
    assert fires(t2, trainer, 6) == [8, 12]


def test_interval_trigger_missing_state_warns():
    t = T.IntervalTrigger(4, "iteration")
    with pytest.warns(UserWarning):
        t.serialize(NpzDeserializer({}))
    trainer = FakeTrainer(5)
    trainer.updater.iteration = 6
    assert fires(t, trainer, 2) == [8]


@pytest.mark.parametrize("points,unit,per_epoch,n,expected,finished_at", [
    ([3, 7], "iteration", 5, 10, [3, 7], 7),
    (4, "iteration", 5, 6, [4], 4),
    ([1, 2.5], "epoch", 4, 12, [4, 10], 10),
])
def test_manual_schedule_trigger(points, unit, per_epoch, n, expected, finished_at):
    t = T.ManualScheduleTrigger(points, unit)
    trainer = FakeTrainer(per_epoch)
    fired = []
    for _ in range(n):
        trainer.updater.step()
        if t(trainer):
            fired.append(trainer.updater.iteration)
        assert t.finished == (trainer.updater.iteration >= finished_at)
    assert fired == expected


def test_manual_schedule_trigger_serialize():
    trainer = FakeTrainer(5)
    t = T.ManualScheduleTrigger([2, 6], "iteration")
    assert fires(t, trainer, 3) == [2]
    t2 = round_trip(t, T.ManualScheduleTrigger([2, 6], "iteration"))
    assert fires(t2, trainer, 5) == [6]
    assert t2.finished


def test_manual_schedule_trigger_bad_unit():
    with pytest.raises(ValueError):
        T.ManualScheduleTrigger([1], "minute")


def test_min_value_trigger():
    # checked every 2 iterations on the mean of the 2 values
    values = [5.0, 3.0, 2.0, 2.0, 4.0, 4.0, 1.0, 1.0]
    t = T.MinValueTrigger("main/loss", trigger=(2, "iteration"))
    assert fires(t, FakeTrainer(5), 8, values) == [2, 4, 8]


def test_max_value_trigger():
    values = [0.1, 0.5, 0.4, 0.2, 0.9, 0.8]
    t = T.MaxValueTrigger("main/accuracy", trigger=(1, "iteration"))
    assert fires(t, FakeTrainer(5), 6, values, key="main/accuracy") == [1, 2, 5]


def test_best_value_trigger_serialize():
    trainer = FakeTrainer(5)
    t = T.MinValueTrigger("main/loss", trigger=(1, "iteration"))
    assert fires(t, trainer, 2, [3.0, 2.0]) == [1, 2]
    t2 = round_trip(t, T.MinValueTrigger("main/loss", trigger=(1, "iteration")))
    assert fires(t2, trainer, 2, [2.5, 1.0]) == [4]


def test_early_stopping_min_mode():
    values = [5.0, 4.0, 4.5, 4.2, 4.1, 3.0]
    t = T.EarlyStoppingTrigger(check_trigger=(1, "iteration"), monitor="main/loss", patience=3,
                               max_trigger=(100, "iteration"))
    # a new best at iteration 6 resets the count, so only iteration 5 fires
    assert fires(t, FakeTrainer(5), 6, values) == [5]


def test_early_stopping_auto_mode_maximises_accuracy():
    values = [0.1, 0.2, 0.2, 0.1]
    t = T.EarlyStoppingTrigger(check_trigger=(1, "iteration"), monitor="main/accuracy", patience=2,
                               max_trigger=(100, "iteration"))
    assert fires(t, FakeTrainer(5), 4, values, key="main/accuracy") == [4]


def test_early_stopping_max_trigger():
    t = T.EarlyStoppingTrigger(check_trigger=(1, "epoch"), patience=3, max_trigger=(7, "iteration"))
    assert fires(t, FakeTrainer(5), 8, [1.0] * 8) == [7]
    assert t.get_training_length() == (7, "iteration")


def test_early_stopping_patients_alias():
    assert T.EarlyStoppingTrigger(patients=5).patience == 5
    with pytest.raises(TypeError):
        T.EarlyStoppingTrigger(patience=2, patients=5)


def test_early_stopping_missing_monitor_warns():
    t = T.EarlyStoppingTrigger(check_trigger=(1, "iteration"), monitor="main/loss")
    trainer = FakeTrainer(5)
    trainer.updater.step()
    with pytest.warns(UserWarning):
        assert not t(trainer)


def test_once_trigger():
    t = T.OnceTrigger()
    assert fires(t, FakeTrainer(5), 3) == [1]
    assert t.finished


def test_once_trigger_call_on_resume():
    t = T.OnceTrigger(call_on_resume=True)
    trainer = FakeTrainer(5)
    assert fires(t, trainer, 2) == [1]
    resumed = round_trip(t, T.OnceTrigger(call_on_resume=True))
    assert fires(resumed, trainer, 2) == [3]
    plain = round_trip(t, T.OnceTrigger())
    assert fires(plain, trainer, 2) == []


def test_time_trigger():
    t = T.TimeTrigger(1.0)
    trainer = FakeTrainer(5)
    out = []
    for time in (0.5, 1.5, 1.8, 2.0, 2.1, 5.0, 5.0):
        trainer.elapsed_time = time
        out.append(t(trainer))
    # each firing moves the next time on by one period (not to "now + period")
    assert out == [False, True, False, False, True, True, True]


def test_time_trigger_serialize():
    t = T.TimeTrigger(2.0)
    trainer = FakeTrainer(5)
    trainer.elapsed_time = 2.5
    assert t(trainer)
    t2 = round_trip(t, T.TimeTrigger(2.0))
    trainer.elapsed_time = 3.9
    assert not t2(trainer)
    trainer.elapsed_time = 4.1
    assert t2(trainer)


def test_get_trigger():
    assert not T.get_trigger(None)(FakeTrainer(5))
    f = lambda trainer: True  # noqa: E731
    assert T.get_trigger(f) is f
    t = T.get_trigger((3, "iteration"))
    assert isinstance(t, T.IntervalTrigger) and (t.period, t.unit) == (3, "iteration")
    assert training.get_trigger is T.get_trigger
