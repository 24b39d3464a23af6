"""The same memory layout built in NumPy and in kumo from one base buffer.

An ArraySpec is a C-contiguous NumPy base array plus a list of view steps
(basic slicing, transpose, broadcast_to, reshape). Applying the steps to a
NumPy copy of the base and to `kumo.asarray` of another copy gives arrays
with the same shape, values and strides: the kumo array is a real kumo view
(`check_strides` proves it), and writes through it must reach its base.
"""
import numpy

from . import repro, values

LAYOUTS = ["C", "F", "transposed", "negative", "offset", "stepped", "broadcast", "reshaped", "mixed"]


class ArraySpec:
    def __init__(self, base, steps=()):
        self.base = base
        self.steps = list(steps)

    def build(self, lib):
        """(base, view) in library `lib` (numpy or kumo), from a fresh copy."""
        base = self.base.copy()
        if lib is not numpy:
            base = lib.asarray(base)
        x = base
        for step in self.steps:
            x = apply_step(lib, x, step)
        return base, x

    def numpy(self):
        return self.build(numpy)[1]

    @property
    def shape(self):
        return self.numpy().shape

    @property
    def dtype(self):
        return self.base.dtype

    def source(self, mod):
        """Source text of the view; `mod` is "np" or "kumo", base named by caller."""
        return self._source(mod, None)

    def _source(self, mod, base_name):
        x = base_name if base_name else repro.literal(self.base)
        if mod != "np":
            x = f"kumo.asarray({x})"
        for step in self.steps:
            kind = step[0]
            if kind == "index":
                x = f"{x}[{repro.index(step[1])}]"
            elif kind == "transpose":
                x = f"{x}.transpose({step[1]!r})"
            elif kind == "reshape":
                x = f"{x}.reshape({step[1]!r})"
            elif kind == "broadcast_to":
                x = f"{mod}.broadcast_to({x}, {step[1]!r})"
        return x

    def is_view(self):
        return bool(self.steps)


def apply_step(lib, x, step):
    kind = step[0]
    if kind == "index":
        return x[step[1]]
    if kind == "transpose":
        return x.transpose(step[1])
    if kind == "reshape":
        return x.reshape(step[1])
    if kind == "broadcast_to":
        return lib.broadcast_to(x, step[1])
    raise ValueError(kind)


def check_strides(np_view, k_view):
    """None when the kumo view has NumPy's strides on every axis that matters
    (length > 1 of a non-empty array), else a description."""
    if np_view.shape != tuple(k_view.shape):
        return f"layout shape {np_view.shape} != {tuple(k_view.shape)}"
    if np_view.size == 0:
        return None
    ks = tuple(k_view.strides)
    for n, a, b in zip(np_view.shape, np_view.strides, ks):
        if n > 1 and a != b:
            return f"layout strides {np_view.strides} != {ks}"
    return None


def _inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


def plan(rng, shape, layout):
    """(base shape, steps) so that the steps turn the base into `shape`."""
    shape = tuple(shape)
    nd = len(shape)
    if nd == 0:
        if layout in ("C", "F", "transposed"):
            return (), []
        if layout == "broadcast":
            return (), [("broadcast_to", ())]
        return (3,), [("index", (int(rng.integers(-3, 3)), Ellipsis))]
    if layout == "C":
        return shape, []
    if layout == "F":
        return shape[::-1], [("transpose", tuple(range(nd))[::-1])]
    if layout == "transposed":
        perm = [int(p) for p in rng.permutation(nd)]
        return tuple(shape[p] for p in _inverse(perm)), [("transpose", tuple(perm))]
    if layout == "negative":
        flip = [bool(f) for f in rng.random(nd) < 0.6]
        if not any(flip):
            flip[int(rng.integers(nd))] = True
        return shape, [("index", tuple(slice(None, None, -1) if f else slice(None) for f in flip))]
    if layout == "offset":
        ax = int(rng.integers(nd))
        base = list(shape)
        base[ax] += 2
        idx = [slice(None)] * nd
        idx[ax] = [slice(1, -1), slice(2, None), slice(None, -2)][int(rng.integers(3))]
        return tuple(base), [("index", tuple(idx))]
    if layout == "stepped":
        ax = int(rng.integers(nd))
        step = int(rng.choice([2, 3, -2, -3]))
        base = list(shape)
        base[ax] = max(shape[ax] * abs(step), 1) if shape[ax] else 1
        idx = [slice(None)] * nd
        if shape[ax] == 0:
            idx[ax] = slice(1, None, step) if step > 0 else slice(0, None, step)
            idx[ax] = slice(1, 1, step)
        else:
            idx[ax] = slice(None, None, step)
        return tuple(base), [("index", tuple(idx))]
    if layout == "broadcast":
        small = [1 if rng.random() < 0.5 else n for n in shape]
        lead = int(rng.integers(0, nd + 1))
        small = small[lead:] if rng.random() < 0.4 else small
        if tuple(small) == shape:
            small = [1] + list(shape[1:])
        return tuple(small), [("broadcast_to", shape)]
    if layout == "reshaped":
        size = int(numpy.prod(shape))
        if rng.random() < 0.5:
            return (size,), [("index", (slice(None, None, -1),)), ("reshape", shape)]
        return (size,), [("reshape", shape)]
    if layout == "mixed":
        base, steps = plan(rng, shape, "negative")
        base2, steps2 = plan(rng, base, "transposed")
        base3, steps3 = plan(rng, base2, "stepped")
        return base3, steps3 + steps2 + steps
    raise ValueError(layout)


def make(rng, shape, dtype, domain="small", layout=None):
    """An ArraySpec of `shape` and `dtype` in `layout` (random if None)."""
    if layout is None:
        layout = LAYOUTS[int(rng.integers(len(LAYOUTS)))] if rng.random() < 0.75 else "C"
    base_shape, steps = plan(rng, shape, layout)
    base = values.values(rng, base_shape, dtype, domain)
    return ArraySpec(base, steps)


def random_shape(rng, min_nd=0, max_nd=3, max_len=5, allow_empty=True):
    nd = int(rng.integers(min_nd, max_nd + 1))
    shape = [int(rng.integers(1, max_len + 1)) for _ in range(nd)]
    r = rng.random()
    if nd and allow_empty and r < 0.08:
        shape[int(rng.integers(nd))] = 0
    elif nd and r < 0.18:
        shape[int(rng.integers(nd))] = 1
    return tuple(shape)


def from_values(rng, vals, layout=None, layouts=None):
    """An ArraySpec whose view holds exactly `vals` (a NumPy array), in a
    random layout other than broadcast: the base is filled with other values
    and the view then assigned."""
    vals = numpy.asarray(vals)
    choices = layouts or [x for x in LAYOUTS if x != "broadcast"]
    if layout is None:
        layout = choices[int(rng.integers(len(choices)))] if rng.random() < 0.75 else "C"
    base_shape, steps = plan(rng, vals.shape, layout)
    base = numpy.zeros(base_shape, dtype=vals.dtype)
    spec = ArraySpec(base, steps)
    spec.base = _base_of(spec, vals)
    return spec


def _base_of(spec, vals):
    base = spec.base.copy()
    x = base
    for step in spec.steps:
        x = apply_step(numpy, x, step)
    x[...] = vals
    return base
