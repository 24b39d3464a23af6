"""Updater and StandardUpdater (Chainer's ``chainer.training.updaters``)."""
from kumo.autograd.dataset import Converter, Iterator, concat_examples, get_device


class Updater:
    """Interface of updaters: ``update()`` does one training step;
    ``iteration``/``epoch``/``epoch_detail``/``is_new_epoch`` tell the progress."""

    def connect_trainer(self, trainer):
        """Called by the Trainer that uses this updater."""

    def finalize(self):
        raise NotImplementedError

    def get_optimizer(self, name):
        raise NotImplementedError

    def get_all_optimizers(self):
        raise NotImplementedError

    def update(self):
        raise NotImplementedError

    def serialize(self, serializer):
        raise NotImplementedError


def call_converter(converter, batch, device):
    """Calls ``converter`` the way Chainer does: a Converter gets the device
    object, a plain function gets None, -1 (host) or the CUDA device index."""
    if isinstance(converter, Converter) or device is None:
        return converter(batch, device)
    return converter(batch, -1 if device.type == "cpu" else device.index)


def _is_iterator(obj):
    # Chainer tests for its Iterator base class; any object with next() and
    # epoch_detail is accepted here too (iterators of other packages).
    return isinstance(obj, Iterator) or (not isinstance(obj, dict) and hasattr(obj, "epoch_detail"))


class StandardUpdater(Updater):
    """One step: takes a batch from the 'main' iterator, converts it with
    ``converter`` onto ``device`` (``input_device``), and calls the 'main'
    optimizer's ``update(loss_func, *batch)`` (``**batch`` for a dict),
    ``loss_func`` defaulting to the optimizer's target. ``device`` also moves
    the targets there. ``iterator`` and ``optimizer`` may be dicts of them."""

    def __init__(self, iterator, optimizer, converter=concat_examples, device=None, loss_func=None, loss_scale=None,
                 auto_new_epoch=True, *, input_device=None):
        device = get_device(device)
        input_device = device if input_device is None else get_device(input_device)
        if _is_iterator(iterator):
            iterator = {"main": iterator}
        self._iterators = iterator
        if not isinstance(optimizer, dict):
            optimizer = {"main": optimizer}
        self._optimizers = optimizer
        if device is not None:
            for opt in self._optimizers.values():
                opt.target.to_device(device)
        self.converter = converter
        self.loss_func = loss_func
        self.iteration = 0
        self._device = device
        self._input_device = input_device
        self.loss_scale = loss_scale
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)
        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def device(self):
        return self._device

    @property
    def input_device(self):
        return self._input_device

    @property
    def epoch(self):
        return self._iterators["main"].epoch

    @property
    def epoch_detail(self):
        return self._iterators["main"].epoch_detail

    @property
    def previous_epoch_detail(self):
        return self._iterators["main"].previous_epoch_detail

    @property
    def is_new_epoch(self):
        return self._iterators["main"].is_new_epoch

    def finalize(self):
        for it in self._iterators.values():
            fin = getattr(it, "finalize", None)
            if fin is not None:
                fin()

    def get_optimizer(self, name):
        return self._optimizers[name]

    def get_all_optimizers(self):
        return dict(self._optimizers)

    def get_iterator(self, name):
        return self._iterators[name]

    def update(self):
        """One step (update_core), then counts the iteration."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        iterator = self._iterators["main"]
        batch = iterator.next()
        in_arrays = call_converter(self.converter, batch, self._input_device)
        optimizer = self._optimizers["main"]
        loss_func = self.loss_func or optimizer.target
        if isinstance(in_arrays, tuple):
            optimizer.update(loss_func, *in_arrays)
        elif isinstance(in_arrays, dict):
            optimizer.update(loss_func, **in_arrays)
        else:
            optimizer.update(loss_func, in_arrays)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        for name, it in self._iterators.items():
            it.serialize(serializer["iterator:" + name])
        for name, opt in self._optimizers.items():
            opt.serialize(serializer["optimizer:" + name])
            opt.target.serialize(serializer["model:" + name])
        self.iteration = serializer("iteration", self.iteration)
