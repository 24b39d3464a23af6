"""HDF5 serialization through h5py (optional: the classes raise a clear
RuntimeError when h5py is not installed). Each child is an HDF5 group."""
import numpy

from kumo.autograd.serializer import Deserializer, Serializer
from kumo.autograd.serializers import _values

try:
    import h5py
except ImportError:  # optional dependency
    h5py = None


def _dataset_value(value):
    """The array h5py writes for a value: text as UTF-8 variable-length strings."""
    data = _values.to_host(value)
    return data.astype(h5py.string_dtype("utf-8")) if data.dtype.kind == "U" else data


def _require_h5py():
    if h5py is None:
        raise RuntimeError("HDF5 serialization needs h5py: pip install h5py")


class HDF5Serializer(Serializer):
    """Writes values as datasets of ``group`` (an h5py Group), gzip level
    ``compression`` for arrays of more than one element; None is an empty
    dataset."""

    def __init__(self, group, compression=4):
        _require_h5py()
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        return HDF5Serializer(self.group.require_group(self.group.name + "/" + key), self.compression)

    def __call__(self, key, value):
        if value is None:
            self.group.create_dataset(key, data=h5py.Empty("f"))
            return value
        data = _dataset_value(value)
        self.group.create_dataset(key, data=data, compression=None if data.size <= 1 else self.compression)
        return value


def save_hdf5(filename, obj, compression=4):
    """Writes ``obj`` (with ``serialize``, or a dict of arrays) to an HDF5 file."""
    _require_h5py()
    with h5py.File(filename, "w") as f:
        if isinstance(obj, dict):
            for key, value in obj.items():
                data = _dataset_value(value)
                f.create_dataset("/" + key.lstrip("/"), data=data, compression=None if data.size <= 1 else compression)
        else:
            HDF5Serializer(f, compression=compression).save(obj)


class HDF5Deserializer(Deserializer):
    """Reads values from ``group`` (an h5py Group); ``strict`` as NpzDeserializer."""

    def __init__(self, group, strict=True):
        _require_h5py()
        self.group = group
        self.strict = strict

    def __getitem__(self, key):
        name = self.group.name + "/" + key if self.group is not None else None
        group = self.group.get(name) if name is not None else None
        return HDF5Deserializer(group, strict=self.strict)

    def __call__(self, key, value):
        if self.group is None:
            if not self.strict:
                return value
            raise ValueError("the HDF5 file has no group for %r" % (key,))
        if key not in self.group:
            if not self.strict:
                return value
            raise KeyError("%s is not a dataset of %s" % (key, self.group.name))
        dataset = self.group[key]
        if dataset.shape is None:  # h5py.Empty: a stored None
            return None
        text = h5py.check_string_dtype(dataset.dtype) is not None
        stored = numpy.asarray(dataset.asstr()[()] if text else dataset[()])
        return _values.restore(stored, value, key)


def load_hdf5(filename, obj):
    """Loads ``obj``'s values from an HDF5 file written by save_hdf5 (or Chainer's)."""
    _require_h5py()
    with h5py.File(filename, "r") as f:
        HDF5Deserializer(f).load(obj)
