"""create_synchronized_iterator: every process draws the same example order."""

import numpy

from kumo.autograd.iterators._state import ShuffleOrderSampler


def create_synchronized_iterator(actual_iterator, communicator):
    """Makes a shuffling iterator draw its orders from a random generator
    seeded by rank 0, so every process sees the same batches (model
    parallelism, or identical datasets that must stay aligned). An iterator
    that does not shuffle is returned unchanged."""
    seed = communicator.bcast_obj(
        int(numpy.random.randint(0, 2 ** 31 - 1)) if communicator.rank == 0 else None, root=0)
    if getattr(actual_iterator, "order_sampler", None) is not None:
        actual_iterator.order_sampler = ShuffleOrderSampler(numpy.random.RandomState(seed))
        actual_iterator.reset()
    return actual_iterator
