"""The COO, CSR and CSC classes, each as scipy.sparse's *_array and *_matrix."""
from kumo.sparse._base import _CLASSES, _sp, _spbase, sparray, spmatrix
from kumo.sparse._index import _IndexMixin, _RowColMixin
from kumo.sparse._ops import _CompareMixin, _MethodsMixin


class _coo_base(_CompareMixin, _MethodsMixin, _spbase):
    format = "coo"

    @property
    def row(self):
        return self._m.row

    @property
    def col(self):
        return self._m.col

    @property
    def coords(self):
        """The index arrays, one per axis: (col,) of a 1-d array's row, (row, col) of a 2-d one."""
        return (self._m.col,) if self._vec else (self._m.row, self._m.col)

    @property
    def has_canonical_format(self):
        """Whether the entries are known to be sorted by (row, col) without duplicates (SciPy's flag)."""
        return self._m.canonical


class _compressed_base(_IndexMixin, _CompareMixin, _MethodsMixin, _spbase):
    @property
    def indices(self):
        return self._m.indices

    @property
    def indptr(self):
        return self._m.indptr

    @property
    def has_sorted_indices(self):
        return _sp.has_sorted_indices(self._m)

    @property
    def has_canonical_format(self):
        return _sp.has_canonical_format(self._m)

    def sort_indices(self):
        self._m = _sp.sort_indices(self._m)

    def sorted_indices(self):
        return self._like(_sp.sort_indices(self._m))

    def prune(self):
        """Drops the storage past indptr[-1] from data and indices (in place), as SciPy's. kumo's
        constructors keep only that part (data[:indptr[-1]]) already, so there is nothing to drop."""
        return None


class _csr_base(_compressed_base):
    format = "csr"


class _csc_base(_compressed_base):
    format = "csc"


def _doc(fmt, kind):
    names = {"coo": "COOrdinate format", "csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column"}
    star = "the elementwise product" if kind == "array" else "the matrix product"
    return (f"{names[fmt]} sparse {kind} (scipy.sparse.{fmt}_{kind}); C++: kumo::sparse.\n\n"
            f"``*`` is {star}, ``@`` the matrix product. Constructors as SciPy's: a dense 2-d array"
            + (" or 1-d array (a 1-d sparse array), " if kind == "array" and fmt in ("coo", "csr") else ", ")
            + "another sparse matrix (kumo or SciPy), (M, N) for an empty one, "
            + ("(data, (row, col))" if fmt == "coo" else "(data, (row, col)) or (data, indices, indptr)")
            + ", with shape=, dtype= and copy=. Arrays are kumo arrays; .get() returns the SciPy object.")


class coo_array(sparray, _IndexMixin, _coo_base):
    __doc__ = _doc("coo", "array")


class coo_matrix(spmatrix, _RowColMixin, _coo_base):
    __doc__ = _doc("coo", "matrix")


class csr_array(sparray, _csr_base):
    __doc__ = _doc("csr", "array")


class csr_matrix(spmatrix, _RowColMixin, _csr_base):
    __doc__ = _doc("csr", "matrix")


class csc_array(sparray, _csc_base):
    __doc__ = _doc("csc", "array")


class csc_matrix(spmatrix, _RowColMixin, _csc_base):
    __doc__ = _doc("csc", "matrix")


_CLASSES.update({("coo", True): coo_array, ("coo", False): coo_matrix, ("csr", True): csr_array,
                 ("csr", False): csr_matrix, ("csc", True): csc_array, ("csc", False): csc_matrix})


def issparse(x):
    """Whether x is a kumo.sparse array or matrix."""
    return isinstance(x, _spbase)


def isspmatrix(x):
    """Whether x is a kumo.sparse *_matrix (not an *_array), as SciPy's."""
    return isinstance(x, spmatrix)


def isspmatrix_csr(x):
    return isinstance(x, csr_matrix)


def isspmatrix_csc(x):
    return isinstance(x, csc_matrix)


def isspmatrix_coo(x):
    return isinstance(x, coo_matrix)
