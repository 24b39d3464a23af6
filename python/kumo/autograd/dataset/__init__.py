"""kumo.autograd.dataset: Chainer's ``chainer.dataset`` (the dataset and
iterator protocols, ``concat_examples`` and the converters)."""
from kumo.autograd.dataset._convert import Converter, concat_examples, converter, get_device, to_device
from kumo.autograd.dataset._mixin import DatasetMixin, Iterator

__all__ = ["DatasetMixin", "Iterator", "Converter", "converter", "concat_examples", "to_device", "get_device"]
