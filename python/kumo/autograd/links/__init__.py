"""Links (Chainer's ``chainer.links``, imported as L): parameterized layers
built on kumo.autograd.functions, and the Link / Chain / ChainList /
Sequential containers they are made of."""
from kumo.autograd.links.link import Chain, ChainList, Link, Parameter  # noqa: F401
from kumo.autograd.links.sequential import Sequential  # noqa: F401
from kumo.autograd.links.connection import (  # noqa: F401
    Bilinear, Convolution1D, Convolution2D, Convolution3D, ConvolutionND, Deconvolution1D, Deconvolution2D,
    Deconvolution3D, DeconvolutionND, DepthwiseConvolution2D, DilatedConvolution2D, EmbedID, Highway, Linear)
from kumo.autograd.links.activation import Maxout, PReLU  # noqa: F401
from kumo.autograd.links.normalization import (  # noqa: F401
    BatchNormalization, GroupNormalization, LayerNormalization)
from kumo.autograd.links.model import Classifier  # noqa: F401
from kumo.autograd.links.rnn import (  # noqa: F401
    GRU, LSTM, NStepBiGRU, NStepBiLSTM, NStepBiRNNReLU, NStepBiRNNTanh, NStepGRU, NStepLSTM, NStepRNNReLU,
    NStepRNNTanh, StatefulGRU, StatelessGRU, StatelessLSTM)

__all__ = ["Link", "Chain", "ChainList", "Sequential", "Parameter", "Linear", "Bilinear", "Convolution1D",
           "Convolution2D", "Convolution3D", "ConvolutionND", "Deconvolution1D", "Deconvolution2D",
           "Deconvolution3D", "DeconvolutionND", "DepthwiseConvolution2D", "DilatedConvolution2D", "EmbedID",
           "Highway", "Maxout", "PReLU", "BatchNormalization", "LayerNormalization", "GroupNormalization",
           "Classifier", "LSTM", "StatelessLSTM", "GRU", "StatefulGRU", "StatelessGRU", "NStepLSTM", "NStepBiLSTM",
           "NStepGRU", "NStepBiGRU", "NStepRNNTanh", "NStepRNNReLU", "NStepBiRNNTanh", "NStepBiRNNReLU"]
