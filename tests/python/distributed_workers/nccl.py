"""The NCCL communicator on one GPU per process (run only where GPUs exist):
collectives and a gradient mean on CUDA arrays; rank 0 prints OK lines."""
import numpy

import kumo
import kumo.distributed as kd
from inputs import make_input

mpi = kd.create_communicator("naive")
kumo.cuda.Device(mpi.intra_rank % kumo.cuda.get_device_count()).use()
comm = kd.create_communicator("pure_nccl")
rank, size = comm.rank, comm.size
for dt in ["float16", "float32", "float64", "int32", "complex64"]:
    x = kumo.asarray(make_input(rank, dt))
    got = kumo.asnumpy(comm.allreduce(x, "sum"))
    expected = sum(make_input(r, dt) for r in range(size)).astype(dt)
    numpy.testing.assert_allclose(got, expected, rtol=1e-3)
    b = kumo.asnumpy(comm.bcast(x if rank == 0 else None, root=0))
    numpy.testing.assert_array_equal(b, make_input(0, dt))
    parts = comm.allgather(kumo.asarray(make_input(rank, dt, (rank + 1, 2))))
    for i, p in enumerate(parts):
        numpy.testing.assert_array_equal(kumo.asnumpy(p), make_input(i, dt, (i + 1, 2)))
    print("rank %d OK %s" % (rank, dt), flush=True)
mean = kumo.asnumpy(comm.allreduce(kumo.asarray(make_input(rank, "float32")), "mean"))
numpy.testing.assert_allclose(mean, sum(make_input(r, "float32") for r in range(size)) / size, rtol=1e-6)
print("rank %d OK mean" % rank, flush=True)
