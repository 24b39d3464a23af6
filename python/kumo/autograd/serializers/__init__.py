"""Saving and loading models, optimizers and trainers (Chainer's
chainer.serializers): NPZ archives through kumo's own .npz reader and
writer, and HDF5 files through h5py when it is installed.

Keys follow Chainer's layout: a value's key is the '/'-joined path of the
children leading to it (``predictor/l1/W``), so a file written by Chainer's
``save_npz`` loads here and the other way round.
"""
from kumo.autograd.serializers._npz import (DictionarySerializer, NpzDeserializer, load_npz, save_npz,  # noqa: F401
                                            serialize)
from kumo.autograd.serializers._hdf5 import HDF5Deserializer, HDF5Serializer, load_hdf5, save_hdf5  # noqa: F401

__all__ = ["DictionarySerializer", "NpzDeserializer", "serialize", "save_npz", "load_npz", "HDF5Serializer",
           "HDF5Deserializer", "save_hdf5", "load_hdf5"]
