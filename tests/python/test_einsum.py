"""kumo.einsum and kumo.einsum_path compared with NumPy."""
import numpy
import pytest

import kumo
from test_products import check, values

CASES = [
    # matrix products and transposes
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ji,jk->ik", [(4, 3), (4, 5)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,bkj->bik", [(2, 3, 4), (2, 5, 4)]),
    ("bij,jk->bik", [(2, 3, 4), (4, 5)]),
    ("ij,bjk->bik", [(3, 4), (2, 4, 5)]),
    ("ibj,bjk->bki", [(3, 2, 4), (2, 4, 5)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("i,ij->j", [(3,), (3, 4)]),
    # inner, outer, elementwise
    ("i,i", [(5,), (5,)]),
    ("i,i->", [(5,), (5,)]),
    ("i,i->i", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,ij", [(3, 4), (3, 4)]),
    ("ij,ji->", [(3, 4), (4, 3)]),
    ("ij,kl->ijkl", [(2, 3), (4, 5)]),
    # single operand: transposes, diagonals, sums
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ii->", [(4, 4)]),
    ("iij->ji", [(3, 3, 5)]),
    ("iii->i", [(3, 3, 3)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ijk->j", [(2, 3, 4)]),
    ("i->", [(6,)]),
    # repeated indices across / within operands
    ("ii,i->i", [(3, 3), (3,)]),
    ("iij,jk->ik", [(3, 3, 4), (4, 2)]),
    ("ij,jj->i", [(3, 4), (4, 4)]),
    # ellipsis broadcasting
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("...i,...i->...", [(2, 3, 4), (3, 4)]),
    ("i...->...", [(3, 2, 4)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("i...i", [(3, 2, 3)]),
    ("ij...,jk...->ik...", [(2, 3, 4), (3, 5, 4)]),
    ("...,...", [(2, 3), (3,)]),
    ("...", [(2, 3)]),
    ("ij,jk...->ik...", [(2, 3), (3, 4)]),
    # size-1 (broadcast) labels
    ("ij,jk->ik", [(3, 1), (4, 5)]),
    ("ij,j->ij", [(3, 4), (1,)]),
    ("bij,bjk->bik", [(1, 3, 4), (5, 4, 2)]),
    ("ai,bi->ab", [(1, 4), (1, 4)]),
    ("abi,bi->ba", [(1, 3, 4), (3, 4)]),
    # three and more operands
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ij,jk,kl", [(10, 2), (2, 30), (30, 3)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("bij,bjk,bkl->bil", [(2, 3, 4), (2, 4, 5), (2, 5, 3)]),
    ("ea,fb,abcd,gc,hd->efgh", [(3, 2), (3, 2), (2, 2, 2, 2), (3, 2), (3, 2)]),
    ("ij,ij,ij->i", [(3, 4), (3, 4), (3, 4)]),
    ("ab,cd,ef->", [(2, 3), (3, 2), (2, 2)]),
    ("abc,cd,db->a", [(2, 3, 4), (4, 5), (5, 3)]),
    # scalars
    (",->", [(), ()]),
    ("i,->i", [(4,), ()]),
    (",ij->ij", [(), (2, 3)]),
    ("->", [()]),
    # empty dimensions
    ("ij,jk->ik", [(0, 4), (4, 5)]),
    ("ij,jk->ik", [(3, 0), (0, 5)]),
    ("ij->", [(0, 3)]),
    ("ii->i", [(0, 0)]),
    # mixed case labels
    ("aB,BC->aC", [(2, 3), (3, 4)]),
    ("Ba,aC", [(2, 3), (3, 4)]),
]


def _operands(shapes, dtype):
    ns = [values(s, dtype, i + 1) for i, s in enumerate(shapes)]
    return ns, [kumo.asarray(x) for x in ns]


@pytest.mark.parametrize("subscripts,shapes", CASES, ids=["%s-%d" % (c[0], i) for i, c in enumerate(CASES)])
def test_einsum_table(subscripts, shapes):
    ns, ks = _operands(shapes, numpy.float64)
    check(kumo.einsum(subscripts, *ks), numpy.asarray(numpy.einsum(subscripts, *ns)))


DTYPE_CASES = ["ij,jk->ik", "bij,bjk->bik", "ij,ij->i", "i,i", "ii->i", "ij->", "ij,jk,kl->il", "i,j->ij",
               "...ij,...jk"]
DTYPE_SHAPES = {"ij,jk->ik": [(3, 6), (6, 4)], "bij,bjk->bik": [(2, 3, 6), (2, 6, 4)], "ij,ij->i": [(3, 6), (3, 6)],
                "i,i": [(7,), (7,)], "ii->i": [(4, 4)], "ij->": [(3, 5)], "ij,jk,kl->il": [(2, 3), (3, 4), (4, 2)],
                "i,j->ij": [(3,), (4,)], "...ij,...jk": [(2, 3, 4), (4, 2)]}


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex64, numpy.complex128, numpy.float16, numpy.int8,
                                   numpy.uint16, numpy.int64, numpy.bool_])
@pytest.mark.parametrize("subscripts", DTYPE_CASES)
def test_einsum_dtypes(subscripts, dtype):
    ns, ks = _operands(DTYPE_SHAPES[subscripts], dtype)
    check(kumo.einsum(subscripts, *ks), numpy.asarray(numpy.einsum(subscripts, *ns)))


def test_einsum_int8_wraps():
    na = numpy.full((3, 40), 100, dtype=numpy.int8)
    nb = numpy.full((40, 2), 7, dtype=numpy.int8)
    ka, kb = kumo.asarray(na), kumo.asarray(nb)
    check(kumo.einsum("ij,jk->ik", ka, kb), numpy.einsum("ij,jk->ik", na, nb))
    check(kumo.einsum("ij->i", ka), numpy.einsum("ij->i", na))


@pytest.mark.parametrize("da,db", [(numpy.int8, numpy.float32), (numpy.float16, numpy.float64),
                                   (numpy.bool_, numpy.int32), (numpy.float32, numpy.complex128)])
def test_einsum_promotion(da, db):
    na, nb = values((3, 4), da, 1), values((4, 2), db, 2)
    check(kumo.einsum("ij,jk", kumo.asarray(na), kumo.asarray(nb)), numpy.einsum("ij,jk", na, nb))


# ---------------------------------------------------------------- layouts
def test_einsum_noncontiguous_operands():
    base_a = values((4, 6, 8), numpy.float64, 1)
    base_b = values((8, 5), numpy.float64, 2)
    na, ka = base_a[::-1, ::2, 1:7], kumo.asarray(base_a)[::-1, ::2, 1:7]
    nb, kb = base_b[1:7][::-1], kumo.asarray(base_b)[1:7][::-1]
    check(kumo.einsum("bij,jk->bki", ka, kb), numpy.einsum("bij,jk->bki", na, nb))


def test_einsum_transposed_operands():
    na = values((5, 4), numpy.float32, 1).T
    ka = kumo.asarray(na.T.copy()).T
    check(kumo.einsum("ij,kj->ik", ka, ka), numpy.einsum("ij,kj->ik", na, na))


def test_einsum_broadcast_view_operand():
    v = values((4,), numpy.float64, 1)
    na = numpy.broadcast_to(v, (3, 4))
    ka = kumo.broadcast_to(kumo.asarray(v), (3, 4))
    nb, kb = values((4, 2), numpy.float64, 2), kumo.asarray(values((4, 2), numpy.float64, 2))
    check(kumo.einsum("ij,jk", ka, kb), numpy.einsum("ij,jk", na, nb))


# ---------------------------------------------------------------- interleaved form
def test_einsum_interleaved_implicit():
    ns, ks = _operands([(2, 3), (3, 4)], numpy.float64)
    check(kumo.einsum(ks[0], [0, 1], ks[1], [1, 2]), numpy.einsum(ns[0], [0, 1], ns[1], [1, 2]))


def test_einsum_interleaved_explicit_output():
    ns, ks = _operands([(2, 3), (3, 4)], numpy.float64)
    check(kumo.einsum(ks[0], [0, 1], ks[1], [1, 2], [2, 0]), numpy.einsum(ns[0], [0, 1], ns[1], [1, 2], [2, 0]))


def test_einsum_interleaved_ellipsis_and_high_labels():
    ns, ks = _operands([(5, 2, 3), (3, 4)], numpy.float64)
    got = kumo.einsum(ks[0], [Ellipsis, 30, 51], ks[1], [51, 25], [Ellipsis, 25, 30])
    check(got, numpy.einsum(ns[0], [Ellipsis, 30, 51], ns[1], [51, 25], [Ellipsis, 25, 30]))


def test_einsum_interleaved_errors():
    k = kumo.ones((2, 3))
    with pytest.raises(ValueError, match="valid range"):
        kumo.einsum(k, [0, 52])
    with pytest.raises(TypeError):
        kumo.einsum(k, [0, "a"])


# ---------------------------------------------------------------- out / dtype / optimize
def test_einsum_out():
    ns, ks = _operands([(3, 4), (4, 5)], numpy.float64)
    out = kumo.zeros((3, 5))
    assert kumo.einsum("ij,jk->ik", *ks, out=out) is out
    check(out, numpy.einsum("ij,jk->ik", *ns))


def test_einsum_out_transposed_and_other_dtype():
    ns, ks = _operands([(3, 4), (4, 5)], numpy.float32)
    out = kumo.zeros((5, 3)).T
    kumo.einsum("ij,jk->ik", *ks, out=out)
    want = numpy.einsum("ij,jk->ik", *ns, out=numpy.zeros((5, 3)).T)
    got = kumo.asnumpy(out)
    assert got.dtype == want.dtype
    numpy.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * numpy.abs(want).max())


def test_einsum_out_casting_error():
    ks = [kumo.ones((2, 3)), kumo.ones((3, 4))]
    with pytest.raises(TypeError):
        kumo.einsum("ij,jk", *ks, out=kumo.zeros((2, 4), dtype=numpy.float32))
    kumo.einsum("ij,jk", *ks, out=kumo.zeros((2, 4), dtype=numpy.float32), casting="same_kind")


@pytest.mark.parametrize("shape", [(1, 2, 4), (2, 5)])
def test_einsum_out_shape_errors(shape):
    with pytest.raises(ValueError):
        kumo.einsum("ij,jk", kumo.ones((2, 3)), kumo.ones((3, 4)), out=kumo.zeros(shape))


def test_einsum_dtype_argument():
    ns, ks = _operands([(3, 4), (4, 5)], numpy.int16)
    check(kumo.einsum("ij,jk", *ks, dtype=numpy.float32), numpy.einsum("ij,jk", *ns, dtype=numpy.float32))


def test_einsum_dtype_unsafe_cast_refused():
    with pytest.raises(TypeError):
        kumo.einsum("ij,jk", kumo.ones((2, 3)), kumo.ones((3, 4)), dtype=numpy.float32)
    ns, ks = _operands([(3, 4), (4, 5)], numpy.float64)
    check(kumo.einsum("ij,jk", *ks, dtype=numpy.float32, casting="same_kind"),
          numpy.einsum("ij,jk", *ns, dtype=numpy.float32, casting="same_kind"))


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"])
def test_einsum_optimize_values(optimize):
    ns, ks = _operands([(10, 2), (2, 30), (30, 3), (3, 4)], numpy.float64)
    check(kumo.einsum("ij,jk,kl,lm->im", *ks, optimize=optimize),
          numpy.einsum("ij,jk,kl,lm->im", *ns, optimize=optimize))


def test_einsum_explicit_path():
    ns, ks = _operands([(3, 2), (2, 4), (4, 5)], numpy.float64)
    path = ["einsum_path", (1, 2), (0, 1)]
    check(kumo.einsum("ij,jk,kl", *ks, optimize=path), numpy.einsum("ij,jk,kl", *ns, optimize=path))


def test_einsum_unknown_optimize_name():
    with pytest.raises(KeyError):
        kumo.einsum("ij,jk,kl", kumo.ones((3, 2)), kumo.ones((2, 4)), kumo.ones((4, 5)), optimize="bogus")


def test_einsum_path_matches_numpy():
    ns, ks = _operands([(3, 2), (2, 4), (4, 5)], numpy.float64)
    got = kumo.einsum_path("ij,jk,kl->il", *ks)
    want = numpy.einsum_path("ij,jk,kl->il", *ns)
    assert got[0] == want[0]
    assert got[1] == want[1]


# ---------------------------------------------------------------- views
def test_einsum_single_operand_returns_writeable_view():
    k = kumo.zeros((3, 3))
    d = kumo.einsum("ii->i", k)
    d[...] = 1
    check(k, numpy.eye(3))


def test_einsum_transpose_view():
    na, ka = values((2, 3), numpy.float64), kumo.asarray(values((2, 3), numpy.float64))
    check(kumo.einsum("ij->ji", ka), numpy.einsum("ij->ji", na))


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("subscripts,shapes,match", [
    ("ij,jk", [(2, 2), (3, 4)], "could not be broadcast"),
    ("ii", [(2, 3)], "collapsing index 'i'"),
    ("ij,jk->q", [(2, 3), (3, 4)], "never appeared in an input"),
    ("ij,jk->ii", [(2, 3), (3, 4)], "multiple times"),
    ("ij", [(2, 3), (3, 4)], "more operands"),
    ("ij,jk", [(2, 3)], "fewer operands"),
    ("ijk", [(2, 3)], "too many subscripts for operand 0"),
    ("i", [(2, 3)], "no '...' ellipsis"),
    ("...i->i", [(2, 3)], "no '...' ellipsis"),
    ("i1,i", [(3,), (3,)], "invalid subscript '1'"),
    ("i..,i", [(3,), (3,)], "not part of an ellipsis"),
    ("i,i", [(2,), (3,)], "could not be broadcast"),
    ("i->i->i", [(3,)], None),
])
def test_einsum_errors(subscripts, shapes, match):
    ns = [numpy.ones(s) for s in shapes]
    with pytest.raises(ValueError):
        numpy.einsum(subscripts, *ns)
    with pytest.raises(ValueError, match=match):
        kumo.einsum(subscripts, *[kumo.asarray(x) for x in ns])


def test_einsum_no_operands():
    with pytest.raises(ValueError):
        kumo.einsum()


def test_einsum_python_scalars_and_lists():
    check(kumo.einsum("i,->i", [1.0, 2.0], 3.0), numpy.einsum("i,->i", [1.0, 2.0], 3.0))


# ---------------------------------------------------------------- CUDA arrays (GPU machines only)
@pytest.mark.skipif(not kumo.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128, numpy.int32])
def test_einsum_cuda(dtype):
    ns = [values((2, 3, 4), dtype, 1), values((2, 4, 5), dtype, 2), values((5, 3), dtype, 3)]
    with kumo.Device("cuda", 0):
        ks = [kumo.asarray(x) for x in ns]
        r = kumo.einsum("bij,bjk,kl->bil", *ks)
        assert r._is_cuda
        got = r.get()
    check(kumo.asarray(got), numpy.einsum("bij,bjk,kl->bil", *ns))


# ---------------------------------------------------------------- against numpy.einsum: dtypes x layouts
SWEEP_DTYPES = [numpy.bool_, numpy.int32, numpy.int64, numpy.float32, numpy.float64, numpy.complex128]
SWEEP_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 2)]),
    ("bij,bkj->bki", [(2, 3, 4), (2, 5, 4)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ijk->", [(2, 3, 4)]),
    ("i,j->ij", [(3,), (2,)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    (",->", [(), ()]),
    ("i,->i", [(3,), ()]),
    ("ij,jk->ik", [(0, 3), (3, 2)]),
    ("ij,jk->ik", [(2, 0), (0, 3)]),
    ("ij->j", [(0, 3)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...i,...i->...", [(2, 3), (1, 3)]),
    ("i...", [(3, 2, 4)]),
]


@pytest.mark.parametrize("dtype", SWEEP_DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("subscripts,shapes", SWEEP_CASES, ids=["%s-%d" % (c[0], i) for i, c in enumerate(SWEEP_CASES)])
def test_einsum_matches_numpy_over_dtypes(subscripts, shapes, dtype):
    ns, ks = _operands(shapes, dtype)
    check(kumo.einsum(subscripts, *ks), numpy.asarray(numpy.einsum(subscripts, *ns)))


VIEWS = {
    "transposed": lambda x: x.T,
    "reversed": lambda x: x[::-1, ::-1],
    "stepped": lambda x: x[::2, 1::2],
    "reversed-transposed": lambda x: x[::-1].T,
}


@pytest.mark.parametrize("dtype", SWEEP_DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_einsum_strided_views_match_numpy(view, dtype):
    base_a, base_b = values((6, 8), dtype, 1), values((8, 6), dtype, 2)
    na, nb = VIEWS[view](base_a), VIEWS[view](base_b)
    ka, kb = VIEWS[view](kumo.asarray(base_a)), VIEWS[view](kumo.asarray(base_b))
    sub = "ij,jk->ki" if na.shape[1] == nb.shape[0] else "ij,kj->ik"
    check(kumo.einsum(sub, ka, kb), numpy.einsum(sub, na, nb))


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_einsum_strided_view_trace(view):
    base = values((6, 6), numpy.float64, 3)
    check(kumo.einsum("ii", VIEWS[view](kumo.asarray(base))), numpy.einsum("ii", VIEWS[view](base)))


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal", ("greedy", 10 ** 6),
                                      ["einsum_path", (0, 2), (0, 1)]], ids=str)
def test_einsum_optimize_forms(optimize):
    ns, ks = _operands([(3, 4), (4, 5), (5, 2)], numpy.complex128)
    check(kumo.einsum("ij,jk,kl->li", *ks, optimize=optimize),
          numpy.einsum("ij,jk,kl->li", *ns, optimize=optimize))


def test_einsum_optimize_not_understood():
    ks = [kumo.ones((2, 3)), kumo.ones((3, 4))]
    with pytest.raises(TypeError):
        kumo.einsum("ij,jk", *ks, optimize=3.5)


def test_einsum_explicit_path_incomplete():
    ks = [kumo.ones((2, 3)), kumo.ones((3, 4)), kumo.ones((4, 2))]
    with pytest.raises(RuntimeError, match="more operands has to be contracted"):
        kumo.einsum("ij,jk,kl", *ks, optimize=["einsum_path", (0, 1)])


PATH_CASES = [
    ("ij,jk,kl->il", [(3, 2), (2, 4), (4, 5)]),
    ("ij,jk,kl,lm->im", [(10, 2), (2, 30), (30, 3), (3, 4)]),
    ("ea,fb,abcd,gc,hd->efgh", [(10, 4), (10, 4), (4, 4, 4, 4), (10, 4), (10, 4)]),
    ("abc,cd,db->a", [(2, 3, 4), (4, 5), (5, 3)]),
    ("ab,bc,cd,de,ef->af", [(8, 3), (3, 9), (9, 2), (2, 7), (7, 4)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij,ij,ij->ij", [(3, 4), (3, 4), (3, 4)]),
]


@pytest.mark.parametrize("optimize", ["greedy", "optimal", False])
@pytest.mark.parametrize("subscripts,shapes", PATH_CASES, ids=[c[0] for c in PATH_CASES])
def test_einsum_path_and_report_match_numpy(subscripts, shapes, optimize):
    ns, ks = _operands(shapes, numpy.float64)
    got = kumo.einsum_path(subscripts, *ks, optimize=optimize)
    want = numpy.einsum_path(subscripts, *ns, optimize=optimize)
    assert got[0] == want[0]
    assert got[1] == want[1]


@pytest.mark.parametrize("subscripts,shapes", PATH_CASES, ids=[c[0] for c in PATH_CASES])
def test_einsum_path_memory_limit_matches_numpy(subscripts, shapes):
    ns, ks = _operands(shapes, numpy.float64)
    assert kumo.einsum_path(subscripts, *ks, optimize=("greedy", 30))[0] == \
        numpy.einsum_path(subscripts, *ns, optimize=("greedy", 30))[0]


def test_einsum_path_ellipsis_path_matches_numpy():
    # The report names ellipsis axes with letters NumPy picks from a set, so
    # only the path is compared.
    ns, ks = _operands([(2, 3, 4), (2, 4, 5), (5, 6)], numpy.float64)
    assert kumo.einsum_path("...ij,...jk,kl", *ks)[0] == numpy.einsum_path("...ij,...jk,kl", *ns)[0]


def test_einsum_single_operand_view_follows_readonly():
    v = kumo.broadcast_to(kumo.asarray(numpy.arange(3.0)), (3, 3))
    with pytest.raises(ValueError):
        kumo.einsum("ij->ji", v)[...] = 1


@pytest.mark.parametrize("order,flag", [("C", "C_CONTIGUOUS"), ("F", "F_CONTIGUOUS")])
def test_einsum_order(order, flag):
    ns, ks = _operands([(3, 4), (4, 5)], numpy.float64)
    got = kumo.asnumpy(kumo.einsum("ij,jk->ki", *ks, order=order))
    assert numpy.einsum("ij,jk->ki", *ns, order=order).flags[flag]
    assert kumo.einsum("ij,jk->ki", *ks, order=order).flags[flag]
    numpy.testing.assert_allclose(got, numpy.einsum("ij,jk->ki", *ns))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.complex128])
def test_einsum_dtype_and_casting_match_numpy(dtype):
    ns, ks = _operands([(3, 4), (4, 2)], numpy.int16)
    check(kumo.einsum("ij,jk", *ks, dtype=dtype), numpy.einsum("ij,jk", *ns, dtype=dtype))


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ii", [(3, 3)]),
])
def test_einsum_casting_no_refuses_promotion(subscripts, shapes):
    ns = [numpy.ones(s, dtype=numpy.float32 if i else numpy.float64) for i, s in enumerate(shapes)]
    ks = [kumo.asarray(x) for x in ns]
    if len(ns) > 1:
        with pytest.raises(TypeError):
            numpy.einsum(subscripts, *ns, casting="no")
        with pytest.raises(TypeError):
            kumo.einsum(subscripts, *ks, casting="no")
    else:
        check(kumo.einsum(subscripts, *ks, casting="no"), numpy.einsum(subscripts, *ns, casting="no"))


@pytest.mark.parametrize("subscripts,shapes,match", [
    ("...i...", [(3,)], "not part of an ellipsis"),
    ("i->...i...", [(3,)], "in the output"),
    ("i-i", [(3,)], "proper '->'"),
    ("ij->i", [()], "too many subscripts for operand 0"),
    ("ab,b->a", [(2, 3), (4,)], "could not be broadcast"),
    ("ii->ii", [(3, 3)], "multiple times"),
])
def test_einsum_more_errors(subscripts, shapes, match):
    ns = [numpy.ones(s) for s in shapes]
    with pytest.raises(ValueError):
        numpy.einsum(subscripts, *ns)
    with pytest.raises(ValueError, match=match):
        kumo.einsum(subscripts, *[kumo.asarray(x) for x in ns])


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
def test_einsum_single_operand_view_whatever_order(order):
    na, ka = numpy.ones((3, 4)), kumo.ones((3, 4))
    numpy.einsum("ij->ji", na, order=order)[...] = 2
    kumo.einsum("ij->ji", ka, order=order)[...] = 2
    check(ka, na)
