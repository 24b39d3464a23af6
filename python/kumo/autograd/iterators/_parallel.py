"""Iterators that read examples in worker threads or processes while the
caller works on the previous batch. They go through the same states as
SerialIterator, so with the same order sampler they give the same batches."""
import collections
import multiprocessing
import multiprocessing.pool
import time
import warnings
import weakref

import numpy

from kumo import _core
from kumo import _creation
from kumo import _interop
from kumo.autograd.iterators._serial import _EpochIterator


class _PrefetchIterator(_EpochIterator):
    """Keeps up to ``_depth`` batches in flight. ``_ahead`` is the state
    after the last batch handed to the workers; ``_state`` the state the
    caller has reached (the one serialized)."""

    _depth = 1

    def reset(self):
        super().reset()
        self._queue = collections.deque()
        self._ahead = self._state

    def _drop_prefetched(self):
        # Results still in flight are simply never collected.
        self._queue.clear()
        self._ahead = self._state

    def _fill(self, depth):
        while len(self._queue) < depth:
            if self._queue and self._queue[-1][1] is None:
                break  # a non-repeating iterator has nothing after its end
            state, indices = self._advance(self._ahead)
            self._ahead = state
            self._queue.append((state, None if indices is None else self._submit(indices)))

    def __next__(self):
        self._fill(1)
        state, pending = self._queue.popleft()
        self._previous_epoch_detail = self.epoch_detail
        self._state = state
        if pending is None:
            self._drop_prefetched()
            raise StopIteration
        batch = self._collect(pending)
        self._fill(self._depth)
        return batch

    next = __next__

    def serialize(self, serializer):
        before = (self._state, self._previous_epoch_detail)
        super().serialize(serializer)
        if not _same_state(before, (self._state, self._previous_epoch_detail)):
            self._drop_prefetched()  # loaded a different state: what was prefetched is stale

    def _submit(self, indices):
        raise NotImplementedError

    def _collect(self, pending):
        # Waiting in short steps keeps Ctrl-C working while a batch loads.
        while not pending.ready():
            pending.wait(0.5)
        return list(pending.get())


def _same_state(a, b):
    (sa, pa), (sb, pb) = a, b
    if sa[:3] != sb[:3] or pa != pb:
        return False
    if sa.order is None or sb.order is None:
        return sa.order is sb.order
    return numpy.array_equal(sa.order, sb.order)


def _shutdown_pool(pool):
    pool.terminate()
    pool.join()


class MultithreadIterator(_PrefetchIterator):
    """Reads the examples of the next batch in a pool of ``n_threads``
    threads while the current batch is used (useful when reading an example
    releases the GIL: file I/O, image decoding, kumo kernels)."""

    _order_keys = ("_order", None)

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, n_threads=1, order_sampler=None):
        self.n_threads = n_threads
        self._pool = None
        self._pool_finalizer = None
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler)

    def _submit(self, indices):
        if self._pool is None:
            self._pool = multiprocessing.pool.ThreadPool(self.n_threads)
            self._pool_finalizer = weakref.finalize(self, _shutdown_pool, self._pool)
        dataset = self.dataset
        return self._pool.map_async(lambda i: dataset[i], [int(i) for i in indices])

    def finalize(self):
        """Stops the worker threads; the iterator restarts them if used again."""
        if getattr(self, "_queue", None) is not None:
            self._drop_prefetched()
        fin, self._pool_finalizer, self._pool = getattr(self, "_pool_finalizer", None), None, None
        if fin is not None:
            fin()


# The dataset of a worker process, set once when the process starts.
_worker_dataset = None


def _worker_init(dataset):
    global _worker_dataset
    _worker_dataset = dataset


def _worker_fetch(index):
    return _to_picklable(_worker_dataset[index])


class _HostArray:
    """A kumo array on its way from a worker process: its values as NumPy."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _to_picklable(x):
    if isinstance(x, _core.ndarray):
        return _HostArray(_interop.asnumpy(x))
    if isinstance(x, tuple):
        return tuple(_to_picklable(v) for v in x)
    if isinstance(x, list):
        return [_to_picklable(v) for v in x]
    if isinstance(x, dict):
        return {k: _to_picklable(v) for k, v in x.items()}
    return x


def _from_picklable(x):
    if isinstance(x, _HostArray):
        return _creation.asarray(x.value)
    if isinstance(x, tuple):
        return tuple(_from_picklable(v) for v in x)
    if isinstance(x, list):
        return [_from_picklable(v) for v in x]
    if isinstance(x, dict):
        return {k: _from_picklable(v) for k, v in x.items()}
    return x


class MultiprocessIterator(_PrefetchIterator):
    """Reads examples in ``n_processes`` worker processes (all CPUs by
    default), keeping ``n_prefetch`` batches in flight.

    The workers get the dataset when they start (inherited under the 'fork'
    start method, pickled otherwise). Examples travel back pickled; kumo
    arrays in them arrive as host kumo arrays, so a dataset should keep its
    arrays on the host. ``shared_mem`` is accepted for compatibility and not
    needed (examples are not copied through fixed-size shared buffers).
    ``dataset_timeout`` (seconds): warn once when a batch takes longer.
    Call ``finalize()`` (or use ``with``) to stop the workers; they are also
    stopped when the iterator is collected or the interpreter exits.
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, n_processes=None, n_prefetch=1,
                 shared_mem=None, order_sampler=None, dataset_timeout=30.0, maxtasksperchild=None):
        if n_prefetch < 1:
            raise ValueError("n_prefetch must be positive, got %r" % (n_prefetch,))
        self.n_processes = n_processes or multiprocessing.cpu_count()
        self.n_prefetch = n_prefetch
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild
        self._depth = n_prefetch
        self._pool = None
        self._pool_finalizer = None
        self._warned = False
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler)

    def _submit(self, indices):
        if self._pool is None:
            self._pool = multiprocessing.get_context().Pool(self.n_processes, initializer=_worker_init,
                                                            initargs=(self.dataset,),
                                                            maxtasksperchild=self.maxtasksperchild)
            self._pool_finalizer = weakref.finalize(self, _shutdown_pool, self._pool)
        indices = [int(i) for i in indices]
        chunk = max(1, len(indices) // (4 * self.n_processes))
        return self._pool.map_async(_worker_fetch, indices, chunksize=chunk)

    def _collect(self, pending):
        start = time.monotonic()
        while not pending.ready():
            pending.wait(0.5)
            if (not self._warned and self.dataset_timeout is not None
                    and time.monotonic() - start > self.dataset_timeout):
                self._warned = True
                warnings.warn("MultiprocessIterator: a batch took more than dataset_timeout=%s seconds to load"
                              % self.dataset_timeout, RuntimeWarning)
        return [_from_picklable(x) for x in pending.get()]

    def finalize(self):
        """Stops the worker processes; the iterator restarts them if used again."""
        if getattr(self, "_queue", None) is not None:
            self._drop_prefetched()
        fin, self._pool_finalizer, self._pool = getattr(self, "_pool_finalizer", None), None, None
        if fin is not None:
            fin()

    def __copy__(self):
        """A new iterator (with its own workers) at the same state."""
        sampler = {"shuffle": self._shuffle} if self._shuffle is not None else {"order_sampler": self.order_sampler}
        other = MultiprocessIterator(self.dataset, self.batch_size, self.repeat, n_processes=self.n_processes,
                                     n_prefetch=self.n_prefetch, shared_mem=self.shared_mem,
                                     dataset_timeout=self.dataset_timeout, maxtasksperchild=self.maxtasksperchild,
                                     **sampler)
        other._state = self._state
        other._ahead = self._state
        other._previous_epoch_detail = self._previous_epoch_detail
        return other
