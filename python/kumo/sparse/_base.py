"""The sparse classes of kumo.sparse over the C++ matrices of kumo._core.sparse.

One class per format holds the C++ value (`_m`: Coo, Csr or Csc); SciPy's
two flavours come from mixing in `spmatrix` (``*`` is the matrix product)
or `sparray` (``*`` is elementwise). Every kernel is C++; this layer maps
SciPy's constructors, in-place methods and operators onto those values.
"""
import numbers
import operator

import numpy

from kumo import _core
from kumo import _creation

_sp = _core.sparse
_ndarray = _core.ndarray
_FORMATS = ("coo", "csr", "csc", "dia", "bsr")
# The format of each C++ matrix type; _dia.py and _bsr.py add theirs.
_FORMAT_OF = {_sp.Coo: "coo", _sp.Csr: "csr", _sp.Csc: "csc"}
# Per C++ type of the other formats: (copy of a value, value with new data).
_VALUE_OPS = {}


def _asarray(a):
    return a if isinstance(a, _ndarray) else _creation.asarray(a)


def _is_python_scalar(x):
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, numpy.generic)


def _is_scalar(x):
    return _is_python_scalar(x) or isinstance(x, numpy.generic) or (
        isinstance(x, (_ndarray, numpy.ndarray)) and x.ndim == 0)


def _shape_arg(shape):
    if shape is None:
        return None
    try:
        rows, cols = (operator.index(s) for s in shape)
    except (TypeError, ValueError):
        raise TypeError(f"kumo.sparse: shape must be a pair of integers, got {shape!r}") from None
    if rows < 0 or cols < 0:
        raise ValueError("'shape' elements cannot be negative")
    return (rows, cols)


def _scipy_sparse():
    import scipy.sparse
    return scipy.sparse


def _is_scipy_sparse(obj):
    mod = type(obj).__module__
    return mod.startswith("scipy.sparse") and _scipy_sparse().issparse(obj)


def _fresh(m):
    """m, a new C++ value; a COO one forgets its canonical flag, as SciPy's
    COO results made from (data, coords) do (copies, casts, scalar products)."""
    if isinstance(m, _sp.Coo):
        m.canonical = False
    return m


def _copy_value(m):
    """A C++ matrix value with copies of its arrays."""
    if type(m) in _VALUE_OPS:
        return _VALUE_OPS[type(m)][0](m)
    if isinstance(m, _sp.Coo):
        return _sp.make_coo(m.data.copy(), m.row.copy(), m.col.copy(), m.shape)
    make = _sp.make_csr if isinstance(m, _sp.Csr) else _sp.make_csc
    return make(m.data.copy(), m.indices.copy(), m.indptr.copy(), m.shape)


def _with_data(m, data):
    """The C++ matrix m with `data` in place of its values (same structure)."""
    if type(m) in _VALUE_OPS:
        return _VALUE_OPS[type(m)][1](m, data)
    if isinstance(m, _sp.Coo):
        return _sp.make_coo(data, m.row, m.col, m.shape)
    make = _sp.make_csr if isinstance(m, _sp.Csr) else _sp.make_csc
    return make(data, m.indices, m.indptr, m.shape)


def _convert(m, fmt):
    """The C++ matrix m in format `fmt` (shared when it already is)."""
    have = _FORMAT_OF[type(m)]
    if have == fmt:
        return m
    return getattr(_sp, "to" + fmt)(m)


class _spbase:
    """What the COO, CSR and CSC classes share."""

    format = None
    _is_array = False
    __array_priority__ = 10.1
    __array_ufunc__ = None  # NumPy defers its operators to ours.

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        shape = _shape_arg(shape)
        m, shared = self._value_from(arg1, shape)
        if shape is not None and tuple(m.shape) != shape:
            raise ValueError(f"shape of the input {tuple(m.shape)} does not match shape={shape}")
        if dtype is not None:
            target = numpy.dtype(dtype)
            if m.dtype != target:
                m = _sp.astype(m, target)
                shared = False
        if copy and shared:
            m = _copy_value(m)
        self._m = m

    # ---- construction ----

    def _value_from(self, arg1, shape):
        """(C++ matrix in this format, whether it may share arrays with arg1)."""
        fmt = self.format
        if isinstance(arg1, _spbase) or _is_scipy_sparse(arg1):
            if isinstance(arg1, _spbase):
                m, shared = _convert(arg1._m, fmt), arg1.format == fmt
            else:
                src = arg1 if arg1.format in _FORMATS else arg1.tocsr()
                m, shared = _convert(_from_scipy(src), fmt), True
            if fmt == "coo":
                # SciPy's COO constructor forgets what its sparse input knew.
                m = _sp.Coo(m)
                m.canonical = False
            return m, shared
        if isinstance(arg1, tuple):
            return self._value_from_tuple(arg1, shape)
        if _is_scalar(arg1) or isinstance(arg1, str):
            raise ValueError("kumo.sparse classes do not support instantiation from a scalar")
        dense = _asarray(arg1)
        if dense.ndim < 2 and not self._is_array:
            dense = dense.reshape((1, -1) if dense.ndim == 1 else (1, 1))
        if dense.ndim != 2:
            raise ValueError(f"kumo.sparse supports 2-d matrices only, got a {dense.ndim}-d input")
        return _convert(_sp.coo_from_dense(dense), fmt), False

    def _value_from_tuple(self, arg1, shape):
        fmt = self.format
        if len(arg1) == 2 and all(isinstance(x, numbers.Integral) for x in arg1):
            empty = _sp.coo_empty(_shape_arg(arg1), numpy.float64)
            return _convert(empty, fmt), False
        if len(arg1) == 2 and isinstance(arg1[1], tuple) and len(arg1[1]) == 2:
            data, (row, col) = arg1
            coo = _sp.make_coo(_asarray(data), _asarray(row), _asarray(col), shape)
            # SciPy's csr/csc constructors sum the duplicates of COO input.
            return _convert(coo, fmt), fmt == "coo"
        if len(arg1) == 3 and fmt != "coo":
            data, indices, indptr = (_asarray(x) for x in arg1)
            make = _sp.make_csr if fmt == "csr" else _sp.make_csc
            return make(data, indices, indptr, shape), True
        if fmt == "coo":
            raise TypeError("invalid input format")
        raise ValueError(f"unrecognized {type(self).__name__} constructor input")

    @classmethod
    def _wrap(cls, m):
        obj = object.__new__(cls)
        obj._m = m
        return obj

    def _sibling(self, fmt):
        """This flavour's (array or matrix) class of format fmt."""
        return _CLASSES[(fmt, self._is_array)]

    def _wrap_as(self, m):
        fmt = _FORMAT_OF[type(m)]
        return self._sibling(fmt)._wrap(m)

    # ---- attributes ----

    @property
    def shape(self):
        return tuple(self._m.shape)

    @property
    def dtype(self):
        return self._m.dtype

    @property
    def nnz(self):
        return self._m.nnz

    @property
    def size(self):
        return self._m.nnz

    @property
    def data(self):
        return self._m.data

    @property
    def ndim(self):
        return 2

    def get(self, stream=None):
        """The same matrix as a SciPy sparse object of this class's name (a host copy)."""
        sps = _scipy_sparse()
        cls = getattr(sps, type(self).__name__)
        from kumo import asnumpy as h
        m = self._m
        if self.format == "coo":
            out = cls((h(m.data), (h(m.row), h(m.col))), shape=self.shape)
            out.has_canonical_format = m.canonical
            return out
        return cls((h(m.data), h(m.indices), h(m.indptr)), shape=self.shape)

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        names = {"coo": "COOrdinate", "csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column"}
        return (f"<{names[self.format]} sparse {kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements and shape {self.shape}>")

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0 and bool(self.toarray()[0, 0])
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all().")

    # ---- methods ----

    def copy(self):
        return type(self)._wrap(_copy_value(self._m))

    def astype(self, dtype, casting="unsafe", copy=True):
        dtype = numpy.dtype(dtype)
        if dtype == self.dtype:
            return self.copy() if copy else self
        if not numpy.can_cast(self.dtype, dtype, casting=casting):
            raise TypeError(f"Cannot cast array data from {self.dtype!r} to {dtype!r} according to the rule "
                            f"'{casting}'")
        return type(self)._wrap(_fresh(_sp.astype(self._m, dtype)))

    def conjugate(self, copy=True):
        if self.dtype.kind == "c":
            return type(self)._wrap(_fresh(_sp.conj(self._m)))
        return self.copy() if copy else self

    conj = conjugate

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        t = self._wrap_as(_sp.transpose(self._m))
        return t.copy() if copy else t

    @property
    def T(self):
        return self.transpose()

    def toarray(self, order=None, out=None):
        """The dense matrix as a 2-d kumo array (C order unless order='F')."""
        a = _sp.toarray(self._m)
        if order in ("F", "f"):
            a = a.copy(order="F")
        if out is not None:
            if out.shape != a.shape:
                raise ValueError(f"out has shape {out.shape}, expected {a.shape}")
            out[...] = a
            return out
        return a

    def todense(self, order=None, out=None):
        """The dense matrix as a 2-d kumo array.

        SciPy returns numpy.matrix for *_matrix classes; kumo has no matrix
        class, so both flavours give a 2-d kumo ndarray here."""
        return self.toarray(order=order, out=out)

    def asformat(self, format, copy=False):
        if format is None or format == self.format:
            return self.copy() if copy else self
        if format not in _FORMATS:
            if format in ("lil", "dok"):
                raise ValueError(f"kumo.sparse has no {format} format yet (coo, csr, csc, dia and bsr are available)")
            raise ValueError(f"Format {format} is unknown.")
        return getattr(self, "to" + format)(copy=copy)

    def tocoo(self, copy=False):
        return self._convert_to("coo", copy)

    def tocsr(self, copy=False):
        return self._convert_to("csr", copy)

    def tocsc(self, copy=False):
        return self._convert_to("csc", copy)

    def todia(self, copy=False):
        return self._convert_to("dia", copy)

    def tobsr(self, blocksize=None, copy=False):
        """BSR with blocks of `blocksize` (default: SciPy's estimate_blocksize)."""
        if self.format == "bsr" and (blocksize is None or tuple(blocksize) == self.blocksize):
            return self.copy() if copy else self
        blocksize = None if blocksize is None else _shape_arg(blocksize)
        return self._sibling("bsr")._wrap(_sp.tobsr(_convert(self._m, "csr"), blocksize))

    def _convert_to(self, fmt, copy):
        if fmt == self.format:
            return self.copy() if copy else self
        return self._sibling(fmt)._wrap(_convert(self._m, fmt))

    def diagonal(self, k=0):
        return _sp.diagonal(self._m, operator.index(k))

    def count_nonzero(self):
        """Number of nonzero values once duplicates are summed (explicit zeros do not count)."""
        from kumo import count_nonzero
        return int(count_nonzero(_sp.sum_duplicates(self._m).data))

    def sum_duplicates(self):
        self._m = _sp.sum_duplicates(self._m)

    def eliminate_zeros(self):
        self._m = _sp.eliminate_zeros(self._m)

    def multiply(self, other):
        """Elementwise product with a scalar, a sparse matrix or a dense array."""
        if _is_scalar(other):
            return self._mul_scalar(other)
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            other = other if isinstance(other, _spbase) else self._sibling(other.format)(other)
            fmt = "csc" if self.format == "csc" else "csr"
            return self._elementwise(other, _sp.multiply, fmt)
        # Dense: the stored entries times the broadcast operand at their places.
        from kumo import broadcast_to
        dense = _asarray(other)
        if dense.ndim > 2:
            raise ValueError(f"inconsistent shapes {self.shape} and {dense.shape}")
        try:
            b = broadcast_to(dense, self.shape)
        except ValueError:
            raise ValueError(f"inconsistent shapes {self.shape} and {dense.shape}") from None
        coo = _sp.tocoo(self._m) if self.format != "coo" else self._m
        coo = _sp.make_coo(coo.data * b[coo.row, coo.col], coo.row, coo.col, coo.shape)
        return self._sibling("coo")._wrap(coo)

    # ---- arithmetic helpers ----

    def _mul_scalar(self, s):
        if _is_python_scalar(s):
            return type(self)._wrap(_fresh(_sp.multiply_scalar(self._m, s)))
        # NumPy scalars and 0-d arrays are strong operands: NumPy's promotion.
        return type(self)._wrap(_with_data(self._m, self._m.data * _asarray(s)))

    def _elementwise(self, other, fn, fmt):
        """fn (C++ add/subtract/multiply on CSR) of self and sparse other, as format fmt."""
        if self.shape != other.shape:
            raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
        if fmt == "csc":
            # CSC(A) is CSR(A^T): (A op B)^T = A^T op B^T, no conversion.
            a = _sp.transpose(_convert(self._m, "csc"))
            b = _sp.transpose(_convert(other._m, "csc"))
            return self._sibling("csc")._wrap(_sp.transpose(fn(a, b)))
        return self._sibling("csr")._wrap(fn(_convert(self._m, "csr"), _convert(other._m, "csr")))

    def _add(self, other, sign):
        fmt = "csc" if self.format == "csc" else "csr"
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            other = other if isinstance(other, _spbase) else self._sibling(other.format)(other)
            return self._elementwise(other, _sp.add if sign > 0 else _sp.subtract, fmt)
        if _is_scalar(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("adding a nonzero scalar to a sparse array is not supported")
        dense = _asarray(other)
        return self.toarray() + dense if sign > 0 else self.toarray() - dense

    def _product(self, other):
        """self @ other for a dense or sparse operand."""
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            return self._sparse_product(other)
        x = _asarray(other)
        if x.ndim == 0:
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if x.ndim > 2:
            raise ValueError(f"kumo.sparse: matmul operand must be 1-d or 2-d, got {x.ndim}-d")
        return _sp.matmul(self._m, x)

    def _sparse_product(self, other):
        """self @ other for a sparse operand (SpGEMM, C++): CSC stays CSC, COO and CSR give CSR, as SciPy."""
        if not isinstance(other, _spbase):
            other = self._sibling(other.format)(other)
        if self.shape[1] != other.shape[0]:
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={self.shape[1]}),"
                             f"(k={other.shape[0]},m)->(n,m)")
        fmt = "csc" if self.format == "csc" else "csr"
        return self._sibling(fmt)._wrap(_sp.matmul(_convert(self._m, fmt), _convert(other._m, fmt)))

    def dot(self, other):
        """The matrix product with a sparse or dense operand; a scalar multiplies (SciPy's dot)."""
        if _is_scalar(other):
            return self._mul_scalar(other)
        return self @ other

    def _rproduct(self, other):
        """other @ self for a dense operand."""
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            return NotImplemented
        x = _asarray(other)
        if x.ndim == 0:
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        m = self._m if self.format in ("csr", "csc") else _sp.tocsr(self._m)
        return _sp.rmatmul(x, m)

    # ---- operators ----

    def __matmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._product(other)

    def __rmatmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._rproduct(other)

    def __add__(self, other):
        return self._add(other, 1)

    __radd__ = __add__

    def __sub__(self, other):
        return self._add(other, -1)

    def __rsub__(self, other):
        return (-self)._add(other, 1)

    def __neg__(self):
        if self.dtype == numpy.bool_:
            raise NotImplementedError("negating a boolean sparse array is not supported")
        from kumo import negative
        return type(self)._wrap(_with_data(self._m, negative(self._m.data)))

    def __pos__(self):
        return self.copy()

    def __truediv__(self, other):
        if not _is_scalar(other):
            return NotImplemented
        # SciPy's rule: true division by a scalar gives float64 for every
        # dtype float64 holds, complex results keep their own.
        if numpy.can_cast(self.dtype, numpy.float64):
            return self.astype(numpy.float64)._mul_scalar(1.0 / other)
        r = self._mul_scalar(1.0 / other)
        return r

    def __mul__(self, other):
        if _is_scalar(other):
            return self._mul_scalar(other)
        if self._is_array:
            return self.multiply(other)
        return self._product(other)

    def __rmul__(self, other):
        if _is_scalar(other):
            return self._mul_scalar(other)
        if self._is_array:
            return self.multiply(other)
        return self._rproduct(other)


class sparray:
    """Mixin of the *_array classes: ``*`` is the elementwise product."""

    _is_array = True


class spmatrix:
    """Mixin of the *_matrix classes: ``*`` is the matrix product."""

    _is_array = False

    def getnnz(self, axis=None):
        """Stored entries (explicit zeros and duplicates included), in all or per column (0) / row (1)."""
        if axis is None:
            return self.nnz
        axis = operator.index(axis)
        if axis < 0:
            axis += 2
        if axis not in (0, 1):
            raise ValueError("axis out of bounds")
        return self._nnz_per(self._m, axis)

def _from_scipy(s):
    """The C++ value of a SciPy coo/csr/csc object (arrays copied to kumo)."""
    a = _creation.asarray
    if s.format == "coo":
        m = _sp.make_coo(a(s.data), a(s.row), a(s.col), s.shape)
        m.canonical = bool(s.has_canonical_format)
        return m
    if s.format == "dia":
        return _sp.make_dia(a(s.data), a(s.offsets), s.shape)
    if s.format == "bsr":
        return _sp.make_bsr(a(s.data), a(s.indices), a(s.indptr), s.shape)
    make = _sp.make_csr if s.format == "csr" else _sp.make_csc
    return make(a(s.data), a(s.indices), a(s.indptr), s.shape)


_CLASSES = {}
