"""Chainer's optimizer object model (Hyperparameter, UpdateRule, Optimizer,
GradientMethod) over Kumo's fused multi-tensor engine.

Parameters whose update rule is a built-in one, enabled, without rule-level
hooks and with equal hyperparameters, dtype, device and step count form a
group; each group is updated by ONE engine launch per pass (hooks, loss-scale
division, the rule). Groups are cached and rebuilt only when something that
shapes them changes (a hyperparameter, ``enabled``, ``t``, a state entry, the
parameter list), so the hot path collects arrays and launches. Anything else
(a custom rule, a rule with its own hooks) falls back to ``param.update()``.
"""

import collections
import math
import warnings

from kumo import _core
from kumo import _creation
from kumo import _dtypes
from kumo import _manipulation
from kumo.autograd import serializer as _serializer_module

_engine = _core.optimizers

# Bumped by every change that can reshape the fused groups.
_version = [0]


def _bump():
    _version[0] += 1


class Hyperparameter:
    """A set of hyperparameters; missing attributes come from the parent."""

    def __init__(self, parent=None):
        object.__setattr__(self, "_parent", parent)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        parent = object.__getattribute__(self, "_parent")
        if parent is None:
            raise AttributeError("Hyperparameter has no attribute '{}'".format(name))
        return getattr(parent, name)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        _bump()

    def __delattr__(self, name):
        object.__delattr__(self, name)
        _bump()

    def __repr__(self):
        d = self.get_dict()
        keys = sorted(d.keys())
        return "Hyperparameter({})".format(", ".join("{}={}".format(k, d[k]) for k in keys))

    @property
    def parent(self):
        return self._parent

    def get_dict(self):
        """The entries of this object and its ancestors (nearest wins)."""
        d = {} if self._parent is None else self._parent.get_dict()
        for k, v in self.__dict__.items():
            if k != "_parent":
                d[k] = v
        return d


class _StateDict(dict):
    """A rule's state: replacing an entry invalidates the fused groups."""

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        _bump()

    def __delitem__(self, key):
        dict.__delitem__(self, key)
        _bump()


class _Hookable:
    def __init__(self):
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()

    def add_hook(self, hook, name, timing):
        if not callable(hook):
            raise TypeError("hook function must be callable")
        if timing not in ("pre", "post", "auto"):
            raise ValueError("timing must be one of ('pre', 'post', 'auto')")
        if timing == "auto":
            timing = getattr(hook, "timing", "pre")
            if timing not in ("pre", "post"):
                warnings.warn("Hook timing attribute not in ('pre', 'post'), defaulting timing to 'pre'.")
                timing = "pre"
        if name is None:
            name = getattr(hook, "name", getattr(hook, "__name__", None))
            if name is None:
                raise ValueError("the name of the hook function is not specified")
        if name in self._pre_update_hooks or name in self._post_update_hooks:
            raise KeyError('hook "{}" already exists'.format(name))
        (self._pre_update_hooks if timing == "pre" else self._post_update_hooks)[name] = hook
        _bump()

    def remove_hook(self, name):
        try:
            del self._pre_update_hooks[name]
        except KeyError:
            del self._post_update_hooks[name]
        _bump()

    def hooks(self, timing):
        if timing == "pre":
            return self._pre_update_hooks
        if timing == "post":
            return self._post_update_hooks
        raise ValueError("timing must be either 'pre' or 'post'")


class UpdateRule:
    """The update of one parameter: hyperparameters, state, step count.

    Built-in rules set ``_rule`` (the engine's rule number); their
    ``update_core`` runs the engine on one tensor, and the optimizer runs many
    of them at once when it can.
    """

    _rule = None
    is_elementwise = True

    def __init__(self, parent_hyperparam=None):
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self._tc = [0]
        self._state = None
        self._enabled = True
        self._hookable = _Hookable()
        self._use_fp32_update = False
        self._fp32_array = None

    # -- counters and flags that shape the fused groups --
    @property
    def t(self):
        return self._tc[0]

    @t.setter
    def t(self, value):
        self._tc = [int(value)]
        _bump()

    @property
    def enabled(self):
        return self._enabled

    @enabled.setter
    def enabled(self, value):
        self._enabled = bool(value)
        _bump()

    @property
    def state(self):
        return self._state

    def add_hook(self, hook, name=None, timing="auto"):
        self._hookable.add_hook(hook, name, timing)

    def remove_hook(self, name):
        self._hookable.remove_hook(name)

    def use_fp32_update(self, flag=True):
        self._use_fp32_update = flag
        _bump()

    # -- state --
    def _state_names(self):
        return list(_engine.state_names(self._rule, self.hyperparam.get_dict()))

    def init_state(self, param):
        """Creates the state arrays for `param` (zeros; SMORMS3's mem ones)."""
        like = param.array
        for i, name in enumerate(self._state_names()):
            ones = self._rule == 8 and i == 0
            self._state[name] = (_creation.ones_like if ones else _creation.zeros_like)(like)

    def _init_states(self, param):
        if self._state is None:
            self._state = _StateDict()
            self.init_state(param)
        else:
            # A rule switched to amsgrad later gets its extra state.
            names = self._state_names()
            missing = [n for n in names if n not in self._state]
            if missing:
                full = _StateDict()
                tmp, self._state = self._state, full
                self.init_state(param)
                for k, v in tmp.items():
                    full[k] = v

    def _working(self, param):
        """The array the rule updates: the float32 master of a float16 param."""
        a = param.array
        if a.dtype == _dtypes.float16:
            if self._fp32_array is None:
                self._fp32_array = a.astype(_dtypes.float32)
            return self._fp32_array
        return a

    def _scalars(self):
        return _engine.rule_scalars(self._rule, self.hyperparam.get_dict(), self.t, self._initial_alpha())

    def _initial_alpha(self):
        return getattr(self, "initial_alpha", 1.0)

    # -- the one-parameter path --
    def update(self, param):
        """Runs the hooks and updates `param` (Chainer's UpdateRule.update)."""
        if not self.enabled:
            return
        self._tc[0] += 1
        if param.array is None:
            return
        if param.grad is None:
            return
        half = param.array.dtype == _dtypes.float16
        view = _ParamView(param, self)
        loss_scale = getattr(param, "_loss_scale", None)
        if loss_scale is not None:
            view.grad /= loss_scale
        for hook in list(self._hookable.hooks("pre").values()):
            hook(self, view)
        self.update_core(view)
        for hook in list(self._hookable.hooks("post").values()):
            hook(self, view)
        if half:
            _manipulation.copyto(param.array, view.array, casting="unsafe")

    def update_core(self, param):
        """Updates ``param.array`` from ``param.grad`` with the fused engine."""
        if param.grad is None:
            return
        self._init_states(param)
        states = [[self._state[n]] for n in self._state_names()]
        _engine.multi_tensor_update(self._rule, [param.array], [param.grad], states, self._scalars())

    def serialize(self, serializer):
        """Saves or loads t and the state (keys as Chainer's: 't', 'm', ...)."""
        self.t = serializer("t", self.t)
        if self._state is None:
            if _is_deserializer(serializer):
                names = self._state_names()
                loaded = _StateDict()
                for key in names:
                    try:
                        value = serializer(key, None)
                    except KeyError:
                        if self.enabled:
                            raise
                        value = None
                    if value is None:
                        return
                    loaded[key] = _creation.asarray(value)
                self._state = loaded
        else:
            for key in list(self._state.keys()):
                value = serializer(key, self._state[key])
                if value is not None and value is not self._state[key]:
                    self._state[key] = _creation.asarray(value)


def _is_deserializer(serializer):
    try:  # Chainer's base classes, where kumo has them
        if isinstance(serializer, _serializer_module.Deserializer):
            return True
        if isinstance(serializer, _serializer_module.Serializer):
            return False
    except AttributeError:
        pass
    flag = getattr(serializer, "is_deserializer", None)
    if flag is not None:
        return bool(flag)
    return type(serializer).__name__.lower().find("deserializer") >= 0


class _ParamView:
    """What rules and hooks see of a parameter: the working array (float32
    master for float16) and its gradient in that dtype."""

    __slots__ = ("array", "grad", "update_rule", "name", "_loss_scale")

    def __init__(self, param, rule):
        self.array = rule._working(param)
        g = param.grad
        self.grad = g if g is None or g.dtype == self.array.dtype else g.astype(self.array.dtype)
        self.update_rule = rule
        self.name = getattr(param, "name", None)
        self._loss_scale = getattr(param, "_loss_scale", None)

    @property
    def data(self):
        return self.array

    @property
    def dtype(self):
        return self.array.dtype

    @property
    def shape(self):
        return self.array.shape

    @property
    def device(self):
        return self.array.device


class HyperparameterProxy:
    """An optimizer attribute that reads and writes its hyperparameter."""

    def __init__(self, attr_name):
        self._attr_name = attr_name
        self.__doc__ = "Alias to ``self.hyperparam.{}``".format(attr_name)

    def __get__(self, obj, type=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._attr_name, value)


class Optimizer:
    """Base of all optimizers (Chainer's Optimizer)."""

    target = None
    t = 0
    epoch = 0
    _loss_scale = None
    _loss_scale_max = 65504  # the largest float16
    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False
    use_auto_new_epoch = False
    _hookable = None

    def setup(self, link):
        """Sets the target (anything with ``params()``) and resets counters."""
        if not hasattr(link, "params"):
            raise TypeError("optimization target must be a link")
        self.target = link
        self.t = 0
        self.epoch = 0
        self._hookable = _Hookable()
        return self

    def update(self, lossfun=None, *args, **kwds):
        raise NotImplementedError

    def new_epoch(self, auto=False):
        if auto:
            if not self.use_auto_new_epoch:
                raise RuntimeError("invalid new_epoch call with auto=True.\n"
                                   "Fix the updater to set optimizer.use_auto_new_epoch = True.")
        elif self.use_auto_new_epoch:
            raise RuntimeError("duplicated new_epoch with the updater.\n"
                               "Pass auto_new_epoch=False to the updater or stop calling new_epoch "
                               "outside the updater.")
        self.epoch += 1

    def _check_set_up(self):
        if self._hookable is None:
            raise RuntimeError("Optimizer is not set up. Call `setup` method.")

    def add_hook(self, hook, name=None, timing="auto"):
        self._check_set_up()
        self._hookable.add_hook(hook, name, timing)

    def remove_hook(self, name):
        self._check_set_up()
        self._hookable.remove_hook(name)

    def call_hooks(self, timing="pre"):
        self._check_set_up()
        for hook in list(self._hookable.hooks(timing).values()):
            self.call_hook(hook)

    def call_hook(self, hook):
        if getattr(hook, "call_for_each_param", False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer):
        """Saves or loads t, epoch and every update rule's state."""
        self.t = serializer("t", self.t)
        self.epoch = serializer("epoch", self.epoch)
        for name, param in _named_params(self.target):
            rule = getattr(param, "update_rule", None)
            if rule is not None:
                rule.serialize(serializer[name])

    # -- loss scaling (Chainer's, for float16 training) --
    def loss_scaling(self, interval=1000, scale=None):
        if scale is None:
            self._loss_scaling_is_dynamic = True
            if interval < 1:
                raise ValueError("interval must be greater than or equal to 1. Actual: {}".format(interval))
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            if scale <= 0:
                raise ValueError("loss_scale must be a positive number. Actual: {}".format(scale))
            self._loss_scale = scale

    def set_loss_scale(self, loss_scale):
        self.loss_scaling(scale=loss_scale)

    def check_nan_in_grads(self):
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        grads = [p.grad for p in self.target.params() if p.grad is not None]
        finite = True
        by_dtype = collections.defaultdict(list)
        for g in grads:
            by_dtype[(str(g.dtype), str(g.device))].append(g if g.dtype != _dtypes.float16 else g.astype(_dtypes.float32))
        for group in by_dtype.values():
            if not _engine.all_finite(group):
                finite = False
        if not finite:
            self._loss_scaling_isnan = True
            self._loss_scaling_isnan_ever = True
            warnings.warn("Non finite number found in param.grad (iteration: {}, loss_scale: {})".format(
                self.t, self._loss_scale))

    def is_safe_to_update(self):
        return not self._loss_scaling_isnan

    def update_loss_scale(self):
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(1, min(self._loss_scale_max, self._loss_scale * multiplier))


def _named_params(target):
    named = getattr(target, "namedparams", None)
    if named is not None:
        return list(named())
    return [("/" + (getattr(p, "name", None) or str(i)), p) for i, p in enumerate(target.params())]


class _Group:
    """Parameters updated together by one launch per pass."""

    __slots__ = ("rule", "rules", "params", "half", "states", "hp", "tcell", "initial_alpha")


class GradientMethod(Optimizer):
    """Base of the single-gradient optimizers; updates through fused groups."""

    def __init__(self):
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False
        self._groups_key = None
        self._groups = None
        self._fallback = None
        self._uninitialized = []

    def setup(self, link):
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        self._groups_key = None
        return self

    def create_update_rule(self):
        raise NotImplementedError

    def use_fp32_update(self, flag=True):
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                param.update_rule.use_fp32_update(flag)

    def reallocate_cleared_grads(self):
        for param in self.target.params():
            if param.grad is None and param.array is not None:
                param.grad = _creation.zeros_like(param.array)

    def call_hook(self, hook):
        super().call_hook(hook)
        self.reallocate_cleared_grads()

    def update(self, lossfun=None, *args, **kwds):
        """Computes gradients with `lossfun` if given, then updates every
        parameter: hooks, loss-scale division and the rule, fused per group."""
        scaled = False
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if getattr(self, "_use_cleargrads", True):
                self.target.cleargrads()
            else:
                self.target.zerograds()
            if self._loss_scale is not None:
                loss.grad = _creation.full(loss.shape, self._loss_scale, dtype=loss.dtype)
                scaled = True
                for p in self.target.params():
                    _set_loss_scale(p, self._loss_scale)
            loss.backward()
            del loss
        self.reallocate_cleared_grads()
        self.check_nan_in_grads()
        params = list(self.target.params())
        groups, fallback = self._fused_groups(params)
        # Working gradients per group (float32 copies for float16 params).
        works = []
        for g in groups:
            arrays = [r._fp32_array for r in g.rules] if g.half else [p.array for p in g.params]
            grads = [p.grad for p in g.params]
            if g.half:
                grads = [x.astype(_dtypes.float32) for x in grads]
            works.append((arrays, grads))
        self._call_pre_hooks(params, groups, works)
        self.t += 1
        if self.is_safe_to_update():
            for g, (arrays, grads) in zip(groups, works):
                g.tcell[0] += 1
                # Each gradient is divided by the scale its backward recorded
                # (Variable.backward(loss_scale=...), or the scaled backward above).
                scales = [self._loss_scale if scaled else getattr(p, "_loss_scale", None) for p in g.params]
                if scales and scales[0] is not None and all(x == scales[0] for x in scales):
                    _engine.multi_tensor_update(14, arrays, grads, [], [1.0 / scales[0]])
                else:
                    for grad, x in zip(grads, scales):
                        if x is not None:
                            grad /= x
                scalars = _engine.rule_scalars(g.rule, g.hp, g.tcell[0], g.initial_alpha)
                _engine.multi_tensor_update(g.rule, arrays, grads, g.states, scalars)
                if g.half:
                    for p, a in zip(g.params, arrays):
                        _manipulation.copyto(p.array, a, casting="unsafe")
            for p in fallback:
                if hasattr(p, "update"):
                    p.update()
                else:
                    p.update_rule.update(p)
        self.reallocate_cleared_grads()
        self.call_hooks("post")
        self.update_loss_scale()

    def _call_pre_hooks(self, params, groups, works):
        fused_ids = set()
        for g in groups:
            fused_ids.update(id(p) for p in g.params)
        for hook in list(self._hookable.hooks("pre").values()):
            fused = getattr(hook, "_fused_apply", None)
            if fused is not None:
                fused(self, groups, works)
                # Parameters outside the groups get the per-parameter form.
                if getattr(hook, "call_for_each_param", False):
                    for p in params:
                        if id(p) not in fused_ids:
                            hook(p.update_rule, p)
                continue
            if getattr(hook, "call_for_each_param", False):
                for g, (arrays, grads) in zip(groups, works):
                    for p, a, gr in zip(g.params, arrays, grads):
                        hook(p.update_rule, _WorkView(p, a, gr))
                for p in params:
                    if id(p) not in fused_ids:
                        hook(p.update_rule, p)
            else:
                hook(self)
            self.reallocate_cleared_grads()

    def _fused_groups(self, params):
        key = (tuple(map(id, params)), _version[0])
        # A parameter initialised lazily (at the first forward) joins its group then.
        if key == self._groups_key and all(p.array is None for p in self._uninitialized):
            return self._groups, self._fallback
        groups = collections.OrderedDict()
        fallback = []
        self._uninitialized = []
        for p in params:
            rule = getattr(p, "update_rule", None)
            if rule is None:
                continue
            if p.array is None:
                self._uninitialized.append(p)
                continue
            if not rule.enabled:
                continue
            if (rule._rule is None or type(rule).update_core is not UpdateRule.update_core
                    or type(rule).update is not UpdateRule.update or rule._hookable.hooks("pre")
                    or rule._hookable.hooks("post")):
                fallback.append(p)
                rule._tc = [rule.t]  # steps on its own from now on
                continue
            hp = rule.hyperparam.get_dict()
            half = p.array.dtype == _dtypes.float16
            k = (type(rule), rule._rule, tuple(sorted(hp.items())), str(p.array.dtype), str(p.array.device), rule.t,
                 getattr(rule, "initial_alpha", 1.0))
            g = groups.get(k)
            if g is None:
                g = _Group()
                g.rule, g.rules, g.params, g.half, g.hp = rule._rule, [], [], half, hp
                g.tcell = [rule.t]
                g.initial_alpha = getattr(rule, "initial_alpha", 1.0)
                groups[k] = g
            g.rules.append(rule)
            g.params.append(p)
        out = list(groups.values())
        for g in out:
            names = g.rules[0]._state_names()
            for r, p in zip(g.rules, g.params):
                view_like = r._working(p)
                r._init_states(_ArrayOnly(view_like))
            g.states = [[r._state[n] for r in g.rules] for n in names]
            for r in g.rules:
                r._tc = g.tcell  # the group's rules step together
        # Initialising states bumped the version: key on the settled one.
        self._groups_key = (key[0], _version[0])
        self._groups, self._fallback = out, fallback
        return out, fallback


class _ArrayOnly:
    __slots__ = ("array",)

    def __init__(self, a):
        self.array = a


class _WorkView:
    """A parameter as a per-parameter hook sees it inside a fused update."""

    __slots__ = ("array", "grad", "update_rule", "name", "_loss_scale")

    def __init__(self, p, a, g):
        self.array, self.grad, self.update_rule = a, g, p.update_rule
        self.name = getattr(p, "name", None)
        self._loss_scale = getattr(p, "_loss_scale", None)

    @property
    def data(self):
        return self.array

    @property
    def dtype(self):
        return self.array.dtype

    @property
    def shape(self):
        return self.array.shape


def _set_loss_scale(p, scale):
    try:
        p._loss_scale = scale
    except AttributeError:
        pass
