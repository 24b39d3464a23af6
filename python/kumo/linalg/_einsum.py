"""numpy.einsum and numpy.einsum_path on kumo arrays.

The semantics live in C++ (linalg/einsum.h); this layer turns the sublist
form into a subscripts string and NumPy's optimize= values into the C++ ones.
"""
import operator

from kumo import _core
from kumo._creation import asarray

ndarray = _core.ndarray

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _sublist_to_subscripts(sub):
    s = []
    for item in sub:
        if item is Ellipsis:
            s.append("...")
            continue
        try:
            i = operator.index(item)
        except TypeError:
            raise TypeError("each subscript must be either an integer or an ellipsis") from None
        if not 0 <= i < 52:
            raise ValueError("subscript is not within the valid range [0, 52)")
        s.append(_LETTERS[i])
    return "".join(s)


def _split_operands(operands):
    """(subscripts, operands) of either calling form:
    einsum('ij,jk->ik', a, b) or einsum(a, [0, 1], b, [1, 2], [0, 2])."""
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    args = list(operands)
    ops, sublists = args[0::2], args[1::2]
    subscripts = ",".join(_sublist_to_subscripts(s) for s in sublists)
    if len(args) % 2 == 1:
        if len(args) == 1:
            raise ValueError("No input operands")
        subscripts += "->" + _sublist_to_subscripts(ops.pop())
    return subscripts, ops


def _optimize_args(optimize):
    """NumPy's optimize= value as the C++ (kind, path, memory_limit)."""
    if optimize is None or optimize is False:
        return "none", [], None
    if optimize is True:
        return "greedy", [], None
    if isinstance(optimize, str):
        if optimize not in ("greedy", "optimal"):
            raise KeyError("Path name %s not found", optimize)
        return optimize, [], None
    if isinstance(optimize, (list, tuple)) and len(optimize):
        if optimize[0] == "einsum_path":
            return "path", [tuple(operator.index(i) for i in step) for step in optimize[1:]], None
        if (len(optimize) == 2 and isinstance(optimize[0], str) and isinstance(optimize[1], (int, float))
                and not isinstance(optimize[1], bool)):
            if optimize[0] not in ("greedy", "optimal"):
                raise KeyError("Path name %s not found", optimize[0])
            return optimize[0], [], int(optimize[1])
    raise TypeError("Did not understand the path: %s" % str(optimize))


def einsum(*operands, out=None, optimize=False, dtype=None, order="K", casting="safe"):
    """Einstein summation (numpy.einsum), in the subscripts form
    ``einsum('ij,jk->ik', a, b)`` or the interleaved form
    ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    subscripts, ops = _split_operands(operands)
    if not isinstance(subscripts, str):
        raise TypeError("einsum subscripts must be a string")
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("out must be an array")
    kind, path, limit = _optimize_args(optimize)
    ops = [asarray(op) for op in ops]
    res = _core.linalg.einsum(subscripts, ops, out, dtype, order, casting, kind, path, limit)
    return res if out is None else out  # the caller's object, as NumPy returns it


def einsum_path(*operands, optimize="greedy"):
    """numpy.einsum_path: (['einsum_path', *steps], printable report). The
    plan only depends on the operands' shapes. (NumPy's internal
    einsum_call= keyword is not accepted.)"""
    subscripts, ops = _split_operands(operands)
    if not isinstance(subscripts, str):
        raise TypeError("einsum subscripts must be a string")
    kind, path, limit = _optimize_args(optimize)
    shapes = [tuple(op.shape) if hasattr(op, "shape") else tuple(asarray(op).shape) for op in ops]
    steps, report = _core.linalg.einsum_path(subscripts, shapes, kind, path, limit)
    return ["einsum_path"] + [tuple(s) for s in steps], report
