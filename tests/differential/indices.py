"""Random index expressions for `__getitem__`/`__setitem__`.

An index is a tuple (or a single item) of: ints (negative and, rarely, out
of range), slices (negative steps, out-of-range bounds), None, Ellipsis,
integer index arrays (ArraySpec in any layout, 0-d, Python lists, several
broadcasting against each other) and boolean masks (1-d, n-d, 0-d).
"""
import numpy

from . import layouts


class PyList:
    """A Python list used as an index (the same list for both libraries)."""
    def __init__(self, v):
        self.v = v


class Bool0:
    """A 0-d boolean array used as an index."""
    def __init__(self, v):
        self.v = bool(v)


def _int_values(rng, n, shape, oob):
    lo, hi = (-n, n) if n else (0, 1)
    v = rng.integers(lo, max(hi, lo + 1), size=shape)
    if oob and v.size and rng.random() < 0.5:
        v.flat[int(rng.integers(v.size))] = n + int(rng.integers(0, 3))
    return v


def _bshape(rng, common):
    """A shape that broadcasts to `common`."""
    s = [1 if rng.random() < 0.3 else c for c in common]
    if s and rng.random() < 0.3:
        s = s[int(rng.integers(0, len(s) + 1)):]
    return tuple(s)


def int_array(rng, n, shape, oob=False):
    """An integer index array for an axis of length n, in some form."""
    vals = _int_values(rng, n, shape, oob)
    r = rng.random()
    if r < 0.2 and 1 <= len(shape) <= 2:
        return PyList(vals.tolist())
    dtype = ["int64", "int32", "intp", "uint8", "int16"][int(rng.integers(5))]
    if dtype in ("uint8",) and (vals < 0).any() or (vals > 127).any() and dtype != "int64":
        dtype = "int64"
    return layouts.from_values(rng, vals.astype(dtype))


def bool_mask(rng, shape):
    vals = rng.random(shape) < 0.5
    if rng.random() < 0.15 and len(shape) == 1:
        return PyList(vals.tolist())
    return layouts.from_values(rng, vals)


def random_index(rng, shape, oob_rate=0.04):
    """An index for an array of `shape` (no more axes consumed than it has)."""
    nd = len(shape)
    items = []
    axis = 0
    n_arrays = 0
    common = tuple(int(rng.integers(0, 4)) if rng.random() < 0.1 else int(rng.integers(1, 4))
                   for _ in range(int(rng.integers(0, 3))))
    used_ellipsis = False
    budget = int(rng.integers(0, nd + 2))
    while len(items) < budget + 1 and axis <= nd:
        r = rng.random()
        if r < 0.08:
            items.append(None)
            continue
        if r < 0.13 and not used_ellipsis:
            used_ellipsis = True
            items.append(Ellipsis)
            axis = max(axis, nd - (budget - len(items)))
            continue
        if axis >= nd:
            if rng.random() < 0.1 and not any(_is_mask(x) for x in items):
                items.append(Bool0(rng.random() < 0.5))
            break
        n = shape[axis]
        oob = rng.random() < oob_rate
        if r < 0.33:
            v = int(rng.integers(-n, n)) if n else 0
            if oob or not n:
                v = n + int(rng.integers(0, 2)) if rng.random() < 0.5 else -n - 1
            items.append(v)
            axis += 1
        elif r < 0.55:
            items.append(_slice(rng, n))
            axis += 1
        elif r < 0.85 and n_arrays < 3:
            n_arrays += 1
            if rng.random() < 0.12:
                items.append(layouts.ArraySpec(numpy.array(_int_values(rng, n, (), oob))))
            else:
                items.append(int_array(rng, n, _bshape(rng, common), oob))
            axis += 1
        else:
            m = int(rng.integers(1, min(2, nd - axis) + 1))
            if rng.random() < 0.1:
                items.append(Bool0(rng.random() < 0.5))
                continue
            items.append(bool_mask(rng, shape[axis:axis + m]))
            n_arrays += 1
            axis += m
    if len(items) == 1 and rng.random() < 0.5:
        return items[0]
    return tuple(items)


def _is_mask(x):
    return isinstance(x, Bool0)


def _slice(rng, n):
    def bound():
        if rng.random() < 0.35:
            return None
        return int(rng.integers(-n - 2, n + 3))
    step = [None, 1, 2, -1, -2, 3, -3][int(rng.integers(7))]
    return slice(bound(), bound(), step)
