"""Indexing of kumo.sparse matrices: A[rows, cols], A[rows, cols] = x,
getrow/getcol, with scipy.sparse 1.17's rules for what an index selects and
what type the result has (a scalar, a dense array or a sparse matrix).

The key is parsed here (it is small host metadata: integers, slices,
integer or boolean arrays); the selection itself is C++
(kumo::sparse::take_rows/take_cols/slice/get_entries/set_entries in
sparse/indexing.h). CSR and CSC are indexed directly; COO through CSR.

kumo.sparse is 2-d only: where SciPy's *_array classes give a 1-d sparse
array (an integer on one axis, or inner indexing of a COO array), kumo
raises NotImplementedError rather than give another shape."""
import operator
import warnings

import numpy

from kumo import _creation
from kumo.sparse._base import _sp, _spbase, _is_scipy_sparse

_INT_TYPES = (int, numpy.integer)


class SparseWarning(Warning):
    """The base of kumo.sparse's warnings (SciPy's class of that name)."""


class SparseEfficiencyWarning(SparseWarning):
    """An operation that costs more than its sparse form suggests: a change of a compressed matrix's
    structure (an insertion), or a result that is dense in all but type."""


def _axis_item(item, extent, axis):
    """One axis of a key: an int (in range, non-negative), a slice, or a numpy int array."""
    if isinstance(item, slice):
        if item.step == 0:
            raise ValueError("slice step cannot be zero")
        return item
    if isinstance(item, _INT_TYPES) and not isinstance(item, (bool, numpy.bool_)):
        i = operator.index(item)
        if i < -extent or i >= extent:
            raise IndexError(f"index ({i}) out of range")
        return i + extent if i < 0 else i
    from kumo import asnumpy
    if isinstance(item, _spbase) or _is_scipy_sparse(item):
        raise IndexError("kumo.sparse: indexing with a sparse matrix is not supported")
    arr = asnumpy(item) if hasattr(item, "__dlpack__") and not isinstance(item, numpy.ndarray) else item
    arr = numpy.asarray(arr)
    if arr.dtype == numpy.bool_:
        if arr.ndim != 1 or arr.shape[0] != extent:
            raise IndexError(f"bool index {axis} has shape {arr.shape} instead of ({extent},)")
        return numpy.flatnonzero(arr)
    if arr.ndim == 0 and arr.dtype.kind in "iu":
        return _axis_item(int(arr), extent, axis)
    if arr.size == 0:
        arr = arr.astype(numpy.intp)
    if arr.dtype.kind not in "iu" or arr.ndim == 0:
        raise IndexError("only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are "
                         "valid indices")
    if arr.ndim > 2:
        raise IndexError("Index dimension must be 1 or 2")
    bad = (arr < -extent) | (arr >= extent)
    if bad.any():
        raise IndexError(f"index ({arr[bad].flat[0]}) out of range")
    return numpy.where(arr < 0, arr + extent, arr).astype(numpy.int64)


def _parse_key(key, shape):
    """(row, col) items of a 2-d key."""
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is None for k in key):
        raise IndexError("kumo.sparse: None (newaxis) in an index is not supported (the matrices are 2-d)")
    n_ellipsis = sum(1 for k in key if k is Ellipsis)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_ellipsis:
        at = next(i for i, k in enumerate(key) if k is Ellipsis)
        key = key[:at] + (slice(None),) * (2 - len(key) + 1) + key[at + 1:]
    if len(key) > 2:
        raise IndexError(f"Too many indices for array or tuple index out of range. Key {key} needs "
                         f"{len(key)}D. Array is 2D")
    key = key + (slice(None),) * (2 - len(key))
    return _axis_item(key[0], shape[0], 0), _axis_item(key[1], shape[1], 1)


def _k(a):
    return _creation.asarray(numpy.ascontiguousarray(a, dtype=numpy.int64))


def _one_d_sparse(obj):
    raise NotImplementedError(f"kumo.sparse is 2-d only: this index of a {type(obj).__name__} gives a 1-d sparse "
                              "array in SciPy; index with a list or slice on both axes to keep 2-d")


class _IndexMixin:
    """__getitem__/__setitem__ of the compressed classes (and, through CSR, COO arrays)."""

    def _index_value(self):
        """The C++ CSR or CSC value to index (COO goes through CSR)."""
        return _sp.tocsr(self._m) if self.format == "coo" else self._m

    def _index_result(self, m):
        """A C++ CSR/CSC selection as this object's class."""
        if self.format == "coo":
            return type(self)._wrap(_sp.tocoo(m))
        return type(self)._wrap(m)

    def __getitem__(self, key):
        row, col = _parse_key(key, self.shape)
        m = self._index_value()
        row_int, col_int = isinstance(row, int), isinstance(col, int)
        if row_int and col_int:
            v = _sp.get_entries(m, _k([row]), _k([col]))
            from kumo import asnumpy
            return asnumpy(v)[0]
        if self._is_array and (row_int or col_int) and not (
                isinstance(row if col_int else col, numpy.ndarray) and (row if col_int else col).ndim == 2):
            _one_d_sparse(self)
        # An integer is a one-element array; against an array on the other
        # axis it selects the outer product (a (1, n) or (n, 1) result).
        if row_int:
            row = numpy.array([[row]]) if isinstance(col, numpy.ndarray) else numpy.array([row])
        if col_int:
            col = numpy.array([col])
            if isinstance(row, numpy.ndarray) and row.ndim == 1:
                row = row[:, None]
        if isinstance(row, slice) and isinstance(col, slice):
            if row == slice(None) and col == slice(None):
                return self.copy()
            return self._index_result(_sp.slice(m, row, col))
        if isinstance(row, slice):
            if col.ndim != 1:
                raise IndexError("index results in >2 dimensions")
            return self._index_result(_sp.take_cols(_sp.slice(m, row, slice(None)), _k(col)))
        if isinstance(col, slice):
            if row.ndim != 1:
                raise IndexError("index results in >2 dimensions")
            return self._index_result(_sp.slice(_sp.take_rows(m, _k(row)), slice(None), col))
        if row.ndim == 2 and row.shape[1] == 1 and (col.ndim == 1 or col.shape[0] == 1):
            # Outer indexing: the rows, then the columns of them.
            return self._index_result(_sp.take_cols(_sp.take_rows(m, _k(row[:, 0])), _k(col.reshape(-1))))
        try:
            r, c = numpy.broadcast_arrays(row, col)
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                             f"{row.shape} {col.shape}") from None
        if r.size == 0:
            return self._sibling(self.format)(numpy.atleast_2d(r).shape, dtype=self.dtype)
        if r.ndim == 1 and self.format == "coo":
            _one_d_sparse(self)
        vals = _sp.get_entries(m, _k(r), _k(c))
        if r.ndim == 2:
            return self._sibling(self.format)(vals)
        # SciPy: a dense 1-d array for *_array, a (1, n) numpy.matrix for *_matrix (here a 2-d kumo array).
        return vals if self._is_array else vals.reshape(1, -1)

    def __setitem__(self, key, x):
        row, col = _parse_key(key, self.shape)
        from kumo import asnumpy
        if isinstance(x, _spbase) or _is_scipy_sparse(x):
            x = x.toarray()
        x = numpy.asarray(asnumpy(x) if hasattr(x, "__dlpack__") and not isinstance(x, numpy.ndarray) else x,
                          dtype=self.dtype)
        if isinstance(row, int) and isinstance(col, int):
            if x.size != 1:
                raise ValueError("Trying to assign a sequence to an item")
            i, j = numpy.array([row]), numpy.array([col])
            x = x.reshape(1)
        else:
            if isinstance(row, slice):
                row = numpy.arange(*row.indices(self.shape[0]))[:, None]
            else:
                row = numpy.atleast_1d(row)
            if isinstance(col, slice):
                col = numpy.arange(*col.indices(self.shape[1]))[None, :]
                if row.ndim == 1:
                    row = row[:, None]
            else:
                col = numpy.atleast_1d(col)
            try:
                i, j = numpy.broadcast_arrays(row, col)
            except ValueError:
                raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                                 f"{row.shape} {col.shape}") from None
            if x.squeeze().shape != i.squeeze().shape:
                x = numpy.broadcast_to(x, i.shape)
            if x.size == 0:
                return
            x = x.reshape(i.shape)
        m = self._index_value()
        before = _sp.sum_duplicates(m).nnz
        out = _sp.set_entries(m, _k(i), _k(j), _creation.asarray(numpy.ascontiguousarray(x)))
        if out.nnz > before:
            warnings.warn(f"Changing the sparsity structure of a {type(self).__name__} is expensive. "
                          "lil and dok are more efficient.", SparseEfficiencyWarning, stacklevel=2)
        self._m = _sp.tocoo(out) if self.format == "coo" else out


class _RowColMixin:
    """getrow/getcol of the *_matrix classes (SciPy's *_array classes have neither)."""

    def getrow(self, i):
        """Row i as a (1, n) CSR matrix (whatever the format, as SciPy)."""
        i = operator.index(i)
        if not -self.shape[0] <= i < self.shape[0]:
            raise IndexError(f"index ({i}) out of range")
        return self.tocsr()[[i], :]

    def getcol(self, j):
        """Column j as an (m, 1) matrix: CSC for CSC, CSR otherwise (as SciPy)."""
        j = operator.index(j)
        if not -self.shape[1] <= j < self.shape[1]:
            raise IndexError(f"index ({j}) out of range")
        return (self if self.format == "csc" else self.tocsr())[:, [j]]
