"""kumo.sparse.linalg.LinearOperator and aslinearoperator against SciPy's:
construction, products, the operator algebra, adjoints and errors."""
import numpy
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse.linalg as kla
from sparse_linalg_testing import FLOAT_DTYPES, FORMATS, np_, rvec, to_kumo


def dense(m, n, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    a = rng.standard_normal((m, n))
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((m, n))
    return a.astype(dtype)


def pair(m=5, n=4, dtype=numpy.float64, seed=0):
    """(kumo operator, SciPy operator) of one dense matrix."""
    a = dense(m, n, dtype, seed)
    return kla.aslinearoperator(kumo.asarray(a)), spla.aslinearoperator(a)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("fmt", FORMATS + ["dense"])
def test_products_of_matrix_operator(dtype, fmt):
    a = sps.random(6, 4, density=0.5, random_state=1, format="csr", dtype=numpy.float64).astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * a.T.T
    k = kla.aslinearoperator(to_kumo(a, fmt) if fmt != "dense" else kumo.asarray(a.toarray()))
    s = spla.aslinearoperator(a)
    x, y = rvec(4, dtype), rvec(6, dtype, seed=1)
    X, Y = dense(4, 3, dtype), dense(6, 3, dtype)
    t = 1e-5 if numpy.dtype(dtype).itemsize <= 8 and dtype != numpy.float64 else 1e-12
    numpy.testing.assert_allclose(np_(k.matvec(kumo.asarray(x))), s.matvec(x), rtol=t)
    numpy.testing.assert_allclose(np_(k.rmatvec(kumo.asarray(y))), s.rmatvec(y), rtol=t)
    numpy.testing.assert_allclose(np_(k.matmat(kumo.asarray(X))), s.matmat(X), rtol=t)
    numpy.testing.assert_allclose(np_(k.rmatmat(kumo.asarray(Y))), s.rmatmat(Y), rtol=t)
    assert k.dtype == s.dtype and k.shape == s.shape


def test_matvec_keeps_column_shape():
    k, s = pair()
    x = rvec(4, numpy.float64).reshape(4, 1)
    assert np_(k.matvec(kumo.asarray(x))).shape == s.matvec(x).shape == (5, 1)
    assert np_(k @ kumo.asarray(x)).shape == (5, 1)


def test_matvec_dimension_mismatch():
    k, _ = pair()
    with pytest.raises(ValueError, match="dimension mismatch"):
        k.matvec(kumo.ones(5))
    with pytest.raises(ValueError, match="dimension mismatch"):
        k.rmatvec(kumo.ones(4))
    with pytest.raises(ValueError, match="dimension mismatch"):
        k.matmat(kumo.ones((5, 2)))
    with pytest.raises(ValueError, match="2-d"):
        k.matmat(kumo.ones(4))


def test_custom_operator_from_functions():
    a = dense(5, 4, numpy.float64)
    ak = kumo.asarray(a)
    op = kla.LinearOperator((5, 4), matvec=lambda x: ak @ x, rmatvec=lambda y: ak.T @ y)
    assert op.dtype == numpy.float64  # found by a matvec on zeros, as SciPy
    x = rvec(4, numpy.float64)
    numpy.testing.assert_allclose(np_(op.matvec(kumo.asarray(x))), a @ x)
    numpy.testing.assert_allclose(np_(op.H.matvec(kumo.ones(5))), a.T @ numpy.ones(5))
    numpy.testing.assert_allclose(np_(op.matmat(kumo.eye(4))), a)
    assert "LinearOperator" in repr(op) and "5x4" in repr(op)


def test_custom_operator_without_rmatvec():
    op = kla.LinearOperator((3, 3), matvec=lambda x: x, dtype=numpy.float64)
    with pytest.raises(NotImplementedError):
        op.rmatvec(kumo.ones(3))


class MatmatOnly(kla.LinearOperator):
    def __init__(self, a):
        super().__init__(a.dtype, a.shape)
        self.a = a

    def _matmat(self, X):
        return self.a @ X


def test_subclass_with_matmat_only():
    a = kumo.asarray(dense(4, 4, numpy.float64))
    op = MatmatOnly(a)
    numpy.testing.assert_allclose(np_(op.matvec(kumo.ones(4))), np_(a @ kumo.ones(4)))
    numpy.testing.assert_allclose(np_(op @ kumo.ones(4)), np_(a @ kumo.ones(4)))


def test_subclass_without_products_warns():
    class Empty(kla.LinearOperator):
        pass

    with pytest.warns(RuntimeWarning, match="_matvec"):
        Empty(numpy.float64, (2, 2))


def test_invalid_shape():
    with pytest.raises(ValueError, match="invalid shape"):
        kla.LinearOperator((2, 3, 4), matvec=lambda x: x)


@pytest.mark.parametrize("expr", ["a + b", "a - b", "a * 2.5", "2.5 * a", "-a", "a @ c", "a * c", "a.H", "a.T",
                                  "a / 2", "(a @ c) ** 3", "3j * a", "a.H @ a"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex128])
def test_algebra_matches_scipy(expr, dtype):
    an, bn, cn = dense(4, 4, dtype, 0), dense(4, 4, dtype, 1), dense(4, 4, dtype, 2)
    k = {"a": kla.aslinearoperator(kumo.asarray(an)), "b": kla.aslinearoperator(kumo.asarray(bn)),
         "c": kla.aslinearoperator(kumo.asarray(cn))}
    s = {"a": spla.aslinearoperator(an), "b": spla.aslinearoperator(bn), "c": spla.aslinearoperator(cn)}
    ko, so = eval(expr, {}, k), eval(expr, {}, s)
    assert ko.shape == so.shape
    assert ko.dtype == so.dtype
    x = rvec(4, numpy.complex128, seed=4)
    numpy.testing.assert_allclose(np_(ko.matvec(kumo.asarray(x))), so.matvec(x), rtol=1e-12)
    numpy.testing.assert_allclose(np_(ko.rmatvec(kumo.asarray(x))), so.rmatvec(x), rtol=1e-12)
    numpy.testing.assert_allclose(np_(ko.matmat(kumo.asarray(x.reshape(4, 1)))), so.matmat(x.reshape(4, 1)),
                                  rtol=1e-12)


def test_power_zero_is_identity():
    k, _ = pair(4, 4)
    x = kumo.asarray(rvec(4, numpy.float64))
    numpy.testing.assert_array_equal(np_((k ** 0).matvec(x)), np_(x))


def test_algebra_errors():
    k, _ = pair(5, 4)
    sq, _ = pair(4, 4)
    with pytest.raises(ValueError, match="shape mismatch"):
        k + sq
    with pytest.raises(ValueError, match="shape mismatch"):
        k @ k
    with pytest.raises(ValueError, match="square"):
        k ** 2
    with pytest.raises(ValueError, match="non-negative"):
        sq ** -1
    with pytest.raises(ValueError, match="Scalar operands"):
        k @ 2.0


def test_operator_times_array_and_array_times_operator():
    a = dense(5, 4, numpy.float64)
    k = kla.aslinearoperator(kumo.asarray(a))
    X = dense(4, 3, numpy.float64)
    numpy.testing.assert_allclose(np_(k * kumo.asarray(X)), a @ X)
    numpy.testing.assert_allclose(np_(k(kumo.asarray(X))), a @ X)
    y = rvec(5, numpy.float64)
    numpy.testing.assert_allclose(np_(kumo.asarray(y) @ k), y @ a)
    Y = dense(2, 5, numpy.float64)
    numpy.testing.assert_allclose(np_(Y @ k), Y @ a)


def test_aslinearoperator_of_objects():
    a = dense(3, 3, numpy.float64)
    assert kla.aslinearoperator(kla.aslinearoperator(a)).shape == (3, 3)
    assert kla.aslinearoperator(sps.csr_matrix(a)).shape == (3, 3)
    with pytest.raises(ValueError, match="ndim"):
        kla.aslinearoperator(numpy.ones((2, 2, 2)))
    with pytest.raises(TypeError, match="type not understood"):
        kla.aslinearoperator("not an operator")

    class Duck:
        shape = (3, 3)
        dtype = numpy.dtype(numpy.float64)

        def matvec(self, x):
            return 2 * x

    numpy.testing.assert_allclose(np_(kla.aslinearoperator(Duck()).matvec(kumo.ones(3))), 2 * numpy.ones(3))


def test_identity_operator():
    op = kla.IdentityOperator((3, 3), dtype=numpy.float64)
    x = kumo.asarray(rvec(3, numpy.float64))
    numpy.testing.assert_array_equal(np_(op.matvec(x)), np_(x))
    assert op.H is op
