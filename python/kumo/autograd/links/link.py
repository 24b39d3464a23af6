"""Parameter, Link, Chain, ChainList, Sequential (Chainer's ``chainer.Parameter``,
``chainer.Link``, ``chainer.Chain``, ``chainer.ChainList``, ``chainer.Sequential``).

A Parameter is a Python subclass of the C++ Variable: functions take it as
they take any Variable, and it adds what training needs (its initializer,
lazy initialization, the optimizer's update rule). A Link owns parameters and
persistent values; a Chain owns named child links, a ChainList a list of
them, a Sequential a list it calls in order (here, not in sequential.py,
since Link.repeat makes one). Paths such as ``'/l1/W'`` name them from the root.
"""
import contextlib
import copy as copy_module
import warnings

import numpy

from kumo import _core
from kumo import _creation
from kumo import _device
from kumo import _interop
from kumo._namespace import package
from kumo.autograd import initializers

_Variable = _core.autograd.Variable
_rebind = _core.autograd._links.rebind
_variable_array = _Variable.array  # the C++ property (Parameter overrides it)
_variable_grad = _Variable.grad


def _placeholder():
    # The C++ Variable needs an array; an uninitialized Parameter holds an
    # empty one that Parameter.array hides.
    return _creation.empty((0,), dtype=numpy.float32)


def _device_name(device):
    if device is None:
        return "cpu"
    if isinstance(device, int):
        return "cuda:%d" % device
    if isinstance(device, _device.Device):
        return device.name
    name = str(device)
    if name == "@numpy":
        return "cpu"
    if name.startswith("@cupy:"):
        return "cuda:" + name[len("@cupy:"):]
    return _device.Device(name).name


def _send(array, device_name):
    """array on the named device (itself when it is there already)."""
    if array is None or not isinstance(array, (_core.ndarray, numpy.ndarray)):
        return array
    return _creation.asarray(array, device=device_name)  # copies only across devices


def _variable_deepcopy(self, memo):
    # A link's deep copy (copy('copy'), repeat) also copies the Variables it
    # keeps (an LSTM's state, a Classifier's last loss): the copy holds its
    # own data and gradient, without the graph that made them.
    new = _Variable(self.array.copy(), requires_grad=self.requires_grad, name=self.name)
    if self.grad is not None:
        new.grad = self.grad.copy()
    memo[id(self)] = new
    return new


def _recover_variable(data, requires_grad, name, grad, device):
    with _device.Device(device):
        v = _Variable(_creation.asarray(data), requires_grad=requires_grad, name=name)
        if grad is not None:
            v.grad = _creation.asarray(grad)
    return v


def _variable_reduce(self):
    # Pickles a Variable (a link's state) through NumPy arrays, graph-free.
    grad = self.grad
    return _recover_variable, (_interop.asnumpy(self.array), self.requires_grad, self.name,
                               None if grad is None else _interop.asnumpy(grad), str(self.array.device))


if "__deepcopy__" not in _Variable.__dict__:
    _Variable.__deepcopy__ = _variable_deepcopy
if "__reduce__" not in _Variable.__dict__:
    _Variable.__reduce__ = _variable_reduce


class _Device(_device.Device):
    """The device of a link or parameter: a kumo.Device that also answers
    Chainer's device questions (``xp``, ``send``), which optimizers and
    updaters written against Chainer ask."""

    @property
    def xp(self):
        return package()  # the array module: kumo itself, on every device

    def send(self, arrays):
        """Arrays (or nested tuples, lists, dicts of them) on this device."""
        if isinstance(arrays, (tuple, list)):
            return type(arrays)(self.send(a) for a in arrays)
        if isinstance(arrays, dict):
            return {k: self.send(v) for k, v in arrays.items()}
        return _send(arrays, self.name)


class Parameter(_Variable):
    """A Variable that a link trains.

    ``Parameter(initializer=None, shape=None, name=None)``: ``initializer`` is
    an initializer, a scalar (filled with it), an array (which becomes the
    data, shape and dtype included) or None (NaN). Without ``shape`` (and not
    an array) the parameter stays uninitialized, its ``array`` None, until
    ``initialize(shape)``; a link calls that at its first forward, when the
    input shows the size. ``update_rule`` is set by an optimizer's setup;
    ``update()`` applies it. As in Chainer the gradient starts out NaN, to
    show a backward that was not preceded by ``cleargrads``.
    """

    def __init__(self, initializer=None, shape=None, name=None):
        if initializer is None:
            initializer = initializers.NaN()
        elif numpy.isscalar(initializer):
            initializer = initializers.Constant(initializer)
        self._initial_device = "cpu"
        self._grad_initializer = None
        if shape is None and isinstance(initializer, (_core.ndarray, numpy.ndarray)):
            data = initializer if isinstance(initializer, _core.ndarray) else _creation.asarray(initializer, device="cpu")
            super().__init__(data, requires_grad=True, name=name)
            self._initialized = True
            self._initial_device = str(data.device)
        elif shape is None:
            super().__init__(_placeholder(), requires_grad=True, name=name)
            self._initialized = False
            self._grad_initializer = initializers.NaN(getattr(initializer, "dtype", None))
        else:
            if isinstance(initializer, (_core.ndarray, numpy.ndarray)):
                initializer = initializers.Constant(initializer)
            # Created on the host, as Chainer creates parameters; to_device moves them.
            data = initializers.generate_array(initializer, shape, device="cpu")
            super().__init__(data, requires_grad=True, name=name)
            self._initialized = True
            self.grad = _creation.full_like(data, numpy.nan)
        self.update_rule = None
        self.initializer = initializer

    # The array is None while uninitialized; assigning an array of another
    # shape or dtype rebinds the parameter to a new C++ variable.
    @property
    def array(self):
        return _variable_array.__get__(self) if self._initialized else None

    @array.setter
    def array(self, value):
        if value is None:
            raise TypeError("Parameter.array cannot be set to None")
        if not isinstance(value, _core.ndarray):
            value = _creation.asarray(value, device=self._initial_device if not self._initialized else
                                 str(_variable_array.__get__(self).device))
        if self._initialized and tuple(value.shape) == tuple(self.shape) and value.dtype == self.dtype:
            _variable_array.__set__(self, value)
        else:
            _rebind(self, value)
            self._initialized = True

    data = array

    @property
    def grad(self):
        return _variable_grad.__get__(self) if self._initialized else None

    @grad.setter
    def grad(self, value):
        if not self._initialized and value is not None:
            raise RuntimeError("cannot set the gradient of an uninitialized parameter")
        _variable_grad.__set__(self, value)

    @property
    def is_initialized(self):
        return self._initialized

    @property
    def shape(self):
        if not self._initialized:
            # AttributeError as in Chainer (whose array is None then), so
            # hasattr(param, "shape") stays usable.
            raise AttributeError("the parameter is uninitialized: its shape is not known yet")
        return _Variable.shape.__get__(self)

    @property
    def size(self):
        return _Variable.size.__get__(self) if self._initialized else 0

    @property
    def ndim(self):
        return _Variable.ndim.__get__(self) if self._initialized else 0

    @property
    def dtype(self):
        if self._initialized:
            return _Variable.dtype.__get__(self)
        dtype = getattr(self.initializer, "dtype", None)
        if dtype is not None:
            return numpy.dtype(dtype)
        raise RuntimeError("Dtype of the parameter is not determined yet because it's uninitialized and dtype was "
                           "not explicitly given.")

    @property
    def device(self):
        return _Device(str(self.array.device) if self._initialized else self._initial_device)

    @property
    def xp(self):
        return package()

    def __len__(self):
        if not self._initialized:
            raise TypeError("len() of an uninitialized parameter")
        return _Variable.__len__(self)

    def initialize(self, shape):
        """Creates the array of ``shape`` with the initializer (on the device
        the parameter was sent to), and the gradient as ``cleargrad`` /
        ``zerograd`` left it: None, zeros or NaN."""
        shape = tuple(shape) if not isinstance(shape, int) else (shape,)
        if isinstance(self.initializer, (_core.ndarray, numpy.ndarray)):
            self.initializer = initializers.Constant(self.initializer)
        data = initializers.generate_array(self.initializer, shape, device=self._initial_device)
        grad = None
        if self._grad_initializer is not None:
            grad = initializers.generate_array(self._grad_initializer, shape, dtype=data.dtype,
                                               device=self._initial_device)
        _rebind(self, data)
        self._initialized = True
        _variable_grad.__set__(self, grad)

    def cleargrad(self):
        if self._initialized:
            _Variable.cleargrad(self)
        else:
            self._grad_initializer = None

    def zerograd(self):
        if self._initialized:
            _Variable.zerograd(self)
        else:
            self._grad_initializer = initializers.Zero(getattr(self.initializer, "dtype", None))

    def update(self):
        """Applies the update rule an optimizer set (nothing without one)."""
        if self.update_rule is not None:
            self.update_rule.update(self)

    def copydata(self, var):
        """Copies var's array into this parameter (initializing it to var's
        shape if needed), across devices."""
        src = var.array if hasattr(var, "array") else var
        if src is None:
            return
        if not self._initialized:
            self.initialize(src.shape)
        dst = self.array
        dst[...] = _send(src, str(dst.device))

    def addgrad(self, var):
        """Adds var's gradient into this parameter's (copying it if this one
        has none), across devices."""
        src = var.grad
        if src is None:
            return
        if not self._initialized:
            self.initialize(var.shape)
        src = _send(src, str(self.array.device))
        dst = self.grad
        self.grad = src.copy() if dst is None else dst + src

    def to_device(self, device):
        """Moves the array and gradient to ``device`` ('cpu', 'cuda', 'cuda:N',
        a kumo.Device or Chainer's '@numpy' / '@cupy:N')."""
        name = _device_name(device)
        with _device.Device(name):  # raises kumo's error where the device is unavailable
            pass
        self._initial_device = name
        if self._initialized:
            grad = self.grad
            data = _send(self.array, name)
            _rebind(self, data)
            _variable_grad.__set__(self, None if grad is None else _send(grad, name))
        return self

    def to_cpu(self):
        return self.to_device("cpu")

    def to_gpu(self, device=None):
        return self.to_device("cuda" if device is None else _device_name(device if not isinstance(device, int)
                                                                           else "cuda:%d" % device))

    def _clone(self, deep, memo=None):
        new = Parameter.__new__(Parameter)
        if self._initialized:
            data = self.array.copy() if deep else self.array
            _Variable.__init__(new, data, requires_grad=True, name=self.name)
        else:
            _Variable.__init__(new, _placeholder(), requires_grad=True, name=self.name)
        new._initialized = self._initialized
        new._initial_device = self._initial_device
        for key, value in self.__dict__.items():
            if key in ("_initialized", "_initial_device"):
                continue
            new.__dict__[key] = copy_module.deepcopy(value, memo) if deep else value
        if deep and self._initialized and self.grad is not None:
            new.grad = self.grad.copy()
        return new

    def __reduce__(self):
        # Pickles through NumPy arrays (the C++ variable itself is not
        # picklable); the gradient and the update rule come along.
        def host(a):
            return None if a is None else _interop.asnumpy(a)

        state = {k: v for k, v in self.__dict__.items() if k not in ("_initialized", "_initial_device")}
        return _recover_parameter, (host(self.array), self.name, host(self.grad), self._initial_device, state)

    def __copy__(self):
        # Shares the array (in-place updates show in both), not the gradient.
        return self._clone(False)

    def __deepcopy__(self, memo):
        new = self._clone(True, memo)
        memo[id(self)] = new
        return new

    def __repr__(self):
        if not self._initialized:
            return "variable %s(None)" % (self.name or "")
        return _Variable.__repr__(self)


def _recover_parameter(data, name, grad, device, state):
    p = Parameter.__new__(Parameter)
    if data is None:
        _Variable.__init__(p, _placeholder(), requires_grad=True, name=name)
        p._initialized = False
    else:
        with _device.Device(device):
            _Variable.__init__(p, _creation.asarray(data), requires_grad=True, name=name)
            p._initialized = True
            if grad is not None:
                p.grad = _creation.asarray(grad)
    p._initial_device = device
    p.__dict__.update(state)
    return p


def _is_array(x):
    return isinstance(x, (_core.ndarray, numpy.ndarray))


def _is_shape(value):
    if value is None or isinstance(value, (int, numpy.integer)):
        return True
    return isinstance(value, (tuple, list)) and all(isinstance(v, (int, numpy.integer)) for v in value)


class Link:
    """A block of parameters and persistent values with a ``forward``.

    Parameters are registered by assigning ``Parameter`` objects inside
    ``with self.init_scope():`` (or with ``add_param``), persistent values
    (saved by serializers, moved by ``to_device``) with ``add_persistent``.
    Calling the link calls ``forward``.
    """

    def __init__(self, **params):
        self._params = set()
        self._persistent = set()
        self._within_init_scope = False
        self.name = None
        self._device = "cpu"
        for name, value in params.items():
            # A shape (None, an int or ints) means float32; anything else is
            # a (shape, dtype) pair.
            shape, dtype = (value, numpy.float32) if _is_shape(value) else value
            self.add_param(name, shape, dtype=dtype)

    def _check_init_done(self):
        if "_params" not in self.__dict__:
            raise RuntimeError("Link.__init__() has not been called.")

    @property
    def within_init_scope(self):
        """True inside ``with self.init_scope():``."""
        return self.__dict__.get("_within_init_scope", False)

    @contextlib.contextmanager
    def init_scope(self):
        """Inside this block, Parameters assigned as attributes are registered
        (and, in a Chain, links as children)."""
        self._check_init_done()
        old = self.within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = old

    def __call__(self, *args, **kwargs):
        self._check_init_done()
        return self.forward(*args, **kwargs)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Parameter):
            value.name = name
            self._params.add(name)
            self._persistent.discard(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._params.discard(name)
        self._persistent.discard(name)
        object.__delattr__(self, name)

    @property
    def printable_specs(self):
        """(name, value) pairs that str(link) shows; links override it."""
        return iter(())

    def __str__(self):
        specs = ", ".join("{}={}".format(k, v) for k, v in self.printable_specs)
        return "{}({})".format(type(self).__name__, specs)

    def add_param(self, name, shape=None, dtype=numpy.float32, initializer=None):
        """Registers a Parameter ``name`` (uninitialized without ``shape``;
        NaN-filled without ``initializer``)."""
        if name in self.__dict__:
            raise AttributeError("cannot register a new parameter %s: attribute exists" % name)
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Registers ``value`` as the persistent attribute ``name``."""
        d = self.__dict__
        if name in d:
            raise AttributeError("cannot register a new persistent value %s: attribute exists" % name)
        self._persistent.add(name)
        self._params.discard(name)
        d[name] = value

    def register_persistent(self, name):
        """Makes the existing attribute ``name`` persistent."""
        if not hasattr(self, name):
            raise AttributeError("cannot register non-existent attribute %s as a persistent value" % name)
        self._persistent.add(name)
        self._params.discard(name)

    # -- copies -----------------------------------------------------------
    def copy(self, mode="share"):
        """A copy of the hierarchy: 'share' shares the parameters' arrays (not
        their gradients), 'copy' copies them, 'init' copies and re-initializes
        them. The copy has no name."""
        if mode == "share":
            ret = copy_module.copy(self)
            ret._params = set(self._params)
            ret._persistent = set(self._persistent)
            ret.name = None
            d = ret.__dict__
            for name in ret._params:
                d[name] = copy_module.copy(d[name])
                d[name].grad = None
            return ret
        if mode == "copy":
            return copy_module.deepcopy(self)
        if mode == "init":
            ret = copy_module.deepcopy(self)
            for param in ret.params(include_uninit=False):
                param.initialize(param.shape)
            return ret
        raise ValueError("The 'mode' argument should be either 'init', 'copy', or 'share'. But {} was given."
                         .format(mode))

    def __deepcopy__(self, memo):
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            new.__dict__[key] = copy_module.deepcopy(value, memo)
        return new

    # -- the hierarchy ----------------------------------------------------
    def params(self, include_uninit=True):
        """All parameters of the hierarchy (own ones first, by name)."""
        d = self.__dict__
        for name in sorted(self._params):
            if include_uninit or d[name].is_initialized:
                yield d[name]

    def namedparams(self, include_uninit=True):
        """(path, parameter) pairs, paths like '/W' relative to this link."""
        d = self.__dict__
        for name in sorted(self._params):
            if include_uninit or d[name].is_initialized:
                yield "/" + name, d[name]

    def links(self, skipself=False):
        """This link (unless skipself) and all links below it."""
        if not skipself:
            yield self

    def namedlinks(self, skipself=False):
        """(path, link) pairs, this link being '/'."""
        if not skipself:
            yield "/", self

    def children(self):
        """The direct child links."""
        return iter(())

    def copyparams(self, link, copy_persistent=True):
        """Copies the parameter arrays (and persistent values) of a link with
        the same structure into this one, across devices; not gradients."""
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            dst[name].copydata(src[name])
        if copy_persistent:
            for name in self._persistent:
                d, s = dst[name], src[name]
                if isinstance(d, _core.ndarray) and _is_array(s):
                    d[...] = _send(s, str(d.device))
                else:
                    dst[name] = copy_module.deepcopy(s)

    def cleargrads(self):
        """Sets every parameter's gradient to None (before each backward)."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self):
        """Sets every parameter's gradient to zeros (deprecated: cleargrads)."""
        warnings.warn("Link.zerograds is deprecated. Use Link.cleargrads instead.", DeprecationWarning)
        for param in self.params():
            param.zerograd()

    def addgrads(self, link):
        """Adds the gradients of a link with the same structure to these."""
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            dst[name].addgrad(src[name])

    def enable_update(self):
        """Enables the update rules of all parameters."""
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = True

    def disable_update(self):
        """Disables the update rules of all parameters (freezes the link)."""
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = False

    @property
    def update_enabled(self):
        """True if some parameter has an enabled update rule."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None and rule.enabled:
                return True
        return False

    def count_params(self):
        """The number of parameter elements (uninitialized ones skipped with a warning)."""
        size = 0
        for name, param in self.namedparams():
            if not param.is_initialized:
                warnings.warn("Parameter '{}' has not been initialized, so the resulting count will not include the "
                              "number of parameters in it.".format(name))
                continue
            size += param.size
        return size

    def serialize(self, serializer):
        """Saves or loads the parameters by name and the persistent values;
        a Chain adds its children as ``serializer[name]``."""
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            data = serializer(name, param.array)
            if not param.is_initialized and data is not None:
                param.initialize(data.shape)
                param.array[...] = _send(_creation.asarray(data) if isinstance(data, numpy.ndarray) else data,
                                         str(param.array.device))
        for name in sorted(self._persistent):
            d[name] = serializer(name, d[name])

    def repeat(self, n_repeat, mode="init"):
        """A Sequential of ``n_repeat`` copies of this link (``copy(mode)``)."""
        ret = Sequential()
        if n_repeat <= 0:
            return ret
        if mode not in ("init", "copy", "share"):
            raise ValueError("The 'mode' argument should be either 'init', 'copy', or 'share'. But {} was given."
                             .format(mode))
        for _ in range(n_repeat):
            ret.append(self.copy(mode))
        return ret

    # -- devices ----------------------------------------------------------
    @property
    def device(self):
        """The kumo.Device the link's arrays live on."""
        return _Device(self.__dict__.get("_device", "cpu"))

    @property
    def xp(self):
        return package()

    def to_device(self, device):
        """Moves every parameter and persistent array of the hierarchy to
        ``device`` ('cpu', 'cuda', 'cuda:N', a kumo.Device); returns self."""
        name = _device_name(device)
        with _device.Device(name):  # kumo's error before anything moves where the device is unavailable
            pass
        for link in self.links():
            link._to_device_local(name)
        return self

    def _to_device_local(self, name):
        d = self.__dict__
        for pname in self._params:
            d[pname].to_device(name)
        for pname in self._persistent:
            if _is_array(d[pname]):
                d[pname] = _send(d[pname], name)
        d["_device"] = name

    def to_cpu(self):
        return self.to_device("cpu")

    def to_gpu(self, device=None):
        """Moves the link to a CUDA device (the current one, or ``device``);
        kumo's error where CUDA is unavailable."""
        return self.to_device("cuda" if device is None else ("cuda:%d" % device if isinstance(device, int)
                                                              else device))


def _tree_str(link, named_children):
    """'Cls(\n  (name): child,\n ...)' with nested children indented."""
    lines = []
    for name, child in named_children:
        for line in "({}): {},".format(name, child).splitlines():
            lines.append("  " + line + "\n")
    body = "".join(lines)
    return "{}({})".format(type(link).__name__, "\n" + body if body else "")


class Chain(Link):
    """A link whose child links are attributes registered in
    ``init_scope`` (or with ``add_link``)."""

    def __init__(self, **links):
        super().__init__()
        self._children = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __getitem__(self, name):
        return getattr(self, name)

    def __str__(self):
        return _tree_str(self, ((child.name, child) for child in self.children()))

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError("cannot register a new link %s: attribute exists" % name)
            value.name = name
            self._children.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name, link):
        """Registers ``link`` as the child ``name``."""
        if name in self.__dict__:
            raise AttributeError("cannot register a new link %s: attribute exists" % name)
        if not isinstance(link, Link):
            raise TypeError("cannot register a non-link object as a child")
        with self.init_scope():
            setattr(self, name, link)

    def copy(self, mode="share"):
        ret = super().copy(mode)
        ret._children = set(ret._children)
        d = ret.__dict__
        for name in ret._children:
            child = d[name].copy(mode)
            child.name = name
            d[name] = child
        return ret

    def params(self, include_uninit=True):
        yield from super().params(include_uninit)
        d = self.__dict__
        for name in sorted(self._children):
            yield from d[name].params(include_uninit)

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        d = self.__dict__
        for name in sorted(self._children):
            for path, param in d[name].namedparams(include_uninit):
                yield "/" + name + path, param

    def links(self, skipself=False):
        if not skipself:
            yield self
        d = self.__dict__
        for name in sorted(self._children):
            yield from d[name].links()

    def namedlinks(self, skipself=False):
        if not skipself:
            yield "/", self
        d = self.__dict__
        for name in sorted(self._children):
            child = d[name]
            yield "/" + name, child
            for path, link in child.namedlinks(True):
                yield "/" + name + path, link

    def children(self):
        d = self.__dict__
        for name in sorted(self._children):
            yield d[name]

    def copyparams(self, link, copy_persistent=True):
        super().copyparams(link, copy_persistent)
        src, dst = link.__dict__, self.__dict__
        for name in self._children:
            dst[name].copyparams(src[name], copy_persistent)

    def addgrads(self, link):
        super().addgrads(link)
        src, dst = link.__dict__, self.__dict__
        for name in self._children:
            dst[name].addgrads(src[name])

    def serialize(self, serializer):
        super().serialize(serializer)
        d = self.__dict__
        for name in sorted(self._children):
            d[name].serialize(serializer[name])


class ChainList(Link):
    """A link whose child links form a list (``append``, indexing, ``len``);
    their paths are '/0', '/1', ..."""

    def __init__(self, *links):
        super().__init__()
        self._children = []
        for link in links:
            self.add_link(link)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            raise TypeError('cannot register a new link within a "with chainlist.init_scope():" block.')
        super().__setattr__(name, value)

    def __setitem__(self, index, value):
        if isinstance(index, int):
            value.name = str(index)
            self._children[index] = value
        elif isinstance(index, slice):
            self._children[index] = value
            for i, c in enumerate(self._children):
                c.name = str(i)
        else:
            raise TypeError("ChainList indices must be integers or slices, not %s" % type(index).__name__)

    def __getitem__(self, index):
        return self._children[index]

    def __str__(self):
        return _tree_str(self, ((str(i), child) for i, child in enumerate(self._children)))

    def __delitem__(self, index):
        del self._children[index]
        for i, c in enumerate(self._children):
            c.name = str(i)

    def insert(self, index, link):
        """Inserts ``link`` before ``index`` (renaming the ones after it)."""
        if index == len(self._children):
            self._children.append(link)
            link.name = str(index)
        else:
            self._children.insert(index, link)
            for i, c in enumerate(self._children):
                c.name = str(i)

    def append(self, link):
        self.insert(len(self._children), link)

    def extend(self, links):
        for link in links:
            self.append(link)

    def pop(self, index=-1):
        link = self._children[index]
        del self[index]
        return link

    def index(self, link):
        return self._children.index(link)

    def __contains__(self, link):
        return link in self._children

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def add_link(self, link):
        """Appends ``link``."""
        self.append(link)

    def copy(self, mode="share"):
        ret = super().copy()
        ret._children = list(ret._children)
        for i, child in enumerate(ret._children):
            child = child.copy(mode)
            child.name = str(i)
            ret._children[i] = child
        return ret

    def params(self, include_uninit=True):
        yield from super().params(include_uninit)
        for link in self._children:
            yield from link.params(include_uninit)

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        for idx, link in enumerate(self._children):
            for path, param in link.namedparams(include_uninit):
                yield "/%d%s" % (idx, path), param

    def links(self, skipself=False):
        if not skipself:
            yield self
        for child in self._children:
            yield from child.links()

    def namedlinks(self, skipself=False):
        if not skipself:
            yield "/", self
        for idx, child in enumerate(self._children):
            prefix = "/%d" % idx
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        return iter(list(self._children))

    def copyparams(self, link, copy_persistent=True):
        super().copyparams(link, copy_persistent)
        for idx, child in enumerate(self._children):
            child.copyparams(link._children[idx], copy_persistent)

    def addgrads(self, link):
        super().addgrads(link)
        for idx, child in enumerate(self._children):
            child.addgrads(link._children[idx])

    def serialize(self, serializer):
        super().serialize(serializer)
        for idx, child in enumerate(self._children):
            child.serialize(serializer["%d" % idx])


class Sequential(ChainList):
    """``Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))``: calling it
    applies the layers in order (a tuple result is unpacked into the next
    layer's arguments)."""

    def __init__(self, *layers):
        super().__init__()
        self._layers = []
        for layer in layers:
            self.append(layer)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __setitem__(self, i, layer):
        if i >= len(self):
            raise ValueError("{} should be less than {}".format(i, len(self)))
        if not callable(layer):
            raise ValueError("All elements of a Sequential class should be callable. But given {} is not callable."
                             .format(layer))
        if self._layers[i] is not layer:
            del self[i]
            self.insert(i, layer)

    def __delitem__(self, i):
        layer = self._layers.pop(i)
        if isinstance(layer, Link):
            self._children = [c for c in self._children if c is not layer]
            self._rename()

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, item):
        return item in self._layers

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add (+) operator supports only objects of Sequential class, but {} is given."
                             .format(str(type(other))))
        ret = Sequential()
        for layer in list(self) + list(other):
            ret.append(layer)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add (+) operator supports only objects of Sequential class, but {} is given."
                             .format(str(type(other))))
        for layer in list(other):
            self.append(layer)
        return self

    def forward(self, *x):
        if not self._layers:
            raise RuntimeError("Sequential does not have any layer.")
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def __str__(self):
        lines = "".join("  ({}): {},\n".format(i, getattr(layer, "__name__", None) or str(layer))
                        for i, layer in enumerate(self))
        return "{}({})".format(type(self).__name__, "\n" + lines if lines else "")

    def _rename(self):
        for i, link in enumerate(self._children):
            link.name = str(i)

    def append(self, layer):
        self.insert(len(self), layer)

    def extend(self, sequential):
        for layer in list(sequential):
            self.append(layer)

    def insert(self, i, layer):
        n = len(self._layers)
        if not -n <= i < n + 1:
            raise IndexError("Index out of range: {}".format(i))
        if i < 0:
            i += n
        if not callable(layer):
            raise ValueError("All elements of the argument should be callable. But given {} is not callable."
                             .format(layer))
        self._layers.insert(i, layer)
        if isinstance(layer, Link):
            # The children keep the order of the links among the layers.
            position = sum(1 for x in self._layers[:i] if isinstance(x, Link))
            self._children.insert(position, layer)
            self._rename()

    def remove(self, layer):
        if layer not in self:
            raise ValueError("There is no layer object that is same as {}".format(layer))
        del self[self.index(layer)]

    def remove_by_layer_type(self, type_name):
        for layer in list(self):
            if _type_name(layer) == type_name:
                self.remove(layer)

    def pop(self, i=-1):
        layer = self._layers[i]
        del self[i]
        return layer

    def clear(self):
        self._children = []
        self._layers = []

    def index(self, layer, start=None, end=None):
        return self._layers[start:end].index(layer)

    def count(self, layer):
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name):
        return sum(1 for layer in self._layers if _type_name(layer) == type_name)

    def copy(self, mode="share"):
        ret = Sequential()
        for layer in self:
            ret.append(layer.copy(mode) if isinstance(layer, Link) else copy_module.copy(layer))
        return ret

    def copyparams(self, link, copy_persistent=True):
        if not isinstance(link, Sequential):
            raise ValueError("Objects other than Sequential object cannot be copied to a Sequential object.")
        for idx, child in enumerate(self):
            if isinstance(child, Link):
                child.copyparams(link[idx], copy_persistent)

    def flatten(self):
        """The layers of nested Sequentials spliced into one."""
        ret = Sequential()
        for layer in self:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret


def _type_name(layer):
    return type(layer).__name__ if isinstance(layer, Link) else getattr(layer, "__name__", None)
