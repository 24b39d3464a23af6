"""save_npz / load_npz: sparse arrays and matrices in SciPy's .npz layout, over kumo's .npz I/O.

The archive holds the format's arrays (indices and indptr; offsets; row and
col), 'format' (the name as bytes), 'shape', 'data' and, for the *_array
classes, '_is_array' -- what scipy.sparse.save_npz writes and load_npz reads,
so files go both ways between kumo and SciPy.
"""
import numpy

from kumo._interop import asnumpy
from kumo._io import load, savez, savez_compressed
from kumo._manipulation import stack
from kumo.sparse._base import _CLASSES, _is_scipy_sparse, _spbase, sparray


def save_npz(file, matrix, compressed=True):
    """Writes a sparse matrix (kumo or SciPy) to `file` (a path, '.npz' appended when
    missing, or a binary file object), deflated unless compressed=False."""
    if _is_scipy_sparse(matrix):
        matrix = _CLASSES[(matrix.format, isinstance(matrix, _scipy_sparray()))](matrix) \
            if matrix.format in ("coo", "csr", "csc", "dia", "bsr") else None
    if not isinstance(matrix, _spbase):
        raise NotImplementedError(f"Save is not implemented for sparse matrix of format "
                                  f"{getattr(matrix, 'format', type(matrix).__name__)}.")
    fmt = matrix.format
    arrays = {}
    if fmt in ("csc", "csr", "bsr"):
        arrays.update(indices=matrix.indices, indptr=matrix.indptr)
    elif fmt == "dia":
        arrays.update(offsets=matrix.offsets)
    elif matrix.ndim == 1:
        arrays.update(coords=stack(matrix.coords))  # SciPy's layout of a 1-d COO array
    else:
        arrays.update(row=matrix.row, col=matrix.col)
    arrays.update(format=numpy.array(fmt.encode("ascii")), shape=numpy.array(matrix.shape, dtype=numpy.int64),
                  data=matrix.data)
    if isinstance(matrix, sparray):
        arrays.update(_is_array=numpy.array(True))
    (savez_compressed if compressed else savez)(file, **arrays)


def _scipy_sparray():
    import scipy.sparse
    return scipy.sparse.sparray


def load_npz(file):
    """Reads a sparse matrix written by save_npz (kumo's or SciPy's): the
    *_array class when the file says so, else the *_matrix class."""
    with load(file) as loaded:
        fmt = loaded.get("format")
        if fmt is None:
            raise ValueError(f"The file {file} does not contain a sparse array or matrix.")
        fmt = numpy.asarray(fmt).item()
        if not isinstance(fmt, str):
            fmt = fmt.decode("ascii")
        is_array = "_is_array" in loaded and bool(asnumpy(loaded["_is_array"]))
        cls = _CLASSES.get((fmt, is_array))
        if cls is None:
            raise ValueError(f'Unknown format "{fmt}_{"array" if is_array else "matrix"}"')
        shape = tuple(int(s) for s in asnumpy(loaded["shape"]))
        if len(shape) not in (1, 2) or (len(shape) == 1 and not is_array):
            raise ValueError(f"kumo.sparse supports 1-d and 2-d arrays and 2-d matrices only; {file} holds a "
                             f"{len(shape)}-d {fmt} {'array' if is_array else 'matrix'}")
        if fmt in ("csc", "csr", "bsr"):
            return cls((loaded["data"], loaded["indices"], loaded["indptr"]), shape=shape)
        if fmt == "dia":
            return cls((loaded["data"], loaded["offsets"]), shape=shape)
        if "coords" in loaded:
            coords = loaded["coords"]
            return cls((loaded["data"], tuple(coords[i] for i in range(coords.shape[0]))), shape=shape)
        return cls((loaded["data"], (loaded["row"], loaded["col"])), shape=shape)
