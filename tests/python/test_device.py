"""Devices: kumo.Device, the current device, CUDA availability and fallbacks."""
import os
import subprocess
import sys
import threading

import numpy
import pytest

import kumo

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(kumo.__file__)))
CUDA = kumo.cuda.is_available()
needs_no_cuda = pytest.mark.skipif(CUDA, reason="checks the behaviour without a usable GPU")


def run_python(code, **env):
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = PYTHON_DIR + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.update(env)
    if env.get("KUMO_CUDA_PLUGIN"):
        full_env.pop("KUMO_VERIFY_CUDA", None)  # verifying kernels for CUDA needs the plugin
    return subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True, text=True, timeout=120)


def test_cpu_device_context_manager():
    with kumo.Device("cpu") as d:
        assert kumo.get_device() == d
        assert kumo.zeros(3).device == kumo.Device("cpu")


def test_context_manager_restores_previous_device():
    before = kumo.get_device()
    with kumo.Device("cpu"):
        pass
    assert kumo.get_device() == before


def test_context_manager_restores_after_exception():
    before = kumo.get_device()
    with pytest.raises(RuntimeError):
        with kumo.Device("cpu"):
            raise RuntimeError("boom")
    assert kumo.get_device() == before


def test_arrays_remember_their_device():
    with kumo.Device("cpu"):
        a = kumo.arange(3)
    assert a.device == kumo.Device("cpu")
    assert (a + 1).device == a.device
    assert a[1:].device == a.device


@pytest.mark.parametrize("spec", ["cpu", "cuda", "cuda:1", ("cuda", 2)])
def test_device_names(spec):
    d = kumo.Device(*spec) if isinstance(spec, tuple) else kumo.Device(spec)
    expected = {"cpu": "cpu", "cuda": "cuda:0", "cuda:1": "cuda:1"}.get(spec, "cuda:2")
    assert d.name == expected
    assert str(d) == expected


def test_device_equality_and_hash():
    assert kumo.Device("cuda", 0) == kumo.Device("cuda:0") == kumo.cuda.Device(0)
    assert kumo.Device("cpu") == "cpu"
    assert kumo.Device("cpu") != kumo.Device("cuda")
    assert len({kumo.Device("cpu"), kumo.Device("cpu")}) == 1


@pytest.mark.parametrize("spec", ["tpu", "gpu:0", "cpu:1"])
def test_bad_device_spec_raises_value_error(spec):
    with pytest.raises(ValueError):
        kumo.Device(spec)


def test_current_device_is_thread_local():
    seen = []

    def worker():
        with kumo.Device("cpu"):
            seen.append(kumo.get_device().name)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == ["cpu"]


@needs_no_cuda
def test_cuda_not_available_has_reason():
    assert kumo.cuda.is_available() is False
    reason = kumo.cuda.unavailable_reason()
    assert isinstance(reason, str) and reason


@needs_no_cuda
def test_cuda_device_count_zero():
    assert kumo.cuda.get_device_count() == 0


@needs_no_cuda
def test_using_cuda_device_raises_device_error_with_reason():
    reason = kumo.cuda.unavailable_reason()
    with pytest.raises(kumo._core.DeviceError) as info:
        with kumo.Device("cuda"):
            pass
    assert isinstance(info.value, ValueError)
    assert reason in str(info.value)


@needs_no_cuda
def test_failed_cuda_context_leaves_current_device():
    before = kumo.get_device()
    with pytest.raises(ValueError):
        with kumo.Device("cuda"):
            pass
    assert kumo.get_device() == before


@needs_no_cuda
def test_default_device_is_cpu_without_cuda():
    out = run_python("import kumo; print(kumo.get_device().name, kumo.zeros(2).device.name)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["cpu", "cpu"]


def test_kumo_device_env_cpu():
    out = run_python("import kumo; print(kumo.get_device().name, kumo.arange(3).device.name, "
                     "int(kumo.arange(3).sum()))", KUMO_DEVICE="cpu")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["cpu", "cpu", "3"]


def test_import_without_cuda_plugin():
    code = ("import kumo; print(kumo.cuda.is_available()); print(kumo.cuda.unavailable_reason()); "
            "print(kumo.arange(3).sum())")
    out = run_python(code, KUMO_CUDA_PLUGIN="/nonexistent/libkumo_cuda.so")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "False"
    assert "plugin" in lines[1].lower()
    assert lines[2] == "3"


def test_to_device_cpu_is_same_data():
    a = kumo.arange(3)
    b = a.to_device("cpu")
    assert b.device == kumo.Device("cpu")
    numpy.testing.assert_array_equal(kumo.asnumpy(b), numpy.arange(3))


def test_asnumpy_and_get_on_cpu():
    a = kumo.arange(4.0)
    numpy.testing.assert_array_equal(kumo.asnumpy(a), numpy.arange(4.0))
    numpy.testing.assert_array_equal(a.get(), numpy.arange(4.0))


def test_dlpack_device_cpu():
    assert kumo.arange(3).__dlpack_device__() == (1, 0)
