"""kumo.fuse and kumo.memoize with CuPy's interfaces.

fuse traces the function once per argument signature with proxy objects; the
ufunc calls, operators, where, astype and one final reduction it sees become
one ElementwiseKernel (or one ReductionKernel whose map is the fused
expression), built from the ufunc table's own loop snippets so results match
the unfused calls. Anything it cannot fuse runs the function unfused.
"""
import functools
import threading

import numpy

from kumo import _core
from kumo import _ufuncs
from kumo._creation import empty
from kumo._device import get_device
from kumo._kernel import ElementwiseKernel, ReductionKernel
from kumo._namespace import package
from kumo._ufunc_table import ROWS

ndarray = _core.ndarray

__all__ = ["fuse", "memoize", "clear_memo"]

# ---------------------------------------------------------------- memoize
_memos = []


def memoize(for_each_device=False):
    """Caches a function's result per positional/keyword arguments (and per
    current device with for_each_device=True)."""

    def decorator(f):
        memo = {}
        _memos.append(memo)

        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items())))
            if for_each_device:
                key = (str(get_device()),) + key
            try:
                return memo[key]
            except KeyError:
                pass
            r = memo[key] = f(*args, **kwargs)
            return r

        return wrapper

    return decorator


def clear_memo():
    """Clears every memoize cache."""
    for m in _memos:
        m.clear()


# ---------------------------------------------------------------- fuse
class _Unfusable(Exception):
    pass


_PY_SCALARS = (bool, int, float, complex)
_DEFAULT = {bool: numpy.dtype(bool), int: numpy.dtype(numpy.int64), float: numpy.dtype(numpy.float64),
            complex: numpy.dtype(numpy.complex128)}


def _ctype(dt):
    return {"float32": "float", "float64": "double", "bool": "bool"}.get(dt.name, dt.name if dt.kind in "cf"
                                                                            else dt.name + "_t")


class _Var:
    """A traced value: an array parameter, a scalar parameter or a temporary."""
    __array_priority__ = 1000

    def __init__(self, tracer, code, dtype, weak=None):
        self._t = tracer
        self._code = code
        self.dtype = numpy.dtype(dtype)
        self._weak = weak  # a Python scalar value (weak typing), or None
        self._param = None  # the input parameter this value is stored back to when updated in place

    @property
    def ndim(self):
        raise _Unfusable("ndim")

    def __bool__(self):
        raise _Unfusable("data-dependent control flow")

    def __len__(self):
        raise _Unfusable("len")

    def __iter__(self):
        raise _Unfusable("iteration")

    def __getitem__(self, k):
        raise _Unfusable("indexing")

    def __array__(self, *a, **k):
        raise _Unfusable("conversion")

    def astype(self, dtype, copy=True):
        return self._t.cast(self, numpy.dtype(dtype))


def _op(name, reverse=False, inplace=False):
    def f(self, other):
        if reverse:
            return self._t.ufunc(name, (other, self))
        r = self._t.ufunc(name, (self, other))
        if inplace:
            return self._t.assign(self, r)
        return r
    return f


for _py, _uf in [("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "divide"),
                 ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"), ("and", "bitwise_and"),
                 ("or", "bitwise_or"), ("xor", "bitwise_xor"), ("lshift", "left_shift"),
                 ("rshift", "right_shift")]:
    setattr(_Var, "__%s__" % _py, _op(_uf))
    setattr(_Var, "__r%s__" % _py, _op(_uf, reverse=True))
    setattr(_Var, "__i%s__" % _py, _op(_uf, inplace=True))
for _py, _uf in [("eq", "equal"), ("ne", "not_equal"), ("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                 ("ge", "greater_equal")]:
    setattr(_Var, "__%s__" % _py, _op(_uf))
_Var.__neg__ = lambda self: self._t.ufunc("negative", (self,))
_Var.__pos__ = lambda self: self._t.ufunc("positive", (self,))
_Var.__abs__ = lambda self: self._t.ufunc("absolute", (self,))
_Var.__invert__ = lambda self: self._t.ufunc("invert", (self,))
_Var.__hash__ = object.__hash__


class _Tracer:
    def __init__(self):
        self.params = []  # (name, dtype)
        self.values = []  # per param: the Python value passed for it (scalars) or None (arrays)
        self.lines = []
        self.n = 0
        self.reduction = None
        self.updated = []  # (var, param name) of in-place updated inputs

    def temp(self):
        self.n += 1
        return "_v%d" % self.n

    def param(self, dtype, value=None):
        name = "_a%d" % len(self.params)
        self.params.append((name, numpy.dtype(dtype)))
        self.values.append(value)
        return name

    def operand(self, x):
        if isinstance(x, _Var):
            if x._t is not self:
                raise _Unfusable("foreign proxy")
            if self.reduction is not None:
                raise _Unfusable("use after a reduction")
            return x
        if type(x) in _PY_SCALARS:
            return _Var(self, self.param(_DEFAULT[type(x)], x), _DEFAULT[type(x)], weak=x)
        if isinstance(x, numpy.generic) and x.dtype.kind in "biufc":
            return _Var(self, self.param(x.dtype, x.item()), x.dtype)
        raise _Unfusable("argument of type %s" % type(x).__name__)

    def ufunc(self, name, args, uf=None):
        uf = uf if uf is not None else self.orig[name]
        ops = [self.operand(a) for a in args]
        if all(o._weak is not None for o in ops):
            raise _Unfusable("only Python scalars")
        try:
            k, types = uf._resolve(*[o._weak if o._weak is not None else o.dtype for o in ops])
        except Exception:
            raise _Unfusable("resolution")
        snippet = uf._loop_operation(k)
        if snippet.startswith(_core._UFUNC_ERROR_MARKER):
            raise _Unfusable("error loop")
        types = [numpy.dtype(t) for t in types]
        for o, t in zip(ops, types):
            # A weak int out of the loop type's range raises OverflowError unfused.
            if type(o._weak) is int and t.kind in "iu" and not (
                    numpy.iinfo(t).min <= o._weak <= numpy.iinfo(t).max):
                raise _Unfusable("weak int out of range")
        nin = len(ops)
        outs = [self.temp() for _ in types[nin:]]
        body = []
        for i, (o, t) in enumerate(zip(ops, types)):
            body.append("typedef %s in%d_type; const in%d_type in%d = kumo_cast<in%d_type>(%s);"
                        % (_ctype(t), i, i, i, i, o._code))
        for j, t in enumerate(types[nin:]):
            body.append("typedef %s out%d_type; out%d_type out%d;" % (_ctype(t), j, j, j))
        body.append(snippet + ";")
        for j, name_ in enumerate(outs):
            body.append("%s = out%d;" % (name_, j))
        for j, (name_, t) in enumerate(zip(outs, types[nin:])):
            self.lines.append("%s %s;" % (_ctype(t), name_))
        self.lines.append("{ " + " ".join(body) + " }")
        res = [_Var(self, name_, t) for name_, t in zip(outs, types[nin:])]
        return res[0] if len(res) == 1 else tuple(res)

    def cast(self, x, dtype):
        x = self.operand(x)
        v = self.temp()
        self.lines.append("%s %s = kumo_cast<%s>(%s);" % (_ctype(dtype), v, _ctype(dtype), x._code))
        return _Var(self, v, dtype)

    def where(self, c, x, y):
        c, x, y = self.operand(c), self.operand(x), self.operand(y)
        dt = numpy.result_type(*[o._weak if o._weak is not None else o.dtype for o in (x, y)])
        v = self.temp()
        t = _ctype(dt)
        self.lines.append("%s %s = kumo_cast<bool>(%s) ? kumo_cast<%s>(%s) : kumo_cast<%s>(%s);"
                          % (t, v, c._code, t, x._code, t, y._code))
        return _Var(self, v, dt)

    def assign(self, target, value):
        if target._param is None:
            raise _Unfusable("in-place update of a temporary")
        if not numpy.can_cast(value.dtype, target.dtype, "same_kind"):
            raise _Unfusable("casting")
        v = self.temp()
        self.lines.append("%s %s = kumo_cast<%s>(%s);" % (_ctype(target.dtype), v, _ctype(target.dtype),
                                                          value._code))
        target._code = v
        if not any(u is target for u in self.updated):  # `in` would call the traced __eq__
            self.updated.append(target)
        return target

    def reduce(self, kind, x, axis):
        x = self.operand(x)
        if x._weak is not None:
            raise _Unfusable("reduction of a scalar")
        uf_name = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum"}[kind]
        if kind in ("sum", "prod"):
            rt = getattr(numpy, kind)(numpy.zeros(1, x.dtype)).dtype
        else:
            rt = x.dtype
        self.reduction = (uf_name, x, axis, rt)
        return _Var(self, "_red", rt)


_lock = threading.RLock()
_tracer_state = threading.local()


def _patched(kumo):
    """kumo attributes replaced while tracing: name -> tracing function."""

    def wrap_ufunc(name, uf):
        def f(*args, **kwargs):
            t = getattr(_tracer_state, "tracer", None)
            if t is None or not any(isinstance(a, _Var) for a in args):
                return uf(*args, **kwargs)
            if kwargs or len(args) != uf.nin:
                raise _Unfusable("ufunc keywords")
            return t.ufunc(name, args, uf)
        return f

    def wrap_red(kind, orig):
        def f(a, axis=None, *args, **kwargs):
            t = getattr(_tracer_state, "tracer", None)
            if t is None or not isinstance(a, _Var):
                return orig(a, axis, *args, **kwargs)
            if args or any(k != "keepdims" or v for k, v in kwargs.items()):
                raise _Unfusable("reduction keywords")
            return t.reduce(kind, a, axis)
        return f

    def where(c, x=None, y=None):
        t = getattr(_tracer_state, "tracer", None)
        if t is None or not any(isinstance(a, _Var) for a in (c, x, y)):
            return orig_where(c, x, y) if x is not None or y is not None else orig_where(c)
        if x is None or y is None:
            raise _Unfusable("where with one argument")
        return t.where(c, x, y)

    out = {}
    for row in ROWS:
        uf = getattr(kumo, row[0], None)
        if isinstance(uf, _core.ufunc):
            out[row[0]] = wrap_ufunc(row[0], uf)
    for kind, names in (("sum", ("sum",)), ("prod", ("prod",)), ("max", ("max", "amax")), ("min", ("min", "amin"))):
        for nm in names:
            if hasattr(kumo, nm):
                out[nm] = wrap_red(kind, getattr(kumo, nm))
    orig_where = kumo.where
    out["where"] = where
    return out


_INT_RANGES = {t: (int(numpy.iinfo(t).min), int(numpy.iinfo(t).max)) for t in "bBhHiIlL"}


def _arg_key(a):
    if isinstance(a, ndarray):
        return ("a", a.dtype.char, a.ndim)
    if type(a) is int:
        # Whether a weak int fits each integer type decides NumPy's overflow
        # errors, so it is part of the signature (a trace that raised falls back).
        return ("s", int, tuple(_INT_RANGES[k][0] <= a <= _INT_RANGES[k][1] for k in sorted(_INT_RANGES)))
    if type(a) in _PY_SCALARS:
        return ("s", type(a))
    if isinstance(a, numpy.generic) and a.dtype.kind in "biufc":
        return ("n", a.dtype.char)
    return None


# Unfused calls round every ufunc result; contracting a*b+c into one fma
# would not, so the fused kernels keep separate roundings on both targets.
_NO_CONTRACT = ("#if !defined(__CUDACC_RTC__) && defined(__GNUC__) && !defined(__clang__)\n"
                "#pragma GCC optimize(\"fp-contract=off\")\n#endif\n"
                "#if defined(__clang__)\n#pragma clang fp contract(off)\n#endif\n")
_NVRTC_OPTIONS = ("--fmad=false",)


class _Fused:
    def __init__(self, func, kernel_name=None):
        self.func = func
        self.name = kernel_name or getattr(func, "__name__", "fused")
        if not self.name.isidentifier():
            self.name = "fused"
        self._cache = {}
        functools.update_wrapper(self, func)

    def _trace(self, args):
        # The traced function calls kumo.exp, kumo.sum, ... through the
        # top-level namespace, whose attributes are swapped for tracing ones
        # while it runs.
        kumo = package()
        t = _Tracer()
        proxies = []
        for a in args:
            if isinstance(a, ndarray):
                v = _Var(t, t.param(a.dtype), a.dtype)
                v._param = v._code
                proxies.append(v)
            else:
                proxies.append(t.operand(a))
        patches = _patched(kumo)
        with _lock:
            saved = {k: getattr(kumo, k) for k in patches}
            _tracer_state.tracer = t
            t.orig = saved
            try:
                for k, f in patches.items():
                    setattr(kumo, k, f)
                ret = self.func(*proxies)
            finally:
                for k, f in saved.items():
                    setattr(kumo, k, f)
                _tracer_state.tracer = None
        return self._build(t, proxies, ret)

    def _build(self, t, proxies, ret):
        in_params = ", ".join("%s %s" % (dt.name, n) for n, dt in t.params)
        array_params = [p._param for p in proxies if isinstance(p, _Var) and p._param]
        if t.reduction is not None:
            uf_name, x, axis, rt = t.reduction
            if ret is None or not (isinstance(ret, _Var) and ret._code == "_red") or t.updated:
                raise _Unfusable("reduction not returned alone")
            uf = getattr(_ufuncs, uf_name)
            k, types = uf._resolve(rt, rt)
            if any(numpy.dtype(ty) != rt for ty in types):
                raise _Unfusable("reduction loop")
            c = _ctype(rt)
            args = ", ".join("const %s %s" % (_ctype(dt), n) for n, dt in t.params)
            preamble = _NO_CONTRACT + ("static KUMO_FN %s kumo_fused_map(%s) {\n%s\nreturn kumo_cast<%s>(%s);\n}\n"
                        "static KUMO_FN %s kumo_fused_reduce(const %s in0, const %s in1) {\n"
                        "typedef %s out0_type; out0_type out0; %s;\nreturn out0;\n}\n"
                        % (c, args, "\n".join(t.lines), c, x._code, c, c, c, c, uf._loop_operation(k)))
            identity = {"add": "0", "multiply": "1"}.get(uf_name)
            kern = ReductionKernel(in_params, "%s _out0" % rt.name,
                                   "kumo_fused_map(%s)" % ", ".join(n for n, _ in t.params),
                                   "kumo_fused_reduce(a, b)", "_out0 = a", identity, name=self.name,
                                   reduce_type=rt.name, preamble=preamble,
                                   options=_NVRTC_OPTIONS)
            return ("r", kern, t.values, axis)
        rets = ret if isinstance(ret, tuple) else ((ret,) if ret is not None else ())
        for r in rets:
            if not isinstance(r, _Var) or r._weak is not None or r._code in array_params:
                raise _Unfusable("unsupported return value")
        outs = ["%s _out%d" % (r.dtype.name, j) for j, r in enumerate(rets)]
        body = list(t.lines) + ["_out%d = %s;" % (j, r._code) for j, r in enumerate(rets)]
        upd = []
        for j, u in enumerate(t.updated):
            outs.append("%s _upd%d" % (u.dtype.name, j))
            body.append("_upd%d = %s;" % (j, u._code))
            upd.append(array_params.index(u._param))
        if not outs:
            raise _Unfusable("nothing computed")
        kern = ElementwiseKernel(in_params, ", ".join(outs), "\n".join(body), name=self.name, return_tuple=True,
                                 preamble=_NO_CONTRACT, options=_NVRTC_OPTIONS)
        return ("e", kern, t.values, (len(rets), upd, isinstance(ret, tuple), ret is None, [r.dtype for r in rets]))

    def __call__(self, *args, **kwargs):
        if kwargs or any(isinstance(a, numpy.ndarray) for a in args) or \
                not any(isinstance(a, ndarray) for a in args):
            return self.func(*args, **kwargs)
        keys = tuple(_arg_key(a) for a in args)
        if None in keys:
            return self.func(*args)
        entry = self._cache.get(keys)
        if entry is None:
            try:
                entry = self._trace(args)
            except _Unfusable:
                entry = "unfused"
            self._cache[keys] = entry
        if entry == "unfused":
            return self.func(*args)
        kind, kern, values, extra = entry
        arrays = [a for a in args if isinstance(a, ndarray)]
        values = list(values)
        # Call arguments: arrays and scalar arguments in order, then the constants of the trace.
        call = []
        for a in args:
            call.append(a if isinstance(a, ndarray) else (a.item() if isinstance(a, numpy.generic) else a))
        call.extend(values[len(args):])
        if kind == "r":
            return kern(*call, axis=extra)
        nret, upd, is_tuple, is_none, dtypes = extra
        if upd:
            # Updated inputs are written in place: every output is then given.
            shape = numpy.broadcast_shapes(*[a.shape for a in arrays])
            outs = [empty(shape, dtype=d) for d in dtypes] + [arrays[i] for i in upd]
            res = kern(*call, *outs)
        else:
            res = kern(*call)
        res = tuple(res)[:nret]
        if is_none:
            return None
        return res if is_tuple else res[0]


def fuse(*args, **kwargs):
    """Decorator: ``@kumo.fuse``, ``@kumo.fuse()`` or ``@kumo.fuse(kernel_name=...)``."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return _Fused(args[0])
    kernel_name = kwargs.pop("kernel_name", None)
    if kwargs or args:
        raise TypeError("fuse() takes only kernel_name")
    return lambda f: _Fused(f, kernel_name)
