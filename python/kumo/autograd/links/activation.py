"""Links with parameters around activations: Maxout and PReLU (Chainer's
``chainer.links.Maxout`` / ``PReLU``)."""
import numpy

from kumo import _creation
from kumo.autograd import functions as F, initializers
from kumo.autograd.links.connection import Linear
from kumo.autograd.links.link import Chain, Link, Parameter


def _reshaped_initializer(init, inner_shape):
    """A callable initializer called on an array of ``inner_shape`` whose
    values fill the (flatter) parameter array: Maxout's callables see the
    (out_size, pool_size, ...) layout."""

    def fill(array):
        tmp = _creation.empty(inner_shape, dtype=array.dtype, device=str(array.device))
        init(tmp)
        array[...] = tmp.reshape(tuple(array.shape))

    return fill


class Maxout(Chain):
    """Fully connected maxout: a Linear(in_size, out_size * pool_size)
    followed by F.maxout over groups of pool_size. An array initialW has
    shape (out_size, pool_size, in_size) and initial_bias (out_size,
    pool_size); initial_bias None drops the bias."""

    def __init__(self, in_size, out_size, pool_size, initialW=None, initial_bias=0):
        super().__init__()
        linear_out_size = out_size * pool_size
        if initialW is None or numpy.isscalar(initialW) or isinstance(initialW, initializers.Initializer):
            pass
        elif initializers._is_array(initialW):
            if initialW.ndim != 3:
                raise ValueError("initialW.ndim should be 3")
            initialW = initialW.reshape(linear_out_size, in_size)
        elif callable(initialW):
            initialW = _reshaped_initializer(initialW, (out_size, pool_size, in_size))
        if initial_bias is None or numpy.isscalar(initial_bias) or isinstance(initial_bias,
                                                                            initializers.Initializer):
            pass
        elif initializers._is_array(initial_bias):
            if initial_bias.ndim != 2:
                raise ValueError("initial_bias.ndim should be 2")
            initial_bias = initial_bias.reshape(linear_out_size)
        elif callable(initial_bias):
            initial_bias = _reshaped_initializer(initial_bias, (out_size, pool_size))
        with self.init_scope():
            self.linear = Linear(in_size, linear_out_size, nobias=initial_bias is None, initialW=initialW,
                                 initial_bias=initial_bias)
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x):
        return F.maxout(self.linear(x), self.pool_size)


class PReLU(Link):
    """Parametric ReLU (F.prelu) with a learned slope W of ``shape``
    (broadcast over x's axes from the second on), initially ``init``."""

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = Parameter(init, shape)

    def forward(self, x):
        return F.prelu(x, self.W)
