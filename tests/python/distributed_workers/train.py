"""Data-parallel training of a small CNN on the digits.

    train.py OUTDIR dist   ITERS BATCH DTYPE DOUBLE   (under mpiexec -n N)
    train.py OUTDIR single ITERS BATCH N              (one process, N*BATCH batches)

The distributed run scatters the training set (contiguous shards) and steps
with BATCH examples per process; the single run steps with the same N*BATCH
examples at once, so both must reach the same parameters. Every process's
initial parameters differ (seeded by rank): the optimizer's setup broadcasts
rank 0's. Saves OUTDIR/params<rank>.npz (or params_single.npz) and the losses.
"""
import os
import sys

import numpy

import kumo
import kumo.autograd.functions as F
import kumo.autograd.links as L
from kumo.autograd import datasets, optimizers
from kumo.autograd.dataset import concat_examples


class SmallCNN(L.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(1, 4, 3, pad=1)
            self.fc = L.Linear(4 * 4 * 4, 10)

    def forward(self, x):
        return self.fc(F.max_pooling_2d(F.relu(self.conv(x)), 2))


def save(path, model, losses):
    arrays = {name: kumo.asnumpy(p.array) for name, p in model.namedparams()}
    numpy.savez(path, losses=numpy.array(losses), **arrays)


def main():
    out, mode, iters, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    train, _ = datasets.get_digits(ndim=3)
    if mode == "single":
        n = int(sys.argv[5])
        kumo.random.seed(100)
        model = L.Classifier(SmallCNN())
        opt = optimizers.Adam(alpha=3e-3)
        opt.setup(model)
        starts = [len(train) * r // n for r in range(n)]  # where scatter_dataset cuts the shards
        losses = []
        for i in range(iters):
            examples = [train[starts[r] + i * batch + j] for r in range(n) for j in range(batch)]
            x, t = concat_examples(examples)
            opt.update(model, x, t)
            losses.append(float(model.loss.array))
        save(os.path.join(out, "params_single.npz"), model, losses)
        return
    import kumo.distributed as kd
    dtype, double = sys.argv[5], sys.argv[6] == "1"
    comm = kd.create_communicator("naive", allreduce_grad_dtype=None if dtype == "none" else dtype)
    kumo.random.seed(100 + comm.rank)  # different initial values everywhere
    model = L.Classifier(SmallCNN())
    opt = kd.create_multi_node_optimizer(optimizers.Adam(alpha=3e-3), comm, double_buffering=double).setup(model)
    mine = kd.scatter_dataset(train if comm.rank == 0 else None, comm)
    losses = []
    for i in range(iters):
        x, t = concat_examples([mine[(i * batch + j) % len(mine)] for j in range(batch)])
        opt.update(model, x, t)
        losses.append(float(comm.allreduce(model.loss.array, "mean")))
    if double:
        opt.wait()
    save(os.path.join(out, "params%d.npz" % comm.rank), model, losses)


if __name__ == "__main__":
    sys.exit(main())
