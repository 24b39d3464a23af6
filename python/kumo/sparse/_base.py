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
from kumo import _manipulation
from kumo._creation import ascontiguousarray
from kumo._interop import asnumpy
from kumo._manipulation import broadcast_to
from kumo._reductions import count_nonzero
from kumo._ufuncs import negative

_sp = _core.sparse
_ndarray = _core.ndarray
_FORMATS = ("coo", "csr", "csc", "dia", "bsr")
_ONE_D_FORMATS = ("coo", "csr")
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


def _shape_arg(shape, allow_1d=False):
    """shape as a tuple of 2 (or, for the 1-d *_array formats, 1) non-negative ints."""
    if shape is None:
        return None
    try:
        dims = tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError(f"kumo.sparse: shape must be a tuple of integers, got {shape!r}") from None
    if len(dims) != 2 and not (allow_1d and len(dims) == 1):
        if len(dims) > 2:
            raise ValueError(f"kumo.sparse supports 1-d and 2-d shapes only, got {dims}")
        raise ValueError(f"shape must have length in (2,). Got new_shape={dims}")
    if any(d < 0 for d in dims):
        raise ValueError("'shape' elements cannot be negative")
    return dims


def _row_shape(shape):
    """The (1, n) shape of the C++ value behind a 1-d shape (n,); a 2-d shape as it is."""
    return (1, shape[0]) if len(shape) == 1 else tuple(shape)


def _scipy_sparse():
    import scipy.sparse
    return scipy.sparse


def _is_scipy_sparse(obj):
    mod = type(obj).__module__
    return mod.startswith("scipy.sparse") and _scipy_sparse().issparse(obj)


def _is_1d_input(arg1, shape):
    """Whether a constructor's input describes a 1-d array."""
    if shape is not None and len(shape) == 1:
        return True
    if isinstance(arg1, tuple):
        return len(arg1) == 1
    if isinstance(arg1, list):
        return numpy.ndim(arg1) == 1
    return getattr(arg1, "ndim", None) == 1


def _index_arrays(coords):
    """The index arrays of a (data, coords) input: a tuple/list of them or a 2-d array, one row per axis."""
    if isinstance(coords, (tuple, list)):
        return tuple(coords)
    if isinstance(coords, (_ndarray, numpy.ndarray)) and coords.ndim == 2:
        return tuple(coords[i] for i in range(coords.shape[0]))
    return None


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
    # A 1-d *_array (coo or csr only, as SciPy) holds its (1, n) row as the
    # C++ value: every 2-d kernel then serves it unchanged, and only shapes
    # and result types differ here.
    _vec = False
    __array_priority__ = 10.1
    __array_ufunc__ = None  # NumPy defers its operators to ours.

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        shape = _shape_arg(shape, allow_1d=self._is_array)
        if self._is_array and self.format not in _ONE_D_FORMATS and _is_1d_input(arg1, shape):
            raise ValueError(f"{self.format.upper()} arrays don't support 1D input. Use 2D")
        m, shared = self._value_from(arg1, shape)
        have = (m.shape[1],) if self._vec else tuple(m.shape)
        if shape is not None and have != shape:
            raise ValueError(f"shape of the input {have} does not match shape={shape}")
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
            if arg1.ndim == 1:
                if not self._is_array:
                    raise ValueError(f"{type(self).__name__} is 2-d; a 1-d sparse input needs an *_array class")
                self._vec = True
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
        if dense.ndim == 1:
            # *_array: a 1-d array (its row as the value); *_matrix: a row.
            self._vec = self._is_array
            dense = dense.reshape(1, -1)
        elif dense.ndim == 0 and not self._is_array:
            dense = dense.reshape(1, 1)
        if dense.ndim != 2:
            raise ValueError(f"kumo.sparse supports 1-d and 2-d arrays only, got a {dense.ndim}-d input")
        return _convert(_sp.coo_from_dense(dense), fmt), False

    def _value_from_tuple(self, arg1, shape):
        fmt = self.format
        if len(arg1) in (1, 2) and all(isinstance(x, numbers.Integral) for x in arg1):
            dims = _shape_arg(arg1, allow_1d=self._is_array)
            self._vec = len(dims) == 1
            return _convert(_sp.coo_empty(_row_shape(dims), numpy.float64), fmt), False
        coords = _index_arrays(arg1[1]) if len(arg1) == 2 else None
        if coords is not None and len(coords) in (1, 2):
            return self._value_from_coords(arg1[0], coords, shape)
        if len(arg1) == 3 and fmt != "coo":
            data, indices, indptr = (_asarray(x) for x in arg1)
            make = _sp.make_csr if fmt == "csr" else _sp.make_csc
            self._vec = shape is not None and len(shape) == 1
            return make(data, indices, indptr, None if shape is None else _row_shape(shape)), True
        if fmt == "coo":
            raise TypeError("invalid input format")
        raise ValueError(f"unrecognized {type(self).__name__} constructor input")

    def _value_from_coords(self, data, coords, shape):
        """(data, (row, col)) or, for a 1-d array, (data, (idx,)): COO entries in this format."""
        if shape is not None and len(coords) != len(shape):
            raise ValueError(f"mismatching number of index arrays for shape; got {len(coords)}, "
                             f"expected {len(shape)}")
        if len(coords) == 1:
            if not self._is_array:
                raise ValueError("shape must have length in (2,). Got a 1-d index")
            if self.format not in _ONE_D_FORMATS:
                raise ValueError(f"{self.format.upper()} arrays don't support 1D input. Use 2D")
            col = _asarray(coords[0])
            if shape is None and col.size == 0:
                raise ValueError("cannot infer dimensions from zero sized index arrays")
            self._vec = True
            row = _creation.zeros(col.shape, dtype=col.dtype)
            coo = _sp.make_coo(_asarray(data), row, col, None if shape is None else _row_shape(shape))
        else:
            coo = _sp.make_coo(_asarray(data), _asarray(coords[0]), _asarray(coords[1]), shape)
        # SciPy's csr/csc constructors sum the duplicates of COO input.
        return _convert(coo, self.format), self.format == "coo"

    @classmethod
    def _wrap(cls, m, vec=False):
        obj = object.__new__(cls)
        obj._m = m
        if vec:
            obj._vec = True
        return obj

    def _like(self, m):
        """C++ value m as this object's class and dimensionality."""
        return type(self)._wrap(m, self._vec)

    def _make(self, fmt, m):
        """C++ value m (format fmt) as this flavour's class of fmt, of this object's dimensionality."""
        return self._sibling(fmt)._wrap(m, self._vec)

    def _sibling(self, fmt):
        """This flavour's (array or matrix) class of format fmt."""
        return _CLASSES[(fmt, self._is_array)]

    def _wrap_as(self, m):
        fmt = _FORMAT_OF[type(m)]
        return self._sibling(fmt)._wrap(m)

    # ---- attributes ----

    @property
    def shape(self):
        s = self._m.shape
        return (s[1],) if self._vec else tuple(s)

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
        return 1 if self._vec else 2

    def get(self, stream=None):
        """The same matrix as a SciPy sparse object of this class's name (a host copy)."""
        sps = _scipy_sparse()
        cls = getattr(sps, type(self).__name__)
        m = self._m
        if self.format == "coo":
            coords = (asnumpy(m.col),) if self._vec else (asnumpy(m.row), asnumpy(m.col))
            out = cls((asnumpy(m.data), coords), shape=self.shape)
            out.has_canonical_format = m.canonical
            return out
        return cls((asnumpy(m.data), asnumpy(m.indices), asnumpy(m.indptr)), shape=self.shape)

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
        return self._like(_copy_value(self._m))

    def astype(self, dtype, casting="unsafe", copy=True):
        dtype = numpy.dtype(dtype)
        if dtype == self.dtype:
            return self.copy() if copy else self
        if not numpy.can_cast(self.dtype, dtype, casting=casting):
            raise TypeError(f"Cannot cast array data from {self.dtype!r} to {dtype!r} according to the rule "
                            f"'{casting}'")
        if self.dtype.kind == "c" and dtype.kind not in "cb":
            # NumPy's astype of the stored values warns here, and so SciPy's.
            import warnings
            warnings.warn("Casting complex values to real discards the imaginary part",
                          numpy.exceptions.ComplexWarning, stacklevel=2)
        return self._like(_fresh(_sp.astype(self._m, dtype)))

    def conjugate(self, copy=True):
        if self.dtype.kind == "c":
            return self._like(_fresh(_sp.conj(self._m)))
        return self.copy() if copy else self

    conj = conjugate

    def transpose(self, axes=None, copy=False):
        if self._vec:
            # The transpose of a 1-d array is itself, as NumPy's (SciPy's CSR takes no axes at all).
            if axes is not None and (self.format != "coo" or tuple(axes) not in ((0,), (-1,))):
                raise ValueError("axes don't match array")
            return self.copy() if copy else self
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        t = self._wrap_as(_sp.transpose(self._m))
        return t.copy() if copy else t

    @property
    def T(self):
        return self.transpose()

    def toarray(self, order=None, out=None):
        """The dense array as a kumo array (2-d: C order unless order='F')."""
        a = _sp.toarray(self._m)
        if self._vec:
            a = a.reshape(-1)
        elif order in ("F", "f"):
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
        self._check_2d("bsr")
        blocksize = None if blocksize is None else _shape_arg(blocksize)
        return self._sibling("bsr")._wrap(_sp.tobsr(_convert(self._m, "csr"), blocksize))

    def _convert_to(self, fmt, copy):
        if fmt == self.format:
            return self.copy() if copy else self
        self._check_2d(fmt)
        return self._make(fmt, _convert(self._m, fmt))

    def _check_2d(self, fmt):
        """SciPy's 1-d arrays exist in the coo and csr formats only."""
        if self._vec and fmt not in _ONE_D_FORMATS:
            raise ValueError(f"Cannot convert a 1d sparse array to {fmt} format")

    def diagonal(self, k=0):
        if self._vec:
            raise ValueError("diagonal requires two dimensions")
        return _sp.diagonal(self._m, operator.index(k))

    def count_nonzero(self):
        """Number of nonzero values once duplicates are summed (explicit zeros do not count)."""
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
            if self.shape != other.shape and (self.ndim == 2 or other.ndim == 2):
                return self._broadcast_multiply(other)
            if self.shape != other.shape and (1,) in (self.shape, other.shape):
                # 1-d with a one-element 1-d operand: a scalar product, CSR when the scalar is on the right
                # and the other operand's format when on the left, as SciPy.
                if other.shape == (1,):
                    return self._make("csr", _convert(self._m, "csr"))._mul_scalar(other.toarray().reshape(()))
                return other._mul_scalar(self.toarray().reshape(()))
            fmt = "csc" if self.format == "csc" else "csr"
            return self._elementwise(other, _sp.multiply, fmt)
        # Dense: the stored entries times the broadcast operand at their places.
        dense = _asarray(other)
        if self._vec and dense.ndim == 2:
            return self._multiply_rows(dense)
        if dense.ndim > self.ndim:
            raise ValueError(f"inconsistent shapes {self.shape} and {dense.shape}")
        if dense.size == 1:
            # SciPy: a one-element array multiplies as a (strong) scalar, in the compressed format.
            fmt = "csc" if self.format == "csc" else "csr"
            return self._make(fmt, _convert(self._m, fmt))._mul_scalar(dense.reshape(()))
        try:
            b = broadcast_to(dense, self.shape)
        except ValueError:
            raise ValueError(f"inconsistent shapes {self.shape} and {dense.shape}") from None
        if self._vec:
            b = b.reshape(1, -1)
        coo = _sp.tocoo(self._m) if self.format != "coo" else self._m
        coo = _sp.make_coo(coo.data * b[coo.row, coo.col], coo.row, coo.col, coo.shape)
        return self._make("coo", coo)

    def _broadcast_multiply(self, other):
        """The elementwise product with a sparse operand whose shape broadcasts against this one (a 1-d
        array counts as its (1, n) row), as SciPy: a (1, 1) operand scales, a row (1, n) scales columns
        (A @ diag(row)), a column (m, 1) scales rows (diag(col) @ A), and a column times a row is their
        outer product (col @ row); all through SpGEMM, so products that are zero are not stored. The
        format is that of SciPy's products: a CSC or BSR left operand scaled by a (1, 1) or a row stays
        CSC, or BSR (of its blocksize, or (R, 1) for a row); everything else is CSR."""
        def rows_cols(x):
            return (1, x.shape[0]) if x.ndim == 1 else x.shape

        def as_csr_2d(x):
            m = _convert(x._m, "csr")  # a 1-d array is held as its (1, n) row
            return _CLASSES[("csr", True)]._wrap(m)

        a_shape, b_shape = rows_cols(self), rows_cols(other)
        try:
            shape = numpy.broadcast_shapes(a_shape, b_shape)
        except ValueError:
            raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}") from None
        a, b = as_csr_2d(self), as_csr_2d(other)
        if a_shape == (1, 1) or b_shape == (1, 1):
            one, full = (a, b) if a_shape == (1, 1) else (b, a)
            result, case = full._mul_scalar(one.toarray().reshape(())), "scalar"
        elif a_shape == shape or b_shape == shape:
            full, vec = (a, b) if a_shape == shape else (b, a)
            vec_shape = b_shape if a_shape == shape else a_shape
            d = _ROUTINES["diags_array"](vec.toarray().reshape(-1))
            case = "row" if vec_shape[0] == 1 else "column"
            result = full @ d if case == "row" else d @ full
            result = result.tocsr()
        else:
            col, row = (a, b) if a_shape[1] == 1 else (b, a)
            result, case = (col @ row).tocsr(), "outer"
        m = _convert(result._m, "csr")
        if self.format == "csc" and case in ("scalar", "row"):
            return self._sibling("csc")._wrap(_convert(m, "csc"))
        out = self._sibling("csr")._wrap(m)
        if self.format == "bsr" and case in ("scalar", "row"):
            return out.tobsr(blocksize=self.blocksize if case == "scalar" else (self.blocksize[0], 1))
        return out

    def _multiply_rows(self, dense):
        """A 1-d array times a 2-d dense (k, n) or (k, 1): the array broadcast to k rows, each times its row
        of dense (a 2-d COO array, as NumPy's broadcasting and SciPy)."""
        n = self.shape[0]
        k = dense.shape[0]
        try:
            b = _manipulation.broadcast_to(dense, (k, n))
        except ValueError:
            raise ValueError(f"inconsistent shapes {self.shape} and {dense.shape}") from None
        coo = _sp.tocoo(self._m) if self.format != "coo" else self._m
        nnz = coo.nnz
        index = coo.col.dtype
        row = _manipulation.repeat(_creation.arange(k, dtype=index), nnz)
        col = _manipulation.tile(coo.col, k)
        data = _manipulation.tile(coo.data, k) * b[row, col]
        return _CLASSES[("coo", True)]._wrap(_sp.make_coo(data, row, col, (k, n)))

    # ---- arithmetic helpers ----

    def _mul_scalar(self, s):
        if _is_python_scalar(s):
            return self._like(_fresh(_sp.multiply_scalar(self._m, s)))
        # NumPy scalars and 0-d arrays are strong operands: NumPy's promotion.
        return self._like(_with_data(self._m, self._m.data * _asarray(s)))

    def _elementwise(self, other, fn, fmt):
        """fn (C++ add/subtract/multiply on CSR) of self and sparse other, as format fmt."""
        if self.shape != other.shape:
            raise ValueError(f"inconsistent shapes {self.shape} and {other.shape}")
        if fmt == "csc":
            # CSC(A) is CSR(A^T): (A op B)^T = A^T op B^T, no conversion.
            a = _sp.transpose(_convert(self._m, "csc"))
            b = _sp.transpose(_convert(other._m, "csc"))
            return self._sibling("csc")._wrap(_sp.transpose(fn(a, b)))
        return self._make("csr", fn(_convert(self._m, "csr"), _convert(other._m, "csr")))

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
        if dense.ndim > self.ndim:
            raise ValueError(f"inconsistent shapes {self.shape} and {dense.shape}")
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
        if self._vec:
            return self._vec_product(x, x.shape[0])
        return _sp.matmul(self._m, x)

    def _vec_product(self, x, k):
        """A 1-d array's product with dense x of k rows (x @ v for a 1-d x is the same sum): a NumPy
        scalar for a 1-d x, else a 1-d array of x's columns."""
        n = self.shape[0]
        if k != n:
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={n}),(k={k},1?)->(n,1?)")
        r = _sp.matmul(self._m, x)  # (1,) or (1, m): the row times x
        if x.ndim == 1:
            return asnumpy(r)[0]
        return r.reshape(-1)

    def _sparse_product(self, other):
        """self @ other for a sparse operand (SpGEMM, C++): CSC stays CSC, COO and CSR give CSR, DIA @ DIA
        gives DIA, and BSR (R, n) @ anything gives BSR (R, C) with C the other's block width (1 unless BSR),
        as SciPy."""
        if not isinstance(other, _spbase):
            other = _CLASSES[(other.format, other.ndim == 1 or self._is_array)](other)
        if self._vec or other._vec:
            return self._vec_sparse_product(other)
        if self.shape[1] != other.shape[0]:
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={self.shape[1]}),"
                             f"(k={other.shape[0]},m)->(n,m)")
        fmt = "csc" if self.format == "csc" else "csr"
        product = self._sibling(fmt)._wrap(_sp.matmul(_convert(self._m, fmt), _convert(other._m, fmt)))
        if self.format == "dia" and other.format == "dia":
            return product.todia()
        if self.format == "bsr":
            return product.tobsr(blocksize=(self.blocksize[0], other.blocksize[1] if other.format == "bsr" else 1))
        return product

    def _vec_sparse_product(self, other):
        """self @ other where a side is 1-d (SpGEMM, C++): the 1-d left side is its row, the 1-d right side
        its column; a 0-d dense result for two 1-d arrays, else a 1-d COO array, as SciPy."""
        k_left, k_right = self.shape[-1], other.shape[0]
        if not self._is_array:
            raise ValueError(f"shape must have length in (2,). Got new_shape={(self.shape[0],)}")
        if k_left != k_right:
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={k_left}),(k={k_right},m)->(n,m)")
        b = _convert(other._m, "csr")
        if other._vec:
            b = _sp.tocsr(_sp.transpose(b))
        p = _sp.matmul(_convert(self._m, "csr"), b)
        if self._vec and other._vec:
            return _sp.toarray(p).reshape(())
        if not self._vec:
            p = _sp.transpose(p)  # the (m, 1) column as its (1, m) row
        return _CLASSES[("coo", True)]._wrap(_fresh(_sp.tocoo(p)), True)

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
        if self._vec:
            # x @ v is v @ x^T: the row times x's rows.
            return self._vec_product(x if x.ndim == 1 else ascontiguousarray(x.T), x.shape[-1])
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
        """other - self for a scalar (zero only, as SciPy) or a dense operand: the dense difference in
        NumPy's promotion of the two dtypes (negating self first wraps unsigned values)."""
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            return NotImplemented
        if _is_scalar(other):
            if other == 0:
                return -self
            raise NotImplementedError("subtracting a sparse array from a nonzero scalar is not supported")
        dense = _asarray(other)
        if dense.ndim > self.ndim:
            raise ValueError(f"inconsistent shapes {dense.shape} and {self.shape}")
        return dense - self.toarray()

    def __neg__(self):
        if self.dtype == numpy.bool_:
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._like(_with_data(self._m, negative(self._m.data)))

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
    """Mixin of the *_array classes: ``*`` is the elementwise product, ``**`` the elementwise power."""

    _is_array = True

    def __pow__(self, n):
        return self.power(n)


class spmatrix:
    """Mixin of the *_matrix classes: ``*`` is the matrix product, ``**`` the matrix power."""

    _is_array = False

    def __pow__(self, n):
        return _ROUTINES["matrix_power"](self, n)

    def getH(self):
        """The conjugate transpose (SciPy's *_matrix getH)."""
        return self.transpose().conjugate()

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
    """The C++ value of a SciPy coo/csr/csc object (arrays copied to kumo); a 1-d one as its row."""
    a = _creation.asarray
    if s.ndim == 1:
        if s.format == "coo":
            col = a(s.coords[0])
            m = _sp.make_coo(a(s.data), _creation.zeros(col.shape, dtype=col.dtype), col, (1, s.shape[0]))
            m.canonical = bool(s.has_canonical_format)
            return m
        return _sp.make_csr(a(s.data), a(s.indices), a(s.indptr), (1, s.shape[0]))
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


# The classes of each format, (format, is_array) -> class, filled in by the
# modules that define them (_formats, _dia, _bsr).
_CLASSES = {}
# The routines of the modules above this one that methods here need, filled
# in by those modules as they are imported, as the classes fill _CLASSES:
# "diags_array" (_construct) and "matrix_power" (kumo.sparse.linalg._matfuncs).
# kumo.sparse imports both before it returns.
_ROUTINES = {}
