"""User-defined kernels with CuPy's interfaces."""
import numpy

from kumo import _core


def _options_list(options):
    if isinstance(options, str):
        return [options]
    return [str(o) for o in options]


class ElementwiseKernel:
    """An elementwise kernel in CUDA C++ (``T x, T y`` generic parameters,
    ``raw`` parameters, an operation snippet and a preamble). It runs on the
    current device: compiled by NVRTC for CUDA, by the host compiler on the CPU.

    ``loop_prep`` and ``after_loop`` run once per CUDA thread (on the host, once
    per chunk of elements a pool thread takes) before and after its loop over
    the elements; what ``loop_prep`` declares is visible to the operation.
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, loop_prep="", after_loop="", options=()):
        self._spec = _core._ElementwiseSpec(in_params, out_params, operation, name, preamble,
                                            _options_list(options), loop_prep, after_loop, bool(reduce_dims))
        self.name = name
        self.in_params = in_params
        self.out_params = out_params
        self.operation = operation
        self.preamble = preamble
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.reduce_dims = reduce_dims
        self.options = tuple(options) if not isinstance(options, str) else (options,)
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.nin = self._spec.nin
        self.nout = self._spec.nout
        self.nargs = self.nin + self.nout

    def __call__(self, *args, size=None, block_size=None, **kwargs):
        # block_size is a CUDA launch detail: the host runs chunks of its own size.
        if kwargs:
            raise TypeError("Wrong arguments %s" % ", ".join(kwargs))
        if size is not None and size < 0:
            raise ValueError("size must be non-negative (got %d)" % size)
        if block_size is not None and block_size <= 0:
            raise ValueError("block_size must be positive (got %d)" % block_size)
        res = self._spec(*args, size=size)
        if self.no_return:
            return None
        if isinstance(res, list):
            res = tuple(res)
        if self.return_tuple and not isinstance(res, tuple):
            return (res,)
        return res


def _reduce_type_name(reduce_type):
    if reduce_type is None or isinstance(reduce_type, str):
        return reduce_type
    return numpy.dtype(reduce_type).name  # a dtype or scalar type given as an object


class ReductionKernel:
    """A reduction kernel: ``post_map(reduce(map(inputs)))`` over axes.

    ``identity`` None means no identity: reducing an empty axis raises
    ValueError. ``map_expr`` sees ``_j``, the position within the reduction.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="", options=()):
        out_types = [p.split()[-2] for p in out_params.split(",") if p.strip()]
        reduce_type = _reduce_type_name(reduce_type)
        if reduce_type is None:
            reduce_type = out_types[0] if out_types else "T"
        self._spec = _core._ReductionSpec(in_params, out_params, map_expr, reduce_expr, post_map_expr,
                                          "" if identity is None else str(identity), name, reduce_type, preamble,
                                          _options_list(options))
        self.name = name
        self.in_params = in_params
        self.out_params = out_params
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = identity
        self.reduce_type = reduce_type
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options) if not isinstance(options, str) else (options,)

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None, **kwargs):
        # stream: work is ordered on the array's device already.
        if kwargs:
            raise TypeError("Wrong arguments %s" % ", ".join(kwargs))
        if out is not None:
            args = args + (out,)
        res = self._spec(*args, axis=axis, keepdims=keepdims)
        if isinstance(res, list):
            return tuple(res)
        return res
