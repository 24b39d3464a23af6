"""kumo.autograd.functions' array functions and embed_id against NumPy:
forward values and dtypes, first and second derivatives by central
differences (float64), and the errors for bad arguments."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable

from conftest import ALL_DTYPES, make_numpy, to_kumo


def _tuple(ys):
    return tuple(ys) if isinstance(ys, (tuple, list)) else (ys,)


def _host(v):
    return kumo.asnumpy(v.array if isinstance(v, Variable) else v)


def _forward(func, xs):
    return [_host(y) for y in _tuple(func(*[Variable(to_kumo(x)) for x in xs]))]


def _numeric(fn, xs, eps=1e-6):
    """Gradient of the scalar fn(xs) (a list of float64 arrays) by central differences."""
    grads = []
    for i, x in enumerate(xs):
        g = numpy.zeros_like(x)
        for idx in numpy.ndindex(x.shape):
            plus = [a.copy() for a in xs]
            minus = [a.copy() for a in xs]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            g[idx] = (fn(plus) - fn(minus)) / (2 * eps)
        grads.append(g)
    return grads


def check_backward(func, xs, seed=0, atol=1e-6, rtol=1e-5):
    """The gradients of func at xs (float64 NumPy arrays) match central differences."""
    rng = numpy.random.default_rng(seed)
    ys = _forward(func, xs)
    gys = [rng.standard_normal(y.shape) for y in ys]

    def scalar(vals):
        return sum(float((y * g).sum()) for y, g in zip(_forward(func, vals), gys))

    vs = [Variable(to_kumo(x)) for x in xs]
    outs = list(_tuple(func(*vs)))
    got = kumo.autograd.grad(outs, vs, [Variable(kumo.asarray(g), requires_grad=False) for g in gys])
    for g, want, x in zip(got, _numeric(scalar, xs), xs):
        g = numpy.zeros_like(x) if g is None else _host(g)
        numpy.testing.assert_allclose(g, want, atol=atol, rtol=rtol)


def check_double_backward(func, xs, seed=0, atol=1e-6, rtol=1e-5):
    """The gradients of sum(gx * ggx) with respect to xs and gy (through the
    recorded gradient computation) match central differences of the first
    gradients."""
    rng = numpy.random.default_rng(seed)
    ys = _forward(func, xs)
    gys = [rng.standard_normal(y.shape) for y in ys]
    ggxs = [rng.standard_normal(x.shape) for x in xs]
    n = len(xs)

    def first(vals, double):
        vs = [Variable(to_kumo(v)) for v in vals]
        outs = list(_tuple(func(*vs[:n])))
        gx = kumo.autograd.grad(outs, vs[:n], vs[n:], enable_double_backprop=double)
        return vs, gx

    def scalar(vals):
        _, gx = first(vals, False)
        return sum(float((_host(g) * gg).sum()) for g, gg in zip(gx, ggxs) if g is not None)

    vals = list(xs) + gys
    vs, gx = first(vals, True)
    total = None
    for g, gg in zip(gx, ggxs):
        if g is None:
            continue
        term = F.sum(g * Variable(kumo.asarray(gg), requires_grad=False))
        total = term if total is None else total + term
    got = kumo.autograd.grad([total], vs)
    for g, want, x in zip(got, _numeric(scalar, vals), vals):
        g = numpy.zeros_like(x) if g is None else _host(g)
        numpy.testing.assert_allclose(g, want, atol=atol, rtol=rtol)


def rand(*shape, seed=0):
    return numpy.asarray(numpy.random.default_rng(seed).standard_normal(shape))


# (name, kumo function of the inputs, NumPy reference, input shapes)
CASES = [
    ("swapaxes", lambda x: F.swapaxes(x, 0, 2), lambda x: numpy.swapaxes(x, 0, 2), [(2, 3, 4)]),
    ("swapaxes_neg", lambda x: F.swapaxes(x, -1, 0), lambda x: numpy.swapaxes(x, -1, 0), [(3, 2)]),
    ("moveaxis", lambda x: F.moveaxis(x, 0, -1), lambda x: numpy.moveaxis(x, 0, -1), [(2, 3, 4)]),
    ("moveaxis_multi", lambda x: F.moveaxis(x, (0, 1), (2, 0)), lambda x: numpy.moveaxis(x, (0, 1), (2, 0)),
     [(2, 3, 4)]),
    ("rollaxis", lambda x: F.rollaxis(x, 2), lambda x: numpy.rollaxis(x, 2), [(2, 3, 4)]),
    ("rollaxis_start", lambda x: F.rollaxis(x, 0, 3), lambda x: numpy.rollaxis(x, 0, 3), [(2, 3, 4)]),
    ("flatten", F.flatten, lambda x: x.ravel(), [(2, 3)]),
    ("flatten_0d", F.flatten, lambda x: x.ravel(), [()]),
    ("hstack", lambda a, b: F.hstack([a, b]), lambda a, b: numpy.hstack([a, b]), [(2, 3), (2, 1)]),
    ("hstack_1d", lambda a, b: F.hstack([a, b]), lambda a, b: numpy.hstack([a, b]), [(3,), (2,)]),
    ("hstack_0d", lambda a, b: F.hstack([a, b]), lambda a, b: numpy.hstack([a, b]), [(), ()]),
    ("vstack", lambda a, b: F.vstack([a, b]), lambda a, b: numpy.vstack([a, b]), [(3,), (3,)]),
    ("vstack_2d", lambda a, b: F.vstack([a, b]), lambda a, b: numpy.vstack([a, b]), [(2, 3), (1, 3)]),
    ("dstack", lambda a, b: F.dstack([a, b]), lambda a, b: numpy.dstack([a, b]), [(2, 3), (2, 3)]),
    ("dstack_1d", lambda a, b: F.dstack([a, b]), lambda a, b: numpy.dstack([a, b]), [(3,), (3,)]),
    ("separate", lambda x: F.separate(x, 1), lambda x: [x[:, i] for i in range(x.shape[1])], [(2, 3, 2)]),
    ("separate_default", F.separate, lambda x: list(x), [(3, 2)]),
    ("tile", lambda x: F.tile(x, (2, 3)), lambda x: numpy.tile(x, (2, 3)), [(2, 3)]),
    ("tile_int", lambda x: F.tile(x, 2), lambda x: numpy.tile(x, 2), [(2, 3)]),
    ("tile_longer", lambda x: F.tile(x, (2, 1, 2)), lambda x: numpy.tile(x, (2, 1, 2)), [(3,)]),
    ("repeat_flat", lambda x: F.repeat(x, 2), lambda x: numpy.repeat(x, 2), [(2, 3)]),
    ("repeat_axis", lambda x: F.repeat(x, 3, axis=1), lambda x: numpy.repeat(x, 3, axis=1), [(2, 3)]),
    ("repeat_list", lambda x: F.repeat(x, (1, 0, 2), axis=0), lambda x: numpy.repeat(x, (1, 0, 2), axis=0),
     [(3, 2)]),
    ("repeat_0d", lambda x: F.repeat(x, 3), lambda x: numpy.repeat(x, 3), [()]),
    ("flip", lambda x: F.flip(x, 1), lambda x: numpy.flip(x, 1), [(2, 3)]),
    ("flip_neg", lambda x: F.flip(x, -1), lambda x: numpy.flip(x, -1), [(2, 3, 2)]),
    ("fliplr", F.fliplr, numpy.fliplr, [(2, 3)]),
    ("flipud", F.flipud, numpy.flipud, [(3,)]),
    ("pad", lambda x: F.pad(x, ((1, 2), (0, 1))), lambda x: numpy.pad(x, ((1, 2), (0, 1))), [(2, 3)]),
    ("pad_int", lambda x: F.pad(x, 1, constant_values=-2), lambda x: numpy.pad(x, 1, constant_values=-2), [(2, 3)]),
    ("pad_pair_values", lambda x: F.pad(x, (2, 1), "constant", constant_values=(1, 3)),
     lambda x: numpy.pad(x, (2, 1), "constant", constant_values=(1, 3)), [(3,)]),
    ("diagonal", F.diagonal, numpy.diagonal, [(3, 4)]),
    ("diagonal_offset", lambda x: F.diagonal(x, 1), lambda x: numpy.diagonal(x, 1), [(3, 4)]),
    ("diagonal_neg_offset", lambda x: F.diagonal(x, -2, 2, 0), lambda x: numpy.diagonal(x, -2, 2, 0), [(4, 2, 3)]),
    ("diagonal_axes", lambda x: F.diagonal(x, 0, 1, 2), lambda x: numpy.diagonal(x, 0, 1, 2), [(2, 3, 3)]),
    ("diagonal_empty", lambda x: F.diagonal(x, 5), lambda x: numpy.diagonal(x, 5), [(3, 4)]),
]


def strided(x):
    """The values of x in a view with a step of 2 and a negative stride on its last axis."""
    if x.ndim == 0:
        return x
    big = numpy.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    big[..., ::-2] = x[..., ::-1]
    return big[..., ::-2][..., ::-1]


def _as_list(y):
    return list(y) if isinstance(y, (list, tuple)) else [y]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_forward(case, dtype):
    _, fn, ref, shapes = case
    xs = [rand(*s, seed=i).astype(dtype) for i, s in enumerate(shapes)]
    got = _forward(fn, xs)
    want = _as_list(ref(*xs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        numpy.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_forward_noncontiguous(case):
    _, fn, ref, shapes = case
    # The same values from transposed / reversed storage.
    xs = [strided(rand(*s, seed=i)) for i, s in enumerate(shapes)]
    for g, w in zip(_forward(fn, xs), _as_list(ref(*xs))):
        numpy.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_forward_int(case):
    _, fn, ref, shapes = case
    xs = [numpy.arange(int(numpy.prod(s)), dtype=numpy.int32).reshape(s) for s in shapes]
    for g, w in zip(_forward(fn, xs), _as_list(ref(*xs))):
        assert g.dtype == w.dtype
        numpy.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_backward(case):
    _, fn, _, shapes = case
    check_backward(fn, [rand(*s, seed=i) for i, s in enumerate(shapes)])


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_double_backward(case):
    _, fn, _, shapes = case
    check_double_backward(fn, [rand(*s, seed=i) for i, s in enumerate(shapes)])


def test_separate_unused_outputs_get_zero_gradient():
    x = Variable(kumo.asarray(rand(3, 2)))
    parts = F.separate(x)
    F.sum(parts[1]).backward()
    want = numpy.zeros((3, 2))
    want[1] = 1
    numpy.testing.assert_array_equal(kumo.asnumpy(x.grad), want)


# ---- scatter_add

SCATTER = [
    ("slice", (4, 3), (slice(1, 3),), (2, 3)),
    ("int_array_repeated", (4, 3), (numpy.array([0, 2, 0]),), (3, 3)),
    ("broadcast_b", (4, 3), (slice(None), 1), (1,)),
    ("2d_index", (3, 4), (numpy.array([0, 2]), numpy.array([1, 1])), (2,)),
]


@pytest.mark.parametrize("case", SCATTER, ids=[c[0] for c in SCATTER])
def test_scatter_add_forward(case):
    _, ashape, slices, bshape = case
    a, b = rand(*ashape), rand(*bshape, seed=1)
    kslices = tuple(kumo.asarray(s) if isinstance(s, numpy.ndarray) else s for s in slices)
    got = F.scatter_add(Variable(kumo.asarray(a)), kslices, Variable(kumo.asarray(b)))
    want = a.copy()
    numpy.add.at(want, slices, b)
    numpy.testing.assert_allclose(_host(got), want, rtol=1e-15)


@pytest.mark.parametrize("case", SCATTER, ids=[c[0] for c in SCATTER])
def test_scatter_add_gradients(case):
    _, ashape, slices, bshape = case
    kslices = tuple(kumo.asarray(s) if isinstance(s, numpy.ndarray) else s for s in slices)
    fn = lambda a, b: F.scatter_add(a, kslices, b)  # noqa: E731
    check_backward(fn, [rand(*ashape), rand(*bshape, seed=1)])
    check_double_backward(fn, [rand(*ashape), rand(*bshape, seed=1)])


# ---- depth2space / space2depth

def depth2space_ref(X, r):
    n, cr, h, w = X.shape
    c = cr // (r * r)
    out = numpy.empty((n, c, h * r, w * r), X.dtype)
    for i in range(r):
        for j in range(r):
            out[:, :, i::r, j::r] = X[:, (i * r + j) * c:(i * r + j + 1) * c]
    return out


@pytest.mark.parametrize("shape,r", [((1, 4, 2, 3), 2), ((2, 18, 1, 2), 3), ((2, 3, 2, 2), 1)])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_depth2space_forward(shape, r, dtype):
    X = rand(*shape).astype(dtype)
    got = _host(F.depth2space(Variable(to_kumo(X)), r))
    numpy.testing.assert_array_equal(got, depth2space_ref(X, r))


@pytest.mark.parametrize("shape,r", [((1, 4, 2, 3), 2), ((2, 18, 1, 2), 3)])
def test_space2depth_inverts_depth2space(shape, r):
    X = rand(*shape)
    Y = depth2space_ref(X, r)
    got = _host(F.space2depth(Variable(kumo.asarray(Y)), r))
    numpy.testing.assert_array_equal(got, X)


@pytest.mark.parametrize("fn,shape", [(lambda x: F.depth2space(x, 2), (1, 8, 2, 1)),
                                      (lambda x: F.space2depth(x, 2), (2, 1, 2, 4))])
def test_depth_space_gradients(fn, shape):
    check_backward(fn, [rand(*shape)])
    check_double_backward(fn, [rand(*shape)])


@pytest.mark.parametrize("call", [lambda x: F.depth2space(x, 3), lambda x: F.space2depth(x, 3),
                                  lambda x: F.depth2space(x[0], 2)])
def test_depth_space_bad_shapes(call):
    with pytest.raises(ValueError):
        call(Variable(kumo.asarray(rand(1, 4, 2, 2))))


def test_depth2space_int_is_type_error():
    with pytest.raises(TypeError):
        F.depth2space(kumo.zeros((1, 4, 2, 2), dtype="int32"), 2)


# ---- resize_images

def resize_ref(x, out_h, out_w, mode, align_corners):
    def coords(out, size):
        i = numpy.arange(out, dtype=numpy.float64)
        if align_corners:
            s = i * (size - 1) / (out - 1) if out > 1 else numpy.zeros(out)
        else:
            s = numpy.maximum((i + 0.5) * size / out - 0.5, 0)
        return numpy.minimum(s, size - 1)

    n, c, h, w = x.shape
    v, u = coords(out_h, h), coords(out_w, w)
    if mode == "nearest":
        # Chainer's nearest ignores align_corners.
        vi = numpy.minimum(numpy.floor(numpy.arange(out_h) * h / out_h).astype(int), h - 1)
        ui = numpy.minimum(numpy.floor(numpy.arange(out_w) * w / out_w).astype(int), w - 1)
        return x[:, :, vi][:, :, :, ui]
    out = numpy.empty((n, c, out_h, out_w))
    for a in range(out_h):
        y0 = int(numpy.floor(v[a]))
        y1 = min(y0 + 1, h - 1)
        wy = v[a] - y0
        for b in range(out_w):
            x0 = int(numpy.floor(u[b]))
            x1 = min(x0 + 1, w - 1)
            wx = u[b] - x0
            out[:, :, a, b] = ((1 - wy) * (1 - wx) * x[:, :, y0, x0] + (1 - wy) * wx * x[:, :, y0, x1] +
                               wy * (1 - wx) * x[:, :, y1, x0] + wy * wx * x[:, :, y1, x1])
    return out


RESIZE = [((1, 2, 3, 4), (5, 7)), ((2, 1, 4, 4), (2, 3)), ((1, 1, 1, 3), (3, 1)), ((1, 2, 2, 2), (2, 2))]


@pytest.mark.parametrize("shape,out", RESIZE)
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_resize_images_forward(shape, out, mode, align_corners):
    x = rand(*shape)
    got = _host(F.resize_images(Variable(kumo.asarray(x)), out, mode=mode, align_corners=align_corners))
    numpy.testing.assert_allclose(got, resize_ref(x, *out, mode, align_corners), rtol=1e-12, atol=1e-12)


def test_resize_images_float32():
    x = rand(1, 2, 3, 4).astype(numpy.float32)
    got = F.resize_images(Variable(kumo.asarray(x)), (5, 6))
    assert got.dtype == numpy.float32
    numpy.testing.assert_allclose(_host(got), resize_ref(x.astype(numpy.float64), 5, 6, "bilinear", True), rtol=1e-5)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_resize_images_gradients(mode, align_corners):
    fn = lambda x: F.resize_images(x, (3, 5), mode=mode, align_corners=align_corners)  # noqa: E731
    check_backward(fn, [rand(1, 2, 2, 3)])
    check_double_backward(fn, [rand(1, 2, 2, 3)])


@pytest.mark.parametrize("kwargs,exc", [({"output_shape": (2, 2), "mode": "cubic"}, ValueError),
                                        ({"output_shape": (0, 2)}, ValueError),
                                        ({"output_shape": (2, 2, 2)}, ValueError)])
def test_resize_images_errors(kwargs, exc):
    with pytest.raises(exc):
        F.resize_images(Variable(kumo.asarray(rand(1, 1, 2, 2))), **kwargs)


# ---- pad_sequence

@pytest.mark.parametrize("lengths,length,tail", [((3, 1, 2), None, ()), ((2, 2), 4, (3,)), ((1,), None, (2, 2))])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_pad_sequence_forward(lengths, length, tail, dtype):
    xs = [rand(n, *tail, seed=i).astype(dtype) for i, n in enumerate(lengths)]
    got = _host(F.pad_sequence([Variable(kumo.asarray(x)) for x in xs], length=length, padding=-1))
    L = length or max(lengths)
    want = numpy.full((len(xs), L) + tail, -1, dtype)
    for i, x in enumerate(xs):
        want[i, :len(x)] = x
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(got, want)


def test_pad_sequence_gradients():
    fn = lambda a, b: F.pad_sequence([a, b], length=4)  # noqa: E731
    check_backward(fn, [rand(3, 2), rand(1, 2, seed=1)])
    check_double_backward(fn, [rand(3, 2), rand(1, 2, seed=1)])


@pytest.mark.parametrize("xs,length", [([], None), ([(3,), (2, 1)], None), ([(3,)], 2)])
def test_pad_sequence_errors(xs, length):
    with pytest.raises(ValueError):
        F.pad_sequence([kumo.zeros(s) for s in xs], length=length)


# ---- embed_id

@pytest.mark.parametrize("ids_shape", [(), (4,), (2, 3)])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("ignore_label", [None, 2, -1])
def test_embed_id_forward(ids_shape, dtype, ignore_label):
    rng = numpy.random.default_rng(0)
    ids = rng.integers(0, 5, ids_shape).astype(numpy.int32)
    if ignore_label is not None and ids.ndim:
        ids.flat[0] = ignore_label
    W = rand(5, 3).astype(dtype)
    got = _host(F.embed_id(kumo.asarray(ids), Variable(kumo.asarray(W)), ignore_label=ignore_label))
    want = W[numpy.where(ids == ignore_label, 0, ids)] if ignore_label is not None else W[ids]
    if ignore_label is not None:
        want = want * (ids != ignore_label)[..., None]
    assert got.dtype == dtype
    numpy.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("ignore_label", [None, 1])
def test_embed_id_gradients(ignore_label):
    ids = kumo.asarray(numpy.array([[1, 0], [3, 1]], numpy.int64))
    fn = lambda W: F.embed_id(ids, W, ignore_label=ignore_label)  # noqa: E731
    check_backward(fn, [rand(4, 3)])
    check_double_backward(fn, [rand(4, 3)])


def test_embed_id_repeated_ids_accumulate():
    W = Variable(kumo.asarray(rand(3, 2)))
    F.sum(F.embed_id(kumo.asarray(numpy.array([2, 2, 0])), W)).backward()
    numpy.testing.assert_array_equal(kumo.asnumpy(W.grad), [[1, 1], [0, 0], [2, 2]])


@pytest.mark.parametrize("ids,W,exc", [(numpy.array([0.5]), (3, 2), TypeError), (numpy.array([0]), (3,), ValueError),
                                       (numpy.array([3]), (3, 2), IndexError)])
def test_embed_id_errors(ids, W, exc):
    with pytest.raises(exc):
        F.embed_id(kumo.asarray(ids), Variable(kumo.asarray(rand(*W))))


# ---- argument errors

@pytest.mark.parametrize("call,exc", [
    (lambda x: F.swapaxes(x, 0, 3), numpy.exceptions.AxisError),
    (lambda x: F.moveaxis(x, (0, 0), (1, 2)), ValueError),
    (lambda x: F.moveaxis(x, (0,), (1, 2)), ValueError),
    (lambda x: F.rollaxis(x, 0, 5), numpy.exceptions.AxisError),
    (lambda x: F.tile(x, -1), ValueError),
    (lambda x: F.tile(x, (2 ** 40, 2 ** 40)), ValueError),
    (lambda x: F.repeat(x, 2 ** 62), ValueError),
    (lambda x: F.repeat(x, -1), ValueError),
    (lambda x: F.repeat(x, (1, 2, 3), axis=0), ValueError),
    (lambda x: F.flip(x, 3), numpy.exceptions.AxisError),
    (lambda x: F.fliplr(F.flatten(x)), ValueError),
    (lambda x: F.pad(x, -1), ValueError),
    (lambda x: F.pad(x, 1, mode="edge"), ValueError),
    (lambda x: F.pad(x, 1, mode="bogus"), ValueError),
    (lambda x: F.pad(x, 1.5), TypeError),
    (lambda x: F.pad(x, 1, stat_length=2), TypeError),
    (lambda x: F.diagonal(x, 0, 1, 1), ValueError),
    (lambda x: F.diagonal(F.flatten(x)), ValueError),
    (lambda x: F.hstack([]), ValueError),
    (lambda x: F.separate(F.sum(x)), ValueError),
])
def test_argument_errors(call, exc):
    with pytest.raises(exc):
        call(Variable(kumo.asarray(rand(2, 3, 4))))


# ---- kumo.autograd.gradient_check (Chainer's checker) on every case

@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_gradient_check(case):
    from kumo.autograd import gradient_check

    _, fn, _, shapes = case
    xs = tuple(kumo.asarray(rand(*s, seed=i)) for i, s in enumerate(shapes))
    gradient_check.check_backward(fn, xs, None)
    gradient_check.check_double_backward(fn, xs, None, None)


@pytest.mark.parametrize("fn,shapes", [
    (lambda x: F.resize_images(x, (3, 5)), [(1, 2, 2, 3)]),
    (lambda x: F.resize_images(x, (3, 2), mode="nearest", align_corners=False), [(1, 1, 4, 3)]),
    (lambda x: F.depth2space(x, 2), [(1, 8, 2, 1)]),
    (lambda x: F.space2depth(x, 2), [(2, 1, 2, 4)]),
    (lambda a, b: F.pad_sequence([a, b]), [(3, 2), (1, 2)]),
    (lambda W: F.embed_id(kumo.asarray(numpy.array([1, 0, 1])), W, ignore_label=0), [(3, 2)]),
    (lambda a, b: F.scatter_add(a, (kumo.asarray(numpy.array([0, 2, 0])),), b), [(4, 3), (3, 3)]),
])
def test_gradient_check_more(fn, shapes):
    from kumo.autograd import gradient_check

    xs = tuple(kumo.asarray(rand(*s, seed=i)) for i, s in enumerate(shapes))
    gradient_check.check_backward(fn, xs, None)
    gradient_check.check_double_backward(fn, xs, None, None)


# ---- every dtype NumPy accepts (forward only: the shape functions move data)

@pytest.mark.parametrize("case", [c for c in CASES if not c[0].startswith("pad")], ids=lambda c: c[0])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: numpy.dtype(d).name)
def test_forward_all_dtypes(case, dtype):
    _, fn, ref, shapes = case
    xs = [make_numpy("1d", dtype, seed=i)[:1].reshape(()) if s == () else
          make_numpy("1d", dtype, seed=i).repeat(30)[:int(numpy.prod(s))].reshape(s) for i, s in enumerate(shapes)]
    for g, w in zip(_forward(fn, xs), _as_list(ref(*xs))):
        assert g.dtype == w.dtype and g.shape == w.shape
        numpy.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: numpy.dtype(d).name)
def test_pad_all_dtypes(dtype):
    x = make_numpy("3d", dtype)
    got = _forward(lambda v: F.pad(v, ((0, 1), (2, 0), (1, 1)), constant_values=1), [x])[0]
    numpy.testing.assert_array_equal(got, numpy.pad(x, ((0, 1), (2, 0), (1, 1)), constant_values=1))
    assert got.dtype == x.dtype


EMPTY = [("swapaxes", lambda x: F.swapaxes(x, 0, 1), lambda x: numpy.swapaxes(x, 0, 1)),
         ("tile", lambda x: F.tile(x, (2, 2)), lambda x: numpy.tile(x, (2, 2))),
         ("repeat", lambda x: F.repeat(x, 2, axis=1), lambda x: numpy.repeat(x, 2, axis=1)),
         ("flip", lambda x: F.flip(x, 0), lambda x: numpy.flip(x, 0)),
         ("pad", lambda x: F.pad(x, 1), lambda x: numpy.pad(x, 1)),
         ("diagonal", F.diagonal, numpy.diagonal),
         ("hstack", lambda x: F.hstack([x, x]), lambda x: numpy.hstack([x, x]))]


@pytest.mark.parametrize("case", EMPTY, ids=[c[0] for c in EMPTY])
def test_empty_forward_and_backward(case):
    _, fn, ref = case
    x = numpy.zeros((0, 3))
    v = Variable(kumo.asarray(x))
    y = fn(v)
    want = ref(x)
    assert y.shape == want.shape
    numpy.testing.assert_array_equal(_host(y), want)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(kumo.asnumpy(v.grad), numpy.zeros((0, 3)))


@pytest.mark.parametrize("indices", [[4, 1], [2, 5], [-3, 8], [0, 0], [12], [-20, 3], [3, 3, 2]])
def test_split_axis_pieces_are_numpy_split_slices(indices):
    # Each piece is x[indices[i-1]:indices[i]] (Python slice bounds): with
    # decreasing indices the next piece starts at its own index.
    x = numpy.arange(10.0)
    v = Variable(kumo.asarray(x))
    pieces = F.split_axis(v, indices, 0)
    want = numpy.split(x, indices)
    assert [p.shape for p in pieces] == [w.shape for w in want]
    for p, w in zip(pieces, want):
        numpy.testing.assert_array_equal(kumo.asnumpy(p.array), w)
    F.sum(F.concat([p * float(i + 1) for i, p in enumerate(pieces)], axis=0)).backward()
    grad = numpy.zeros(10)
    for i, w in enumerate(want):
        start = 0 if i == 0 else min(max(indices[i - 1] + (10 if indices[i - 1] < 0 else 0), 0), 10)
        grad[start:start + w.size] += i + 1
    numpy.testing.assert_array_equal(kumo.asnumpy(v.grad), grad)
