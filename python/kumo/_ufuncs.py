"""Ufunc objects over the C++ ufunc table (NumPy's loops and type
refinements live there), with the methods reduce, accumulate, outer and at."""
import numpy

from kumo import _core
from kumo._creation import asarray
from kumo._ufunc_table import ROWS, ALIASES, ERROR, NEG_INF

_NoValue = _core._NoValue  # NumPy's <no value> default, shared with the C++ reductions


class ufunc(_core.ufunc):
    """A universal function: elementwise over broadcast arrays, with NumPy's
    type loops and casting rules."""

    def __init__(self, name, nin, nout, loops, identity, doc):
        super().__init__(name)
        self.__doc__ = doc
        self.__name__ = name
        self._identity_value = _python_identity(identity)
        # Loops that only exist to refuse a type (an error snippet) are not
        # listed, as NumPy does not list them.
        self._types = [t for t, op in loops if not op.startswith(ERROR)]

    def __repr__(self):
        return "<ufunc '%s'>" % self.__name__


    @property
    def identity(self):
        return self._identity_value

    @property
    def types(self):
        return list(self._types)

    @property
    def ntypes(self):
        return len(self._types)

    @property
    def signature(self):
        return None

    # -- reduce / accumulate: NumPy's semantics live in C++ (routines/reduction.h) --------
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
        return _core._ufunc_reduce(self, array, axis, dtype, out, keepdims, None if initial is _NoValue else initial,
                                   where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        return _core._ufunc_accumulate(self, array, axis, dtype, out)

    def outer(self, A, B, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        A = asarray(A)
        B = asarray(B)
        a = A.reshape(A.shape + (1,) * B.ndim)
        return self(a, B, **kwargs)

    def at(self, a, indices, b=None):
        """Unbuffered in-place operation on a's device: repeated indices apply
        once per occurrence."""
        if not isinstance(a, _core.ndarray):
            raise TypeError("ufunc.at requires a kumo array as first argument")
        # NumPy makes b an array first and casts it unsafely to the loop's
        # type: a Python int outside a's range wraps instead of raising.
        if b is not None and (type(b) is int or not isinstance(b, (bool, int, float, complex, _core.ndarray))):
            b = asarray(b)
        a._ufunc_at(self.__name__, indices, b)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        return _core._ufunc_reduceat(self, array, indices, axis, dtype, out)


def _python_identity(identity):
    return {"0": 0, "1": 1, "-1": -1, "true": True, "false": False, NEG_INF: -numpy.inf}.get(identity, None)


def _build():
    made = {}
    for name, nin, nout, loops, identity, doc in ROWS:
        made[name] = ufunc(name, nin, nout, loops, identity, doc)
    for alias, target in ALIASES.items():
        made[alias] = made[target]
    return made


_ALL = _build()
globals().update(_ALL)
__all__ = sorted(_ALL) + ["ufunc"]
