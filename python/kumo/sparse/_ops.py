"""Methods of kumo.sparse matrices beyond construction and arithmetic:
reductions (sum, mean, max/min and their nan and arg forms, count_nonzero,
getnnz), the elementwise functions that keep zeros zero, power,
maximum/minimum, setdiag, trace, nonzero, reshape and resize, with
scipy.sparse 1.17's result types.

Dense results are kumo arrays (SciPy's numpy.matrix results of the *_matrix
classes are 2-d kumo arrays, as todense), scalars are NumPy scalars as in
SciPy. The kernels are C++: the reductions with implicit zeros
(kumo::sparse::reduce), sums as products with a vector of ones, maximum and
minimum of two matrices (kumo::sparse::maximum/minimum), entry assignment
(kumo::sparse::set_entries); the elementwise functions are kumo's ufuncs on
the stored values."""
import operator
import warnings

import numpy

from kumo import _creation
from kumo import _indexing
from kumo import _interop
from kumo import _reductions
from kumo import _rounding
from kumo import _statistics
from kumo import _ufuncs as uf
from kumo.sparse._base import _asarray, _convert, _fresh, _is_scalar, _is_scipy_sparse, _sp, _spbase, _with_data
from kumo.sparse._index import SparseEfficiencyWarning

# The functions f with f(0) == 0, applied to the stored values only (SciPy's list).
_SPARSITY_KEEPING = ("arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad", "expm1", "floor", "log1p",
                     "rad2deg", "rint", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")


def _scalar(a):
    """A 0-d kumo array as a NumPy scalar (SciPy's scalar results)."""
    return _interop.asnumpy(a)[()]


def _axis(axis):
    """None, 0 or 1 (SciPy's validateaxis for 2-d matrices)."""
    if axis is None:
        return None
    if isinstance(axis, tuple):
        axes = sorted({operator.index(a) % 2 if -2 <= operator.index(a) < 2 else 99 for a in axis})
        if 99 in axes or len(axes) != len(axis):
            raise ValueError("axis out of range for ndim")
        return None if len(axes) == 2 else axes[0]
    if not isinstance(axis, (int, numpy.integer)) or isinstance(axis, bool):
        raise TypeError(f"axis must be an integer/tuple of ints, not {type(axis)}")
    axis = int(axis)
    if axis < -2 or axis > 1:
        raise ValueError("axis out of range for ndim")
    return axis % 2


def _axis_1d(axis):
    """None for every axis of a 1-d array (0, -1, or a tuple of one of them): its reductions are scalars."""
    if axis is None:
        return None
    axes = axis if isinstance(axis, tuple) else (axis,)
    for a in axes:
        if not isinstance(a, (int, numpy.integer)) or isinstance(a, bool):
            raise TypeError(f"axis must be an integer/tuple of ints, not {type(a)}")
    if len(axes) != 1 or int(axes[0]) not in (0, -1):
        raise ValueError("axis out of range for ndim")
    return None


def _sum_dtype(dtype):
    """SciPy's accumulator for sums: NumPy's default integers for bool and the integers."""
    if dtype.kind == "u":
        return numpy.dtype(numpy.uint64)
    if dtype.kind in "bi":
        return numpy.dtype(numpy.int64)
    return dtype


def _into(result, out):
    if out is None:
        return result
    if tuple(out.shape) != tuple(getattr(result, "shape", ())):
        raise ValueError(f"output parameter has shape {tuple(out.shape)}, expected {tuple(result.shape)}")
    out[...] = result
    return out


def _unary(name):
    def method(self):
        m = self._summed()
        return self._like(_with_data(m, getattr(uf, name)(m.data)))

    method.__name__ = name
    method.__doc__ = f"Elementwise {name} of the stored values (duplicates summed first), as numpy.{name}."
    return method


class _MethodsMixin:
    """The methods above, for every format."""

    for _name in _SPARSITY_KEEPING:
        locals()[_name] = _unary(_name)
    del _name

    def _summed(self):
        """The C++ value with its duplicates summed (BSR overrides: its blocks are summed through CSR)."""
        return _sp.sum_duplicates(self._m)

    def _entries(self):
        """The C++ value whose stored values are the matrix's entries (DIA overrides: its data holds places
        outside the matrix too)."""
        return self._m

    def _reducible(self):
        """The C++ value the reductions take: COO, CSR or CSC (BSR through CSR)."""
        return self._m if isinstance(self._m, (_sp.Coo, _sp.Csr, _sp.Csc)) else _convert(self._m, "csr")

    def __abs__(self):
        m = self._summed()
        return self._like(_with_data(m, uf.absolute(m.data)))

    def __round__(self, ndigits=0):
        m = self._summed()
        return self._like(_with_data(m, _rounding.around(m.data, decimals=ndigits)))

    def power(self, n, dtype=None):
        """Elementwise power of the stored values; n is a nonzero scalar (SciPy's restriction)."""
        if not _is_scalar(n):
            raise NotImplementedError("input is not scalar")
        if not n:
            raise NotImplementedError("zero power is not supported as it would densify the matrix.\n"
                                      "Use `np.ones(A.shape, dtype=A.dtype)` for this case.")
        m = self._summed()
        data = m.data if dtype is None else m.data.astype(numpy.dtype(dtype))
        return self._like(_with_data(m, data ** n))

    # ---- reductions ----

    def _axis(self, axis):
        return _axis_1d(axis) if self._vec else _axis(axis)

    def _as_compressed(self):
        return _sp.tocsr(self._m) if self.format == "coo" else self._m

    def _shape_axis_result(self, vec, axis):
        """A dense per-row/column result: 1-d for *_array, (1, n) or (m, 1) for *_matrix."""
        if self._is_array:
            return vec
        return vec.reshape((1, -1) if axis == 0 else (-1, 1))

    def sum(self, axis=None, dtype=None, out=None):
        """Sum of all entries, or per column (axis 0) / row (1); integers sum in int64/uint64."""
        axis = self._axis(axis)
        acc = _sum_dtype(self.dtype)
        # bool duplicates add as NumPy's bools (logical or) before the integer sum, as SciPy's.
        base = self._entries()
        if self.dtype == numpy.bool_:
            base = _sp.sum_duplicates(base if self.format in ("coo", "csr", "csc") else _convert(base, "csr"))
        if axis is None:
            total = _reductions.sum(base.data, dtype=acc)
            if dtype is not None:
                total = total.astype(numpy.dtype(dtype))
            return _into(total, out) if out is not None else _scalar(total)
        # The products below take CSR or CSC (COO and BSR go through CSR).
        m = base if isinstance(base, (_sp.Csr, _sp.Csc)) else _convert(base, "csr")
        if m.dtype != acc:
            m = _sp.astype(m, acc)
        if axis == 0:
            vec = _sp.rmatmul(_creation.ones(self.shape[0], dtype=acc), m)
        else:
            vec = _sp.matmul(m, _creation.ones(self.shape[1], dtype=acc))
        if dtype is not None:
            vec = vec.astype(numpy.dtype(dtype))
        return _into(self._shape_axis_result(vec, axis), out)

    def mean(self, axis=None, dtype=None, out=None):
        """Mean over all entries or along an axis, implicit zeros included (float64 for integers and bool)."""
        axis = self._axis(axis)
        integral = self.dtype.kind in "biu"
        res = numpy.dtype(numpy.float64) if dtype is None and integral else numpy.dtype(dtype or self.dtype)
        inter = numpy.dtype(numpy.float64) if integral else res
        count = self._m.shape[0] * self._m.shape[1] if axis is None else self.shape[axis]
        s = self.astype(inter).sum(axis=axis, dtype=inter)
        if axis is None:
            total = _creation.asarray(s) / count if count else _creation.asarray(numpy.nan, dtype=inter)
            total = total.astype(res)
            return _into(total, out) if out is not None else _scalar(total)
        return _into((s / count if count else s).astype(res), out)

    def _extreme(self, op, axis, out, explicit):
        what = "argmax" if op == "argmax" else "argmin" if op == "argmin" else "min/max"
        if out is not None:
            raise ValueError(f"Sparse {what} does not support an 'out' parameter.")
        axis = self._axis(axis)
        if axis is None and 0 in self.shape:
            raise ValueError("Cannot apply the operation to an empty matrix." if op.startswith("arg")
                             else "zero-size array to reduction operation which has no identity")
        if axis is not None and self.shape[axis] == 0:
            raise ValueError("Cannot apply the operation along a zero-sized dimension." if op.startswith("arg")
                             else "zero-size array to reduction operation which has no identity")
        r = _sp.reduce(self._reducible(), op, axis, bool(explicit))
        if axis is None:
            return int(_scalar(r)) if op.startswith("arg") else _scalar(r)
        if op.startswith("arg"):
            return self._shape_axis_result(r, axis)
        if self._is_array:
            # SciPy: a 1-d COO array of the nonzero results.
            return self._sibling("coo")._wrap(_fresh(_sp.coo_from_dense(r.reshape(1, -1))), True)
        # SciPy: a COO matrix of shape (1, n) or (m, 1).
        dense = r.reshape((1, -1) if axis == 0 else (-1, 1))
        return self._sibling("coo")(dense)

    def max(self, axis=None, out=None, *, explicit=False):
        """Largest entry, implicit zeros included unless explicit (NaN propagates)."""
        return self._extreme("max", axis, out, explicit)

    def min(self, axis=None, out=None, *, explicit=False):
        return self._extreme("min", axis, out, explicit)

    def nanmax(self, axis=None, out=None, *, explicit=False):
        """max ignoring NaN."""
        return self._extreme("nanmax", axis, out, explicit)

    def nanmin(self, axis=None, out=None, *, explicit=False):
        return self._extreme("nanmin", axis, out, explicit)

    def argmax(self, axis=None, out=None, *, explicit=False):
        """Position of the first largest entry (C-order flat index for axis None)."""
        return self._extreme("argmax", axis, out, explicit)

    def argmin(self, axis=None, out=None, *, explicit=False):
        return self._extreme("argmin", axis, out, explicit)

    def _nnz_per(self, m, axis):
        """Stored entries of C++ matrix m per column (axis 0) or row (1)."""
        if isinstance(m, _sp.Coo):
            return _statistics.bincount(m.col if axis == 0 else m.row, minlength=self.shape[axis ^ 1])
        if (axis == 1) == isinstance(m, _sp.Csr):
            return _reductions.diff(m.indptr)
        return _statistics.bincount(m.indices, minlength=self.shape[axis ^ 1])

    def count_nonzero(self, axis=None):
        """Nonzero values once duplicates are summed (explicit zeros do not count), in all or per axis."""
        axis = self._axis(axis)
        m = _sp.eliminate_zeros(_sp.sum_duplicates(self._m))
        if axis is None:
            return numpy.int64(m.nnz)
        return self._nnz_per(m, axis)

    # ---- structure ----

    def trace(self, offset=0):
        """Sum of diagonal `offset`."""
        d = self.diagonal(k=offset)
        return _scalar(_reductions.sum(d, dtype=_sum_dtype(self.dtype)))

    def nonzero(self):
        """(row, col) of the stored entries whose values are nonzero, in storage order (duplicates as stored)."""
        coo = self._m if self.format == "coo" else _sp.tocoo(self._m)
        keep = coo.data != 0
        if self._vec:
            return (_indexing.extract(keep, coo.col),)
        return _indexing.extract(keep, coo.row), _indexing.extract(keep, coo.col)

    def setdiag(self, values, k=0):
        """Sets diagonal k to values (a scalar, or one value per place from the start; extra values are
        ignored), as SciPy's: the values are cast as NumPy casts them (unsafe, ComplexWarning for complex to
        real); where new entries are stored (COO: always, for an array of values), a CSR/CSC/COO matrix
        takes the promoted dtype of its data and the values, as SciPy's concatenation does. DIA keeps its
        dtype; an empty CSR/CSC/BSR matrix is left as it is."""
        if self._vec:
            raise ValueError("setdiag requires two dimensions")
        rows, cols = self.shape
        if (k > 0 and k >= cols) or (k < 0 and -k >= rows):
            raise ValueError("k exceeds array dimensions")
        k = operator.index(k)
        if hasattr(values, "__dlpack__") and not isinstance(values, (numpy.ndarray, numpy.generic)):
            values = _interop.asnumpy(values)
        values = numpy.asarray(values)
        broadcast = values.ndim == 0
        length = max(min(rows + k, cols) if k < 0 else min(rows, cols - k), 0)
        given = None if broadcast else len(values)
        if not broadcast:
            length = min(length, len(values))
            values = values[:length]
        fmt = self.format
        sum_first = False
        if fmt in ("csr", "csc", "bsr"):
            if 0 in self.shape:
                return
            x = numpy.asarray(values, dtype=self.dtype)  # NumPy's cast and warnings, as SciPy's
            if x.size == 0 or length == 0:
                return
            target = self.dtype
            if not broadcast and values.dtype != self.dtype:
                # SciPy keeps the dtype when every place is stored already (or very few are new); else its
                # COO route concatenates the data with the values. It sums the duplicates first (in the old
                # dtype) only when a place on the diagonal has some.
                def stored_on(m):
                    coo = _sp.tocoo(m)
                    on = (coo.col - coo.row == k) & ((coo.row if k >= 0 else coo.col) < length)
                    return int(_reductions.count_nonzero(on))
                as_csr = _convert(self._m, "csr")
                m = _sp.sum_duplicates(as_csr)
                stored = stored_on(m)
                new = length - stored
                if new and not new < (m.nnz if stored != stored_on(as_csr) else as_csr.nnz) * 0.001:
                    target = numpy.result_type(self.dtype, values.dtype)
                    sum_first = stored != stored_on(as_csr)
            x = numpy.asarray(values, dtype=target)
        elif fmt == "coo":
            if given == 0:
                return
            target = self.dtype if broadcast else numpy.result_type(self.dtype, values.dtype)
            x = numpy.empty(length, dtype=target)
            x[:] = values  # NumPy's cast and warnings, as SciPy's
        else:  # dia: the values go into its data
            target = self.dtype
            x = numpy.empty(length, dtype=target)
            x[:] = values
        if length == 0:
            if target != self.dtype:
                self._m = _sp.astype(self._m, target)
            return
        if broadcast:
            x = numpy.broadcast_to(x.reshape(-1)[:1] if x.size else x, (length,))
        i = numpy.arange(length, dtype=numpy.int64) + max(-k, 0)
        j = numpy.arange(length, dtype=numpy.int64) + max(k, 0)
        m = self._m
        if m.dtype != target:
            # SciPy sums CSR/CSC duplicates in the old dtype first, COO's in the new one (they matter for bool).
            if fmt != "coo" and sum_first:
                m = _sp.sum_duplicates(m if fmt in ("csr", "csc") else _convert(m, "csr"))
            m = _sp.astype(m, target)
        if fmt not in ("csr", "csc"):
            m = _convert(m, "csr")
        out = _sp.set_entries(m, _creation.asarray(i), _creation.asarray(j),
                              _creation.asarray(numpy.ascontiguousarray(x)))
        if fmt == "bsr":
            out = _sp.tobsr(out, self.blocksize)
        elif fmt not in ("csr", "csc"):
            out = _convert(out, fmt)
        self._m = out

    def reshape(self, *args, shape=None, order="C", copy=False):
        """The same entries in an array of another shape of the same size, in C or F order (a COO result, as
        SciPy); *_array shapes may be 1-d or 2-d, *_matrix shapes 2-d."""
        if shape is None:
            shape = args[0] if len(args) == 1 and not isinstance(args[0], (int, numpy.integer)) else args
        shape = tuple(operator.index(s) for s in shape)
        rows, cols = self._m.shape  # a 1-d array's (1, n) row: its C- and F-order positions are the columns
        size = rows * cols
        if shape.count(-1) == 1:
            known = int(numpy.prod([s for s in shape if s != -1]))
            shape = tuple(size // known if s == -1 and known else s for s in shape)
        if len(shape) != 2 and not (self._is_array and len(shape) == 1):
            if self._is_array and len(shape) > 2:
                raise ValueError(f"kumo.sparse supports 1-d and 2-d arrays only, got new_shape={shape}")
            raise ValueError(f"shape must have length in (2,). Got new_shape={shape}")
        if int(numpy.prod(shape)) != size or any(s < 0 for s in shape):
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        if shape == self.shape:
            return self.copy() if copy else self
        if order not in ("C", "F"):
            raise ValueError("'order' must be 'C' or 'F'")
        coo = self._m if self.format == "coo" else _sp.tocoo(self._m)
        row, col = coo.row.astype(numpy.int64), coo.col.astype(numpy.int64)
        flat = row * cols + col if order == "C" else col * rows + row
        target = (1,) + shape if len(shape) == 1 else shape
        if order == "C":
            new_row, new_col = flat // target[1], flat % target[1]
        else:
            new_row, new_col = flat % target[0], flat // target[0]
        return self._sibling("coo")._wrap(_sp.make_coo(coo.data, new_row, new_col, target), len(shape) == 1)

    def resize(self, *shape):
        """In place: the matrix cut or padded with zeros to `shape`."""
        if len(shape) == 1 and not isinstance(shape[0], (int, numpy.integer)):
            shape = shape[0]
        shape = tuple(operator.index(s) for s in shape)
        if len(shape) != self.ndim:
            raise ValueError(f"resize of a {self.ndim}-d sparse array needs a {self.ndim}-d shape, got {shape}")
        if any(s < 0 for s in shape):
            raise ValueError("'shape' elements cannot be negative")
        shape = (1,) + shape if self._vec else shape
        coo = self._m if self.format == "coo" else _sp.tocoo(self._m)
        keep = (coo.row < shape[0]) & (coo.col < shape[1])
        new = _sp.make_coo(_indexing.extract(keep, coo.data), _indexing.extract(keep, coo.row),
                           _indexing.extract(keep, coo.col),
                           shape)
        self._m = _convert(new, self.format)

    # ---- maximum / minimum ----

    def _max_min(self, other, name):
        fmt = "csc" if self.format == "csc" else "csr"
        if _is_scalar(other):
            other_is_dense = (name == "maximum" and other > 0) or (name == "minimum" and other < 0)
            if other_is_dense:
                warnings.warn(f"Taking {name} with {'> 0' if name == 'maximum' else '< 0'} number results to a "
                              "dense matrix.", SparseEfficiencyWarning, stacklevel=3)
                dense = _creation.full(self.shape, other, dtype=numpy.result_type(self.dtype, other))
                r = self._elementwise(self._sibling(fmt)(dense), getattr(_sp, name), fmt)
                # SciPy: this class again (a COO or DIA one too), made from the dense result.
                return r if r.format == self.format else r.asformat(self.format)
            m = _sp.sum_duplicates(_convert(self._m, fmt))
            return self._make(fmt, _with_data(m, getattr(uf, name)(m.data, other)))
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            other = other if isinstance(other, _spbase) else self._sibling(other.format)(other)
            return self._elementwise(other, getattr(_sp, name), fmt)
        return getattr(uf, name)(self.toarray(), _asarray(other))

    def __truediv__(self, other):
        """Division by a scalar (sparse), a dense array (sparse COO: the product with its reciprocal, in their
        promoted dtype) or a sparse matrix (dense, NaN where both are zero), as SciPy's; with a scalar or a
        sparse divisor, float64 for every dtype float64 holds."""
        if _is_scalar(other):
            return _spbase.__truediv__(self, other)
        if _is_dense(other):
            return self.multiply(uf.true_divide(1.0, _asarray(other)))
        a = self.astype(numpy.float64) if numpy.can_cast(self.dtype, numpy.float64) else self
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            if self.shape != other.shape:
                raise ValueError("inconsistent shapes")
            other = other if isinstance(other, _spbase) else self._sibling(other.format)(other)
            return a.toarray() / other.toarray()
        return NotImplemented

    def maximum(self, other):
        """Elementwise numpy.maximum with a scalar, a sparse matrix (sparse results) or a dense array (dense)."""
        return self._max_min(other, "maximum")

    def minimum(self, other):
        return self._max_min(other, "minimum")


def _is_dense(x):
    return isinstance(x, (numpy.ndarray, list)) or (hasattr(x, "__dlpack__") and not isinstance(x, _spbase))


def _warn(msg):
    warnings.warn(msg, SparseEfficiencyWarning, stacklevel=3)


class _CompareMixin:
    """==, !=, <, >, <=, >= with scalars (sparse bool results), dense arrays
    (dense results) and sparse matrices (sparse bool results), as SciPy's;
    the results that are dense in all but type come with its
    SparseEfficiencyWarning. Sparse operands are compared in C++
    (kumo::sparse::not_equal/less/greater)."""

    def _cmp_format(self):
        return "csc" if self.format == "csc" else "csr"

    def _all_but(self, m):
        """The bool matrix true everywhere m (a C++ bool matrix) is not."""
        return self._sibling(self._cmp_format())(uf.logical_not(_sp.toarray(m)).reshape(self.shape))

    def _scalar_compare(self, ufunc, other):
        """The stored values compared with a scalar (op(0, other) is false, so the rest stays false)."""
        m = _sp.sum_duplicates(_convert(self._m, self._cmp_format()))
        return _sp.eliminate_zeros(_with_data(m, getattr(uf, ufunc)(m.data, other)))

    def _sparse_operand(self, other):
        other = other if isinstance(other, _spbase) else self._sibling(other.format)(other)
        return _convert(other._m, self._cmp_format())

    def _sparse_compare(self, fn, other):
        """fn (C++ on CSR) of self and the sparse other, in self's compressed format."""
        a = _convert(self._m, self._cmp_format())
        if self._cmp_format() == "csc":
            return _sp.transpose(fn(_sp.transpose(a), _sp.transpose(other)))
        return fn(a, other)

    def _wrap_cmp(self, m):
        return self._make(self._cmp_format(), m)

    def _nothing_true(self):
        """A comparison with NaN: an all-false bool matrix of this class."""
        return type(self)(self.shape, dtype=numpy.bool_)

    def __eq__(self, other):
        if _is_scalar(other):
            if numpy.isnan(other):
                return self._nothing_true()
            if other == 0:
                _warn("Comparing a sparse matrix with 0 using == is inefficient, try using != instead.")
                return self._all_but(self._scalar_compare("not_equal", other))
            return self._wrap_cmp(self._scalar_compare("equal", other))
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            if self.shape != other.shape:
                return False
            _warn("Comparing sparse matrices using == is inefficient, try using != instead.")
            return self._all_but(self._sparse_compare(_sp.not_equal, self._sparse_operand(other)))
        if _is_dense(other):
            return self.toarray() == _asarray(other)
        return NotImplemented

    def __ne__(self, other):
        if _is_scalar(other):
            if numpy.isnan(other):
                _warn("Comparing a sparse matrix with nan using != is inefficient")
                return type(self)(_creation.ones(self.shape, dtype=numpy.bool_))
            if other != 0:
                _warn("Comparing a sparse matrix with a nonzero scalar using != is inefficient, "
                      "try using == instead.")
                return self._all_but(self._scalar_compare("equal", other))
            return self._wrap_cmp(self._scalar_compare("not_equal", other))
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            if self.shape != other.shape:
                return True
            return self._wrap_cmp(self._sparse_compare(_sp.not_equal, self._sparse_operand(other)))
        if _is_dense(other):
            return self.toarray() != _asarray(other)
        return NotImplemented

    def _inequality(self, other, name, strict, complement):
        """self `name` other for <, >, <= and >=; `strict` is the C++ comparison behind it and, for <= and
        >=, `complement` the strict one whose negation it is."""
        op = getattr(operator, {"less": "lt", "greater": "gt", "less_equal": "le", "greater_equal": "ge"}[name])
        if _is_scalar(other):
            if numpy.isnan(other):
                return self._nothing_true()
            if op(0, other):
                _warn(f"Comparing a sparse matrix with a scalar {'greater' if other > 0 else 'less'} than zero "
                      f"using {name} is inefficient.")
                # True at every implicit zero: the result is dense in all but type.
                return self._sibling(self._cmp_format())(op(self.toarray(), other))
            return self._wrap_cmp(self._scalar_compare(name, other))
        if isinstance(other, _spbase) or _is_scipy_sparse(other):
            if self.shape != other.shape:
                raise ValueError("inconsistent shapes")
            b = self._sparse_operand(other)
            if complement is None:
                return self._wrap_cmp(self._sparse_compare(strict, b))
            _warn("Comparing sparse matrices using >= and <= is inefficient, using <, >, or !=, instead.")
            return self._all_but(self._sparse_compare(complement, b))
        if _is_dense(other):
            return op(self.toarray(), _asarray(other))
        return NotImplemented

    def __lt__(self, other):
        return self._inequality(other, "less", _sp.less, None)

    def __gt__(self, other):
        return self._inequality(other, "greater", _sp.greater, None)

    def __le__(self, other):
        return self._inequality(other, "less_equal", None, _sp.greater)

    def __ge__(self, other):
        return self._inequality(other, "greater_equal", None, _sp.less)

    __hash__ = None
