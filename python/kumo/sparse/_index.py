"""Indexing of kumo.sparse arrays: A[key], A[key] = x, getrow/getcol, with
scipy.sparse 1.17's rules for what a key selects and what type the result
has (a scalar, a dense array or a sparse array of 1 or 2 dimensions).

The key is parsed here (it is small host metadata: integers, slices,
integer or boolean arrays, sparse boolean masks, None); the selection
itself is C++ (kumo::sparse::take_rows/take_cols/slice/get_entries/
set_entries in sparse/indexing.h). CSR and CSC are indexed directly, COO
through CSR, a 1-d array as its (1, n) row.

As SciPy: the selection is made without the key's None entries, then
reshaped (into a COO array) when the shape the whole key asks for differs;
an integer on one axis of a 2-d *_array gives a 1-d COO array. Results of
more than 2 dimensions are an IndexError (kumo.sparse has no n-d COO)."""
import operator
import warnings

import numpy

from kumo import _creation
from kumo._creation import asarray
from kumo._interop import asnumpy
from kumo.sparse._base import _CLASSES, _fresh, _is_scipy_sparse, _sp, _spbase

_INT_TYPES = (int, numpy.integer)


class SparseWarning(Warning):
    """The base of kumo.sparse's warnings (SciPy's class of that name)."""


class SparseEfficiencyWarning(SparseWarning):
    """An operation that costs more than its sparse form suggests: a change of a compressed matrix's
    structure (an insertion), or a result that is dense in all but type."""


def _host(item):
    """item as a NumPy array (kumo arrays copied to the host)."""
    return numpy.asarray(asnumpy(item) if hasattr(item, "__dlpack__") and not isinstance(item, numpy.ndarray)
                         else item)


def _is_int(item):
    if isinstance(item, (bool, numpy.bool_)):
        return False
    if isinstance(item, _INT_TYPES):
        return True
    return isinstance(item, numpy.ndarray) and item.ndim == 0 and item.dtype.kind in "iu"


def _bool_mask(item, ndim):
    """A boolean key as a NumPy bool array (a sparse one of the array's ndim densified), or None."""
    if isinstance(item, _spbase) or _is_scipy_sparse(item):
        if item.dtype == numpy.bool_ and item.ndim == ndim:
            return _host(item.toarray())
        raise IndexError("Indexing with sparse matrices is not supported except boolean indexing where matrix "
                         "and index are equal shapes.")
    if isinstance(item, (list, numpy.ndarray)) or hasattr(item, "__dlpack__"):
        arr = _host(item)
        if arr.dtype == numpy.bool_:
            if arr.ndim == 0:
                raise IndexError("a boolean scalar is not a valid sparse index")
            return arr
    return None


def _int_array(item, extent):
    """An integer array key: in range, non-negative, int64."""
    arr = _host(item)
    if arr.size == 0:
        arr = arr.astype(numpy.intp)
    if arr.dtype.kind not in "iu" or arr.ndim == 0:
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                         "boolean arrays are valid indices")
    if arr.ndim > 2:
        raise IndexError("Index dimension must be 1 or 2")
    bad = (arr < -extent) | (arr >= extent)
    if bad.any():
        raise IndexError(f"index ({arr[bad].flat[0]}) out of range")
    return numpy.where(arr < 0, arr + extent, arr).astype(numpy.int64)


def _expand(key, ndim):
    """The key's items with the ellipsis (or the missing trailing axes) as full slices."""
    if not isinstance(key, tuple):
        key = (key,)
    items, ellipsis_at, used = [], None, 0
    for k in key:
        if k is Ellipsis:
            if ellipsis_at is not None:
                raise IndexError("an index can only have a single ellipsis ('...')")
            ellipsis_at = len(items)
            continue
        if k is None or isinstance(k, slice) or _is_int(k):
            items.append(k)
            used += k is not None
            continue
        mask = _bool_mask(k, ndim)
        items.append(mask if mask is not None else k)
        used += mask.ndim if mask is not None else 1
    if used > ndim:
        raise IndexError(f"Too many indices for array or tuple index out of range. Key {key} needs {used}D. "
                         f"Array is {ndim}D")
    fill = [slice(None)] * (ndim - used)
    return items + fill if ellipsis_at is None else items[:ellipsis_at] + fill + items[ellipsis_at:]


def _parse_key(key, shape):
    """(index, new_shape): one int, slice or int array per axis (boolean masks as their nonzero positions,
    None left out), and the shape the whole key asks for, None's axes of length 1 included (SciPy's rule:
    the broadcast index arrays take the place of the first array or integer)."""
    new_shape, index, arrays, arrays_and_ints = [], [], [], []
    axis = 0
    for k in _expand(key, len(shape)):
        if k is None:
            new_shape.append(1)
        elif isinstance(k, slice):
            if k.step == 0:
                raise ValueError("slice step cannot be zero")
            index.append(k)
            new_shape.append(len(range(*k.indices(shape[axis]))))
            axis += 1
        elif _is_int(k):
            i, n = operator.index(k), shape[axis]
            if not -n <= i < n:
                raise IndexError(f"index ({i}) out of range")
            index.append(i + n if i < 0 else i)
            arrays_and_ints.append(axis)
            axis += 1
        elif isinstance(k, numpy.ndarray) and k.dtype == numpy.bool_:
            if k.shape != tuple(shape[axis:axis + k.ndim]):
                raise IndexError(f"bool index {axis} has shape {k.shape} instead of {tuple(shape[axis:axis + k.ndim])}")
            for positions in k.nonzero():
                index.append(positions.astype(numpy.int64))
                arrays.append(axis)
                arrays_and_ints.append(axis)
                axis += 1
        else:
            index.append(_int_array(k, shape[axis]))
            arrays.append(axis)
            arrays_and_ints.append(axis)
            axis += 1
    if arrays:
        try:
            arr_shape = numpy.broadcast_shapes(*(index[a].shape for a in arrays))
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                             + " ".join(str(index[a].shape) for a in arrays)) from None
        adjacent = arrays_and_ints[-1] - arrays_and_ints[0] + 1 == len(arrays_and_ints)
        at = arrays_and_ints[0] if len(arrays) == 1 or adjacent else 0
        new_shape = new_shape[:at] + list(arr_shape) + new_shape[at:]
    return tuple(index), tuple(new_shape)


def _k(a):
    return _creation.asarray(numpy.ascontiguousarray(a, dtype=numpy.int64))


class _IndexMixin:
    """__getitem__/__setitem__ of the compressed classes (and, through CSR, COO arrays)."""

    def _index_value(self):
        """The C++ CSR or CSC value to index (COO goes through CSR)."""
        return _sp.tocsr(self._m) if self.format == "coo" else self._m

    def _index_result(self, m):
        """A C++ CSR/CSC selection as this object's class and dimensionality."""
        return self._like(_sp.tocoo(m) if self.format == "coo" else m)

    def _entry(self, m, row, col):
        """The value at (row, col) of C++ matrix m, as a NumPy scalar."""
        return asnumpy(_sp.get_entries(m, _k([row]), _k([col])))[0]

    def __getitem__(self, key):
        index, new_shape = _parse_key(key, self.shape)
        if len(new_shape) > 2:
            raise IndexError(f"Indexing that leads to >2D is not supported by kumo.sparse ({self.format} arrays are "
                             "1-d or 2-d)")
        res = self._get_1d(index[0]) if self._vec else self._get_2d(*index)
        return self._packaged(res, new_shape)

    def _packaged(self, res, new_shape):
        """The selection as the key asks (SciPy's rules): a *_matrix stays 2-d; an *_array's selection is
        reshaped to the key's shape when it differs (a COO result), a scalar padded by None becomes a 1-element
        array (sparse of this class for COO and 1-d arrays, dense otherwise)."""
        scalar = isinstance(res, numpy.generic)
        if not self._is_array:
            if new_shape == () or (len(new_shape) == 1 and not scalar):
                return res
            new_shape = (1,) + new_shape if len(new_shape) == 1 else new_shape
            res = asarray(res) if scalar else res
            return res if tuple(res.shape) == new_shape else res.reshape(new_shape)
        if scalar:
            if new_shape == ():
                return res
            if self._vec or self.format == "coo":
                return type(self)(numpy.full(new_shape, res))
            return asarray(res).reshape(new_shape)
        return res if tuple(res.shape) == new_shape else res.reshape(new_shape)

    def _get_1d(self, idx):
        """A 1-d array's selection: its (1, n) row's columns."""
        m = self._index_value()
        if isinstance(idx, int):
            return self._entry(m, 0, idx)
        if isinstance(idx, slice):
            if idx == slice(None):
                return self.copy()
            return self._index_result(_sp.slice(m, slice(None), idx))
        if idx.ndim == 2:
            # A 2-d integer array selects a 2-d array of the values, as NumPy.
            vals = _sp.get_entries(m, _k(numpy.zeros_like(idx)), _k(idx))
            return self._sibling(self.format)(vals)
        return self._index_result(_sp.take_cols(m, _k(idx)))

    def _get_2d(self, row, col):
        """A 2-d array's selection before the key's None entries: an integer on one axis keeps that axis as
        length 1 (SciPy's intermediate), which _packaged then drops for *_array."""
        m = self._index_value()
        row_int, col_int = isinstance(row, int), isinstance(col, int)
        if row_int and col_int:
            return self._entry(m, row, col)
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
        vals = _sp.get_entries(m, _k(r), _k(c))
        if r.ndim == 2:
            return self._sibling(self.format)(vals)
        if self.format == "coo":
            # SciPy: inner indexing of a COO array gives a 1-d COO array.
            return _CLASSES[("coo", True)]._wrap(_fresh(_sp.coo_from_dense(vals.reshape(1, -1))), True)
        # SciPy: a dense 1-d array for *_array, a (1, n) numpy.matrix for *_matrix (here a 2-d kumo array).
        return vals if self._is_array else vals.reshape(1, -1)

    def __setitem__(self, key, x):
        index, _ = _parse_key(key, self.shape)
        # A 1-d array is assigned through its (1, n) row.
        row, col = (0,) + index if self._vec else index
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
            rows, cols = self._m.shape
            if isinstance(row, slice):
                row = numpy.arange(*row.indices(rows))[:, None]
            else:
                row = numpy.atleast_1d(row)
            if isinstance(col, slice):
                col = numpy.arange(*col.indices(cols))[None, :]
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
