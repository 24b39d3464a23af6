"""round/around/fix: rounding composites over the rint, floor_divide and trunc ufuncs."""
import operator

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray


def _store(res, out):
    if out is None:
        return res
    out[...] = res
    return out


def round(a, decimals=0, out=None):
    """Evenly round to the given number of decimals (half to even, as NumPy)."""
    a = asarray(a)
    decimals = operator.index(decimals)
    kind = a.dtype.kind
    if kind == "b":
        # NumPy rounds bools with rint (float16); other decimals multiply a
        # float into the bool array, which same_kind casting refuses.
        if decimals != 0:
            raise _core.UFuncTypeError("Cannot cast ufunc 'multiply' output from dtype('float64') to "
                                       "dtype('bool') with casting rule 'same_kind'")
        return uf.rint(a, out=out)
    if kind in "iu":
        if decimals >= 0:
            return _store(a.copy(), out)
        f = 10 ** (-decimals)
        # Wide arithmetic: 2 * remainder must not overflow a narrow type.
        wide = a.astype("u8" if kind == "u" else "i8")
        q = uf.floor_divide(wide, f)
        r = uf.subtract(wide, uf.multiply(q, f))
        twice = uf.multiply(r, 2)
        # Round half to even on the quotient.
        up = uf.logical_or(uf.greater(twice, f),
                           uf.logical_and(uf.equal(twice, f), uf.equal(uf.remainder(q, 2), 1)))
        res = uf.multiply(uf.add(q, up.astype(q.dtype)), f).astype(a.dtype, copy=False)
        return _store(res, out)
    if decimals == 0:
        return uf.rint(a, out=out)
    f = 10.0 ** decimals
    if decimals >= 0:
        res = uf.divide(uf.rint(uf.multiply(a, f)), f)
    else:
        f = 10.0 ** (-decimals)
        res = uf.multiply(uf.rint(uf.divide(a, f)), f)
    return _store(res.astype(a.dtype, copy=False), out)


around = round


def fix(x, out=None):
    """Round toward zero (the integer part), keeping the input's dtype."""
    return uf.trunc(asarray(x), out=out)


def _install():
    _core.ndarray.round = lambda self, decimals=0, out=None: round(self, decimals, out)


_install()

__all__ = ["round", "around", "fix"]
