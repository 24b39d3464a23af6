"""DLPack in C++ (core/dlpack.h): zero-copy export and import, versioned and
legacy capsules, flags, the consumer/producer keywords and their errors."""
import gc
import sys

import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_numpy_consumes_every_dtype_and_layout(layout, dtype):
    n, k = make_pair(layout, dtype)
    if not k._writeable:  # broadcast views are read-only: only the versioned protocol can say so
        got = numpy.from_dlpack(k)
        assert not got.flags.writeable
    else:
        got = numpy.from_dlpack(k)
    assert got.dtype == n.dtype and got.shape == n.shape
    numpy.testing.assert_array_equal(got, n)


@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative"])
def test_export_keeps_strides_without_copy(layout):
    _, k = make_pair(layout, numpy.float64)
    got = numpy.from_dlpack(k)
    assert got.strides == k.strides
    assert got.__array_interface__["data"][0] == k._ptr


def test_export_outlives_the_array():
    k = kumo.arange(1000.0)
    got = numpy.from_dlpack(k)
    del k
    gc.collect()
    assert got[999] == 999.0


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_kumo_imports_every_dtype_and_layout(layout, dtype):
    n, _ = make_pair(layout, dtype)
    got = kumo.from_dlpack(n)
    assert_array_equal(got, n)


def test_import_is_zero_copy():
    n = numpy.arange(6.0).reshape(2, 3)
    k = kumo.from_dlpack(n)
    n[1, 2] = -1.0
    assert float(k[1, 2]) == -1.0
    k[0, 0] = 5.0
    assert n[0, 0] == 5.0


def test_import_keeps_producer_alive():
    n = numpy.arange(4.0)
    before = sys.getrefcount(n)
    k = kumo.from_dlpack(n)
    assert sys.getrefcount(n) == before + 1
    del k
    gc.collect()
    assert sys.getrefcount(n) == before


def test_import_of_views_shares_the_view():
    n = numpy.arange(24.0).reshape(4, 6)[::-2, 1::2]
    k = kumo.from_dlpack(n)
    assert k.strides == n.strides
    assert_array_equal(k, n)
    assert_array_equal(k * 2, n * 2)


def test_import_read_only_stays_read_only():
    n = numpy.arange(3.0)
    n.flags.writeable = False
    k = kumo.from_dlpack(n)
    assert not k._writeable
    with pytest.raises(ValueError):
        k[0] = 1.0


def test_import_copy_true_copies():
    n = numpy.arange(3.0)
    k = kumo.from_dlpack(n, copy=True)
    n[0] = 9.0
    assert float(k[0]) == 0.0


def test_import_copy_false_is_zero_copy():
    n = numpy.arange(3.0)
    k = kumo.from_dlpack(n, copy=False)
    n[0] = 9.0
    assert float(k[0]) == 9.0


def test_import_misaligned_host_data_copies():
    n = numpy.frombuffer(bytes(17), dtype=numpy.uint8)[1:].view(numpy.float64)
    assert n.ctypes.data % 8 != 0
    assert_array_equal(kumo.from_dlpack(n), n)
    with pytest.raises(BufferError, match="aligned"):
        kumo.from_dlpack(n, copy=False)


@pytest.mark.parametrize("versioned", [False, True])
def test_capsule_round_trip(versioned):
    k = kumo.arange(5, dtype=kumo.int16)
    capsule = k.__dlpack__(max_version=(1, 0) if versioned else None)
    got = kumo.from_dlpack(capsule)
    assert_array_equal(got, numpy.arange(5, dtype=numpy.int16))
    got[0] = 7
    assert int(k[0]) == 7


def test_capsule_is_consumed_once():
    capsule = kumo.arange(3).__dlpack__()
    kumo.from_dlpack(capsule)
    with pytest.raises(TypeError, match="unconsumed"):
        kumo.from_dlpack(capsule)


def test_unconsumed_capsule_releases_the_array():
    k = kumo.arange(3.0)
    for _ in range(100):
        k.__dlpack__(max_version=(1, 0))
        k.__dlpack__()
    gc.collect()
    assert_array_equal(k, numpy.arange(3.0))


def test_legacy_export_refuses_read_only():
    ro = kumo.broadcast_to(kumo.arange(3), (2, 3))
    with pytest.raises(BufferError, match="read-only"):
        ro.__dlpack__()


def test_versioned_export_marks_read_only():
    ro = kumo.broadcast_to(kumo.arange(3), (2, 3))
    got = numpy.from_dlpack(ro)
    assert not got.flags.writeable
    numpy.testing.assert_array_equal(got, numpy.broadcast_to(numpy.arange(3), (2, 3)))


def test_export_copy_true_is_a_copy():
    k = kumo.zeros(3)
    got = numpy.from_dlpack(k, copy=True)
    got[0] = 1.0
    assert float(k[0]) == 0.0


def test_export_to_own_device():
    k = kumo.arange(3.0)
    capsule = k.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    assert_array_equal(kumo.from_dlpack(capsule), numpy.arange(3.0))


def test_export_to_other_device_type_raises():
    with pytest.raises(BufferError):
        kumo.arange(3).__dlpack__(dl_device=(2, 0))


def test_host_export_refuses_a_stream():
    with pytest.raises(BufferError, match="stream"):
        kumo.arange(3).__dlpack__(stream=1)


def test_dlpack_device():
    assert kumo.arange(3).__dlpack_device__() == (1, 0)


def test_import_rejects_non_producers():
    with pytest.raises(TypeError, match="DLPack"):
        kumo.from_dlpack([1, 2])


def test_import_to_same_device_named():
    n = numpy.arange(3.0)
    k = kumo.from_dlpack(n, device="cpu")
    n[0] = 4.0
    assert float(k[0]) == 4.0


def test_kumo_to_kumo_is_identity():
    k = kumo.arange(3)
    assert kumo.from_dlpack(k) is k
    assert kumo.from_dlpack(k, copy=True) is not k
