"""Normalization links (Chainer's ``chainer.links.BatchNormalization``,
``LayerNormalization``, ``GroupNormalization``)."""
import numpy

from kumo import _creation
from kumo.autograd import functions as F, initializers
from kumo.autograd._config import config
from kumo.autograd.links.link import Link, Parameter


def _highprec(dtype):
    # Chainer keeps the statistics and scale of half-precision inputs in
    # float32 ("mixed16" maps there); the default dtype is float32.
    dtype = numpy.dtype(numpy.float32 if dtype is None else dtype)
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


class BatchNormalization(Link):
    """Batch normalization with learned scale gamma and shift beta over the
    axes ``axis`` (default: all but the second, channel, axis).

    In train mode (``config.train``) it normalizes with the batch
    statistics and updates the running averages ``avg_mean`` / ``avg_var``
    (persistent) with ``decay``; ``finetune=True`` averages over all batches
    seen since ``start_finetuning`` instead (count ``N``). In test mode it
    normalizes with the running averages. ``size`` (or the shape at the first
    call) is the shape of the statistics.
    """

    gamma = None
    beta = None

    def __init__(self, size=None, decay=0.9, eps=2e-5, dtype=None, use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None, axis=None, initial_avg_mean=None, initial_avg_var=None):
        super().__init__()
        if size is None and axis is None:
            raise RuntimeError("size or axis is required")
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.N = 0
        self.register_persistent("N")
        self.decay = decay
        self.eps = eps
        if isinstance(axis, int):
            axis = (axis,)
        self.axis = axis
        self._highprec_dtype = _highprec(dtype)
        with self.init_scope():
            if use_gamma:
                init = initializers._get_initializer(1 if initial_gamma is None else initial_gamma)
                init.dtype = self._highprec_dtype
                self.gamma = Parameter(init)
            if use_beta:
                init = initializers._get_initializer(0 if initial_beta is None else initial_beta)
                init.dtype = self._highprec_dtype
                self.beta = Parameter(init)
        if size is None:
            self.avg_mean = None
            self.avg_var = None
        else:
            self._initialize_params(size)
        self.register_persistent("avg_mean")
        self.register_persistent("avg_var")

    def _initialize_params(self, shape):
        self.avg_mean = self._init_array(self._initial_avg_mean, 0, shape)
        self._initial_avg_mean = None
        self.avg_var = self._init_array(self._initial_avg_var, 1, shape)
        self._initial_avg_var = None
        if self.gamma is not None:
            self.gamma.initialize(shape)
        if self.beta is not None:
            self.beta.initialize(shape)

    @property
    def printable_specs(self):
        if self.avg_mean is None:
            return
        yield from (("size", self.avg_mean.shape[0]), ("decay", self.decay), ("eps", self.eps),
                    ("dtype", self.avg_mean.dtype), ("use_gamma", self.gamma is not None),
                    ("use_beta", self.beta is not None))

    def _init_array(self, init, default, shape):
        init = initializers._get_initializer(default if init is None else init)
        return initializers.generate_array(init, shape, dtype=self._highprec_dtype, device=self.device)

    def forward(self, x, finetune=False):
        if self.avg_mean is None:
            axis = self.axis
            self._initialize_params(tuple(d for i, d in enumerate(x.shape) if i not in axis))
        shape = tuple(self.avg_mean.shape)
        with self.device:
            gamma = self.gamma if self.gamma is not None else _creation.ones(shape, dtype=self._highprec_dtype)
            beta = self.beta if self.beta is not None else _creation.zeros(shape, dtype=self._highprec_dtype)
        if config.train:
            if finetune:
                self.N += 1
                decay = 1.0 - 1.0 / self.N
            else:
                decay = self.decay
            return F.batch_normalization(x, gamma, beta, eps=self.eps, running_mean=self.avg_mean,
                                         running_var=self.avg_var, decay=decay, axis=self.axis)
        return F.fixed_batch_normalization(x, gamma, beta, self.avg_mean, self.avg_var, self.eps, axis=self.axis)

    def start_finetuning(self):
        """Restarts the count of the finetuning average."""
        self.N = 0


class LayerNormalization(Link):
    """Layer normalization of (batch, size) inputs (F.layer_normalization)
    with gamma (ones) and beta (zeros) of ``size`` entries, inferred from
    the input when None."""

    def __init__(self, size=None, eps=1e-6, initial_gamma=None, initial_beta=None):
        super().__init__()
        with self.init_scope():
            self.gamma = Parameter(1 if initial_gamma is None else initial_gamma)
            self.beta = Parameter(0 if initial_beta is None else initial_beta)
            self.eps = eps
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        if not self.gamma.is_initialized:
            self._initialize_params(int(numpy.prod(tuple(x.shape)[1:], dtype=numpy.int64)))
        return F.layer_normalization(x, self.gamma, self.beta, self.eps)


class GroupNormalization(Link):
    """Group normalization (F.group_normalization): the channels (axis 1)
    split into ``groups``; gamma and beta have one entry per channel."""

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None, initial_beta=None):
        super().__init__()
        dtype = _highprec(None)
        with self.init_scope():
            self.groups = groups
            gamma_init = initializers._get_initializer(1 if initial_gamma is None else initial_gamma)
            gamma_init.dtype = dtype
            beta_init = initializers._get_initializer(0 if initial_beta is None else initial_beta)
            beta_init.dtype = dtype
            self.gamma = Parameter(gamma_init)
            self.beta = Parameter(beta_init)
            self.eps = eps
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        if not self.gamma.is_initialized:
            if x.ndim < 2:
                raise ValueError("Input dimension must be at least 2, including batch size dimension "
                                 "(first dimension).")
            self._initialize_params(tuple(x.shape)[1])
        return F.group_normalization(x, self.groups, self.gamma, self.beta, self.eps)
