import numpy
import pytest

import kumo
from conftest import LAYOUTS, assert_array_equal, make_pair


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32,
                                   numpy.float64, numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("decimals", [0, 1, 2, -1, -2])
def test_round_matches_numpy(dtype, decimals):
    n = (numpy.arange(-60, 60, dtype=numpy.float64) * 1.25 + 0.5)
    if numpy.dtype(dtype).kind == "u":
        n = numpy.abs(n)
    n = n.astype(dtype)
    k = kumo.asarray(n)
    with numpy.errstate(all="ignore"):
        want = numpy.round(n, decimals)
    got = kumo.round(k, decimals)
    if numpy.dtype(dtype).kind in "fc":
        numpy.testing.assert_allclose(kumo.asnumpy(got), want, rtol=1e-3 if dtype == numpy.float16 else 1e-6)
        assert got.dtype == want.dtype
    else:
        assert_array_equal(got, want)


def test_round_half_to_even_integers():
    n = numpy.array([5, 15, 25, 35, -5, -15, -25], dtype=numpy.int32)
    assert_array_equal(kumo.round(kumo.asarray(n), -1), numpy.round(n, -1))


def test_round_half_to_even_floats():
    n = numpy.array([0.5, 1.5, 2.5, -0.5, -1.5], dtype=numpy.float64)
    assert_array_equal(kumo.around(kumo.asarray(n)), numpy.around(n))


def test_method_and_out():
    n = numpy.array([1.26, -3.14159, 2.5])
    k = kumo.asarray(n)
    assert_array_equal(k.round(1), n.round(1))
    out = kumo.empty(3)
    assert kumo.round(k, 2, out=out) is out
    numpy.testing.assert_allclose(kumo.asnumpy(out), numpy.round(n, 2))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int32])
def test_fix(layout, dtype):
    n, k = make_pair(layout, dtype)
    assert_array_equal(kumo.fix(k), numpy.fix(n))


def test_round_of_bool_is_float16_and_refuses_decimals():
    n = numpy.array([True, False])
    assert_array_equal(kumo.round(kumo.asarray(n)), numpy.round(n))
    assert_array_equal(kumo.asarray(n).round(), n.round())
    for decimals in (1, -1):
        with pytest.raises(TypeError):
            numpy.round(n, decimals)
        with pytest.raises(TypeError):
            kumo.round(kumo.asarray(n), decimals)
