"""Array creation routines compared with NumPy."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, FLOAT_DTYPES, INT_DTYPES, assert_allclose, assert_array_equal, make_pair

SOME_DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32, numpy.float64,
               numpy.complex128]


def assert_same_strides(k, n):
    # NumPy gives freshly allocated empty arrays zero strides; only compare
    # the layout of arrays that hold elements.
    if n.size:
        assert k.strides == n.strides, (k.strides, n.strides)


def shares_memory(a, b):
    return a._same_memory(b)


# ---- array ----

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_array_nested_list_with_dtype(dtype):
    data = [[1, 0, 2], [3, 1, 0]]
    assert_array_equal(kumo.array(data, dtype=dtype), numpy.array(data, dtype=dtype))


@pytest.mark.parametrize("data", [[1, 2, 3], [1.5, 2], [1, 2.5, 3j], [True, False], [[[1]], [[2]]], [],
                                  [[], []], [2 ** 63, 1], (1, 2), [(1, 2), [3, 4]]])
def test_array_infers_dtype_like_numpy(data):
    assert_array_equal(kumo.array(data), numpy.array(data))


@pytest.mark.parametrize("value", [0, -3, 2.5, 1 + 2j, True, numpy.float32(1.5), numpy.int8(-2), numpy.uint64(7)])
def test_array_from_scalar_is_0d(value):
    k = kumo.array(value)
    n = numpy.array(value)
    assert k.ndim == 0
    assert_array_equal(k, n)


@pytest.mark.parametrize("data", [[[1, 2], [3]], [1, [2, 3]], [[1, 2], [3, [4]]]])
def test_array_ragged_raises_value_error(data):
    with pytest.raises(ValueError):
        numpy.array(data)
    with pytest.raises(ValueError):
        kumo.array(data)


@pytest.mark.parametrize("ndmin", [0, 1, 2, 4])
@pytest.mark.parametrize("data", [5, [1, 2], [[1, 2]]])
def test_array_ndmin(data, ndmin):
    assert_array_equal(kumo.array(data, ndmin=ndmin), numpy.array(data, ndmin=ndmin))


def test_array_ndmin_on_kumo_array_prepends_axes():
    assert kumo.array(kumo.arange(3), ndmin=3).shape == (1, 1, 3)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_array_of_kumo_array_copies(layout):
    n, k = make_pair(layout, numpy.float64)
    c = kumo.array(k)
    assert_array_equal(c, numpy.array(n))
    assert not shares_memory(c, k)


@pytest.mark.parametrize("layout", ["3d", "transposed", "negative", "broadcast"])
def test_array_of_kumo_array_keeps_layout_for_order_k(layout):
    n, k = make_pair(layout, numpy.int32)
    assert_same_strides(kumo.array(k), numpy.array(n))


def test_array_copy_false_returns_same_array():
    k = kumo.arange(4)
    assert kumo.array(k, copy=False) is k


def test_array_copy_false_from_list_raises():
    with pytest.raises(ValueError, match="copy"):
        kumo.array([1, 2], copy=False)


def test_array_copy_false_with_other_dtype_raises():
    with pytest.raises(ValueError, match="copy"):
        kumo.array(kumo.arange(4), dtype=numpy.float32, copy=False)


def test_array_copy_none_reuses_kumo_array():
    k = kumo.arange(4)
    assert kumo.array(k, copy=None) is k


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int8, numpy.complex64])
def test_array_of_kumo_array_with_dtype_casts(dtype):
    n = numpy.array([[0.0, 1.5], [-2.0, 3.0]])
    assert_array_equal(kumo.array(kumo.array(n), dtype=dtype), numpy.array(n, dtype=dtype))


def test_array_order_f_is_fortran_contiguous():
    k = kumo.array([[1, 2, 3], [4, 5, 6]], order="F")
    n = numpy.array([[1, 2, 3], [4, 5, 6]], order="F")
    assert k.flags.f_contiguous and not k.flags.c_contiguous
    assert k.strides == n.strides
    assert_array_equal(k, n)


def test_array_from_list_of_kumo_arrays():
    assert_array_equal(kumo.array([kumo.arange(2), kumo.arange(2) + 5]), numpy.array([[0, 1], [5, 6]]))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_array_from_numpy_array(layout):
    n, _ = make_pair(layout, numpy.uint8)
    assert_array_equal(kumo.array(n), n)


@pytest.mark.parametrize("obj", ["abc", None, object()])
def test_array_of_unsupported_type_raises_type_error(obj):
    with pytest.raises(TypeError):
        kumo.array(obj)


# ---- asarray / asanyarray / ascontiguousarray / asfortranarray ----

@pytest.mark.parametrize("func", [kumo.asarray, kumo.asanyarray])
def test_asarray_returns_input_unchanged(func):
    k = kumo.arange(5)
    assert func(k) is k


@pytest.mark.parametrize("func", [kumo.asarray, kumo.asanyarray])
def test_asarray_from_list(func):
    assert_array_equal(func([[1, 2], [3, 4]]), numpy.asarray([[1, 2], [3, 4]]))


def test_asarray_same_dtype_is_no_copy():
    k = kumo.arange(5, dtype=numpy.int32)
    assert kumo.asarray(k, dtype=numpy.int32) is k


def test_asarray_other_dtype_converts():
    k = kumo.arange(5)
    r = kumo.asarray(k, dtype=numpy.float32)
    assert_array_equal(r, numpy.arange(5, dtype=numpy.float32))


def test_asarray_copy_true_copies():
    k = kumo.arange(5)
    r = kumo.asarray(k, copy=True)
    assert r is not k and not shares_memory(r, k)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_ascontiguousarray(layout):
    n, k = make_pair(layout, numpy.float32)
    r = kumo.ascontiguousarray(k)
    e = numpy.ascontiguousarray(n)
    assert_array_equal(r, e)
    assert r.flags.c_contiguous
    assert_same_strides(r, e)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_asfortranarray(layout):
    n, k = make_pair(layout, numpy.float32)
    r = kumo.asfortranarray(k)
    e = numpy.asfortranarray(n)
    assert_array_equal(r, e)
    assert r.flags.f_contiguous
    assert_same_strides(r, e)


def test_ascontiguousarray_of_contiguous_is_no_copy():
    k = kumo.arange(6).reshape(2, 3)
    assert kumo.ascontiguousarray(k) is k


def test_ascontiguousarray_with_dtype():
    assert_array_equal(kumo.ascontiguousarray([1, 2], dtype=numpy.float32),
                       numpy.ascontiguousarray([1, 2], dtype=numpy.float32))


# ---- empty / zeros / ones / full ----

@pytest.mark.parametrize("shape", [(), 0, 3, (2, 0), (2, 3, 4)])
@pytest.mark.parametrize("dtype", SOME_DTYPES)
def test_empty_shape_and_dtype(shape, dtype):
    k = kumo.empty(shape, dtype=dtype)
    n = numpy.empty(shape, dtype=dtype)
    assert k.shape == n.shape and k.dtype == n.dtype


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("func", ["zeros", "ones"])
def test_zeros_ones(func, dtype):
    assert_array_equal(getattr(kumo, func)((2, 3), dtype=dtype), getattr(numpy, func)((2, 3), dtype=dtype))


@pytest.mark.parametrize("func", ["empty", "zeros", "ones"])
def test_default_dtype_is_float64(func):
    assert getattr(kumo, func)(3).dtype == numpy.float64


@pytest.mark.parametrize("func", ["empty", "zeros", "ones"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_creation_order(func, order):
    k = getattr(kumo, func)((2, 3, 4), order=order)
    n = getattr(numpy, func)((2, 3, 4), order=order)
    assert k.strides == n.strides


def test_zeros_negative_dimension_raises():
    with pytest.raises(ValueError):
        kumo.zeros(-1)


def test_zeros_bad_order_raises():
    with pytest.raises(ValueError):
        kumo.zeros(3, order="X")


@pytest.mark.parametrize("fill_value", [7, -2.5, 1 + 1j, True])
def test_full_infers_dtype_from_fill_value(fill_value):
    assert_array_equal(kumo.full((2, 2), fill_value), numpy.full((2, 2), fill_value))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint32, numpy.float16, numpy.complex64, numpy.bool_])
def test_full_with_dtype(dtype):
    assert_array_equal(kumo.full(3, 2.75, dtype=dtype), numpy.full(3, 2.75, dtype=dtype))


def test_full_with_array_fill_value_broadcasts():
    assert_array_equal(kumo.full((2, 3), kumo.arange(3)), numpy.full((2, 3), numpy.arange(3)))


def test_full_int8_overflow_raises():
    with pytest.raises(OverflowError):
        numpy.full(2, 1000, dtype=numpy.int8)
    with pytest.raises(OverflowError):
        kumo.full(2, 1000, dtype=numpy.int8)


@pytest.mark.parametrize("func", ["empty_like", "zeros_like", "ones_like"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_like_keeps_shape_dtype_and_layout(func, layout):
    n, k = make_pair(layout, numpy.int16)
    r = getattr(kumo, func)(k)
    e = getattr(numpy, func)(n)
    assert r.shape == e.shape and r.dtype == e.dtype
    if func != "empty_like":
        assert_array_equal(r, e)
    if layout != "broadcast":  # NumPy's K layout of a 0-stride axis is not specified
        assert_same_strides(r, e)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_full_like(layout):
    n, k = make_pair(layout, numpy.float32)
    assert_array_equal(kumo.full_like(k, 2.5), numpy.full_like(n, 2.5))


def test_full_like_int_truncates_fill_value():
    assert_array_equal(kumo.full_like(kumo.zeros(3, dtype=int), 2.7), numpy.full_like(numpy.zeros(3, int), 2.7))


@pytest.mark.parametrize("func", ["zeros_like", "ones_like"])
def test_like_with_dtype(func):
    r = getattr(kumo, func)(kumo.arange(4), dtype=numpy.complex64)
    assert_array_equal(r, getattr(numpy, func)(numpy.arange(4), dtype=numpy.complex64))


@pytest.mark.parametrize("func", ["empty_like", "zeros_like", "ones_like"])
def test_like_with_shape(func):
    r = getattr(kumo, func)(kumo.arange(4), shape=(2, 5))
    e = getattr(numpy, func)(numpy.arange(4), shape=(2, 5))
    assert r.shape == e.shape and r.dtype == e.dtype


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_like_order_of_fortran_input(order):
    n = numpy.asfortranarray(numpy.zeros((2, 3)))
    k = kumo.asfortranarray(kumo.zeros((2, 3)))
    assert kumo.zeros_like(k, order=order).strides == numpy.zeros_like(n, order=order).strides


# ---- arange ----

@pytest.mark.parametrize("args", [(5,), (0,), (-3,), (1, 10, 3), (10, 0, -3), (5, 1), (-5, 5, 2), (0, 1, 0.1),
                                  (0.5, 5), (1.0, -1.0, -0.25), (3, 3), (0, 10, 3.5), (2 ** 40, 2 ** 40 + 3)])
def test_arange(args):
    assert_allclose(kumo.arange(*args), numpy.arange(*args))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint8, numpy.int32, numpy.uint64, numpy.float16, numpy.float32,
                                   numpy.float64])
def test_arange_with_dtype(dtype):
    assert_array_equal(kumo.arange(2, 12, 3, dtype=dtype), numpy.arange(2, 12, 3, dtype=dtype))


def test_arange_float_arguments_with_int_dtype():
    assert_array_equal(kumo.arange(1.0, 2.0, 0.3, dtype=int), numpy.arange(1.0, 2.0, 0.3, dtype=int))


def test_arange_negative_step_with_dtype():
    assert_array_equal(kumo.arange(5, -5, -2, dtype=numpy.int8), numpy.arange(5, -5, -2, dtype=numpy.int8))


def test_arange_numpy_scalar_argument_dtype():
    assert_array_equal(kumo.arange(numpy.int16(4)), numpy.arange(numpy.int16(4)))


def test_arange_zero_step_raises():
    with pytest.raises(ZeroDivisionError):
        numpy.arange(0, 10, 0)
    with pytest.raises(ZeroDivisionError):
        kumo.arange(0, 10, 0)


def test_arange_bool_of_length_two():
    assert_array_equal(kumo.arange(2, dtype=bool), numpy.arange(2, dtype=bool))


def test_arange_bool_longer_than_two_raises():
    with pytest.raises(TypeError):
        kumo.arange(3, dtype=bool)


# ---- linspace / logspace / geomspace ----

@pytest.mark.parametrize("num", [0, 1, 2, 5, 50])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace(num, endpoint):
    assert_allclose(kumo.linspace(-1, 3, num, endpoint=endpoint), numpy.linspace(-1, 3, num, endpoint=endpoint))


@pytest.mark.parametrize("num,endpoint", [(5, True), (5, False), (1, True), (1, False)])
def test_linspace_retstep(num, endpoint):
    ky, ks = kumo.linspace(0, 2, num, endpoint=endpoint, retstep=True)
    ny, ns = numpy.linspace(0, 2, num, endpoint=endpoint, retstep=True)
    assert_allclose(ky, ny)
    numpy.testing.assert_equal(ks, ns)
    assert type(ks) is type(ns)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float16, numpy.int32, numpy.int64, numpy.complex128])
def test_linspace_dtype(dtype):
    assert_allclose(kumo.linspace(-3, 10, 7, dtype=dtype), numpy.linspace(-3, 10, 7, dtype=dtype))


def test_linspace_endpoint_is_exact():
    k = kumo.linspace(0.1, 0.7, 13)
    assert float(k[-1]) == 0.7


def test_linspace_negative_num_raises():
    with pytest.raises(ValueError):
        kumo.linspace(0, 1, -1)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_linspace_array_endpoints(axis):
    start, stop = [0.0, 1.0, 2.0], [4.0, 3.0, 2.0]
    assert_allclose(kumo.linspace(kumo.array(start), kumo.array(stop), 5, axis=axis),
                    numpy.linspace(start, stop, 5, axis=axis))


def test_linspace_complex_endpoints():
    assert_allclose(kumo.linspace(0, 1 + 2j, 5), numpy.linspace(0, 1 + 2j, 5))


@pytest.mark.parametrize("kwargs", [{}, {"base": 2}, {"endpoint": False}, {"num": 1}, {"dtype": numpy.float32},
                                    {"dtype": int}])
def test_logspace(kwargs):
    kw = {"num": 4, **kwargs}
    assert_allclose(kumo.logspace(0, 3, **kw), numpy.logspace(0, 3, **kw))


@pytest.mark.parametrize("start,stop,kwargs", [(1, 1000, {}), (-1, -1000, {}), (1, 256, {"num": 9, "endpoint": False}),
                                               (1, 8, {"num": 4, "dtype": int}), (2, 2, {}), (1j, 1000j, {}),
                                               (1000, 1, {"num": 4})])
def test_geomspace(start, stop, kwargs):
    kw = {"num": 4, **kwargs}
    assert_allclose(kumo.geomspace(start, stop, **kw), numpy.geomspace(start, stop, **kw))


def test_geomspace_zero_raises():
    with pytest.raises(ValueError):
        kumo.geomspace(0, 1, 3)


# ---- eye / identity / tri / tril / triu / diag / diagflat ----

@pytest.mark.parametrize("N,M,k", [(3, None, 0), (3, 4, 1), (4, 3, -1), (3, None, 5), (3, None, -5), (0, None, 0),
                                   (1, 5, 4), (2, 0, 0)])
def test_eye(N, M, k):
    assert_array_equal(kumo.eye(N, M, k), numpy.eye(N, M, k))


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.complex64])
def test_eye_dtype(dtype):
    assert_array_equal(kumo.eye(3, dtype=dtype), numpy.eye(3, dtype=dtype))


def test_eye_order_f():
    assert kumo.eye(2, 3, order="F").strides == numpy.eye(2, 3, order="F").strides


@pytest.mark.parametrize("dtype", [float, numpy.int32, bool])
def test_identity(dtype):
    assert_array_equal(kumo.identity(4, dtype=dtype), numpy.identity(4, dtype=dtype))


@pytest.mark.parametrize("N,M,k", [(3, None, 0), (3, 4, 1), (4, 3, -1), (3, None, -3), (2, 2, 5), (0, 3, 0)])
def test_tri(N, M, k):
    assert_array_equal(kumo.tri(N, M, k), numpy.tri(N, M, k))


def test_tri_dtype():
    assert_array_equal(kumo.tri(3, dtype=numpy.int16), numpy.tri(3, dtype=numpy.int16))


@pytest.mark.parametrize("func", ["tril", "triu"])
@pytest.mark.parametrize("k", [0, 1, -1, 10, -10])
@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (2, 3, 4), (3,)])
def test_tril_triu(func, k, shape):
    n = numpy.arange(1, numpy.prod(shape) + 1, dtype=numpy.int32).reshape(shape)
    assert_array_equal(getattr(kumo, func)(kumo.array(n), k), getattr(numpy, func)(n, k))


@pytest.mark.parametrize("func", ["tril", "triu"])
@pytest.mark.parametrize("layout", ["empty", "transposed", "negative", "broadcast"])
def test_tril_triu_layouts(func, layout):
    n, k = make_pair(layout, numpy.float64)
    assert_array_equal(getattr(kumo, func)(k), getattr(numpy, func)(n))


@pytest.mark.parametrize("k", [0, 1, 2, -1, -3])
def test_diag_from_1d(k):
    v = numpy.array([1, 2, 3], dtype=numpy.float32)
    assert_array_equal(kumo.diag(kumo.array(v), k), numpy.diag(v, k))


@pytest.mark.parametrize("k", [0, 1, -1, 3, -5])
@pytest.mark.parametrize("shape", [(3, 3), (3, 4), (4, 2)])
def test_diag_from_2d(shape, k):
    n = numpy.arange(numpy.prod(shape)).reshape(shape)
    assert_array_equal(kumo.diag(kumo.array(n), k), numpy.diag(n, k))


def test_diag_from_2d_is_view():
    k = kumo.arange(9).reshape(3, 3)
    d = kumo.diag(k)
    assert shares_memory(d, k)


def test_diag_3d_raises():
    with pytest.raises(ValueError):
        kumo.diag(kumo.zeros((2, 2, 2)))


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diagflat(k):
    v = [[1, 2], [3, 4]]
    assert_array_equal(kumo.diagflat(v, k), numpy.diagflat(v, k))


# ---- meshgrid ----

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("n_inputs", [1, 2, 3])
def test_meshgrid(indexing, sparse, n_inputs):
    xs = [numpy.arange(i + 2, dtype=numpy.float32) * (i + 1) for i in range(n_inputs)]
    ks = kumo.meshgrid(*[kumo.array(x) for x in xs], indexing=indexing, sparse=sparse)
    ns = numpy.meshgrid(*xs, indexing=indexing, sparse=sparse)
    assert len(ks) == len(ns)
    for kk, nn in zip(ks, ns):
        assert_array_equal(kk, nn)


def test_meshgrid_no_inputs():
    assert kumo.meshgrid() == ()


def test_meshgrid_bad_indexing_raises():
    with pytest.raises(ValueError):
        kumo.meshgrid(kumo.arange(2), indexing="xx")


def test_meshgrid_copy_false_is_view():
    x = kumo.arange(3)
    out = kumo.meshgrid(x, kumo.arange(2), copy=False)
    assert shares_memory(out[0], x)


def test_meshgrid_default_copies():
    x = kumo.arange(3)
    out = kumo.meshgrid(x, kumo.arange(2))
    assert not shares_memory(out[0], x)
    assert out[0].flags.writeable


# ---- copy / frombuffer / fromfunction ----

@pytest.mark.parametrize("layout", LAYOUTS)
def test_copy_function(layout):
    n, k = make_pair(layout, numpy.complex64)
    c = kumo.copy(k)
    assert_array_equal(c, numpy.copy(n))
    assert not shares_memory(c, k)
    if layout != "broadcast":
        assert_same_strides(c, numpy.copy(n))


def test_copy_function_of_list():
    assert_array_equal(kumo.copy([1, 2, 3]), numpy.copy([1, 2, 3]))


@pytest.mark.parametrize("dtype,count,offset", [(numpy.uint8, -1, 0), (numpy.int16, -1, 0), (numpy.int16, 1, 2),
                                                (numpy.float32, -1, 4), (numpy.complex64, 1, 0)])
def test_frombuffer(dtype, count, offset):
    buf = bytes(range(16))
    assert_array_equal(kumo.frombuffer(buf, dtype=dtype, count=count, offset=offset),
                       numpy.frombuffer(buf, dtype=dtype, count=count, offset=offset))


def test_frombuffer_bad_size_raises():
    with pytest.raises(ValueError):
        kumo.frombuffer(b"\x00\x01\x02", dtype=numpy.int16)


@pytest.mark.parametrize("dtype", [float, int, numpy.float32])
def test_fromfunction(dtype):
    def f(i, j):
        return i * 10 + j

    assert_array_equal(kumo.fromfunction(f, (2, 3), dtype=dtype), numpy.fromfunction(f, (2, 3), dtype=dtype))


def test_fromfunction_passes_kwargs():
    def f(i, scale):
        return i * scale

    assert_array_equal(kumo.fromfunction(f, (4,), scale=3.0), numpy.fromfunction(f, (4,), scale=3.0))


@pytest.mark.parametrize("make", [
    lambda m: m.empty((2**40, 2**40)),
    lambda m: m.zeros((2**62, 4)),
    lambda m: m.ones((2**61, 2, 2), dtype=m.int8),
    lambda m: m.empty((2**61,), dtype=m.float64),
    lambda m: m.broadcast_to(m.ones((1, 1)), (2**40, 2**40)),
])
def test_sizes_that_overflow_raise_value_error(make):
    with pytest.raises(ValueError):
        make(numpy)
    with pytest.raises(ValueError):
        make(kumo)



def _layouts():
    base = numpy.arange(24.0).reshape(2, 3, 4)
    return {"F": numpy.asfortranarray(base), "transposed": base.transpose(1, 0, 2), "C": base,
            "F2": numpy.asfortranarray(base[0])}


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("name", ["F", "transposed", "C", "F2"])
def test_array_copies_keep_numpys_layout_for_every_order(name, order):
    n = _layouts()[name]
    want = numpy.array(n, order=order)
    assert kumo.array(n, order=order).strides == want.strides  # from a NumPy array
    k = kumo.asarray(n)
    assert kumo.array(k, order=order).strides == want.strides  # from a kumo array
    assert kumo.asarray(k, order=order, copy=True).strides == numpy.asarray(n, order=order, copy=True).strides


ARANGE_CASES = [((0, 1, 0.1), "float16"), ((0.3, 10.7, 0.7), "float16"), ((-3, 3, 0.25), "float16"),
                ((0, 1, 0.1), "float32"), ((0.3, 10.7, 0.7), "float32"), ((1e-3, 2, 1.1e-2), "float32"),
                ((0.3, 10.7, 0.7), None), ((0.1, 7.7, 0.013), None), ((2.5, -1, -0.5), None),
                ((0, 2 + 2j, 0.5), None), ((1j, 5j, 1 + 1j), None), ((1 + 1j, 4 + 5j, 1 + 1j), None),
                ((0, 2 + 0j, 0.5), None), ((0, 2, 0.5), "complex64"), ((0.1, 5.3 + 2j, 0.37 + 0.1j), "complex64")]


@pytest.mark.parametrize("args,dtype", ARANGE_CASES, ids=repr)
def test_arange_values_bit_for_bit_as_numpy(args, dtype):
    # NumPy fills first + i * (second - first) in the dtype's arithmetic
    # (float for float16), product rounded before the sum; complex lengths
    # take the smaller of the real and imaginary ceilings.
    want = numpy.arange(*args, dtype=dtype)
    got = kumo.arange(*args, dtype=dtype)
    assert got.dtype == want.dtype
    assert kumo.asnumpy(got).tolist() == want.tolist()


@pytest.mark.parametrize("dtype", [float, int])
def test_arange_with_complex_arguments_needs_a_complex_dtype(dtype):
    with pytest.raises(TypeError):
        numpy.arange(0, 1 + 1j, 0.5, dtype=dtype)
    with pytest.raises(TypeError):
        kumo.arange(0, 1 + 1j, 0.5, dtype=dtype)


def test_frombuffer_shares_the_buffers_memory_as_numpy():
    buf = bytearray(range(16))
    n, k = numpy.frombuffer(buf, dtype=numpy.uint16, offset=2), kumo.frombuffer(buf, dtype=numpy.uint16, offset=2)
    assert k.flags.writeable == n.flags.writeable
    buf[2] = 200
    assert_array_equal(k, n)
    k[1] = 7
    assert buf[4:6] == bytearray(numpy.array([7], numpy.uint16).tobytes())
    readonly = kumo.frombuffer(bytes(8), dtype=numpy.int32)
    assert not readonly.flags.writeable
    with pytest.raises(ValueError):
        readonly[0] = 1


def test_frombuffer_of_an_unaligned_offset_is_a_copy_with_the_same_values():
    buf = bytearray(range(17))
    assert_array_equal(kumo.frombuffer(buf, dtype=numpy.float64, offset=1),
                       numpy.frombuffer(buf, dtype=numpy.float64, offset=1))
