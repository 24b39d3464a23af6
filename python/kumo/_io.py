"""NumPy's file input and output for kumo arrays.

.npy and .npz files and raw element files are read and written by the C++
routines (``kumo._core.io``, routines/io.h); this module adds NumPy's
signatures, the ``.npy``/``.npz`` suffixes, the choice between them on load,
and the pickle cases, which only Python can handle. Text files
(loadtxt/savetxt/genfromtxt) and Python iterables (fromiter) are parsed by
NumPy on the host and the result is moved to the device: that is text
parsing, not array work.

Every function that makes an array takes ``device=`` (a kumo.Device or a
name such as "cpu" or "cuda:0"); the default is the current device.
"""
import collections.abc
import io as _pyio
import os
import pickle

import numpy

from kumo import _core
from kumo._core import ndarray

__all__ = ["save", "load", "savez", "savez_compressed", "NpzFile", "loadtxt", "savetxt", "genfromtxt", "fromfile",
           "fromiter", "fromstring", "frombuffer"]

_io = _core.io
_NPY_MAGIC = b"\x93NUMPY"
_ZIP_PREFIXES = (b"PK\x03\x04", b"PK\x05\x06")  # a first entry, or the end record of an empty archive
_MAX_HEADER_SIZE = 10000
_UNLIMITED_HEADER = 2**63 - 1


def _device_name(device):
    if device is None:
        return _core.current_device_name()
    return _core.check_device(device if isinstance(device, str) else device.name)


def _is_file_object(file, method):
    return hasattr(file, method) and not isinstance(file, (str, bytes, os.PathLike))


def _host_array(value):
    """A kumo array of `value` without a device round trip: kumo arrays as they
    are (C++ copies GPU memory to the host), anything else on the CPU."""
    if isinstance(value, ndarray):
        return value
    return _core.from_numpy(numpy.asanyarray(value), "cpu")


def _with_suffix(file, suffix):
    if _is_file_object(file, "write"):
        return file
    path = os.fspath(file)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    return path if path.endswith(suffix) else path + suffix


# ---- .npy ----

def save(file, arr, allow_pickle=True):
    """numpy.save: `arr` as a .npy file (".npy" is appended to a path without it)."""
    target = _with_suffix(file, ".npy")
    if not isinstance(arr, ndarray):
        values = numpy.asanyarray(arr)
        if values.dtype.hasobject:
            _save_object_array(target, values, allow_pickle)
            return
        arr = _host_array(values)
    _io.save_npy(target, arr)


def _object_npy_bytes(values, allow_pickle):
    # kumo has no object dtype: the array stays a NumPy one, pickled after the header, as NumPy writes it.
    if not allow_pickle:
        raise ValueError("Object arrays cannot be saved when allow_pickle=False")
    fortran = values.ndim > 1 and values.flags.f_contiguous and not values.flags.c_contiguous
    return _io.npy_header_bytes("|O", fortran, values.shape) + pickle.dumps(values, protocol=4)


def _save_object_array(target, values, allow_pickle):
    data = _object_npy_bytes(values, allow_pickle)
    if isinstance(target, str):
        with open(target, "wb") as f:
            f.write(data)
    else:
        target.write(data)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=_MAX_HEADER_SIZE, device=None):
    """numpy.load: a kumo array for a .npy file, an NpzFile for a .npz archive,
    the unpickled object for a pickle (allow_pickle=True only)."""
    if encoding not in ("ASCII", "latin1", "bytes"):
        raise ValueError("encoding must be 'ASCII', 'latin1', or 'bytes'")
    pickle_kwargs = dict(encoding=encoding, fix_imports=fix_imports)
    own = not _is_file_object(file, "read")
    path = os.fsdecode(os.fspath(file)) if own else None
    fid = open(path, "rb") if own else file
    try:
        magic = fid.read(len(_NPY_MAGIC))
        if not magic:
            raise EOFError("No data left in file")
        fid.seek(-len(magic), 1)
        if magic.startswith(_ZIP_PREFIXES):
            return NpzFile(path if own else fid, allow_pickle=allow_pickle, pickle_kwargs=pickle_kwargs,
                           max_header_size=max_header_size, device=device)
        if magic == _NPY_MAGIC:
            if allow_pickle:
                max_header_size = _UNLIMITED_HEADER
                start = fid.tell()
                descr = _io.read_npy_header(fid, max_header_size)[0]
                if descr.endswith("O"):
                    return pickle.load(fid, **pickle_kwargs)
                fid.seek(start)
            target = path if own else fid
            if own:
                fid.close()
            # A memory map is host memory: without a device it stays on the CPU.
            dev = _device_name("cpu" if mmap_mode and device is None else device)
            return _io.load_npy(target, mmap_mode or "", dev, max_header_size)
        if not allow_pickle:
            raise ValueError("This file contains pickled (object) data. If you trust the file you can load it "
                             "unsafely using the `allow_pickle=` keyword argument or `pickle.load()`.")
        try:
            return pickle.load(fid, **pickle_kwargs)
        except Exception as e:
            raise pickle.UnpicklingError(f"Failed to interpret file {file!r} as a pickle") from e
    finally:
        if own:
            fid.close()


# ---- .npz ----

def savez(file, *args, allow_pickle=True, **kwds):
    """numpy.savez: the arrays as NAME.npy entries of an uncompressed ZIP
    archive (keywords by their names, positional ones as arr_0, arr_1, ...)."""
    _savez(file, args, kwds, False, allow_pickle)


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """numpy.savez_compressed: as savez, with deflated entries."""
    _savez(file, args, kwds, True, allow_pickle)


def _npz_member(value, allow_pickle):
    if isinstance(value, ndarray):
        return value
    values = numpy.asanyarray(value)
    if values.dtype.hasobject:
        return _object_npy_bytes(values, allow_pickle)  # written as given by the C++ archive writer
    if values.dtype.kind in "USVMm":
        # Strings, bytes, records and datetimes have no kumo dtype: NumPy's
        # own .npy bytes, read back as a NumPy array (NpzFile.__getitem__).
        out = _pyio.BytesIO()
        numpy.lib.format.write_array(out, values, allow_pickle=False)
        return out.getvalue()
    return _host_array(values)


def _savez(file, args, kwds, compress, allow_pickle):
    named = dict(kwds)
    for i, value in enumerate(args):
        key = "arr_%d" % i
        if key in named:
            raise ValueError("Cannot use un-named variables and keyword %s" % key)
        named[key] = value
    members = [(k, _npz_member(v, allow_pickle)) for k, v in named.items()]
    _io.savez(_with_suffix(file, ".npz"), members, compress)


class _Attributes:
    """npz.f.name: the archive's arrays as attributes."""

    def __init__(self, npz):
        self._npz = npz

    def __getattr__(self, key):
        try:
            return self._npz[key]
        except KeyError:
            raise AttributeError(key) from None

    def __dir__(self):
        return list(self._npz.keys())


class NpzFile(collections.abc.Mapping):
    """A lazy mapping over an .npz archive (numpy.lib.npyio.NpzFile): arrays are
    read and decompressed by the C++ reader when they are asked for."""

    def __init__(self, fid, own_fid=False, allow_pickle=False, pickle_kwargs=None, *,
                 max_header_size=_MAX_HEADER_SIZE, device=None):
        self._archive = _io.NpzFile(fid if _is_file_object(fid, "read") else os.fsdecode(os.fspath(fid)),
                                    max_header_size)
        self._files = self._archive.entry_names()
        self.files = [n[:-4] if n.endswith(".npy") else n for n in self._files]
        self.allow_pickle = allow_pickle
        self.pickle_kwargs = pickle_kwargs or {}
        self.max_header_size = max_header_size
        self.fid = fid if _is_file_object(fid, "read") else None
        self._own_fid = own_fid
        self._device = device
        self.f = _Attributes(self)

    def _entry(self, key):
        if self._archive is None:
            raise ValueError("I/O operation on closed NpzFile")
        if key in self._files:
            return key
        if key in self.files:
            return self._files[self.files.index(key)]
        raise KeyError(f"{key} is not a file in the archive")

    def __getitem__(self, key):
        entry = self._entry(key)
        if not entry.endswith(".npy"):
            return self._archive.bytes(entry)
        try:
            return self._archive.array(entry, _device_name(self._device))
        except TypeError:
            # A dtype kumo lacks (strings, records, datetimes): a NumPy array.
            return numpy.lib.format.read_array(_pyio.BytesIO(self._archive.bytes(entry)), allow_pickle=False)
        except ValueError as e:
            if not (self.allow_pickle and "Object arrays" in str(e)):
                raise
        # An object array: its bytes are a header and a pickle (Python's part).
        member = _pyio.BytesIO(self._archive.bytes(entry))
        _io.read_npy_header(member, _UNLIMITED_HEADER)
        return pickle.load(member, **self.pickle_kwargs)

    def __contains__(self, key):
        return key in self.files or key in self._files

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def close(self):
        # getattr: __del__ also runs for an instance whose __init__ failed.
        self._archive = None
        fid = getattr(self, "fid", None)
        if getattr(self, "_own_fid", False) and fid is not None:
            fid.close()
        self.fid = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self):
        keys = ", ".join(self.files[:5]) + ("..." if len(self.files) > 5 else "")
        return f"NpzFile with keys: {keys}"


# ---- raw element files ----

def _tofile(self, fid, sep="", format="%s"):
    """ndarray.tofile: the elements in C order as raw bytes, or as text
    separated by `sep` with each element written by `format`."""
    _io.tofile(fid if _is_file_object(fid, "write") else os.fsdecode(os.fspath(fid)), self, sep, format)


ndarray.tofile = _tofile


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None, device=None):
    """numpy.fromfile: raw items (sep="") or text numbers separated by `sep`."""
    dev = _device_name(device)
    if not _is_file_object(file, "read"):
        return _io.fromfile(os.fsdecode(os.fspath(file)), dtype, count, sep, offset, dev)
    # A file object: Python reads the bytes, C++ turns them into elements.
    if offset:
        file.seek(offset, 1)
    if sep:
        text = file.read()
        return _io.fromstring(text.decode("latin-1") if isinstance(text, bytes) else text, dtype, count, sep, dev)
    itemsize = numpy.dtype(dtype).itemsize
    data = file.read(count * itemsize if count >= 0 else -1)
    return _io.frombuffer(data, dtype, len(data) // itemsize, 0, dev)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None, device=None):
    """numpy.frombuffer. On the host the array uses the buffer's memory, as
    NumPy's (read-only for a read-only buffer); on another device it is a copy."""
    return _io.frombuffer(buffer, dtype, count, offset, _device_name(device))


def fromstring(string, dtype=float, count=-1, *, sep, like=None, device=None):
    """numpy.fromstring (text mode; NumPy 2 removed the binary one)."""
    if isinstance(string, bytes):
        string = string.decode("latin-1")
    return _io.fromstring(string, dtype, count, sep, _device_name(device))


def fromiter(iter, dtype, count=-1, *, like=None, device=None):  # noqa: A002 (numpy's name)
    """numpy.fromiter: the iterable is consumed by NumPy, the array moved to the device."""
    return _core.from_numpy(numpy.fromiter(iter, dtype, count), _device_name(device))


# ---- text files (NumPy's parsers on the host) ----

def _from_host(values, device):
    if values.dtype.names is not None or values.dtype.kind not in "biufc":
        raise TypeError(f"kumo arrays hold numbers only; the text gave dtype {values.dtype} "
                        "(use numpy's reader for it)")
    return _core.from_numpy(numpy.ascontiguousarray(values) if values.ndim else values, _device_name(device))


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0, usecols=None,
            unpack=False, ndmin=0, encoding=None, max_rows=None, *, quotechar=None, like=None, device=None):
    """numpy.loadtxt, returning kumo arrays."""
    values = numpy.loadtxt(fname, dtype=dtype, comments=comments, delimiter=delimiter, converters=converters,
                           skiprows=skiprows, usecols=usecols, unpack=unpack, ndmin=ndmin, encoding=encoding,
                           max_rows=max_rows, quotechar=quotechar)
    if isinstance(values, tuple):
        return tuple(_from_host(v, device) for v in values)
    return _from_host(values, device)


def genfromtxt(fname, *args, device=None, **kwargs):
    """numpy.genfromtxt (same arguments), returning a kumo array; masked and
    structured results, which kumo cannot hold, raise TypeError."""
    if kwargs.get("usemask"):
        raise TypeError("kumo has no masked arrays; use numpy.genfromtxt for usemask=True")
    kwargs.pop("like", None)
    values = numpy.genfromtxt(fname, *args, **kwargs)
    if isinstance(values, tuple):
        return tuple(_from_host(v, device) for v in values)
    return _from_host(values, device)


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ",
            encoding=None):
    """numpy.savetxt of a kumo array (or any array-like)."""
    values = _core.to_numpy(X) if isinstance(X, ndarray) else X
    numpy.savetxt(fname, values, fmt=fmt, delimiter=delimiter, newline=newline, header=header, footer=footer,
                  comments=comments, encoding=encoding)
