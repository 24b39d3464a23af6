"""ParallelUpdater: data-parallel steps over several copies of the model."""
import copy

from kumo.autograd._variable import force_backprop_mode
from kumo.autograd.dataset import concat_examples, get_device
from kumo.autograd.training.updaters._standard import call_converter, StandardUpdater


class ParallelUpdater(StandardUpdater):
    """Splits each batch across ``models`` (a dict name -> model, 'main'
    being the optimizer's target) or across copies of the target made for
    ``devices`` (a dict name -> device, with a 'main' entry). Every copy
    computes the loss of its share (example i goes to copy i mod n) and
    backpropagates; the gradients are summed into the main model, the
    optimizer updates it, and the copies take its new parameters. With one
    device (or several on the host) the copies simply run in turn."""

    def __init__(self, iterator, optimizer, converter=concat_examples, models=None, devices=None, loss_func=None,
                 loss_scale=None, auto_new_epoch=True):
        super().__init__(iterator=iterator, optimizer=optimizer, converter=converter, loss_func=loss_func,
                         loss_scale=loss_scale, auto_new_epoch=auto_new_epoch)
        if models is None:
            if devices is None:
                raise ValueError("either models or devices must be specified")
            if "main" not in devices:
                raise KeyError("'devices' must contain a 'main' key.")
            main = optimizer.target
            models = {"main": main}
            for name in devices:
                if name != "main":
                    model = copy.deepcopy(main)
                    model.to_device(get_device(devices[name]))
                    models[name] = model
            main.to_device(get_device(devices["main"]))
        self._devices = {k: get_device(v) for k, v in (devices or {}).items()}
        self._models = models

    def connect_trainer(self, trainer):
        main = self.get_optimizer("main").target
        for name, model in self._models.items():
            if model is not main:
                trainer.reporter.add_observer(name, model)

    def update_core(self):
        optimizer = self.get_optimizer("main")
        main = optimizer.target
        others = [m for m in self._models.values() if m is not main]
        iterator = self.get_iterator("main")
        batch = iterator.next()
        n = len(self._models)
        in_arrays = {key: call_converter(self.converter, batch[i::n], self._devices.get(key))
                     for i, key in enumerate(self._models)}
        for model in self._models.values():
            model.cleargrads()
        losses = []
        for key, model in self._models.items():
            args = in_arrays[key]
            loss_func = self.loss_func or model
            with force_backprop_mode():
                if isinstance(args, tuple):
                    loss = loss_func(*args)
                elif isinstance(args, dict):
                    loss = loss_func(**args)
                else:
                    loss = loss_func(args)
            losses.append(loss)
        for model in self._models.values():
            model.cleargrads()
        for loss in losses:
            if self.loss_scale is None:
                loss.backward()
            else:
                loss.backward(loss_scale=self.loss_scale)
        for model in others:
            main.addgrads(model)
        optimizer.update()
        for model in others:
            model.copyparams(main)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)
