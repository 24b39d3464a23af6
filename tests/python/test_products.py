"""matmul, dot, vdot, inner, outer, tensordot, kron, trace, cross and the
numpy.linalg product functions, compared with NumPy."""
import warnings

import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, to_kumo

RTOL = {"e": 1e-2, "f": 2e-5, "d": 1e-12, "F": 2e-5, "D": 1e-12}


def values(shape, dtype, seed=0):
    """Random values valid for every dtype: small integers (0/1 for bool,
    non-negative for unsigned), with fractions and imaginary parts for inexact types."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    lo = 0 if dt.kind == "u" else -5
    v = rng.integers(lo, 5, size=shape).astype(numpy.float64)
    if dt.kind in "fc":
        v = v + rng.standard_normal(shape)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return numpy.asarray(v).astype(dt)


def check(k, n, scale=None):
    """kumo result `k` against NumPy's `n`: type, shape and dtype exactly;
    integers and bools exactly; floats within rtol of the result's magnitude
    (`scale`, default the largest |value|: products of sums cancel)."""
    assert isinstance(k, kumo.ndarray), type(k)
    got = kumo.asnumpy(k)
    n = numpy.asarray(n)
    assert got.shape == n.shape, (got.shape, n.shape)
    assert got.dtype == n.dtype, (got.dtype, n.dtype)
    if n.dtype.kind in "fc":
        if scale is None:
            scale = float(numpy.max(numpy.abs(n.astype(numpy.complex128)))) if n.size else 1.0
        tol = RTOL[n.dtype.char] * max(scale, 1.0)
        numpy.testing.assert_allclose(got.astype(numpy.complex128), n.astype(numpy.complex128), rtol=0, atol=tol)
    else:
        numpy.testing.assert_array_equal(got, n)


def pair(shape, dtype, seed=0):
    n = values(shape, dtype, seed)
    return n, kumo.asarray(n)


# ============================================================================ matmul: dtypes
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_matmul_dtypes(dtype):
    na, ka = pair((2, 5, 7), dtype, 1)
    nb, kb = pair((7, 3), dtype, 2)
    check(kumo.matmul(ka, kb), numpy.matmul(na, nb))


@pytest.mark.parametrize("da,db", [(numpy.int8, numpy.uint8), (numpy.int32, numpy.float32),
                                   (numpy.float16, numpy.float32), (numpy.bool_, numpy.int16),
                                   (numpy.int64, numpy.uint64), (numpy.float32, numpy.complex64),
                                   (numpy.float16, numpy.int8), (numpy.uint16, numpy.float16),
                                   (numpy.bool_, numpy.float32), (numpy.float32, numpy.float64),
                                   (numpy.complex64, numpy.float64), (numpy.uint32, numpy.int8)])
def test_matmul_promotion(da, db):
    na, ka = pair((4, 6), da, 1)
    nb, kb = pair((6, 5), db, 2)
    check(kumo.matmul(ka, kb), numpy.matmul(na, nb))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint8, numpy.int16, numpy.int32, numpy.uint32, numpy.int64,
                                   numpy.uint64])
def test_matmul_integer_wraps_like_numpy(dtype):
    info = numpy.iinfo(dtype)
    rng = numpy.random.default_rng(3)
    na = rng.integers(info.min, info.max, size=(3, 40), dtype=dtype, endpoint=True)
    nb = rng.integers(info.min, info.max, size=(40, 4), dtype=dtype, endpoint=True)
    with numpy.errstate(all="ignore"):
        want = numpy.matmul(na, nb)
    check(kumo.matmul(kumo.asarray(na), kumo.asarray(nb)), want)


def test_matmul_bool_is_or_of_ands():
    na = numpy.array([[True, False, False], [False, False, False]])
    nb = numpy.array([[True, True], [True, False], [False, True]])
    check(kumo.matmul(kumo.asarray(na), kumo.asarray(nb)), numpy.matmul(na, nb))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128])
def test_matmul_large_blas(dtype):
    na, ka = pair((70, 129), dtype, 1)
    nb, kb = pair((129, 33), dtype, 2)
    check(kumo.matmul(ka, kb), numpy.matmul(na, nb))


# ============================================================================ matmul: shapes
SHAPES = [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)), ((2, 3, 4), (4, 5)),
          ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((2, 3, 4), (1, 4, 5)), ((2, 3, 4), (2, 4, 5)),
          ((1, 1), (1, 1)), ((7, 1), (1, 6)), ((1, 6), (6, 1)), ((2, 3, 4), (4,)), ((4,), (3, 4, 2)),
          ((0, 4), (4, 5)), ((3, 0), (0, 5)), ((3, 4), (4, 0)), ((0, 3, 4), (4, 5)), ((2, 3, 0), (2, 0, 4)),
          ((0,), (0,)), ((0,), (0, 3)), ((5, 0, 2), (2, 4)), ((1, 5, 1, 3), (4, 1, 3, 2))]


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128, numpy.int32, numpy.bool_])
@pytest.mark.parametrize("sa,sb", SHAPES)
def test_matmul_shapes(sa, sb, dtype):
    na, ka = pair(sa, dtype, 1)
    nb, kb = pair(sb, dtype, 2)
    check(kumo.matmul(ka, kb), numpy.matmul(na, nb))


def test_matmul_batch_10000_small():
    na, ka = pair((1000, 8, 8), numpy.float32, 1)
    nb, kb = pair((1000, 8, 8), numpy.float32, 2)
    check(kumo.matmul(ka, kb), numpy.matmul(na, nb))


def test_matmul_stack_times_single_matrix():
    # a C-ordered stack against one matrix runs as one tall GEMM
    na, ka = pair((6, 5, 7), numpy.float64, 1)
    nb, kb = pair((7, 3), numpy.float64, 2)
    check(ka @ kb, na @ nb)


# ============================================================================ matmul: layouts
def _layouts():
    return {
        "neg_rows": lambda x: x[..., ::-1, :],
        "neg_cols": lambda x: x[..., :, ::-1],
        "step_cols": lambda x: x[..., :, ::2],
        "step_rows": lambda x: x[..., ::2, :],
        "batch_step": lambda x: x[::2],
        "batch_neg": lambda x: x[::-1],
    }


@pytest.mark.parametrize("layout", ["neg_rows", "neg_cols", "step_cols", "step_rows", "batch_step", "batch_neg"])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.int16])
def test_matmul_strided_operands(layout, dtype):
    view = _layouts()[layout]
    nba = values((4, 6, 8), dtype, 1)
    na, ka = view(nba), view(kumo.asarray(nba))
    nbb = values((4, 5, na.shape[-1]), dtype, 2)
    # b is a negative-stride / transposed view too
    nb, kb = nbb[:, ::-1].swapaxes(-1, -2), kumo.asarray(nbb)[:, ::-1].swapaxes(-1, -2)
    if na.shape[0] != 4:
        nb, kb = nb[:na.shape[0]], kb[:na.shape[0]]
    check(kumo.matmul(ka, kb), numpy.matmul(na, nb))


@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128])
def test_matmul_transposed_operands(ta, tb, dtype):
    na, ka = pair((3, 6, 5), dtype, 1)
    nb, kb = pair((3, 5, 4), dtype, 2)
    if ta:
        na, ka = numpy.swapaxes(na, -1, -2).copy().swapaxes(-1, -2), kumo.asarray(
            numpy.swapaxes(na, -1, -2).copy()).swapaxes(-1, -2)
    if tb:
        nb, kb = numpy.swapaxes(nb, -1, -2).copy().swapaxes(-1, -2), kumo.asarray(
            numpy.swapaxes(nb, -1, -2).copy()).swapaxes(-1, -2)
    check(ka @ kb, na @ nb)


def test_matmul_transposed_2d_layouts_from_conftest():
    n = values((4, 3), numpy.float64).T  # (3, 4) F-ordered
    k = to_kumo(n)
    check(kumo.matmul(k, k.T), numpy.matmul(n, n.T))


def test_matmul_broadcast_batch_view():
    nb = values((4, 5), numpy.float64, 2)
    na, ka = pair((3, 2, 4), numpy.float64, 1)
    kb = kumo.broadcast_to(kumo.asarray(nb), (3, 4, 5))
    check(kumo.matmul(ka, kb), numpy.matmul(na, numpy.broadcast_to(nb, (3, 4, 5))))


def test_matmul_batch_axes_not_mergeable():
    base = values((3, 4, 2, 5), numpy.float64, 1)
    na = base.transpose(1, 0, 2, 3)
    ka = kumo.asarray(base).transpose(1, 0, 2, 3)
    nb, kb = pair((4, 3, 5, 2), numpy.float64, 2)
    check(kumo.matmul(ka, kb), numpy.matmul(na, nb))


def test_matmul_broadcast_row_vector_matrix():
    # a matrix whose rows are one broadcast row: no valid leading dimension
    v = values((5,), numpy.float64, 1)
    na = numpy.broadcast_to(v, (3, 5))
    ka = kumo.broadcast_to(kumo.asarray(v), (3, 5))
    nb, kb = pair((5, 2), numpy.float64, 2)
    check(kumo.matmul(ka, kb), numpy.matmul(na, nb))


# ============================================================================ matmul: out= and dtype=
@pytest.mark.parametrize("order", ["C", "F"])
def test_matmul_out(order):
    na, ka = pair((2, 3, 4), numpy.float64, 1)
    nb, kb = pair((4, 5), numpy.float64, 2)
    out = kumo.zeros((2, 3, 5), order=order) if order == "C" else kumo.zeros((5, 3, 2)).transpose(2, 1, 0)
    res = kumo.matmul(ka, kb, out=out)
    assert res is out
    check(out, numpy.matmul(na, nb))


def test_matmul_out_strided():
    na, ka = pair((3, 4), numpy.float32, 1)
    nb, kb = pair((4, 5), numpy.float32, 2)
    big = kumo.zeros((6, 10), dtype=numpy.float32)
    out = big[::2, ::2]
    kumo.matmul(ka, kb, out=out)
    check(out, numpy.matmul(na, nb))
    check(big[1::2], numpy.zeros((3, 10), numpy.float32))


def test_matmul_out_tuple_and_1d_core():
    na, ka = pair((3, 4), numpy.float64, 1)
    nb, kb = pair((4,), numpy.float64, 2)
    out = kumo.zeros(3)
    assert kumo.matmul(ka, kb, out=(out,)) is out
    check(out, na @ nb)


def test_matmul_out_other_dtype_same_kind():
    na, ka = pair((3, 4), numpy.float64, 1)
    nb, kb = pair((4, 5), numpy.float64, 2)
    out = kumo.zeros((3, 5), dtype=numpy.float32)
    kumo.matmul(ka, kb, out=out)
    check(out, numpy.matmul(na, nb, out=numpy.zeros((3, 5), numpy.float32)))


def test_matmul_out_larger_batch_broadcasts():
    na, ka = pair((3, 4), numpy.float64, 1)
    nb, kb = pair((4, 2), numpy.float64, 2)
    out = kumo.zeros((2, 3, 2))
    kumo.matmul(ka, kb, out=out)
    check(out, numpy.matmul(na, nb, out=numpy.zeros((2, 3, 2))))


def test_matmul_out_aliases_input():
    na, ka = pair((4, 4), numpy.float64, 1)
    want = na @ na
    kumo.matmul(ka, ka, out=ka)
    check(ka, want)


def test_matmul_float16_out():
    na, ka = pair((3, 8), numpy.float16, 1)
    nb, kb = pair((8, 2), numpy.float16, 2)
    out = kumo.zeros((3, 2), dtype=numpy.float16)
    kumo.matmul(ka, kb, out=out)
    check(out, na @ nb)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128])
def test_matmul_dtype_argument(dtype):
    na, ka = pair((3, 4), numpy.int8, 1)
    nb, kb = pair((4, 2), numpy.int16, 2)
    check(kumo.matmul(ka, kb, dtype=dtype), numpy.matmul(na, nb, dtype=dtype))


def test_matmul_dtype_downcast_same_kind():
    na, ka = pair((3, 4), numpy.float64, 1)
    nb, kb = pair((4, 2), numpy.float64, 2)
    check(kumo.matmul(ka, kb, dtype=numpy.float32), numpy.matmul(na, nb, dtype=numpy.float32))


@pytest.mark.parametrize("kwargs", [{"dtype": numpy.int64}, {"out": "int"}, {"out": "f32", "casting": "safe"}])
def test_matmul_casting_errors(kwargs):
    kwargs = dict(kwargs)
    if kwargs.get("out") == "int":
        kwargs["out"] = kumo.zeros((2, 2), dtype=numpy.int64)
    elif kwargs.get("out") == "f32":
        kwargs["out"] = kumo.zeros((2, 2), dtype=numpy.float32)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'matmul'"):
        kumo.matmul(kumo.ones((2, 3)), kumo.ones((3, 2)), **kwargs)


def test_matmul_casting_error_is_ufunc_type_error():
    with pytest.raises(kumo.UFuncTypeError):
        kumo.matmul(kumo.ones((2, 3)), kumo.ones((3, 2)), out=kumo.zeros((2, 2), dtype=numpy.int64))


@pytest.mark.parametrize("out_shape,match", [((2, 3), "Output operand 0 has a mismatch in its core dimension 1"),
                                             ((3, 2), "Output operand 0 has a mismatch in its core dimension 0"),
                                             ((2,), "Output operand 0 does not have enough dimensions"),
                                             ((2, 2, 2), None)])
def test_matmul_out_shape_errors(out_shape, match):
    a, b = kumo.ones((2, 3)), kumo.ones((3, 2))
    if match is None:  # larger batch is fine: the result broadcasts
        kumo.matmul(a, b, out=kumo.zeros(out_shape))
        return
    with pytest.raises(ValueError, match=match):
        kumo.matmul(a, b, out=kumo.zeros(out_shape))


def test_matmul_out_smaller_batch_error():
    with pytest.raises(ValueError):
        kumo.matmul(kumo.ones((3, 2, 3)), kumo.ones((3, 2)), out=kumo.zeros((2, 2)))


def test_matmul_out_read_only():
    out = kumo.broadcast_to(kumo.zeros(2), (2, 2))
    with pytest.raises(ValueError):
        kumo.matmul(kumo.ones((2, 3)), kumo.ones((3, 2)), out=out)


def test_matmul_out_not_array():
    with pytest.raises(TypeError):
        kumo.matmul(kumo.ones((2, 3)), kumo.ones((3, 2)), out=numpy.zeros((2, 2)))


# ============================================================================ matmul: errors
@pytest.mark.parametrize("sa,sb,msg", [
    ((), (3,), "Input operand 0 does not have enough dimensions"),
    ((3,), (), "Input operand 1 does not have enough dimensions"),
    ((3,), (4,), "Input operand 1 has a mismatch in its core dimension 0"),
    ((2, 3), (4, 5), r"\(size 4 is different from 3\)"),
    ((2, 2, 3), (3, 3, 4), "could not be broadcast"),
])
def test_matmul_errors(sa, sb, msg):
    na, nb = numpy.ones(sa), numpy.ones(sb)
    with pytest.raises(ValueError):
        numpy.matmul(na, nb)
    with pytest.raises(ValueError, match=msg):
        kumo.matmul(kumo.asarray(na), kumo.asarray(nb))


def test_matmul_python_lists():
    check(kumo.matmul([[1.0, 2.0]], kumo.asarray([[3.0], [4.0]])), numpy.matmul([[1.0, 2.0]], [[3.0], [4.0]]))


# ============================================================================ operators and methods
def test_matmul_operator():
    na, ka = pair((3, 4), numpy.float64, 1)
    nb, kb = pair((4, 2), numpy.float64, 2)
    check(ka @ kb, na @ nb)


def test_rmatmul_with_list():
    nb, kb = pair((2, 3), numpy.float64, 2)
    check([[1.0, 2.0]] @ kb, [[1.0, 2.0]] @ nb)


def test_numpy_array_matmul_kumo_array():
    na, ka = pair((2, 3), numpy.float64, 1)
    nb = values((3, 4), numpy.float64, 2)
    check(nb.T @ ka.T, nb.T @ na.T)
    check(numpy.matmul(na, kumo.asarray(nb)), numpy.matmul(na, nb))


def test_imatmul_square():
    na, ka = pair((3, 3), numpy.float64, 1)
    nb, kb = pair((3, 3), numpy.float64, 2)
    before = ka
    ka @= kb
    na @= nb
    assert ka is before
    check(ka, na)


@pytest.mark.parametrize("sa,sb", [((2, 2), (2, 3)), ((2, 2), (2,)), ((2,), (2,))])
def test_imatmul_errors(sa, sb):
    with pytest.raises(ValueError):
        na = numpy.ones(sa)
        na @= numpy.ones(sb)
    ka = kumo.ones(sa)
    with pytest.raises(ValueError):
        ka @= kumo.ones(sb)


def test_imatmul_vector_by_matrix():
    na, ka = pair((3,), numpy.float64, 1)
    nb, kb = pair((3, 3), numpy.float64, 2)
    na @= nb
    ka @= kb
    check(ka, na)


def test_imatmul_int_by_float_raises():
    ka = kumo.ones((2, 2), dtype=numpy.int64)
    with pytest.raises(TypeError):
        ka @= kumo.ones((2, 2))


def test_ndarray_dot_and_trace_methods():
    na, ka = pair((3, 3), numpy.float64, 1)
    check(ka.dot(ka), na.dot(na))
    check(ka.trace(), na.trace())
    check(ka.trace(offset=1), na.trace(offset=1))


# ============================================================================ matvec / vecmat
def test_matvec():
    na, ka = pair((2, 3, 4), numpy.float64, 1)
    nb, kb = pair((4,), numpy.float64, 2)
    check(kumo.matvec(ka, kb), numpy.matvec(na, nb))


def test_vecmat_conjugates():
    na, ka = pair((2, 3), numpy.complex128, 1)
    nb, kb = pair((3, 4), numpy.complex128, 2)
    check(kumo.vecmat(ka, kb), numpy.vecmat(na, nb))


# ============================================================================ dot
DOT_SHAPES = [((), ()), ((), (3,)), ((2, 3), ()), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
              ((2, 4, 3), (3,)), ((2, 4, 3), (3, 5)), ((3,), (2, 3, 4)), ((2, 3), (5, 3, 4)),
              ((2, 4, 3), (5, 3, 2)), ((0, 3), (3, 4)), ((2, 0), (0, 4)), ((2, 3), (4, 3, 0))]


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64, numpy.int64, numpy.bool_])
@pytest.mark.parametrize("sa,sb", DOT_SHAPES)
def test_dot(sa, sb, dtype):
    na, ka = pair(sa, dtype, 1)
    nb, kb = pair(sb, dtype, 2)
    check(kumo.dot(ka, kb), numpy.asarray(numpy.dot(na, nb)))


def test_dot_mixed_dtypes():
    na, ka = pair((3, 4), numpy.int32, 1)
    nb, kb = pair((4,), numpy.float32, 2)
    check(kumo.dot(ka, kb), numpy.dot(na, nb))


def test_dot_out():
    na, ka = pair((3, 4), numpy.float64, 1)
    nb, kb = pair((4, 2), numpy.float64, 2)
    out = kumo.zeros((3, 2))
    assert kumo.dot(ka, kb, out=out) is out
    check(out, numpy.dot(na, nb))


@pytest.mark.parametrize("out", ["f32", "F", "shape"])
def test_dot_out_errors(out):
    ka, kb = kumo.ones((2, 3)), kumo.ones((3, 4))
    o = {"f32": lambda: kumo.zeros((2, 4), dtype=numpy.float32), "F": lambda: kumo.zeros((4, 2)).T,
         "shape": lambda: kumo.zeros((2, 5))}[out]()
    with pytest.raises(ValueError):
        kumo.dot(ka, kb, out=o)


@pytest.mark.parametrize("sa,sb", [((2, 3), (4, 5)), ((3,), (4,)), ((2, 3, 2), (4, 5, 6))])
def test_dot_not_aligned(sa, sb):
    with pytest.raises(ValueError, match="not aligned"):
        kumo.dot(kumo.ones(sa), kumo.ones(sb))


# ============================================================================ vdot / inner / outer
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128, numpy.int16, numpy.bool_])
def test_vdot(dtype):
    na, ka = pair((3, 4), dtype, 1)
    nb, kb = pair((2, 6), dtype, 2)
    check(kumo.vdot(ka, kb), numpy.asarray(numpy.vdot(na, nb)))


def test_vdot_conjugates_first():
    na = numpy.array([1 + 2j, 3 - 1j])
    nb = numpy.array([2 - 1j, 1j])
    check(kumo.vdot(kumo.asarray(na), kumo.asarray(nb)), numpy.asarray(numpy.vdot(na, nb)))


def test_vdot_length_mismatch():
    with pytest.raises(ValueError):
        kumo.vdot(kumo.ones(3), kumo.ones(4))


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (4, 3)), ((2, 5, 3), (4, 3)), ((), (3,)),
                                   ((2, 3), ()), ((0, 3), (2, 3))])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int8, numpy.complex64])
def test_inner(sa, sb, dtype):
    na, ka = pair(sa, dtype, 1)
    nb, kb = pair(sb, dtype, 2)
    check(kumo.inner(ka, kb), numpy.asarray(numpy.inner(na, nb)))


def test_inner_mismatch():
    with pytest.raises(ValueError):
        kumo.inner(kumo.ones((2, 3)), kumo.ones((2, 4)))


@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((2, 3), (4,)), ((), (2, 2)), ((0,), (3,))])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.bool_, numpy.uint16])
def test_outer(sa, sb, dtype):
    na, ka = pair(sa, dtype, 1)
    nb, kb = pair(sb, dtype, 2)
    check(kumo.outer(ka, kb), numpy.outer(na, nb))


def test_outer_out():
    out = kumo.zeros((3, 2))
    assert kumo.outer(kumo.arange(3.0), kumo.arange(2.0), out=out) is out
    check(out, numpy.outer(numpy.arange(3.0), numpy.arange(2.0)))


# ============================================================================ tensordot
@pytest.mark.parametrize("sa,sb,axes", [
    ((3, 4, 5), (4, 5, 6), 2), ((3, 4), (4, 5), 1), ((3, 4), (5, 6), 0), ((2, 3), (3, 4), -1),
    ((3, 4, 5), (5, 4, 2), ([1, 2], [1, 0])), ((3, 4, 5), (6, 3), ([0], [1])), ((3, 4, 5), (4, 6), (1, 0)),
    ((3, 4, 5), (5, 3, 4), ([-1, 0, 1], [0, 1, 2])), ((2, 0, 3), (0, 3, 4), 2), ((2, 3), (3, 2), ([0, 1], [1, 0])),
])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64, numpy.int32])
def test_tensordot(sa, sb, axes, dtype):
    na, ka = pair(sa, dtype, 1)
    nb, kb = pair(sb, dtype, 2)
    check(kumo.tensordot(ka, kb, axes=axes), numpy.tensordot(na, nb, axes=axes))


def test_tensordot_noncontiguous():
    base = values((5, 4, 6), numpy.float64, 1)
    na = base[::-1, :, ::2]
    ka = kumo.asarray(base)[::-1, :, ::2]
    nb, kb = pair((3, 4), numpy.float64, 2)
    check(kumo.tensordot(ka, kb, axes=([2, 1], [0, 1])), numpy.tensordot(na, nb, axes=([2, 1], [0, 1])))


@pytest.mark.parametrize("axes", [([1], [1]), ([0, 1], [0])])
def test_tensordot_shape_mismatch(axes):
    with pytest.raises(ValueError, match="shape-mismatch for sum"):
        kumo.tensordot(kumo.ones((2, 3)), kumo.ones((3, 4)), axes=axes)


# ============================================================================ kron
@pytest.mark.parametrize("sa,sb", [((2,), (3,)), ((2, 2), (3, 2)), ((2, 3), (2, 2, 2)), ((), (2, 3)), ((2, 3), ()),
                                   ((3, 1, 2), (2,)), ((0, 2), (2, 2))])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int8, numpy.bool_, numpy.complex64])
def test_kron(sa, sb, dtype):
    na, ka = pair(sa, dtype, 1)
    nb, kb = pair(sb, dtype, 2)
    check(kumo.kron(ka, kb), numpy.asarray(numpy.kron(na, nb)))


# ============================================================================ trace
@pytest.mark.parametrize("offset", [0, 1, -2, 5])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int8, numpy.bool_, numpy.complex128])
def test_trace(offset, dtype):
    na, ka = pair((4, 5, 3), dtype, 1)
    check(kumo.trace(ka, offset), numpy.trace(na, offset))
    check(kumo.trace(ka, offset, axis1=2, axis2=0), numpy.trace(na, offset, axis1=2, axis2=0))


def test_trace_dtype_and_out():
    na, ka = pair((3, 3), numpy.int32, 1)
    check(kumo.trace(ka, dtype=numpy.float32), numpy.trace(na, dtype=numpy.float32))
    out = kumo.zeros((), dtype=numpy.int64)
    kumo.trace(ka, out=out)
    check(out, numpy.asarray(numpy.trace(na)))


def test_trace_1d_error():
    with pytest.raises(ValueError):
        kumo.trace(kumo.ones(3))


# ============================================================================ cross
@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors:DeprecationWarning")
@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((4, 3), (3,)), ((2, 1, 3), (5, 3)), ((4, 2), (4, 3)),
                                   ((4, 3), (4, 2)), ((0, 3), (3,))])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int16, numpy.complex64])
def test_cross(sa, sb, dtype):
    na, ka = pair(sa, dtype, 1)
    nb, kb = pair(sb, dtype, 2)
    check(kumo.cross(ka, kb), numpy.cross(na, nb))


@pytest.mark.parametrize("sb", [(4, 2), (4, 3)])
def test_cross_2d_vectors_warn_like_numpy(sb):
    na, ka = pair((4, 2), numpy.float64, 1)
    nb, kb = pair(sb, numpy.float64, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = numpy.cross(na, nb)
    with pytest.warns(DeprecationWarning):
        got = kumo.cross(ka, kb)
    check(got, want)


@pytest.mark.parametrize("sa,sb,kw", [((3, 5), (5, 3), {"axisa": 0}),
                                      ((3, 5), (5, 2), {"axisa": 0, "axisb": 1, "axisc": 0}),
                                      ((3, 5), (3, 5), {"axis": 0}), ((4, 2, 3), (4, 3, 2), {"axisb": 1, "axisc": 1})])
@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors:DeprecationWarning")
def test_cross_axes(sa, sb, kw):
    na, ka = pair(sa, numpy.float64, 1)
    nb, kb = pair(sb, numpy.float64, 2)
    check(kumo.cross(ka, kb, **kw), numpy.cross(na, nb, **kw))


def test_cross_bad_dimension():
    with pytest.raises(ValueError, match="incompatible dimensions for cross product"):
        kumo.cross(kumo.ones(4), kumo.ones(3))


# ============================================================================ numpy.linalg names
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128, numpy.int8, numpy.bool_])
@pytest.mark.parametrize("sa,sb,axis", [((3,), (3,), -1), ((4, 3), (3,), -1), ((2, 4, 3), (4, 3), -1),
                                        ((3, 4), (3, 1), 0), ((0, 3), (3,), -1), ((3, 0), (3, 0), -1)])
def test_vecdot(sa, sb, axis, dtype):
    na, ka = pair(sa, dtype, 1)
    nb, kb = pair(sb, dtype, 2)
    check(kumo.linalg.vecdot(ka, kb, axis=axis), numpy.asarray(numpy.linalg.vecdot(na, nb, axis=axis)))
    check(kumo.vecdot(ka, kb, axis=axis), numpy.asarray(numpy.vecdot(na, nb, axis=axis)))


def test_vecdot_mismatch():
    with pytest.raises(ValueError, match="vecdot: Input operand 1 has a mismatch"):
        kumo.linalg.vecdot(kumo.ones(3), kumo.ones(4))


def test_matrix_transpose():
    na, ka = pair((2, 3, 4), numpy.float32, 1)
    check(kumo.linalg.matrix_transpose(ka), numpy.linalg.matrix_transpose(na))
    check(kumo.matrix_transpose(ka), numpy.matrix_transpose(na))
    with pytest.raises(ValueError):
        kumo.linalg.matrix_transpose(kumo.ones(3))


def test_linalg_cross_requires_3_vectors():
    na, ka = pair((2, 3), numpy.float64, 1)
    nb, kb = pair((3,), numpy.float64, 2)
    check(kumo.linalg.cross(ka, kb), numpy.linalg.cross(na, nb))
    with pytest.raises(ValueError, match="3-dimensional vectors"):
        kumo.linalg.cross(kumo.ones((2, 3)), kumo.ones((2, 2)))


def test_linalg_outer():
    na, ka = pair((3,), numpy.complex64, 1)
    nb, kb = pair((2,), numpy.complex64, 2)
    check(kumo.linalg.outer(ka, kb), numpy.linalg.outer(na, nb))
    with pytest.raises(ValueError, match="one-dimensional"):
        kumo.linalg.outer(kumo.ones((2, 3)), kumo.ones(2))


def test_linalg_tensordot_and_matmul():
    na, ka = pair((2, 3, 4), numpy.float64, 1)
    nb, kb = pair((3, 4, 2), numpy.float64, 2)
    check(kumo.linalg.tensordot(ka, kb, axes=2), numpy.linalg.tensordot(na, nb, axes=2))
    nc, kc = pair((2, 4, 5), numpy.float64, 3)
    check(kumo.linalg.matmul(ka, kc), numpy.linalg.matmul(na, nc))


@pytest.mark.parametrize("offset", [0, 1, -1])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int16])
def test_linalg_trace(offset, dtype):
    na, ka = pair((2, 4, 4), dtype, 1)
    check(kumo.linalg.trace(ka, offset=offset), numpy.linalg.trace(na, offset=offset))
    check(kumo.linalg.trace(ka, dtype=numpy.float32), numpy.linalg.trace(na, dtype=numpy.float32))


def test_linalg_diagonal():
    na, ka = pair((2, 4, 3), numpy.float64, 1)
    check(kumo.linalg.diagonal(ka, offset=1), numpy.linalg.diagonal(na, offset=1))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int32, numpy.complex64])
def test_matrix_power(n, dtype):
    na = values((2, 3, 3), dtype, 1)
    if dtype is numpy.int32:
        na = (na % 3).astype(dtype)  # keep 3**8-sized entries in range
    check(kumo.linalg.matrix_power(kumo.asarray(na), n), numpy.linalg.matrix_power(na, n))


@pytest.mark.parametrize("n", [-1, -3])
def test_matrix_power_negative(n):
    na = values((3, 3), numpy.float64, 1) + 6 * numpy.eye(3)
    check(kumo.linalg.matrix_power(kumo.asarray(na), n), numpy.linalg.matrix_power(na, n))


@pytest.mark.parametrize("shape,n,exc", [((3, 2), 2, numpy.linalg.LinAlgError), ((3,), 2, numpy.linalg.LinAlgError),
                                         ((3, 3), 2.0, TypeError)])
def test_matrix_power_errors(shape, n, exc):
    with pytest.raises(exc):
        kumo.linalg.matrix_power(kumo.ones(shape), n)


@pytest.mark.parametrize("shapes", [[(3, 4), (4, 5), (5, 2)], [(4,), (4, 5), (5, 2), (2,)], [(3, 4), (4, 2), (2,)],
                                    [(10, 2), (2, 30), (30, 3), (3, 7)]])
def test_multi_dot(shapes):
    ns = [values(s, numpy.float64, i) for i, s in enumerate(shapes)]
    ks = [kumo.asarray(x) for x in ns]
    check(kumo.linalg.multi_dot(ks), numpy.asarray(numpy.linalg.multi_dot(ns)))


# ============================================================================ CUDA arrays (GPU machines only)
@pytest.mark.skipif(not kumo.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.float16, numpy.int32,
                                   numpy.bool_])
def test_matmul_cuda(dtype):
    na, nb = values((3, 5, 7), dtype, 1), values((7, 4), dtype, 2)
    with kumo.Device("cuda", 0):
        ka, kb = kumo.asarray(na), kumo.asarray(nb)
        r = ka @ kb
        assert r._is_cuda
        got = r.get()
    check(kumo.asarray(got), numpy.matmul(na, nb))


# The direct-to-GEMM path of matmul: same-dtype 2-d or equally batched 3-d
# operands in C or F order.
@pytest.mark.parametrize("dtype", "fdFD")
@pytest.mark.parametrize("layout", ["cc", "fc", "cf", "ff", "3c", "3f", "3mixed"])
def test_matmul_direct_gemm_layouts(dtype, layout):
    if layout.startswith("3"):
        a, b = values((3, 5, 4), dtype, 1), values((3, 4, 6), dtype, 2)
        if layout == "3f":
            a, b = numpy.asfortranarray(a), numpy.asfortranarray(b)
        elif layout == "3mixed":
            a = numpy.asfortranarray(a)
    else:
        a, b = values((5, 4), dtype, 1), values((4, 6), dtype, 2)
        a = numpy.asfortranarray(a) if layout[0] == "f" else a
        b = numpy.asfortranarray(b) if layout[1] == "f" else b
    ka = kumo.asfortranarray(a) if a.flags.f_contiguous else kumo.ascontiguousarray(a)
    kb = kumo.asfortranarray(b) if b.flags.f_contiguous else kumo.ascontiguousarray(b)
    assert (ka.flags.f_contiguous, kb.flags.f_contiguous) == (a.flags.f_contiguous, b.flags.f_contiguous)
    check(ka @ kb, a @ b)


# Batches of tiny real products take a generated kernel on the host instead
# of one BLAS call per matrix; larger, complex or short batches take GEMM.
@pytest.mark.parametrize("dtype", "fd")
@pytest.mark.parametrize("shapes", [((64, 8, 8), (64, 8, 8)), ((100, 3, 5), (100, 5, 2)), ((64, 16, 8), (64, 8, 4)),
                                    ((64, 1, 16), (64, 16, 1)), ((63, 8, 8), (63, 8, 8)), ((64, 16, 16), (64, 16, 16))])
def test_matmul_batches_of_tiny_matrices(dtype, shapes):
    a, b = values(shapes[0], dtype, 1), values(shapes[1], dtype, 2)
    check(kumo.asarray(a) @ kumo.asarray(b), a @ b)


@pytest.mark.parametrize("dtype", "fd")
def test_matmul_tiny_batches_propagate_nan_and_inf(dtype):
    a, b = values((64, 4, 4), dtype, 1), values((64, 4, 4), dtype, 2)
    a[3, 1, 2] = numpy.nan
    a[5, 0, 0] = numpy.inf
    got = kumo.asnumpy(kumo.asarray(a) @ kumo.asarray(b))
    want = a @ b
    numpy.testing.assert_array_equal(numpy.isnan(got), numpy.isnan(want))
    numpy.testing.assert_array_equal(numpy.isinf(got), numpy.isinf(want))
