"""Routines that call Python functions over kumo arrays: apply_along_axis,
apply_over_axes, piecewise and vectorize.

The calls themselves are Python; the arrays they receive and the results are
kumo arrays on the input's device. vectorize without a signature calls its
function once per element, which is Python-speed work by nature: the inputs
are read on the host and the results copied back to the device.
"""
import functools
import re

import numpy

from kumo import _core
from kumo._creation import asarray, zeros, zeros_like
from kumo._manipulation import broadcast_to, concatenate, expand_dims, stack

ndarray = _core.ndarray


def _normalize_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    return axis % ndim


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = asarray(arr)
    nd = arr.ndim
    axis = _normalize_axis(axis, nd)
    # The iterated axis goes last, so each call sees view[index].
    order = [d for d in range(nd) if d != axis] + [axis]
    view = arr.transpose(order)
    outer = view.shape[:-1]
    indices = numpy.ndindex(*outer)
    try:
        first = next(indices)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = asarray(func1d(view[first], *args, **kwargs))
    buff = zeros(outer + res.shape, dtype=res.dtype)
    buff[first] = res
    for ind in indices:
        buff[ind] = asarray(func1d(view[ind], *args, **kwargs))
    # The result's own dimensions take the place of the iterated axis.
    n_outer, n_res = len(outer), res.ndim
    dims = list(range(buff.ndim))
    perm = dims[:axis] + dims[n_outer:n_outer + n_res] + dims[axis:n_outer]
    return buff.transpose(perm)


def apply_over_axes(func, a, axes):
    val = asarray(a)
    N = val.ndim
    if numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
            val = res
    return val


def _conditions(condlist, x):
    if isinstance(condlist, ndarray):
        return condlist.astype(bool)
    if all(isinstance(c, ndarray) for c in condlist):
        return stack([c.astype(bool) for c in condlist])
    return asarray(numpy.asarray([numpy.asarray(c) if not isinstance(c, ndarray) else c.get()
                                  for c in condlist], dtype=bool))


def piecewise(x, condlist, funclist, *args, **kw):
    x = asarray(x)
    n2 = len(funclist)
    if isinstance(condlist, (ndarray, numpy.ndarray)):
        # An array of conditions is a list of them only when it has a dimension more.
        nested = condlist.ndim >= 2
    else:
        nested = not numpy.isscalar(condlist) and isinstance(condlist[0], (list, numpy.ndarray, ndarray)) \
            and numpy.ndim(condlist[0]) > 0
    if numpy.isscalar(condlist) or (not nested and x.ndim != 0):
        condlist = [condlist]
    conds = _conditions(condlist, x)
    n = len(conds)
    if n == n2 - 1:
        otherwise = ~(conds.any(axis=0, keepdims=True))
        conds = concatenate([conds, otherwise], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


# ---- vectorize -------------------------------------------------------------------------

_DIM = r"\w+"
_CORE = r"\((?:{0}(?:,{0})*)?\)".format(_DIM)
_ARGS = r"{0}(?:,{0})*".format(_CORE)
_SIGNATURE = r"^{0}->{0}$".format(_ARGS)


def _parse_signature(signature):
    sig = re.sub(r"\s+", "", signature)
    if not re.match(_SIGNATURE, sig):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = sig.split("->")
    parse = lambda part: [tuple(re.findall(_DIM, arg)) for arg in re.findall(_CORE, part)]  # noqa: E731
    return parse(ins), parse(outs)


def _otypes_string(otypes):
    if otypes is None:
        return None
    if isinstance(otypes, str):
        for char in otypes:
            if char not in numpy.typecodes["All"]:
                raise ValueError(f"Invalid otype specified: {char}")
        return otypes
    if numpy.iterable(otypes):
        return "".join(numpy.dtype(t).char for t in otypes)
    raise ValueError("Invalid otype specification")


class vectorize:
    """numpy.vectorize over kumo arrays: calls ``pyfunc`` per element (or per
    core-dimension block with ``signature``) and returns kumo arrays."""

    def __init__(self, pyfunc=numpy._NoValue, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if pyfunc is not numpy._NoValue and not callable(pyfunc):
            # The decorator form passes options only; a positional non-callable is an error.
            raise TypeError("pyfunc must be callable when given")
        self.pyfunc = pyfunc
        self.cache = cache
        self.signature = signature
        self.otypes = _otypes_string(otypes)
        self.excluded = set(excluded) if excluded is not None else set()
        self._in_and_out_core_dims = _parse_signature(signature) if signature is not None else None
        if pyfunc is not numpy._NoValue and callable(pyfunc):
            self.__doc__ = pyfunc.__doc__ if doc is None else doc
            functools.update_wrapper(self, pyfunc, assigned=("__name__", "__qualname__", "__module__"), updated=())
        else:
            self.__doc__ = doc

    def _device_of(self, args):
        for a in args:
            if isinstance(a, ndarray):
                return a.device
        return None

    def __call__(self, *args, **kwargs):
        if self.pyfunc is numpy._NoValue:
            # Decorator with options: @vectorize(otypes=...).
            self.__init__(args[0], otypes=self.otypes, doc=self.__doc__, excluded=self.excluded, cache=self.cache,
                          signature=self.signature)
            return self
        excluded = self.excluded
        if not kwargs and not excluded:
            func, vargs = self.pyfunc, list(args)
        else:
            # Only the arguments not excluded are vectorized; the others are
            # bound into the function as they are.
            nargs = len(args)
            names = [k for k in kwargs if k not in excluded]
            inds = [i for i in range(nargs) if i not in excluded and str(i) not in excluded]
            the_args = list(args)

            def func(*vargs):
                for n, i in enumerate(inds):
                    the_args[i] = vargs[n]
                kwargs.update(zip(names, vargs[len(inds):]))
                return self.pyfunc(*the_args, **kwargs)

            vargs = [args[i] for i in inds] + [kwargs[k] for k in names]
        if self.signature is not None:
            return self._call_with_signature(func, vargs)
        return self._call_elementwise(func, vargs)

    # -- elementwise --
    def _call_elementwise(self, func, vargs):
        device = self._device_of(vargs)
        if not vargs:
            return _to_kumo(numpy.asarray(func()), device)
        host = [numpy.asarray(a.get() if isinstance(a, ndarray) else a) for a in vargs]
        host = numpy.broadcast_arrays(*host)
        shape = host[0].shape
        size = host[0].size
        otypes = self.otypes
        first = None
        if not otypes:
            if size == 0:
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            first_args = [h.flat[0] for h in host]
            first = func(*first_args)
            if isinstance(first, tuple):
                otypes = "".join(numpy.asarray(o).dtype.char for o in first)
            else:
                otypes = numpy.asarray(first).dtype.char
        nout = len(otypes)
        outs = [numpy.empty(shape, dtype=object) for _ in range(nout)]
        flat_in = [h.ravel() for h in host]
        for i in range(size):
            if i == 0 and first is not None and self.cache:
                r = first
            else:
                r = func(*[f[i] for f in flat_in])
            if nout == 1:
                outs[0].flat[i] = r
            else:
                if not isinstance(r, tuple) or len(r) != nout:
                    raise ValueError("function returned a different number of outputs than otypes")
                for o, v in zip(outs, r):
                    o.flat[i] = v
        results = [_to_kumo(o.astype(numpy.dtype(t)), device) for o, t in zip(outs, otypes)]
        return results[0] if nout == 1 else tuple(results)

    # -- generalized (signature) --
    def _call_with_signature(self, func, vargs):
        input_core_dims, output_core_dims = self._in_and_out_core_dims
        if len(vargs) != len(input_core_dims):
            raise TypeError("wrong number of positional arguments: expected %r, got %r"
                            % (len(input_core_dims), len(vargs)))
        arrays = [asarray(a) for a in vargs]
        device = self._device_of(arrays)
        dim_sizes = {}
        loop_shapes = []
        for arr, core in zip(arrays, input_core_dims):
            nc = len(core)
            if arr.ndim < nc:
                raise ValueError("%d-dimensional argument does not have enough dimensions for all core dimensions %r"
                                 % (arr.ndim, core))
            for dim, size in zip(core, arr.shape[arr.ndim - nc:]):
                if dim in dim_sizes and dim_sizes[dim] != size:
                    raise ValueError("inconsistent size for core dimension %r: %r vs %r"
                                     % (dim, size, dim_sizes[dim]))
                dim_sizes.setdefault(dim, size)
            loop_shapes.append(arr.shape[:arr.ndim - nc])
        broadcast_shape = numpy.broadcast_shapes(*loop_shapes)
        arrays = [broadcast_to(arr, broadcast_shape + arr.shape[arr.ndim - len(core):])
                  for arr, core in zip(arrays, input_core_dims)]
        otypes = self.otypes
        nout = len(output_core_dims)
        if otypes is not None and len(otypes) != nout:
            raise ValueError("wrong number of outputs from pyfunc: expected %r, got %r" % (len(otypes), nout))
        outputs = None
        for index in numpy.ndindex(*broadcast_shape):
            results = func(*(arr[index] for arr in arrays))
            n_results = len(results) if isinstance(results, tuple) else 1
            if nout != n_results:
                raise ValueError("wrong number of outputs from pyfunc: expected %r, got %r" % (nout, n_results))
            if nout == 1:
                results = (results,)
            results = [asarray(r) for r in results]
            if outputs is None:
                for r, core in zip(results, output_core_dims):
                    if r.ndim < len(core):
                        raise ValueError("%d-dimensional argument does not have enough dimensions for all core "
                                         "dimensions %r" % (r.ndim, core))
                    for dim, size in zip(core, r.shape[r.ndim - len(core):]):
                        if dim in dim_sizes and dim_sizes[dim] != size:
                            raise ValueError("inconsistent size for core dimension %r: %r vs %r"
                                             % (dim, size, dim_sizes[dim]))
                        dim_sizes.setdefault(dim, size)
                dtypes = otypes or "".join(numpy.dtype(r.dtype).char for r in results)
                outputs = [zeros(broadcast_shape + tuple(dim_sizes[d] for d in core), dtype=numpy.dtype(t))
                           for core, t in zip(output_core_dims, dtypes)]
            for out, r in zip(outputs, results):
                out[index] = r
        if outputs is None:
            if otypes is None:
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            for core in output_core_dims:
                for d in core:
                    if d not in dim_sizes:
                        raise ValueError("cannot call `vectorize` with a signature including new output "
                                         "dimensions on size 0 inputs")
            outputs = [zeros(broadcast_shape + tuple(dim_sizes[d] for d in core), dtype=numpy.dtype(t))
                       for core, t in zip(output_core_dims, otypes)]
        return outputs[0] if nout == 1 else tuple(outputs)


def _to_kumo(host, device):
    if device is None:
        return asarray(host)
    with device:
        return asarray(host)


__all__ = ["apply_along_axis", "apply_over_axes", "piecewise", "vectorize"]
