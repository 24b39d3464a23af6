"""repr/str of kumo arrays match NumPy's exactly."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, make_pair


@pytest.fixture
def restore_printoptions():
    saved = numpy.get_printoptions()
    yield
    numpy.set_printoptions(**saved)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_repr(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert repr(k) == repr(n)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_str(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert str(k) == str(n)


SPECIAL = [
    numpy.array([1e-10, 1.0, 1e10]),
    numpy.array([numpy.nan, numpy.inf, -numpy.inf, -0.0]),
    numpy.array([0.1, 0.2, 0.3], dtype=numpy.float32),
    numpy.array([1 / 3, 2 / 3]),
    numpy.array([1.5, numpy.nan], dtype=numpy.float16),
    numpy.array([1 + 2j, numpy.nan + 1j, -0.5j], dtype=numpy.complex64),
    numpy.array([2 ** 63], dtype=numpy.uint64),
    numpy.array([-(2 ** 63)], dtype=numpy.int64),
    numpy.array([True, False]),
    numpy.array(3.0),
    numpy.array(-7, dtype=numpy.int8),
    numpy.array(1 + 2j),
    numpy.zeros((0,)),
    numpy.zeros((2, 0, 3), dtype=numpy.int8),
    numpy.zeros((0, 2), dtype=numpy.complex64),
    numpy.arange(1e6, 1e6 + 5),
]


@pytest.mark.parametrize("n", SPECIAL, ids=[str(i) for i in range(len(SPECIAL))])
def test_repr_str_special_values(n):
    k = kumo.array(n)
    assert repr(k) == repr(n)
    assert str(k) == str(n)


@pytest.mark.parametrize("shape", [(1001,), (2000,), (40, 50), (11, 11, 11)])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64])
def test_large_arrays_are_summarised(shape, dtype):
    n = (numpy.arange(int(numpy.prod(shape))).reshape(shape) / 7).astype(dtype)
    k = kumo.array(n)
    assert "..." in repr(k)
    assert repr(k) == repr(n)
    assert str(k) == str(n)


def test_large_transposed_view_is_summarised():
    n = numpy.arange(3000.0).reshape(60, 50)
    k = kumo.array(n)
    assert repr(k.T[::-1]) == repr(n.T[::-1])


def test_1000_elements_not_summarised():
    n = numpy.arange(1000)
    assert "..." not in repr(kumo.array(n))
    assert repr(kumo.array(n)) == repr(n)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128])
def test_set_printoptions_precision(dtype, restore_printoptions):
    n = numpy.array([1 / 3, 2 / 3, 1e-5, 123.456789], dtype=dtype)
    k = kumo.array(n)
    kumo.set_printoptions(precision=3)
    assert numpy.get_printoptions()["precision"] == 3
    assert repr(k) == repr(n)
    assert str(k) == str(n)


def test_set_printoptions_threshold(restore_printoptions):
    n = numpy.arange(20)
    kumo.set_printoptions(threshold=10, edgeitems=2)
    assert repr(kumo.array(n)) == repr(n)
    assert "..." in repr(kumo.array(n))


def test_printoptions_context_manager():
    n = numpy.array([1 / 3])
    k = kumo.array(n)
    with kumo.printoptions(precision=2):
        assert repr(k) == "array([0.33])"
    assert repr(k) == repr(n)


def test_get_printoptions():
    assert kumo.get_printoptions() == numpy.get_printoptions()


@pytest.mark.parametrize("spec", ["", ".2f", ">10"])
def test_format_0d(spec):
    n = numpy.array(2.5)
    assert format(kumo.array(n), spec) == format(n, spec)


def test_repr_of_scalar_element():
    n = numpy.arange(3.0)
    k = kumo.array(n)
    assert str(k[1]) == str(n[1])
