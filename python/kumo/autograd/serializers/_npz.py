"""NPZ serialization: DictionarySerializer builds the flat key -> array
dictionary that kumo.savez writes; NpzDeserializer reads one back."""
import os

from kumo import _io
from kumo.autograd.serializer import Deserializer, Serializer
from kumo.autograd.serializers import _values


class DictionarySerializer(Serializer):
    """Collects the values of a hierarchy into ``target``, a flat dict keyed
    by path (``'l1/W'``); None is stored as a 0-d object array holding None.
    Nothing is written to a file: pass ``target`` to kumo.savez (or use
    save_npz)."""

    def __init__(self, target=None, path=""):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        return DictionarySerializer(self.target, self.path + key.strip("/") + "/")

    def __call__(self, key, value):
        self.target[self.path + key.lstrip("/")] = _values.to_host(value)
        return value


def serialize(obj):
    """The flat dictionary of ``obj``'s values (DictionarySerializer's target)."""
    s = DictionarySerializer()
    s.save(obj)
    return s.target


def save_npz(file, obj, compression=True):
    """Writes ``obj`` (an object with ``serialize``, or a ready dict) to an
    .npz file (a path or a binary file object), deflated by default."""
    target = obj if isinstance(obj, dict) else serialize(obj)
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "wb") as f:
            return save_npz(f, target, compression)
    (_io.savez_compressed if compression else _io.savez)(file, **target)


def _ignored(key, ignore_names):
    names = ignore_names if isinstance(ignore_names, (tuple, list)) else (ignore_names,)
    for name in names:
        if isinstance(name, str):
            if key == name:
                return True
        elif callable(name):
            if name(key):
                return True
        else:
            raise ValueError("ignore_names needs to be a callable, a string or a list of them, got %r" % (name,))
    return False


class NpzDeserializer(Deserializer):
    """Reads values from a loaded .npz archive (any mapping of keys to
    arrays). ``strict``: a missing key is a KeyError (else the value is left
    as it is); ``ignore_names``: names (or predicates on names) to skip."""

    def __init__(self, npz, path="", strict=True, ignore_names=None):
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = [] if ignore_names is None else ignore_names

    def __getitem__(self, key):
        return NpzDeserializer(self.npz, self.path + key.strip("/") + "/", strict=self.strict,
                               ignore_names=self.ignore_names)

    def __call__(self, key, value):
        key = self.path + key.lstrip("/")
        if not self.strict and key not in self.npz:
            return value
        if _ignored(key, self.ignore_names):
            return value
        if key not in self.npz:
            raise KeyError("%s is not a file in the archive" % key)
        return _values.restore(self.npz[key], value, key)


def load_npz(file, obj, path="", strict=True, ignore_names=None):
    """Loads ``obj``'s values from an .npz file written by save_npz (or by
    Chainer's); ``path`` selects a sub-hierarchy (``'updater/model:main/'``)."""
    with _io.load(file, allow_pickle=True, device="cpu") as npz:
        NpzDeserializer(npz, path=path, strict=strict, ignore_names=ignore_names).load(obj)
