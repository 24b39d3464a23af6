"""Shape manipulation functions compared with NumPy (views where NumPy gives views)."""
import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair

AxisError = numpy.exceptions.AxisError


def shares_memory(a, b):
    return a._same_memory(b)


def pair_3d(dtype=numpy.int64):
    n = numpy.arange(24, dtype=dtype).reshape(2, 3, 4)
    return n, kumo.array(n)


# ---- reshape / ravel ----

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.uint16, numpy.float32, numpy.complex128])
def test_reshape_function(dtype, layout):
    n, k = make_pair(layout, dtype)
    assert_array_equal(kumo.reshape(k, (-1, 1)), numpy.reshape(n, (-1, 1)))


@pytest.mark.parametrize("order", ["C", "F"])
def test_reshape_function_order(order):
    n, k = pair_3d()
    assert_array_equal(kumo.reshape(k, (4, 6), order=order), numpy.reshape(n, (4, 6), order=order))


def test_reshape_function_view():
    n, k = pair_3d()
    r = kumo.reshape(k, (6, 4))
    assert shares_memory(r, k) and r.base is k


def test_reshape_function_shape_keyword():
    assert kumo.reshape(kumo.zeros(6), shape=(2, 3)).shape == (2, 3)


def test_reshape_function_copy_false_raises():
    with pytest.raises(ValueError):
        kumo.reshape(kumo.zeros((2, 3)).T, 6, copy=False)


def test_reshape_function_of_list():
    assert_array_equal(kumo.reshape([1, 2, 3, 4], (2, 2)), numpy.reshape([1, 2, 3, 4], (2, 2)))


@pytest.mark.parametrize("order", ["C", "F", "K"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_ravel_function(layout, order):
    n, k = make_pair(layout, numpy.int16)
    r, e = kumo.ravel(k, order), numpy.ravel(n, order)
    assert_array_equal(r, e)


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[:, ::2], lambda a: a.transpose(1, 0, 2)])
def test_ravel_function_view_when_numpy(view):
    n, k = pair_3d()
    assert shares_memory(kumo.ravel(view(k)), k) == numpy.shares_memory(numpy.ravel(view(n)), n)


# ---- transpose / permute_dims / moveaxis / swapaxes / rollaxis ----

@pytest.mark.parametrize("axes", [None, (1, 2, 0), (0, 1, 2), (-1, -2, -3)])
def test_transpose_function(axes):
    n, k = pair_3d()
    r, e = kumo.transpose(k, axes), numpy.transpose(n, axes)
    assert_array_equal(r, e)
    assert r.strides == e.strides and shares_memory(r, k)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_transpose_function_layouts(layout):
    n, k = make_pair(layout, numpy.float16)
    assert_array_equal(kumo.transpose(k), numpy.transpose(n))


def test_permute_dims():
    n, k = pair_3d()
    assert_array_equal(kumo.permute_dims(k, (2, 1, 0)), numpy.permute_dims(n, (2, 1, 0)))


@pytest.mark.parametrize("axes,exc", [((0, 1), ValueError), ((0, 0, 1), ValueError), ((0, 1, 3), AxisError)])
def test_transpose_function_bad_axes(axes, exc):
    with pytest.raises(exc):
        kumo.transpose(kumo.zeros((2, 3, 4)), axes)


@pytest.mark.parametrize("src,dst", [(0, -1), (-1, 0), (1, 1), ([0, 1], [-1, -2]), ((0, 2), (2, 0)), ([], [])])
def test_moveaxis(src, dst):
    n, k = pair_3d()
    r, e = kumo.moveaxis(k, src, dst), numpy.moveaxis(n, src, dst)
    assert_array_equal(r, e)
    assert r.strides == e.strides and shares_memory(r, k)


@pytest.mark.parametrize("src,dst,exc", [(3, 0, AxisError), (0, -4, AxisError), ([0, 0], [1, 2], ValueError),
                                         ([0, 1], [2, 2], ValueError), ([0, 1], [0], ValueError)])
def test_moveaxis_errors(src, dst, exc):
    with pytest.raises(exc):
        numpy.moveaxis(numpy.zeros((2, 3, 4)), src, dst)
    with pytest.raises(exc):
        kumo.moveaxis(kumo.zeros((2, 3, 4)), src, dst)


def test_moveaxis_error_names_argument():
    with pytest.raises(AxisError, match="source"):
        kumo.moveaxis(kumo.zeros((2, 3)), 2, 0)


@pytest.mark.parametrize("a1,a2", [(0, 2), (-1, 0), (1, 1)])
def test_swapaxes_function(a1, a2):
    n, k = pair_3d()
    r, e = kumo.swapaxes(k, a1, a2), numpy.swapaxes(n, a1, a2)
    assert_array_equal(r, e)
    assert r.strides == e.strides


def test_swapaxes_function_bad_axis():
    with pytest.raises(AxisError):
        kumo.swapaxes(kumo.zeros((2, 3)), 0, -3)


@pytest.mark.parametrize("axis,start", [(2, 0), (0, 3), (1, 1), (-1, 1), (0, 2)])
def test_rollaxis(axis, start):
    n, k = pair_3d()
    assert_array_equal(kumo.rollaxis(k, axis, start), numpy.rollaxis(n, axis, start))


# ---- squeeze / expand_dims ----

@pytest.mark.parametrize("axis", [None, 0, (0, 2), -1, (0, 2, 3)])
def test_squeeze_function(axis):
    n = numpy.arange(3).reshape(1, 3, 1, 1)
    k = kumo.array(n)
    r, e = kumo.squeeze(k, axis), numpy.squeeze(n, axis)
    assert_array_equal(r, e)
    assert shares_memory(r, k)


@pytest.mark.parametrize("axis,exc", [(1, ValueError), (5, AxisError), (-5, AxisError)])
def test_squeeze_function_errors(axis, exc):
    with pytest.raises(exc):
        numpy.squeeze(numpy.zeros((1, 3, 1, 1)), axis)
    with pytest.raises(exc):
        kumo.squeeze(kumo.zeros((1, 3, 1, 1)), axis)


def test_squeeze_scalar_input():
    assert_array_equal(kumo.squeeze(5), numpy.squeeze(5))


@pytest.mark.parametrize("axis", [0, 1, 3, -1, -4, (0, 4), (1, -1), (0, 1, 2)])
def test_expand_dims(axis):
    n, k = pair_3d()
    r, e = kumo.expand_dims(k, axis), numpy.expand_dims(n, axis)
    assert_array_equal(r, e)
    assert r.strides == e.strides
    assert r.base is k


@pytest.mark.parametrize("axis,exc", [(4, AxisError), (-5, AxisError), ((0, 0), ValueError), ((0, 5), AxisError)])
def test_expand_dims_errors(axis, exc):
    with pytest.raises(exc):
        numpy.expand_dims(numpy.zeros((2, 3, 4)), axis)
    with pytest.raises(exc):
        kumo.expand_dims(kumo.zeros((2, 3, 4)), axis)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_expand_dims_layouts(layout):
    n, k = make_pair(layout, numpy.int8)
    assert_array_equal(kumo.expand_dims(k, 0), numpy.expand_dims(n, 0))


# ---- broadcast_to / broadcast_arrays ----

@pytest.mark.parametrize("shape,target", [((3,), (2, 3)), ((1, 4), (3, 4)), ((2, 1), (2, 5)), ((), (2, 2)),
                                          ((3,), 3), ((2, 1), (4, 2, 3)), ((1,), (0,)), ((2, 1), (2, 0))])
def test_broadcast_to(shape, target):
    n = numpy.arange(int(numpy.prod(shape))).reshape(shape)
    k = kumo.array(n)
    r, e = kumo.broadcast_to(k, target), numpy.broadcast_to(n, target)
    assert_array_equal(r, e)
    if e.size:
        assert r.strides == e.strides
    assert not r.flags.writeable
    assert r.base is k


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_broadcast_to_dtypes(dtype):
    n, k = make_pair("1d", dtype)
    assert_array_equal(kumo.broadcast_to(k, (2, 7)), numpy.broadcast_to(n, (2, 7)))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_broadcast_to_layouts(layout):
    n, k = make_pair(layout, numpy.float32)
    target = (2,) + n.shape
    assert_array_equal(kumo.broadcast_to(k, target), numpy.broadcast_to(n, target))


@pytest.mark.parametrize("shape,target", [((3,), (4,)), ((3,), ()), ((2, 3), (3,)), ((3,), (-1, 3)),
                                          ((2, 1), (3, 1))])
def test_broadcast_to_errors(shape, target):
    with pytest.raises(ValueError):
        numpy.broadcast_to(numpy.zeros(shape), target)
    with pytest.raises(ValueError):
        kumo.broadcast_to(kumo.zeros(shape), target)


def test_broadcast_to_python_scalar():
    assert_array_equal(kumo.broadcast_to(5, (2, 2)), numpy.broadcast_to(5, (2, 2)))


@pytest.mark.parametrize("shapes", [[(3,), (2, 1)], [(3,), (3,)], [(1, 4), (3, 1), (2, 1, 1)], [(2, 3)], [(0,), (1,)]])
def test_broadcast_arrays(shapes):
    ns = [numpy.arange(int(numpy.prod(s))).reshape(s) for s in shapes]
    ks = [kumo.array(x) for x in ns]
    rs, es = kumo.broadcast_arrays(*ks), numpy.broadcast_arrays(*ns)
    assert len(rs) == len(es)
    for r, e, k in zip(rs, es, ks):
        assert_array_equal(r, e)
        assert shares_memory(r, k)


def test_broadcast_arrays_mismatch_raises():
    with pytest.raises(ValueError):
        kumo.broadcast_arrays(kumo.zeros(3), kumo.zeros(4))


def test_broadcast_arrays_with_scalar():
    rs = kumo.broadcast_arrays(kumo.arange(3), 1)
    es = numpy.broadcast_arrays(numpy.arange(3), 1)
    for r, e in zip(rs, es):
        assert_array_equal(r, e)


def test_broadcast_shapes():
    assert kumo.broadcast_shapes((2, 1), (3,), (4, 1, 1)) == numpy.broadcast_shapes((2, 1), (3,), (4, 1, 1))


# ---- concatenate / stack ----

@pytest.mark.parametrize("axis", [0, 1, 2, -1, None])
def test_concatenate_axis(axis):
    n, k = pair_3d()
    r, e = kumo.concatenate([k, k + 100], axis=axis), numpy.concatenate([n, n + 100], axis=axis)
    assert_array_equal(r, e)


@pytest.mark.parametrize("dtypes", [(numpy.int8, numpy.uint8), (numpy.int64, numpy.float32), (numpy.bool_, numpy.int16),
                                    (numpy.float16, numpy.complex64), (numpy.uint64, numpy.int64)])
def test_concatenate_promotes(dtypes):
    ns = [numpy.arange(3).astype(d) for d in dtypes]
    r = kumo.concatenate([kumo.array(x) for x in ns])
    assert_array_equal(r, numpy.concatenate(ns))


@pytest.mark.parametrize("layout", ["empty", "1d", "3d", "broadcast", "transposed", "negative"])
def test_concatenate_layouts(layout):
    n, k = make_pair(layout, numpy.float64)
    assert_array_equal(kumo.concatenate([k, k], axis=-1), numpy.concatenate([n, n], axis=-1))


@pytest.mark.parametrize("views", [lambda a: (a.T, a.T), lambda a: (a, a.T.copy().T), lambda a: (a.transpose(1, 0, 2),) * 2,
                                   lambda a: (a.T, a), lambda a: (a[:, ::-1], a)])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_concatenate_result_layout_follows_inputs(views, axis):
    n = numpy.arange(64, dtype=numpy.float32).reshape(4, 4, 4)
    k = kumo.array(n)
    r, e = kumo.concatenate(views(k), axis=axis), numpy.concatenate(views(n), axis=axis)
    assert_array_equal(r, e)
    assert r.strides == e.strides


def test_concatenate_of_lists():
    assert_array_equal(kumo.concatenate(([1, 2], [3])), numpy.concatenate(([1, 2], [3])))


def test_concatenate_dtype():
    r = kumo.concatenate([kumo.arange(3.0), kumo.arange(2.0)], dtype=numpy.float32)
    assert_array_equal(r, numpy.concatenate([numpy.arange(3.0), numpy.arange(2.0)], dtype=numpy.float32))


def test_concatenate_casting_rule():
    with pytest.raises(TypeError):
        kumo.concatenate([kumo.arange(3.0), kumo.arange(2)], dtype=numpy.int64)


def test_concatenate_out():
    out = kumo.zeros(5, dtype=numpy.float32)
    r = kumo.concatenate([kumo.arange(2), kumo.arange(3)], out=out, casting="unsafe")
    assert r is out
    assert_array_equal(out, numpy.array([0, 1, 0, 1, 2], dtype=numpy.float32))


def test_concatenate_out_wrong_shape_raises():
    with pytest.raises(ValueError):
        kumo.concatenate([kumo.arange(2), kumo.arange(2)], out=kumo.zeros(5))


def test_concatenate_out_casting_checked():
    with pytest.raises(TypeError):
        kumo.concatenate([kumo.arange(2.0)], out=kumo.zeros(2, dtype=numpy.int64))


@pytest.mark.parametrize("arrays,exc", [([], ValueError), ([numpy.array(1), numpy.array(2)], ValueError),
                                        ([numpy.zeros((2, 3)), numpy.zeros(3)], ValueError),
                                        ([numpy.zeros((2, 3)), numpy.zeros((3, 3))], ValueError)])
def test_concatenate_errors(arrays, exc):
    with pytest.raises(exc):
        numpy.concatenate(arrays, axis=1 if len(arrays) == 2 and arrays[0].ndim == 2 else 0)
    with pytest.raises(exc):
        kumo.concatenate([kumo.array(a) for a in arrays], axis=1 if len(arrays) == 2 and arrays[0].ndim == 2 else 0)


def test_concatenate_bad_axis():
    with pytest.raises(AxisError):
        kumo.concatenate([kumo.zeros(2), kumo.zeros(2)], axis=1)


@pytest.mark.parametrize("axis", [0, 1, 2, 3, -1, -4])
def test_stack(axis):
    n, k = pair_3d()
    assert_array_equal(kumo.stack([k, k * 2, k * 3], axis=axis), numpy.stack([n, n * 2, n * 3], axis=axis))


def test_stack_0d():
    assert_array_equal(kumo.stack([kumo.array(1), kumo.array(2)]), numpy.stack([numpy.array(1), numpy.array(2)]))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_stack_layouts(layout):
    n, k = make_pair(layout, numpy.complex64)
    assert_array_equal(kumo.stack([k, k], axis=-1), numpy.stack([n, n], axis=-1))


@pytest.mark.parametrize("arrays,axis,exc", [([], 0, ValueError), ([numpy.zeros(3), numpy.zeros(2)], 0, ValueError),
                                             ([numpy.zeros(3)], 2, AxisError)])
def test_stack_errors(arrays, axis, exc):
    with pytest.raises(exc):
        numpy.stack(arrays, axis=axis)
    with pytest.raises(exc):
        kumo.stack([kumo.array(a) for a in arrays], axis=axis)


def test_stack_dtype():
    r = kumo.stack([kumo.arange(3), kumo.arange(3.0)], dtype=numpy.float32)
    assert_array_equal(r, numpy.stack([numpy.arange(3), numpy.arange(3.0)], dtype=numpy.float32))


def test_stack_out():
    out = kumo.zeros((2, 2))
    assert kumo.stack((kumo.arange(2), kumo.arange(2)), out=out) is out
    assert_array_equal(out, numpy.stack((numpy.arange(2), numpy.arange(2))).astype(float))


def test_vstack_hstack():
    a, b = numpy.arange(3), numpy.arange(3, 6)
    assert_array_equal(kumo.vstack([kumo.array(a), kumo.array(b)]), numpy.vstack([a, b]))
    assert_array_equal(kumo.hstack([kumo.array(a), kumo.array(b)]), numpy.hstack([a, b]))
    c = numpy.zeros((2, 1))
    assert_array_equal(kumo.hstack([kumo.array(c), kumo.ones((2, 2))]), numpy.hstack([c, numpy.ones((2, 2))]))


# ---- atleast_*d ----

@pytest.mark.parametrize("func", ["atleast_1d", "atleast_2d", "atleast_3d"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (1, 2, 3), (2, 1, 2, 1)])
def test_atleast_nd(func, shape):
    n = numpy.arange(int(numpy.prod(shape))).reshape(shape)
    k = kumo.array(n)
    r, e = getattr(kumo, func)(k), getattr(numpy, func)(n)
    assert_array_equal(r, e)
    if e.size:
        assert r.strides == e.strides
    assert shares_memory(r, k)


@pytest.mark.parametrize("func", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast_nd_returns_input_when_enough_dims(func):
    k = kumo.zeros((1, 2, 3))
    assert getattr(kumo, func)(k) is k


@pytest.mark.parametrize("func", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast_nd_several_inputs(func):
    ks = getattr(kumo, func)(1, [1, 2], kumo.zeros((2, 2)))
    ns = getattr(numpy, func)(1, [1, 2], numpy.zeros((2, 2)))
    assert isinstance(ks, tuple) and len(ks) == 3
    for r, e in zip(ks, ns):
        assert_array_equal(r, e)


@pytest.mark.parametrize("func", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast_nd_python_scalar(func):
    assert_array_equal(getattr(kumo, func)(2.5), getattr(numpy, func)(2.5))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("repeats", [0, 1, 3])
def test_repeat_scalar_count(dtype, layout, repeats):
    n, k = make_pair(layout, dtype)
    assert_array_equal(kumo.repeat(k, repeats), numpy.repeat(n, repeats))
    if n.ndim:
        assert_array_equal(k.repeat(repeats, axis=-1), n.repeat(repeats, axis=-1))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_repeat_counts_per_slice(axis):
    n = numpy.arange(12).reshape(3, 4)
    counts = [2, 0, 1, 3][: n.shape[axis]]
    assert_array_equal(kumo.repeat(kumo.asarray(n), counts, axis=axis), numpy.repeat(n, counts, axis=axis))
    assert_array_equal(kumo.repeat(kumo.asarray(n), [0] * n.shape[axis], axis=axis),
                       numpy.repeat(n, [0] * n.shape[axis], axis=axis))


def test_repeat_errors():
    k = kumo.arange(3)
    with pytest.raises(ValueError):
        kumo.repeat(k, -1)
    with pytest.raises(ValueError):
        kumo.repeat(k, [1, 2])
    with pytest.raises(TypeError):
        kumo.repeat(k, 1.5)
    with pytest.raises(numpy.exceptions.AxisError):
        kumo.repeat(k, 2, axis=1)


_BLOCK_A = numpy.ones((2, 2))


def test_r_c_string_form_assembles_named_blocks():
    # NumPy's bmat form: names of the caller's scope (locals, then globals).
    b = numpy.zeros((2, 1))
    c = numpy.arange(3.0).reshape(1, 3)
    want = numpy.r_["_BLOCK_A b; c"]
    kb, kc = kumo.asarray(b), kumo.asarray(c)
    global _BLOCK_A_K
    _BLOCK_A_K = kumo.asarray(_BLOCK_A)
    for got in (kumo.r_["_BLOCK_A_K kb; kc"], kumo.c_["_BLOCK_A_K, kb; kc"]):
        numpy.testing.assert_array_equal(kumo.asnumpy(got), numpy.asarray(want))
    with pytest.raises(NameError):
        kumo.r_["kb nothing_by_this_name"]
