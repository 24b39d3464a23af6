"""The oracle: does kumo's outcome match NumPy's?

`judge(call, n, k, inputs)` takes the two Outcomes (calls.execute) and the
NumPy views of the inputs and returns (class, detail). Classes:
match, wrong_exception, raised_not_numpy, returned_not_raised, wrong_type,
wrong_shape, wrong_dtype, wrong_value, wrong_mutation, wrong_warning.
Exceptions match when kumo's is NumPy's public class or a subclass of it;
results match in kind (array / tuple / Python scalar / None; a NumPy scalar
matches a 0-d kumo array), shape, dtype and values: bit-exact for bool,
integers, NaN positions and ops with ulp 0, else within the row's ulp
bound (plus its summation-order allowance `scale`).
"""
import numpy

MISMATCH = ["wrong_exception", "raised_not_numpy", "returned_not_raised", "wrong_type", "wrong_shape",
            "wrong_dtype", "wrong_value", "wrong_mutation", "wrong_warning", "layout", "crash", "hang",
            "harness_error", "crash_once"]
PUBLIC_MODULES = ("builtins", "numpy", "numpy.exceptions", "numpy.linalg")


def public_class(exc_type):
    """NumPy's exception class as far as users can name it (private
    subclasses such as _UFuncNoLoopError reduce to TypeError)."""
    for c in exc_type.__mro__:
        if not c.__name__.startswith("_") and c.__module__ in PUBLIC_MODULES:
            return c
    return Exception


def short(x, n=160):
    s = repr(x) if not isinstance(x, BaseException) else f"{type(x).__name__}({str(x)[:100]!r})"
    s = " ".join(s.split())
    return s if len(s) <= n else s[:n] + "..."


class Mismatch(Exception):
    def __init__(self, cls, detail):
        super().__init__(detail)
        self.cls = cls
        self.detail = detail


def _is_kumo_array(x):
    return type(x).__module__.startswith("kumo") and hasattr(x, "shape") and hasattr(x, "dtype") \
        and not isinstance(x, numpy.ndarray)


def to_numpy(k):
    import kumo
    return kumo.asnumpy(k)


class Tol:
    def __init__(self, row, inputs, operands=None):
        self.ulp = row.ulp
        if row.complex_ulp is not None and any(a.dtype.kind == "c" for a in inputs):
            self.ulp = max(self.ulp, row.complex_ulp)
        self.complex_ulp = max(self.ulp, row.complex_ulp or 0)
        self.scale = row.scale
        self.signed_zeros = row.signed_zeros
        self.exact = self.ulp == 0 and row.scale is None and row.compare in ("value", "sorted")
        finite = [numpy.abs(a[numpy.isfinite(a)]).max() for a in inputs
                  if a.dtype.kind in "fciub" and a.size and numpy.isfinite(a).any()]
        self.maxabs = float(max(finite)) if finite else 0.0
        self.n = max([a.size for a in inputs] + [1])
        # the loop NumPy picks computes in at least the inputs' precision: a
        # float32 input written to a float64 out= is float32-accurate
        kinds = [a.dtype for a in (inputs if operands is None else operands) if a.dtype.kind in "biufc"]
        loop = numpy.result_type(*kinds, numpy.float16) if kinds else numpy.dtype(numpy.float64)
        self.input_eps = float(numpy.finfo(loop).eps)
        self.undefined_int_casts = False   # set by judge from NumPy's outcome (calls.Outcome.invalid_cast)

    def bound(self, n, dtype):
        """Allowed |kumo - numpy| at reference values n (float64 array)."""
        eps = max(float(numpy.finfo(dtype).eps), self.input_eps if self.ulp or self.scale else 0.0)
        tol = self.ulp * eps * numpy.abs(n)
        tiny = float(numpy.finfo(dtype).smallest_subnormal)
        s, m, N = self.scale, self.maxabs, self.n
        if s == "sum":
            tol = tol + 2 * N * eps * m
        elif s == "sq":
            tol = tol + 2 * N * eps * m * m
        elif s == "sqrt":
            tol = tol + numpy.sqrt(2 * N * eps) * m
        elif s == "prod":
            tol = tol + 2 * N * eps * numpy.abs(n)
        return tol + (tiny if self.ulp else 0)


def _float_values(n, k, tol, dtype, where, mag=None):
    """Float arrays; `mag`: the complex magnitudes the bound is relative to."""
    nn, kn = numpy.isnan(n), numpy.isnan(k)
    if not numpy.array_equal(nn, kn):
        raise Mismatch("wrong_value", f"NaN at {_first(nn != kn)}{where}: numpy {n[nn != kn][:3]} kumo {k[nn != kn][:3]}")
    fin = numpy.isfinite(n)
    inf_bad = ~fin & ~nn & (n != k)
    if inf_bad.any():
        raise Mismatch("wrong_value", f"inf at {_first(inf_bad)}{where}: numpy {n[inf_bad][:3]} kumo {k[inf_bad][:3]}")
    n64, k64 = n.astype(numpy.float64), k.astype(numpy.float64)
    if tol.exact:
        bad = fin & ((n64 != k64) | (tol.signed_zeros & (numpy.signbit(n64) != numpy.signbit(k64))))
    else:
        with numpy.errstate(all="ignore"):
            ref = numpy.maximum(numpy.abs(n64), numpy.abs(k64)) if mag is None else mag
            bad = fin & ~(numpy.abs(n64 - k64) <= tol.bound(ref, dtype))
    if bad.any():
        i = _first(bad)
        raise Mismatch("wrong_value", f"at {i}{where}: numpy {n[bad][:4]} kumo {k[bad][:4]}"
                       + ("" if tol.exact else f" (bound {tol.ulp} ulp, scale {tol.scale})"))


def _first(mask):
    idx = numpy.argwhere(mask)
    return tuple(int(x) for x in idx[0]) if idx.size else ()


def _with_ulp(tol, ulp):
    import copy
    t = copy.copy(tol)
    t.ulp = ulp
    t.exact = False
    return t


def array_values(n, k, tol, where=""):
    """n, k: NumPy arrays of the same shape and dtype."""
    kind = n.dtype.kind
    if kind in "fc":
        if kind == "c":
            if tol.complex_ulp > tol.ulp:   # a complex result of real operands and a complex scalar
                tol = _with_ulp(tol, tol.complex_ulp)
            if not tol.exact:
                fin = numpy.isfinite(n)
                if not numpy.array_equal(fin, numpy.isfinite(k)):
                    raise Mismatch("wrong_value", f"finiteness at {_first(fin != numpy.isfinite(k))}{where}: "
                                   f"numpy {n[fin != numpy.isfinite(k)][:3]} kumo {k[fin != numpy.isfinite(k)][:3]}")
                n, k = numpy.where(fin, n, 0), numpy.where(fin, k, 0)
            real = numpy.finfo(n.dtype).dtype
            mag = None if tol.exact else numpy.maximum(numpy.abs(n), numpy.abs(k)).astype(numpy.float64)
            _float_values(n.real.copy(), k.real.copy(), tol, real, where + " (real)", mag)
            _float_values(n.imag.copy(), k.imag.copy(), tol, real, where + " (imag)", mag)
        else:
            _float_values(n, k, tol, n.dtype, where)
        return
    if kind in "iu" and tol.undefined_int_casts:
        return
    if not numpy.array_equal(n, k):
        bad = n != k
        raise Mismatch("wrong_value", f"at {_first(bad)}{where}: numpy {n[bad][:4]} kumo {k[bad][:4]}")


def result(n, k, tol, where="result", converted=False):
    """Compare one NumPy result with one kumo result (recursively for tuples);
    `converted`: k was already turned into NumPy arrays by the caller."""
    if n is None or k is None:
        if n is not k:
            raise Mismatch("wrong_type", f"{where}: numpy {short(n)} kumo {short(k)}")
        return
    if isinstance(n, (tuple, list)):
        if not isinstance(k, (tuple, list)) or type(n) is list and type(k) is not list:
            raise Mismatch("wrong_type", f"{where}: numpy {type(n).__name__} kumo {type(k).__name__}")
        if len(n) != len(k):
            raise Mismatch("wrong_type", f"{where}: numpy {len(n)} items, kumo {len(k)}")
        for i, (a, b) in enumerate(zip(n, k)):
            result(a, b, tol, f"{where}[{i}]", converted)
        return
    if isinstance(n, (bool, int, float, complex)) and not isinstance(n, numpy.generic):
        if _is_kumo_array(k) and k.ndim == 0:
            k = to_numpy(k)[()].item()
        if type(k) is not type(n):
            raise Mismatch("wrong_type", f"{where}: numpy {type(n).__name__} {short(n)} kumo {type(k).__name__} {short(k)}")
        array_values(numpy.asarray(n), numpy.asarray(k), tol, " " + where)
        return
    if isinstance(n, (numpy.ndarray, numpy.generic)):
        scalar = isinstance(n, numpy.generic)
        if _is_kumo_array(k):
            k = to_numpy(k)
        elif converted and isinstance(k, numpy.ndarray):
            pass
        elif scalar and isinstance(k, (numpy.generic, bool, int, float, complex)):
            k = numpy.asarray(k, dtype=n.dtype) if isinstance(k, (bool, int, float, complex)) else numpy.asarray(k)
        else:
            raise Mismatch("wrong_type", f"{where}: numpy {type(n).__name__} kumo {type(k).__module__}.{type(k).__name__}")
        n = numpy.asarray(n)
        if n.shape != k.shape:
            raise Mismatch("wrong_shape", f"{where}: numpy {n.shape} kumo {k.shape}")
        if n.dtype != k.dtype:
            raise Mismatch("wrong_dtype", f"{where}: numpy {n.dtype} kumo {k.dtype}")
        array_values(n, k, tol, " " + where)
        return
    if isinstance(n, numpy.dtype) or isinstance(n, str):
        if n != k:
            raise Mismatch("wrong_value", f"{where}: numpy {short(n)} kumo {short(k)}")
        return
    raise Mismatch("harness_error", f"{where}: no rule for numpy result of type {type(n).__name__}")


# -- order-free results ---------------------------------------------------------

def _axis_of(call):
    return call.kwargs.get("axis", -1)


def argsort(call, n, k, inputs, tol):
    if call.kwargs.get("kind") == "stable":
        return result(n, k, tol)
    if not _is_kumo_array(k) or k.shape != n.shape or k.dtype != n.dtype:
        return result(n, k, tol)
    k = to_numpy(k)
    a, axis = inputs[0], _axis_of(call)
    if a.ndim == 0:
        return result(n, k, tol, converted=True)
    if axis is None:
        a, axis = a.ravel(), -1
    if not numpy.array_equal(numpy.sort(k, axis=axis), numpy.sort(n, axis=axis)):
        raise Mismatch("wrong_value", "argsort result is not a permutation along the axis")
    result(numpy.take_along_axis(a, n, axis), numpy.take_along_axis(a, k, axis), tol, "a[argsort]", True)


def partition(call, n, k, inputs, tol, arg=False):
    if not _is_kumo_array(k) or k.shape != n.shape or k.dtype != n.dtype:
        return result(n, k, tol)
    k = to_numpy(k)
    axis = call.kwargs.get("axis", -1)
    if arg:
        if not numpy.array_equal(numpy.sort(k, axis=axis), numpy.sort(n, axis=axis)):
            raise Mismatch("wrong_value", "argpartition result is not a permutation along the axis")
        a = inputs[0]
        n, k = numpy.take_along_axis(a, n, axis), numpy.take_along_axis(a, k, axis)
    result(numpy.sort(n, axis=axis), numpy.sort(k, axis=axis), tol, "sorted partition", True)
    kth = call.args[1]
    kth = kth.v if hasattr(kth, "v") else [kth]
    if n.ndim == 0 or n.shape[axis] == 0:
        return
    for t in kth:
        result(numpy.take(n, [t], axis=axis), numpy.take(k, [t], axis=axis), tol, f"element kth={t}", True)
        pivot = numpy.take(k, [t], axis=axis)
        m = n.shape[axis]
        t = t % m
        if (numpy.take(k, range(t), axis=axis) > pivot).any() or (numpy.take(k, range(t + 1, m), axis=axis) < pivot).any():
            raise Mismatch("wrong_value", f"not partitioned around kth={t}: {k.tolist()}")


def absolute(call, n, k, inputs, tol):
    if isinstance(n, tuple):
        if not isinstance(k, tuple) or len(k) != len(n):
            raise Mismatch("wrong_type", f"numpy tuple of {len(n)} kumo {short(k)}")
        for i, (a, b) in enumerate(zip(n, k)):
            result(numpy.abs(a), numpy.abs(to_numpy(b)) if _is_kumo_array(b) else b, tol, f"|result[{i}]|", True)
        return
    result(numpy.abs(n), numpy.abs(to_numpy(k)) if _is_kumo_array(k) else k, tol, "|result|", True)


def sorted_values(call, n, k, inputs, tol):
    """Results whose order NumPy does not define (unique_values)."""
    if isinstance(n, numpy.ndarray) and _is_kumo_array(k) and k.ndim == 1 and n.ndim == 1:
        return result(numpy.sort(n), numpy.sort(to_numpy(k)), tol, "sorted result", True)
    return result(n, k, tol)


def unique_nan_groups(call, n, k, inputs, tol):
    """unique_inverse/unique_all: with equal_nan=False every NaN is a group
    of its own, and NumPy orders those groups by an unstable sort, so which
    NaN group an index or inverse entry names is not defined. Everything
    else must match exactly; the NaN entries are checked by their
    defining property (x[indices] == values, values[inverse] == x)."""
    x = inputs[0].ravel()
    if x.dtype.kind not in "fc" or not numpy.isnan(x).any() or not isinstance(k, tuple) or len(k) != len(n):
        return result(n, k, tol)
    fields = [to_numpy(f) if _is_kumo_array(f) else f for f in k]
    names = type(n)._fields if hasattr(type(n), "_fields") else [str(i) for i in range(len(n))]
    values = fields[0]
    result(n[0], values, tol, "values", True)
    nan_group = numpy.isnan(numpy.asarray(n[0]))
    for name, a, b in zip(names[1:], n[1:], fields[1:]):
        a, b = numpy.asarray(a), numpy.asarray(b)
        if a.shape != b.shape or a.dtype != b.dtype:
            return result(a, b, tol, name, True)
        if name == "inverse_indices":
            fixed = ~numpy.isnan(inputs[0])
            result(a[fixed], b[fixed], tol, name + " (non-NaN)", True)
            if not numpy.isnan(values.ravel()[b.ravel()][~fixed.ravel()]).all():
                raise Mismatch("wrong_value", "inverse_indices of a NaN name a non-NaN value")
        elif name == "indices":
            result(a[~nan_group], b[~nan_group], tol, name + " (non-NaN)", True)
            if sorted(a[nan_group].tolist()) != sorted(b[nan_group].tolist()):
                raise Mismatch("wrong_value", f"indices of the NaN groups: numpy {a[nan_group]} kumo {b[nan_group]}")
        else:
            result(a, b, tol, name, True)


ORDER_FREE = {"sorted": sorted_values, "unique_nan": unique_nan_groups, "argsort": argsort, "partition": partition,
              "argpartition": lambda *a: partition(*a, arg=True), "abs": absolute}


def judge(call, n, k, inputs, operands=None):
    """(class, detail) for NumPy's Outcome n and kumo's Outcome k."""
    row = call.row
    try:
        if n.exc is not None:
            if k.exc is None:
                return "returned_not_raised", f"numpy raised {short(n.exc)}; kumo returned {short(k.result)}"
            want = public_class(type(n.exc))
            if not isinstance(k.exc, want):
                return "wrong_exception", f"numpy {short(n.exc)} (class {want.__name__}); kumo {short(k.exc)}"
            return _warnings(n, k)
        if k.exc is not None:
            return "raised_not_numpy", f"numpy returned {short(n.result, 80)}; kumo raised {short(k.exc)}"
        tol = Tol(row, inputs, operands)
        tol.undefined_int_casts = n.invalid_cast
        if row.compare in ORDER_FREE and n.result is not None:
            ORDER_FREE[row.compare](call, n.result, k.result, inputs, tol)
        else:
            result(n.result, k.result, tol)
        if len(n.bases) != len(k.bases):
            return "harness_error", "different number of built arrays"
        for i, (a, b) in enumerate(zip(n.bases, k.bases)):
            bk = to_numpy(b)
            if a.shape != bk.shape or a.dtype != bk.dtype:
                return "wrong_mutation", f"argument {i} base changed shape/dtype"
            try:
                array_values(a, bk, tol, f" of argument {i} after the call")
            except Mismatch as m:
                return "wrong_mutation", m.detail
    except Mismatch as m:
        return m.cls, m.detail
    return _warnings(n, k)


def _warnings(n, k):
    if n.warns != k.warns:
        return "wrong_warning", f"numpy warned {n.warns}, kumo {k.warns}"
    return "match", ""
