"""One autograd call: draw it (`draw`), run and judge it (`run`).

A call is a row of table.py, a dtype, the inputs (values in float64 drawn
from the row's domains, cast to the dtype, laid out by ../layouts.py) and
the keywords. `run` checks, in this order (the first failure is the class):

  forward_raised / forward_type    the call raised / returned no Variable
  forward_shape / forward_dtype    against the NumPy reference (dtype: the
  forward_value                    inputs' dtype unless the row says)
  grad_raised                      kumo.autograd.grad raised
  grad_none / grad_shape /         an input that requires grad got None, or
  grad_dtype                       not its own shape and dtype (Chainer)
  grad_value                       against central differences in float64
                                   of sum(y * gy) (the NumPy reference where
                                   the row has one, else kumo in float64)
  double_raised / double_none      grad of sum(gx * ggx) through
  double_shape / double_dtype      enable_double_backprop, against central
  double_value                     differences of kumo's float64 gradient
                                   (d/dx) and of the forward (d/dgy = J ggx)
  input_mutated                    an input array changed
  layout                           a kumo view did not get NumPy's strides
"""
import math

import numpy

from .. import layouts, repro

FLOATS = ["float16", "float32", "float64"]
# forward rtol, gradient rtol, double-backward rtol per dtype (times row.tol)
TOL = {"float16": (1e-2, 3e-2, None), "float32": (3e-5, 3e-4, 3e-3), "float64": (1e-10, 2e-6, 2e-5)}
FD_EPS = 1e-6          # float64 central differences of the loss
FD2_EPS = 1e-5         # of the first-order gradient
FD_FULL = 160          # per element up to this many perturbed elements, else directions
FD_DIRECTIONS = 3

CLASSES = ["forward_raised", "forward_type", "forward_shape", "forward_dtype", "forward_value", "grad_raised",
           "grad_none", "grad_shape", "grad_dtype", "grad_value", "double_raised", "double_none", "double_shape",
           "double_dtype", "double_value", "input_mutated", "layout"]


class In:
    """One input: `shape` with values from `domain`, or exact `values`;
    `grad`: a Variable that requires grad (else a plain kumo array);
    `dtype`: None for the call's float dtype; `layouts`: allowed layouts."""

    def __init__(self, shape=None, domain="real", grad=True, dtype=None, values=None, layouts=None):
        self.shape = None if shape is None else tuple(shape)
        self.domain, self.grad, self.dtype, self.values, self.layouts = domain, grad, dtype, values, layouts


class Call:
    def __init__(self, row, dtype, ins, kw, specs, gys, ggs, dirs, seed, i):
        self.row, self.dtype, self.ins, self.kw, self.specs = row, dtype, ins, kw, specs
        self.gys, self.ggs, self.dirs, self.seed, self.i = gys, ggs, dirs, seed, i
        self.dout = []


def sample(rng, shape, domain):
    """float64 values of `shape` in `domain` (all smooth points of the
    functions that use them: no kinks, ties or poles)."""
    n = int(numpy.prod(shape, dtype=numpy.int64))
    if domain == "real":
        v = rng.uniform(-2, 2, n)
    elif domain == "small":
        v = rng.uniform(-1, 1, n)
    elif domain == "pos":
        v = rng.uniform(0.5, 2.5, n)
    elif domain == "unit":
        v = rng.uniform(-0.8, 0.8, n)
    elif domain == "open01":
        v = rng.uniform(0.1, 0.9, n)
    elif domain == "away0":
        v = rng.uniform(0.15, 2, n) * rng.choice([-1.0, 1.0], n)
    elif domain == "noint":        # floor, ceil, fmod: away from integers
        v = rng.integers(-3, 3, n) + rng.uniform(0.15, 0.85, n)
    elif domain == "distinct":     # max, min, pooling, sort: no ties
        v = (rng.permutation(n) - n / 2.0) * 0.07 + rng.uniform(0, 0.02, n)
    elif domain == "big":          # exp-heavy functions stay finite
        v = rng.uniform(-6, 6, n)
    else:
        raise ValueError(domain)
    return v.reshape(shape)


def _spec(rng, inp, dtype):
    if inp.values is not None:
        vals = numpy.asarray(inp.values)
        vals = vals.astype(inp.dtype or (dtype if vals.dtype.kind == "f" else vals.dtype))
        return layouts.from_values(rng, vals, layouts=inp.layouts)
    choices = inp.layouts or layouts.LAYOUTS
    if inp.domain == "distinct":
        choices = [x for x in choices if x != "broadcast"]
    lay = choices[int(rng.integers(len(choices)))] if rng.random() < 0.8 else "C"
    base_shape, steps = layouts.plan(rng, inp.shape, lay)
    base = sample(rng, base_shape, inp.domain).astype(inp.dtype or dtype)
    if inp.domain == "distinct" and steps:
        return layouts.from_values(rng, sample(rng, inp.shape, "distinct").astype(inp.dtype or dtype),
                                   layouts=choices)
    return layouts.ArraySpec(base, steps)


def _gspec(rng, shape, dtype):
    """An upstream gradient (or ggx, or a direction): any layout, values in [-1, 1]."""
    return _spec(rng, In(shape, "small"), dtype)


def draw(seed, i, pattern=None):
    from . import table
    rows = table.select(pattern)
    rng = numpy.random.default_rng([seed, i])
    w = numpy.array([r.weight for r in rows])
    row = rows[int(rng.choice(len(rows), p=w / w.sum()))]
    dtype = row.dtypes[int(rng.integers(len(row.dtypes)))]
    ins, kw = row.gen(rng)
    specs = [_spec(rng, x, dtype) for x in ins]
    # upstream gradients: shapes come from the reference or a float64 kumo run
    return Call(row, dtype, ins, kw, specs, None, None, None, seed, i)


# -- running -------------------------------------------------------------------

class Fail(Exception):
    def __init__(self, cls, detail):
        super().__init__(detail)
        self.cls, self.detail = cls, detail


def _short(x, n=200):
    s = f"{type(x).__name__}({str(x)[:150]!r})" if isinstance(x, BaseException) else repr(x)
    s = " ".join(s.split())
    return s if len(s) <= n else s[:n] + "..."


def _env(call, xs):
    import kumo
    import kumo.autograd as A
    env = {"F": A.functions, "A": A, "kumo": kumo, "np": numpy, "kw": call.kw}
    for j, x in enumerate(xs):
        env[f"x{j}"] = x
    env["xs"] = list(xs)
    return env


def expression(row, n):
    return row.call or f"F.{row.name.split('/')[0]}({', '.join(f'x{j}' for j in range(n))}, **kw)"


def _outputs(res):
    import kumo.autograd as A
    items = list(res) if isinstance(res, (tuple, list)) else [res]
    return [v for v in items if isinstance(v, A.Variable)], items


def _forward(call, xs):
    return eval(expression(call.row, len(xs)), _env(call, xs))  # noqa: S307 - the table's own expressions


def _kumo_inputs(call, as_variables=True, values=None, dtype=None):
    """kumo inputs: the specs' views (values None), or contiguous arrays of
    `values` (float64 NumPy arrays) in `dtype`."""
    import kumo
    import kumo.autograd as A
    xs = []
    for j, (inp, spec) in enumerate(zip(call.ins, call.specs)):
        if values is None:
            a = spec.build(kumo)[1]
        else:
            v = values[j]
            a = kumo.asarray(numpy.array(v.astype(dtype) if v.dtype.kind == "f" else v, order="C"))
        xs.append(A.Variable(a) if inp.grad and as_variables else a)
    return xs


def _np64(spec):
    v = spec.numpy()
    return v.astype(numpy.float64) if v.dtype.kind == "f" else v.copy()


def _close(k, n, rtol, what, cls, noise=0.0):
    """|k - n| <= rtol (|n| + max|n|) + noise, NaN where n is NaN."""
    k = numpy.asarray(k, dtype=numpy.float64)
    n = numpy.asarray(n, dtype=numpy.float64)
    if k.shape != n.shape:
        raise Fail(cls.replace("value", "shape"), f"{what}: expected shape {n.shape}, kumo {k.shape}")
    if n.size == 0:
        return
    nn, kn = numpy.isnan(n), numpy.isnan(k)
    if not numpy.array_equal(nn, kn):
        raise Fail(cls, f"{what}: NaN at {_first(nn != kn)}: expected {n[nn != kn][:3]} kumo {k[nn != kn][:3]}")
    fin = numpy.isfinite(n)
    if (~fin & ~nn & (n != k)).any():
        bad = ~fin & ~nn & (n != k)
        raise Fail(cls, f"{what}: inf at {_first(bad)}: expected {n[bad][:3]} kumo {k[bad][:3]}")
    scale = float(numpy.abs(n[fin]).max()) if fin.any() else 0.0
    with numpy.errstate(all="ignore"):
        bad = fin & ~(numpy.abs(k - n) <= rtol * (numpy.abs(n) + scale) + noise)
    if bad.any():
        i = _first(bad)
        raise Fail(cls, f"{what}: at {i} expected {n[i]!r} kumo {k[i]!r} (max |err| "
                        f"{float(numpy.nanmax(numpy.abs(k - n)[fin])):.3g}, bound rtol {rtol:.2g} of {scale:.3g}"
                        f"{'' if not noise else f' + {noise:.2g}'}; {int(bad.sum())} of {bad.size} off)")


def _first(mask):
    idx = numpy.argwhere(mask)
    return tuple(int(x) for x in idx[0]) if idx.size else ()


def _as_list(ref):
    return list(ref) if isinstance(ref, (tuple, list)) else [ref]


def _expected_dtype(call):
    od = call.row.out_dtype
    if od is None or od == "ref":
        return numpy.dtype(call.dtype)
    return numpy.dtype(od(call.dtype) if callable(od) else od)


class Runner:
    """The checks of one call (see the module docstring)."""

    def __init__(self, call):
        import kumo
        import kumo.autograd as A
        self.kumo, self.A, self.call, self.row = kumo, A, call, call.row
        f = call.row.tol * (call.row.f16tol if call.dtype == "float16" else 1.0)
        self.rtol, self.gtol, self.dtol = (None if t is None else t * f for t in TOL[call.dtype])
        self.x64 = [_np64(s) for s in call.specs]
        self.gidx = [j for j, inp in enumerate(call.ins) if inp.grad]

    # float64 forward used by the finite differences: sum_j sum(y_j * gy_j)
    def f64(self, vals):
        row = self.row
        if row.ref is not None and row.fd != "kumo":
            with numpy.errstate(all="ignore"):
                outs = _as_list((row.fdref or row.ref)(*vals, **self.call.kw))
            return [numpy.asarray(outs[j], dtype=numpy.float64) for j in self.dout]
        with self.A.no_backprop_mode():
            vo, _ = _outputs(_forward(self.call, _kumo_inputs(self.call, False, vals, numpy.float64)))
        return [self.kumo.asnumpy(vo[j].array).astype(numpy.float64) for j in self.dout]

    def loss64(self, vals):
        # an output no input reaches (max pooling of a window of padding: -inf) adds nothing
        return float(sum(numpy.sum(numpy.where(numpy.isfinite(y), y, 0) * g) for y, g in zip(self.f64(vals), self.gy64)))

    def grad64(self, vals, ggs=None):
        """kumo's float64 first-order gradients at `vals` (contiguous), gy = gy64."""
        xs = _kumo_inputs(self.call, True, vals, numpy.float64)
        vo, _ = _outputs(_forward(self.call, xs))
        gys = [self.kumo.asarray(g) for g in self.gy64]
        gx = self.A.grad([vo[j] for j in self.dout], [xs[j] for j in self.gidx], gys)
        return [numpy.zeros(self.x64[j].shape) if g is None else self.kumo.asnumpy(g.array).astype(numpy.float64)
                for j, g in zip(self.gidx, gx)]

    def run(self):
        call, row, kumo, A = self.call, self.row, self.kumo, self.A
        for spec in call.specs:
            bad = layouts.check_strides(spec.numpy(), spec.build(kumo)[1])
            if bad:
                raise Fail("layout", bad)
        xs = _kumo_inputs(call)
        try:
            res = _forward(call, xs)
        except Exception as e:  # noqa: BLE001
            raise Fail("forward_raised", _short(e))
        vo, items = _outputs(res)
        # the outputs that are differentiated: floating Variables (row.outputs narrows)
        self.dout = call.dout = [j for j, v in enumerate(vo) if numpy.dtype(v.dtype).kind == "f"
                                 and (row.outputs is None or j in row.outputs)]
        ref = None
        if row.ref is not None:
            with numpy.errstate(all="ignore"):
                ref = _as_list(row.ref(*self.x64, **call.kw))
        if not vo and ref is not None and not ref and not items:
            return self.check_inputs(xs)          # no results, as the reference (separate of an empty axis)
        if not vo:
            raise Fail("forward_type", f"no Variable among the results: {_short(res)}")
        if row.ref is not None:
            if len(ref) != len(vo):
                raise Fail("forward_type", f"{len(vo)} Variables, reference {len(ref)} results")
            want = _expected_dtype(call)
            for j, (v, r) in enumerate(zip(vo, ref)):
                r = numpy.asarray(r)
                if tuple(v.shape) != r.shape:
                    raise Fail("forward_shape", f"output {j}: expected {r.shape}, kumo {tuple(v.shape)}")
                kd = numpy.dtype(v.dtype)
                wd = r.dtype if row.out_dtype == "ref" or r.dtype.kind != "f" else want
                if kd != wd and not (row.out_dtype is None and r.dtype.kind != "f" and kd.kind == r.dtype.kind):
                    raise Fail("forward_dtype", f"output {j}: expected {wd}, kumo {kd}")
                k = kumo.asnumpy(v.array)
                if r.dtype.kind in "iub":
                    if not numpy.array_equal(k, r):
                        raise Fail("forward_value", f"output {j}: expected {r.ravel()[:6]} kumo {k.ravel()[:6]}")
                else:
                    _close(k, r, self.rtol, f"output {j}", "forward_value", row.atol * self.rtol)
        else:
            want = _expected_dtype(call)
            for j in self.dout:
                if numpy.dtype(vo[j].dtype) != want:
                    raise Fail("forward_dtype", f"output {j}: expected {want}, kumo {vo[j].dtype}")
        if not self.gidx or not self.dout or not row.backward:
            return self.check_inputs(xs)
        rng = numpy.random.default_rng([call.seed, call.i, 1])
        gspecs = [_gspec(rng, tuple(vo[j].shape), call.dtype) for j in self.dout]
        gys = [s.build(kumo)[1] for s in gspecs]
        self.gy64 = [_np64(s) for s in gspecs]
        call.gys = gspecs
        try:
            gx = A.grad([vo[j] for j in self.dout], [xs[j] for j in self.gidx], gys)
        except Exception as e:  # noqa: BLE001
            raise Fail("grad_raised", _short(e))
        gxn = self.check_grads(gx, xs, "grad")
        self.check_fd(gxn, rng)
        if row.double and self.dtol is not None:
            self.check_double(rng)
        return self.check_inputs(xs)

    def check_grads(self, gx, xs, kind):
        out = []
        if len(gx) != len(self.gidx):
            raise Fail(f"{kind}_shape", f"{len(gx)} gradients for {len(self.gidx)} inputs")
        for j, g in zip(self.gidx, gx):
            x = xs[j]
            if g is None:
                raise Fail(f"{kind}_none", f"input {j} requires grad, its gradient is None")
            if tuple(g.shape) != tuple(x.shape):
                raise Fail(f"{kind}_shape", f"gradient of input {j}: shape {tuple(g.shape)}, input {tuple(x.shape)}")
            if numpy.dtype(g.dtype) != numpy.dtype(x.dtype):
                raise Fail(f"{kind}_dtype", f"gradient of input {j}: dtype {g.dtype}, input {x.dtype}")
            out.append(self.kumo.asnumpy(g.array).astype(numpy.float64))
        return out

    def _fd_noise(self, vals, eps):
        lmag = sum(float(numpy.abs(y * g).sum()) for y, g in zip(self.f64(vals), self.gy64))
        return 50 * numpy.finfo(numpy.float64).eps * max(lmag, 1e-300) / eps

    def check_fd(self, gxn, rng):
        vals = self.x64
        eps = FD_EPS * self.row.eps
        # float64 rounding in the differences, and a floor for gradients that
        # are ~0 by cancellation (batch normalization of two samples)
        gmax = max([float(numpy.abs(g).max()) for g in self.gy64 if g.size] + [0.0])
        noise = self._fd_noise(vals, eps) + 0.1 * self.gtol * gmax
        total = sum(vals[j].size for j in self.gidx)
        if total <= FD_FULL:
            for j, g in zip(self.gidx, gxn):
                fd = numpy.zeros(vals[j].shape)
                for idx in numpy.ndindex(*vals[j].shape):
                    p = [v.copy() for v in vals]
                    m = [v.copy() for v in vals]
                    p[j][idx] += eps
                    m[j][idx] -= eps
                    fd[idx] = (self.loss64(p) - self.loss64(m)) / (2 * eps)
                _close(g, fd, self.gtol, f"gradient of input {j} (per element)", "grad_value", noise)
            return
        for d in range(FD_DIRECTIONS):
            dirs = {j: rng.uniform(-1, 1, vals[j].shape) for j in self.gidx}
            p = [v + eps * dirs[j] if j in dirs else v for j, v in enumerate(vals)]
            m = [v - eps * dirs[j] if j in dirs else v for j, v in enumerate(vals)]
            fd = (self.loss64(p) - self.loss64(m)) / (2 * eps)
            got = sum(float(numpy.sum(g * dirs[j])) for j, g in zip(self.gidx, gxn))
            mag = sum(float(numpy.abs(g * dirs[j]).sum()) for j, g in zip(self.gidx, gxn))
            if not abs(got - fd) <= self.gtol * (abs(fd) + mag) + noise:
                raise Fail("grad_value", f"directional derivative {d} over {total} elements: finite differences "
                                         f"{fd!r}, kumo {got!r} (bound rtol {self.gtol:.2g} of {mag:.3g})")

    def check_double(self, rng):
        call, kumo, A = self.call, self.kumo, self.A
        xs = _kumo_inputs(call)
        vo, _ = _outputs(_forward(call, xs))
        gyv = [A.Variable(s.build(kumo)[1]) for s in call.gys]
        gvars = [xs[j] for j in self.gidx]
        try:
            gx = A.grad([vo[j] for j in self.dout], gvars, gyv, enable_double_backprop=True)
        except Exception as e:  # noqa: BLE001
            raise Fail("double_raised", "first-order grad with enable_double_backprop: " + _short(e))
        self.check_grads(gx, xs, "grad")
        ggspecs = [_gspec(rng, tuple(xs[j].shape), call.dtype) for j in self.gidx]
        call.ggs = ggspecs
        gg = [s.build(kumo)[1] for s in ggspecs]
        gg64 = [_np64(s) for s in ggspecs]
        F = A.functions
        try:
            terms = [F.sum(g * c) for g, c in zip(gx, gg) if g.size]
            if not terms:
                return
            loss = terms[0]
            for t in terms[1:]:
                loss = loss + t
            if not loss.requires_grad:
                return              # no gradient depends on x or gy through the graph (should not happen)
            g2 = A.grad([loss], gvars + gyv)
        except Exception as e:  # noqa: BLE001
            raise Fail("double_raised", _short(e))
        # d/dgy_j: the forward's directional derivative along ggx (J ggx)
        vals = self.x64
        h = FD2_EPS * self.row.eps
        p = [v.copy() for v in vals]
        m = [v.copy() for v in vals]
        for j, c in zip(self.gidx, gg64):
            p[j] = p[j] + h * c
            m[j] = m[j] - h * c
        fp, fm = self.f64(p), self.f64(m)
        for k, (j, g) in enumerate(zip(self.dout, g2[len(gvars):])):
            both = numpy.isfinite(fp[k]) & numpy.isfinite(fm[k])     # -inf outputs no input reaches: 0
            jvp = numpy.where(both, fp[k] - fm[k], 0) / (2 * h)
            fin = numpy.where(both, fp[k], 0)
            noise = (50 * 2.2e-16 * (numpy.abs(fin).max() if fin.size else 0) / h
                     + 0.01 * self.dtol * max([float(numpy.abs(c).max()) for c in gg64 if c.size] + [0.0]))
            if g is None:
                if fp[k].size and numpy.abs(jvp).max() > self.dtol * 10 + noise:
                    raise Fail("double_none", f"gradient of gy{k} is None, J ggx = {jvp.ravel()[:4]}")
                continue
            self._double_meta(g, gyv[k], f"gy{k}")
            _close(kumo.asnumpy(g.array), jvp, self.dtol, f"double backward: gradient of gy{k} (J ggx)",
                   "double_value", noise)
        # d/dx: directional derivative of sum(gx(x) * ggx) at fixed gy, kumo float64
        dirs = {j: rng.uniform(-1, 1, vals[j].shape) for j in self.gidx}
        p = [v + h * dirs[j] if j in dirs else v for j, v in enumerate(vals)]
        m = [v - h * dirs[j] if j in dirs else v for j, v in enumerate(vals)]
        lp = sum(float(numpy.sum(g * c)) for g, c in zip(self.grad64(p), gg64))
        lm = sum(float(numpy.sum(g * c)) for g, c in zip(self.grad64(m), gg64))
        fd = (lp - lm) / (2 * h)
        got, mag = 0.0, 0.0
        for j, g in zip(self.gidx, g2[:len(gvars)]):
            if g is None:
                continue        # no second derivative through x (a linear function): zero
            self._double_meta(g, xs[j], f"x{j}")
            gn = kumo.asnumpy(g.array).astype(numpy.float64)
            got += float(numpy.sum(gn * dirs[j]))
            mag += float(numpy.abs(gn * dirs[j]).sum())
        lmag = sum(float(numpy.abs(g * c).sum()) for g, c in zip(self.grad64(vals), gg64))
        scale = (max([float(numpy.abs(c).max()) for c in gg64 if c.size] + [0.0])
                 * max([float(numpy.abs(g).max()) for g in self.gy64 if g.size] + [0.0]))
        noise = 50 * 2.2e-16 * lmag / h + 1e-3 * self.dtol * scale
        if not abs(got - fd) <= self.dtol * (abs(fd) + mag + 1e-3 * lmag) + noise:
            raise Fail("double_value", f"double backward: d/dx of sum(gx * ggx) along a direction: finite differences "
                                       f"{fd!r}, kumo {got!r} (bound rtol {self.dtol:.2g} of {mag:.3g})")

    def _double_meta(self, g, x, name):
        if tuple(g.shape) != tuple(x.shape):
            raise Fail("double_shape", f"second-order gradient of {name}: shape {tuple(g.shape)}, {tuple(x.shape)}")
        if numpy.dtype(g.dtype) != numpy.dtype(x.dtype):
            raise Fail("double_dtype", f"second-order gradient of {name}: dtype {g.dtype}, {x.dtype}")

    def check_inputs(self, xs):
        for j, (x, spec) in enumerate(zip(xs, self.call.specs)):
            a = x.array if isinstance(x, self.A.Variable) else x
            k, n = self.kumo.asnumpy(a), spec.numpy()
            if not numpy.array_equal(k, n, equal_nan=True):
                raise Fail("input_mutated", f"input {j} changed by the call")
        return "match", ""


def run(call):
    try:
        return Runner(call).run()
    except Fail as f:
        return f.cls, f.detail


# -- reproducers -----------------------------------------------------------------

def _kw_source(x):
    if isinstance(x, numpy.ndarray):
        return repro.literal(x)
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k!r}: {_kw_source(v)}" for k, v in x.items()) + "}"
    if isinstance(x, tuple):
        return "(" + ", ".join(_kw_source(e) for e in x) + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, list):
        return "[" + ", ".join(_kw_source(e) for e in x) + "]"
    if isinstance(x, float):
        return repro.scalar(x)
    if isinstance(x, slice):
        return f"slice({x.start!r}, {x.stop!r}, {x.step!r})"
    return repr(x)


def _view_source(spec, name):
    return spec._source("np", name).replace("np.broadcast_to(", "kumo.broadcast_to(")


def call_source(call):
    """One line of Python: the inputs in their layouts, the call, the
    gradient with the same upstream gradients; prints both."""
    parts = ["import numpy as np, kumo, kumo.autograd as A", "F = A.functions", f"kw = {_kw_source(call.kw)}"]
    for j, (inp, spec) in enumerate(zip(call.ins, call.specs)):
        parts.append(f"b{j} = kumo.asarray({repro.literal(spec.base)})")
        v = _view_source(spec, f"b{j}")
        parts.append(f"x{j} = A.Variable({v})" if inp.grad else f"x{j} = {v}")
    parts.append(f"xs = [{', '.join(f'x{j}' for j in range(len(call.specs)))}]")
    parts.append(f"y = {expression(call.row, len(call.specs))}")
    parts.append("ys = [v for v in (y if isinstance(y, (tuple, list)) else [y]) if isinstance(v, A.Variable)]")
    parts.append("print(ys)")
    if call.gys:
        for k, spec in enumerate(call.gys):
            parts.append(f"c{k} = kumo.asarray({repro.literal(spec.base)}); gy{k} = {_view_source(spec, f'c{k}')}")
        outs = ", ".join(f"ys[{j}]" for j in call.dout)
        xs = ", ".join(f"x{j}" for j, inp in enumerate(call.ins) if inp.grad)
        gy = ", ".join(f"gy{k}" for k in range(len(call.gys)))
        parts.append(f"print(A.grad([{outs}], [{xs}], [{gy}]))")
    return "; ".join(parts)


def describe_exception(e):
    return _short(e)


def finite(x):
    return isinstance(x, float) and math.isfinite(x)
