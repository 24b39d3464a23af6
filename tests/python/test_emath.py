"""kumo.emath against numpy.emath: complex results outside the real domain."""
import numpy
import pytest

import kumo
from conftest import assert_allclose

FUNCS = ["sqrt", "log", "log10", "log2", "arccos", "arcsin", "arctanh"]
INPUTS = {
    "inside": [0.25, 0.5, 0.75],
    "negative": [-4.0, 0.25, 9.0],
    "large": [-3.0, 0.5, 2.0],
}


@pytest.mark.parametrize("fn", FUNCS)
@pytest.mark.parametrize("case", sorted(INPUTS))
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int64, numpy.complex128])
def test_matches_numpy(fn, case, dtype):
    n = numpy.asarray(INPUTS[case]).astype(dtype) if dtype != numpy.int64 else numpy.array([-4, 1, 9])
    with numpy.errstate(all="ignore"):
        want = getattr(numpy.emath, fn)(n)
    got = getattr(kumo.emath, fn)(kumo.asarray(n))
    assert got.dtype == want.dtype
    assert_allclose(got, want, rtol=1e-5 if dtype == numpy.float32 else 1e-12)


@pytest.mark.parametrize("x,p", [([-8.0, 4.0], 2), ([2.0, 4.0], [-1, 2]), ([-1.0, 2.0], 0.5), ([2, 3], [-2, 1])])
def test_power_matches_numpy(x, p):
    want = numpy.emath.power(numpy.asarray(x), numpy.asarray(p))
    got = kumo.emath.power(kumo.asarray(x), kumo.asarray(p))
    assert got.dtype == want.dtype
    assert_allclose(got, want)


def test_logn_matches_numpy():
    want = numpy.emath.logn(numpy.asarray([2.0, -2.0]), numpy.asarray([8.0, 8.0]))
    assert_allclose(kumo.emath.logn(kumo.asarray([2.0, -2.0]), kumo.asarray([8.0, 8.0])), want)


def test_scalar_input():
    assert_allclose(kumo.emath.sqrt(-1.0), numpy.emath.sqrt(numpy.float64(-1.0)))
