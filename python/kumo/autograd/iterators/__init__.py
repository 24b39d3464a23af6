"""kumo.autograd.iterators: Chainer's ``chainer.iterators`` (batches of
examples from a dataset, epoch by epoch)."""
from kumo.autograd.iterators._parallel import MultiprocessIterator, MultithreadIterator
from kumo.autograd.iterators._serial import SerialIterator
from kumo.autograd.iterators._state import OrderSampler, ShuffleOrderSampler

__all__ = ["SerialIterator", "MultithreadIterator", "MultiprocessIterator", "OrderSampler", "ShuffleOrderSampler"]
