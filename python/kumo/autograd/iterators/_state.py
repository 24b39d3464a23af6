"""Iteration state shared by the iterators: where the next batch starts, the
epoch count and the example order of the current epoch."""
import collections

import numpy

from kumo import _core
from kumo import _interop

IteratorState = collections.namedtuple("IteratorState", ("current_position", "epoch", "is_new_epoch", "order"))


def host_order(order):
    """An order as a 1-D NumPy integer array (samplers may return kumo arrays)."""
    if order is None:
        return None
    if not isinstance(order, numpy.ndarray):
        order = _interop.asnumpy(order) if isinstance(order, _core.ndarray) else numpy.asarray(order)
    return order


def next_indices(state, batch_size, repeat, order_sampler, dataset_len):
    """Advances ``state`` by one batch: returns (new state, indices), or
    (state, None) once a non-repeating iterator has finished its epoch.

    A batch that reaches the end of the epoch takes the rest of it; a
    repeating iterator then continues in the next epoch's order (drawn from
    ``order_sampler``) until the batch is full.
    """
    pos, epoch, _, order = state
    if not repeat and epoch > 0:
        return state, None
    n = dataset_len if order is None else len(order)
    if repeat and n == 0:
        raise ValueError("Epoch size must be positive for an iterator that repeats.")

    def take(a, b):
        return numpy.arange(a, b, dtype=numpy.intp) if order is None else order[a:b]

    parts = []
    end = pos + batch_size
    is_new_epoch = False
    while end >= n:
        parts.append(take(pos, n))
        if order is not None:
            new_order = host_order(order_sampler(order, pos))
            if len(new_order) != len(order):
                raise ValueError("The size of order does not match the size of the previous order.")
            order = new_order
        epoch += 1
        is_new_epoch = True
        pos = 0
        if not repeat:
            end = 0
            break  # the epoch is over; also ends the loop when n == 0
        end -= n
    parts.append(take(pos, end))
    return IteratorState(end, epoch, is_new_epoch, order), numpy.concatenate(parts)


class OrderSampler:
    """Gives the example order of the next epoch: ``sampler(current_order,
    current_position)`` returns a 1-D index array of the same length."""

    def __call__(self, current_order, current_position):
        raise NotImplementedError


class ShuffleOrderSampler(OrderSampler):
    """A random permutation per epoch from ``random_state`` (anything with a
    ``permutation(n)`` method; NumPy's global generator by default, so
    ``numpy.random.seed`` makes runs reproducible as in Chainer)."""

    def __init__(self, random_state=None):
        self._random = numpy.random.mtrand._rand if random_state is None else random_state

    def __call__(self, current_order, current_position):
        return host_order(self._random.permutation(len(current_order)))


def make_order_sampler(shuffle, order_sampler):
    """Chainer's rule: ``shuffle`` (True/False) and a custom sampler exclude
    each other; with neither the order is shuffled."""
    if shuffle is not None:
        if order_sampler is not None:
            raise ValueError("`shuffle` is not `None` and a custom `order_sampler` is set. Please set `shuffle` "
                             "to `None` to use the custom order sampler.")
        return ShuffleOrderSampler() if shuffle else None
    return ShuffleOrderSampler() if order_sampler is None else order_sampler
