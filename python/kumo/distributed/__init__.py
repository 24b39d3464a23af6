"""kumo.distributed: data-parallel training over MPI (host arrays) and NCCL
(CUDA arrays), ChainerMN's design. Launch with ``mpiexec -n N python train.py``.

    comm = kumo.distributed.create_communicator()
    optimizer = kumo.distributed.create_multi_node_optimizer(optimizers.Adam(), comm).setup(model)
    train = kumo.distributed.scatter_dataset(train, comm, shuffle=True)

The C++ layer (kumo._distributed) is loaded on first use, so ``import
kumo.distributed`` works without MPI; creating a communicator then raises
ImportError with the reason.
"""

from kumo.distributed import _native
from kumo.distributed._batch_normalization import MultiNodeBatchNormalization
from kumo.distributed._checkpoint import create_multi_node_checkpointer, MultiNodeCheckpointer
from kumo.distributed._communicator import CommunicatorBase, create_communicator, MpiCommunicator
from kumo.distributed._dataset import scatter_dataset, scatter_index
from kumo.distributed._evaluator import create_multi_node_evaluator
from kumo.distributed._functions import allreduce_sum
from kumo.distributed._iterator import create_synchronized_iterator
from kumo.distributed._optimizer import create_multi_node_optimizer


def __getattr__(name):
    if name == "CommunicationTimeoutError":
        return _native.native().CommunicationTimeoutError
    raise AttributeError("module 'kumo.distributed' has no attribute '{}'".format(name))


__all__ = ["CommunicatorBase", "MpiCommunicator", "create_communicator", "create_multi_node_optimizer",
           "scatter_dataset", "scatter_index", "create_multi_node_evaluator", "create_synchronized_iterator",
           "create_multi_node_checkpointer", "MultiNodeCheckpointer", "MultiNodeBatchNormalization",
           "allreduce_sum", "CommunicationTimeoutError"]
