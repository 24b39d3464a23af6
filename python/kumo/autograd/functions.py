"""Differentiable functions (Chainer's ``chainer.functions``, imported as F).

Each is a C++ FunctionNode (autograd/functions/); arguments may be
Variables, kumo arrays (constants that need no gradient) or Python scalars.
"""
from kumo import _core

_f = _core.autograd.functions

add, sub, mul, div, pow = _f.add, _f.sub, _f.mul, _f.div, _f.pow
neg, exp, log, sqrt, square = _f.neg, _f.exp, _f.log, _f.sqrt, _f.square
sin, cos, tanh, sigmoid, relu = _f.sin, _f.cos, _f.tanh, _f.sigmoid, _f.relu
absolute = _f.absolute
log2, log10, log1p, expm1 = _f.log2, _f.log10, _f.log1p, _f.expm1
tan, arcsin, arccos, arctan, sinh, cosh = _f.tan, _f.arcsin, _f.arccos, _f.arctan, _f.sinh, _f.cosh
rsqrt, floor, ceil = _f.rsqrt, _f.floor, _f.ceil
matmul, linear = _f.matmul, _f.linear
softmax, log_softmax, logsumexp = _f.softmax, _f.log_softmax, _f.logsumexp
mean_squared_error = _f.mean_squared_error
get_item, select_item = _f.get_item, _f.select_item
softmax_cross_entropy, accuracy = _f.softmax_cross_entropy, _f.accuracy
concat, stack, split_axis, expand_dims, squeeze = _f.concat, _f.stack, _f.split_axis, _f.expand_dims, _f.squeeze
where, maximum, minimum, clip, max, min = _f.where, _f.maximum, _f.minimum, _f.clip, _f.max, _f.min  # noqa: A001
leaky_relu, elu, selu, softplus, silu = _f.leaky_relu, _f.elu, _f.selu, _f.softplus, _f.silu
hard_sigmoid, clipped_relu = _f.hard_sigmoid, _f.clipped_relu
cast, broadcast, broadcast_to, sum_to = _f.cast, _f.broadcast, _f.broadcast_to, _f.sum_to
arctanh, relu6 = _f.arctanh, _f.relu6
# Outside the graph (their gradient is None everywhere), as Chainer's.
sign, fix = _f.sign, _f.fix


def batch_matmul(a, b, transa=False, transb=False):
    """Chainer's deprecated batch_matmul: matmul of (B, N, ...) operands read as B matrices (N, prod(...))."""
    import warnings
    warnings.warn("batch_matmul is deprecated. Use matmul instead.", DeprecationWarning, stacklevel=2)
    return _f.batch_matmul(a, b, transa, transb)


def copy(x, dst):
    """x on the device dst (a kumo.Device or its name); the gradient returns to x's device."""
    return _f.copy(x, str(dst))


def reshape(x, shape):
    return _f.reshape(x, shape)


def transpose(x, axes=None):
    return _f.transpose(x, axes)


def sum(x, axis=None, keepdims=False):  # noqa: A001 (Chainer's name)
    return _f.sum(x, axis, keepdims)


def mean(x, axis=None, keepdims=False):
    return _f.mean(x, axis, keepdims)


__all__ = ["add", "sub", "mul", "div", "pow", "neg", "exp", "log", "sqrt", "square", "sin", "cos", "tanh",
           "sigmoid", "relu", "absolute", "log2", "log10", "log1p", "expm1", "tan", "arcsin", "arccos", "arctan",
           "sinh", "cosh", "rsqrt", "floor", "ceil", "matmul", "linear", "softmax", "log_softmax", "logsumexp",
           "mean_squared_error", "concat", "stack", "split_axis", "expand_dims", "squeeze", "where", "maximum",
           "minimum", "clip", "max", "min", "leaky_relu", "elu", "selu", "softplus", "silu", "hard_sigmoid",
           "clipped_relu", "copy", "get_item", "select_item", "softmax_cross_entropy", "accuracy", "cast", "broadcast", "broadcast_to",
           "arctanh", "relu6", "sign", "fix", "batch_matmul", "sum_to", "reshape", "transpose", "sum", "mean"]

# Math, linear algebra and more activations (autograd/functions/{math,linalg,activation}.h).
from kumo._core.autograd.functions import (erf, erfc, erfinv, lgamma, digamma, polygamma, arctan2, fmod,  # noqa: E402
                                           prod, cumsum, cumprod, average, argmax, argmin, squared_difference,
                                           batch_l2_norm_squared, det, batch_det, inv, batch_inv, cholesky, solve,
                                           einsum, tensordot, bilinear, celu, gelu, prelu, maxout, crelu, swish)

__all__ += ["erf", "erfc", "erfinv", "lgamma", "digamma", "polygamma", "arctan2", "fmod", "prod", "cumsum", "cumprod",
            "average", "argmax", "argmin", "squared_difference", "batch_l2_norm_squared", "det", "batch_det", "inv",
            "batch_inv", "cholesky", "solve", "einsum", "tensordot", "bilinear", "celu", "gelu", "prelu", "maxout",
            "crelu", "swish"]
# Normalization, noise, losses and evaluation (bind_autograd_norm.cpp).
from kumo._core.autograd.functions import (  # noqa: E402
    batch_normalization, fixed_batch_normalization, layer_normalization, group_normalization,
    local_response_normalization, normalize, dropout, gaussian, gumbel_softmax, softmax_cross_entropy, accuracy,
    sigmoid_cross_entropy, mean_absolute_error, huber_loss, hinge, squared_error, absolute_error, contrastive,
    triplet, gaussian_kl_divergence, bernoulli_nll, gaussian_nll, cross_covariance, decov, binary_accuracy,
    r2_score)

__all__ += ["batch_normalization", "fixed_batch_normalization", "layer_normalization", "group_normalization",
            "local_response_normalization", "normalize", "dropout", "gaussian", "gumbel_softmax",
            "sigmoid_cross_entropy", "mean_absolute_error", "huber_loss", "hinge", "squared_error", "absolute_error",
            "contrastive", "triplet", "gaussian_kl_divergence", "bernoulli_nll", "gaussian_nll", "cross_covariance",
            "decov", "binary_accuracy", "r2_score"]

# Array functions, embed_id and recurrent networks (autograd/functions/array.h, embed.h, rnn.h).
from kumo._core.autograd.functions import (  # noqa: E402
    swapaxes, moveaxis, rollaxis, flatten, hstack, vstack, dstack, separate, tile, repeat, flip, fliplr, flipud,
    scatter_add, diagonal, depth2space, space2depth, resize_images, pad_sequence, embed_id, lstm, slstm, gru,
    n_step_lstm, n_step_bilstm, n_step_gru, n_step_bigru, n_step_rnn, n_step_birnn)


def pad(x, pad_width, mode="constant", **keywords):
    """numpy.pad of a Variable in 'constant' mode (keyword constant_values);
    pad_width and constant_values take numpy.pad's forms."""
    import numpy

    unknown = set(keywords) - {"constant_values"}
    if unknown:
        raise TypeError("pad() got unexpected keyword arguments: " + ", ".join(sorted(unknown)))
    ndim = len(x.shape)
    width = numpy.asarray(pad_width)
    if width.dtype.kind not in "iub":
        raise TypeError("`pad_width` must be of integral type.")
    width = numpy.broadcast_to(width, (ndim, 2)).tolist()
    values = numpy.asarray(keywords.get("constant_values", 0))
    values = numpy.broadcast_to(values, (ndim, 2)).tolist() if ndim else [[values.item(), values.item()]]
    return _f._pad(x, [tuple(w) for w in width], mode, [tuple(v) for v in values])


__all__ += ["swapaxes", "moveaxis", "rollaxis", "flatten", "hstack", "vstack", "dstack", "separate", "tile",
            "repeat", "flip", "fliplr", "flipud", "pad", "scatter_add", "diagonal", "depth2space", "space2depth",
            "resize_images", "pad_sequence", "embed_id", "lstm", "slstm", "gru", "n_step_lstm", "n_step_bilstm",
            "n_step_gru", "n_step_bigru", "n_step_rnn", "n_step_birnn"]

# Convolution and pooling (bindings/bind_autograd_conv.cpp), Chainer's signatures.
from kumo._core.autograd.functions import (  # noqa: E402
    average_pooling_1d, average_pooling_2d, average_pooling_3d, average_pooling_nd, convolution_1d, convolution_2d,
    convolution_3d, convolution_nd, deconvolution_1d, deconvolution_2d, deconvolution_3d, deconvolution_nd,
    depthwise_convolution_2d, global_average_pooling_2d, im2col, max_pooling_1d, max_pooling_2d, max_pooling_3d,
    max_pooling_nd, unpooling_2d, unpooling_nd, upsampling_2d)

__all__ += ["im2col", "convolution_nd", "convolution_1d", "convolution_2d", "convolution_3d", "deconvolution_nd",
            "deconvolution_1d", "deconvolution_2d", "deconvolution_3d", "depthwise_convolution_2d", "max_pooling_nd",
            "max_pooling_1d", "max_pooling_2d", "max_pooling_3d", "average_pooling_nd", "average_pooling_1d",
            "average_pooling_2d", "average_pooling_3d", "unpooling_nd", "unpooling_2d", "upsampling_2d",
            "global_average_pooling_2d"]
