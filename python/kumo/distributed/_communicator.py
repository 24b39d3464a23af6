"""Communicators: ChainerMN's CommunicatorBase API over kumo's C++ MPI
communicator (host arrays, MpiCommunicator) and NCCL communicator (CUDA
arrays, NcclCommunicator), and create_communicator, which picks one."""

import functools
import operator
import pickle

import numpy

from kumo import _core
from kumo import _creation
from kumo import _device
from kumo import cuda as _cuda
from kumo.distributed._native import native

_ALLREDUCE_OPS = ("sum", "mean", "max", "min")


def _as_array(x, name):
    if isinstance(x, _core.ndarray):
        return x
    if isinstance(x, numpy.ndarray) or numpy.isscalar(x):
        return _creation.asarray(x)
    raise TypeError("kumo.distributed: {} expects a kumo.ndarray, not {}".format(name, type(x).__name__))


def _meta(x):
    return (str(x.dtype), tuple(x.shape))


def _params_with_grads(model, zero_fill):
    """The (name, param) pairs of `model` whose gradient takes part in a
    gradient allreduce: initialised parameters, with a zero gradient when
    they have none and zero_fill is set (else skipped)."""
    out = []
    for name, param in sorted(model.namedparams(include_uninit=False), key=lambda p: p[0]):
        if param.grad is None:
            if not zero_fill:
                continue
            param.grad = _creation.zeros_like(param.array)
        out.append((name, param))
    return out


class CommunicatorBase:
    """What every kumo communicator offers (ChainerMN's names and semantics).

    Array collectives take and return kumo arrays; the ``*_obj`` variants move
    any picklable object. Every call waits for its peers at most
    ``timeout`` seconds (``KUMO_DISTRIBUTED_TIMEOUT``) and then raises
    ``CommunicationTimeoutError`` (a ``TimeoutError``).
    """

    def __init__(self, native_comm, mpi_comm):
        self._comm = native_comm
        self._mpi = mpi_comm  # the MPI communicator objects travel over
        self._config = {"allreduce_grad_dtype": None, "batched_copy": True,
                        "bucket_bytes": 64 * 1024 * 1024}
        self._buckets = {}

    # -- topology --
    rank = property(lambda self: self._comm.rank)
    size = property(lambda self: self._comm.size)
    intra_rank = property(lambda self: self._comm.intra_rank)
    intra_size = property(lambda self: self._comm.intra_size)
    inter_rank = property(lambda self: self._comm.inter_rank)
    inter_size = property(lambda self: self._comm.inter_size)

    @property
    def timeout(self):
        return self._comm.timeout

    @timeout.setter
    def timeout(self, seconds):
        self._comm.timeout = float(seconds)
        if self._mpi is not self._comm:
            self._mpi.timeout = float(seconds)

    def __repr__(self):
        return "<{} rank {} of {}>".format(type(self).__name__, self.rank, self.size)

    # -- configuration (ChainerMN's set_config/get_config) --
    def set_config(self, name, value=True, **kwargs):
        if name == "allreduce_grad_dtype":
            value = None if value is None else numpy.dtype(value)
            if value is not None and value.kind != "f":
                raise ValueError("allreduce_grad_dtype must be a floating dtype or None, not {}".format(value))
        elif name == "bucket_bytes":
            value = int(value)
            if value <= 0:
                raise ValueError("bucket_bytes must be positive")
        elif name != "batched_copy":
            raise ValueError("unknown communicator configuration '{}'".format(name))
        self._config[name] = value
        self._buckets.clear()

    def get_config(self, name=None):
        if name is None:
            return dict(self._config)
        if name not in self._config:
            raise ValueError("unknown communicator configuration '{}'".format(name))
        return self._config[name]

    @property
    def allreduce_grad_dtype(self):
        return self._config["allreduce_grad_dtype"]

    # -- objects (pickled, over MPI) --
    def send_obj(self, obj, dest, tag=0):
        self._mpi.send_bytes(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), dest, tag)

    def recv_obj(self, source, tag=0):
        return pickle.loads(self._mpi.recv_bytes(source, tag))

    def bcast_obj(self, obj, max_buf_len=None, root=0):
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL) if self.rank == root else b""
        return pickle.loads(self._mpi.bcast_bytes(data, root))

    def gather_obj(self, obj, root=0):
        """On root, the list of every process's object (by rank); None elsewhere."""
        parts = self._mpi.gather_bytes(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), root)
        return [pickle.loads(p) for p in parts] if self.rank == root else None

    def allgather_obj(self, obj):
        return [pickle.loads(p) for p in self._mpi.allgather_bytes(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))]

    def allreduce_obj(self, obj):
        """The sum (``+``, in rank order) of every process's object, on every process."""
        return functools.reduce(operator.add, self.allgather_obj(obj))

    # -- arrays --
    def _check_op(self, op):
        if op not in _ALLREDUCE_OPS:
            raise ValueError("kumo.distributed: allreduce: op must be one of {}, not {!r}".format(_ALLREDUCE_OPS, op))

    def allreduce(self, x, op="sum"):
        """A new array: `op` ('sum', 'mean', 'max', 'min') over every process's
        `x` element by element (equal shapes and dtypes on every process)."""
        self._check_op(op)
        x = _as_array(x, "allreduce")
        out = _creation.empty(x.shape, dtype=x.dtype)
        self._comm.allreduce(x, out, op)
        return out

    def inplace_allreduce(self, x, op="sum"):
        """`x` replaced by `op` over every process's `x`."""
        self._comm.allreduce(x, x, op)  # the C++ call checks op (ValueError): nothing to add per call
        return x

    def bcast(self, x, max_buf_len=None, root=0):
        """Root's array on every process (others pass None or anything)."""
        meta = self.bcast_obj(_meta(_as_array(x, "bcast")) if self.rank == root else None, root=root)
        buf = x if self.rank == root else _creation.empty(meta[1], dtype=meta[0])
        self._comm.bcast(buf, root)
        return buf

    def allgather(self, x):
        """A tuple of every process's array, by rank (shapes may differ)."""
        x = _as_array(x, "allgather")
        metas = self.allgather_obj(_meta(x))
        _check_one_dtype(metas, "allgather")
        out = _flat_views(metas)
        self._comm.allgather(x, list(out))
        return out

    def gather(self, x, root=0):
        """On root, a tuple of every process's array by rank; None elsewhere."""
        x = _as_array(x, "gather")
        metas = self.gather_obj(_meta(x), root=root)
        if self.rank == root:
            _check_one_dtype(metas, "gather")
            out = _flat_views(metas)
            self._comm.gather(x, list(out), root)
            return out
        self._comm.gather(x, [], root)
        return None

    def scatter(self, xs, root=0):
        """This process's piece of root's `xs` (a sequence of `size` arrays, or
        an array whose first axis has length `size`)."""
        metas = None
        if self.rank == root:
            try:
                if isinstance(xs, (_core.ndarray, numpy.ndarray)):
                    xs = [xs[i] for i in range(xs.shape[0])] if xs.ndim > 0 else None
                if xs is None or len(xs) != self.size:
                    raise ValueError("kumo.distributed: scatter needs one array per process ({}) on the root".format(
                        self.size))
                xs = [_as_array(x, "scatter") for x in xs]
                metas = [_meta(x) for x in xs]
                _check_one_dtype(metas, "scatter")
            except (TypeError, ValueError) as e:
                metas = e  # every process raises it, none waits for the data
        metas = self.bcast_obj(metas, root=root)
        if isinstance(metas, Exception):
            raise metas
        out = _creation.empty(metas[self.rank][1], dtype=metas[self.rank][0])
        self._comm.scatter(xs if self.rank == root else [], out, root)
        return out

    def alltoall(self, xs):
        """A tuple whose i-th array is process i's ``xs[rank]``."""
        if len(xs) != self.size:
            raise ValueError("kumo.distributed: alltoall needs one array per process ({}), got {}".format(
                self.size, len(xs)))
        xs = [_as_array(x, "alltoall") for x in xs]
        _check_one_dtype([_meta(x) for x in xs], "alltoall")
        metas = self.allgather_obj([_meta(x) for x in xs])  # metas[i][j]: what i sends to j
        dtypes = {m[0] for row in metas for m in row}
        if len(dtypes) > 1:
            raise TypeError("kumo.distributed: alltoall: the processes send different dtypes {}".format(sorted(dtypes)))
        out = tuple(_creation.empty(metas[i][self.rank][1], dtype=metas[i][self.rank][0]) for i in range(self.size))
        self._comm.alltoall(xs, list(out))
        return out

    def send(self, x, dest, tag=0):
        x = _as_array(x, "send")
        self.send_obj(_meta(x), dest, tag)
        self._comm.send(x, dest, tag)

    def recv(self, source, tag=0):
        dtype, shape = self.recv_obj(source, tag)
        out = _creation.empty(shape, dtype=dtype)
        self._comm.recv(out, source, tag)
        return out

    def barrier(self):
        self._comm.barrier()

    def split(self, color, key):
        """The processes that passed the same color, ranked by key."""
        return type(self)._from_split(self, int(color), int(key))

    # -- models --
    def bcast_data(self, model, root=0):
        """Root's parameter arrays (and the persistent arrays of links, e.g.
        batch-normalization statistics) copied into every process's model.
        A parameter whose shape or dtype differs between processes is a
        ValueError naming it, on every process."""
        named = sorted(model.namedparams(include_uninit=False), key=lambda p: p[0])
        arrays = [(name, p.array) for name, p in named]
        for link_name, link in sorted(model.namedlinks(), key=lambda p: p[0]):
            for pname in sorted(getattr(link, "_persistent", ())):
                value = getattr(link, pname, None)
                if isinstance(value, _core.ndarray):
                    arrays.append((link_name.rstrip("/") + "/" + pname, value))
        check_same_layout(self, [(name, _meta(a)) for name, a in arrays], root)
        for _, a in arrays:
            self._comm.bcast(a, root)

    def _grad_buckets(self, grads):
        dtype = self._config["allreduce_grad_dtype"]
        key = None if dtype is None else str(dtype)
        buckets = self._buckets.get(key)
        if buckets is None:
            buckets = native().GradientBuckets(self._config["bucket_bytes"], key)
            self._buckets[key] = buckets
        return buckets

    def multi_node_mean_grad(self, model, zero_fill=False):
        """Every parameter's gradient replaced by its mean over the processes
        (packed into buckets, in ``allreduce_grad_dtype`` on the wire)."""
        grads = [p.grad for _, p in _params_with_grads(model, zero_fill)]
        if grads:
            native().allreduce_gradients(self._comm, self._grad_buckets(grads), grads, True)

    def allreduce_grad(self, model, zero_fill=False):
        """ChainerMN's name for multi_node_mean_grad (the mean, not the sum)."""
        self.multi_node_mean_grad(model, zero_fill)

    def finalize(self):
        native().finalize()


def _check_one_dtype(metas, what):
    dtypes = {m[0] for m in metas}
    if len(dtypes) > 1:
        raise TypeError("kumo.distributed: {}: the arrays have different dtypes {}".format(what, sorted(dtypes)))


def _flat_views(metas):
    """Arrays of the given (dtype, shape)s lying back to back in one block, so
    MPI receives them in one call."""
    dtype = metas[0][0]
    sizes = [int(numpy.prod(shape, dtype=numpy.int64)) for _, shape in metas]
    flat = _creation.empty(sum(sizes), dtype=dtype)
    out, at = [], 0
    for (_, shape), n in zip(metas, sizes):
        out.append(flat[at:at + n].reshape(shape))
        at += n
    return tuple(out)


def check_same_layout(comm, entries, root=0):
    """Raises ValueError on every process when the (name, (dtype, shape))
    entries differ from root's, naming the first differing entry."""
    reference = comm.bcast_obj(entries, root=root)
    problem = None
    mine = dict(entries)
    theirs = dict(reference)
    for name in sorted(set(mine) | set(theirs)):
        if name not in theirs:
            problem = "parameter '{}' exists on rank {} but not on rank {}".format(name, comm.rank, root)
        elif name not in mine:
            problem = "parameter '{}' exists on rank {} but not on rank {}".format(name, root, comm.rank)
        elif mine[name] != theirs[name]:
            problem = "parameter '{}' is {} {} on rank {} but {} {} on rank {}".format(
                name, mine[name][0], mine[name][1], comm.rank, theirs[name][0], theirs[name][1], root)
        if problem:
            break
    problems = [p for p in comm.allgather_obj(problem) if p]
    if problems:
        raise ValueError("kumo.distributed: the processes' models differ: " + "; ".join(problems))


class MpiCommunicator(CommunicatorBase):
    """Host arrays over MPI (ChainerMN's 'naive'/'flat' communicators)."""

    def __init__(self, native_comm):
        super().__init__(native_comm, native_comm)

    @classmethod
    def _from_split(cls, parent, color, key):
        return cls(parent._comm.split(color, key))


# The 'pure_nccl' communicator: CUDA arrays over NCCL (one GPU per process),
# objects and barriers over MPI.
def _native_nccl():
    # Optional: only builds with the CUDA toolkit's NCCL have it.
    try:
        from kumo import _distributed_nccl
    except ImportError as e:
        raise ImportError("the 'pure_nccl' communicator needs kumo built with the CUDA toolkit's NCCL "
                          "(kumo._distributed_nccl): {}".format(e)) from e
    return _distributed_nccl


class NcclCommunicator(CommunicatorBase):
    """CUDA arrays over NCCL on this process's GPU: kumo's current device when
    it is a CUDA device, else device ``intra_rank`` (which becomes current)."""

    def __init__(self, mpi):
        nccl = _native_nccl()
        current = _device.get_device()
        if current.type == "cuda":
            device = current.index
        else:
            device = mpi.intra_rank
            _cuda.Device(device).use()
        super().__init__(nccl.NcclCommunicator(mpi, device), mpi)

    @property
    def device(self):
        return self._comm.device

    @classmethod
    def _from_split(cls, parent, color, key):
        return cls(parent._mpi.split(color, key))


def _native_mpi_comm(mpi_comm):
    n = native()
    if mpi_comm is None:
        return n.MpiCommunicator.world()
    if isinstance(mpi_comm, CommunicatorBase):
        return mpi_comm._mpi
    py2f = getattr(mpi_comm, "py2f", None)  # an mpi4py communicator
    if py2f is None:
        raise TypeError("mpi_comm must be an mpi4py communicator or a kumo communicator, not {}".format(
            type(mpi_comm).__name__))
    return n.MpiCommunicator.from_fortran_handle(py2f())


_HOST_NAMES = ("naive", "flat", "mpi")


def create_communicator(communicator_name=None, mpi_comm=None, allreduce_grad_dtype=None, batched_copy=True):
    """A communicator over the processes of `mpi_comm` (default: all of them).

    communicator_name: 'naive', 'flat' or 'mpi' -- host arrays over MPI;
    'pure_nccl' -- CUDA arrays over NCCL (one GPU per process, device
    ``intra_rank``). None picks 'pure_nccl' when kumo's current device is a
    CUDA device and NCCL is built, else 'naive'.
    """
    mpi = _native_mpi_comm(mpi_comm)
    if communicator_name is None:
        communicator_name = "pure_nccl" if _cuda_current() and _nccl_available() else "naive"
    if communicator_name in _HOST_NAMES:
        comm = MpiCommunicator(mpi)
    elif communicator_name == "pure_nccl":
        comm = NcclCommunicator(mpi)
    else:
        raise ValueError("unrecognized communicator_name: {!r} (use 'naive', 'flat', 'mpi' or 'pure_nccl')".format(
            communicator_name))
    comm.set_config("allreduce_grad_dtype", allreduce_grad_dtype)
    comm.set_config("batched_copy", batched_copy)
    return comm


def _cuda_current():
    return _device.get_device().type == "cuda"


def _nccl_available():
    try:  # optional, as in _native_nccl
        from kumo import _distributed_nccl  # noqa: F401
        return True
    except ImportError:
        return False
