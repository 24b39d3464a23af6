"""The digits CNN of train_digits.py trained data-parallel with
kumo.distributed (ChainerMN's three additions: a communicator, a multi-node
optimizer, a scattered dataset; plus a multi-node evaluator):

    mpiexec -n 2 python examples/train_digits_distributed.py [--epochs 20]

Each process trains on its shard with --batchsize examples per step (the
global batch is N times that) on the host backend, or on GPU intra_rank with
NCCL where GPUs exist. Rank 0 prints the log and writes result/.
"""
import argparse
import sys

import numpy

import kumo
import kumo.autograd.links as L
import kumo.distributed
from kumo.autograd import datasets, iterators, optimizer_hooks, optimizers, training
from kumo.autograd.training import extensions

sys.path.insert(0, __import__("os").path.dirname(__file__))
from train_digits import DigitsCNN, shifted  # noqa: E402  the same model and augmentation


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batchsize", type=int, default=32, help="examples per process and step")
    parser.add_argument("--out", default="result")
    parser.add_argument("--communicator", default=None, help="naive (MPI, host) or pure_nccl (CUDA)")
    parser.add_argument("--float16-grads", action="store_true", help="communicate gradients in float16")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    if kumo.cuda.is_available() and args.communicator != "naive":
        # one GPU per process on each machine
        kumo.cuda.Device(0).use()
    comm = kumo.distributed.create_communicator(
        args.communicator, allreduce_grad_dtype="float16" if args.float16_grads else None)
    if comm.rank == 0:
        print("%d processes, device %s" % (comm.size, kumo.get_device()))
    kumo.random.seed(args.seed + comm.rank)  # rank 0's parameters are broadcast at setup
    numpy.random.seed(args.seed + comm.rank)
    rng = numpy.random.default_rng(args.seed + comm.rank)

    model = L.Classifier(DigitsCNN())
    model(kumo.zeros((1, 1, 8, 8), dtype="float32"), kumo.zeros((1,), dtype="int32"))  # sizes Linear(None, .)
    optimizer = kumo.distributed.create_multi_node_optimizer(optimizers.Adam(alpha=1e-3), comm).setup(model)
    optimizer.add_hook(optimizer_hooks.WeightDecay(1e-4))

    train, test = datasets.get_digits(ndim=3, scale=1.0) if comm.rank == 0 else (None, None)
    train = kumo.distributed.scatter_dataset(train, comm, shuffle=True, seed=args.seed)
    test = kumo.distributed.scatter_dataset(test, comm)
    train = datasets.TransformDataset(train, lambda example: shifted(example, rng))

    updater = training.StandardUpdater(iterators.SerialIterator(train, args.batchsize), optimizer)
    trainer = training.Trainer(updater, (args.epochs, "epoch"), out=args.out)
    evaluator = extensions.Evaluator(iterators.SerialIterator(test, 256, repeat=False, shuffle=False), model)
    trainer.extend(kumo.distributed.create_multi_node_evaluator(evaluator, comm))
    trainer.extend(extensions.ExponentialShift("alpha", 0.95), trigger=(1, "epoch"))
    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ["epoch", "main/loss", "validation/main/loss", "main/accuracy", "validation/main/accuracy",
             "elapsed_time"]))
    trainer.run()
    accuracy = trainer.observation.get("validation/main/accuracy")
    if comm.rank == 0 and accuracy is not None:
        print("test accuracy: %.4f" % float(accuracy))
    return 0


if __name__ == "__main__":
    sys.exit(main())
