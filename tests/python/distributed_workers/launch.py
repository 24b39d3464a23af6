"""Runs a worker script of this folder under ``mpiexec -n N`` on the host
backend, with the settings Open MPI needs in CI containers."""
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
MPIEXEC = shutil.which("mpiexec")


def have_distributed():
    if MPIEXEC is None:
        return False, "mpiexec not found (Debian: apt-get install openmpi-bin libopenmpi-dev)"
    try:
        from kumo import _distributed  # noqa: F401
    except ImportError as e:
        return False, "kumo was built without MPI ({})".format(e)
    return True, ""


_ok, _why = have_distributed()
requires_mpi = pytest.mark.skipif(not _ok, reason=_why)


def mpi_env(extra=None):
    env = dict(os.environ)
    env.update({
        "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        # Containers often forbid the cross-memory-attach syscalls of the
        # shared-memory transport's single-copy mode.
        "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
        # More processes than cores: yield instead of spinning.
        "OMPI_MCA_mpi_yield_when_idle": "1",
        "KUMO_DEVICE": "cpu", "KUMO_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
    })
    env["PYTHONPATH"] = HERE + os.pathsep + env.get("PYTHONPATH", "")
    if extra:
        env.update(extra)
    return env


def mpirun(n, script, *args, timeout=120, env=None, check=True):
    """Runs `script` (a file of this folder) on n processes; returns the
    CompletedProcess (stdout and stderr as text)."""
    cmd = [MPIEXEC, "-n", str(n), "--oversubscribe", sys.executable, os.path.join(HERE, script)]
    cmd += [str(a) for a in args]
    proc = subprocess.run(cmd, env=mpi_env(env), capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError("mpiexec -n {} {} failed ({}):\n{}\n{}".format(n, script, proc.returncode,
                                                                          proc.stdout[-4000:], proc.stderr[-4000:]))
    return proc
