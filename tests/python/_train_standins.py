"""Small stand-ins for the training tests: a link with one parameter and
a plain-SGD optimizer with Chainer's Link / Optimizer interface (the real
links and optimizers live in other packages), and a fake trainer for the
trigger tests."""
import numpy

import kumo
from kumo import autograd
from kumo.autograd import functions as F
from kumo.autograd import reporter


class Regressor:
    """y = x @ w; calling it with (x, t) returns the mean squared error
    and reports 'loss' (and 'abs_error') for itself."""

    def __init__(self, n_in=3, seed=0):
        rng = numpy.random.default_rng(seed)
        self.w = autograd.Variable(kumo.asarray(rng.standard_normal((n_in, 1)).astype(numpy.float32)))
        self.w.name = "w"

    def params(self):
        yield self.w

    def namedparams(self):
        yield "/w", self.w

    def namedlinks(self, skipself=False):
        if not skipself:
            yield "/", self

    def cleargrads(self):
        self.w.cleargrad()

    def to_device(self, device):
        if device is not None:
            self.w.array = kumo.asarray(self.w.array, device=device)
        return self

    def addgrads(self, other):
        self.w.grad = self.w.grad + other.w.grad

    def copyparams(self, other):
        self.w.array[...] = other.w.array

    def __deepcopy__(self, memo):
        twin = Regressor.__new__(Regressor)
        twin.w = autograd.Variable(self.w.array.copy())
        twin.w.name = "w"
        return twin

    def serialize(self, serializer):
        serializer("w", self.w.array)

    def __call__(self, x, t):
        y = F.matmul(x, self.w)
        loss = F.mean_squared_error(y, t)
        reporter.report({"loss": loss, "abs_error": F.mean(abs(y - t))}, self)
        return loss


class SGD:
    """Plain SGD with Chainer's Optimizer interface."""

    def __init__(self, lr=0.1):
        self.lr = lr
        self.t = 0
        self.epoch = 0
        self.target = None
        self.use_auto_new_epoch = False

    def setup(self, link):
        self.target = link
        return self

    def update(self, lossfun=None, *args, **kwds):
        if lossfun is not None:
            self.target.cleargrads()
            loss = lossfun(*args, **kwds)
            loss.backward()
        self.t += 1
        for p in self.target.params():
            # Chainer's contract: a scaled backward records its scale on the leaves.
            scale = p._loss_scale or 1.0
            p.array[...] = p.array - self.lr * (p.grad / scale)

    def set_loss_scale(self, loss_scale):
        self.loss_scale = loss_scale

    def new_epoch(self, auto=False):
        self.epoch += 1

    def serialize(self, serializer):
        self.t = serializer("t", self.t)
        self.epoch = serializer("epoch", self.epoch)


def regression_data(n=32, n_in=3, seed=1):
    """A list of (x, t) examples of a noisy linear map."""
    rng = numpy.random.default_rng(seed)
    x = rng.standard_normal((n, n_in)).astype(numpy.float32)
    w = numpy.arange(1, n_in + 1, dtype=numpy.float32).reshape(n_in, 1)
    t = (x @ w + 0.01 * rng.standard_normal((n, 1))).astype(numpy.float32)
    return [(x[i], t[i]) for i in range(n)]


class FakeUpdater:
    """Progress counters a trigger reads; ``step()`` advances one iteration."""

    def __init__(self, iters_per_epoch):
        self.iters_per_epoch = iters_per_epoch
        self.iteration = 0
        self.previous_epoch_detail = 0.0

    @property
    def epoch_detail(self):
        return self.iteration / self.iters_per_epoch

    @property
    def epoch(self):
        return self.iteration // self.iters_per_epoch

    @property
    def is_new_epoch(self):
        return self.iteration > 0 and self.iteration % self.iters_per_epoch == 0

    def step(self):
        self.previous_epoch_detail = self.epoch_detail
        self.iteration += 1


class FakeTrainer:
    def __init__(self, iters_per_epoch=5):
        self.updater = FakeUpdater(iters_per_epoch)
        self.observation = {}
        self.elapsed_time = 0.0


class StateSeededSampler:
    """An order sampler whose permutation is seeded by ``seed`` and the
    current order, which the iterator saves in snapshots: a resumed run
    draws the same orders as an uninterrupted one with the same seed."""

    def __init__(self, seed=0):
        self.seed = seed

    def __call__(self, current_order, current_position):
        order = numpy.asarray(current_order)
        mix = int(numpy.sum(order * (numpy.arange(len(order)) + 1)) % (2 ** 31))
        return numpy.random.RandomState(self.seed + mix).permutation(len(order))
