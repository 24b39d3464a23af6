"""The portable sparse backend, the code kumo.sparse runs on CUDA arrays (its
reorderings and conversions; cuSPARSE adds the products there), checked on
the host: every test of the format and arithmetic suites runs again here with
host arrays switched to it, against the same SciPy references."""
import pytest

from kumo import _core
from test_sparse_arithmetic import *  # noqa: F401,F403  (collected again under the fixture below)
from test_sparse_formats import *  # noqa: F401,F403


@pytest.fixture(autouse=True)
def _portable_backend():
    _core.sparse._set_portable_backend(True)
    yield
    _core.sparse._set_portable_backend(False)


def test_the_portable_backend_is_the_one_in_use():
    assert _core.sparse._host_backend_name() == "kumo portable sparse"
    _core.sparse._set_portable_backend(False)
    assert _core.sparse._host_backend_name() == "kumo host sparse"
