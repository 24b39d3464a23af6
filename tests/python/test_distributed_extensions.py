"""kumo.distributed's training pieces under mpiexec: the multi-node
evaluator equals the single-process evaluation, synchronized iterators agree,
checkpoints resume, and MultiNodeBatchNormalization equals
BatchNormalization on the concatenated batch (values and gradients)."""
import os

import numpy
import pytest

import kumo
import kumo.autograd.links as L
from kumo.autograd import Variable
from kumo.autograd import functions as F
from distributed_workers.inputs import make_input
from distributed_workers.launch import mpirun, requires_mpi

pytestmark = requires_mpi


def _run(n, tmp_path, case, *args):
    mpirun(n, "extensions.py", tmp_path, case, *args)
    return [dict(numpy.load(os.path.join(tmp_path, "%s%d.npz" % (case, r)))) for r in range(n)]


@pytest.mark.parametrize("n", [2, 3])
def test_multi_node_evaluator_equals_single_process(n, tmp_path):
    ranks = _run(n, tmp_path, "evaluator")
    for key in ("main/loss", "main/accuracy"):
        single = float(ranks[0]["single" + key])
        for r in range(n):
            assert float(ranks[r]["multi" + key]) == pytest.approx(single, rel=1e-6)


def test_synchronized_iterators_agree(tmp_path):
    ranks = _run(2, tmp_path, "iterator")
    numpy.testing.assert_array_equal(ranks[0]["batches"], ranks[1]["batches"])
    flat = ranks[0]["batches"].reshape(-1)
    assert sorted(flat[:10]) == list(range(10))  # the first epoch is a permutation
    assert flat[:10].tolist() != list(range(10))  # shuffled


def test_checkpoint_and_resume(tmp_path):
    straight = _run(2, tmp_path / "straight", "checkpoint", 3, 0)
    first = _run(2, tmp_path / "resumed", "checkpoint", 2, 0)
    assert all(int(r["iteration"]) == 8 for r in first)  # 2 epochs of 4 batches
    second = _run(2, tmp_path / "resumed", "checkpoint", 3, 1)
    for r in range(2):
        assert int(second[r]["loaded"]) == 8
        assert int(second[r]["iteration"]) == 12
        numpy.testing.assert_array_equal(second[r]["W"], straight[r]["W"])
    # gc_interval=2: the newest two checkpoints of each process remain
    assert sorted(os.listdir(tmp_path / "resumed" / "trainer")) == sorted(
        "digits.iter%d.rank%dof2.npz" % (i, k) for i in (8, 12) for k in (0, 1))


@pytest.mark.parametrize("n", [2, 3])
def test_multi_node_batch_normalization_equals_one_batch(n, tmp_path):
    ranks = _run(n, tmp_path, "batchnorm")
    xs = [make_input(r, "float32", (4, 3, 2, 2)) for r in range(n)]
    ws = [make_input(r, "float32", (4, 3, 2, 2), salt=1) for r in range(n)]
    bn = L.BatchNormalization(3, decay=0.5)
    x = Variable(kumo.asarray(numpy.concatenate(xs)))
    y = bn(x)
    F.sum(y * kumo.asarray(numpy.concatenate(ws))).backward()
    y, gx = kumo.asnumpy(y.array), kumo.asnumpy(x.grad)
    tol = dict(rtol=1e-4, atol=1e-5)
    for r in range(n):
        numpy.testing.assert_allclose(ranks[r]["y"], y[4 * r:4 * r + 4], **tol)
        numpy.testing.assert_allclose(ranks[r]["gx"], gx[4 * r:4 * r + 4], **tol)
        numpy.testing.assert_allclose(ranks[r]["avg_mean"], kumo.asnumpy(bn.avg_mean), **tol)
        numpy.testing.assert_allclose(ranks[r]["avg_var"], kumo.asnumpy(bn.avg_var), **tol)
    # each process holds the gradient of its own loss; their sum is the whole batch's
    numpy.testing.assert_allclose(sum(r["ggamma"] for r in ranks), kumo.asnumpy(bn.gamma.grad), **tol)
    numpy.testing.assert_allclose(sum(r["gbeta"] for r in ranks), kumo.asnumpy(bn.beta.grad), **tol)
