"""The 'pure_nccl' communicator: CUDA arrays over NCCL (one GPU per process),
objects and barriers over MPI."""

import kumo
from kumo.distributed._communicator import CommunicatorBase


def _native_nccl():
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
        current = kumo.get_device()
        if current.type == "cuda":
            device = current.index
        else:
            device = mpi.intra_rank
            kumo.cuda.Device(device).use()
        super().__init__(nccl.NcclCommunicator(mpi, device), mpi)

    @property
    def device(self):
        return self._comm.device

    @classmethod
    def _from_split(cls, parent, color, key):
        return cls(parent._mpi.split(color, key))
