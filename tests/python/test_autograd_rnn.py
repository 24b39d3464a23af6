"""kumo.autograd.functions' recurrent functions (lstm, slstm, gru, the
n_step_* networks) against NumPy implementations of the recurrences, with
first and second derivatives by central differences (float64)."""
import numpy
import pytest

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable

from test_autograd_array import check_backward, check_double_backward, rand


def sig(x):
    return 1 / (1 + numpy.exp(-x))


def host(v):
    return kumo.asnumpy(v.array)


def var(a):
    return Variable(kumo.asarray(a))


# ---- lstm / slstm

def lstm_ref(c_prev, x):
    B = x.shape[0]
    r = x.reshape((B, x.shape[1] // 4, 4) + x.shape[2:])
    a, i, f, o = (r[:, :, k] for k in range(4))
    c = numpy.tanh(a) * sig(i) + sig(f) * c_prev[:B]
    h = sig(o) * numpy.tanh(c)
    return numpy.concatenate([c, c_prev[B:]]), h


LSTM_SHAPES = [((2, 3), (2, 12)), ((1, 2), (1, 8)), ((3, 2), (2, 8)), ((2, 1, 3), (2, 4, 3)), ((0, 2), (0, 8))]


@pytest.mark.parametrize("cshape,xshape", LSTM_SHAPES)
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_lstm_forward(cshape, xshape, dtype):
    c_prev, x = rand(*cshape).astype(dtype), rand(*xshape, seed=1).astype(dtype)
    c, h = F.lstm(var(c_prev), var(x))
    wc, wh = lstm_ref(c_prev, x)
    assert c.dtype == dtype and h.dtype == dtype
    tol = 1e-6 if dtype == numpy.float32 else 1e-14
    numpy.testing.assert_allclose(host(c), wc, rtol=tol, atol=tol)
    numpy.testing.assert_allclose(host(h), wh, rtol=tol, atol=tol)


def test_lstm_noncontiguous():
    c_prev, x = rand(3, 2).T, rand(12, 2, seed=1).T
    c, h = F.lstm(var(c_prev), var(x))
    wc, wh = lstm_ref(c_prev, x)
    numpy.testing.assert_allclose(host(c), wc, rtol=1e-14)
    numpy.testing.assert_allclose(host(h), wh, rtol=1e-14)


@pytest.mark.parametrize("cshape,xshape", LSTM_SHAPES[:4])
def test_lstm_gradients(cshape, xshape):
    xs = [rand(*cshape), rand(*xshape, seed=1)]
    check_backward(F.lstm, xs)
    check_double_backward(F.lstm, xs)


@pytest.mark.parametrize("cshape,xshape,exc", [((2, 3), (2, 10), ValueError), ((2, 2), (2, 12), ValueError),
                                               ((1, 3), (2, 12), ValueError), ((2,), (2, 4), ValueError)])
def test_lstm_bad_shapes(cshape, xshape, exc):
    with pytest.raises(exc):
        F.lstm(var(rand(*cshape)), var(rand(*xshape)))


def test_lstm_int_is_type_error():
    with pytest.raises(TypeError):
        F.lstm(kumo.zeros((2, 3), dtype="int32"), kumo.zeros((2, 12), dtype="int32"))


def slstm_ref(c1, c2, x1, x2):
    def gates(x):
        r = x.reshape((x.shape[0], x.shape[1] // 4, 4) + x.shape[2:])
        return [r[:, :, k] for k in range(4)]
    a1, i1, f1, o1 = gates(x1)
    a2, i2, f2, o2 = gates(x2)
    c = numpy.tanh(a1 + a2) * sig(i1 + i2) + sig(f1) * c1 + sig(f2) * c2
    return c, sig(o1 + o2) * numpy.tanh(c)


def test_slstm_forward_and_gradients():
    xs = [rand(2, 3), rand(2, 3, seed=1), rand(2, 12, seed=2), rand(2, 12, seed=3)]
    c, h = F.slstm(*[var(x) for x in xs])
    wc, wh = slstm_ref(*xs)
    numpy.testing.assert_allclose(host(c), wc, rtol=1e-14)
    numpy.testing.assert_allclose(host(h), wh, rtol=1e-14)
    check_backward(F.slstm, xs)
    check_double_backward(F.slstm, xs)


# ---- n-step networks

N_WEIGHTS = {"lstm": 8, "gru": 6, "rnn": 2}


def make_params(kind, n_layers, dirs, n_in, H, seed=0):
    rng = numpy.random.default_rng(seed)
    ws, bs = [], []
    for layer in range(n_layers):
        for _ in range(dirs):
            width = n_in if layer == 0 else H * dirs
            half = N_WEIGHTS[kind] // 2
            ws.append([rng.standard_normal((H, width if k < half else H)) * 0.5 for k in range(N_WEIGHTS[kind])])
            bs.append([rng.standard_normal(H) * 0.5 for _ in range(N_WEIGHTS[kind])])
    return ws, bs


def cell_ref(kind, act, w, b, x, h, c):
    if kind == "lstm":
        def gate(k):
            return x @ w[k].T + b[k] + h @ w[k + 4].T + b[k + 4]
        i, f, a, o = sig(gate(0)), sig(gate(1)), numpy.tanh(gate(2)), sig(gate(3))
        c = f * c + i * a
        return o * numpy.tanh(c), c
    if kind == "gru":
        r = sig(x @ w[0].T + b[0] + h @ w[3].T + b[3])
        z = sig(x @ w[1].T + b[1] + h @ w[4].T + b[4])
        cand = numpy.tanh(x @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
        return (1 - z) * cand + z * h, None
    pre = x @ w[0].T + b[0] + h @ w[1].T + b[1]
    return (numpy.maximum(pre, 0) if act == "relu" else numpy.tanh(pre)), None


def n_step_ref(kind, n_layers, hx, cx, ws, bs, xs, dirs, act="tanh"):
    layer_in, hy, cy = list(xs), [], []
    for layer in range(n_layers):
        outs = []
        for d in range(dirs):
            idx = layer * dirs + d
            h = hx[idx].copy()
            c = cx[idx].copy() if kind == "lstm" else None
            out = [None] * len(xs)
            for t in (range(len(xs)) if d == 0 else reversed(range(len(xs)))):
                B = len(layer_in[t])
                hn, cn = cell_ref(kind, act, ws[idx], bs[idx], layer_in[t], h[:B], c[:B] if c is not None else None)
                h[:B] = hn
                if c is not None:
                    c[:B] = cn
                out[t] = hn
            outs.append(out)
            hy.append(h)
            cy.append(c)
        layer_in = outs[0] if dirs == 1 else [numpy.concatenate([a, b], axis=1) for a, b in zip(*outs)]
    return numpy.stack(hy), (numpy.stack(cy) if kind == "lstm" else None), layer_in


FUNCS = {("lstm", 1): F.n_step_lstm, ("lstm", 2): F.n_step_bilstm, ("gru", 1): F.n_step_gru,
         ("gru", 2): F.n_step_bigru, ("rnn", 1): F.n_step_rnn, ("rnn", 2): F.n_step_birnn}


def call_n_step(kind, dirs, n_layers, hx, cx, ws, bs, xs, act="tanh", ratio=0.0):
    fn = FUNCS[(kind, dirs)]
    if kind == "lstm":
        hy, cy, ys = fn(n_layers, ratio, hx, cx, ws, bs, xs)
        return hy, cy, ys
    if kind == "rnn":
        hy, ys = fn(n_layers, ratio, hx, ws, bs, xs, activation=act)
    else:
        hy, ys = fn(n_layers, ratio, hx, ws, bs, xs)
    return hy, None, ys


NETS = [(kind, dirs, act) for kind in ("lstm", "gru") for dirs in (1, 2) for act in ("tanh",)] + [
    ("rnn", 1, "tanh"), ("rnn", 1, "relu"), ("rnn", 2, "tanh"), ("rnn", 2, "relu")]
NET_IDS = ["%s-%s-%s" % n for n in NETS]


@pytest.mark.parametrize("kind,dirs,act", NETS, ids=NET_IDS)
@pytest.mark.parametrize("n_layers,batches", [(1, (2,)), (2, (3, 3, 2, 1)), (3, (1, 1))])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_n_step_forward(kind, dirs, act, n_layers, batches, dtype):
    n_in, H = 2, 3
    ws, bs = make_params(kind, n_layers, dirs, n_in, H)
    B = batches[0]
    hx, cx = rand(n_layers * dirs, B, H, seed=1), rand(n_layers * dirs, B, H, seed=2)
    xs = [rand(b, n_in, seed=10 + t) for t, b in enumerate(batches)]
    cast = lambda a: kumo.asarray(a.astype(dtype))  # noqa: E731
    hy, cy, ys = call_n_step(kind, dirs, n_layers, cast(hx), cast(cx), [[cast(w) for w in l] for l in ws],
                             [[cast(b) for b in l] for l in bs], [cast(x) for x in xs], act)
    whx, wcx, wys = n_step_ref(kind, n_layers, hx, cx, ws, bs, xs, dirs, act)
    tol = 1e-5 if dtype == numpy.float32 else 1e-12
    assert hy.dtype == dtype
    numpy.testing.assert_allclose(host(hy), whx, rtol=tol, atol=tol)
    if kind == "lstm":
        numpy.testing.assert_allclose(host(cy), wcx, rtol=tol, atol=tol)
    assert len(ys) == len(wys)
    for y, w in zip(ys, wys):
        numpy.testing.assert_allclose(host(y), w, rtol=tol, atol=tol)


def flat_n_step(kind, dirs, n_layers, act, n_weights_sets, n_xs):
    """The network as a function of a flat list of inputs (hx, [cx], ws..., bs..., xs...)."""
    per = N_WEIGHTS[kind]

    def fn(*args):
        args = list(args)
        hx = args.pop(0)
        cx = args.pop(0) if kind == "lstm" else None
        ws = [args[i * per:(i + 1) * per] for i in range(n_weights_sets)]
        args = args[n_weights_sets * per:]
        bs = [args[i * per:(i + 1) * per] for i in range(n_weights_sets)]
        xs = args[n_weights_sets * per:]
        hy, cy, ys = call_n_step(kind, dirs, n_layers, hx, cx, ws, bs, xs, act)
        return tuple([hy] + ([cy] if cy is not None else []) + list(ys))

    return fn


@pytest.mark.parametrize("kind,dirs,act", NETS, ids=NET_IDS)
def test_n_step_gradients(kind, dirs, act):
    n_layers, n_in, H, batches = 2, 2, 2, (2, 1)
    ws, bs = make_params(kind, n_layers, dirs, n_in, H)
    hx = rand(n_layers * dirs, 2, H, seed=1)
    cx = [rand(n_layers * dirs, 2, H, seed=2)] if kind == "lstm" else []
    xs = [rand(b, n_in, seed=10 + t) for t, b in enumerate(batches)]
    inputs = [hx] + cx + [w for l in ws for w in l] + [b for l in bs for b in l] + xs
    fn = flat_n_step(kind, dirs, n_layers, act, len(ws), len(xs))
    check_backward(fn, inputs)


@pytest.mark.parametrize("kind,dirs,act", [("lstm", 1, "tanh"), ("gru", 2, "tanh"), ("rnn", 1, "tanh")])
def test_n_step_double_backward(kind, dirs, act):
    n_layers, n_in, H, batches = 1, 2, 2, (2, 1)
    ws, bs = make_params(kind, n_layers, dirs, n_in, H)
    hx = rand(n_layers * dirs, 2, H, seed=1)
    cx = [rand(n_layers * dirs, 2, H, seed=2)] if kind == "lstm" else []
    xs = [rand(b, n_in, seed=10 + t) for t, b in enumerate(batches)]
    inputs = [hx] + cx + [w for l in ws for w in l] + [b for l in bs for b in l] + xs
    check_double_backward(flat_n_step(kind, dirs, n_layers, act, len(ws), len(xs)), inputs, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("kind", ["lstm", "gru", "rnn"])
def test_n_step_hx_none_is_zeros(kind):
    ws, bs = make_params(kind, 1, 1, 2, 3)
    xs = [rand(2, 2, seed=5), rand(1, 2, seed=6)]
    zeros = numpy.zeros((1, 2, 3))
    k = lambda a: kumo.asarray(a)  # noqa: E731
    hy, _, ys = call_n_step(kind, 1, 1, None, None, [[k(w) for w in l] for l in ws], [[k(b) for b in l] for l in bs],
                            [k(x) for x in xs])
    whx, _, wys = n_step_ref(kind, 1, zeros, zeros, ws, bs, xs, 1)
    numpy.testing.assert_allclose(host(hy), whx, rtol=1e-12)


def test_n_step_dropout_keeps_expectation_and_scales():
    # With one input unit and identity-like weights, layer 2 sees x * mask / (1 - ratio).
    ws, bs = make_params("rnn", 2, 1, 1, 1)
    ws[1] = [numpy.ones((1, 1)), numpy.zeros((1, 1))]
    bs[1] = [numpy.zeros(1), numpy.zeros(1)]
    k = lambda a: kumo.asarray(a)  # noqa: E731
    x = [k(numpy.full((4000, 1), 0.3))]
    hy, ys = F.n_step_rnn(2, 0.5, None, [[k(w) for w in l] for l in ws], [[k(b) for b in l] for l in bs], x,
                          activation="relu")
    first = numpy.maximum(0.3 * ws[0][0][0, 0] + bs[0][0][0] + bs[0][1][0], 0)
    got = host(ys[0])[:, 0]
    kept = got > 0
    numpy.testing.assert_allclose(got[kept], 2 * first, rtol=1e-12)
    assert 0.45 < kept.mean() < 0.55


@pytest.mark.parametrize("change,exc", [
    ("n_layers", ValueError), ("ratio", ValueError), ("ws_count", ValueError), ("w_count", ValueError),
    ("hx_shape", ValueError), ("increasing", ValueError), ("empty_xs", ValueError), ("activation", ValueError),
    ("int_x", TypeError)])
def test_n_step_errors(change, exc):
    ws, bs = make_params("rnn", 1, 1, 2, 3)
    k = lambda a: kumo.asarray(a)  # noqa: E731
    kws = [[k(w) for w in l] for l in ws]
    kbs = [[k(b) for b in l] for l in bs]
    xs = [k(rand(2, 2)), k(rand(1, 2))]
    hx = k(numpy.zeros((1, 2, 3)))
    args = dict(n_layers=1, dropout_ratio=0.0, hx=hx, ws=kws, bs=kbs, xs=xs, activation="tanh")
    if change == "n_layers":
        args["n_layers"] = 0
    elif change == "ratio":
        args["dropout_ratio"] = 1.0
    elif change == "ws_count":
        args["ws"] = kws * 2
    elif change == "w_count":
        args["ws"] = [kws[0][:1]]
    elif change == "hx_shape":
        args["hx"] = k(numpy.zeros((2, 2, 3)))
    elif change == "increasing":
        args["xs"] = xs[::-1]
    elif change == "empty_xs":
        args["xs"] = []
    elif change == "activation":
        args["activation"] = "sigmoid"
    elif change == "int_x":
        args["xs"] = [k(numpy.zeros((2, 2), numpy.int32))]
    with pytest.raises(exc):
        F.n_step_rnn(**args)


# ---- the stateless GRU cell

def test_gru_cell_matches_one_n_step_gru_step():
    ws, bs = make_params("gru", 1, 1, 2, 3)
    h, x = rand(2, 3), rand(2, 2, seed=1)
    got = F.gru(var(h), var(x), [var(w) for w in ws[0]], [var(b) for b in bs[0]])
    want, _ = cell_ref("gru", "tanh", ws[0], bs[0], x, h, None)
    numpy.testing.assert_allclose(host(got), want, rtol=1e-13)
    fn = lambda h, x, *p: F.gru(h, x, list(p[:6]), list(p[6:]))  # noqa: E731
    inputs = [h, x] + ws[0] + bs[0]
    check_backward(fn, inputs)
    check_double_backward(fn, inputs, atol=1e-5, rtol=1e-4)


# ---- kumo.autograd.gradient_check (Chainer's checker)

@pytest.mark.parametrize("fn,shapes", [(F.lstm, [(3, 2), (2, 8)]), (F.lstm, [(2, 1, 3), (2, 4, 3)]),
                                       (F.slstm, [(2, 3), (2, 3), (2, 12), (2, 12)])])
def test_gradient_check_cells(fn, shapes):
    from kumo.autograd import gradient_check

    xs = tuple(kumo.asarray(rand(*s, seed=i)) for i, s in enumerate(shapes))
    gradient_check.check_backward(fn, xs, None)
    gradient_check.check_double_backward(fn, xs, None, None)


@pytest.mark.parametrize("kind,dirs,act", NETS, ids=NET_IDS)
def test_gradient_check_n_step(kind, dirs, act):
    from kumo.autograd import gradient_check

    n_layers, n_in, H, batches = 2, 2, 3, (3, 2, 2)
    ws, bs = make_params(kind, n_layers, dirs, n_in, H)
    hx = rand(n_layers * dirs, 3, H, seed=1)
    cx = [rand(n_layers * dirs, 3, H, seed=2)] if kind == "lstm" else []
    xs = [rand(b, n_in, seed=10 + t) for t, b in enumerate(batches)]
    inputs = tuple(kumo.asarray(a) for a in [hx] + cx + [w for l in ws for w in l] + [b for l in bs for b in l] + xs)
    fn = flat_n_step(kind, dirs, n_layers, act, len(ws), len(xs))
    gradient_check.check_backward(fn, inputs, None)
    gradient_check.check_double_backward(fn, inputs, None, None)
