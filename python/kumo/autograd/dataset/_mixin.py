"""The dataset protocol (Chainer's ``chainer.dataset.DatasetMixin``) and the
iterator base class (``chainer.dataset.Iterator``)."""
import numpy

from kumo import _core
from kumo import _interop


def _is_index_list(index):
    """A list or an integer array (not 0-d) selects several examples at once."""
    if isinstance(index, list):
        return True
    if isinstance(index, numpy.ndarray):
        return index.ndim > 0
    return isinstance(index, _core.ndarray) and index.ndim > 0


def _host_indices(index):
    """An index array (NumPy or kumo, any device) as a list of Python ints."""
    if not isinstance(index, numpy.ndarray):
        index = _interop.asnumpy(index)
    return index.tolist()


class DatasetMixin:
    """Base class of datasets that define ``__len__`` and ``get_example(i)``.

    Indexing with an integer returns one example; a slice, a list or an array
    of indices returns a list of examples.
    """

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.get_example(i) for i in range(*index.indices(len(self)))]
        if _is_index_list(index):
            if not isinstance(index, list):
                index = _host_indices(index)
            return [self.get_example(i) for i in index]
        if hasattr(index, "ndim") and index.ndim == 0:
            index = int(index)  # a 0-d index array is one example
        return self.get_example(index)

    def __len__(self):
        raise NotImplementedError

    def get_example(self, i):
        raise NotImplementedError


class Iterator:
    """Base class of dataset iterators: ``next(it)`` gives a list of examples.

    Implementations provide ``batch_size``, ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail``, ``is_new_epoch`` and ``serialize``.
    """

    def __del__(self):
        self.finalize()

    def __iter__(self):
        return self

    def __next__(self):
        raise NotImplementedError

    def next(self):
        return self.__next__()

    def finalize(self):
        """Releases worker threads or processes; safe to call more than once."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()

    def serialize(self, serializer):
        """Saves or loads the iteration state through a Chainer-style serializer."""
