"""Sequential (Chainer's ``chainer.Sequential``): a ChainList whose forward
feeds its layers one after another. Layers may be links or any callables
(functions such as F.relu); only the links are children with parameters."""
import copy as copy_module

from kumo.autograd.links.link import ChainList, Link


class Sequential(ChainList):
    """``Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))``: calling it
    applies the layers in order (a tuple result is unpacked into the next
    layer's arguments)."""

    def __init__(self, *layers):
        super().__init__()
        self._layers = []
        for layer in layers:
            self.append(layer)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __setitem__(self, i, layer):
        if i >= len(self):
            raise ValueError("{} should be less than {}".format(i, len(self)))
        if not callable(layer):
            raise ValueError("All elements of a Sequential class should be callable. But given {} is not callable."
                             .format(layer))
        if self._layers[i] is not layer:
            del self[i]
            self.insert(i, layer)

    def __delitem__(self, i):
        layer = self._layers.pop(i)
        if isinstance(layer, Link):
            self._children = [c for c in self._children if c is not layer]
            self._rename()

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, item):
        return item in self._layers

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add (+) operator supports only objects of Sequential class, but {} is given."
                             .format(str(type(other))))
        ret = Sequential()
        for layer in list(self) + list(other):
            ret.append(layer)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError("add (+) operator supports only objects of Sequential class, but {} is given."
                             .format(str(type(other))))
        for layer in list(other):
            self.append(layer)
        return self

    def forward(self, *x):
        if not self._layers:
            raise RuntimeError("Sequential does not have any layer.")
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def __str__(self):
        lines = "".join("  ({}): {},\n".format(i, getattr(layer, "__name__", None) or str(layer))
                        for i, layer in enumerate(self))
        return "{}({})".format(type(self).__name__, "\n" + lines if lines else "")

    def _rename(self):
        for i, link in enumerate(self._children):
            link.name = str(i)

    def append(self, layer):
        self.insert(len(self), layer)

    def extend(self, sequential):
        for layer in list(sequential):
            self.append(layer)

    def insert(self, i, layer):
        n = len(self._layers)
        if not -n <= i < n + 1:
            raise IndexError("Index out of range: {}".format(i))
        if i < 0:
            i += n
        if not callable(layer):
            raise ValueError("All elements of the argument should be callable. But given {} is not callable."
                             .format(layer))
        self._layers.insert(i, layer)
        if isinstance(layer, Link):
            # The children keep the order of the links among the layers.
            position = sum(1 for x in self._layers[:i] if isinstance(x, Link))
            self._children.insert(position, layer)
            self._rename()

    def remove(self, layer):
        if layer not in self:
            raise ValueError("There is no layer object that is same as {}".format(layer))
        del self[self.index(layer)]

    def remove_by_layer_type(self, type_name):
        for layer in list(self):
            if _type_name(layer) == type_name:
                self.remove(layer)

    def pop(self, i=-1):
        layer = self._layers[i]
        del self[i]
        return layer

    def clear(self):
        self._children = []
        self._layers = []

    def index(self, layer, start=None, end=None):
        return self._layers[start:end].index(layer)

    def count(self, layer):
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name):
        return sum(1 for layer in self._layers if _type_name(layer) == type_name)

    def copy(self, mode="share"):
        ret = Sequential()
        for layer in self:
            ret.append(layer.copy(mode) if isinstance(layer, Link) else copy_module.copy(layer))
        return ret

    def copyparams(self, link, copy_persistent=True):
        if not isinstance(link, Sequential):
            raise ValueError("Objects other than Sequential object cannot be copied to a Sequential object.")
        for idx, child in enumerate(self):
            if isinstance(child, Link):
                child.copyparams(link[idx], copy_persistent)

    def flatten(self):
        """The layers of nested Sequentials spliced into one."""
        ret = Sequential()
        for layer in self:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret


def _type_name(layer):
    return type(layer).__name__ if isinstance(layer, Link) else getattr(layer, "__name__", None)
