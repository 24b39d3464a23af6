"""LinearOperator and aslinearoperator, as scipy.sparse.linalg's.

The products and the operator algebra are C++ (kumo::sparse::linalg::
LinearOperator, bound as kumo._core.sparse_linalg.Operator). Each Python
operator can hand the solvers such a C++ operator (`_operator()`): matrix
operators and compositions of them never call back into Python; a user's
subclass is wrapped in one whose functions call its matvec/rmatvec.
"""
import numbers
import warnings

import numpy

from kumo import _core
from kumo import _creation
from kumo._manipulation import hstack
from kumo.sparse._formats import csr_matrix, issparse

_ops = _core.sparse_linalg
_ndarray = _core.ndarray


def _asarray(x):
    return x if isinstance(x, _ndarray) else _creation.asarray(x)


def _isshape(shape):
    try:
        m, n = shape
    except (TypeError, ValueError):
        return False
    return all(isinstance(s, numbers.Integral) and s >= 0 for s in (m, n))


def _is_scalar(x):
    return numpy.isscalar(x) or (isinstance(x, (_ndarray, numpy.ndarray)) and x.ndim == 0)


def _result_dtype(operators, scalar_types=()):
    return numpy.result_type(*[op.dtype for op in operators if op.dtype is not None], *scalar_types)


def _sparse_value(a):
    """The C++ Coo/Csr/Csc value of a kumo sparse matrix (other formats via csr)."""
    if getattr(a, "format", None) not in ("coo", "csr", "csc"):
        a = a.tocsr()
    return a._m


class LinearOperator:
    """A linear map with shape, dtype and matvec (scipy.sparse.linalg.LinearOperator).

    Constructed directly, ``LinearOperator(shape, matvec, rmatvec=None,
    matmat=None, dtype=None, rmatmat=None)`` makes an operator from
    functions; a subclass defines ``_matvec`` and/or ``_matmat`` (and
    ``_rmatvec``/``_rmatmat``/``_adjoint`` for the adjoint). Operands are
    kumo arrays. ``+``, ``-``, ``*`` and ``@`` (by operators, scalars and
    arrays), ``**`` (non-negative integer powers), ``.H``/``.adjoint()`` and
    ``.T``/``.transpose()`` build new operators, as SciPy's.
    """

    ndim = 2
    __array_ufunc__ = None

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            # The base class called directly: an operator from functions.
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if type(obj)._matvec == LinearOperator._matvec and type(obj)._matmat == LinearOperator._matmat:
            warnings.warn("LinearOperator subclass should implement at least one of _matvec and _matmat.",
                          category=RuntimeWarning, stacklevel=2)
        return obj

    def __init__(self, dtype, shape):
        if dtype is not None:
            dtype = numpy.dtype(dtype)
        shape = tuple(shape)
        if not _isshape(shape):
            raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
        self.dtype = dtype
        self.shape = shape

    def _init_dtype(self):
        """The dtype of matvec's result on zeros, when none was given."""
        if self.dtype is None:
            v = _creation.zeros(self.shape[-1])
            self.dtype = numpy.dtype(_asarray(self.matvec(v)).dtype)

    # ---- products (shape checks here, the work in _matvec & co.) ----

    def _matmat(self, X):
        return hstack([self.matvec(col.reshape(-1, 1)) for col in X.T])

    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def matvec(self, x):
        x = _asarray(x)
        M, N = self.shape
        if x.shape != (N,) and x.shape != (N, 1):
            raise ValueError("dimension mismatch")
        y = _asarray(self._matvec(x))
        if x.ndim == 1:
            return y.reshape(M)
        return y.reshape(M, 1)

    def rmatvec(self, x):
        x = _asarray(x)
        M, N = self.shape
        if x.shape != (M,) and x.shape != (M, 1):
            raise ValueError("dimension mismatch")
        y = _asarray(self._rmatvec(x))
        if x.ndim == 1:
            return y.reshape(N)
        return y.reshape(N, 1)

    def _rmatvec(self, x):
        if type(self)._adjoint == LinearOperator._adjoint:
            raise NotImplementedError("rmatvec is not defined")
        return self.H.matvec(x)

    def matmat(self, X):
        X = _asarray(X)
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != self.shape[1]:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return _asarray(self._matmat(X))

    def rmatmat(self, X):
        X = _asarray(X)
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != self.shape[0]:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return _asarray(self._rmatmat(X))

    def _rmatmat(self, X):
        if type(self)._adjoint == LinearOperator._adjoint:
            return hstack([self.rmatvec(col.reshape(-1, 1)) for col in X.T])
        return self.H.matmat(X)

    def _operator(self):
        """The C++ operator calling this one's matvec/rmatvec/matmat/rmatmat."""
        has_adjoint = not (type(self)._rmatvec == LinearOperator._rmatvec
                           and type(self)._adjoint == LinearOperator._adjoint
                           and type(self)._rmatmat == LinearOperator._rmatmat)
        dtype = self.dtype if self.dtype is not None else numpy.float64
        return _ops.Operator(self.shape, dtype, self.matvec, self.rmatvec if has_adjoint else None,
                             self.matmat, self.rmatmat if has_adjoint else None, type(self).__name__)

    # ---- operators ----

    def __call__(self, x):
        return self * x

    def __mul__(self, x):
        return self.dot(x)

    def __truediv__(self, other):
        if not numpy.isscalar(other):
            raise ValueError("Can only divide a linear operator by a scalar.")
        return _ScaledLinearOperator(self, 1.0 / other)

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        x = _asarray(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def __matmul__(self, other):
        if numpy.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__mul__(other)

    def __rmatmul__(self, other):
        if numpy.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__rmul__(other)

    def __rmul__(self, x):
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        return self._rdot(x)

    def _rdot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(x, self)
        if _is_scalar(x):
            return _ScaledLinearOperator(self, x)
        x = _asarray(x)
        # x A = (A^T x^T)^T
        if x.ndim == 1 or (x.ndim == 2 and x.shape[0] == 1):
            return self.T.matvec(x.T).T
        if x.ndim == 2:
            return self.T.matmat(x.T).T
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def __pow__(self, p):
        if numpy.isscalar(p):
            return _PowerLinearOperator(self, p)
        return NotImplemented

    def __add__(self, x):
        if isinstance(x, LinearOperator):
            return _SumLinearOperator(self, x)
        return NotImplemented

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, x):
        return self.__add__(-x)

    def __repr__(self):
        M, N = self.shape
        dt = "unspecified dtype" if self.dtype is None else "dtype=" + str(self.dtype)
        return f"<{M}x{N} {self.__class__.__name__} with {dt}>"

    def adjoint(self):
        """The conjugate transpose A^H (an operator)."""
        return self._adjoint()

    H = property(adjoint)

    def transpose(self):
        """The transpose A^T (an operator)."""
        return self._transpose()

    T = property(transpose)

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _transpose(self):
        return _TransposedLinearOperator(self)


class _CustomLinearOperator(LinearOperator):
    """An operator from functions."""

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        super().__init__(dtype, shape)
        self.args = ()
        self.__matvec_impl = matvec
        self.__rmatvec_impl = rmatvec
        self.__rmatmat_impl = rmatmat
        self.__matmat_impl = matmat
        self._init_dtype()

    def _matmat(self, X):
        if self.__matmat_impl is not None:
            return self.__matmat_impl(X)
        return super()._matmat(X)

    def _matvec(self, x):
        return self.__matvec_impl(x)

    def _rmatvec(self, x):
        func = self.__rmatvec_impl
        if func is None:
            raise NotImplementedError("rmatvec is not defined")
        return self.__rmatvec_impl(x)

    def _rmatmat(self, X):
        if self.__rmatmat_impl is not None:
            return self.__rmatmat_impl(X)
        return super()._rmatmat(X)

    def _adjoint(self):
        return _CustomLinearOperator(shape=(self.shape[1], self.shape[0]), matvec=self.__rmatvec_impl,
                                     rmatvec=self.__matvec_impl, matmat=self.__rmatmat_impl,
                                     rmatmat=self.__matmat_impl, dtype=self.dtype)

    def _operator(self):
        dtype = self.dtype if self.dtype is not None else numpy.float64
        rmatvec = self.rmatvec if (self.__rmatvec_impl or self.__rmatmat_impl) else None
        rmatmat = self.rmatmat if (self.__rmatvec_impl or self.__rmatmat_impl) else None
        return _ops.Operator(self.shape, dtype, self.matvec, rmatvec, self.matmat, rmatmat, "LinearOperator")


class _CppLinearOperator(LinearOperator):
    """An operator whose products are a C++ operator's (matrices, compositions).
    Each subclass defines _operator(), building that operator."""

    def _matvec(self, x):
        return self._operator().matvec(x)

    def _rmatvec(self, x):
        return self._operator().rmatvec(x)

    def _matmat(self, X):
        return self._operator().matmat(X)

    def _rmatmat(self, X):
        return self._operator().rmatmat(X)


class MatrixLinearOperator(_CppLinearOperator):
    """The operator of a dense 2-d array or a sparse matrix."""

    def __init__(self, A):
        if issparse(A):
            self.A = A
        else:
            self.A = _asarray(A)
        super().__init__(numpy.dtype(self.A.dtype), self.A.shape)
        self.__adj = None
        self.args = (self.A,)

    def _operator(self):
        if issparse(self.A):
            m = _sparse_value(self.A)
            return {"Csr": _ops.from_csr, "Csc": _ops.from_csc, "Coo": _ops.from_coo}[type(m).__name__](m)
        return _ops.from_dense(self.A)

    def _adjoint(self):
        if self.__adj is None:
            self.__adj = _AdjointMatrixOperator(self.A)
        return self.__adj


class _AdjointMatrixOperator(MatrixLinearOperator):
    def __init__(self, adjoint_array):
        A = adjoint_array.T.conj() if issparse(adjoint_array) else _asarray(adjoint_array).T.conj()
        super().__init__(A)


class IdentityOperator(_CppLinearOperator):
    """The identity (its products return their operand)."""

    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _operator(self):
        return _ops.identity(self.shape, self.dtype if self.dtype is not None else numpy.float64)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _matmat(self, x):
        return x

    def _rmatmat(self, x):
        return x

    def _adjoint(self):
        return self


class _SumLinearOperator(_CppLinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        self.args = (A, B)
        super().__init__(_result_dtype([A, B]), A.shape)

    def _operator(self):
        return _ops.add(self.args[0]._operator(), self.args[1]._operator())

    def _adjoint(self):
        A, B = self.args
        return A.H + B.H


class _ProductLinearOperator(_CppLinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__(_result_dtype([A, B]), (A.shape[0], B.shape[1]))
        self.args = (A, B)

    def _operator(self):
        return _ops.multiply(self.args[0]._operator(), self.args[1]._operator())

    def _adjoint(self):
        A, B = self.args
        return B.H * A.H


class _ScaledLinearOperator(_CppLinearOperator):
    def __init__(self, A, alpha):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if not numpy.isscalar(alpha) and not _is_scalar(alpha):
            raise ValueError("scalar expected as alpha")
        if isinstance(A, _ScaledLinearOperator):
            A, alpha_original = A.args
            alpha = alpha * alpha_original
        super().__init__(_result_dtype([A], [type(alpha)]), A.shape)
        self.args = (A, alpha)

    def _operator(self):
        A, alpha = self.args
        value = complex(alpha)
        return _ops.scale(A._operator(), value, numpy.iscomplexobj(alpha))

    def _adjoint(self):
        A, alpha = self.args
        return A.H * numpy.conj(alpha)


class _PowerLinearOperator(_CppLinearOperator):
    def __init__(self, A, p):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"square LinearOperator expected, got {A!r}")
        if not (isinstance(p, numbers.Integral) or (float(p) == int(p))) or p < 0:
            raise ValueError("non-negative integer expected as p")
        super().__init__(_result_dtype([A]), A.shape)
        self.args = (A, int(p))

    def _operator(self):
        return _ops.power(self.args[0]._operator(), self.args[1])

    def _adjoint(self):
        A, p = self.args
        return A.H ** p


class _AdjointLinearOperator(_CppLinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _operator(self):
        return _ops.adjoint(self.A._operator())

    def _adjoint(self):
        return self.A


class _TransposedLinearOperator(_CppLinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _operator(self):
        return _ops.transpose(self.A._operator())

    def _transpose(self):
        return self.A


def aslinearoperator(A):
    """A as a LinearOperator: operators as they are, dense 2-d arrays and sparse
    matrices as MatrixLinearOperator, objects with shape and matvec wrapped."""
    if isinstance(A, LinearOperator):
        return A
    if issparse(A):
        return MatrixLinearOperator(A)
    if isinstance(A, (_ndarray, numpy.ndarray)) or (isinstance(A, (list, tuple)) and not hasattr(A, "matvec")):
        arr = _asarray(A)
        if arr.ndim > 2:
            raise ValueError("array must have ndim <= 2")
        if arr.ndim < 2:
            arr = arr.reshape(1, -1) if arr.ndim == 1 else arr.reshape(1, 1)
        return MatrixLinearOperator(arr)
    if hasattr(A, "tocsr") and hasattr(A, "format") and type(A).__module__.startswith("scipy.sparse"):
        return MatrixLinearOperator(csr_matrix(A.tocsr()))
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        rmatvec = getattr(A, "rmatvec", None)
        rmatmat = getattr(A, "rmatmat", None)
        dtype = getattr(A, "dtype", None)
        return LinearOperator(A.shape, A.matvec, rmatvec=rmatvec, rmatmat=rmatmat, dtype=dtype)
    raise TypeError("type not understood")
