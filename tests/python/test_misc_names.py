"""NumPy's small utility names on kumo: dtype aliases, text functions, index
iterators and array checks, compared with NumPy."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair


@pytest.mark.parametrize("name", ["long", "ulong", "True_", "False_", "typecodes", "ScalarType", "little_endian"])
def test_alias_is_numpys(name):
    assert getattr(kumo, name) is getattr(numpy, name) or getattr(kumo, name) == getattr(numpy, name)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int32, numpy.float64, numpy.complex64])
def test_array2string_matches_numpy(layout, dtype):
    n, k = make_pair(layout, dtype)
    assert kumo.array2string(k, separator=", ", prefix="x") == numpy.array2string(n, separator=", ", prefix="x")


@pytest.mark.parametrize("fn", ["array_repr", "array_str"])
def test_array_repr_str_match_numpy(fn):
    n, k = make_pair("3d", numpy.float32)
    assert getattr(kumo, fn)(k, precision=2) == getattr(numpy, fn)(n, precision=2)


def test_array2string_accepts_lists():
    assert kumo.array2string([1, 2]) == numpy.array2string(numpy.array([1, 2]))


def test_mintypecode_understands_kumo_arrays():
    k = kumo.ones(2, dtype=kumo.float32)
    assert kumo.mintypecode([k, "d"]) == numpy.mintypecode(["f", "d"])


@pytest.mark.parametrize("layout", LAYOUTS)
def test_ndenumerate_matches_numpy(layout):
    n, k = make_pair(layout, numpy.int16)
    assert list(kumo.ndenumerate(k)) == list(numpy.ndenumerate(n))


def test_ndindex_iterates_shape():
    assert list(kumo.ndindex(2, 3)) == list(numpy.ndindex(2, 3))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("offset", [0, 1, -1])
def test_diagonal_function_matches_numpy(layout, offset):
    n, k = make_pair(layout, numpy.float64)
    if n.ndim < 2:
        with pytest.raises(ValueError):
            kumo.diagonal(k, offset)
        return
    assert_array_equal(kumo.diagonal(k, offset, 0, 1), numpy.diagonal(n, offset, 0, 1))


def test_diagonal_function_axes():
    n = numpy.arange(24.0).reshape(2, 3, 4)
    assert_array_equal(kumo.diagonal(kumo.asarray(n), 1, 2, 0), numpy.diagonal(n, 1, 2, 0))


@pytest.mark.parametrize("make", [lambda m: m.ones((3, 4)), lambda m: m.asfortranarray(m.ones((3, 4))),
                                  lambda m: m.ones((3, 4)).T, lambda m: m.ones((1, 4)), lambda m: m.ones(5)])
def test_isfortran_matches_numpy(make):
    assert kumo.isfortran(make(kumo)) == numpy.isfortran(make(numpy))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_asarray_chkfinite_passes_finite(dtype):
    n, k = make_pair("3d", dtype)
    assert_array_equal(kumo.asarray_chkfinite(k), numpy.asarray_chkfinite(n))


@pytest.mark.parametrize("bad", [numpy.nan, numpy.inf, -numpy.inf, complex(0, numpy.nan)])
def test_asarray_chkfinite_rejects_nonfinite(bad):
    with pytest.raises(ValueError, match="infs or NaNs"):
        kumo.asarray_chkfinite(kumo.asarray([1.0, bad]))


def test_asarray_chkfinite_converts_lists_and_dtype():
    r = kumo.asarray_chkfinite([1, 2], dtype=numpy.float32)
    assert r.dtype == numpy.float32 and isinstance(r, kumo.ndarray)


@pytest.mark.parametrize("fn,args", [("binary_repr", (-5, 8)), ("base_repr", (255, 16)),
                                     ("format_float_positional", (1.5,)), ("typename", ("d",)),
                                     ("iterable", ([1],))])
def test_plain_helpers_match_numpy(fn, args):
    assert getattr(kumo, fn)(*args) == getattr(numpy, fn)(*args)
