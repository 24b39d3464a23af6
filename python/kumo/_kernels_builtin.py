"""Built-in kernels that are not ufuncs: select."""
import numpy

from kumo import _core

_select = None


def select_where(cond, x, y):
    """z = cond ? x : y for x, y of one dtype, cond cast to bool in the kernel."""
    global _select
    if _select is None:
        _select = _core._ElementwiseSpec("bool c, T x, T y", "T z", "z = c ? x : y", "kumo_where")
    return _select(cond, x, y)
