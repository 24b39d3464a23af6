"""MultiNodeBatchNormalization: batch normalization whose statistics are
taken over the batches of all processes together, as if their batches were
one (what single-process BatchNormalization computes on the concatenation)."""

import numpy

from kumo import _creation
from kumo.autograd import functions as F
from kumo.autograd._config import config
from kumo.autograd.links.normalization import BatchNormalization
from kumo.distributed._functions import allreduce_sum


class MultiNodeBatchNormalization(BatchNormalization):
    """BatchNormalization(size, ...) over `comm`'s processes.

    In train mode the mean and variance are reduced over every process's
    batch (two allreduces of per-channel sums; the backward pass communicates
    too, so every process must run it), and the running averages, identical
    on every process, take the unbiased variance of the combined batch. In
    test mode it is BatchNormalization's fixed normalization.
    """

    def __init__(self, size, comm, decay=0.9, eps=2e-5, dtype=None, use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None, axis=None):
        super().__init__(size, decay=decay, eps=eps, dtype=dtype, use_gamma=use_gamma, use_beta=use_beta,
                         initial_gamma=initial_gamma, initial_beta=initial_beta, axis=axis)
        self.comm = comm

    def forward(self, x, finetune=False):
        if not config.train:
            return super().forward(x, finetune)
        array = x.array if hasattr(x, "array") else x
        axis = self.axis if self.axis is not None else (0,) + tuple(range(2, array.ndim))
        kept = [i for i in range(array.ndim) if i not in axis]
        stat_shape = tuple(array.shape[i] for i in kept)
        if stat_shape != tuple(self.avg_mean.shape):
            raise ValueError("MultiNodeBatchNormalization: input of shape {} does not match the statistics' "
                             "shape {}".format(tuple(array.shape), tuple(self.avg_mean.shape)))
        local_count = int(numpy.prod([array.shape[i] for i in axis], dtype=numpy.int64))
        count = self.comm.allreduce_obj(local_count)
        if count == 0:
            raise ValueError("MultiNodeBatchNormalization: the processes' batches are all empty")
        # statistics shape broadcast against x: 1 on the reduced axes
        bshape = tuple(1 if i in axis else array.shape[i] for i in range(array.ndim))
        hp = self._highprec_dtype
        xh = F.cast(x, hp) if array.dtype != hp else x
        mean = allreduce_sum(F.sum(xh, axis=axis), self.comm) / count
        centered = xh - F.broadcast_to(F.reshape(mean, bshape), array.shape)
        var = allreduce_sum(F.sum(centered * centered, axis=axis), self.comm) / count
        inv_std = (var + self.eps) ** -0.5
        with self.device:
            gamma = self.gamma if self.gamma is not None else _creation.ones(stat_shape, dtype=hp)
            beta = self.beta if self.beta is not None else _creation.zeros(stat_shape, dtype=hp)
        y = centered * F.broadcast_to(F.reshape(inv_std * gamma, bshape), array.shape) + \
            F.broadcast_to(F.reshape(beta, bshape), array.shape)
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        else:
            decay = self.decay
        unbiased = var.array * (count / max(count - 1, 1))
        self.avg_mean *= decay
        self.avg_mean += (1 - decay) * mean.array
        self.avg_var *= decay
        self.avg_var += (1 - decay) * unbiased
        return F.cast(y, array.dtype) if array.dtype != hp else y
