"""The training extensions of kumo.distributed, one case per run:

    extensions.py OUTDIR evaluator|iterator|batchnorm
    extensions.py OUTDIR checkpoint EPOCHS RESUME(0/1)

Each rank saves OUTDIR/<case><rank>.npz for the test."""
import os
import sys

import numpy

import kumo
import kumo.autograd.links as L
import kumo.distributed as kd
from kumo.autograd import Variable, datasets, iterators, optimizers, training
from kumo.autograd.training import extensions
from inputs import make_input

out_dir, case = sys.argv[1], sys.argv[2]
comm = kd.create_communicator("naive")
rank, size = comm.rank, comm.size
result = {}


def mlp():
    kumo.random.seed(0)
    return L.Classifier(L.Linear(64, 10))


if case == "evaluator":
    _, test = datasets.get_digits()
    data = datasets.SubDataset(test, 0, 32 * size)
    model = mlp()
    shard = kd.scatter_dataset(data if rank == 0 else None, comm)
    evaluator = kd.create_multi_node_evaluator(
        extensions.Evaluator(iterators.SerialIterator(shard, 16, repeat=False, shuffle=False), model), comm)
    for k, v in evaluator().items():
        result["multi" + k] = numpy.array(float(v))
    if rank == 0:  # the whole data in one process, same batch size
        single = extensions.Evaluator(iterators.SerialIterator(data, 16, repeat=False, shuffle=False), model)
        for k, v in single().items():
            result["single" + k] = numpy.array(float(v))
elif case == "iterator":
    numpy.random.seed(1000 + rank)  # the processes' own generators differ
    it = kd.create_synchronized_iterator(iterators.SerialIterator(list(range(10)), 4, shuffle=True), comm)
    result["batches"] = numpy.array([next(it) for _ in range(10)])
elif case == "batchnorm":
    bn = kd.MultiNodeBatchNormalization(3, comm, decay=0.5)
    x = Variable(kumo.asarray(make_input(rank, "float32", (4, 3, 2, 2))))
    w = kumo.asarray(make_input(rank, "float32", (4, 3, 2, 2), salt=1))
    y = bn(x)
    loss = kumo.autograd.functions.sum(y * w)
    loss.backward()
    result.update(y=kumo.asnumpy(y.array), gx=kumo.asnumpy(x.grad), ggamma=kumo.asnumpy(bn.gamma.grad),
                  gbeta=kumo.asnumpy(bn.beta.grad), avg_mean=kumo.asnumpy(bn.avg_mean),
                  avg_var=kumo.asnumpy(bn.avg_var))
elif case == "checkpoint":
    epochs, resume = int(sys.argv[3]), sys.argv[4] == "1"
    train, _ = datasets.get_digits()
    shard = kd.scatter_dataset(datasets.SubDataset(train, 0, 64 * size) if rank == 0 else None, comm)
    model = mlp()
    optimizer = kd.create_multi_node_optimizer(optimizers.Adam(), comm).setup(model)
    updater = training.StandardUpdater(iterators.SerialIterator(shard, 16, shuffle=False), optimizer)
    trainer = training.Trainer(updater, (epochs, "epoch"), out=os.path.join(out_dir, "trainer"))
    checkpointer = kd.create_multi_node_checkpointer("digits", comm, cp_interval=1, gc_interval=2)
    trainer.extend(checkpointer)  # before loading, so its trigger's state is restored too
    loaded = checkpointer.maybe_load(trainer, optimizer) if resume else None
    result["loaded"] = numpy.array(-1 if loaded is None else loaded)
    trainer.run()
    result["iteration"] = numpy.array(trainer.updater.iteration)
    result["W"] = kumo.asnumpy(model.predictor.W.array)
numpy.savez(os.path.join(out_dir, "%s%d.npz" % (case, rank)), **result)
