"""The DIA format (scipy.sparse's dia_array and dia_matrix) over kumo::sparse::DiaMatrix."""
import numbers

import operator

import numpy

from kumo import _creation
from kumo import _interop
from kumo._interop import asnumpy
from kumo._reductions import count_nonzero
from kumo.sparse._base import (_CLASSES, _FORMAT_OF, _VALUE_OPS, _asarray, _convert, _is_scalar, _is_scipy_sparse,
                               _shape_arg, _sp, _spbase, sparray, spmatrix)
from kumo.sparse._ops import _CompareMixin, _MethodsMixin

_FORMAT_OF[_sp.Dia] = "dia"
_VALUE_OPS[_sp.Dia] = (lambda m: _sp.make_dia(m.data.copy(), m.offsets.copy(), m.shape),
                       lambda m, data: _sp.make_dia(data, m.offsets, m.shape))


def _absent(name):
    def get(self):
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}' (as SciPy's DIA)")
    return property(get)


class _dia_base(_CompareMixin, _MethodsMixin, _spbase):
    """DIA: the reductions, comparisons, maximum/minimum, nonzero and reshape go through the CSR/COO forms
    (CSR, COO or dense results, as SciPy's); the elementwise functions, abs, round and power act on the
    stored diagonals and stay DIA."""

    format = "dia"
    # SciPy's DIA has no canonical form methods and no max/min/arg reductions; hasattr() must say so.
    sum_duplicates = _absent("sum_duplicates")
    eliminate_zeros = _absent("eliminate_zeros")
    max = _absent("max")
    min = _absent("min")
    nanmax = _absent("nanmax")
    nanmin = _absent("nanmin")
    argmax = _absent("argmax")
    argmin = _absent("argmin")

    def _summed(self):
        # SciPy's DIA offsets are distinct: the stored diagonals have no duplicates to sum.
        return self._m

    def _entries(self):
        """The C++ CSR value of the entries inside the matrix (the reductions' input)."""
        return _convert(self._m, "csr")

    def _value_from_tuple(self, arg1, shape):
        if len(arg1) == 2 and all(isinstance(x, numbers.Integral) for x in arg1):
            return _sp.dia_empty(_shape_arg(arg1), numpy.float64), False
        if len(arg1) != 2:
            raise ValueError("unrecognized form for dia_array constructor")
        if isinstance(arg1[1], tuple):
            return super()._value_from_tuple(arg1, shape)
        if shape is None:
            raise ValueError("expected a shape argument")
        data, offsets = arg1
        return _sp.make_dia(_asarray(data), _asarray(offsets), shape), True

    # ---- arithmetic that stays DIA, as SciPy's ----

    def _add(self, other, sign):
        if isinstance(other, _dia_base):
            if self.shape != other.shape:
                raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
            return type(self)._wrap((_sp.add if sign > 0 else _sp.subtract)(self._m, other._m))
        return super()._add(other, sign)

    def multiply(self, other):
        """Elementwise product: DIA with a DIA matrix of the same shape or with a
        dense operand broadcast to this shape (as SciPy), else the base's rule."""
        if isinstance(other, _dia_base) and other.shape == self.shape:
            return type(self)._wrap(_sp.multiply(self._m, other._m))
        if not (_is_scalar(other) or isinstance(other, _spbase) or _is_scipy_sparse(other)):
            dense = _asarray(other)
            # SciPy leaves degenerate shapes to the general rule.
            if dense.ndim <= 2 and 0 not in self.shape and 1 not in self.shape and 0 not in dense.shape:
                return type(self)._wrap(_sp.multiply(self._m, dense))
        return super().multiply(other)

    @property
    def offsets(self):
        return self._m.offsets

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return (f"<DIAgonal sparse {kind} of dtype '{self.dtype}'\n\twith {self.nnz} stored elements "
                f"({self._m.data.shape[0]} diagonals) and shape {self.shape}>")

    def get(self, stream=None):
        """The same matrix as a SciPy dia object (a host copy)."""
        import scipy.sparse
        cls = getattr(scipy.sparse, type(self).__name__)
        return cls((asnumpy(self._m.data), asnumpy(self._m.offsets)), shape=self.shape)

    def count_nonzero(self, axis=None):
        """Nonzero values at places inside the matrix, in all or per column (0) / row (1) (SciPy has
        only the total for DIA)."""
        if axis is not None:
            return self.tocsr().count_nonzero(axis=axis)
        return int(count_nonzero(_sp.tocsr(self._m).data))

    def _stored_per(self, axis):
        """Stored places inside the matrix (data[k, j] is (j - offsets[k], j), for j below the data's
        width), per column (0) or row (1); they add up to nnz. From the offsets alone (host metadata)."""
        rows, cols = self.shape
        offsets = _interop.asnumpy(self._m.offsets)
        width = min(self._m.data.shape[1] if self._m.data.ndim == 2 else 0, cols)
        if axis == 1:
            j = numpy.arange(rows)[:, None] + offsets[None, :]
            count = ((j >= 0) & (j < width)).sum(axis=1)
        else:
            j = numpy.arange(cols)[:, None]
            i = j - offsets[None, :]
            count = ((j < width) & (i >= 0) & (i < rows)).sum(axis=1)
        return _creation.asarray(count.astype(numpy.int64)).to_device(self._m.offsets.device)


def axis_getnnz(self, axis=None):
    """Stored entries (explicit zeros included) in all, or per column (0) / row (1) (SciPy has only
    the total for DIA and BSR)."""
    if axis is None:
        return self.nnz
    axis = operator.index(axis)
    if axis < 0:
        axis += 2
    if axis not in (0, 1):
        raise ValueError("axis out of bounds")
    return self._stored_per(axis)


def _doc(kind):
    star = "the elementwise product" if kind == "array" else "the matrix product"
    return (f"Sparse {kind} with DIAgonal storage (scipy.sparse.dia_{kind}); C++: kumo::sparse::DiaMatrix.\n\n"
            f"``*`` is {star}, ``@`` the matrix product. Constructors as SciPy's: a dense 2-d array, another "
            "sparse matrix (kumo or SciPy), (M, N) for an empty one, or (data, offsets) with shape=, where "
            "data[k, j] is entry (j - offsets[k], j). .get() returns the SciPy object.")


class dia_array(sparray, _dia_base):
    __doc__ = _doc("array")


class dia_matrix(spmatrix, _dia_base):
    __doc__ = _doc("matrix")
    getnnz = axis_getnnz


_CLASSES.update({("dia", True): dia_array, ("dia", False): dia_matrix})


def isspmatrix_dia(x):
    """Whether x is a kumo.sparse dia_matrix (not a dia_array), as SciPy's."""
    return isinstance(x, dia_matrix)

