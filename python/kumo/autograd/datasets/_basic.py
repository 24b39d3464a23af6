"""In-memory datasets: tuples and dicts of parallel datasets, subsets and
their splits, transformed and concatenated datasets (Chainer's semantics)."""
import numbers
import warnings

import numpy

from kumo.autograd.dataset._mixin import DatasetMixin


class TupleDataset:
    """Zips datasets of equal length: example ``i`` is ``(d0[i], d1[i], ...)``.

    A slice gives a list of such tuples; other indices (an int, a list or an
    array) index every dataset and give the tuple of the results.
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError("no datasets are given")
        length = len(datasets[0])
        for i, d in enumerate(datasets):
            if len(d) != length:
                raise ValueError("dataset of the index {} has a wrong length".format(i))
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        parts = [d[index] for d in self._datasets]
        if isinstance(index, slice):
            return [tuple(p[i] for p in parts) for i in range(len(parts[0]))]
        return tuple(parts)

    def __len__(self):
        return self._length


class DictDataset:
    """Like TupleDataset with named datasets: example ``i`` is ``{key: d[i]}``."""

    def __init__(self, **datasets):
        if not datasets:
            raise ValueError("no datasets are given")
        length = None
        for key, d in datasets.items():
            if length is None:
                length = len(d)
            elif len(d) != length:
                raise ValueError('dataset length conflicts at "{}"'.format(key))
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        parts = {key: d[index] for key, d in self._datasets.items()}
        if isinstance(index, slice):
            n = len(next(iter(parts.values())))
            return [{key: p[i] for key, p in parts.items()} for i in range(n)]
        return parts

    def __len__(self):
        return self._length


class SubDataset(DatasetMixin):
    """Examples ``start`` to ``finish`` (exclusive) of ``dataset``, optionally
    through a permutation ``order`` of the whole dataset (example ``i`` is
    ``dataset[order[start + i]]``)."""

    def __init__(self, dataset, start, finish, order=None):
        if start < 0 or finish > len(dataset):
            raise ValueError("subset overruns the base dataset.")
        if order is not None and len(order) != len(dataset):
            raise ValueError("order option must have the same length as the base dataset: "
                             "len(order) = {} while len(dataset) = {}".format(len(order), len(dataset)))
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order

    def __len__(self):
        return self._size

    def get_example(self, i):
        if i >= 0:
            if i >= self._size:
                raise IndexError("dataset index out of range")
            index = self._start + i
        else:
            if i < -self._size:
                raise IndexError("dataset index out of range")
            index = self._finish + i
        if self._order is not None:
            index = int(self._order[index])
        return self._dataset[index]


def split_dataset(dataset, split_at, order=None):
    """Splits ``dataset`` at ``split_at`` into two SubDatasets (optionally
    through the permutation ``order``)."""
    if isinstance(split_at, bool) or not isinstance(split_at, (numbers.Integral, numpy.integer)):
        raise TypeError("split_at must be int, got {} instead".format(type(split_at)))
    n = len(dataset)
    if split_at < 0:
        raise ValueError("split_at must be non-negative")
    if split_at > n:
        raise ValueError("split_at exceeds the dataset size")
    return SubDataset(dataset, 0, split_at, order), SubDataset(dataset, split_at, n, order)


def _permutation(n, seed):
    # NumPy's legacy generator, as in Chainer: a seed gives the same split there.
    return numpy.random.RandomState(seed).permutation(n)


def split_dataset_random(dataset, first_size, seed=None):
    """Splits a random permutation of ``dataset`` into sizes ``first_size``
    and the rest; ``seed`` makes it reproducible."""
    return split_dataset(dataset, first_size, _permutation(len(dataset), seed))


def split_dataset_n(dataset, n, order=None):
    """``n`` SubDatasets of ``len(dataset) // n`` examples each (the
    remainder is left out)."""
    size = len(dataset) // n
    return [SubDataset(dataset, size * i, size * (i + 1), order) for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """split_dataset_n over a random permutation of ``dataset``."""
    return split_dataset_n(dataset, n, _permutation(len(dataset), seed))


def get_cross_validation_datasets(dataset, n_folds=None, order=None, **kwargs):
    """``n_folds`` pairs (train, test) for cross validation.

    The examples (in ``order`` if given) are cut into ``n_folds`` nearly equal
    folds; pair ``k`` tests on fold ``k`` and trains on the others, taken
    cyclically from the end of fold ``k``.
    """
    if "n_fold" in kwargs:
        warnings.warn("Argument `n_fold` is deprecated. Please use `n_folds` instead", DeprecationWarning)
        n_folds = kwargs.pop("n_fold")
    if kwargs:
        raise TypeError("unexpected keyword argument(s): %s" % ", ".join(sorted(kwargs)))
    whole = len(dataset)
    order = numpy.arange(whole) if order is None else numpy.array(order)
    borders = [whole * i // n_folds for i in range(n_folds + 1)]
    test_sizes = [borders[i + 1] - borders[i] for i in range(n_folds)]
    splits = []
    # Each round puts the last test_size entries of the order in front: the
    # test part (the tail) of the next pair is the fold before.
    for test_size in reversed(test_sizes):
        splits.append(split_dataset(dataset, whole - test_size, order))
        order = numpy.roll(order, test_size)
    return splits


def get_cross_validation_datasets_random(dataset, n_folds, seed=None, **kwargs):
    """get_cross_validation_datasets over a random permutation of ``dataset``."""
    if "n_fold" in kwargs:
        warnings.warn("Argument `n_fold` is deprecated. Please use `n_folds` instead", DeprecationWarning)
        n_folds = kwargs.pop("n_fold")
    return get_cross_validation_datasets(dataset, n_folds, _permutation(len(dataset), seed), **kwargs)


class TransformDataset(DatasetMixin):
    """Applies ``transform`` to each example of ``dataset`` when it is read."""

    def __init__(self, dataset, transform):
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])


class ConcatenatedDataset(DatasetMixin):
    """The examples of several datasets one after the other."""

    def __init__(self, *datasets):
        self._datasets = datasets

    def __len__(self):
        return sum(len(d) for d in self._datasets)

    def get_example(self, i):
        if i < 0:
            raise IndexError("dataset index out of range")
        for d in self._datasets:
            if i < len(d):
                return d[i]
            i -= len(d)
        raise IndexError("dataset index out of range")
