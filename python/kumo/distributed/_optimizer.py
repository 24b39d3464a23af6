"""create_multi_node_optimizer: any kumo optimizer made data-parallel
(ChainerMN's design). Rank 0's parameters are broadcast at setup; before
every update the gradients are averaged over the processes; everything else
(hyperparameters, hooks, serialize, lr shifts) is the wrapped optimizer's."""

from kumo import _creation
from kumo.distributed._communicator import _params_with_grads
from kumo.distributed._native import native


def _loss_and_grads(optimizer, lossfun, args, kwds):
    """Forward and backward as GradientMethod.update does, without updating."""
    target = optimizer.target
    loss = lossfun(*args, **kwds)
    if getattr(optimizer, "_use_cleargrads", True):
        target.cleargrads()
    else:
        target.zerograds()
    scale = getattr(optimizer, "_loss_scale", None)
    if scale is not None:
        loss.grad = _creation.full(loss.shape, scale, dtype=loss.dtype)
        for p in target.params():
            try:
                p._loss_scale = scale
            except AttributeError:
                pass
    loss.backward()


def _param_signature(target):
    """Which parameters are initialised: a lazily initialised one (first
    forward) changes it, and must then be broadcast from rank 0."""
    return tuple((name, p.array is not None) for name, p in sorted(target.namedparams(), key=lambda x: x[0]))


class _MultiNodeOptimizer:

    def __init__(self, actual_optimizer, communicator, zero_fill=True):
        super().__setattr__("actual_optimizer", actual_optimizer)
        super().__setattr__("communicator", communicator)
        super().__setattr__("zero_fill", zero_fill)
        super().__setattr__("_signature", None)

    def setup(self, link):
        self.actual_optimizer.setup(link)
        self.communicator.bcast_data(link)
        super().__setattr__("_signature", _param_signature(link))
        return self

    def _changed(self):
        return _param_signature(self.actual_optimizer.target) != self._signature

    def update(self, lossfun=None, *args, **kwds):
        """Forward/backward with `lossfun` (if given), the mean of the
        gradients over the processes, then the wrapped optimizer's update.

        When parameters were initialised lazily by this forward pass, rank
        0's values are broadcast instead and this update is skipped (the
        gradients were computed from each process's own initial values), as
        ChainerMN does."""
        target = self.actual_optimizer.target
        if lossfun is not None:
            _loss_and_grads(self.actual_optimizer, lossfun, args, kwds)
        if self._changed():
            self.communicator.bcast_data(target)
            super().__setattr__("_signature", _param_signature(target))
            return
        self.communicator.multi_node_mean_grad(target, self.zero_fill)
        self.actual_optimizer.update(None)

    def __getattr__(self, name):
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value):
        setattr(self.actual_optimizer, name, value)


class _DoubleBufferingOptimizer(_MultiNodeOptimizer):
    """Communication of iteration t's gradients overlaps iteration t+1's
    forward and backward; the update at t+1 uses the mean gradients of t
    (one step stale, as ChainerMN's double buffering). The first update only
    starts the communication."""

    def __init__(self, actual_optimizer, communicator, zero_fill=True):
        super().__init__(actual_optimizer, communicator, zero_fill)
        if not hasattr(communicator, "_comm") or not hasattr(native(), "AsyncBucketAllreduce"):
            raise ValueError("double_buffering needs a kumo communicator")
        n = native()
        dtype = communicator.allreduce_grad_dtype
        key = None if dtype is None else str(dtype)
        size = communicator.get_config("bucket_bytes")
        object.__setattr__(self, "_buckets", [n.GradientBuckets(size, key), n.GradientBuckets(size, key)])
        object.__setattr__(self, "_pending", n.AsyncBucketAllreduce())
        object.__setattr__(self, "_has_pending", False)

    def update(self, lossfun=None, *args, **kwds):
        target = self.actual_optimizer.target
        if lossfun is not None:
            _loss_and_grads(self.actual_optimizer, lossfun, args, kwds)
        if self._changed():
            self.wait()
            object.__setattr__(self, "_has_pending", False)
            self.communicator.bcast_data(target)
            object.__setattr__(self, "_signature", _param_signature(target))
            return
        grads = [p.grad for _, p in _params_with_grads(target, self.zero_fill)]
        current, previous = self._buckets
        current.pack(grads)  # this iteration's gradients, before they are overwritten
        if self._has_pending:
            self._pending.wait()
            previous.unpack(grads, 1.0 / self.communicator.size)
            self.actual_optimizer.update(None)
        self._pending.start(self.communicator._comm, current)
        object.__setattr__(self, "_has_pending", True)
        object.__setattr__(self, "_buckets", [previous, current])

    def wait(self):
        """Waits for the communication in flight (e.g. before saving)."""
        self._pending.wait()


def create_multi_node_optimizer(actual_optimizer, communicator, double_buffering=False, zero_fill=True):
    """Wraps `actual_optimizer` for data-parallel training over `communicator`.

    double_buffering: overlap the gradient communication with the next
    iteration's computation (updates then use one-step-old mean gradients).
    zero_fill: parameters without a gradient (unused in the forward pass)
    take part with zeros; with False they are skipped, and every process must
    then leave the same parameters without gradients.
    """
    if double_buffering:
        return _DoubleBufferingOptimizer(actual_optimizer, communicator, zero_fill)
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)
