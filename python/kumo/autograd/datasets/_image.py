"""Datasets of image files read with Pillow (optional) and scikit-learn's
handwritten digits."""
import bisect
import io
import os
import threading
import zipfile

import numpy

from kumo import _creation
from kumo.autograd.dataset._mixin import DatasetMixin
from kumo.autograd.datasets._basic import TupleDataset

_pillow = {}


def _check_pillow():
    """Pillow's Image module, imported on first use (it is optional and only
    the image datasets need it)."""
    if "Image" not in _pillow:
        try:
            from PIL import Image
        except ImportError as e:
            raise ImportError("PIL cannot be loaded. Install Pillow!\nThe actual import error is as follows:\n"
                              + str(e)) from e
        _pillow["Image"] = Image
    return _pillow["Image"]


def _image_dtype(dtype):
    return numpy.dtype(numpy.float32 if dtype is None else dtype)


def _read_image(path, dtype):
    """The image at ``path`` as a kumo array of shape (channels, height, width)."""
    with _check_pillow().open(path) as f:
        image = numpy.asarray(f, dtype=dtype)
    if image.ndim == 2:
        image = image[..., None]
    return _creation.asarray(numpy.ascontiguousarray(image.transpose(2, 0, 1)))


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
            pairs = _read_pairs(pairs)
        self._pairs = pairs
        self._root = root
        self._dtype = _image_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image(os.path.join(self._root, path), self._dtype)
        return image, _creation.asarray(numpy.array(label, dtype=self._label_dtype))


def _read_pairs(name):
    pairs = []
    with open(name) as f:
        for i, line in enumerate(f):
            fields = line.strip().split()
            if len(fields) != 2:
                raise ValueError("invalid format at line {} in file {}".format(i, name))
            pairs.append((fields[0], int(fields[1])))
    return pairs


class ZippedImageDataset(DatasetMixin):
    """The images in a zip file (every member that is not a folder); an
    example is read by index or by member name."""

    def __init__(self, zipfilename, dtype=None):
        _check_pillow()
        self._zipfilename = zipfilename
        self._zf = zipfile.ZipFile(zipfilename)
        self._zf_pid = os.getpid()
        self._dtype = _image_dtype(dtype)
        self._paths = [x for x in self._zf.namelist() if not x.endswith("/")]
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._paths)

    def __getstate__(self):
        # An open ZipFile and a lock do not pickle: a worker process reopens.
        state = self.__dict__.copy()
        state["_zf"] = None
        state["_lock"] = None
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self._lock = threading.Lock()

    def get_example(self, i_or_filename):
        name = self._paths[i_or_filename] if isinstance(i_or_filename, (int, numpy.integer)) else i_or_filename
        with self._lock:
            # A forked child must not share the parent's file position.
            if self._zf is None or self._zf_pid != os.getpid():
                self._zf_pid = os.getpid()
                self._zf = zipfile.ZipFile(self._zipfilename)
            data = self._zf.read(name)
        return _read_image(io.BytesIO(data), self._dtype)


class LabeledZippedImageDataset(DatasetMixin):
    """Pairs (image, label): images from a zip file, named with their labels
    in the text file ``labelfilename`` (lines "member label")."""

    def __init__(self, zipfilename, labelfilename, dtype=None, label_dtype=numpy.int32):
        _check_pillow()
        self._pairs = _read_pairs(labelfilename)
        self._label_dtype = label_dtype
        self._zipfile = ZippedImageDataset(zipfilename, dtype=dtype)

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        return self._zipfile.get_example(path), _creation.asarray(numpy.array(label, dtype=self._label_dtype))


class MultiZippedImageDataset(DatasetMixin):
    """The images of several zip files one after the other."""

    def __init__(self, zipfilenames, dtype=None):
        self._zfs = [ZippedImageDataset(name, dtype) for name in zipfilenames]
        self._starts = [0]
        for zf in self._zfs:
            self._starts.append(self._starts[-1] + len(zf))

    def __len__(self):
        return self._starts[-1]

    def get_example(self, i):
        if not 0 <= i < len(self):
            raise IndexError("dataset index out of range")
        k = bisect.bisect(self._starts, i) - 1
        return self._zfs[k].get_example(i - self._starts[k])


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
        x = _creation.asarray(images[sl])
        return TupleDataset(x, _creation.asarray(labels[sl])) if withlabel else x

    return part(slice(0, n_train)), part(slice(n_train, None))
