"""The op table of the autograd harness: one Row per function of
kumo.autograd.functions (some functions have several rows: get_item's basic
and advanced indices, operators, keyword forms).

A row is data:

    Row("tanh", unary("real"), ref=np.tanh)

`gen(rng)` returns (inputs, keywords): In(shape, domain) (check.py:
`sample`) or In(values=...), `grad=False` for constants and labels.
`ref(*inputs_in_float64, **keywords)` is the NumPy forward (a result or a
tuple, one per returned Variable); without one the finite differences run
kumo's own forward in float64 (`fd="kumo"` forces that). `call`: the
expression that makes the call, over F, np, kumo, kw and x0, x1, ...
(default `F.<name>(x0, ..., **kw)`). `tol` multiplies check.TOL (`f16tol` once more for float16: the
normalizations, whose gradients grow as 1/std); `atol` adds atol * (the dtype's forward
rtol) to the forward bound (results that cancel: decov); `eps` the
finite-difference step; `double=False` skips the double backward;
`backward=False` checks the forward only (argmax, accuracy); `out_dtype`
the result dtype when it is not the inputs' ("ref": the reference's);
`fdref`: the float64 formula for the finite differences when `ref` rounds
(cast); `known`: (description,
predicate(info)) pairs of known kumo defects (info.cls, info.detail,
info.dtype, info.kw, info.call).
"""
import fnmatch
import math

import numpy as np
import scipy.special as sp

from .. import layouts
from .check import FLOATS, In


LINALG = ["float32", "float64"]       # kumo.linalg, like numpy.linalg, has no float16


class Row:
    def __init__(self, name, gen, ref=None, call=None, dtypes=FLOATS, double=True, tol=1.0, fd="auto",
                 out_dtype=None, outputs=None, backward=True, eps=1.0, weight=1.0, known=(), fdref=None, atol=0.0,
                 f16tol=1.0):
        self.name, self.gen, self.ref, self.call, self.dtypes = name, gen, ref, call, list(dtypes)
        self.double, self.tol, self.fd, self.out_dtype, self.outputs = double, tol, fd, out_dtype, outputs
        self.backward, self.eps, self.weight, self.known = backward, eps, weight, list(known)
        self.fdref, self.atol, self.f16tol = fdref, atol, f16tol


# -- input generators -------------------------------------------------------------

def S(rng, lo=0, hi=3, n=4, empty=True):
    return layouts.random_shape(rng, lo, hi, n, empty)


def pick(rng, choices):
    return choices[int(rng.integers(len(choices)))]


def unary(domain="real", lo=0, hi=3, kw=None, empty=True):
    def gen(rng):
        return [In(S(rng, lo, hi, 4, empty), domain)], ({} if kw is None else kw(rng))
    return gen


def bshape(rng, shape):
    """A shape that broadcasts with `shape` (some axes 1, leading ones dropped)."""
    s = [1 if rng.random() < 0.3 else n for n in shape]
    return tuple(s[int(rng.integers(0, len(s) + 1)):] if rng.random() < 0.3 else s)


def binary(d0="real", d1="real", broadcast=True):
    def gen(rng):
        a = S(rng)
        b = bshape(rng, a) if broadcast and rng.random() < 0.4 else a
        if rng.random() < 0.5:
            a, b = b, a
        return [In(a, d0), In(b, d1)], {}
    return gen


def separated(rng, shape, gap=0.15):
    """(x, y) with |x - y| >= gap everywhere (maximum, minimum: no ties)."""
    x = rng.uniform(-2, 2, shape)
    y = x + rng.choice([-1.0, 1.0], shape) * rng.uniform(gap, 1.5, shape)
    return x, y


def axis_kw(rng, nd, allow_none=True, allow_tuple=True):
    if nd == 0 or (allow_none and rng.random() < 0.25):
        return None
    if allow_tuple and nd > 1 and rng.random() < 0.3:
        k = int(rng.integers(1, nd + 1))
        return tuple(int(a) - (nd if rng.random() < 0.3 else 0) for a in rng.choice(nd, k, replace=False))
    return int(rng.integers(-nd, nd))


def reduction(domain="real", keepdims=True, tuple_axes=True, none_axis=True, empty=True, lo=0):
    def gen(rng):
        s = S(rng, lo, 3, 4, empty)
        kw = {"axis": axis_kw(rng, len(s), none_axis, tuple_axes)}
        if keepdims and rng.random() < 0.5:
            kw["keepdims"] = bool(rng.random() < 0.5)
        return [In(s, domain)], kw
    return gen


def nonempty_axis(rng, shape, ax):
    """Reductions that have no identity (max, logsumexp) need a non-empty
    reduced extent and non-empty result."""
    return tuple(max(n, 1) for n in shape)


def labels(rng, shape, n_classes):
    return rng.integers(0, n_classes, shape).astype(np.int32)


# -- NumPy references -----------------------------------------------------------------

def np_axis(kw):
    return kw.get("axis")


def ref_red(f):
    def ref(x, axis=None, keepdims=False):
        return f(x, axis=axis, keepdims=keepdims)
    return ref


def softmax_ref(x, axis=1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax_ref(x, axis=1):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def logsumexp_ref(x, axis=1):
    m = x.max(axis=axis, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))).squeeze(axis=axis)


def tup(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def conv_ref(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """N-d convolution (cross-correlation), Chainer's output size, by a loop
    over kernel offsets."""
    nd = x.ndim - 2
    s, p, d = tup(stride, nd), tup(pad, nd), tup(dilate, nd)
    k = W.shape[2:]
    N, C = x.shape[:2]
    O = W.shape[0]
    G = groups
    out = []
    for i in range(nd):
        dk = d[i] * (k[i] - 1) + 1
        n = x.shape[2 + i] + 2 * p[i] - dk
        out.append((n + s[i] - 1) // s[i] + 1 if cover_all else n // s[i] + 1)
    extra = [s[i] - 1 if cover_all else 0 for i in range(nd)]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p[i], p[i] + extra[i]) for i in range(nd)])
    y = np.zeros((N, G, O // G) + tuple(out))
    xg = xp.reshape((N, G, C // G) + xp.shape[2:])
    Wg = W.reshape((G, O // G, C // G) + k)
    for kk in np.ndindex(*k):
        sl = tuple(slice(d[i] * kk[i], d[i] * kk[i] + s[i] * (out[i] - 1) + 1, s[i]) for i in range(nd))
        patch = xg[(slice(None),) * 3 + sl]
        y += np.einsum("ngc...,goc->ngo...", patch, Wg[(slice(None),) * 3 + kk])
    y = y.reshape((N, O) + tuple(out))
    if b is not None:
        y = y + b.reshape((1, O) + (1,) * nd)
    return y


def deconv_ref(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    nd = x.ndim - 2
    s, p, d = tup(stride, nd), tup(pad, nd), tup(dilate, nd)
    k = W.shape[2:]
    N, C = x.shape[:2]
    G = groups
    Og = W.shape[1]
    full = [s[i] * (x.shape[2 + i] - 1) + d[i] * (k[i] - 1) + 1 for i in range(nd)]
    out = list(outsize) if outsize is not None else [full[i] - 2 * p[i] for i in range(nd)]
    size = [max(full[i], out[i] + 2 * p[i]) for i in range(nd)]
    y = np.zeros((N, G, Og) + tuple(size))
    xg = x.reshape((N, G, C // G) + x.shape[2:])
    Wg = W.reshape((G, C // G, Og) + k)
    for kk in np.ndindex(*k):
        sl = tuple(slice(d[i] * kk[i], d[i] * kk[i] + s[i] * (x.shape[2 + i] - 1) + 1, s[i]) for i in range(nd))
        y[(slice(None),) * 3 + sl] += np.einsum("ngc...,gco->ngo...", xg, Wg[(slice(None),) * 3 + kk])
    y = y[(slice(None),) * 3 + tuple(slice(p[i], p[i] + out[i]) for i in range(nd))]
    y = y.reshape((N, G * Og) + tuple(out))
    if b is not None:
        y = y + b.reshape((1, G * Og) + (1,) * nd)
    return y


def pool_ref(x, ksize, stride=None, pad=0, cover_all=True, kind="max", pad_value=0, return_indices=False):
    nd = x.ndim - 2
    k = tup(ksize, nd)
    s = tup(k if stride is None else stride, nd)
    p = tup(pad, nd)
    out = []
    for i in range(nd):
        n = x.shape[2 + i] + 2 * p[i] - k[i]
        out.append((n + s[i] - 1) // s[i] + 1 if cover_all else n // s[i] + 1)
    extra = [s[i] - 1 if cover_all else 0 for i in range(nd)]
    fill = -np.inf if kind == "max" else 0.0
    widths = [(0, 0), (0, 0)] + [(p[i], p[i] + extra[i]) for i in range(nd)]
    xp = np.pad(x, widths, constant_values=fill)
    ones = np.pad(np.ones(x.shape[2:]), widths[2:])
    acc = np.full(x.shape[:2] + tuple(out), fill)
    cnt = np.zeros(tuple(out))
    for kk in np.ndindex(*k):
        sl = tuple(slice(kk[i], kk[i] + s[i] * (out[i] - 1) + 1, s[i]) for i in range(nd))
        patch = xp[(slice(None),) * 2 + sl]
        if kind == "max":
            acc = np.maximum(acc, patch)
        else:
            acc = acc + patch
            cnt = cnt + ones[sl]
    if kind == "max":
        return acc
    if pad_value is None:
        return acc / cnt
    return acc / float(np.prod(k))


def lrn_ref(x, n=5, k=2, alpha=1e-4, beta=0.75):
    sq = x * x
    C = x.shape[1]
    s = np.zeros_like(x)
    for c in range(C):
        lo, hi = max(0, c - n // 2), min(C, c + n // 2 + 1)
        s[:, c] = sq[:, lo:hi].sum(axis=1)
    return x / (k + alpha * s) ** beta


def bn_ref(x, gamma, beta, eps=2e-5, axis=None, **_):
    ax = (0,) + tuple(range(2, x.ndim)) if axis is None else tuple(axis)
    shape = [1 if i in ax else n for i, n in enumerate(x.shape)]
    m = x.mean(axis=ax, keepdims=True)
    v = x.var(axis=ax, keepdims=True)
    return gamma.reshape(shape) * (x - m) / np.sqrt(v + eps) + beta.reshape(shape)


def fixed_bn_ref(x, gamma, beta, mean, var, eps=2e-5, axis=None):
    ax = (0,) + tuple(range(2, x.ndim)) if axis is None else tuple(axis)
    shape = [1 if i in ax else n for i, n in enumerate(x.shape)]
    r = lambda a: a.reshape(shape)  # noqa: E731
    return r(gamma) * (x - r(mean)) / np.sqrt(r(var) + eps) + r(beta)


def ln_ref(x, gamma, beta, eps=1e-5):
    m = x.mean(axis=1, keepdims=True)
    v = x.var(axis=1, keepdims=True)
    return gamma * (x - m) / np.sqrt(v + eps) + beta


def gn_ref(x, groups, gamma, beta, eps=1e-5):
    N, C = x.shape[:2]
    xg = x.reshape(N, groups, -1)
    m = xg.mean(axis=2, keepdims=True)
    v = xg.var(axis=2, keepdims=True)
    y = ((xg - m) / np.sqrt(v + eps)).reshape(x.shape)
    shape = (1, C) + (1,) * (x.ndim - 2)
    return y * gamma.reshape(shape) + beta.reshape(shape)


def sce_ref(x, t, normalize=True, cache_score=True, class_weight=None, ignore_label=-1, reduce="mean",
            enable_double_backprop=False):
    ls = log_softmax_ref(x, axis=1)
    tt = np.where(t == ignore_label, 0, t)
    picked = np.take_along_axis(ls, np.expand_dims(tt, 1), axis=1).squeeze(1)
    valid = t != ignore_label
    loss = -np.where(valid, picked, 0.0)
    if reduce == "no":
        return loss
    count = valid.sum() if normalize else x.shape[0]
    return np.asarray(loss.sum() / max(count, 1) if count else 0.0)


def sigmoid_ce_ref(x, t, normalize=True, reduce="mean"):
    loss = -(x * (t >= 1) - np.logaddexp(0, x))
    valid = t != -1
    loss = np.where(valid, loss, 0)
    if reduce == "no":
        return loss
    count = valid.sum() if normalize else x.shape[0]
    return np.asarray(loss.sum() / max(count, 1))


def red(loss, reduce):
    return loss if reduce == "no" else np.asarray(loss.mean() if reduce == "mean" else loss.sum())


def eye_spd(rng, n, batch=()):
    a = rng.uniform(-1, 1, batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def well_conditioned(rng, n, batch=()):
    return rng.uniform(-0.5, 0.5, batch + (n, n)) + 2 * np.eye(n) * rng.choice([-1, 1])


def lstm_ref(c, x):
    B, H = c.shape
    r = x.reshape(B, H, 4)
    a, i, f, o = (r[:, :, j] for j in range(4))
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    cn = np.tanh(a) * sig(i) + sig(f) * c
    return cn, sig(o) * np.tanh(cn)


# -- indices for get_item -------------------------------------------------------------

def basic_index(rng, shape):
    idx = []
    nd = len(shape)
    i = 0
    while i < nd:
        n = shape[i]
        r = rng.random()
        if r < 0.25 and n:
            idx.append(int(rng.integers(-n, n)))
        elif r < 0.7:
            a, b = sorted(int(v) for v in rng.integers(-n - 1, n + 2, 2))
            st = pick(rng, [1, 1, 2, -1, -2, 3])
            idx.append(slice(a, b, st) if st > 0 else slice(b, a, st))
        elif r < 0.8:
            idx.append(None)
            continue
        else:
            idx.append(slice(None))
        i += 1
    if rng.random() < 0.2 and idx:
        k = int(rng.integers(len(idx) + 1))
        idx = idx[:k] + [Ellipsis]
    return tuple(idx)


def advanced_index(rng, shape):
    """An integer or boolean array index on one or two axes, mixed with slices."""
    nd = len(shape)
    idx = [slice(None)] * nd
    axes = rng.choice(nd, min(nd, int(rng.integers(1, 3))), replace=False)
    m = int(rng.integers(0, 5)) if all(shape[a] for a in axes) else 0
    for ax in axes:
        n = shape[ax]
        if rng.random() < 0.2 and len(axes) == 1:
            idx[ax] = rng.random(n) < 0.5
        elif n:
            idx[ax] = rng.integers(-n, n, m)            # repeated indices: the gradient accumulates
        else:
            idx[ax] = np.zeros(0, np.int64)
    if rng.random() < 0.3 and nd > len(axes):
        free = [a for a in range(nd) if a not in axes]
        a = free[0]
        if shape[a] > 1:
            idx[a] = slice(None, None, -1)
    return tuple(idx)


def fix_index(idx):
    return tuple(i.copy() if isinstance(i, np.ndarray) else i for i in idx)


# -- the rows -----------------------------------------------------------------

def _kw(**choices):
    """A keyword generator: each keyword drawn from its choices (a list) or a function of rng."""
    def gen(rng):
        out = {}
        for k, v in choices.items():
            out[k] = v(rng) if callable(v) else pick(rng, v)
        return out
    return gen


def sig(x):
    return 1 / (1 + np.exp(-x))


def _gelu(x, approximate=False):
    if approximate:
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + sp.erf(x / np.sqrt(2)))


def _nstep_call(name, n_w, cx=False, dirs=1, extra=""):
    k = 2 if cx else 1
    state = ", ".join(f"x{j}" for j in range(k))
    ws, bs = [], []
    for d in range(dirs):
        ws.append("[" + ", ".join(f"x{k + d * 2 * n_w + j}" for j in range(2 * n_w)) + "]")
    k += dirs * 2 * n_w
    for d in range(dirs):
        bs.append("[" + ", ".join(f"x{k + d * 2 * n_w + j}" for j in range(2 * n_w)) + "]")
    k += dirs * 2 * n_w
    return f"F.{name}(1, 0.0, {state}, [{', '.join(ws)}], [{', '.join(bs)}], [x{k}, x{k + 1}]{extra})"


ROWS = [
    # -- math
    Row("exp", unary("real"), ref=np.exp),
    Row("log", unary("pos"), ref=np.log),
    Row("sqrt", unary("pos"), ref=np.sqrt),
    Row("square", unary("real"), ref=np.square),
    Row("sin", unary("real"), ref=np.sin),
    Row("cos", unary("real"), ref=np.cos),
    Row("tan", unary("unit"), ref=np.tan),
    Row("tanh", unary("real"), ref=np.tanh),
    Row("sigmoid", unary("big"), ref=sig),
    Row("neg", unary("real"), ref=np.negative),
    Row("absolute", unary("away0"), ref=np.abs),
    Row("log2", unary("pos"), ref=np.log2),
    Row("log10", unary("pos"), ref=np.log10),
    Row("log1p", unary("open01"), ref=np.log1p),
    Row("expm1", unary("real"), ref=np.expm1),
    Row("arcsin", unary("unit"), ref=np.arcsin),
    Row("arccos", unary("unit"), ref=np.arccos),
    Row("arctan", unary("real"), ref=np.arctan),
    Row("sinh", unary("real"), ref=np.sinh),
    Row("cosh", unary("real"), ref=np.cosh),
    Row("rsqrt", unary("pos"), ref=lambda x: 1 / np.sqrt(x)),
    Row("floor", unary("noint"), ref=np.floor),
    Row("ceil", unary("noint"), ref=np.ceil),
    Row("erf", unary("real"), ref=sp.erf),
    Row("erfc", unary("real"), ref=sp.erfc),
    Row("erfinv", unary("unit"), ref=sp.erfinv),
    Row("lgamma", unary("pos"), ref=sp.gammaln),
    Row("digamma", unary("pos"), ref=sp.digamma),
    Row("polygamma", lambda rng: ([In(S(rng), "pos")], {"n": int(rng.integers(0, 3))}),
        call="F.polygamma(kw['n'], x0)", ref=lambda x, n: sp.polygamma(n, x), tol=3.0),
    Row("add", binary(), ref=np.add),
    Row("sub", binary(), ref=np.subtract),
    Row("mul", binary(), ref=np.multiply),
    Row("div", binary("real", "away0"), ref=np.divide),
    Row("pow", binary("pos", "real"), ref=np.power),
    Row("add/scalar", unary("real", kw=_kw(s=[2.5, -1.0, 0.0])), call="F.add(x0, kw['s'])",
        ref=lambda x, s: x + s),
    Row("operator/radd", unary("real", kw=_kw(s=[2.5, -1.0])), call="kw['s'] + x0", ref=lambda x, s: s + x),
    Row("operator/rsub", unary("real", kw=_kw(s=[2.5, -1.0])), call="kw['s'] - x0", ref=lambda x, s: s - x),
    Row("operator/rmul", unary("real", kw=_kw(s=[2.5, -1.0])), call="kw['s'] * x0", ref=lambda x, s: s * x),
    Row("operator/rdiv", unary("away0", kw=_kw(s=[2.5, -1.0])), call="kw['s'] / x0", ref=lambda x, s: s / x),
    Row("operator/pow_scalar", unary("pos", kw=_kw(s=[2, 3, 0.5, -1.5, 2.0])), call="x0 ** kw['s']",
        ref=lambda x, s: x ** s),
    Row("operator/rpow", unary("real", kw=_kw(s=[2.0, 0.5, 3])), call="kw['s'] ** x0", ref=lambda x, s: s ** x),
    Row("operator/neg", unary("real"), call="-x0", ref=np.negative),
    Row("operator/matmul", lambda rng: ([In((int(rng.integers(1, 4)), 3)), In((3, int(rng.integers(0, 4))))], {}),
        call="x0 @ x1", ref=np.matmul),
    Row("operator/array_plus_variable", lambda rng: ([In(s := S(rng), grad=False), In(s)], {}), call="x0 + x1",
        ref=np.add),
    Row("operator/array_times_variable", lambda rng: ([In(s := S(rng), grad=False), In(s)], {}), call="x0 * x1",
        ref=np.multiply),
    Row("operator/getitem", lambda rng: ([In(s := S(rng, 1))], {"idx": basic_index(rng, s)}),
        call="x0[kw['idx']]", ref=lambda x, idx: x[idx]),
    Row("arctan2", lambda rng: ([In(s := S(rng), "away0"), In(s, "real")], {}), ref=np.arctan2),
    Row("fmod", lambda rng: ([In(values=(d := rng.uniform(1, 2, (s := S(rng)))) * (rng.integers(-3, 3, s)
                                                                                   + rng.uniform(0.2, 0.8, s))),
                              In(values=d)], {}), ref=np.fmod),
    Row("squared_difference", binary(broadcast=False), ref=lambda a, b: (a - b) ** 2),
    Row("maximum", lambda rng: ([In(values=(v := separated(rng, S(rng)))[0]), In(values=v[1])], {}), ref=np.maximum),
    Row("minimum", lambda rng: ([In(values=(v := separated(rng, S(rng)))[0]), In(values=v[1])], {}), ref=np.minimum),
    Row("clip", lambda rng: ([In(values=_away(rng, S(rng), [-0.6, 0.7]))], {"x_min": -0.6, "x_max": 0.7}),
        ref=lambda x, x_min, x_max: np.clip(x, x_min, x_max)),
    # -- activations
    Row("relu", unary("away0"), ref=lambda x: np.maximum(x, 0)),
    Row("leaky_relu", unary("away0", kw=_kw(slope=[0.2, 0.01, 1.5])), ref=lambda x, slope: np.where(x > 0, x, slope * x)),
    Row("elu", unary("away0", kw=_kw(alpha=[1.0, 0.5])), ref=lambda x, alpha: np.where(x > 0, x, alpha * np.expm1(x))),
    Row("celu", unary("away0", kw=_kw(alpha=[1.0, 0.5, 2.0])),
        ref=lambda x, alpha: np.maximum(x, 0) + np.minimum(0, alpha * np.expm1(x / alpha))),
    Row("selu", unary("away0"), ref=lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x))),
    Row("softplus", unary("big", kw=_kw(beta=[1.0, 2.0, 0.5])), ref=lambda x, beta: np.logaddexp(0, beta * x) / beta),
    Row("silu", unary("real"), ref=lambda x: x * sig(x)),
    Row("gelu", unary("real", kw=_kw(approximate=[False, True])), ref=_gelu, tol=2.0),
    Row("hard_sigmoid", unary("real"), ref=lambda x: np.clip(0.2 * x + 0.5, 0, 1)),
    Row("clipped_relu", unary("away0", kw=_kw(z=[1.0, 20.0])),
        call="F.clipped_relu(x0, **kw)", ref=lambda x, z: np.clip(x, 0, z), eps=1e-3),
    Row("swish", lambda rng: ([In(s := (int(rng.integers(1, 4)), int(rng.integers(1, 4))) + S(rng, 0, 1)),
                               In((s[1],))], {}), ref=lambda x, b: x * sig(b.reshape((-1,) + (1,) * (x.ndim - 2)) * x)),
    Row("prelu", lambda rng: ([In(s := (int(rng.integers(1, 4)), int(rng.integers(1, 4))) + S(rng, 0, 1), "away0"),
                               In((s[1],))], {}),
        ref=lambda x, w: np.where(x > 0, x, w.reshape((-1,) + (1,) * (x.ndim - 2)) * x)),
    Row("crelu", lambda rng: ([In(s := S(rng, 1), "away0")], {"axis": int(rng.integers(-len(s), len(s)))}),
        ref=lambda x, axis: np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], axis=axis)),
    Row("maxout", lambda rng: ([In((int(rng.integers(1, 3)), 2 * int(rng.integers(1, 3)), int(rng.integers(1, 3))),
                                   "distinct")], {"pool_size": 2}),
        ref=lambda x, pool_size: x.reshape(x.shape[0], -1, pool_size, *x.shape[2:]).max(axis=2)),
    Row("softmax", lambda rng: ([In(s := S(rng, 1, 3, 4, False))], {"axis": int(rng.integers(-len(s), len(s)))}),
        ref=softmax_ref),
    Row("log_softmax", lambda rng: ([In(s := S(rng, 1, 3, 4, False))], {"axis": int(rng.integers(-len(s), len(s)))}),
        ref=log_softmax_ref),
    Row("logsumexp", lambda rng: ([In(s := S(rng, 1, 3, 4, False))], {"axis": int(rng.integers(-len(s), len(s)))}),
        ref=logsumexp_ref),
    # -- reductions
    Row("sum", reduction(), ref=ref_red(np.sum)),
    Row("mean", reduction(empty=False), ref=ref_red(np.mean)),
    Row("max", reduction("distinct", empty=False), ref=ref_red(np.max)),
    Row("min", reduction("distinct", empty=False), ref=ref_red(np.min)),
    Row("prod", reduction("away0"), ref=ref_red(np.prod), tol=3.0),
    Row("cumsum", lambda rng: ([In(s := S(rng))], {"axis": axis_kw(rng, len(s), True, False)}),
        ref=lambda x, axis: np.cumsum(x, axis=axis)),
    Row("cumprod", lambda rng: ([In(s := S(rng), "away0")], {"axis": axis_kw(rng, len(s), True, False)}),
        ref=lambda x, axis: np.cumprod(x, axis=axis), tol=3.0),
    Row("average", lambda rng: ([In(s := S(rng, 1, 3, 4, False))], {"axis": int(rng.integers(-len(s), len(s)))}),
        ref=lambda x, axis: np.average(x, axis=axis)),
    Row("average/weights", lambda rng: ([In(s := S(rng, 1, 3, 4, False)), In((s[ax := int(rng.integers(len(s)))],),
                                                                             "pos")], {"axis": ax}),
        call="F.average(x0, axis=kw['axis'], weights=x1)", ref=lambda x, w, axis: np.average(x, axis=axis, weights=w)),
    Row("argmax", reduction("distinct", keepdims=False, tuple_axes=False, empty=False), backward=False,
        out_dtype="int64", ref=lambda x, axis=None: np.argmax(x, axis=axis)),
    Row("argmin", reduction("distinct", keepdims=False, tuple_axes=False, empty=False), backward=False,
        out_dtype="int64", ref=lambda x, axis=None: np.argmin(x, axis=axis)),
    Row("batch_l2_norm_squared", unary("real", 2),
        ref=lambda x: (x.reshape(x.shape[0], int(np.prod(x.shape[1:]))) ** 2).sum(axis=1)),
    Row("sum_to", lambda rng: ([In(s := S(rng))], {"shape": bshape(rng, s)}), call="F.sum_to(x0, kw['shape'])",
        ref=lambda x, shape: x.sum(axis=tuple(range(x.ndim - len(shape)))).sum(
            axis=tuple(i for i, n in enumerate(shape) if n == 1), keepdims=True).reshape(shape)),
    # -- array manipulation
    Row("reshape", lambda rng: ([In(s := S(rng))], {"shape": pick(rng, [(-1,), tuple(reversed(s)), s + (1,)])}),
        call="F.reshape(x0, kw['shape'])", ref=lambda x, shape: x.reshape(shape)),
    Row("transpose", lambda rng: ([In(s := S(rng))], {"axes": pick(rng, [None, tuple(int(a) for a in
                                                                              rng.permutation(len(s)))])}),
        ref=lambda x, axes: np.transpose(x, axes)),
    Row("variable.T", unary("real"), call="x0.T", ref=lambda x: x.T),
    Row("broadcast_to", lambda rng: ([In(b := bshape(rng, s := S(rng)))], {"shape": s}),
        call="F.broadcast_to(x0, kw['shape'])", ref=lambda x, shape: np.broadcast_to(x, shape)),
    Row("expand_dims", lambda rng: ([In(s := S(rng))], {"axis": int(rng.integers(-len(s) - 1, len(s) + 1))}),
        ref=lambda x, axis: np.expand_dims(x, axis)),
    Row("squeeze", lambda rng: ([In(s := tuple(pick(rng, [1, 1, 2, 3]) for _ in range(int(rng.integers(0, 4)))))],
                                {"axis": pick(rng, [None] + [i for i, n in enumerate(s) if n == 1])}),
        ref=lambda x, axis: np.squeeze(x, axis)),
    Row("concat", lambda rng: (lambda s, ax, k: ([In(s[:ax] + (int(rng.integers(0, 3)),) + s[ax + 1:])
                                                  for _ in range(k)], {"axis": ax}))(
        S(rng, 1, 3, 3, False), 0, int(rng.integers(1, 4))),
        call="F.concat(xs, axis=kw['axis'])",
        ref=lambda *xs, axis: np.concatenate(xs, axis=axis)),
    Row("stack", lambda rng: (lambda s, k: ([In(s) for _ in range(k)],
                                            {"axis": int(rng.integers(-len(s) - 1, len(s) + 1))}))(
        S(rng), int(rng.integers(1, 4))),
        call="F.stack(xs, axis=kw['axis'])", ref=lambda *xs, axis: np.stack(xs, axis=axis)),
    Row("hstack", lambda rng: ([In(s := S(rng, 1, 3, 3, False)), In(s)], {}), call="F.hstack([x0, x1])",
        ref=lambda a, b: np.hstack([a, b])),
    Row("vstack", lambda rng: ([In(s := S(rng, 1, 3, 3, False)), In(s)], {}), call="F.vstack([x0, x1])",
        ref=lambda a, b: np.vstack([a, b])),
    Row("dstack", lambda rng: ([In(s := S(rng, 1, 3, 3, False)), In(s)], {}), call="F.dstack([x0, x1])",
        ref=lambda a, b: np.dstack([a, b])),
    Row("split_axis", lambda rng: ([In(s := S(rng, 1, 3, 5))],
                                   {"ios": pick(rng, [1, [1, 3], [0], [2, 2], [4, 1]] + ([s[0]] if s[0] else [])),
                                    "axis": 0}),
        call="F.split_axis(x0, kw['ios'], kw['axis'])",
        ref=lambda x, ios, axis: tuple(np.split(x, ios, axis=axis))),
    Row("separate", lambda rng: ([In(s := S(rng, 1, 3, 3))], {"axis": int(rng.integers(-len(s), len(s)))}),
        ref=lambda x, axis: tuple(np.moveaxis(x, axis, 0))),
    Row("swapaxes", lambda rng: ([In(s := S(rng, 1))], {"axis1": int(rng.integers(len(s))),
                                                         "axis2": int(rng.integers(-len(s), len(s)))}),
        ref=lambda x, axis1, axis2: np.swapaxes(x, axis1, axis2)),
    Row("moveaxis", lambda rng: ([In(s := S(rng, 1))], {"source": int(rng.integers(len(s))),
                                                         "destination": int(rng.integers(-len(s), len(s)))}),
        ref=lambda x, source, destination: np.moveaxis(x, source, destination)),
    Row("rollaxis", lambda rng: ([In(s := S(rng, 1))], {"axis": int(rng.integers(len(s))),
                                                         "start": int(rng.integers(0, len(s) + 1))}),
        ref=lambda x, axis, start: np.rollaxis(x, axis, start)),
    Row("flatten", unary("real"), ref=lambda x: x.ravel()),
    Row("tile", lambda rng: ([In(S(rng))], {"reps": pick(rng, [2, (2, 1), (1, 3, 1), 1, (0, 2)])}),
        ref=lambda x, reps: np.tile(x, reps)),
    Row("repeat", lambda rng: ([In(s := S(rng))], {"repeats": pick(rng, [2, 1, 0, 3]),
                                                    "axis": axis_kw(rng, len(s), True, False)}),
        ref=lambda x, repeats, axis: np.repeat(x, repeats, axis)),
    Row("repeat/list", lambda rng: ([In(s := S(rng, 1, 3, 3, False))],
                                    {"repeats": [int(v) for v in rng.integers(0, 3, s[0])], "axis": 0}),
        call="F.repeat(x0, kw['repeats'], kw['axis'])", ref=lambda x, repeats, axis: np.repeat(x, repeats, axis)),
    Row("flip", lambda rng: ([In(s := S(rng, 1))], {"axis": int(rng.integers(-len(s), len(s)))}),
        ref=lambda x, axis: np.flip(x, axis)),
    Row("fliplr", unary("real", 2), ref=np.fliplr),
    Row("flipud", unary("real", 1), ref=np.flipud),
    Row("pad", lambda rng: ([In(s := S(rng))], {"pad_width": pick(rng, [1, (1, 2), ((0, 1),) * len(s) or 0, 0]),
                                                 "constant_values": pick(rng, [0, 1.5])}),
        call="F.pad(x0, kw['pad_width'], 'constant', constant_values=kw['constant_values'])",
        ref=lambda x, pad_width, constant_values: np.pad(x, pad_width, constant_values=constant_values)),
    Row("diagonal", lambda rng: ([In(s := S(rng, 2, 3))], {"offset": int(rng.integers(-2, 3)), "axis1": 0,
                                                            "axis2": pick(rng, [1, -1])}),
        ref=lambda x, offset, axis1, axis2: np.diagonal(x, offset, axis1, axis2)),
    Row("where", lambda rng: ([In(values=rng.random(s := S(rng)) < 0.5, grad=False, dtype="bool"), In(s), In(s)], {}),
        ref=lambda c, a, b: np.where(c, a, b)),
    Row("cast", lambda rng: ([In(S(rng))], {"typ": pick(rng, ["float16", "float32", "float64"])}),
        call="F.cast(x0, kw['typ'])", out_dtype="ref", ref=lambda x, typ: x.astype(typ),
        fdref=lambda x, typ: x, tol=30.0),
    Row("get_item/basic", lambda rng: ([In(s := S(rng, 1))], {"idx": basic_index(rng, s)}),
        call="F.get_item(x0, kw['idx'])", ref=lambda x, idx: x[idx]),
    Row("get_item/advanced", lambda rng: ([In(s := S(rng, 1))], {"idx": advanced_index(rng, s)}),
        call="F.get_item(x0, kw['idx'])", ref=lambda x, idx: x[idx], weight=2.0),
    Row("get_item/int", lambda rng: ([In(s := S(rng, 1, 3, 4, False))], {"idx": int(rng.integers(-s[0], s[0]))}),
        call="F.get_item(x0, kw['idx'])", ref=lambda x, idx: x[idx]),
    Row("get_item/list", lambda rng: ([In(s := S(rng, 1, 3, 4, False))],
                                      {"idx": [int(v) for v in rng.integers(-s[0], s[0], int(rng.integers(1, 4)))]}),
        call="F.get_item(x0, kw['idx'])", ref=lambda x, idx: x[idx]),
    Row("select_item", lambda rng: ([In((b := int(rng.integers(0, 4)), c := int(rng.integers(1, 4)))),
                                     In(values=labels(rng, (b,), c), grad=False)], {}),
        ref=lambda x, t: x[np.arange(len(t)), t]),
    Row("scatter_add", lambda rng: ([In(s := S(rng, 1)), In(np.zeros(s)[idx := basic_index(rng, s)].shape)],
                                    {"idx": idx}),
        call="F.scatter_add(x0, kw['idx'], x1)", ref=lambda a, b, idx: _scatter(a, idx, b)),
    Row("scatter_add/advanced", lambda rng: ([In(s := S(rng, 1)), In(np.zeros(s)[idx := advanced_index(rng, s)].shape)],
                                             {"idx": idx}),
        call="F.scatter_add(x0, kw['idx'], x1)", ref=lambda a, b, idx: _scatter(a, idx, b)),
    Row("depth2space", lambda rng: ([In((int(rng.integers(1, 3)), 4 * int(rng.integers(1, 3)), int(rng.integers(1, 3)),
                                         int(rng.integers(1, 3))))], {"r": 2}), ref=lambda X, r: _d2s(X, r)),
    Row("space2depth", lambda rng: ([In((int(rng.integers(1, 3)), int(rng.integers(1, 3)), 2 * int(rng.integers(1, 3)),
                                         2 * int(rng.integers(1, 3))))], {"r": 2}), ref=lambda X, r: _s2d(X, r)),
    Row("resize_images", lambda rng: ([In((1, int(rng.integers(1, 3)), int(rng.integers(2, 4)), int(rng.integers(2, 4))))],
                                      {"output_shape": (int(rng.integers(1, 5)), int(rng.integers(1, 5)))}),
        call="F.resize_images(x0, kw['output_shape'])", fd="kumo"),
    Row("pad_sequence", lambda rng: ([In((int(rng.integers(0, 4)), 2)), In((int(rng.integers(0, 4)), 2))],
                                     {"length": pick(rng, [None, 4]), "padding": pick(rng, [0, -1.5])}),
        call="F.pad_sequence([x0, x1], kw['length'], kw['padding'])",
        ref=lambda a, b, length, padding: _pad_seq([a, b], length, padding)),
    Row("copy", unary("real"), call="F.copy(x0, 'cpu')", ref=lambda x: x.copy()),
    Row("embed_id", lambda rng: ([In(values=labels(rng, S(rng, 0, 2), v := int(rng.integers(1, 5))), grad=False),
                                  In((v, int(rng.integers(1, 4))))], {}), ref=lambda x, W: W[x]),
    Row("embed_id/ignore", lambda rng: ([In(values=labels(rng, S(rng, 0, 2), v := int(rng.integers(2, 5))) - 1,
                                            grad=False), In((v, 2))], {"ignore_label": -1}),
        ref=lambda x, W, ignore_label: np.where((x == -1)[..., None], 0, W[np.where(x == -1, 0, x)])),
    # -- linear algebra, connections
    Row("matmul", lambda rng: (lambda m, k, n, bt: ([In(bt + (m, k)), In((k, n))], {}))(
        int(rng.integers(1, 4)), int(rng.integers(0, 4)), int(rng.integers(1, 4)), pick(rng, [(), (2,)])),
        ref=np.matmul),
    Row("matmul/batched", lambda rng: (lambda m, k, n, b: ([In((b, m, k)), In((b, k, n))], {}))(
        int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 3))),
        call="F.matmul(x0, x1)", ref=np.matmul),
    Row("linear", lambda rng: (lambda b, i, o: ([In((b, i)), In((o, i)), In((o,))], {}))(
        int(rng.integers(0, 4)), int(rng.integers(1, 5)), int(rng.integers(1, 4))), ref=lambda x, W, b: x @ W.T + b),
    Row("linear/nobias", lambda rng: (lambda b, i, o: ([In((b, i, 2)), In((o, 2 * i))], {}))(
        int(rng.integers(1, 4)), int(rng.integers(1, 3)), int(rng.integers(1, 4))),
        call="F.linear(x0, x1)", ref=lambda x, W: x.reshape(len(x), -1) @ W.T),
    Row("tensordot", lambda rng: ([In((2, 3, int(rng.integers(1, 3)))), In((3, int(rng.integers(1, 3)), 2))],
                                  {"axes": pick(rng, [([1], [0]), ([0, 1], [2, 0])])}),
        ref=lambda a, b, axes: np.tensordot(a, b, axes)),
    Row("einsum", lambda rng: ([In((2, 3)), In((3, int(rng.integers(1, 4))))], {"sub": pick(rng, ["ij,jk->ik",
                                                                                                  "ij,jk->ki",
                                                                                                  "ij,jk->j"])}),
        call="F.einsum(kw['sub'], x0, x1)", ref=lambda a, b, sub: np.einsum(sub, a, b)),
    Row("einsum/unary", lambda rng: ([In((3, 3))], {"sub": pick(rng, ["ii->i", "ij->", "ij->ji", "ii"])}),
        call="F.einsum(kw['sub'], x0)", ref=lambda a, sub: np.einsum(sub, a)),
    Row("bilinear", lambda rng: (lambda b, i, j, k: ([In((b, i)), In((b, j)), In((i, j, k)), In((i, k)), In((j, k)),
                                                      In((k,))], {}))(
        int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(1, 3))),
        ref=lambda e1, e2, W, V1, V2, b: np.einsum("bi,bj,ijk->bk", e1, e2, W) + e1 @ V1 + e2 @ V2 + b),
    Row("det", lambda rng: ([In(values=well_conditioned(rng, int(rng.integers(1, 4))))], {}), ref=np.linalg.det,
        tol=3.0, dtypes=LINALG),
    Row("batch_det", lambda rng: ([In(values=well_conditioned(rng, int(rng.integers(1, 4)), (2,)))], {}),
        ref=np.linalg.det, tol=3.0, dtypes=LINALG),
    Row("inv", lambda rng: ([In(values=well_conditioned(rng, int(rng.integers(1, 4))))], {}), ref=np.linalg.inv,
        tol=3.0, dtypes=LINALG),
    Row("batch_inv", lambda rng: ([In(values=well_conditioned(rng, int(rng.integers(1, 4)), (2,)))], {}),
        ref=np.linalg.inv, tol=3.0, dtypes=LINALG),
    # the gradient of a symmetric input is symmetric (Chainer's convention): differences of the symmetrized input
    Row("cholesky", lambda rng: ([In(values=eye_spd(rng, int(rng.integers(1, 4))))], {}), ref=np.linalg.cholesky,
        fdref=lambda a: np.linalg.cholesky((a + np.swapaxes(a, -1, -2)) / 2), tol=3.0, dtypes=LINALG,
        double=False),     # a symmetrized gradient: differences along non-symmetric directions mean nothing
    Row("solve", lambda rng: ([In(values=well_conditioned(rng, n := int(rng.integers(1, 4)))),
                               In((n, pick(rng, [1, 2])))], {}), ref=np.linalg.solve, tol=3.0,
        dtypes=LINALG),
    Row("convolution_2d", lambda rng: _conv_gen(rng, 2), call="F.convolution_2d(*xs, **kw[\'k\'])",
        ref=lambda *xs, k: conv_ref(*xs, **k), weight=3.0),
    Row("convolution_1d", lambda rng: _conv_gen(rng, 1), call="F.convolution_1d(*xs, **kw[\'k\'])",
        ref=lambda *xs, k: conv_ref(*xs, **k)),
    Row("convolution_3d", lambda rng: _conv_gen(rng, 3, small=True),
        call="F.convolution_3d(*xs, **kw[\'k\'])",
        ref=lambda *xs, k: conv_ref(*xs, **k)),
    Row("convolution_nd", lambda rng: _conv_gen(rng, 2),
        call="F.convolution_nd(*xs, **kw[\'k\'])",
        ref=lambda *xs, k: conv_ref(*xs, **k)),
    Row("deconvolution_2d", lambda rng: _deconv_gen(rng, 2),
        call="F.deconvolution_2d(*xs, **kw[\'k\'])",
        ref=lambda *xs, k: deconv_ref(*xs, **k), weight=3.0),
    Row("deconvolution_1d", lambda rng: _deconv_gen(rng, 1),
        call="F.deconvolution_1d(*xs, **kw[\'k\'])",
        ref=lambda *xs, k: deconv_ref(*xs, **k)),
    Row("deconvolution_nd", lambda rng: _deconv_gen(rng, 2),
        call="F.deconvolution_nd(*xs, **kw[\'k\'])",
        ref=lambda *xs, k: deconv_ref(*xs, **k)),
    Row("depthwise_convolution_2d", lambda rng: (lambda n, c, m, h: ([In((n, c, h, h + 1)), In((m, c, 2, 2)), In((m * c,))],
                                                                     {"stride": pick(rng, [1, 2]), "pad": pick(rng, [0, 1])}))(
        int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(2, 4))),
        ref=lambda x, W, b, stride, pad: _depthwise(x, W, b, stride, pad)),
    Row("im2col", lambda rng: ([In((int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(2, 5)),
                                    int(rng.integers(2, 5))))],
                               {"ksize": pick(rng, [1, 2, (2, 1)]), "stride": pick(rng, [1, 2]), "pad": pick(rng, [0, 1])}),
        call="F.im2col(x0, **kw)", fd="kumo"),
    Row("max_pooling_2d", lambda rng: _pool_gen(rng, 2, "distinct", True), call="F.max_pooling_2d(x0, **kw)",
        ref=lambda x, **k: pool_ref(x, kind="max", **k), weight=2.0),
    Row("max_pooling_1d", lambda rng: _pool_gen(rng, 1, "distinct", True), call="F.max_pooling_1d(x0, **kw)",
        ref=lambda x, **k: pool_ref(x, kind="max", **k)),
    Row("max_pooling_3d", lambda rng: _pool_gen(rng, 3, "distinct", True, small=True), call="F.max_pooling_3d(x0, **kw)",
        ref=lambda x, **k: pool_ref(x, kind="max", **k)),
    Row("max_pooling_2d/indices", lambda rng: _pool_gen(rng, 2, "distinct", True),
        call="F.max_pooling_2d(x0, return_indices=True, **kw)",
        ref=lambda x, **k: pool_ref(x, kind="max", **k), outputs=[0]),
    Row("average_pooling_2d", lambda rng: _pool_gen(rng, 2, "real", False), call="F.average_pooling_2d(x0, **kw)",
        ref=lambda x, **k: pool_ref(x, kind="avg", cover_all=False, **k), weight=2.0),
    Row("average_pooling_1d", lambda rng: _pool_gen(rng, 1, "real", False), call="F.average_pooling_1d(x0, **kw)",
        ref=lambda x, **k: pool_ref(x, kind="avg", cover_all=False, **k)),
    Row("average_pooling_nd/pad_value_none", lambda rng: _pool_gen(rng, 2, "real", False),
        call="F.average_pooling_nd(x0, pad_value=None, **kw)",
        ref=lambda x, **k: pool_ref(x, kind="avg", cover_all=False, pad_value=None, **k)),
    Row("global_average_pooling_2d", lambda rng: ([In((int(rng.integers(1, 3)), int(rng.integers(1, 3)),
                                                       int(rng.integers(1, 4)), int(rng.integers(1, 4))))], {}),
        ref=lambda x: x.mean(axis=(2, 3))),          # kumo's design: (N, C), not Chainer-less keepdims
    Row("unpooling_2d", lambda rng: ([In((1, int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(1, 3))))],
                                     {"ksize": pick(rng, [2, 3]), "cover_all": pick(rng, [True, False])}),
        call="F.unpooling_2d(x0, **kw)", fd="kumo"),
    Row("upsampling_2d", lambda rng: ([In((1, 2, 2, 2)), In((1, 2, 4, 4), "distinct", grad=False)], {}),
        call="F.upsampling_2d(x0, F.max_pooling_2d(x1, 2, return_indices=True)[1], ksize=2, outsize=(4, 4))",
        fd="kumo"),
    # -- normalization
    Row("batch_normalization", lambda rng: (lambda s: ([In(s), In((s[1],), "pos"), In((s[1],))], {}))(
        (int(rng.integers(2, 4)), int(rng.integers(1, 4))) + S(rng, 0, 2, 3, False)),
        ref=bn_ref, tol=10.0, f16tol=10.0),
    Row("fixed_batch_normalization", lambda rng: (lambda s: ([In(s), In((s[1],), "pos"), In((s[1],)), In((s[1],)),
                                                              In((s[1],), "pos")], {}))(
        (int(rng.integers(1, 4)), int(rng.integers(1, 4))) + S(rng, 0, 2, 3, False)), ref=fixed_bn_ref, tol=3.0),
    Row("layer_normalization", lambda rng: (lambda s: ([In(s), In((s[1],), "pos"), In((s[1],))], {}))(
        (int(rng.integers(1, 4)), int(rng.integers(2, 5)))), ref=ln_ref, tol=10.0, f16tol=10.0),
    Row("group_normalization", lambda rng: (lambda g, s: ([In(s), In((s[1],), "pos"), In((s[1],))], {"groups": g}))(
        g := pick(rng, [1, 2]), (int(rng.integers(1, 3)), 2 * g) + S(rng, 1, 2, 3, False)),
        call="F.group_normalization(x0, kw['groups'], x1, x2)", ref=lambda x, g, b, groups: gn_ref(x, groups, g, b),
        tol=10.0, f16tol=10.0),
    Row("local_response_normalization", lambda rng: ([In((int(rng.integers(1, 3)), int(rng.integers(1, 7)),
                                                          int(rng.integers(1, 3))))],
                                                     {"n": pick(rng, [3, 5]), "k": 1.0, "alpha": 0.5, "beta": 0.75}),
        ref=lrn_ref, tol=3.0),
    Row("normalize", lambda rng: ([In((int(rng.integers(1, 4)), int(rng.integers(1, 4))), "away0")],
                                  {"axis": pick(rng, [1, 0])}),
        ref=lambda x, axis: x / (np.sqrt((x * x).sum(axis=axis, keepdims=True)) + 1e-5)),
    # -- losses
    Row("mean_squared_error", binary(broadcast=False), ref=lambda a, b: np.asarray(((a - b) ** 2).mean()),
        known=()),
    Row("mean_absolute_error", lambda rng: ([In(values=(v := separated(rng, S(rng, 1, 3, 4, False)))[0]),
                                             In(values=v[1])], {}), ref=lambda a, b: np.asarray(np.abs(a - b).mean())),
    Row("squared_error", binary(broadcast=False), ref=lambda a, b: (a - b) ** 2),
    Row("absolute_error", lambda rng: ([In(values=(v := separated(rng, S(rng)))[0]), In(values=v[1])], {}),
        ref=lambda a, b: np.abs(a - b)),
    Row("softmax_cross_entropy", lambda rng: (lambda n, c: ([In((n, c)), In(values=np.where(
        rng.random(n) < 0.2, -1, labels(rng, (n,), c)).astype(np.int32), grad=False)],
                                                            _kw(normalize=[True, False], reduce=["mean", "no"])(rng)))(
        int(rng.integers(1, 4)), int(rng.integers(1, 4))),
        ref=sce_ref, atol=1.0),      # logsumexp - x[t] cancels in float16
    Row("sigmoid_cross_entropy", lambda rng: ([In(s := (int(rng.integers(1, 4)), int(rng.integers(1, 3)))),
                                               In(values=rng.integers(-1, 2, s).astype(np.int32), grad=False)],
                                              _kw(normalize=[True, False], reduce=["mean", "no"])(rng)),
        ref=sigmoid_ce_ref),
    Row("huber_loss", lambda rng: ([In(values=(v := separated(rng, (int(rng.integers(1, 4)), 3), 0.1))[0]),
                                    In(values=v[0] + rng.choice([-1, 1], v[0].shape) * pick(
                                        rng, [rng.uniform(0.1, 0.8, v[0].shape), rng.uniform(1.2, 2, v[0].shape)]))],
                                   {"delta": 1.0, "reduce": pick(rng, ["sum_along_second_axis", "no"])}),
        ref=lambda x, t, delta, reduce: (lambda d: (lambda l: l.sum(axis=1) if reduce != "no" else l)(
            np.where(np.abs(d) <= delta, 0.5 * d * d, delta * (np.abs(d) - 0.5 * delta))))(x - t)),
    Row("hinge", lambda rng: (lambda n, c, v: ([In(values=v[0]), In(values=v[1], grad=False)],
                                            {"norm": pick(rng, ["L1", "L2"]), "reduce": pick(rng, ["mean", "no"])}))(
        n := int(rng.integers(1, 4)), c := int(rng.integers(2, 4)), _hinge_x(rng, n, c)),
        ref=lambda x, t, norm, reduce: _hinge(x, t, norm, reduce)),
    Row("contrastive", lambda rng: (lambda n, d: ([In((n, d)), In((n, d)), In(values=rng.integers(0, 2, n).astype(np.int32),
                                                                               grad=False)],
                                                  {"margin": pick(rng, [1.0, 4.0]), "reduce": pick(rng, ["mean", "no"])}))(
        int(rng.integers(1, 4)), int(rng.integers(1, 3))), ref=lambda a, b, y, margin, reduce: _contrastive(
            a, b, y, margin, reduce), eps=1e-3, atol=3.0),
    Row("triplet", lambda rng: (lambda n, d: ([In((n, d)), In((n, d)), In((n, d))],
                                              {"margin": pick(rng, [0.2, 10.0]), "reduce": pick(rng, ["mean", "no"])}))(
        int(rng.integers(1, 4)), int(rng.integers(1, 3))),
        ref=lambda a, p, n, margin, reduce: red(np.maximum(((a - p) ** 2).sum(1) - ((a - n) ** 2).sum(1) + margin, 0),
                                                reduce), eps=1e-3, atol=3.0),     # a difference of squared distances
    Row("gaussian_kl_divergence", lambda rng: ([In(s := S(rng)), In(s, "small")],
                                               {"reduce": pick(rng, ["sum", "no"])}),
        ref=lambda m, v, reduce: red((m * m + np.exp(v) - v - 1) * 0.5, reduce), atol=1.0),   # exp(v) - v - 1 cancels
    Row("bernoulli_nll", lambda rng: ([In(values=rng.integers(0, 2, s := S(rng)).astype(float), grad=False),
                                       In(s)], {"reduce": pick(rng, ["sum", "no"])}),
        call="F.bernoulli_nll(x0, x1, **kw)",
        ref=lambda x, y, reduce: red(np.logaddexp(0, y) - x * y, reduce), atol=1.0),
    Row("gaussian_nll", lambda rng: ([In(s := S(rng)), In(s), In(s, "small")], {"reduce": pick(rng, ["sum", "no"])}),
        ref=lambda x, m, v, reduce: red(0.5 * (np.log(2 * np.pi) + v) + 0.5 * (x - m) ** 2 * np.exp(-v), reduce),
        atol=1.0),
    Row("cross_covariance", lambda rng: (lambda n: ([In((n, int(rng.integers(1, 3)))), In((n, int(rng.integers(1, 3))))],
                                                    {"reduce": pick(rng, ["half_squared_sum", "no"])}))(
        int(rng.integers(1, 4))), ref=lambda y, z, reduce: _xcov(y, z, reduce), atol=1.0),
    Row("decov", lambda rng: ([In((int(rng.integers(1, 4)), int(rng.integers(1, 4))))],
                              {"reduce": pick(rng, ["half_squared_sum", "no"])}), ref=lambda h, reduce: _decov(h, reduce),
        atol=1.0),
    Row("accuracy", lambda rng: (lambda n, c: ([In((n, c), "distinct"), In(values=labels(rng, (n,), c), grad=False)], {}))(
        int(rng.integers(1, 5)), int(rng.integers(1, 4))), backward=False,
        ref=lambda y, t: np.asarray((y.argmax(axis=1) == t).mean())),
    Row("binary_accuracy", lambda rng: ([In(s := (int(rng.integers(1, 5)),), "away0"),
                                         In(values=rng.integers(0, 2, s).astype(np.int32), grad=False)], {}),
        backward=False, ref=lambda y, t: np.asarray(((y >= 0) == t).mean())),
    # -- noise with fixed outcomes
    Row("dropout/ratio0", unary("real"), call="F.dropout(x0, 0.0)", ref=lambda x: x.copy()),
    Row("dropout/mask", lambda rng: ([In(s := S(rng)), In(values=(rng.random(s) < 0.5) * 2.0, grad=False)], {}),
        call="F.dropout(x0, 0.5, mask=x1)", ref=lambda x, m: x * m),
    Row("gaussian/eps", lambda rng: ([In(s := S(rng)), In(s, "small"), In(s, "small", grad=False)], {}),
        call="F.gaussian(x0, x1, eps=x2)", ref=lambda m, v, e: m + np.exp(0.5 * v) * e, atol=1.0),
    # -- recurrent cells
    Row("lstm", lambda rng: (lambda b, h: ([In((b, h)), In((b, 4 * h))], {}))(int(rng.integers(1, 3)),
                                                                            int(rng.integers(1, 3))),
        ref=lstm_ref),
    Row("slstm", lambda rng: (lambda b, h: ([In((b, h)), In((b, h)), In((b, 4 * h)), In((b, 4 * h))], {}))(
        int(rng.integers(1, 3)), int(rng.integers(1, 3))), fd="kumo"),
    Row("n_step_rnn", lambda rng: _nstep_gen(rng, 1), fd="kumo", call=_nstep_call("n_step_rnn", 1)),
    Row("n_step_rnn/relu", lambda rng: _nstep_gen(rng, 1), fd="kumo",
        call=_nstep_call("n_step_rnn", 1, extra=", activation='relu'")),
    Row("n_step_lstm", lambda rng: _nstep_gen(rng, 4, cx=True), fd="kumo", call=_nstep_call("n_step_lstm", 4, True)),
    Row("n_step_gru", lambda rng: _nstep_gen(rng, 3), fd="kumo", call=_nstep_call("n_step_gru", 3)),
    Row("n_step_birnn", lambda rng: _nstep_gen(rng, 1, dirs=2), fd="kumo", call=_nstep_call("n_step_birnn", 1, dirs=2)),
    Row("n_step_bilstm", lambda rng: _nstep_gen(rng, 4, cx=True, dirs=2), fd="kumo",
        call=_nstep_call("n_step_bilstm", 4, True, dirs=2)),
    Row("n_step_bigru", lambda rng: _nstep_gen(rng, 3, dirs=2), fd="kumo", call=_nstep_call("n_step_bigru", 3, dirs=2)),
    Row("gru", lambda rng: (lambda b, h, i: ([In((b, h), "small"), In((b, i))] + [In((h, i), "small")] * 3
                                             + [In((h, h), "small")] * 3 + [In((h,), "small")] * 6, {}))(
        int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(1, 3))),
        call="F.gru(x0, x1, xs[2:8], xs[8:14])", fd="kumo"),
    Row("gumbel_softmax/seeded", lambda rng: ([In((int(rng.integers(1, 3)), int(rng.integers(1, 4))))],
                                              {"tau": pick(rng, [0.5, 1.0, 2.0])}),
        call="(kumo._core.autograd.functions._seed_noise(7), F.gumbel_softmax(x0, **kw))[1]", fd="kumo",
        dtypes=["float64"]),     # the noise drawn depends on the dtype: differences in float64 need float64 calls
    Row("r2_score", lambda rng: ([In(s := (int(rng.integers(2, 5)), int(rng.integers(1, 3)))), In(s)], {}),
        backward=False, ref=lambda p, t: _r2(p, t), tol=10.0),
    Row("average_pooling_3d", lambda rng: _pool_gen(rng, 3, "real", False, small=True),
        call="F.average_pooling_3d(x0, **kw)", ref=lambda x, **k: pool_ref(x, kind="avg", cover_all=False, **k)),
    Row("max_pooling_nd", lambda rng: _pool_gen(rng, 2, "distinct", True), call="F.max_pooling_nd(x0, **kw)",
        ref=lambda x, **k: pool_ref(x, kind="max", **k)),
    Row("deconvolution_3d", lambda rng: _deconv_gen(rng, 3, small=True), call="F.deconvolution_3d(*xs, **kw['k'])",
        ref=lambda *xs, k: deconv_ref(*xs, **k)),
    Row("unpooling_nd", lambda rng: ([In((1, int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(1, 3))))],
                                     {"ksize": pick(rng, [2, 3]), "cover_all": pick(rng, [True, False])}),
        call="F.unpooling_nd(x0, **kw)", fd="kumo"),
]


def _r2(p, t):
    """1 - SS_res / SS_tot per column, 0 where SS_tot is 0 (kumo's documented rule, autograd/functions/evaluation.h)."""
    tot = ((t - t.mean(0)) ** 2).sum(0)
    return np.asarray(np.where(tot == 0, 0.0, 1 - ((t - p) ** 2).sum(0) / np.where(tot == 0, 1, tot)).mean())


def _scatter(a, idx, b):
    out = a.copy()
    np.add.at(out, idx, b)
    return out


def _d2s(X, r):
    n, c, h, w = X.shape
    return X.reshape(n, r, r, c // r ** 2, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // r ** 2, h * r, w * r)


def _s2d(X, r):
    n, c, h, w = X.shape
    return X.reshape(n, c, h // r, r, w // r, r).transpose(0, 3, 5, 1, 2, 4).reshape(n, c * r * r, h // r, w // r)


def _pad_seq(xs, length, padding):
    L = length if length is not None else max(len(x) for x in xs)
    out = np.full((len(xs), L) + xs[0].shape[1:], float(padding))
    for i, x in enumerate(xs):
        out[i, :len(x)] = x
    return out


def _depthwise(x, W, b, stride, pad):
    m, c = W.shape[:2]
    ys = []
    for ci in range(c):
        ys.append(conv_ref(x[:, ci:ci + 1], W[:, ci:ci + 1], None, stride, pad))
    y = np.stack(ys, axis=1)        # (n, c, m, h, w)
    y = y.reshape(y.shape[0], c * m, *y.shape[3:])
    return y + b.reshape(1, -1, 1, 1)


def _hinge_x(rng, n, c):
    r = np.random.default_rng(int(rng.integers(1 << 30)))
    t = r.integers(0, c, n).astype(np.int32)
    x = r.uniform(-2, 2, (n, c))
    sign = np.where(np.arange(c)[None, :] == t[:, None], 1.0, -1.0)
    margin = 1 - sign * x
    x = np.where(np.abs(margin) < 0.15, x + sign * 0.3, x)     # away from the kink
    return x, t


def _hinge(x, t, norm, reduce):
    sign = np.where(np.arange(x.shape[1])[None, :] == t[:, None], 1.0, -1.0)
    b = np.maximum(0, 1 - sign * x)
    b = b if norm == "L1" else b * b
    return b if reduce == "no" else np.asarray(b.sum() / len(x))


def _contrastive(a, b, y, margin, reduce):
    d = np.sqrt(((a - b) ** 2).sum(axis=1))
    loss = y * d * d + (1 - y) * np.maximum(margin - d, 0) ** 2
    return red(loss * 0.5, reduce) if reduce == "no" else np.asarray(loss.sum() / 2 / len(a))


def _xcov(y, z, reduce):
    yc, zc = y - y.mean(0), z - z.mean(0)
    c = yc.T @ zc / len(y)
    return c if reduce == "no" else np.asarray(0.5 * (c * c).sum())


def _decov(h, reduce):
    hc = h - h.mean(0)
    c = hc.T @ hc / len(h)
    c = c - np.diag(np.diag(c))
    return c if reduce == "no" else np.asarray(0.5 * (c * c).sum())


def _away(rng, shape, kinks, gap=0.1):
    """Values in [-2, 2] at least `gap` from every kink."""
    v = rng.uniform(-2, 2, shape)
    for k in kinks:
        near = numpy_abs(v - k) < gap
        v = np.where(near, k + np.sign(v - k + 1e-9) * gap * 1.5, v)
    return v


numpy_abs = np.abs


def _conv_gen(rng, nd, small=False):
    n = int(rng.integers(1, 3))
    g = pick(rng, [1, 1, 2])
    c = g * int(rng.integers(1, 3))
    o = g * int(rng.integers(1, 3))
    k = tuple(int(rng.integers(1, 3 if small else 4)) for _ in range(nd))
    stride = pick(rng, [1, 2, tuple(int(rng.integers(1, 3)) for _ in range(nd))])
    pad = pick(rng, [0, 1, tuple(int(rng.integers(0, 2)) for _ in range(nd))])
    dilate = pick(rng, [1, 1, 2])
    cover_all = bool(rng.random() < 0.2)
    sp_ = tuple(int(rng.integers(max(1, (dilate * (kk - 1) + 1) - 2 * tup(pad, nd)[i]), (4 if small else 6)))
                for i, kk in enumerate(k))
    ins = [In((n, c) + sp_), In((o, c // g) + k)]
    if rng.random() < 0.7:
        ins.append(In((o,)))
    kw = {"stride": stride, "pad": pad, "cover_all": cover_all, "dilate": dilate, "groups": g}
    return ins, {"k": kw}


def _deconv_gen(rng, nd, small=False):
    n = int(rng.integers(1, 3))
    g = pick(rng, [1, 1, 2])
    c = g * int(rng.integers(1, 3))
    og = int(rng.integers(1, 3))
    k = tuple(int(rng.integers(1, 3 if small else 4)) for _ in range(nd))
    stride = pick(rng, [1, 2, tuple(int(rng.integers(1, 3)) for _ in range(nd))])
    dilate = pick(rng, [1, 1, 2])
    sp_ = tuple(int(rng.integers(1, 3 if small else 4)) for _ in range(nd))
    full = [tup(stride, nd)[i] * (sp_[i] - 1) + dilate * (k[i] - 1) + 1 for i in range(nd)]
    pad = pick(rng, [0, 1]) if min(full) > 2 else 0
    ins = [In((n, c) + sp_), In((c, og) + k)]
    if rng.random() < 0.7:
        ins.append(In((og * g,)))
    kw = {"stride": stride, "pad": pad, "dilate": dilate, "groups": g}
    return ins, {"k": kw}


def _pool_gen(rng, nd, domain, cover, small=False):
    k = pick(rng, [1, 2, 3] if not small else [1, 2])
    stride = pick(rng, [None, 1, 2])
    pad = pick(rng, [0] + ([1] if k >= 2 else []))
    sp_ = tuple(int(rng.integers(max(1, k - 2 * pad), 4 if small else 6)) for _ in range(nd))
    kw = {"ksize": k, "stride": stride, "pad": pad}
    if cover:
        kw["cover_all"] = bool(rng.random() < 0.5)
    return [In((int(rng.integers(1, 3)), int(rng.integers(1, 3))) + sp_, domain)], kw


def _nstep_gen(rng, n_w, cx=False, dirs=1):
    """n_step_* with one layer: hx (dirs, B, H), [cx], per direction ws
    (n_w input + n_w hidden matrices) and bs (2 n_w vectors), then two
    sequences xs of batch B >= B2 (xs[t] is (B_t, in))."""
    b, h, i = int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(1, 3))
    ins = [In((dirs, b, h), "small")]
    if cx:
        ins.append(In((dirs, b, h), "small"))
    for _ in range(dirs):
        ins += [In((h, i), "small") for _ in range(n_w)] + [In((h, h), "small") for _ in range(n_w)]
    for _ in range(dirs):
        ins += [In((h,), "small") for _ in range(2 * n_w)]
    ins += [In((b, i)), In((int(rng.integers(1, b + 1)), i))]
    return ins, {}


def select(pattern=None):
    if not pattern:
        return ROWS
    pats = [p.strip() for p in pattern.split(",") if p.strip()]
    rows = [r for r in ROWS if any(fnmatch.fnmatchcase(r.name, p) for p in pats)]
    if not rows:
        raise ValueError(f"no row matches {pattern!r}")
    return rows


def covered():
    """The public names of kumo.autograd.functions that some row calls."""
    import re
    names = set()
    for r in ROWS:
        names.add(r.name.split("/")[0])
        if r.call:
            names.update(re.findall(r"F\.(\w+)\(", r.call))
    return names


_ = math

# Known defects that span rows: (description, predicate(info)); see worker.Info.
GLOBAL_KNOWN = []
