"""User-defined kernels with CuPy's interfaces."""
from kumo import _core


class ElementwiseKernel:
    """An elementwise kernel in CUDA C++ (``T x, T y`` generic parameters,
    ``raw`` parameters, an operation snippet and a preamble). It runs on the
    current device: compiled by NVRTC for CUDA, by the host compiler on the CPU.
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, loop_prep="", after_loop="", options=()):
        if loop_prep or after_loop:
            operation = loop_prep + "\n" + operation + "\n" + after_loop
        self._spec = _core._ElementwiseSpec(in_params, out_params, operation, name, preamble, list(options))
        self.name = name
        self.in_params = in_params
        self.out_params = out_params
        self.operation = operation
        self.preamble = preamble
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.nin = self._spec.nin
        self.nout = self._spec.nout
        self.nargs = self.nin + self.nout

    def __call__(self, *args, size=None, block_size=None, **kwargs):
        if kwargs:
            raise TypeError("Wrong arguments %s" % ", ".join(kwargs))
        res = self._spec(*args, size=size)
        if self.no_return:
            return None
        if self.return_tuple and not isinstance(res, (tuple, list)):
            return (res,)
        if isinstance(res, list):
            return tuple(res)
        return res


class ReductionKernel:
    """A reduction kernel: ``post_map(reduce(map(inputs)))`` over axes."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="", options=()):
        out_types = [p.split()[-2] for p in out_params.split(",") if p.strip()]
        if reduce_type is None:
            reduce_type = out_types[0] if out_types else "T"
        self._spec = _core._ReductionSpec(in_params, out_params, map_expr, reduce_expr, post_map_expr,
                                          "" if identity is None else str(identity), name, reduce_type, preamble,
                                          list(options))
        self.name = name

    def __call__(self, *args, axis=None, keepdims=False, out=None, **kwargs):
        if out is not None:
            args = args + (out,)
        return self._spec(*args, axis=axis, keepdims=keepdims)
