"""kumo.autograd's configuration against Chainer 7's: defaults, thread-local
values over global_config, using_config for any name, get_dtype/mixed16 and
debug mode."""
import threading

import numpy
import pytest

from kumo import autograd as A


@pytest.mark.parametrize("name,value", [
    ("debug", False), ("type_check", True), ("keep_graph_on_report", False), ("lazy_grad_sum", False),
    ("use_static_graph", True), ("cudnn_deterministic", False), ("autotune", False),
    ("use_cudnn_tensor_core", "auto"), ("in_recomputing", False), ("schedule_func", None),
    ("warn_nondeterministic", False), ("cudnn_fast_batch_normalization", False)])
def test_chainer_defaults(name, value):
    assert getattr(A.config, name) == value


def test_dtype_default_is_float32():
    assert A.config.dtype == numpy.float32
    assert A.get_dtype() == numpy.float32


def test_using_config_restores_the_value():
    with A.using_config("dtype", numpy.float16):
        assert A.get_dtype() == numpy.float16
        with A.using_config("dtype", numpy.float64):
            assert A.config.dtype == numpy.float64
        assert A.config.dtype == numpy.float16
    assert A.config.dtype == numpy.float32


def test_thread_values_fall_back_to_global_config():
    seen = {}
    A.config.lazy_grad_sum = True
    try:
        def other():
            seen["local"] = A.config.lazy_grad_sum
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert A.config.lazy_grad_sum is True
        assert seen["local"] is False       # another thread sees the global default
    finally:
        del A.config.lazy_grad_sum
    assert A.config.lazy_grad_sum is False


def test_global_config_sets_what_threads_see():
    A.global_config.my_option = 3
    try:
        assert A.config.my_option == 3
        with A.using_config("my_option", 4):
            assert A.config.my_option == 4
        assert A.config.my_option == 3
    finally:
        del A.global_config.my_option
    with pytest.raises(AttributeError):
        A.config.my_option


def test_get_dtype_mixed16():
    assert repr(A.mixed16) == "mixed16"
    assert A.get_dtype(A.mixed16) == numpy.float16
    assert A.get_dtype(A.mixed16, map_mixed16=numpy.float32) == numpy.float32
    assert A.get_dtype("float64") == numpy.float64
    with A.using_config("dtype", A.mixed16):
        assert A.get_dtype() == numpy.float16


def test_debug_mode():
    assert A.is_debug() is False
    A.set_debug(True)
    try:
        assert A.is_debug() is True
        with A.using_config("debug", False):
            assert A.is_debug() is False
    finally:
        A.set_debug(False)
    assert A.is_debug() is False


def test_special_values_still_switch_the_engine():
    with A.using_config("train", False):
        assert A.config.train is False
    with A.using_config("enable_backprop", False):
        assert A.config.enable_backprop is False
        assert not A.is_backprop_enabled()
    assert A.config.enable_backprop is True
    with pytest.raises(ValueError):
        A.config.use_cudnn = "sometimes"


def test_show_lists_every_value(capsys):
    import io
    buf = io.StringIO()
    A.config.show(buf)
    text = buf.getvalue()
    for name in ("debug", "dtype", "train", "type_check", "use_cudnn"):
        assert name in text
    assert not A.disable_experimental_feature_warning
