"""Datasets of image files read with Pillow (optional) and scikit-learn's
handwritten digits."""
import os

import numpy

import kumo
from kumo.autograd.dataset._mixin import DatasetMixin

try:
    from PIL import Image
    _pillow_error = None
except ImportError as e:  # Pillow is optional: only the image datasets need it
    Image = None
    _pillow_error = e


def _check_pillow():
    if Image is None:
        raise ImportError("PIL cannot be loaded. Install Pillow!\nThe actual import error is as follows:\n"
                          + str(_pillow_error))


def _image_dtype(dtype):
    return numpy.dtype(numpy.float32 if dtype is None else dtype)


def _read_image(path, dtype):
    """The image at ``path`` as a kumo array of shape (channels, height, width)."""
    with Image.open(path) as f:
        image = numpy.asarray(f, dtype=dtype)
    if image.ndim == 2:
        image = image[..., None]
    return kumo.asarray(numpy.ascontiguousarray(image.transpose(2, 0, 1)))


class ImageDataset(DatasetMixin):
    """Images read from files: ``paths`` is a list of paths (relative to
    ``root``) or the name of a text file with one path per line. Example ``i``
    is a (channels, height, width) array of ``dtype`` (float32 by default)."""

    def __init__(self, paths, root=".", dtype=None):
        _check_pillow()
        if isinstance(paths, str):
            with open(paths) as f:
                paths = [line.strip() for line in f]
        self._paths = paths
        self._root = root
        self._dtype = _image_dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def get_example(self, i):
        return _read_image(os.path.join(self._root, self._paths[i]), self._dtype)


class LabeledImageDataset(DatasetMixin):
    """Pairs (image, label): ``pairs`` is a list of (path, int label) or the
    name of a text file with lines "path label". The label is a 0-d array of
    ``label_dtype``."""

    def __init__(self, pairs, root=".", dtype=None, label_dtype=numpy.int32):
        _check_pillow()
        if isinstance(pairs, str):
            name = pairs
            pairs = []
            with open(name) as f:
                for i, line in enumerate(f):
                    fields = line.strip().split()
                    if len(fields) != 2:
                        raise ValueError("invalid format at line {} in file {}".format(i, name))
                    pairs.append((fields[0], int(fields[1])))
        self._pairs = pairs
        self._root = root
        self._dtype = _image_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image(os.path.join(self._root, path), self._dtype)
        return image, kumo.asarray(numpy.array(label, dtype=self._label_dtype))


def get_digits(withlabel=True, ndim=1, scale=1.0, dtype=None, label_dtype=numpy.int32, rgb_format=False):
    """scikit-learn's 8x8 handwritten digits (1797 images) as (train, test).

    The last fifth (359 images) is the test set, the rest the training set.
    Pixels are scaled from [0, 16] to [0, ``scale``] as ``dtype`` (float32 by
    default). ``ndim`` 1 gives vectors of 64 values, 2 images of 8x8, 3
    images of 1x8x8 (3x8x8 with ``rgb_format``). With ``withlabel`` each part
    is a TupleDataset of (image, label) with ``label_dtype`` labels, otherwise
    just the image array.
    """
    from sklearn.datasets import load_digits  # scikit-learn ships the data: no download

    from kumo.autograd.datasets._basic import TupleDataset

    digits = load_digits()
    images = digits.data.astype(numpy.float64) * (scale / 16.0)
    images = images.astype(_image_dtype(dtype))
    if ndim == 1:
        pass
    elif ndim == 2:
        images = images.reshape(-1, 8, 8)
    elif ndim == 3:
        images = images.reshape(-1, 1, 8, 8)
        if rgb_format:
            images = numpy.broadcast_to(images, (len(images), 3, 8, 8))
    else:
        raise ValueError("invalid ndim for digits dataset")
    images = numpy.ascontiguousarray(images)
    labels = digits.target.astype(label_dtype)
    n_train = len(images) - len(images) // 5

    def part(sl):
        x = kumo.asarray(images[sl])
        return TupleDataset(x, kumo.asarray(labels[sl])) if withlabel else x

    return part(slice(0, n_train)), part(slice(n_train, None))
