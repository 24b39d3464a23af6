"""The array API standard: kumo.array_api (what ndarray.__array_namespace__
returns), the inspection object, device= on the creation functions, astype,
and the places where the standard's semantics differ from NumPy's."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair

xp = kumo.array_api

# The names of the 2025.12 standard: the main namespace and its extensions.
STANDARD_NAMES = """
abs acos acosh add all any arange argmax argmin argsort asarray asin asinh astype atan atan2 atanh bitwise_and
bitwise_invert bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor bool broadcast_arrays broadcast_shapes
broadcast_to can_cast ceil clip complex128 complex64 concat conj copysign cos cosh count_nonzero cumulative_prod
cumulative_sum diff divide e empty empty_like equal exp expand_dims expm1 eye fft finfo flip float32 float64 floor
floor_divide from_dlpack full full_like greater greater_equal hypot iinfo imag inf int16 int32 int64 int8 isdtype
isfinite isin isinf isnan less less_equal linalg linspace log log10 log1p log2 logaddexp logical_and logical_not
logical_or logical_xor matmul matrix_transpose max maximum mean meshgrid min minimum moveaxis multiply nan negative
newaxis nextafter nonzero not_equal ones ones_like permute_dims pi positive pow prod real reciprocal remainder repeat
reshape result_type roll round searchsorted sign signbit sin sinh sort sqrt square squeeze stack std subtract sum take
take_along_axis tan tanh tensordot tile tril triu trunc uint16 uint32 uint64 uint8 unique_all unique_counts
unique_inverse unique_values unstack var vecdot where zeros zeros_like
""".split()
LINALG_NAMES = """cholesky cross det diagonal eig eigh eigvals eigvalsh inv matmul matrix_norm matrix_power matrix_rank
matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm""".split()
FFT_NAMES = """fft fftfreq fftn fftshift hfft ifft ifftn ifftshift ihfft irfft irfftn rfft rfftfreq rfftn""".split()
ARRAY_ATTRIBUTES = """__abs__ __add__ __and__ __array_namespace__ __bool__ __complex__ __dlpack__ __dlpack_device__
__eq__ __float__ __floordiv__ __ge__ __getitem__ __gt__ __index__ __int__ __invert__ __le__ __lshift__ __lt__
__matmul__ __mod__ __mul__ __ne__ __neg__ __or__ __pos__ __pow__ __rshift__ __setitem__ __sub__ __truediv__ __xor__
__iadd__ __radd__ to_device T mT device dtype ndim shape size""".split()


@pytest.mark.parametrize("name", STANDARD_NAMES)
def test_namespace_has_standard_name(name):
    assert hasattr(xp, name)


@pytest.mark.parametrize("name", LINALG_NAMES)
def test_linalg_extension_has_name(name):
    assert callable(getattr(xp.linalg, name))


@pytest.mark.parametrize("name", FFT_NAMES)
def test_fft_extension_has_name(name):
    assert callable(getattr(xp.fft, name))


@pytest.mark.parametrize("name", ARRAY_ATTRIBUTES)
def test_array_has_standard_attribute(name):
    assert hasattr(kumo.ones((2, 2)), name)


def test_versions():
    assert kumo.__array_api_version__ == numpy.__array_api_version__  # kumo's namespace is NumPy 2.4's
    assert xp.__array_api_version__ == "2025.12"


def test_array_namespace_is_array_api():
    assert kumo.arange(3).__array_namespace__() is xp


@pytest.mark.parametrize("version", ["2021.12", "2022.12", "2023.12", "2024.12", "2025.12"])
def test_array_namespace_accepts_known_versions(version):
    assert kumo.arange(3).__array_namespace__(api_version=version) is xp


@pytest.mark.parametrize("version", ["2020.10", "2026.12", "latest"])
def test_array_namespace_rejects_unknown_versions(version):
    with pytest.raises(ValueError, match="not supported"):
        kumo.arange(3).__array_namespace__(api_version=version)


def test_namespace_shares_kumo_objects():
    assert xp.asarray is kumo.asarray
    assert xp.float32 is kumo.float32
    assert xp.linalg.solve is kumo.linalg.solve
    assert xp.fft.fft is kumo.fft.fft


def test_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="kumo.array_api"):
        xp.no_such_function


def test_bool_is_numpy_bool():
    assert kumo.bool is numpy.bool
    assert kumo.asarray([1, 0], dtype=kumo.bool).dtype == numpy.bool_


def test_array_equal_still_returns_python_bool():
    # kumo.bool is numpy's; the module's own helpers must keep returning the builtin bool.
    assert type(kumo.array_equal([1, 2], [1, 2])) is bool
    assert type(kumo.allclose(1.0, 1.0)) is bool


# ---- __array_namespace_info__ ------------------------------------------------

@pytest.mark.parametrize("namespace", [kumo, xp])
def test_info_capabilities(namespace):
    caps = namespace.__array_namespace_info__().capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 32}
    kumo.zeros((1,) * caps["max dimensions"])
    with pytest.raises(ValueError):
        kumo.zeros((1,) * (caps["max dimensions"] + 1))


def test_info_default_device_is_current_device():
    info = kumo.__array_namespace_info__()
    assert info.default_device() == kumo.get_device()
    with kumo.Device("cpu"):
        assert info.default_device() == "cpu"
        assert kumo.zeros(2).device == info.default_device()


def test_info_default_dtypes_match_numpy():
    got = kumo.__array_namespace_info__().default_dtypes()
    want = numpy.__array_namespace_info__().default_dtypes()
    assert got == want


def test_info_default_dtypes_for_cpu_device():
    info = kumo.__array_namespace_info__()
    assert info.default_dtypes(device="cpu") == info.default_dtypes(device=kumo.Device("cpu"))


@pytest.mark.parametrize("kind", [None, "bool", "signed integer", "unsigned integer", "integral", "real floating",
                                  "complex floating", "numeric", ("bool", "real floating")])
def test_info_dtypes_match_numpy(kind):
    got = kumo.__array_namespace_info__().dtypes(kind=kind)
    want = numpy.__array_namespace_info__().dtypes(kind=kind)
    assert got == {k: numpy.dtype(v) for k, v in want.items()}


@pytest.mark.parametrize("kind", ["float", "integer", 3])
def test_info_dtypes_rejects_unknown_kind(kind):
    with pytest.raises(ValueError, match="kind"):
        kumo.__array_namespace_info__().dtypes(kind=kind)


def test_info_rejects_unknown_device():
    with pytest.raises(ValueError):
        kumo.__array_namespace_info__().dtypes(device="tpu")


def test_info_devices():
    devices = kumo.__array_namespace_info__().devices()
    assert isinstance(devices, list) and devices[0] == "cpu"
    assert len(devices) == 1 + (kumo.cuda.get_device_count() if kumo.cuda.is_available() else 0)
    assert xp.__array_namespace_info__().devices() == tuple(devices)  # 2025.12 returns a tuple


# ---- device= on the creation functions ---------------------------------------

CREATIONS = {
    "arange": lambda device: kumo.arange(2, 8, 2, device=device),
    "asarray": lambda device: kumo.asarray([1, 2, 3], device=device),
    "array": lambda device: kumo.array([[1.5], [2.5]], device=device),
    "empty": lambda device: kumo.empty((2, 3), device=device),
    "zeros": lambda device: kumo.zeros((2, 3), dtype=kumo.int16, device=device),
    "ones": lambda device: kumo.ones(4, device=device),
    "full": lambda device: kumo.full((2,), 7, device=device),
    "eye": lambda device: kumo.eye(3, k=1, device=device),
    "identity": lambda device: kumo.identity(2, device=device),
    "tri": lambda device: kumo.tri(3, device=device),
    "linspace": lambda device: kumo.linspace(0, 1, 5, device=device),
    "logspace": lambda device: kumo.logspace(0, 1, 5, device=device),
    "geomspace": lambda device: kumo.geomspace(1, 8, 4, device=device),
    "empty_like": lambda device: kumo.empty_like(kumo.ones((2, 2)), device=device),
    "zeros_like": lambda device: kumo.zeros_like(kumo.ones((2, 2)), device=device),
    "ones_like": lambda device: kumo.ones_like(kumo.ones((2, 2)), device=device),
    "full_like": lambda device: kumo.full_like(kumo.ones((2, 2)), 3, device=device),
    "from_dlpack": lambda device: kumo.from_dlpack(numpy.arange(3.0), device=device),
    "astype": lambda device: kumo.astype(kumo.arange(3), kumo.float32, device=device),
    "fftfreq": lambda device: kumo.fft.fftfreq(4, device=device),
}


@pytest.mark.parametrize("name", sorted(CREATIONS))
@pytest.mark.parametrize("device", ["cpu", kumo.Device("cpu")], ids=["str", "Device"])
def test_creation_on_named_device(name, device):
    with_device = CREATIONS[name](device)
    without = CREATIONS[name](None)
    assert with_device.device == "cpu"
    assert with_device.dtype == without.dtype and with_device.shape == without.shape
    if name != "empty" and name != "empty_like":
        assert_array_equal(with_device, without.get())


def test_creation_with_array_device_attribute():
    a = kumo.arange(3)
    assert kumo.zeros(2, device=a.device).device == a.device


@pytest.mark.parametrize("name", sorted(CREATIONS))
def test_creation_rejects_unknown_device(name):
    with pytest.raises(ValueError, match="device"):
        CREATIONS[name]("tpu:0")


@pytest.mark.skipif(kumo.cuda.is_available(), reason="checks the error without a GPU")
def test_creation_on_missing_gpu_raises():
    with pytest.raises(Exception, match="CUDA"):
        kumo.zeros(2, device="cuda")


def test_device_argument_leaves_current_device_alone():
    before = kumo.get_device()
    kumo.zeros(2, device="cpu")
    with pytest.raises(ValueError):
        kumo.zeros(2, device="nowhere")
    assert kumo.get_device() == before


@pytest.mark.parametrize("order", ["C", "F", "K"])
def test_like_on_device_keeps_layout(order):
    proto = kumo.asfortranarray(kumo.ones((3, 4)))
    r = kumo.empty_like(proto, order=order, device="cpu")
    want = numpy.empty_like(numpy.asfortranarray(numpy.ones((3, 4))), order=order)
    assert r._f_contiguous == want.flags.f_contiguous and r._c_contiguous == want.flags.c_contiguous


def test_asarray_on_same_device_copy_false_is_no_copy():
    a = kumo.arange(4)
    assert kumo.asarray(a, device="cpu", copy=False) is a


# ---- astype ------------------------------------------------------------------

@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", [numpy.bool_, numpy.int8, numpy.uint32, numpy.float32, numpy.complex128])
def test_astype_matches_numpy(src, dst):
    n, k = make_pair("3d", src)
    with numpy.errstate(all="ignore"):
        want = numpy.astype(n, dst)
    assert_array_equal(kumo.astype(k, dst), want)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_astype_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    assert_array_equal(kumo.astype(k, numpy.int32), numpy.astype(n, numpy.int32))


def test_astype_copy_semantics():
    a = kumo.arange(3.0)
    assert kumo.astype(a, a.dtype, copy=False) is a
    b = kumo.astype(a, a.dtype)
    assert b is not a
    b[0] = 9
    assert float(a[0]) == 0.0


def test_astype_needs_an_array():
    with pytest.raises(TypeError):
        kumo.astype([1, 2], kumo.float32)


def test_astype_positional_only():
    with pytest.raises(TypeError):
        kumo.astype(x=kumo.arange(2), dtype=kumo.float32)


# ---- where the standard differs from NumPy -----------------------------------

@pytest.mark.parametrize("dtype,want", [(numpy.float32, numpy.complex64), (numpy.float64, numpy.complex128),
                                        (numpy.complex64, numpy.complex64), (numpy.int64, numpy.complex128)])
def test_array_api_eigvals_is_complex(dtype, want):
    a = numpy.array([[2.0, 1.0], [0.0, 3.0]]).astype(dtype)
    w = xp.linalg.eigvals(kumo.asarray(a))
    assert w.dtype == want
    numpy.testing.assert_allclose(numpy.sort_complex(w.get()), numpy.sort_complex(numpy.linalg.eigvals(a)),
                                  rtol=1e-5)


@pytest.mark.parametrize("dtype,want", [(numpy.float32, numpy.complex64), (numpy.float64, numpy.complex128)])
def test_array_api_eig_is_complex(dtype, want):
    a = numpy.array([[2.0, 1.0], [0.0, 3.0]], dtype=dtype)
    w, v = xp.linalg.eig(kumo.asarray(a))
    assert w.dtype == want and v.dtype == want
    nw, nv = numpy.linalg.eig(a)
    numpy.testing.assert_allclose(w.get(), nw, rtol=1e-5)
    numpy.testing.assert_allclose(v.get(), nv, rtol=1e-5, atol=1e-6)


def test_numpy_eig_keeps_numpy_semantics():
    a = kumo.asarray([[2.0, 1.0], [0.0, 3.0]])
    assert kumo.linalg.eigvals(a).dtype == numpy.linalg.eigvals(a.get()).dtype == numpy.float64


def test_array_api_eig_of_rotation_is_complex():
    a = numpy.array([[0.0, -1.0], [1.0, 0.0]])
    w = xp.linalg.eigvals(kumo.asarray(a))
    numpy.testing.assert_allclose(numpy.sort_complex(w.get()), [-1j, 1j], atol=1e-12)


@pytest.mark.parametrize("dtype", [numpy.int64, numpy.float32, numpy.float64, numpy.uint8])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_array_api_sort_descending(dtype, axis):
    n = numpy.random.default_rng(1).integers(0, 5, (6, 7)).astype(dtype)
    got = xp.sort(kumo.asarray(n), axis=axis, descending=True)
    assert_array_equal(got, numpy.flip(numpy.sort(n, axis=axis), axis=axis))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_array_api_argsort_descending_is_stable(axis):
    n = numpy.random.default_rng(2).integers(0, 3, (8, 9))
    got = xp.argsort(kumo.asarray(n), axis=axis, descending=True).get()
    # Stable descending: sort by (-value, original position).
    positions = numpy.indices(n.shape)[axis % 2]
    want = numpy.lexsort((numpy.moveaxis(positions, axis, -1), -numpy.moveaxis(n, axis, -1)), axis=-1)
    assert numpy.array_equal(got, numpy.moveaxis(want, -1, axis))


def test_array_api_argsort_ascending_default():
    n = numpy.array([3, 1, 2, 1])
    assert_array_equal(xp.argsort(kumo.asarray(n)), numpy.argsort(n, stable=True))


def test_array_api_expand_dims_default_axis():
    assert xp.expand_dims(kumo.ones((2, 3))).shape == (1, 2, 3)
    assert xp.expand_dims(kumo.ones((2, 3)), axis=-1).shape == (2, 3, 1)


@pytest.mark.parametrize("fn", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("dtype", [None, numpy.float32, numpy.float64])
def test_array_api_fftfreq_dtype(fn, dtype):
    got = getattr(xp.fft, fn)(8, d=0.5, dtype=dtype)
    want = getattr(numpy.fft, fn)(8, d=0.5)
    assert got.dtype == (want.dtype if dtype is None else dtype)
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-6)


def test_2025_scalar_arguments():
    a = kumo.asarray([1.0, 2.0, 3.0])
    assert int(xp.searchsorted(a, 2.5)) == 2
    assert_array_equal(xp.isin(a, 2.0), numpy.isin(a.get(), 2.0))
    assert isinstance(xp.meshgrid(a, a), tuple)
    assert isinstance(xp.broadcast_arrays(a, a), tuple)
    assert xp.broadcast_shapes((2, 1), (3,)) == (2, 3)


def test_dlpack_round_trip_with_max_version():
    a = kumo.arange(6.0).reshape(2, 3)
    capsule = a.__dlpack__(max_version=(1, 0))
    assert type(capsule).__name__ == "PyCapsule"
    assert numpy.array_equal(numpy.from_dlpack(a), a.get())
