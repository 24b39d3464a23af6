"""The C++ printer behind kumo::Array's operator<< (routines/printing.cpp)
against numpy.array_repr / array_str over dtypes, shapes and magnitudes."""
import numpy
import pytest

import kumo
from kumo import _core

CASES = [
    numpy.array([1.5, 2.25]), numpy.array([1.0, 2.0]), numpy.array([0.1, 1.0], dtype=numpy.float32),
    numpy.array([1.5e-5, 1.0]), numpy.array([1e-5, 1.0]), numpy.array([1e10, 1]),
    numpy.array([numpy.nan, 1, -numpy.inf]), numpy.array([numpy.inf, 1.5]), numpy.array([-numpy.inf, 1e-5]),
    numpy.array([1 + 2j, 3 - 1.5j]), numpy.array([True, False]), numpy.array([True, True]),
    numpy.array([1, 10, -5], dtype=numpy.int8), numpy.arange(6.0).reshape(2, 3), numpy.arange(24).reshape(2, 3, 4),
    numpy.array([], dtype=numpy.float32), numpy.zeros((0, 3)), numpy.array(1.5), numpy.array(3, dtype=numpy.int8),
    numpy.array([0.0, -0.0]), numpy.array([123456789.0, 1.0]), numpy.array([1 / 3, 2 / 3], dtype=numpy.float16),
    numpy.array([1e-300, 1e300]), numpy.array([1e-300, 1.0]), numpy.array([1.123456789123]), numpy.arange(30.0),
    numpy.array([-1.5, 2.0]), numpy.array([1e5, 1e-3]), numpy.array([0.0001, 1]),
    numpy.array([numpy.nan + 1j, 1 + numpy.inf * 1j]), numpy.array([1, 2], dtype=numpy.uint64),
    numpy.array([[1.5 + 0j]]), numpy.arange(2000.0), numpy.array([0.5, numpy.nan], dtype=numpy.float32),
    numpy.array([2.5e9 + 1j]), numpy.arange(12, dtype=numpy.float32).reshape(3, 4) * 1e7,
    numpy.linspace(0, 1, 20, dtype=numpy.float32), numpy.arange(3000).reshape(30, 100),
    numpy.array([2**63 + 5], dtype=numpy.uint64), numpy.array([-2**63], dtype=numpy.int64),
    numpy.array([numpy.nan, numpy.inf]), numpy.zeros((2, 0, 3), dtype=numpy.int16), numpy.array(True),
    numpy.array(1 + 1j, dtype=numpy.complex64), numpy.array([65504, 0.000061], dtype=numpy.float16),
]


def _ids():
    return ["%d-%s-%s" % (i, c.dtype, "x".join(map(str, c.shape))) for i, c in enumerate(CASES)]


@pytest.mark.parametrize("arr", CASES, ids=_ids())
def test_repr_matches_numpy(arr):
    assert _core._array_repr(kumo.asarray(arr)) == repr(arr)


@pytest.mark.parametrize("arr", CASES, ids=_ids())
def test_str_matches_numpy(arr):
    if arr.ndim == 0:
        pytest.skip("str of a 0-d array is the str of its scalar in NumPy")
    assert _core._array_str(kumo.asarray(arr)) == str(arr)


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64, numpy.complex64])
@pytest.mark.parametrize("seed", range(12))
def test_random_magnitudes_match_numpy(dtype, seed):
    rng = numpy.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-6, 9)
    n = int(rng.integers(1, 40))
    with numpy.errstate(over="ignore"):  # float16 overflows to inf, which prints too
        arr = (rng.standard_normal(n) * scale).astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        arr = arr + 1j * (rng.standard_normal(n) * scale).astype(dtype)
    assert _core._array_repr(kumo.asarray(arr)) == repr(arr)
