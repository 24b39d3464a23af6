"""The NCCL communicator: it is built and links against the toolkit's NCCL
wherever the CUDA toolkit ships it; its collectives run where GPUs exist
(one process per GPU)."""
import pytest

import kumo
from distributed_workers.launch import mpirun, requires_mpi

pytestmark = requires_mpi


def _nccl_module():
    try:
        from kumo import _distributed_nccl
    except ImportError as e:
        pytest.skip("kumo was built without NCCL: {}".format(e))
    return _distributed_nccl


def test_nccl_module_loads_and_reports_its_version():
    version = _nccl_module().nccl_version()
    assert version >= 20700  # NCCL 2.7: ncclSend/ncclRecv


@pytest.mark.skipif(not kumo.cuda.is_available(), reason="no CUDA device")
def test_nccl_collectives_on_gpus():
    _nccl_module()
    n = min(2, kumo.cuda.get_device_count())
    proc = mpirun(n, "nccl.py", env={"KUMO_DEVICE": "cuda"})
    for r in range(n):
        assert "rank %d OK mean" % r in proc.stdout
