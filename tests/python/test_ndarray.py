"""kumo.ndarray attributes and methods compared with numpy.ndarray."""
import copy
import operator

import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair

CAST_TARGETS = [numpy.bool_, numpy.int8, numpy.uint32, numpy.float32, numpy.float64, numpy.complex128]


def shares_memory(a, b):
    return a._same_memory(b)


def assert_same_strides(k, n):
    if n.size:
        assert k.strides == n.strides, (k.strides, n.strides)


# ---- attributes ----

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_basic_attributes(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert k.shape == n.shape
    assert k.dtype == n.dtype
    assert k.ndim == n.ndim
    assert k.size == n.size
    assert k.itemsize == n.itemsize
    assert k.nbytes == n.nbytes


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float16, numpy.float64, numpy.complex128])
def test_strides(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert_same_strides(k, n)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_T(layout):
    n, k = make_pair(layout, numpy.int32)
    t = k.T
    assert_array_equal(t, n.T)
    assert_same_strides(t, n.T)


@pytest.mark.parametrize("layout", ["3d", "transposed", "negative", "broadcast"])
def test_mT(layout):
    n, k = make_pair(layout, numpy.int32)
    assert_array_equal(k.mT, n.mT)
    assert_same_strides(k.mT, n.mT)


@pytest.mark.parametrize("layout", ["0d", "1d"])
def test_mT_of_low_ndim_raises(layout):
    _, k = make_pair(layout, numpy.int32)
    with pytest.raises(ValueError):
        k.mT


@pytest.mark.parametrize("layout", LAYOUTS)
def test_flags_contiguity(layout):
    n, k = make_pair(layout, numpy.float32)
    assert k.flags.c_contiguous == n.flags.c_contiguous
    assert k.flags.f_contiguous == n.flags.f_contiguous


@pytest.mark.parametrize("make", [lambda m: m.zeros((1, 3)), lambda m: m.zeros((3, 1))[::2],
                                  lambda m: m.zeros((3, 4))[:, ::2], lambda m: m.zeros((3, 4))[:, 1:2],
                                  lambda m: m.zeros((3, 4))[:, ::-1], lambda m: m.zeros((1, 1))[:, ::-1],
                                  lambda m: m.zeros((2, 3, 4)).transpose(1, 0, 2)])
def test_flags_contiguity_of_views(make):
    k, n = make(kumo), make(numpy)
    assert (k.flags.c_contiguous, k.flags.f_contiguous) == (n.flags.c_contiguous, n.flags.f_contiguous)


def test_flags_owndata():
    k = kumo.arange(6)
    assert k.flags.owndata
    assert not k[1:].flags.owndata
    assert not k.reshape(2, 3).flags.owndata


def test_flags_mapping_access():
    k = kumo.arange(3)
    assert k.flags["C_CONTIGUOUS"] and k.flags["WRITEABLE"] and k.flags["OWNDATA"]


def test_flags_repr_matches_numpy():
    assert repr(kumo.zeros((2, 3)).flags) == repr(numpy.zeros((2, 3)).flags)


def test_flags_writeable_false_blocks_assignment():
    k = kumo.arange(3)
    k.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        k[0] = 1


def test_view_of_readonly_cannot_be_made_writeable():
    k = kumo.arange(3)
    k.flags.writeable = False
    v = k[1:]
    assert not v.flags.writeable
    with pytest.raises(ValueError):
        v.flags.writeable = True


# ---- base ----

def test_base_of_owner_is_none():
    assert kumo.arange(3).base is None


@pytest.mark.parametrize("view", [lambda a: a[0], lambda a: a.T, lambda a: a.reshape(6, 4), lambda a: a[..., ::2],
                                  lambda a: a[None], lambda a: a.ravel(), lambda a: a.swapaxes(0, 1),
                                  lambda a: a.squeeze(), lambda a: a.view(numpy.int32), lambda a: a[...]])
def test_base_of_view_is_owner(view):
    a = kumo.arange(24).reshape(2, 3, 4).copy()
    assert view(a).base is a


def test_base_of_view_of_view_is_owner():
    a = kumo.arange(24).reshape(2, 3, 4).copy()
    assert a[0][1].base is a
    assert a.T[::2].T.base is a


@pytest.mark.parametrize("make", [lambda a: a.copy(), lambda a: a.astype(numpy.float32), lambda a: a.flatten(),
                                  lambda a: a.T.ravel()])
def test_base_of_copy_is_none(make):
    a = kumo.arange(6).reshape(2, 3).copy()
    assert make(a).base is None


# ---- real / imag ----

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
def test_real_imag_of_complex(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert_array_equal(k.real, n.real)
    assert_array_equal(k.imag, n.imag)
    assert_same_strides(k.real, n.real)


def test_real_imag_of_complex_are_views():
    k = kumo.array([1 + 2j, 3 - 4j])
    assert k.real.base is k and k.imag.base is k


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
def test_real_imag_writable_views(dtype):
    n = numpy.array([1 + 2j, 3 - 4j, 5j], dtype=dtype)
    k = kumo.array(n)
    for a in (n, k):
        a.real[0] = 9
        a.imag[1:] = 7
    assert_array_equal(k, n)


def test_set_real_imag_attributes():
    n = numpy.array([1 + 2j, 3 - 4j])
    k = kumo.array(n)
    for a in (n, k):
        a.real = [5, 6]
        a.imag = 0.5
    assert_array_equal(k, n)


@pytest.mark.parametrize("dtype", [numpy.int16, numpy.float32, numpy.bool_])
def test_real_of_real_is_self(dtype):
    k = kumo.ones(3, dtype=dtype)
    assert k.real is k


@pytest.mark.parametrize("dtype", [numpy.int16, numpy.float32])
def test_imag_of_real_is_readonly_zeros(dtype):
    k = kumo.ones(3, dtype=dtype)
    assert_array_equal(k.imag, numpy.ones(3, dtype=dtype).imag)
    assert not k.imag.flags.writeable


def test_set_imag_of_real_raises():
    with pytest.raises(TypeError):
        kumo.ones(3).imag = 1


def test_device_attribute():
    assert kumo.arange(3).device == kumo.get_device()
    assert str(kumo.arange(3).device) == "cpu"


# ---- astype ----

@pytest.mark.parametrize("to", CAST_TARGETS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_astype(dtype, to):
    n, k = make_pair("negative", dtype)
    assert_array_equal(k.astype(to), n.astype(to))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_astype_layouts(layout):
    n, k = make_pair(layout, numpy.int64)
    r = k.astype(numpy.float64)
    e = n.astype(numpy.float64)
    assert_array_equal(r, e)
    if layout != "broadcast":
        assert_same_strides(r, e)


def test_astype_copy_false_same_dtype_returns_self():
    k = kumo.arange(3)
    assert k.astype(numpy.int64, copy=False) is k


def test_astype_copy_false_other_dtype_copies():
    k = kumo.arange(3)
    r = k.astype(numpy.float64, copy=False)
    assert r is not k and r.dtype == numpy.float64


def test_astype_default_copies():
    k = kumo.arange(3)
    r = k.astype(numpy.int64)
    assert r is not k and not shares_memory(r, k)


@pytest.mark.parametrize("casting,to,ok", [("safe", numpy.int8, False), ("safe", numpy.float64, True),
                                           ("same_kind", numpy.int8, True), ("same_kind", numpy.float32, True),
                                           ("same_kind", numpy.bool_, False), ("no", numpy.int32, False),
                                           ("equiv", numpy.int64, True), ("unsafe", numpy.bool_, True)])
def test_astype_casting(casting, to, ok):
    n = numpy.arange(3)
    k = kumo.arange(3)
    if ok:
        assert_array_equal(k.astype(to, casting=casting), n.astype(to, casting=casting))
    else:
        with pytest.raises(TypeError):
            n.astype(to, casting=casting)
        with pytest.raises(TypeError):
            k.astype(to, casting=casting)


def test_astype_order_f():
    k = kumo.arange(6).reshape(2, 3).astype(numpy.float32, order="F")
    assert k.strides == numpy.arange(6).reshape(2, 3).astype(numpy.float32, order="F").strides


# ---- copy ----

@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", ["0d", "1d", "3d", "transposed", "negative", "broadcast"])
def test_copy_order_strides(layout, order):
    n, k = make_pair(layout, numpy.int16)
    r = k.copy(order=order)
    e = n.copy(order=order)
    assert_array_equal(r, e)
    assert r.strides == e.strides
    assert not shares_memory(r, k)


@pytest.mark.parametrize("view", [lambda a: a.transpose(1, 0, 2), lambda a: a[:, ::-1], lambda a: a[::-1, :, ::2],
                                  lambda a: a.transpose(2, 0, 1)[..., ::-1]])
@pytest.mark.parametrize("order", ["A", "K"])
def test_copy_order_of_3d_views(view, order):
    n = numpy.arange(48, dtype=numpy.float32).reshape(2, 4, 6)
    k = kumo.array(n)
    r, e = view(k).copy(order=order), view(n).copy(order=order)
    assert_array_equal(r, e)
    assert r.strides == e.strides


def test_copy_bad_order_raises():
    with pytest.raises(ValueError):
        kumo.arange(3).copy(order="X")


def test_copy_owns_data_and_is_writeable():
    r = kumo.broadcast_to(kumo.arange(3), (2, 3)).copy()
    assert r.flags.owndata and r.flags.writeable
    r[0, 0] = 5
    assert_array_equal(r, numpy.array([[5, 1, 2], [0, 1, 2]]))


@pytest.mark.parametrize("func", [copy.copy, copy.deepcopy])
@pytest.mark.parametrize("layout", ["1d", "transposed", "negative"])
def test_copy_module(func, layout):
    n, k = make_pair(layout, numpy.float64)
    r, e = func(k), func(n)
    assert_array_equal(r, e)
    assert r.strides == e.strides
    assert not shares_memory(r, k)


# ---- reshape ----

@pytest.mark.parametrize("shape", [(24,), (4, 6), (2, 12), (-1,), (4, -1), (2, -1, 3), (1, 24, 1), (2, 3, 2, 2)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_reshape_values(shape, order):
    n = numpy.arange(24).reshape(2, 3, 4)
    k = kumo.array(n)
    assert_array_equal(k.reshape(shape, order=order), n.reshape(shape, order=order))


def test_reshape_varargs():
    assert kumo.zeros(12).reshape(3, 4).shape == (3, 4)


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[:, ::2], lambda a: a[:, :, ::2],
                                  lambda a: a[::-1], lambda a: a[:, 1:], lambda a: a.transpose(1, 0, 2)])
@pytest.mark.parametrize("shape", [(-1,), (2, -1), (-1, 2), (1, 2, 1, -1)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_reshape_is_view_exactly_when_numpy_is(view, shape, order):
    n = numpy.arange(48).reshape(2, 4, 6)
    k = kumo.array(n)
    nv, kv = view(n), view(k)
    try:
        e = nv.reshape(shape, order=order)
    except ValueError:
        with pytest.raises(ValueError):
            kv.reshape(shape, order=order)
        return
    r = kv.reshape(shape, order=order)
    assert_array_equal(r, e)
    assert shares_memory(r, k) == numpy.shares_memory(e, n)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_reshape_layouts(layout):
    n, k = make_pair(layout, numpy.uint8)
    assert_array_equal(k.reshape(-1), n.reshape(-1))


def test_reshape_copy_false_raises_when_copy_needed():
    with pytest.raises(ValueError):
        kumo.arange(6).reshape(2, 3).T.reshape(6, copy=False)


def test_reshape_copy_false_gives_view():
    k = kumo.arange(6)
    assert shares_memory(k.reshape(2, 3, copy=False), k)


def test_reshape_copy_true_copies():
    k = kumo.arange(6)
    assert not shares_memory(k.reshape(2, 3, copy=True), k)


@pytest.mark.parametrize("shape", [(5, -1), (25,), (-1, -1), (0, -1)])
def test_reshape_bad_shape_raises(shape):
    with pytest.raises(ValueError):
        numpy.arange(24).reshape(shape)
    with pytest.raises(ValueError):
        kumo.arange(24).reshape(shape)


def test_reshape_empty():
    assert_array_equal(kumo.zeros((0, 3)).reshape(3, 0, 5), numpy.zeros((0, 3)).reshape(3, 0, 5))


def test_reshape_0d():
    assert_array_equal(kumo.array(5).reshape(1, 1), numpy.array(5).reshape(1, 1))


# ---- ravel / flatten ----

@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_ravel(layout, order):
    n, k = make_pair(layout, numpy.int32)
    r = k.ravel(order)
    assert_array_equal(r, n.ravel(order))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[:, ::2], lambda a: a[::-1],
                                  lambda a: a.transpose(1, 0, 2), lambda a: a[:, :1], lambda a: a.T[::-1],
                                  lambda a: a.transpose(2, 0, 1)[:, ::-1], lambda a: a[..., ::2].transpose(1, 2, 0),
                                  lambda a: a[0, :, 0]])
def test_ravel_view_exactly_when_numpy(view, order):
    n = numpy.arange(48).reshape(2, 4, 6)
    k = kumo.array(n)
    r, e = view(k).ravel(order), view(n).ravel(order)
    assert_array_equal(r, e)
    assert shares_memory(r, k) == numpy.shares_memory(e, n)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("shape,perm", [((2, 1, 3), (2, 1, 0)), ((1, 4, 3), (1, 0, 2)), ((2, 1, 3), (0, 2, 1))])
def test_ravel_of_broadcast_views(shape, perm, order):
    size = int(numpy.prod(shape))
    n = numpy.broadcast_to(numpy.arange(size).reshape(shape), (2, 4, 3)).transpose(perm)
    k = kumo.broadcast_to(kumo.arange(size).reshape(shape), (2, 4, 3)).transpose(perm)
    assert_array_equal(k.ravel(order), n.ravel(order))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_flatten_always_copies(layout, order):
    n, k = make_pair(layout, numpy.int32)
    r = k.flatten(order)
    assert_array_equal(r, n.flatten(order))
    assert not shares_memory(r, k)


# ---- transpose / swapaxes / squeeze ----

@pytest.mark.parametrize("axes", [None, (2, 0, 1), (0, 1, 2), (-1, 0, 1), [1, 0, 2]])
def test_transpose_axes(axes):
    n = numpy.arange(24).reshape(2, 3, 4)
    k = kumo.array(n)
    r, e = (k.transpose(), n.transpose()) if axes is None else (k.transpose(axes), n.transpose(axes))
    assert_array_equal(r, e)
    assert r.strides == e.strides
    assert shares_memory(r, k)


def test_transpose_varargs():
    assert kumo.zeros((2, 3, 4)).transpose(2, 0, 1).shape == (4, 2, 3)


@pytest.mark.parametrize("axes,exc", [((0, 1), ValueError), ((0, 0, 1), ValueError),
                                      ((0, 1, 5), numpy.exceptions.AxisError)])
def test_transpose_bad_axes(axes, exc):
    with pytest.raises(exc):
        numpy.zeros((2, 3, 4)).transpose(axes)
    with pytest.raises(exc):
        kumo.zeros((2, 3, 4)).transpose(axes)


@pytest.mark.parametrize("a1,a2", [(0, 2), (1, -1), (0, 0), (-3, 1)])
def test_swapaxes(a1, a2):
    n = numpy.arange(24).reshape(2, 3, 4)
    k = kumo.array(n)
    assert_array_equal(k.swapaxes(a1, a2), n.swapaxes(a1, a2))
    assert k.swapaxes(a1, a2).strides == n.swapaxes(a1, a2).strides


def test_swapaxes_out_of_bounds():
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.zeros((2, 3)).swapaxes(0, 2)


@pytest.mark.parametrize("axis", [None, 0, 2, (0, 2), -1, (0, 2, 3)])
def test_squeeze(axis):
    n = numpy.zeros((1, 3, 1, 1))
    k = kumo.zeros((1, 3, 1, 1))
    assert_array_equal(k.squeeze(axis), n.squeeze(axis))


@pytest.mark.parametrize("axis,exc", [(1, ValueError), (4, numpy.exceptions.AxisError)])
def test_squeeze_bad_axis(axis, exc):
    with pytest.raises(exc):
        kumo.zeros((1, 3, 1, 1)).squeeze(axis)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_squeeze_layouts(layout):
    n, k = make_pair(layout, numpy.float32)
    assert_array_equal(k.squeeze(), n.squeeze())


# ---- fill ----

@pytest.mark.parametrize("layout", ["0d", "empty", "1d", "3d", "transposed", "negative"])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint64, numpy.float16, numpy.complex64])
def test_fill(dtype, layout):
    n, k = make_pair(layout, dtype)
    n = n.copy()  # views of a NumPy temporary are fine to write
    n.fill(1)
    k.fill(1)
    assert_array_equal(k, n)


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.complex128])
def test_fill_float_value(dtype):
    n = numpy.zeros(3, dtype=dtype)
    k = kumo.zeros(3, dtype=dtype)
    n.fill(2.75)
    k.fill(2.75)
    assert_array_equal(k, n)


def test_fill_view_writes_through():
    k = kumo.zeros((2, 4))
    k[:, ::2].fill(7)
    n = numpy.zeros((2, 4))
    n[:, ::2].fill(7)
    assert_array_equal(k, n)


def test_fill_readonly_raises():
    with pytest.raises(ValueError):
        kumo.broadcast_to(kumo.arange(3), (2, 3)).fill(1)


# ---- item / tolist ----

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_item_type_and_value(dtype):
    n, k = make_pair("3d", dtype)
    r, e = k.item(5), n.item(5)
    assert r == e and type(r) is type(e)


@pytest.mark.parametrize("args", [(), (0,), (1, 2, 3), (-1,)])
def test_item_args(args):
    n = numpy.arange(24).reshape(2, 3, 4) if args != () else numpy.array([7])
    k = kumo.array(n)
    assert k.item(*args) == n.item(*args)


@pytest.mark.parametrize("args", [(), (100,), (0, 5, 0)])
def test_item_errors(args):
    k = kumo.arange(24).reshape(2, 3, 4)
    with pytest.raises((ValueError, IndexError)):
        k.item(*args)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint64, numpy.float16, numpy.complex64])
def test_tolist(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert k.tolist() == n.tolist()


# ---- view(dtype) ----

@pytest.mark.parametrize("to", [numpy.int8, numpy.uint16, numpy.int32, numpy.float64, numpy.complex128])
def test_view_dtype(to):
    n = numpy.arange(8, dtype=numpy.int64).reshape(2, 4)
    k = kumo.array(n)
    r, e = k.view(to), n.view(to)
    assert_array_equal(r, e)
    assert r.strides == e.strides
    assert shares_memory(r, k)


def test_view_dtype_0d():
    assert_array_equal(kumo.array(1.5).view(numpy.int64), numpy.array(1.5).view(numpy.int64))


def test_view_larger_dtype_bad_size_raises():
    with pytest.raises(ValueError):
        kumo.arange(3, dtype=numpy.int16).view(numpy.int32)


def test_view_no_dtype_is_view():
    k = kumo.arange(3)
    v = k.view()
    assert v is not k and v.base is k


# ---- get / set ----

@pytest.mark.parametrize("layout", LAYOUTS)
def test_get(layout):
    n, k = make_pair(layout, numpy.float32)
    g = k.get()
    assert isinstance(g, numpy.ndarray)
    numpy.testing.assert_array_equal(g, n)
    assert g.dtype == n.dtype


def test_get_is_a_copy():
    k = kumo.arange(3)
    g = k.get()
    g[0] = 5
    assert int(k[0]) == 0


def test_set():
    k = kumo.zeros((2, 3), dtype=numpy.int32)
    k.set(numpy.arange(6, dtype=numpy.int32).reshape(2, 3))
    assert_array_equal(k, numpy.arange(6, dtype=numpy.int32).reshape(2, 3))


def test_set_shape_mismatch_raises():
    with pytest.raises(ValueError):
        kumo.zeros(3).set(numpy.zeros(4))


# ---- len / iter ----

@pytest.mark.parametrize("layout", ["empty", "1d", "3d", "transposed", "broadcast"])
def test_len(layout):
    n, k = make_pair(layout, numpy.int8)
    assert len(k) == len(n)


def test_len_0d_raises():
    with pytest.raises(TypeError):
        len(kumo.array(1))


@pytest.mark.parametrize("layout", ["empty", "1d", "3d", "negative"])
def test_iter(layout):
    n, k = make_pair(layout, numpy.int16)
    items = list(k)
    assert len(items) == len(n)
    for ki, ni in zip(items, n):
        assert_array_equal(ki, ni)


def test_iter_0d_raises():
    with pytest.raises(TypeError):
        iter(kumo.array(1))


# ---- scalar conversions ----

@pytest.mark.parametrize("func", [bool, int, float, complex])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint32, numpy.float16, numpy.float64])
def test_scalar_conversion_0d(func, dtype):
    n = numpy.array(3, dtype=dtype)
    k = kumo.array(n)
    r, e = func(k), func(n)
    assert r == e and type(r) is type(e)


@pytest.mark.parametrize("func", [int, float, complex])
@pytest.mark.parametrize("shape", [(1,), (2,), (0,), (1, 1)])
def test_scalar_conversion_of_nd_raises(func, shape):
    with pytest.raises(TypeError):
        func(numpy.ones(shape))
    with pytest.raises(TypeError):
        func(kumo.ones(shape))


@pytest.mark.parametrize("func", [int, float])
def test_real_conversion_of_complex_raises(func):
    with pytest.raises(TypeError):
        func(kumo.array(1 + 2j))


def test_bool_of_size_one_nd():
    assert bool(kumo.array([[0]])) is False
    assert bool(kumo.array([3])) is True


@pytest.mark.parametrize("shape", [(2,), (0,), (2, 2)])
def test_bool_of_other_sizes_raises(shape):
    with pytest.raises(ValueError):
        bool(kumo.ones(shape))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint64, numpy.int64])
def test_index(dtype):
    k = kumo.array(2, dtype=dtype)
    assert operator.index(k) == 2
    assert [10, 20, 30][k] == 30


@pytest.mark.parametrize("value", [numpy.array(2.0), numpy.array([1]), numpy.array(True)])
def test_index_of_non_integer_scalar_raises(value):
    with pytest.raises(TypeError):
        operator.index(value)
    with pytest.raises(TypeError):
        operator.index(kumo.array(value))


# ---- NumPy interop basics ----

def test_array_protocol_zero_copy_on_host():
    k = kumo.arange(4)
    n = numpy.asarray(k)
    n[0] = 9
    assert int(k[0]) == 9


def test_array_protocol_dtype():
    n = numpy.asarray(kumo.arange(3), dtype=numpy.float32)
    assert n.dtype == numpy.float32
