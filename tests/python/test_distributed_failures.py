"""A dead peer ends the job with mpiexec's report; a hung peer becomes CommunicationTimeoutError on the others within
KUMO_DISTRIBUTED_TIMEOUT and the job ends (MPI_Abort) instead of hanging;
a parameter whose shape or dtype differs between processes is a ValueError
naming it at the optimizer's setup, on every process."""
import re
import time

import pytest

from distributed_workers.launch import mpirun, requires_mpi

pytestmark = requires_mpi


@pytest.mark.parametrize("n", [2, 3])
def test_hung_peer_times_out_and_the_job_ends(n):
    start = time.time()
    proc = mpirun(n, "failures.py", "hang", 60, env={"KUMO_DISTRIBUTED_TIMEOUT": "2", "KUMO_DISTRIBUTED_BLOCKING": "0"},
                  check=False, timeout=50)
    elapsed = time.time() - start
    assert elapsed < 30, "the job waited for the sleeping process"
    assert proc.returncode != 0
    text = proc.stdout + proc.stderr
    assert "CommunicationTimeoutError" in text
    assert "did not complete within 2 s" in text
    # Every waiting rank times out; whichever raises first ends the job, and
    # Open MPI may kill the others before they print.
    assert re.search(r"rank [0-%d] raised after" % (n - 2), text)


@pytest.mark.parametrize("n", [2, 3])
def test_hung_peer_aborts_the_job_with_blocking_calls(n):
    start = time.time()
    # Blocking calls are the default.
    proc = mpirun(n, "failures.py", "hang", 60, env={"KUMO_DISTRIBUTED_TIMEOUT": "2"}, check=False, timeout=50)
    assert time.time() - start < 30, "the job waited for the sleeping process"
    assert proc.returncode != 0
    text = proc.stdout + proc.stderr
    # whichever waiting process's watchdog fires first reports and aborts
    assert re.search(r"allreduce on rank \d of %d did not complete within 2 s" % n, text)
    assert "aborting the job" in text


@pytest.mark.parametrize("n", [2, 3])
def test_dead_peer_ends_the_job_with_a_report(n):
    # The timeout is long: the job must end because mpiexec sees the process
    # die, not because the survivors' wait expires.
    start = time.time()
    proc = mpirun(n, "failures.py", "die", env={"KUMO_DISTRIBUTED_TIMEOUT": "60"}, check=False, timeout=100)
    assert time.time() - start < 30, "the job waited for the dead process"
    assert proc.returncode != 0
    text = proc.stdout + proc.stderr
    assert "exited with non-zero status" in text
    assert "Exit code:    3" in text


@pytest.mark.parametrize("case,expected", [("shape", "is float32 (6, 3) on rank {last} but float32 (5, 3) on rank 0"),
                                           ("dtype", "is float64 (5, 3) on rank {last} but float32 (5, 3) on rank 0")])
@pytest.mark.parametrize("n", [2, 3])
def test_parameter_mismatch_is_named_on_every_process(n, case, expected):
    proc = mpirun(n, "failures.py", case)
    message = "parameter '/predictor/W' " + expected.format(last=n - 1)
    # the processes' lines may interleave in mpiexec's output
    assert proc.stdout.count(message) == n
    for r in range(n):
        assert "rank %d: kumo.distributed: the processes' models differ" % r in proc.stdout
