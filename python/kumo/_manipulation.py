"""Shape manipulation (views where NumPy gives views), joining, splitting, tiling,
rearranging, padding and the index-trick objects.

The array work is C++ (kumo._core and kumo._core.manip: routines/manipulation.h,
joining.h, rearranging.h, padding.h); this module converts NumPy's argument
forms. r_, c_, mgrid, ogrid, block and the broadcast object are parsing over
kumo routines.
"""
import math
import operator
import warnings

import numpy

from kumo import _core
from kumo._creation import arange, array, asarray, empty, linspace
from kumo._dtypes import _check_dtype

ndarray = _core.ndarray
_m = _core.manip


def _axis(axis, ndim, prefix=None):
    axis = operator.index(axis)
    if axis < -ndim or axis >= ndim:
        raise numpy.exceptions.AxisError(axis, ndim, prefix)
    return axis + ndim if axis < 0 else axis


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    if shape is None:
        shape = newshape
    return asarray(a).reshape(shape, order=order, copy=copy)


def ravel(a, order="C"):
    return asarray(a).ravel(order)


def transpose(a, axes=None):
    a = asarray(a)
    return a.transpose() if axes is None else a.transpose(axes)


def permute_dims(a, axes=None):
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    return asarray(a).swapaxes(axis1, axis2)


def _axes(v):
    return [v] if isinstance(v, int) or hasattr(v, "__index__") else list(v)


def moveaxis(a, source, destination):
    return _core.moveaxis(asarray(a), _axes(source), _axes(destination))


def rollaxis(a, axis, start=0):
    a = asarray(a)
    n = a.ndim
    axis = _axis(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise numpy.exceptions.AxisError("start arg requires %d <= start < %d" % (-n, n + 1))
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)


def squeeze(a, axis=None):
    return asarray(a).squeeze(axis)


def expand_dims(a, axis):
    return _core.expand_dims(asarray(a), list(axis) if isinstance(axis, (tuple, list)) else [axis])


def broadcast_to(array, shape, subok=False):
    if not isinstance(shape, (tuple, list)):
        shape = (shape,)
    return _core.broadcast_to(asarray(array), tuple(operator.index(d) for d in shape))


def broadcast_shapes(*shapes):
    return numpy.broadcast_shapes(*shapes)


def broadcast_arrays(*args, subok=False):
    return _core.broadcast_arrays([asarray(a) for a in args])


def atleast_1d(*arys):
    res = [asarray(a).reshape((1,)) if asarray(a).ndim == 0 else asarray(a) for a in arys]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = a.reshape((1, 1))
        elif a.ndim == 1:
            a = a[None, :]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = a.reshape((1, 1, 1))
        elif a.ndim == 1:
            a = a[None, :, None]
        elif a.ndim == 2:
            a = a[:, :, None]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    if axis is not None:
        axis = operator.index(axis)
    r = _core.concatenate([asarray(a) for a in arrays], axis, out, None if dtype is None else _check_dtype(dtype),
                          casting)
    return r if out is None else out


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    r = _core.stack([asarray(a) for a in arrays], operator.index(axis), out,
                    None if dtype is None else _check_dtype(dtype), casting)
    return r if out is None else out


def vstack(tup, *, dtype=None, casting="same_kind"):
    return concatenate([atleast_2d(a) for a in tup], axis=0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def indices(dimensions, dtype=int, sparse=False):
    dimensions = tuple(dimensions)
    n = len(dimensions)
    res = []
    for i, dim in enumerate(dimensions):
        shape = [1] * n
        shape[i] = dim
        idx = arange(dim, dtype=dtype).reshape(tuple(shape))
        res.append(idx if sparse else idx._broadcast_to(dimensions))
    if sparse:
        return tuple(res)
    if n == 0:
        return empty((0,), dtype=dtype)
    return stack(res, axis=0)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    r = repeats if isinstance(repeats, _core.ndarray) else asarray(repeats)
    return _core.repeat(a, r, None if axis is None else operator.index(axis))


def _repeat_method(self, repeats, axis=None):
    return repeat(self, repeats, axis)


_core.ndarray.repeat = _repeat_method


def _int_list(v):
    if isinstance(v, ndarray):
        v = v.tolist()
    if isinstance(v, (list, tuple, numpy.ndarray)):
        return [operator.index(x) for x in (v.tolist() if isinstance(v, numpy.ndarray) else v)]
    return [operator.index(v)]


def _axis_or_none(axis):
    return None if axis is None else operator.index(axis)


# ---- joining ----

def concat(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """The array API's name for concatenate."""
    return concatenate(arrays, axis=axis, out=out, dtype=dtype, casting=casting)


def dstack(tup):
    return _m.dstack([asarray(a) for a in tup])


def column_stack(tup):
    return _m.column_stack([asarray(a) for a in tup])


def row_stack(tup, *, dtype=None, casting="same_kind"):
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.", DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def _block_path(index):
    return "arrays" + "".join("[%d]" % i for i in index)


def _block_depths(x, index, info):
    # Depth of nesting of every leaf, checked to be equal; leaves are arrays.
    if type(x) is tuple:
        raise TypeError("%s is a tuple. Only lists can be used to arrange blocks, and np.block does not allow "
                        "implicit conversion from tuple to ndarray." % _block_path(index))
    if type(x) is list:
        if len(x) == 0:
            raise ValueError("Lists cannot be empty. (%s)" % _block_path(index))
        for i, item in enumerate(x):
            _block_depths(item, index + [i], info)
        return
    if info["depth"] is None:
        info["depth"], info["first"] = len(index), index
    elif info["depth"] != len(index):
        raise ValueError("List depths are mismatched. First element was at depth %d, but there is an element at "
                         "depth %d (%s)" % (info["depth"], len(index), _block_path(index)))
    info["ndim"] = max(info["ndim"], numpy.ndim(x) if not isinstance(x, ndarray) else x.ndim)


def block(arrays):
    info = {"depth": None, "first": None, "ndim": 0}
    _block_depths(arrays, [], info)
    list_ndim = info["depth"]
    result_ndim = max(list_ndim, info["ndim"])

    def build(x, depth):
        if type(x) is list:
            parts = [build(item, depth + 1) for item in x]
            return concatenate(parts, axis=-(list_ndim - depth))
        a = asarray(x)
        return a.reshape((1,) * (result_ndim - a.ndim) + a.shape) if a.ndim < result_ndim else a

    res = build(arrays, 0)
    return res.copy() if list_ndim == 0 else res


# ---- splitting ----

def _ios(indices_or_sections):
    if isinstance(indices_or_sections, ndarray):
        indices_or_sections = indices_or_sections.tolist()
    try:
        len(indices_or_sections)
    except TypeError:
        return operator.index(indices_or_sections)
    return _int_list(indices_or_sections)


def array_split(ary, indices_or_sections, axis=0):
    return _m.array_split(asarray(ary), _ios(indices_or_sections), operator.index(axis), False)


def split(ary, indices_or_sections, axis=0):
    return _m.array_split(asarray(ary), _ios(indices_or_sections), operator.index(axis), True)


def hsplit(ary, indices_or_sections):
    return _m.directional_split(asarray(ary), _ios(indices_or_sections), "h")


def vsplit(ary, indices_or_sections):
    return _m.directional_split(asarray(ary), _ios(indices_or_sections), "v")


def dsplit(ary, indices_or_sections):
    return _m.directional_split(asarray(ary), _ios(indices_or_sections), "d")


def unstack(x, /, *, axis=0):
    return _m.unstack(asarray(x), operator.index(axis))


def tile(A, reps):
    try:
        reps = tuple(reps)
    except TypeError:
        reps = (reps,)
    return _m.tile(asarray(A), [operator.index(r) for r in reps])


# ---- rearranging ----

def flip(m, axis=None):
    m = asarray(m)
    return _m.flip(m, None if axis is None else _int_list(axis))


def fliplr(m):
    return _m.fliplr(asarray(m))


def flipud(m):
    return _m.flipud(asarray(m))


def roll(a, shift, axis=None):
    a = asarray(a)
    if numpy.ndim(shift) > 1 or numpy.ndim(axis) > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    return _m.roll(a, _int_list(shift), None if axis is None else _int_list(axis))


def rot90(m, k=1, axes=(0, 1)):
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    return _m.rot90(asarray(m), operator.index(k), [operator.index(x) for x in axes])


def resize(a, new_shape):
    if isinstance(new_shape, (int, numpy.integer)):
        new_shape = (new_shape,)
    return _m.resize(asarray(a), tuple(operator.index(d) for d in new_shape))


def append(arr, values, axis=None):
    return _m.append(asarray(arr), asarray(values), _axis_or_none(axis))


def _index_obj(obj):
    # Slices and integers go to C++ as they are; anything else becomes an
    # index array (an empty list an int64 one, as NumPy casts it to intp).
    if isinstance(obj, slice):
        return obj
    if isinstance(obj, (bool, numpy.bool_)):
        return asarray(obj)
    if isinstance(obj, (int, numpy.integer)):
        return int(obj)
    if isinstance(obj, ndarray):
        return obj
    o = numpy.asarray(obj)
    if o.size == 0 and not isinstance(obj, numpy.ndarray):
        o = o.astype(numpy.intp)
    return asarray(o)


def insert(arr, obj, values, axis=None):
    arr = asarray(arr)
    obj = _index_obj(obj)
    if isinstance(obj, int):
        obj = asarray(obj)
    # NumPy converts the values to arr's dtype first: a Python int out of its
    # range is an OverflowError, an array is cast unsafely.
    values = values.astype(arr.dtype, copy=False) if isinstance(values, ndarray) else asarray(values, dtype=arr.dtype)
    return _m.insert(arr, obj, values, _axis_or_none(axis))


def delete(arr, obj, axis=None):
    return _m.delete(asarray(arr), _index_obj(obj), _axis_or_none(axis))


def trim_zeros(filt, trim="fb", axis=None):
    trim = trim.lower()
    axes = None if axis is None else _int_list(axis)
    f = filt if isinstance(filt, ndarray) else asarray(filt)
    if f.ndim == 0 or axes == []:
        if trim not in ("fb", "bf", "f", "b"):
            raise ValueError("unexpected character(s) in `trim`: %r" % (trim,))
        return filt  # nothing to trim: NumPy returns its input
    res = _m.trim_zeros(f, trim, axes)
    if not isinstance(filt, ndarray) and f.ndim == 1:
        # NumPy slices a 1-d input itself, so a list gives a list.
        nz = [i for i, v in enumerate(filt) if v]
        if not nz:
            return filt[0:0]
        return filt[(nz[0] if "f" in trim else None):(nz[-1] + 1 if "b" in trim else None)]
    return res


def vander(x, N=None, increasing=False):
    return _m.vander(asarray(x), None if N is None else operator.index(N), bool(increasing))


# ---- pad ----

_PAD_KWARGS = {"empty": [], "edge": [], "wrap": [], "constant": ["constant_values"], "linear_ramp": ["end_values"],
               "maximum": ["stat_length"], "mean": ["stat_length"], "median": ["stat_length"],
               "minimum": ["stat_length"], "reflect": ["reflect_type"], "symmetric": ["reflect_type"]}


def _host(x):
    return _core.to_numpy(x) if isinstance(x, ndarray) else x


def _stored(v, dtype):
    # The value NumPy stores for the NumPy scalar `v` assigned into an array
    # of `dtype` (its rules for wrapping versus OverflowError included).
    cell = numpy.empty(1, dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cell[0] = v
    return cell[0].item()


def _as_pairs(x, ndim, as_index=False, dtype=None):
    # NumPy's broadcasting of a pad argument to (ndim, 2) pairs of Python
    # numbers. One value or one pair stays a NumPy scalar there, which NumPy
    # then stores with wrapping (unsafe) casting: with `dtype` such values
    # are cast to it here; a full table stays Python numbers (range-checked).
    if dtype is not None:
        pairs = _as_pairs(x, ndim)
        x = numpy.array(_host(x))
        if x.ndim < 3 and (x.size == 1 or (x.size == 2 and x.shape != (2, 1))):
            pairs = [tuple(_stored(x.ravel()[0 if j == 0 or x.size == 1 else 1], dtype) for j in (0, 1))] * ndim
        return pairs
    if x is None:
        return [(None, None)] * ndim
    x = numpy.array(_host(x))
    if as_index:
        x = numpy.round(x).astype(numpy.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return [(x[0].item(), x[0].item())] * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return [(x[0].item(), x[1].item())] * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return [tuple(p) for p in numpy.broadcast_to(x, (ndim, 2)).tolist()]


def pad(array, pad_width, mode="constant", **kwargs):
    array = asarray(array)
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * array.ndim
        for ax, width in pad_width.items():
            if isinstance(width, int):
                seq[ax] = (width, width)
            elif isinstance(width, tuple) and len(width) == 2 and all(isinstance(w, int) for w in width):
                seq[ax] = width
            else:
                raise AssertionError("Expected code to be unreachable, but got: %r" % (width,))
        pad_width = seq
    pw = numpy.asarray(_host(pad_width))
    if pw.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    widths = _as_pairs(pw, array.ndim, as_index=True)
    if callable(mode):
        # The user function writes each 1-d lane of the zero-padded result in place.
        padded = _m.pad(array, widths, "constant", None, None, None, False)
        for ax in range(padded.ndim):
            view = padded.swapaxes(ax, -1) if padded.ndim else padded
            for ind in numpy.ndindex(view.shape[:-1]):
                mode(view[ind + (Ellipsis,)], numpy.array(widths[ax]), ax, kwargs)
        return padded
    try:
        unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    except (KeyError, TypeError):
        raise ValueError("mode '%s' is not supported" % (mode,)) from None
    if unsupported:
        raise ValueError("unsupported keyword arguments for mode '%s': %s" % (mode, unsupported))
    cv = _as_pairs(kwargs.get("constant_values", 0), array.ndim, dtype=array.dtype) if mode == "constant" else None
    ev = _as_pairs(kwargs.get("end_values", 0), array.ndim) if mode == "linear_ramp" else None
    sl = _as_pairs(kwargs.get("stat_length"), array.ndim, as_index=True) \
        if mode in ("maximum", "mean", "median", "minimum") else None
    odd = kwargs.get("reflect_type", "even") == "odd"
    return _m.pad(array, widths, mode, cv, ev, sl, odd)


# ---- copyto / require ----

def copyto(dst, src, casting="same_kind", where=True):
    if not isinstance(dst, ndarray):
        raise TypeError("copyto() argument 1 must be numpy.ndarray, not %s" % type(dst).__name__)
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'")
    if where is True:
        where = None
    elif where is not None and not isinstance(where, ndarray):
        where = asarray(where)
    if not isinstance(src, ndarray) and not isinstance(src, (bool, int, float, complex)):
        src = asarray(src)
    _m.copyto(dst, src, casting, where)


_REQUIRE_FLAGS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
                  "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E",
                  "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    if not requirements:
        return asarray(a, dtype=dtype)
    if isinstance(requirements, str):
        requirements = [requirements]
    req = {_REQUIRE_FLAGS[x.upper()] for x in requirements}
    req.discard("E")  # kumo has no ndarray subclasses: every result is a base-class array
    order = "A"
    if req >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    if "C" in req:
        order = "C"
        req.remove("C")
    elif "F" in req:
        order = "F"
        req.remove("F")
    arr = array(a, dtype=dtype, order=order, copy=None)
    for prop in req:
        if not arr.flags[prop]:
            return arr.copy(order)
    return arr


# ---- the broadcast object ----

class broadcast:
    """numpy.broadcast: the broadcast shape of its arguments and an iterator
    over tuples of their broadcast elements (in C order)."""

    def __init__(self, *args):
        if len(args) > 64:
            raise ValueError("Need at least 0 and at most 64 array objects.")
        arrays = []
        for a in args:
            if isinstance(a, broadcast):
                arrays.extend(a._arrays)
            else:
                arrays.append(asarray(a))
        shapes = [a.shape for a in arrays]
        try:
            self._shape = numpy.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                             + _mismatch(shapes)) from None
        self._arrays = arrays
        self._views = [_core.broadcast_to(a, self._shape) for a in arrays]
        self._index = 0

    shape = property(lambda self: self._shape)
    ndim = property(lambda self: len(self._shape))
    nd = ndim
    numiter = property(lambda self: len(self._arrays))
    size = property(lambda self: math.prod(self._shape))
    index = property(lambda self: self._index)

    @property
    def iters(self):
        # Flat iterators over each broadcast argument from the current position.
        its = []
        for v in self._views:
            it = iter(v.flat)
            for _ in range(self._index):
                next(it)
            its.append(it)
        return tuple(its)

    def reset(self):
        self._index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self.size:
            raise StopIteration
        idx = numpy.unravel_index(self._index, self._shape) if self._shape else ()
        self._index += 1
        return tuple(v[idx] for v in self._views)


def _mismatch(shapes):
    # NumPy's message names the first argument that does not broadcast with
    # an earlier one, and that earlier one.
    for i, s in enumerate(shapes):
        for j in range(i):
            try:
                numpy.broadcast_shapes(shapes[j], s)
            except ValueError:
                return "arg %d with shape %s and arg %d with shape %s." % (j, shapes[j], i, s)
    return "arguments."


# ---- r_, c_, mgrid, ogrid, s_, index_exp ----

def _is_complex_step(step):
    return isinstance(step, (complex, numpy.complexfloating))


def _blocks_from_names(text, globals_, locals_):
    rows = []
    for row in text.split(";"):
        names = row.replace(",", " ").split()
        if not names:
            raise ValueError("r_/c_ string form: an empty row in %r" % (text,))
        blocks = []
        for name in names:
            if name in locals_:
                value = locals_[name]
            elif name in globals_:
                value = globals_[name]
            else:
                raise NameError("name '%s' is not defined" % name)
            blocks.append(array(value, copy=None, ndmin=2))
        rows.append(concatenate(blocks, axis=-1))
    return concatenate(rows, axis=0)


class _AxisConcatenator:
    """r_ and c_: slices become ranges (a complex step: that many points,
    inclusive), a leading string sets the axis, the minimum ndim and where
    1-d inputs' axis goes, and everything is joined with concatenate."""

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            # NumPy's bmat form: "A, B; C, D" names arrays of the caller's
            # scope, assembled as blocks (rows by ';', columns by ',' or
            # spaces). NumPy returns a matrix; kumo, which has none, the 2-d array.
            import sys
            frame = sys._getframe(1)
            return _blocks_from_names(key, frame.f_globals, frame.f_locals)
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        matrix = col = False
        objs, types = [], []
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if _is_complex_step(step):
                    obj = linspace(start, item.stop, num=int(abs(step)))
                else:
                    obj = arange(start, item.stop, step)
                if ndmin > 1:
                    obj = array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = obj.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, col = True, item == "c"
                    continue
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = [int(x) for x in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError("unknown special directive %r" % (item,)) from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
            elif type(item) in numpy.ScalarType:
                scalar = True
                obj = item
            else:
                item_ndim = item.ndim if isinstance(item, ndarray) else numpy.ndim(item)
                obj = array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    axes = list(range(ndmin))
                    obj = obj.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
            objs.append(obj)
            types.append(item if scalar else obj.dtype)
        if types:
            final = numpy.result_type(*[t.dtype if isinstance(t, ndarray) else t for t in types])
            objs = [array(o, copy=None, ndmin=ndmin, dtype=final) for o in objs]
        res = concatenate(tuple(objs), axis=axis)
        if matrix:
            # NumPy returns a matrix (2-d); kumo returns the 2-d array.
            res = res.reshape((1, -1)) if res.ndim == 1 else res
            if col:
                res = res.T
        return res

    def __len__(self):
        return 0


r_ = _AxisConcatenator(0)
c_ = _AxisConcatenator(-1, ndmin=2, trans1d=0)


class _GridMaker:
    """mgrid (dense) and ogrid (sparse, open) grids from slices; a complex
    step is a number of points with the stop included."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            step = key.step
            if _is_complex_step(step):
                n = int(abs(step))
                typ = numpy.result_type(start, key.stop, abs(step))
                step = (key.stop - start) / float(n - 1) if n != 1 else n
                return arange(0, n, 1, dtype=typ) * step + start
            return arange(start, key.stop, step)
        size, nums = [], [0]
        for k in key:
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if _is_complex_step(step):
                step = abs(step)
                size.append(int(step))
            else:
                size.append(math.ceil((k.stop - start) / step))
            nums += [start, k.stop, step]
        typ = numpy.result_type(*nums)
        if self.sparse:
            nn = [arange(n, dtype=typ) for n in size]
        else:
            nn = indices(size, typ)
        out = []
        for k, kk in enumerate(key):
            start = 0 if kk.start is None else kk.start
            step = 1 if kk.step is None else kk.step
            if _is_complex_step(step):
                step = int(abs(step))
                if step != 1:
                    step = (kk.stop - start) / float(step - 1)
            v = nn[k] * step + start
            if not self.sparse:
                v = v.astype(typ, copy=False)
            out.append(v)
        if self.sparse:
            n = len(size)
            return tuple(o.reshape(tuple(size[k] if j == k else 1 for j in range(n))) for k, o in enumerate(out))
        return stack(out) if out else nn

    def __len__(self):
        return 0


mgrid = _GridMaker(False)
ogrid = _GridMaker(True)
# Pure index expressions, no arrays: NumPy's own objects build the same tuples.
s_ = numpy.s_
index_exp = numpy.index_exp

__all__ = ["reshape", "ravel", "transpose", "permute_dims", "swapaxes", "moveaxis", "rollaxis", "squeeze",
           "expand_dims", "broadcast_to", "broadcast_shapes", "broadcast_arrays", "atleast_1d", "atleast_2d",
           "atleast_3d", "concatenate", "stack", "vstack", "hstack", "indices", "repeat", "concat", "dstack",
           "column_stack", "row_stack", "block", "array_split", "split", "hsplit", "vsplit", "dsplit", "unstack",
           "tile", "flip", "fliplr", "flipud", "roll", "rot90", "resize", "append", "insert", "delete", "trim_zeros",
           "vander", "pad", "copyto", "require", "broadcast", "r_", "c_", "mgrid", "ogrid", "s_", "index_exp"]
