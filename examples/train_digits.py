"""Trains a small CNN on scikit-learn's handwritten digits (8x8 images, ten
classes; they ship inside scikit-learn, nothing is downloaded) the Chainer
way: links, an optimizer, an iterator, a trainer with extensions.

    python examples/train_digits.py [--epochs 30] [--out result] [--resume]

Shows a progress bar, prints the log each epoch, and writes into the output
folder the log (JSON), loss and accuracy plots (PNG, when matplotlib is
installed) and a snapshot of the whole trainer after every epoch.
``--resume`` continues from the latest snapshot in that folder.
"""
import argparse
import glob
import os
import re
import sys

import numpy

import kumo
import kumo.autograd.functions as F
import kumo.autograd.links as L
from kumo.autograd import datasets, iterators, optimizer_hooks, optimizers, serializers, training
from kumo.autograd.training import extensions


class DigitsCNN(L.Chain):
    """conv(1->16) - relu - conv(16->32) - relu - maxpool - linear(512->128) - relu - linear(128->10)."""

    def __init__(self, n_classes=10):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 16, 3, pad=1)
            self.conv2 = L.Convolution2D(16, 32, 3, pad=1)
            self.fc1 = L.Linear(None, 128)
            self.fc2 = L.Linear(128, n_classes)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
        h = F.dropout(F.relu(self.fc1(h)), 0.25)  # only while config.train (not in the Evaluator)
        return self.fc2(h)


def shifted(example, rng):
    """Training augmentation: the image moved by up to one pixel each way (edges padded with 0)."""
    image, label = example
    dy, dx = rng.integers(-1, 2, size=2)
    padded = kumo.pad(image, ((0, 0), (1, 1), (1, 1)))
    return padded[:, 1 + dy:9 + dy, 1 + dx:9 + dx], label


def latest_snapshot(out):
    found = glob.glob(os.path.join(out, "snapshot_epoch_*"))
    return max(found, key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0])) if found else None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batchsize", type=int, default=64)
    parser.add_argument("--out", default="result")
    parser.add_argument("--resume", action="store_true", help="continue from the latest snapshot in --out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar (for logs)")
    args = parser.parse_args(argv)

    kumo.random.seed(args.seed)
    numpy.random.seed(args.seed)  # the iterators shuffle with NumPy's global state, as Chainer's do
    rng = numpy.random.default_rng(args.seed)

    train, test = datasets.get_digits(ndim=3, scale=1.0)
    train = datasets.TransformDataset(train, lambda example: shifted(example, rng))
    print("digits: %d training and %d test images of 8x8, device %s" % (len(train), len(test), kumo.get_device()))
    model = L.Classifier(DigitsCNN())
    optimizer = optimizers.Adam(alpha=1e-3)
    optimizer.setup(model)
    optimizer.add_hook(optimizer_hooks.WeightDecay(1e-4))

    train_iter = iterators.SerialIterator(train, args.batchsize)
    test_iter = iterators.SerialIterator(test, 256, repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (args.epochs, "epoch"), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ["epoch", "main/loss", "validation/main/loss", "main/accuracy", "validation/main/accuracy", "alpha",
         "elapsed_time"]))
    if extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(["main/loss", "validation/main/loss"], "epoch", file_name="loss.png"))
        trainer.extend(extensions.PlotReport(["main/accuracy", "validation/main/accuracy"], "epoch",
                                             file_name="accuracy.png"))
    # Adam's step size shrinks by 5% an epoch, so the last epochs settle.
    trainer.extend(extensions.ExponentialShift("alpha", 0.95), trigger=(1, "epoch"))
    trainer.extend(extensions.observe_value("alpha", lambda t: t.updater.get_optimizer("main").alpha),
                   trigger=(1, "epoch"))
    trainer.extend(extensions.snapshot(filename="snapshot_epoch_{.updater.epoch}", n_retains=2),
                   trigger=(1, "epoch"))
    if not args.no_progress:
        trainer.extend(extensions.ProgressBar(update_interval=10))

    if args.resume:
        snapshot = latest_snapshot(args.out)
        if snapshot is None:
            print("--resume: no snapshot in %s, starting from scratch" % args.out)
        else:
            print("resuming from %s" % snapshot)
            serializers.load_npz(snapshot, trainer)

    trainer.run()
    accuracy = trainer.observation.get("validation/main/accuracy")
    if accuracy is not None:
        print("test accuracy: %.4f" % float(accuracy))
    print("outputs in %s: log, %s snapshots" % (args.out, "plots (loss.png, accuracy.png), " if
                                               extensions.PlotReport.available() else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
