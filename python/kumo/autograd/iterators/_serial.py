"""SerialIterator and the epoch bookkeeping the other iterators share."""
import numpy

from kumo.autograd.dataset._mixin import Iterator
from kumo.autograd.iterators._state import IteratorState, host_order, make_order_sampler, next_indices


class _EpochIterator(Iterator):
    """Epoch counters, reset and serialization over an IteratorState."""

    # Key for the order in snapshots: SerialIterator writes 'order' (reading
    # '_order' too), MultithreadIterator '_order', as Chainer does.
    _order_keys = ("order", "_order")

    def __init__(self, dataset, batch_size, repeat, shuffle, order_sampler):
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self._shuffle = shuffle
        self.order_sampler = make_order_sampler(shuffle, order_sampler)
        self.reset()

    def _initial_state(self):
        order = None
        if self.order_sampler:
            order = host_order(self.order_sampler(numpy.arange(len(self.dataset)), 0))
        return IteratorState(0, 0, False, order)

    def reset(self):
        """Starts over from the first epoch (with a new order if shuffling)."""
        self._state = self._initial_state()
        self._previous_epoch_detail = -1.0  # -1 stands for None in snapshots

    def _advance(self, state):
        return next_indices(state, self.batch_size, self._repeat, self.order_sampler, len(self.dataset))

    def _read(self, indices):
        return [self.dataset[int(i)] for i in indices]

    @property
    def repeat(self):
        return self._repeat

    @property
    def current_position(self):
        return self._state.current_position

    @property
    def epoch(self):
        return self._state.epoch

    @property
    def is_new_epoch(self):
        return self._state.is_new_epoch

    @property
    def _epoch_size(self):
        order = self._state.order
        return len(self.dataset) if order is None else len(order)

    @property
    def epoch_detail(self):
        """Epochs done as a float: 2.5 is halfway through the third epoch."""
        size = self._epoch_size
        # An empty dataset has no position to speak of (and a repeating
        # iterator over it raises on the first batch).
        return float(self.epoch) if size == 0 else self.epoch + self.current_position / size

    @property
    def previous_epoch_detail(self):
        """epoch_detail before the last batch; None before the first one."""
        return None if self._previous_epoch_detail < 0 else self._previous_epoch_detail

    def _serialize_order(self, serializer, order):
        first, second = self._order_keys
        if second is None:
            got = serializer(first, order)
        else:
            try:
                got = serializer(first, order)
            except KeyError:
                got = serializer(second, order)
        return order if got is None else host_order(got)

    def serialize(self, serializer):
        """Saves or restores the position, epoch and order. Keys:
        current_position, epoch, is_new_epoch, order, previous_epoch_detail."""
        pos = serializer("current_position", self.current_position)
        epoch = serializer("epoch", self.epoch)
        is_new_epoch = serializer("is_new_epoch", self.is_new_epoch)
        order = self._state.order
        if order is not None or self._order_keys[1] is None:
            order = self._serialize_order(serializer, order)
        self._state = IteratorState(int(pos), int(epoch), bool(is_new_epoch), order)
        try:
            prev = serializer("previous_epoch_detail", self._previous_epoch_detail)
            self._previous_epoch_detail = -1.0 if prev is None else float(prev)
        except KeyError:
            # Snapshots of old Chainer versions lack it: rebuild it from the position.
            prev = self.epoch + (self.current_position - self.batch_size) / self._epoch_size
            self._previous_epoch_detail = max(prev, 0.0) if self.epoch_detail > 0 else -1.0


class SerialIterator(_EpochIterator):
    """Reads the batches in the calling thread, in order or shuffled.

    Args: dataset, batch_size, repeat (loop forever, else stop after one
    epoch), shuffle (None: shuffled unless ``order_sampler`` is given),
    order_sampler (callable giving each epoch's order).
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, order_sampler=None):
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler)

    def __next__(self):
        self._previous_epoch_detail = self.epoch_detail
        self._state, indices = self._advance(self._state)
        if indices is None:
            raise StopIteration
        return self._read(indices)

    next = __next__
