"""The switch that runs host arrays through the portable sparse backend, the
code kumo.sparse runs on CUDA arrays (cuSPARSE adds the products there).

scripts/test.sh runs every test_sparse_*.py file a second time with
KUMO_SPARSE_BACKEND=portable, so the portable code meets the same SciPy
references as the host backend; these tests check that the switch does
switch."""
import os
import subprocess
import sys

from kumo import _core


def test_the_switch_selects_the_portable_backend():
    before = _core.sparse._portable_backend()
    try:
        _core.sparse._set_portable_backend(True)
        assert _core.sparse._host_backend_name() == "kumo portable sparse"
        _core.sparse._set_portable_backend(False)
        assert _core.sparse._host_backend_name() == "kumo host sparse"
    finally:
        _core.sparse._set_portable_backend(before)


def test_the_environment_variable_selects_the_portable_backend():
    code = "from kumo import _core; print(_core.sparse._host_backend_name())"
    env = dict(os.environ, KUMO_SPARSE_BACKEND="portable")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "kumo portable sparse"
