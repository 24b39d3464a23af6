"""kumo.ndarray(...) construction and kumo.lib.stride_tricks, compared with
NumPy; views that would reach outside the memory raise instead."""
import numpy
import pytest
from numpy.lib import stride_tricks as nst

import kumo
from kumo.lib import stride_tricks as kst
from conftest import assert_array_equal


@pytest.mark.parametrize("kwargs", [dict(), dict(dtype="float32"), dict(order="F"), dict(strides=(8, 16)),
                                    dict(dtype=numpy.int16, strides=(2, 4))], ids=repr)
def test_ndarray_constructor_allocates_like_numpy(kwargs):
    n, k = numpy.ndarray((2, 3), **kwargs), kumo.ndarray((2, 3), **kwargs)
    assert (k.shape, k.dtype, k.strides) == (n.shape, n.dtype, n.strides)


def test_ndarray_over_a_buffer_is_a_view_of_it():
    base_n, base_k = numpy.arange(12.0), kumo.arange(12.0)
    n = numpy.ndarray((2, 2), buffer=base_n, offset=8, strides=(32, 8))
    k = kumo.ndarray((2, 2), buffer=base_k, offset=8, strides=(32, 8))
    assert_array_equal(k, n)
    k[0, 0] = -1
    assert float(base_k[1]) == -1
    raw = bytearray(8)
    assert_array_equal(kumo.ndarray((2,), dtype="int32", buffer=raw), numpy.ndarray((2,), dtype="int32", buffer=raw))
    with pytest.raises(ValueError):
        kumo.ndarray((2, 2), buffer=base_k, offset=8, strides=(96, 8))
    with pytest.raises(ValueError):  # NumPy: strides incompatible with the shape's size
        numpy.ndarray((2, 3), dtype=numpy.int16, strides=(2, 6))
    with pytest.raises(ValueError):
        kumo.ndarray((2, 3), dtype=numpy.int16, strides=(2, 6))


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a[::-1], lambda a: a[1::2]], ids=["plain", "reversed", "step"])
def test_as_strided_and_sliding_windows_match_numpy(view):
    n, k = view(numpy.arange(20.0)), view(kumo.arange(20.0))
    m = n.shape[0] - 2
    assert_array_equal(kst.as_strided(k, (m, 3), (k.strides[0],) * 2), nst.as_strided(n, (m, 3), (n.strides[0],) * 2))
    assert_array_equal(kst.sliding_window_view(k, 3), nst.sliding_window_view(n, 3))
    assert not kst.sliding_window_view(k, 3).flags.writeable
    n2, k2 = n[: (n.size // 4) * 4].reshape(-1, 4), k[: (k.size // 4) * 4].reshape(-1, 4)
    assert_array_equal(kst.sliding_window_view(k2, (2, 2)), nst.sliding_window_view(n2, (2, 2)))
    assert_array_equal(kst.sliding_window_view(k2, 2, axis=-1), nst.sliding_window_view(n2, 2, axis=-1))


def test_as_strided_refuses_views_outside_the_memory():
    k = kumo.arange(10.0)
    with pytest.raises(ValueError, match="outside"):
        kst.as_strided(k, (11,), (8,))
    with pytest.raises(ValueError, match="outside"):
        kst.as_strided(k[8:], (3,), (8,))
    with pytest.raises(ValueError, match="outside"):
        kst.as_strided(k[1:], (3,), (-8,))
    # The check is against the memory block, not the view: k[2:] may look back.
    assert_array_equal(kst.as_strided(k[2:], (3,), (-8,)), numpy.array([2.0, 1.0, 0.0]))
    assert kst.as_strided(k, (0, 5), (8, 1000)).shape == (0, 5)
