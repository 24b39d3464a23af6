"""Data-parallel training with kumo.distributed under mpiexec: N processes
with batch B reach the parameters of one process with batch N*B (rank 0's
initial values broadcast at setup, gradients averaged); float16 gradient
communication and double buffering still converge."""
import os

import numpy
import pytest

from distributed_workers.launch import mpirun, requires_mpi

pytestmark = requires_mpi
ITERS, BATCH = 8, 16


def _load(path):
    return dict(numpy.load(path))


@pytest.mark.parametrize("n", [2, 3])
def test_n_processes_match_one_process_with_n_times_the_batch(n, tmp_path):
    mpirun(n, "train.py", tmp_path, "dist", ITERS, BATCH, "none", 0)
    mpirun(1, "train.py", tmp_path, "single", ITERS, BATCH, n)
    single = _load(tmp_path / "params_single.npz")
    ranks = [_load(tmp_path / ("params%d.npz" % r)) for r in range(n)]
    for name in single:
        if name == "losses":
            continue
        for r in range(1, n):  # every process holds the same model
            numpy.testing.assert_array_equal(ranks[r][name], ranks[0][name])
        numpy.testing.assert_allclose(ranks[0][name], single[name], rtol=1e-4, atol=1e-5, err_msg=name)
    numpy.testing.assert_allclose(ranks[0]["losses"], single["losses"], rtol=1e-5)


@pytest.mark.parametrize("dtype,double", [("float16", 0), ("none", 1)], ids=["float16", "double_buffering"])
def test_variants_converge(dtype, double, tmp_path):
    iters = 60
    mpirun(2, "train.py", tmp_path, "dist", iters, BATCH, dtype, double)
    a, b = _load(tmp_path / "params0.npz"), _load(tmp_path / "params1.npz")
    for name in a:
        numpy.testing.assert_array_equal(a[name], b[name])
    losses = a["losses"]
    assert numpy.all(numpy.isfinite(losses))
    assert losses[-10:].mean() < 0.75 * losses[:5].mean(), losses  # from 2.3 to about 1.5 in 60 steps


def test_distributed_example_trains(tmp_path):
    """The README's distributed variant of the main job, one epoch."""
    import os
    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "train_digits_distributed.py")
    proc = mpirun(2, os.path.abspath(script), "--epochs", 1, "--out", tmp_path)
    assert "2 processes" in proc.stdout
    assert "test accuracy:" in proc.stdout
