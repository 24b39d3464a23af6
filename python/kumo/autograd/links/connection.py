"""Connection links (Chainer's ``chainer.links`` of the same names): Linear,
Bilinear, the convolutions and deconvolutions, EmbedID, Highway.

A weight whose input size is not given (``in_size`` / ``in_channels`` None,
or the two-argument forms ``Linear(out_size)``,
``Convolution2D(out_channels, ksize)``) is created at the first forward
from the input's shape.
"""
import numpy

from kumo.autograd import functions as F
from kumo.autograd import initializers
from kumo.autograd.links.link import Chain, Link, Parameter


def _pair(x):
    if hasattr(x, "__getitem__"):
        return tuple(x)
    return x, x


def _as_tuple(x, n):
    if hasattr(x, "__getitem__"):
        if len(x) != n:
            raise ValueError("expected a tuple of %d values, got %r" % (n, x))
        return tuple(x)
    return (x,) * n


def _bias(link, nobias, initial_bias, size):
    if nobias:
        link.b = None
    else:
        if initial_bias is None:
            initial_bias = 0
        link.b = Parameter(initializers._get_initializer(initial_bias), size)


def _shape(x):
    return tuple(x.shape)


def _array_of(x):
    """The array of a Variable (a copy, so the new link owns its data), an
    array as it is, None as None."""
    if x is None:
        return None
    return x.array.copy() if hasattr(x, "array") else x


class Linear(Link):
    """y = x W^T + b. ``Linear(in_size, out_size=None, nobias=False,
    initialW=None, initial_bias=None)``; ``Linear(out_size)`` infers in_size.
    W has shape (out_size, in_size), initialized by LeCunNormal unless
    initialW says otherwise; b (zeros by default) is None with nobias."""

    def __init__(self, in_size, out_size=None, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = in_size
        self.out_size = out_size
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            _bias(self, nobias, initial_bias, out_size)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    @property
    def printable_specs(self):
        yield from (("in_size", self.in_size), ("out_size", self.out_size), ("nobias", self.b is None))

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """A Linear whose W (and b) are copies of the given arrays."""
        W, b = _array_of(W), _array_of(b)
        out_size, in_size = W.shape
        if b is not None and out_size != b.size:
            raise ValueError("`out_size` does not match the size of `b`")
        return cls(in_size, out_size, nobias, initialW=W, initial_bias=b)

    def forward(self, x, n_batch_axes=1):
        """The leading ``n_batch_axes`` axes of x are batch axes; the rest
        are flattened into the input features."""
        shape = _shape(x)
        if n_batch_axes < 1 or n_batch_axes > len(shape):
            raise ValueError("n_batch_axes should be in [1, %d], got %d" % (len(shape), n_batch_axes))
        if not self.W.is_initialized:
            self._initialize_params(int(numpy.prod(shape[n_batch_axes:], dtype=numpy.int64)))
        batch = shape[:n_batch_axes]
        if len(shape) != 2 or n_batch_axes != 1:
            x = F.reshape(x, (int(numpy.prod(batch, dtype=numpy.int64)), -1))
        y = F.linear(x, self.W, self.b)
        if n_batch_axes != 1:
            y = F.reshape(y, batch + (self.out_size,))
        return y


class Bilinear(Link):
    """y = e1^T W e2 + V1^T e1 + V2^T e2 + b (F.bilinear). W is
    (left_size, right_size, out_size); ``initial_bias`` is None or a tuple
    (initialV1, initialV2, initialb); nobias drops V1, V2 and b."""

    def __init__(self, left_size, right_size, out_size, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        with self.init_scope():
            shape = (left_size, right_size, out_size)
            _check_array_shape(initialW, shape, "initialW")
            self.W = Parameter(initializers._get_initializer(initialW), shape)
            if not nobias:
                v1_shape, v2_shape, b_shape = (left_size, out_size), (right_size, out_size), (out_size,)
                if isinstance(initial_bias, tuple):
                    init_v1, init_v2, init_b = initial_bias
                    _check_array_shape(init_v1, v1_shape, "initialV1")
                    _check_array_shape(init_v2, v2_shape, "initialV2")
                    _check_array_shape(init_b, b_shape, "initialb")
                elif initial_bias is None:
                    init_v1, init_v2, init_b = None, None, 0
                else:
                    raise ValueError("initial_bias must be tuple or None")
                self.V1 = Parameter(initializers._get_initializer(init_v1), v1_shape)
                self.V2 = Parameter(initializers._get_initializer(init_v2), v2_shape)
                self.b = Parameter(initializers._get_initializer(init_b), b_shape)

    def forward(self, e1, e2):
        if self.nobias:
            return F.bilinear(e1, e2, self.W)
        return F.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)

    def zero_grads(self):
        self.zerograds()


def _check_array_shape(init, shape, what):
    if initializers._is_array(init) and tuple(init.shape) != tuple(shape):
        raise ValueError("%s has shape %s, expected %s" % (what, tuple(init.shape), tuple(shape)))


def _check_groups(out_channels, in_channels, groups):
    if out_channels % groups != 0:
        raise ValueError("the number of output channels must be divisible by the number of groups")
    if in_channels % groups != 0:
        raise ValueError("the number of input channels must be divisible by the number of groups")


class _ConvolutionLink(Link):
    """What the convolution and deconvolution links share: Chainer's
    two-argument form (ksize None: the arguments read (out_channels, ksize)
    and in_channels comes from the first input), W created at the first
    forward when in_channels is not known, groups, and the bias. A subclass
    sets its geometry, calls _create_params and defines _kernel_size and
    _apply; a transposed one (deconvolution) has W of shape
    (in_channels, out_channels / groups, *ksize)."""

    _transposed = False
    _checks_bias_shape = False  # Deconvolution2D checks an array initial_bias's shape up front
    groups = 1

    @staticmethod
    def _two_argument_form(in_channels, out_channels, ksize):
        if ksize is None:
            return None, in_channels, out_channels
        return in_channels, out_channels, ksize

    def _create_params(self, in_channels, nobias, initialW, initial_bias):
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            if self._checks_bias_shape:
                _check_array_shape(initial_bias, (self.out_channels,), "initial_bias")
            _bias(self, nobias, initial_bias, self.out_channels)

    def _initialize_params(self, in_channels):
        _check_groups(self.out_channels, in_channels, self.groups)
        if self._transposed:
            channels = (in_channels, self.out_channels // self.groups)
        else:
            channels = (self.out_channels, in_channels // self.groups)
        self.W.initialize(channels + tuple(self._kernel_size()))

    def forward(self, x):
        if not self.W.is_initialized:
            self._initialize_params(_shape(x)[1])
        return self._apply(x)


class Convolution2D(_ConvolutionLink):
    """2-d convolution (F.convolution_2d). ``Convolution2D(in_channels,
    out_channels, ksize=None, stride=1, pad=0, nobias=False, initialW=None,
    initial_bias=None, *, dilate=1, groups=1)``; with ksize None the
    arguments read (out_channels, ksize) and in_channels comes from the
    input. W is (out_channels, in_channels / groups, kh, kw)."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False, initialW=None,
                 initial_bias=None, *, dilate=1, groups=1):
        super().__init__()
        in_channels, out_channels, ksize = self._two_argument_form(in_channels, out_channels, ksize)
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.groups = int(groups)
        self._create_params(in_channels, nobias, initialW, initial_bias)

    def _kernel_size(self):
        return _pair(self.ksize)

    @property
    def printable_specs(self):
        yield from (("in_channels", self.in_channels), ("out_channels", self.out_channels), ("ksize", self.ksize),
                    ("stride", self.stride), ("pad", self.pad), ("nobias", self.b is None), ("dilate", self.dilate),
                    ("groups", self.groups))

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, *, dilate=1, groups=1):
        """A Convolution2D whose W (and b) are copies of the given arrays."""
        W, b = _array_of(W), _array_of(b)
        out_channels, in_per_group, kh, kw = W.shape
        if b is not None and out_channels != b.size:
            raise ValueError("`out_channels` does not match the size of `b`")
        return cls(in_per_group * groups, out_channels, (kh, kw), stride, pad, nobias, initialW=W, initial_bias=b,
                   dilate=dilate, groups=groups)

    def _apply(self, x):
        return F.convolution_2d(x, self.W, self.b, self.stride, self.pad, dilate=self.dilate, groups=self.groups)


class DilatedConvolution2D(_ConvolutionLink):
    """2-d convolution with dilation (F.convolution_2d with ``dilate``),
    Chainer's argument order ``(in_channels, out_channels, ksize=None,
    stride=1, pad=0, dilate=1, nobias=False, initialW=None,
    initial_bias=None)``."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        in_channels, out_channels, ksize = self._two_argument_form(in_channels, out_channels, ksize)
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.out_channels = out_channels
        self._create_params(in_channels, nobias, initialW, initial_bias)

    def _kernel_size(self):
        return _pair(self.ksize)

    def _apply(self, x):
        return F.convolution_2d(x, self.W, self.b, self.stride, self.pad, dilate=self.dilate)


class ConvolutionND(_ConvolutionLink):
    """N-d convolution (F.convolution_nd): ``ConvolutionND(ndim,
    in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
    initialW=None, initial_bias=None, cover_all=False, dilate=1,
    groups=1)``."""

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False, initialW=None,
                 initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__()
        in_channels, out_channels, ksize = self._two_argument_form(in_channels, out_channels, ksize)
        self.out_channels = out_channels
        self.ksize = _as_tuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = _as_tuple(dilate, ndim)
        self.groups = int(groups)
        self._create_params(in_channels, nobias, initialW, initial_bias)

    def _kernel_size(self):
        return self.ksize

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, *, cover_all=False, dilate=1, groups=1):
        """A ConvolutionND whose W (and b) are copies of the given arrays."""
        W, b = _array_of(W), _array_of(b)
        out_channels, in_per_group, *ksize = W.shape
        if b is not None and out_channels != b.size:
            raise ValueError("`out_channels` does not match the size of `b`")
        return cls(len(ksize), in_per_group * groups, out_channels, tuple(ksize), stride, pad, nobias, initialW=W,
                   initial_bias=b, cover_all=cover_all, dilate=dilate, groups=groups)

    def _apply(self, x):
        return F.convolution_nd(x, self.W, self.b, self.stride, self.pad, cover_all=self.cover_all,
                                dilate=self.dilate, groups=self.groups)


class Convolution1D(ConvolutionND):
    """ConvolutionND with ndim 1."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False, initialW=None,
                 initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, initialW, initial_bias,
                         cover_all, dilate, groups)


class Convolution3D(ConvolutionND):
    """ConvolutionND with ndim 3."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False, initialW=None,
                 initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, initialW, initial_bias,
                         cover_all, dilate, groups)


class Deconvolution2D(_ConvolutionLink):
    """2-d transposed convolution (F.deconvolution_2d): ``(in_channels,
    out_channels, ksize=None, stride=1, pad=0, nobias=False, outsize=None,
    initialW=None, initial_bias=None, *, dilate=1, groups=1)``. W is
    (in_channels, out_channels / groups, kh, kw)."""

    _transposed = True
    _checks_bias_shape = True

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False, outsize=None,
                 initialW=None, initial_bias=None, *, dilate=1, groups=1):
        super().__init__()
        in_channels, out_channels, ksize = self._two_argument_form(in_channels, out_channels, ksize)
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.outsize = (None, None) if outsize is None else outsize
        self.out_channels = out_channels
        self.groups = int(groups)
        self._create_params(in_channels, nobias, initialW, initial_bias)

    def _kernel_size(self):
        return _pair(self.ksize)

    def _apply(self, x):
        outsize = None if self.outsize is None or all(s is None for s in self.outsize) else self.outsize
        return F.deconvolution_2d(x, self.W, self.b, self.stride, self.pad, outsize, dilate=self.dilate,
                                  groups=self.groups)


class DeconvolutionND(_ConvolutionLink):
    """N-d transposed convolution (F.deconvolution_nd): ``(ndim,
    in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
    outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1)``."""

    _transposed = True

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False, outsize=None,
                 initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__()
        in_channels, out_channels, ksize = self._two_argument_form(in_channels, out_channels, ksize)
        self.out_channels = out_channels
        self.ksize = _as_tuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.outsize = outsize
        self.dilate = _as_tuple(dilate, ndim)
        self.groups = int(groups)
        self._create_params(in_channels, nobias, initialW, initial_bias)

    def _kernel_size(self):
        return self.ksize

    def _apply(self, x):
        return F.deconvolution_nd(x, self.W, self.b, self.stride, self.pad, self.outsize, dilate=self.dilate,
                                  groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """DeconvolutionND with ndim 1."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False, outsize=None,
                 initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, outsize, initialW, initial_bias,
                         dilate, groups)


class Deconvolution3D(DeconvolutionND):
    """DeconvolutionND with ndim 3."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False, outsize=None,
                 initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, outsize, initialW, initial_bias,
                         dilate, groups)


class DepthwiseConvolution2D(Link):
    """Depthwise 2-d convolution (F.depthwise_convolution_2d): W is
    (channel_multiplier, in_channels, kh, kw), HeNormal(1/sqrt(2)) by
    default; b has channel_multiplier * in_channels entries."""

    def __init__(self, in_channels, channel_multiplier, ksize, stride=1, pad=0, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.channel_multiplier = channel_multiplier
        self.nobias = nobias
        if initialW is None:
            initialW = initializers.HeNormal(1.0 / numpy.sqrt(2))
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = initializers.Constant(0)
                self.b = Parameter(initializers._get_initializer(initial_bias))
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.channel_multiplier, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize((self.channel_multiplier * in_channels,))

    def forward(self, x):
        if not self.W.is_initialized:
            self._initialize_params(_shape(x)[1])
        return F.depthwise_convolution_2d(x, self.W, self.b, self.stride, self.pad)


class EmbedID(Link):
    """Word embeddings (F.embed_id): W is (in_size, out_size), Normal(1.0)
    by default; ids equal to ``ignore_label`` give zero vectors."""

    def __init__(self, in_size, out_size, initialW=None, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label
        with self.init_scope():
            if initialW is None:
                initialW = initializers.Normal(1.0)
            self.W = Parameter(initialW, (in_size, out_size))

    @classmethod
    def from_params(cls, W, ignore_label=None):
        W = _array_of(W)
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=W, ignore_label=ignore_label)

    def forward(self, x):
        return F.embed_id(x, self.W, ignore_label=self.ignore_label)


class Highway(Chain):
    """Highway network layer: y = h * t + x * (1 - t), h =
    activate(plain(x)), t = sigmoid(transform(x)); plain and transform are
    Linear(in_out_size, in_out_size); transform's bias starts at -1."""

    def __init__(self, in_out_size, nobias=False, activate=F.relu, init_Wh=None, init_Wt=None, init_bh=None,
                 init_bt=-1):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = Linear(in_out_size, in_out_size, nobias=nobias, initialW=init_Wh, initial_bias=init_bh)
            self.transform = Linear(in_out_size, in_out_size, nobias=nobias, initialW=init_Wt, initial_bias=init_bt)

    def forward(self, x):
        h = self.activate(self.plain(x))
        t = F.sigmoid(self.transform(x))
        return h * t + x * (1 - t)
