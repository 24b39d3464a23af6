"""scatter_dataset and scatter_index: equal shards of a dataset, one per
process, cut by root (optionally after a seeded shuffle)."""

import pickle

import numpy

from kumo.autograd.dataset import DatasetMixin

_DEFAULT_MAX_BUF_LEN = 256 * 1024 * 1024


class _Shard(DatasetMixin):
    """The examples a process received, in order (picklable when they are)."""

    def __init__(self, examples):
        self._examples = examples

    def __len__(self):
        return len(self._examples)

    def get_example(self, i):
        return self._examples[i]


def _shard_bounds(n, size, force_equal_length):
    """(start, end) of each shard over positions 0..n-1. With
    force_equal_length every shard has ceil(n / size) positions: shorter
    ones continue past their end, wrapping around to the start."""
    length = -(-n // size) if n else 0
    bounds = []
    for i in range(size):
        start = n * i // size
        end = start + length if force_equal_length else n * (i + 1) // size
        bounds.append((start, end))
    return bounds


def scatter_index(n_total_samples, comm, root=0, *, force_equal_length=True):
    """This process's (start, end) range of sample positions: equal shards of
    range(n_total_samples) by rank (end may pass n_total_samples with
    force_equal_length: positions are then taken modulo n_total_samples)."""
    if n_total_samples < 0:
        raise ValueError("n_total_samples must be non-negative")
    bounds = comm.bcast_obj(_shard_bounds(int(n_total_samples), comm.size, force_equal_length)
                            if comm.rank == root else None, root=root)
    return bounds[comm.rank]


def scatter_dataset(dataset, comm, root=0, shuffle=False, seed=None, max_buf_len=_DEFAULT_MAX_BUF_LEN, *,
                    force_equal_length=True):
    """This process's shard of root's `dataset` (other processes pass None).

    Root orders the examples (a permutation from ``numpy.random.RandomState(seed)``
    when shuffle is set), cuts the order into ``comm.size`` shards of equal
    length (see scatter_index) and sends each process its examples, pickled,
    in pieces of at most max_buf_len bytes. Examples must be picklable.
    """
    if max_buf_len <= 0:
        raise ValueError("max_buf_len must be positive")
    if comm.rank == root:
        n = len(dataset)
        order = numpy.random.RandomState(seed).permutation(n) if shuffle else numpy.arange(n)
        bounds = _shard_bounds(n, comm.size, force_equal_length)
        mine = None
        for rank, (start, end) in enumerate(bounds):
            examples = [dataset[int(order[j % n])] for j in range(start, end)]
            if rank == root:
                mine = _Shard(examples)
                continue
            data = pickle.dumps(examples, protocol=pickle.HIGHEST_PROTOCOL)
            pieces = [data[at:at + max_buf_len] for at in range(0, len(data), max_buf_len)]
            comm.send_obj(len(pieces), rank, tag=0)
            for piece in pieces:
                comm._mpi.send_bytes(piece, rank, 0)
        return mine
    count = comm.recv_obj(root, tag=0)
    data = b"".join(comm._mpi.recv_bytes(root, 0) for _ in range(count))
    return _Shard(pickle.loads(data))
