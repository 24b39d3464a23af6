"""concatenate/concat, the stacking helpers, block, the split family,
unstack, tile, copyto, require, broadcast, r_/c_, mgrid/ogrid and s_
compared with NumPy 2.4."""
import warnings

import numpy
import pytest

import kumo
from conftest import ALL_DTYPES, LAYOUTS, assert_array_equal, make_pair


def same(fn_np, fn_k):
    """Both raise the same exception type, or give equal arrays (or lists/tuples of them)."""
    try:
        want = fn_np()
    except Exception as e:  # noqa: BLE001 (the exception type is what is compared)
        with pytest.raises(type(e)):
            fn_k()
        return None
    got = fn_k()
    if isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_array_equal(g, w)
    else:
        assert_array_equal(got, want)
    return got


# ---------------------------------------------------------------- concatenate / concat
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_concatenate_axis_none_and_dtype(layout, dtype):
    n, k = make_pair(layout, dtype)
    m = numpy.ones((2,), dtype=numpy.int8)
    same(lambda: numpy.concatenate([n, m], axis=None), lambda: kumo.concatenate([k, kumo.asarray(m)], axis=None))
    same(lambda: numpy.concat([n, n], axis=None, dtype=numpy.complex128),
         lambda: kumo.concat([k, k], axis=None, dtype=numpy.complex128))
    same(lambda: numpy.concatenate([n, n], axis=None, dtype=numpy.int8, casting="safe"),
         lambda: kumo.concatenate([k, k], axis=None, dtype=numpy.int8, casting="safe"))


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_concatenate_out(axis):
    a, b = numpy.arange(6.0).reshape(2, 3), numpy.ones((2, 3))
    shape = numpy.concatenate([a, b], axis=axis).shape if axis < 2 else (4, 3)
    out_n, out_k = numpy.zeros(shape, numpy.float32), kumo.zeros(shape, numpy.float32)
    r = same(lambda: numpy.concatenate([a, b], axis=axis, out=out_n),
             lambda: kumo.concatenate([kumo.asarray(a), kumo.asarray(b)], axis=axis, out=out_k))
    if r is not None:
        assert r is out_k


def test_concatenate_errors():
    a = numpy.arange(6).reshape(2, 3)
    k = kumo.asarray(a)
    same(lambda: numpy.concatenate([a, a], out=numpy.zeros((4, 3)), dtype=float),
         lambda: kumo.concatenate([k, k], out=kumo.zeros((4, 3)), dtype=float))
    same(lambda: numpy.concatenate([a, a], out=numpy.zeros((4, 3), numpy.int8), casting="safe"),
         lambda: kumo.concatenate([k, k], out=kumo.zeros((4, 3), numpy.int8), casting="safe"))
    same(lambda: numpy.concatenate([a, a[0]]), lambda: kumo.concatenate([k, k[0]]))
    same(lambda: numpy.concatenate([]), lambda: kumo.concatenate([]))


# ---------------------------------------------------------------- stacking
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 2), (0, 3)])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int16, numpy.float32, numpy.complex128])
def test_dstack_column_stack_row_stack(shape, dtype):
    n = numpy.arange(int(numpy.prod(shape)), dtype=numpy.int64).reshape(shape).astype(dtype)
    k = kumo.asarray(n)
    same(lambda: numpy.dstack([n, n]), lambda: kumo.dstack([k, k]))
    same(lambda: numpy.column_stack([n, n]), lambda: kumo.column_stack([k, k]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        same(lambda: numpy.row_stack([n, n]), lambda: kumo.row_stack([k, k]))


def test_row_stack_warns():
    with pytest.warns(DeprecationWarning):
        kumo.row_stack([kumo.ones(2), kumo.ones(2)])


def test_stack_helpers_mixed():
    a = numpy.arange(3)
    b = numpy.arange(6.0).reshape(3, 2)
    same(lambda: numpy.column_stack([a, b]), lambda: kumo.column_stack([kumo.asarray(a), kumo.asarray(b)]))
    same(lambda: numpy.dstack([a, a[::-1]]), lambda: kumo.dstack([kumo.asarray(a), kumo.asarray(a)[::-1]]))
    same(lambda: numpy.dstack([]), lambda: kumo.dstack([]))


# ---------------------------------------------------------------- block
def _blocks(xp):
    a = xp.asarray(numpy.ones((2, 2)))
    b = xp.asarray(numpy.arange(4).reshape(2, 2))
    c = xp.asarray(numpy.arange(2))
    return [
        [a, b],
        [[a, b], [b, a]],
        [c, c, 5],
        [[c], [c]],
        [[[a]], [[b]]],
        [[a, xp.zeros((2, 3))], [xp.ones((1, 2)), xp.full((1, 3), 7)]],
        a,
        1,
        [1, 2],
        [[a, b], [c]],
        (a, b),
        [],
        [[a], b],
        [a, [b]],
    ]


@pytest.mark.parametrize("i", range(14))
def test_block(i):
    same(lambda: numpy.block(_blocks(numpy)[i]), lambda: kumo.block(_blocks(kumo)[i]))


# ---------------------------------------------------------------- split family
@pytest.mark.parametrize("layout", ["1d", "3d", "empty", "transposed", "negative", "broadcast", "0d"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_array_split_split(layout, dtype):
    n, k = make_pair(layout, dtype)
    for axis in (0, 1, -1, 3):
        for ios in (1, 2, 3, 4, 0, -1, [1, 3], [2, -1], [5, 1], [], [0, 100]):
            same(lambda: numpy.array_split(n, ios, axis), lambda: kumo.array_split(k, ios, axis))
            same(lambda: numpy.split(n, ios, axis), lambda: kumo.split(k, ios, axis))


def test_split_pieces_are_views():
    k = kumo.arange(12).reshape(3, 4)
    pieces = kumo.split(k, 2, axis=1)
    pieces[1][0, 0] = 100
    assert int(k[0, 2]) == 100
    assert all(p.base is not None for p in pieces)


@pytest.mark.parametrize("shape", [(), (6,), (4, 6), (2, 4, 6)])
@pytest.mark.parametrize("ios", [2, [1, 3], 5])
def test_hsplit_vsplit_dsplit(shape, ios):
    n = numpy.arange(int(numpy.prod(shape))).reshape(shape)
    k = kumo.asarray(n)
    same(lambda: numpy.hsplit(n, ios), lambda: kumo.hsplit(k, ios))
    same(lambda: numpy.vsplit(n, ios), lambda: kumo.vsplit(k, ios))
    same(lambda: numpy.dsplit(n, ios), lambda: kumo.dsplit(k, ios))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_unstack(layout):
    n, k = make_pair(layout, numpy.float16)
    for axis in (0, 1, -1, 3):
        same(lambda: numpy.unstack(n, axis=axis), lambda: kumo.unstack(k, axis=axis))


# ---------------------------------------------------------------- tile
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tile(layout, dtype):
    n, k = make_pair(layout, dtype)
    for reps in (2, (2, 1), (1, 3), (2, 2, 2), (1, 1), (), 0, (3, 0), (2, 1, 1, 3)):
        same(lambda: numpy.tile(n, reps), lambda: kumo.tile(k, reps))


def test_tile_copy_and_errors():
    k = kumo.arange(3)
    t = kumo.tile(k, 1)
    t[0] = 5
    assert int(k[0]) == 0
    same(lambda: numpy.tile(numpy.arange(3), -1), lambda: kumo.tile(k, -1))


# ---------------------------------------------------------------- copyto
@pytest.mark.parametrize("src_dtype", ALL_DTYPES)
@pytest.mark.parametrize("casting", ["no", "safe", "same_kind", "unsafe"])
def test_copyto_casting(src_dtype, casting):
    src = make_pair("broadcast", src_dtype)[0]
    for dst_dtype in (numpy.int16, numpy.float32, numpy.complex128):
        dn, dk = numpy.zeros((3, 4), dst_dtype), kumo.zeros((3, 4), dst_dtype)
        try:
            numpy.copyto(dn, src, casting=casting)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                kumo.copyto(dk, kumo.asarray(src), casting=casting)
            continue
        kumo.copyto(dk, kumo.asarray(src), casting=casting)
        assert_array_equal(dk, dn)


@pytest.mark.parametrize("src", [3, 3.5, 300, True, 2j, [1, 2, 3, 4]])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe"])
def test_copyto_scalars_where(src, casting):
    mask = numpy.array([True, False, True, False])
    for dtype in (numpy.int8, numpy.float64):
        dn, dk = numpy.zeros((2, 4), dtype), kumo.zeros((2, 4), dtype)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                numpy.copyto(dn, src, casting=casting, where=mask)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                kumo.copyto(dk, src, casting=casting, where=mask)
            continue
        kumo.copyto(dk, src, casting=casting, where=mask)
        assert_array_equal(dk, dn)


def test_copyto_errors():
    with pytest.raises(ValueError):
        kumo.copyto(kumo.zeros(3), kumo.ones(4))
    with pytest.raises(ValueError):
        kumo.copyto(kumo.zeros(3), 1, casting="bogus")
    with pytest.raises(TypeError):
        kumo.copyto(numpy.zeros(3), 1)


# ---------------------------------------------------------------- require
@pytest.mark.parametrize("req", [None, "C", "F", "A", "W", "O", "E", ["C", "W"], ["F", "O"], ["C", "F"],
                                 ["CONTIGUOUS", "aligned"]])
@pytest.mark.parametrize("layout", ["1d", "3d", "transposed", "negative", "broadcast"])
def test_require(req, layout):
    n, k = make_pair(layout, numpy.float32)
    try:
        want = numpy.require(n, numpy.float64, req)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)):
            kumo.require(k, numpy.float64, req)
        return
    got = kumo.require(k, numpy.float64, req)
    assert_array_equal(got, want)
    for flag in {"C": ["C_CONTIGUOUS"], "F": ["F_CONTIGUOUS"]}.get(req if isinstance(req, str) else "", []) + [
            "WRITEABLE"]:
        if want.flags[flag]:
            assert got.flags[flag], flag


# ---------------------------------------------------------------- broadcast
def test_broadcast_object():
    a, b = numpy.arange(3), numpy.arange(2).reshape(2, 1)
    bn = numpy.broadcast(a, b)
    bk = kumo.broadcast(kumo.asarray(a), kumo.asarray(b))
    assert (bk.shape, bk.ndim, bk.nd, bk.numiter, bk.size, bk.index) == (bn.shape, bn.ndim, bn.nd, bn.numiter,
                                                                         bn.size, bn.index)
    got = [tuple(int(x) for x in t) for t in bk]
    assert got == [tuple(int(x) for x in t) for t in bn]
    assert bk.index == bn.index == 6
    bk.reset()
    assert bk.index == 0
    next(bk)
    assert bk.index == 1
    assert len(bk.iters) == 2
    assert kumo.broadcast(bk, kumo.ones(())).shape == (2, 3)


def test_broadcast_mismatch():
    with pytest.raises(ValueError):
        kumo.broadcast(kumo.ones(2), kumo.ones(3))
    assert kumo.broadcast().shape == numpy.broadcast().shape


# ---------------------------------------------------------------- r_ / c_ / mgrid / ogrid / s_
def _rc(xp):
    a, b = xp.asarray(numpy.array([1, 2, 3])), xp.asarray(numpy.array([[1, 2], [3, 4]]))
    return [
        lambda: xp.r_[1:4, 0, 4, a],
        lambda: xp.r_[-1:1:6j, 0.5],
        lambda: xp.r_[a, a],
        lambda: xp.r_["0,2", a, a],
        lambda: xp.r_["0,2,0", a, a],
        lambda: xp.r_["1,2,0", a, a],
        lambda: xp.r_["-1", b, b],
        lambda: xp.r_["0,3,1", b, b],
        lambda: xp.r_[numpy.int8(1), a],
        lambda: xp.r_[a, "1"],
        lambda: xp.r_["x,y", a],
        lambda: xp.r_["foo", a],
        lambda: xp.c_[a, a],
        lambda: xp.c_[b, b],
        lambda: xp.c_[1:3, 4:6],
        lambda: xp.c_[a, 0:3],
        lambda: xp.r_[True, 2.5],
    ]


@pytest.mark.parametrize("i", range(17))
def test_r_c(i):
    same(_rc(numpy)[i], _rc(kumo)[i])


def test_r_c_matrix_directives_shape():
    a = numpy.array([1, 2, 3])
    assert kumo.r_["r", kumo.asarray(a)].shape == numpy.r_["r", a].shape
    assert kumo.r_["c", kumo.asarray(a)].shape == numpy.r_["c", a].shape


@pytest.mark.parametrize("key", [slice(0, 5), slice(1, 4, 0.5), slice(0, 1, 5j), slice(-1, 1, 1j),
                                 (slice(0, 3), slice(0, 2)), (slice(0, 1, 3j), slice(2, 5)),
                                 (slice(0, 4, 2), slice(1, 2, 0.25), slice(0, 2))])
def test_mgrid_ogrid(key):
    same(lambda: numpy.mgrid[key], lambda: kumo.mgrid[key])
    same(lambda: numpy.ogrid[key], lambda: kumo.ogrid[key])


def test_s_index_exp():
    assert kumo.s_[1:3, ::2] == numpy.s_[1:3, ::2]
    assert kumo.index_exp[2] == numpy.index_exp[2]
    k = kumo.arange(10)
    assert_array_equal(k[kumo.s_[::3]], numpy.arange(10)[numpy.s_[::3]])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_concatenate_long_rows(dtype):
    # Slabs with rows of 64+ elements are copied row by row.
    a = (numpy.arange(40 * 70) % 13).astype(dtype).reshape(40, 70)
    b = (numpy.arange(40 * 90) % 7).astype(dtype).reshape(40, 90)
    ka, kb = kumo.asarray(a), kumo.asarray(b)
    assert_array_equal(kumo.concatenate([ka, kb, ka[::-1]], axis=1), numpy.concatenate([a, b, a[::-1]], axis=1))
    assert_array_equal(kumo.concatenate([ka[:, 2:68], kb[:, ::-1][:, :66]], axis=0),
                       numpy.concatenate([a[:, 2:68], b[:, ::-1][:, :66]], axis=0))
    assert_array_equal(kumo.concatenate([ka, kb], axis=1, dtype=numpy.complex128),
                       numpy.concatenate([a, b], axis=1, dtype=numpy.complex128))


@pytest.mark.parametrize("dtypes", [("int8", "uint8", "float16"), ("uint8", "int8", "float16"),
                                    ("int16", "uint16", "complex64"), ("bool", "uint32", "int8", "float32"),
                                    ("int64", "uint64", "float16")])
def test_concatenate_promotes_all_dtypes_at_once(dtypes):
    # int8 + uint8 is int16 and int16 + float16 float32, but NumPy's result
    # over all three is float16: promotion is not pairwise.
    ns = [numpy.arange(2).astype(d) for d in dtypes]
    assert_array_equal(kumo.concatenate([kumo.asarray(n) for n in ns]), numpy.concatenate(ns))
    assert_array_equal(kumo.stack([kumo.asarray(n) for n in ns]), numpy.stack(ns))
