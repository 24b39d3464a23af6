"""Raw CUDA C++ kernels with CuPy's interfaces (RawKernel, RawModule).

The same source runs on CUDA devices (NVRTC) and on the CPU: there the CUDA
dialect is emulated (threads of a block as fibers, blocks on kumo's thread
pool). Arrays are passed as data pointers, NumPy scalars with their dtype,
Python bool/int/float/complex as bool/int64/float64/complex128.
"""
from kumo import _core

__all__ = ["RawKernel", "RawModule"]

_BACKENDS = ("nvrtc", "nvcc")
_ATTRIBUTES = ("max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes", "num_regs",
               "ptx_version", "binary_version", "cache_mode_ca", "max_dynamic_shared_size_bytes",
               "preferred_shared_memory_carveout")


def _check_backend(backend):
    # "nvcc" is accepted for CuPy compatibility and compiled with NVRTC
    # (kumo does not run an external nvcc).
    if backend not in _BACKENDS:
        raise ValueError("backend must be 'nvrtc' or 'nvcc', got %r" % (backend,))


def _options(options):
    if isinstance(options, str):
        return [options]
    opts = list(options)
    for o in opts:
        if not isinstance(o, str):
            raise TypeError("compiler options must be strings, got %r" % (o,))
    return opts


def _stream_handle(stream):
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    ptr = getattr(stream, "ptr", None)
    if isinstance(ptr, int):
        return ptr
    raise TypeError("stream must be None, an int handle or a stream object with .ptr")


def _current_device():
    return _core.current_device_name()


class RawKernel:
    """A kernel from CUDA C++ source: ``RawKernel(code, name)`` then
    ``kernel(grid, block, args, shared_mem=0)``. ``name`` is an ``extern "C"``
    __global__ function of ``code`` (or a name expression of a RawModule)."""

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False, *,
                 enable_cooperative_groups=False, jitify=False, _module=None):
        _check_backend(backend)
        if not isinstance(name, str):
            raise TypeError("kernel name must be a str")
        self.code = code
        self.name = name
        self.options = tuple(_options(options))
        self.backend = backend
        self.translate_cucomplex = bool(translate_cucomplex)
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        # kumo's NVRTC and host compilers find the toolkit and system
        # headers themselves, so Jitify is accepted and has no effect.
        self.jitify = bool(jitify)
        if _module is None:
            if not isinstance(code, str):
                raise TypeError("code must be a str of CUDA C++ source")
            _module = _core._RawModule(code, list(self.options), [], self.translate_cucomplex,
                                       self.enable_cooperative_groups)
        self._module = _module

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        """Launches the kernel on the device of its array arguments."""
        if not isinstance(args, (tuple, list)):
            raise TypeError("args must be a tuple of kernel arguments, got %s" % type(args).__name__)
        if shared_mem < 0:
            raise ValueError("shared_mem must not be negative")
        self._module.launch(self.name, grid, block, tuple(args), int(shared_mem), _stream_handle(stream))

    def compile(self, log_stream=None):
        """Compiles for the current device now (otherwise the first call does)."""
        self._module.compile(_current_device())
        self._module.attributes(self.name, _current_device())  # the kernel must exist

    @property
    def attributes(self):
        """CUDA's function attributes on the current device. On the CPU the
        emulator's: max_threads_per_block 1024, max_dynamic_shared_size_bytes
        49152, and -1 for what only a GPU compiler knows (registers, PTX
        version, static sizes)."""
        return self._module.attributes(self.name, _current_device())

    def _set(self, attribute, value):
        self._module.set_attribute(self.name, _current_device(), attribute, int(value))


def _attribute_property(attr, settable=False):
    def get(self):
        return self.attributes[attr]

    def set_(self, value):
        self._set(attr, value)

    return property(get, set_ if settable else None, doc="The %s function attribute." % attr)


for _attr in _ATTRIBUTES:
    setattr(RawKernel, _attr,
            _attribute_property(_attr, _attr in ("max_dynamic_shared_size_bytes", "preferred_shared_memory_carveout")))
del _attr


class RawModule:
    """A module of CUDA C++ source (or, on CUDA devices only, a .cubin/.ptx
    file) whose kernels and globals are looked up by name."""

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        if (code is None) == (path is None):
            raise TypeError("Exactly one of `code` and `path` keyword arguments must be given.")
        _check_backend(backend)
        self.code = code
        self.path = path
        self.options = tuple(_options(options))
        self.backend = backend
        self.translate_cucomplex = bool(translate_cucomplex)
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        self.jitify = bool(jitify)
        if name_expressions is not None:
            name_expressions = list(name_expressions)
            for e in name_expressions:
                if not isinstance(e, str):
                    raise TypeError("name_expressions must be strings, got %r" % (e,))
        self.name_expressions = None if name_expressions is None else tuple(name_expressions)
        if path is not None:
            if name_expressions:
                raise ValueError("name_expressions can only be used with CUDA C++ source (code=...)")
            with open(path, "rb") as f:
                image = f.read()
            self._module = _core._RawModule.from_image(image)
        else:
            if not isinstance(code, str):
                raise TypeError("code must be a str of CUDA C++ source")
            self._module = _core._RawModule(code, list(self.options), list(name_expressions or ()),
                                            self.translate_cucomplex, self.enable_cooperative_groups)

    def get_function(self, name):
        """The kernel ``name``: an ``extern "C"`` kernel or a name expression."""
        kernel = RawKernel(self.code, name, self.options, self.backend, self.translate_cucomplex,
                           enable_cooperative_groups=self.enable_cooperative_groups, jitify=self.jitify,
                           _module=self._module)
        # Like CuPy, looking a function up loads it: an unknown name fails here.
        self._module.attributes(name, _current_device())
        return kernel

    def get_global(self, name, dtype=None, shape=None):
        """An array aliasing the __device__/__constant__ global ``name`` on
        the current device (uint8 over its bytes unless dtype/shape say)."""
        return self._module.get_global(name, _current_device(), dtype, shape)

    def get_texref(self, name):
        raise NotImplementedError("textures are not supported by kumo (texture reference %r)" % (name,))

    def compile(self, log_stream=None):
        """Compiles for the current device now."""
        self._module.compile(_current_device())
