"""kumo.autograd.reporter against Chainer's documented behaviour."""
import math

import numpy
import pytest

import kumo
from kumo import autograd
from kumo.autograd import reporter as R
from kumo.autograd.serializers import DictionarySerializer, NpzDeserializer


def test_report_with_observer_prefixes_name():
    rep = R.Reporter()
    obs = object()
    rep.add_observer("my_observer", obs)
    observation = {}
    with rep.scope(observation):
        rep.report({"x": 1}, obs)
    assert observation == {"my_observer/x": 1}


def test_global_report_goes_to_current_reporter():
    rep = R.Reporter()
    observation = {}
    with rep:
        with R.report_scope(observation):
            R.report({"x": 1})
    assert observation == {"x": 1}


def test_report_without_reporter_does_nothing():
    R.report({"x": 1})


def test_unregistered_observer_is_key_error():
    rep = R.Reporter()
    with rep.scope({}):
        with pytest.raises(KeyError):
            R.report({"x": 1}, object())


def test_add_observers_uses_prefix():
    rep = R.Reporter()
    a, b = object(), object()
    rep.add_observers("main", [("/l1", a), ("/l2", b)])
    obs = {}
    with rep.scope(obs):
        rep.report({"v": 2}, b)
    assert obs == {"main/l2/v": 2}


def test_scope_restores_observation_and_stack():
    rep = R.Reporter()
    outer = rep.observation
    with rep.scope({}):
        assert R.get_current_reporter() is rep
    assert rep.observation is outer
    with pytest.raises(IndexError):
        R.get_current_reporter()


def test_nested_reporters_innermost_is_current():
    r1, r2 = R.Reporter(), R.Reporter()
    o1, o2 = {}, {}
    with r1.scope(o1):
        with r2.scope(o2):
            R.report({"a": 1})
        R.report({"b": 2})
    assert o1 == {"b": 2} and o2 == {"a": 1}


def test_reported_variable_has_no_graph():
    x = autograd.Variable(kumo.asarray(numpy.array([1.0, 2.0], dtype=numpy.float32)))
    y = autograd.functions.sum(x * x)
    y.name = "y"
    assert y.creator is not None
    obs = {}
    with R.Reporter().scope(obs):
        R.report({"y": y})
    assert isinstance(obs["y"], autograd.Variable)
    assert obs["y"].creator is None
    assert obs["y"].name == y.name
    assert float(obs["y"].array) == 5.0


def test_summary_mean_and_std():
    s = R.Summary()
    values = [1.0, 2.0, 4.0]
    for v in values:
        s.add(v)
    mean, std = s.make_statistics()
    assert s.compute_mean() == pytest.approx(numpy.mean(values))
    assert mean == pytest.approx(numpy.mean(values))
    assert std == pytest.approx(numpy.std(values))


def test_summary_weighted():
    s = R.Summary()
    s.add(1.0, weight=3)
    s.add(5.0, weight=1)
    assert s.compute_mean() == pytest.approx(2.0)


def test_summary_accepts_kumo_0d_arrays():
    s = R.Summary()
    s.add(kumo.asarray(numpy.float32(2.0)))
    s.add(kumo.asarray(numpy.float32(4.0)))
    mean, std = s.make_statistics()
    assert float(mean) == pytest.approx(3.0)
    assert float(std) == pytest.approx(1.0)


def test_dict_summary_ignores_non_scalars():
    d = R.DictSummary()
    d.add({"a": 1.0, "b": numpy.zeros(3), "c": "text", "v": autograd.Variable(kumo.asarray(numpy.float32(3.0)))})
    d.add({"a": 3.0, "v": kumo.asarray(numpy.float32(5.0))})
    mean = d.compute_mean()
    assert set(mean) == {"a", "v"}
    assert float(mean["a"]) == 2.0 and float(mean["v"]) == 4.0


def test_dict_summary_tuple_weight():
    d = R.DictSummary()
    d.add({"a": (1.0, 3)})
    d.add({"a": (5.0, 1)})
    assert float(d.compute_mean()["a"]) == pytest.approx(2.0)


def test_dict_summary_non_scalar_weight_is_value_error():
    with pytest.raises(ValueError):
        R.DictSummary().add({"a": (1.0, numpy.ones(2))})


def test_dict_summary_statistics_keys():
    d = R.DictSummary()
    for v in (1.0, 3.0):
        d.add({"a": v})
    stats = d.make_statistics()
    assert set(stats) == {"a", "a.std"}
    assert stats["a"] == pytest.approx(2.0) and stats["a.std"] == pytest.approx(1.0)


def test_dict_summary_serialize_round_trip():
    d = R.DictSummary()
    for v in (1.0, 2.0, 6.0):
        d.add({"x": v, "y": 2 * v})
    s = DictionarySerializer()
    d.serialize(s)
    assert "_names" in s.target and "_summaries/0/_x" in s.target
    d2 = R.DictSummary()
    d2.serialize(NpzDeserializer(s.target))
    assert d2.compute_mean() == pytest.approx(d.compute_mean())
    d.add({"x": 3.0})
    d2.add({"x": 3.0})
    assert math.isclose(float(d2.compute_mean()["x"]), float(d.compute_mean()["x"]))


def test_exports():
    assert set(R.__all__) >= {"Reporter", "report", "report_scope", "get_current_reporter", "Summary", "DictSummary"}
    assert autograd.reporter is R


def test_keep_graph_on_report_stores_the_variable():
    x = autograd.Variable(kumo.asarray(numpy.array([1.0, 2.0], dtype=numpy.float32)))
    y = autograd.functions.sum(x * x)
    obs = {}
    autograd.config.keep_graph_on_report = True
    try:
        with R.Reporter().scope(obs):
            R.report({"y": y})
    finally:
        autograd.config.keep_graph_on_report = False
        from kumo.autograd import computational_graph
        computational_graph.forget_captured()
    assert obs["y"] is y


def test_summary_serialize_float_weights():
    s = R.Summary()
    s.add(1.0, weight=0.5)
    s.add(3.0, weight=1.5)
    ser = DictionarySerializer()
    s.serialize(ser)
    fresh = R.Summary()
    fresh.serialize(NpzDeserializer(ser.target))
    assert float(fresh.compute_mean()) == pytest.approx(2.5)
    fresh.add(2.5, weight=2.0)
    assert float(fresh.compute_mean()) == pytest.approx(2.5)


def test_summary_missing_state_warns():
    s = R.Summary()
    s.add(2.0)
    with pytest.warns(UserWarning):
        s.serialize(NpzDeserializer({}))
    assert s.compute_mean() == 2.0


def test_summary_non_strict_load_keeps_state():
    s = R.Summary()
    s.add(2.0)
    s.serialize(NpzDeserializer({}, strict=False))
    assert s.compute_mean() == 2.0
