"""The BSR format (scipy.sparse's bsr_array and bsr_matrix) over kumo::sparse::BsrMatrix."""
import numbers

import numpy

from kumo import _manipulation
from kumo import _reductions
from kumo import _statistics
from kumo._interop import asnumpy
from kumo._reductions import count_nonzero
from kumo.sparse._base import (_CLASSES, _FORMAT_OF, _VALUE_OPS, _asarray, _convert, _from_scipy, _is_scalar,
                               _is_scipy_sparse, _shape_arg, _sp, _spbase, sparray, spmatrix)
from kumo.sparse._dia import axis_getnnz
from kumo.sparse._formats import _compressed_base, coo_array, coo_matrix

_FORMAT_OF[_sp.Bsr] = "bsr"
_VALUE_OPS[_sp.Bsr] = (lambda m: _sp.make_bsr(m.data.copy(), m.indices.copy(), m.indptr.copy(), m.shape),
                       lambda m, data: _sp.make_bsr(data, m.indices, m.indptr, m.shape))


def _blocksize_arg(blocksize):
    if blocksize is None:
        return None
    try:
        r, c = (int(b) for b in blocksize)
    except (TypeError, ValueError):
        raise ValueError(f"invalid blocksize={blocksize}") from None
    if r < 1 or c < 1:
        raise ValueError(f"invalid blocksize={blocksize}")
    return (r, c)


class _bsr_base(_compressed_base):
    """BSR: the compressed structure (indices, indptr, sorting) is over blocks."""

    format = "bsr"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, blocksize=None):
        self._blocksize = _blocksize_arg(blocksize)
        super().__init__(arg1, shape=shape, dtype=dtype, copy=copy)

    def _value_from(self, arg1, shape):
        blocksize = self._blocksize
        del self._blocksize
        if isinstance(arg1, _spbase) or _is_scipy_sparse(arg1):
            m = arg1._m if isinstance(arg1, _spbase) else _from_scipy(arg1 if arg1.format in (
                "coo", "csr", "csc", "dia", "bsr") else arg1.tocsr())
            if isinstance(m, _sp.Bsr) and blocksize in (None, tuple(m.blocksize)):
                return m, True
            return _sp.tobsr(_convert(m, "csr"), blocksize), False
        if isinstance(arg1, tuple):
            if len(arg1) == 2 and all(isinstance(x, numbers.Integral) for x in arg1):
                return _sp.bsr_empty(_shape_arg(arg1), blocksize or (1, 1), numpy.float64), False
            if len(arg1) == 2 and isinstance(arg1[1], tuple):
                if len(arg1[1]) != 2:
                    raise ValueError("BSR arrays don't support 1D input. Use 2D")
                return _sp.tobsr(_sp.tocsr(coo_array(arg1, shape=shape)._m), blocksize), False
            if len(arg1) == 3:
                data, indices, indptr = (_asarray(x) for x in arg1)
                return _sp.make_bsr(data, indices, indptr, shape, blocksize), True
            raise ValueError("unrecognized bsr_array constructor usage")
        dense = (coo_array if self._is_array else coo_matrix)(arg1)._m
        return _sp.tobsr(_sp.tocsr(dense), blocksize), False

    def _elementwise(self, other, fn, fmt):
        """Sparse +, - and multiply give BSR of this blocksize, as SciPy's bsr_binop:
        the CSR result regrouped, blocks without a nonzero dropped, sorted."""
        out = super()._elementwise(other, fn, "csr")
        return self._sibling("bsr")._wrap(_sp.sort_indices(_sp.tobsr(out._m, self.blocksize)))

    @property
    def blocksize(self):
        return tuple(self._m.blocksize)

    def _summed(self):
        # Entry-wise sums in CSR, regrouped into blocks and sorted.
        return _sp.sort_indices(_sp.tobsr(_sp.sum_duplicates(_sp.tocsr(self._m)), self.blocksize))

    def sum_duplicates(self):
        """Blocks sorted by block column, duplicate blocks summed (in place)."""
        self._m = self._summed()

    def __getitem__(self, key):
        raise NotImplementedError("BSR arrays and matrices are not subscriptable (as SciPy's); convert to CSR")

    def __setitem__(self, key, value):
        raise NotImplementedError("BSR arrays and matrices do not support item assignment (as SciPy's); "
                                  "convert to CSR")

    def _max_min(self, other, name):
        """In CSR, as SciPy: a CSR result, except for a scalar that makes every entry nonzero (BSR again)."""
        r = self.tocsr()._max_min(other, name)
        if _is_scalar(other) and ((name == "maximum" and other > 0) or (name == "minimum" and other < 0)):
            return r.tobsr(blocksize=self.blocksize)
        return r

    def eliminate_zeros(self):
        """Drops the blocks whose entries are all zero (in place)."""
        self._m = _sp.eliminate_zeros(self._m)

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return (f"<Block Sparse Row sparse {kind} of dtype '{self.dtype}'\n\twith {self.nnz} stored elements "
                f"(blocksize={self.blocksize[0]}x{self.blocksize[1]}) and shape {self.shape}>")

    def get(self, stream=None):
        """The same matrix as a SciPy bsr object (a host copy)."""
        import scipy.sparse
        cls = getattr(scipy.sparse, type(self).__name__)
        m = self._m
        return cls((asnumpy(m.data), asnumpy(m.indices), asnumpy(m.indptr)), shape=self.shape)

    def count_nonzero(self, axis=None):
        """Nonzero values once duplicate blocks are summed, in all or per column (0) / row (1) (SciPy has
        only the total for BSR)."""
        if axis is not None:
            return self.tocsr().count_nonzero(axis=axis)
        return int(count_nonzero(_sp.sum_duplicates(_sp.tocsr(self._m)).data))


def _doc(kind):
    star = "the elementwise product" if kind == "array" else "the matrix product"
    return (f"Block Sparse Row {kind} (scipy.sparse.bsr_{kind}); C++: kumo::sparse::BsrMatrix.\n\n"
            f"``*`` is {star}, ``@`` the matrix product. Constructors as SciPy's: a dense 2-d array or another "
            "sparse matrix (kumo or SciPy) with an optional blocksize=, (M, N) for an empty one, "
            "(data, (row, col)), or (data, indices, indptr) with data of shape (blocks, R, C). .get() returns the "
            "SciPy object.")


class bsr_array(sparray, _bsr_base):
    __doc__ = _doc("array")


class bsr_matrix(spmatrix, _bsr_base):
    __doc__ = _doc("matrix")
    getnnz = axis_getnnz

    def _stored_per(self, axis):
        """Stored entries per column (0) or row (1): every stored R x C block holds R * C."""
        r, c = self.blocksize
        if axis == 1:
            return _manipulation.repeat(_reductions.diff(self._m.indptr).astype(numpy.int64) * c, r)
        blocks = _statistics.bincount(self._m.indices, minlength=self.shape[1] // c)
        return _manipulation.repeat(blocks.astype(numpy.int64) * r, c)


_CLASSES.update({("bsr", True): bsr_array, ("bsr", False): bsr_matrix})


def isspmatrix_bsr(x):
    """Whether x is a kumo.sparse bsr_matrix (not a bsr_array), as SciPy's."""
    return isinstance(x, bsr_matrix)
