"""Every collective of the MPI communicator on every dtype; each rank saves
its results to OUTDIR/rank<r>.npz for the test to compare with NumPy."""
import os
import sys

import numpy

import kumo
import kumo.distributed as kd
from inputs import DTYPES, make_input, with_nans

out_dir = sys.argv[1]
comm = kd.create_communicator("naive")
rank, size = comm.rank, comm.size
out = {"rank": numpy.array(rank), "size": numpy.array(size), "intra_rank": numpy.array(comm.intra_rank),
       "intra_size": numpy.array(comm.intra_size), "inter_rank": numpy.array(comm.inter_rank),
       "inter_size": numpy.array(comm.inter_size)}
errors = {}


def record(key, fn):
    try:
        value = fn()
    except Exception as e:  # the test checks which calls must raise what
        errors[key] = type(e).__name__
        return
    out[key] = numpy.asarray(kumo.asnumpy(value) if isinstance(value, kumo.ndarray) else value)


for dt in DTYPES:
    x = kumo.asarray(make_input(rank, dt))
    for op in ("sum", "mean", "max", "min"):
        record("allreduce_%s_%s" % (op, dt), lambda: comm.allreduce(x, op))
    if numpy.dtype(dt).kind == "f":
        nx = kumo.asarray(with_nans(rank, dt))
        record("nan_max_%s" % dt, lambda: comm.allreduce(nx, "max"))
        record("nan_min_%s" % dt, lambda: comm.allreduce(nx, "min"))
    # in place, and on a non-contiguous view (the rest of the base untouched)
    y = kumo.asarray(make_input(rank, dt))
    record("inplace_sum_%s" % dt, lambda: comm.inplace_allreduce(y, "sum"))
    base = kumo.asarray(make_input(rank, dt))
    view = base[:, ::2]
    comm.inplace_allreduce(view, "sum")
    out["strided_sum_%s" % dt] = kumo.asnumpy(base)
    record("bcast_%s" % dt, lambda: comm.bcast(x if rank == size - 1 else None, root=size - 1))
    for i, a in enumerate(comm.allgather(kumo.asarray(make_input(rank, dt, (rank + 1, 2))))):
        out["allgather_%s_%d" % (dt, i)] = kumo.asnumpy(a)
    gathered = comm.gather(x.T, root=0)  # a transposed (non-contiguous) input
    if rank == 0:
        for i, a in enumerate(gathered):
            out["gather_%s_%d" % (dt, i)] = kumo.asnumpy(a)
    pieces = [kumo.asarray(make_input(0, dt, (i + 1,), salt=3)) for i in range(size)] if rank == 0 else None
    record("scatter_%s" % dt, lambda: comm.scatter(pieces, root=0))
    sends = [kumo.asarray(make_input(rank, dt, (j + 1, 2), salt=5)) for j in range(size)]
    for i, a in enumerate(comm.alltoall(sends)):
        out["alltoall_%s_%d" % (dt, i)] = kumo.asnumpy(a)
    # point to point around a ring (even ranks send first, so nothing waits on itself)
    right, left = (rank + 1) % size, (rank - 1) % size
    if rank % 2 == 0:
        comm.send(x, right, tag=3)
        got = comm.recv(left, tag=3)
    else:
        got = comm.recv(left, tag=3)
        comm.send(x, right, tag=3)
    out["recv_%s" % dt] = kumo.asnumpy(got)

empty = kumo.zeros((0, 3), dtype="float32")
record("empty_allreduce", lambda: comm.allreduce(empty))
record("empty_bcast", lambda: comm.bcast(empty if rank == 0 else None))
record("zero_d_allreduce", lambda: comm.allreduce(kumo.asarray(numpy.float64(rank + 1.5))))
record("bad_op", lambda: comm.allreduce(kumo.ones(2), "prod"))
record("bad_root", lambda: comm.bcast(kumo.ones(2), root=size))
record("bad_name", lambda: kd.create_communicator("no_such_communicator"))
record("bad_mpi_comm", lambda: kd.create_communicator("naive", mpi_comm=object()))
comm.barrier()

# objects
out["allreduce_obj"] = numpy.array(comm.allreduce_obj(rank + 1))
out["bcast_obj"] = numpy.array(comm.bcast_obj({"k": [1, 2, rank]} if rank == 0 else None)["k"])
gathered = comm.gather_obj(("r", rank), root=size - 1)
out["gather_obj"] = numpy.array([g[1] for g in gathered] if rank == size - 1 else [])
out["allgather_obj"] = numpy.array(comm.allgather_obj(rank * 2))
if rank % 2 == 0:
    comm.send_obj({"from": rank, "big": "x" * 100000}, (rank + 1) % size, tag=4)
    obj = comm.recv_obj((rank - 1) % size, tag=4)
else:
    obj = comm.recv_obj((rank - 1) % size, tag=4)
    comm.send_obj({"from": rank, "big": "x" * 100000}, (rank + 1) % size, tag=4)
out["recv_obj"] = numpy.array([obj["from"], len(obj["big"])])

out["scatter_index"] = numpy.array(kd.scatter_index(10, comm))
out["scatter_index_unequal"] = numpy.array(kd.scatter_index(10, comm, force_equal_length=False))

# split: even and odd ranks, reversed order inside each part
part = comm.split(rank % 2, -rank)
out["split_rank"] = numpy.array(part.rank)
out["split_size"] = numpy.array(part.size)
out["split_sum"] = kumo.asnumpy(part.allreduce(kumo.asarray([rank])))

# an mpi4py communicator, where mpi4py is installed
try:
    from mpi4py import MPI
except ImportError:
    MPI = None
if MPI is not None:
    halves = kd.create_communicator("naive", mpi_comm=MPI.COMM_WORLD.Split(rank % 2, rank))
    out["mpi4py_split_sum"] = kumo.asnumpy(halves.allreduce(kumo.asarray([rank])))

numpy.savez(os.path.join(out_dir, "rank%d.npz" % rank), **out)
with open(os.path.join(out_dir, "errors%d.txt" % rank), "w") as f:
    for k, v in sorted(errors.items()):
        f.write("%s %s\n" % (k, v))
