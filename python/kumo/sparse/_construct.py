"""scipy.sparse's construction functions over kumo::sparse (sparse/construct.h).

The C++ functions build the matrix in the format SciPy computes it in; this
layer resolves SciPy's arguments (defaults, dtypes, array vs matrix results)
and converts to the format asked for.
"""
import numbers
import operator
import warnings

import numpy

from kumo.sparse._base import _asarray, _CLASSES, _convert, _is_scipy_sparse, _ROUTINES, _sp, _spbase, sparray
from kumo.sparse._bsr import bsr_array, bsr_matrix  # noqa: F401 (registers the format)
from kumo.sparse._dia import dia_array, dia_matrix
from kumo.sparse._formats import coo_array, coo_matrix

_NoValue = object()


def _wrap(m, fmt, is_array):
    return _CLASSES[(fmt, is_array)]._wrap(m)


def _is_sparray(x):
    """Whether x is a sparse array (kumo's or SciPy's), not a matrix."""
    if isinstance(x, sparray):
        return True
    if _is_scipy_sparse(x):
        import scipy.sparse
        return isinstance(x, scipy.sparse.sparray)
    return False


def _any_array(*objs):
    return any(_is_sparray(o) for o in objs)


def _as_kumo(b):
    """A SciPy sparse block as the kumo object of its format and kind; anything else as it is."""
    if _is_scipy_sparse(b):
        fmt = b.format if (b.format, True) in _CLASSES else "csr"
        return _CLASSES[(fmt, _is_sparray(b))](b)
    return b


def _as_coo(a, is_array=True):
    """The C++ COO value of a sparse (kumo or SciPy) or dense input."""
    if isinstance(a, _spbase):
        return _convert(a._m, "coo")
    return (coo_array if is_array else coo_matrix)(a)._m


def _is_scalar_like(x):
    return isinstance(x, (numbers.Number, numpy.generic)) or (hasattr(x, "ndim") and x.ndim == 0)


def _atleast_1d(x):
    a = _asarray(x)
    return a.reshape(1) if a.ndim == 0 else a


# ---------------------------------------------------------------- diagonals

def _common_type(dtypes):
    """numpy.common_type of arrays of these dtypes: integers count as float64."""
    if any(d.kind == "b" for d in dtypes):
        raise TypeError("can't get common type for non-numeric array")
    size = 0
    for d in dtypes:
        size = max(size, 8 if d.kind in "iu" else (d.itemsize // 2 if d.kind == "c" else d.itemsize))
    kind = "c" if any(d.kind == "c" for d in dtypes) else "f"
    return numpy.dtype(f"{kind}{size * 2 if kind == 'c' else size}")


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=_NoValue):
    """Sparse array from diagonals (scipy.sparse.diags_array); C++: kumo::sparse::diags.

    diagonals[j] is placed on diagonal offsets[j] (a length-1 diagonal is
    broadcast). Without dtype, SciPy's current rule applies: numpy.common_type
    of the diagonals, with a FutureWarning where numpy.result_type differs."""
    if _is_scalar_like(offsets):
        if len(diagonals) == 0 or _is_scalar_like(diagonals[0]):
            diagonals = [_atleast_1d(diagonals)]
        else:
            raise ValueError("Different number of diagonals and offsets.")
    else:
        diagonals = [_atleast_1d(d) for d in diagonals]
    offsets = [operator.index(int(k)) for k in numpy.atleast_1d(numpy.asarray(offsets))]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if shape is None:
        m = len(diagonals[0]) + abs(int(offsets[0]))
        shape = (m, m)
    rows, cols = (operator.index(s) for s in shape)
    dtypes = [d.dtype for d in diagonals]
    if dtype is None:
        dtype = numpy.result_type(*dtypes)
    elif dtype is _NoValue:
        dtype = _common_type(dtypes)
        future = numpy.result_type(*dtypes)
        if dtype != future:
            warnings.warn(f"Input has data type {future}, but the output has been cast to {dtype}.  In the "
                          "future, the output data type will match the input. To avoid this warning, set the "
                          "`dtype` parameter to `None` to have the output dtype match the input, or set it to "
                          "the desired output data type.", FutureWarning, stacklevel=2)
    dtype = numpy.dtype(dtype)
    diagonals = [d if d.dtype == dtype else d.astype(dtype) for d in diagonals]
    return dia_array._wrap(_sp.diags(diagonals, offsets, (rows, cols), dtype)).asformat(format)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=_NoValue):
    """diags_array's sparse matrix (scipy.sparse.diags)."""
    a = diags_array(diagonals, offsets=offsets, shape=shape, dtype=dtype)
    return dia_matrix._wrap(a._m).asformat(format)


def spdiags(data, diags, m=None, n=None, format=None):
    """Rows of data on the diagonals `diags` (scipy.sparse.spdiags), a sparse matrix."""
    if m is None and n is None:
        m = n = len(data[0])
    elif n is None:
        m, n = m
    return dia_matrix((data, diags), shape=(m, n)).asformat(format)


def _eye(m, n, k, dtype, format, is_array):
    n = m if n is None else n
    m, n, k = int(m), int(n), int(k)
    dtype = numpy.dtype(dtype)
    dia = _sp.eye((m, n), k, dtype)
    if m == n and k == 0 and format in ("csr", "csc", "coo"):
        # SciPy builds these directly; the arrays are the same as converted,
        # but a COO built from (data, (row, col)) does not know it is canonical.
        m_fmt = _convert(dia, format)
        if format == "coo":
            m_fmt = _sp.Coo(m_fmt)
            m_fmt.canonical = False
        return _wrap(m_fmt, format, is_array)
    return _wrap(dia, "dia", is_array).asformat(format)


def eye_array(m, n=None, *, k=0, dtype=float, format=None):
    """Sparse array with ones on diagonal k (scipy.sparse.eye_array); dia unless format says otherwise."""
    return _eye(m, n, k, dtype, format, True)


def eye(m, n=None, k=0, dtype=float, format=None):
    """Sparse matrix with ones on diagonal k (scipy.sparse.eye)."""
    return _eye(m, n, k, dtype, format, False)


def identity(n, dtype="d", format=None):
    """The n x n identity as a sparse matrix (scipy.sparse.identity)."""
    return _eye(n, n, 0, dtype, format, False)


# ---------------------------------------------------------------- Kronecker

def kron(A, B, format=None):
    """Kronecker product (scipy.sparse.kron); C++: kumo::sparse::kron.

    BSR when B is at least half full and format is None or 'bsr' (SciPy's
    choice), else computed in COO and converted."""
    is_array = _any_array(A, B)
    if _is_1d_sparse(A) and _is_1d_sparse(B):
        # Two 1-d arrays: the product of their (1, n) rows is the row of a 1-d COO array, as SciPy's.
        m = _sp.kron(_as_coo(A), _as_coo(B))
        return _CLASSES[("coo", True)]._wrap(m, True).asformat(format)
    b = _as_coo(B, is_array)
    rows_b, cols_b = b.shape
    if format in (None, "bsr") and 2 * b.nnz >= rows_b * cols_b:
        a = _convert(_as_coo(A, is_array), "csr")
        shape = (a.shape[0] * rows_b, a.shape[1] * cols_b)
        if a.nnz == 0 or b.nnz == 0:
            return _CLASSES[("coo", is_array)](shape).asformat(format)
        return _wrap(_sp.kron(a, _sp.toarray(b)), "bsr", is_array)
    return _wrap(_sp.kron(_as_coo(A, is_array), b), "coo", is_array).asformat(format)


def kronsum(A, B, format=None):
    """Kronecker sum kron(I_n, A) + kron(B, I_m) of square A and B (scipy.sparse.kronsum)."""
    is_array = _any_array(A, B)
    return _wrap(_sp.kronsum(_as_coo(A, is_array), _as_coo(B, is_array)), "csr", is_array).asformat(format)


# ---------------------------------------------------------------- stacking

def _grid(blocks):
    """blocks as a list of rows of equal length (SciPy's 2-d object array)."""
    if isinstance(blocks, numpy.ndarray):
        blocks = blocks.tolist()
    try:
        # A sparse matrix where a row of blocks belongs makes a 1-d grid.
        if isinstance(blocks, _spbase) or any(isinstance(r, _spbase) for r in blocks):
            raise TypeError
        rows = [list(r) for r in blocks]
    except TypeError:
        raise ValueError("blocks must be 2-D") from None
    if not rows or any(len(r) != len(rows[0]) for r in rows) or any(
            isinstance(b, (list, tuple)) for r in rows for b in r):
        raise ValueError("blocks must be 2-D")
    if not rows[0]:
        # SciPy fails indexing the first block column (IndexError).
        raise IndexError("blocks has no block columns")
    return rows


def _block(rows, format, dtype, is_array):
    rows = [[_as_kumo(b) for b in r] for r in rows]
    flat = [b for r in rows for b in r]
    n_rows, n_cols = len(rows), len(rows[0]) if rows else 0
    for fmt in ("csr", "csc"):
        if format in (None, fmt) and flat and all(isinstance(b, _spbase) and b.format == fmt for b in flat):
            # SciPy's fast paths: stack along the minor axis first, then the major one.
            if fmt == "csr":
                parts = [_sp.hstack([b._m for b in r]) if n_cols > 1 else r[0]._m for r in rows]
                m = _sp.vstack(parts)
            else:
                parts = [_sp.vstack([r[j]._m for r in rows]) if n_rows > 1 else rows[0][j]._m
                         for j in range(n_cols)]
                m = _sp.hstack(parts)
            out = _wrap(m, fmt, is_array)
            return out if dtype is None else out.astype(dtype, copy=False)
    coo = [[None if b is None else _as_coo(b) for b in r] for r in rows]
    out = _wrap(_sp.bmat(coo, None if dtype is None else numpy.dtype(dtype)), "coo", is_array)
    return out.asformat(format)


def bmat(blocks, format=None, dtype=None):
    """Sparse matrix from a 2-d grid of blocks, None for zeros (scipy.sparse.bmat)."""
    rows = _grid(blocks)
    return _block(rows, format, dtype, _any_array(*[b for r in rows for b in r]))


def block_array(blocks, *, format=None, dtype=None):
    """bmat's sparse array (scipy.sparse.block_array)."""
    return _block(_grid(blocks), format, dtype, True)


def hstack(blocks, format=None, dtype=None):
    """Blocks side by side (scipy.sparse.hstack)."""
    blocks = list(blocks)
    return _block(_grid([blocks]), format, dtype, _any_array(*blocks))


def vstack(blocks, format=None, dtype=None):
    """Blocks one above the other (scipy.sparse.vstack)."""
    blocks = list(blocks)
    return _block(_grid([[b] for b in blocks]), format, dtype, _any_array(*blocks))


def block_diag(mats, format=None, dtype=None):
    """The blocks along the diagonal (scipy.sparse.block_diag). Dense blocks
    store every element, zeros too; lists and numbers store their nonzeros."""
    if len(mats) == 0:
        raise ValueError("block_diag: need at least one block")
    is_array = _any_array(*mats)
    coos, wide = [], False
    for a in mats:
        if isinstance(a, (list, numbers.Number)):
            a = coo_array(numpy.atleast_2d(numpy.asarray(a)))
        if isinstance(a, _spbase) or (hasattr(a, "tocoo") and hasattr(a, "format")):
            c = _as_coo(a)
            wide = wide or c.row.dtype == numpy.int64
            coos.append(c)
        else:
            coos.append(_sp.coo_all_entries(_asarray(a)))
    out = _wrap(_sp.block_diag(coos, wide), "coo", is_array)
    if dtype is not None:
        out = out.astype(dtype, copy=False)
    return out.asformat(format)


# ---------------------------------------------------------------- triangles, find, random

def _is_1d_sparse(a):
    return (isinstance(a, _spbase) or _is_scipy_sparse(a)) and a.ndim == 1


def _check_2d(name, a):
    if _is_1d_sparse(a):
        raise ValueError(f"{name} needs a 2-d sparse array, got shape {a.shape}")


def tril(A, k=0, format=None):
    """Entries on and below diagonal k (scipy.sparse.tril), COO unless format says otherwise."""
    _check_2d("tril", A)
    is_array = _is_sparray(A)
    return _wrap(_sp.tril(_as_coo(A, is_array), operator.index(k)), "coo", is_array).asformat(format)


def triu(A, k=0, format=None):
    """Entries on and above diagonal k (scipy.sparse.triu)."""
    _check_2d("triu", A)
    is_array = _is_sparray(A)
    return _wrap(_sp.triu(_as_coo(A, is_array), operator.index(k)), "coo", is_array).asformat(format)


def find(A):
    """(row, col, value) of the nonzeros of A, duplicates summed (scipy.sparse.find)."""
    return tuple(_sp.find(_as_coo(A)))


def _seed(rng):
    """A 63-bit seed for kumo's generator, drawn from a NumPy generator, RandomState or seed."""
    if isinstance(rng, numpy.random.RandomState):
        return int(rng.randint(0, 2**63 - 1, dtype=numpy.int64))
    return int(numpy.random.default_rng(rng).integers(0, 2**63 - 1))


def _random(shape, density, format, dtype, rng, sampler, is_array):
    dtype = numpy.dtype(numpy.float64 if dtype is None else dtype)
    if len(shape) != 2:
        raise ValueError(f"kumo.sparse supports 2-d matrices only, got shape {tuple(shape)}")
    rows, cols = (operator.index(s) for s in shape)
    m = _sp.random((rows, cols), float(density), dtype, _seed(rng))
    if sampler is not None:
        values = _asarray(sampler(m.nnz)).astype(dtype)
        m = _sp.make_coo(values, m.row, m.col, m.shape)
    return _wrap(m, "coo", is_array).asformat(format)


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None, data_sampler=None, random_state=None):
    """Sparse array with round(density * size) random places (scipy.sparse.random_array).

    Values are uniform in [0, 1) (complex: both parts), the whole range for
    integer dtypes, or data_sampler(size=n). The places and values come from
    kumo's generator seeded from `rng`, so they differ from SciPy's stream."""
    rng = random_state if rng is None else rng
    sampler = None if data_sampler is None else (lambda n: data_sampler(size=n))
    return _random(shape, density, format, dtype, rng, sampler, True)


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, data_rvs=None, random_state=None):
    """random_array's sparse matrix (scipy.sparse.random); data_rvs(n) gives the values."""
    rng = random_state if rng is None else rng
    return _random((m, n), density, format, dtype, rng, data_rvs, False)


_ROUTINES["diags_array"] = diags_array  # for _spbase._broadcast_multiply
