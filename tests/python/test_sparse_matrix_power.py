"""kumo.sparse.linalg.matrix_power and ``**`` of the *_matrix classes (the
matrix power) against SciPy 1.17: values, result class and dtype, and its
errors."""
import numpy
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

import kumo.sparse as ks
import kumo.sparse.linalg as kla

FORMATS = ["csr", "csc", "coo", "dia", "bsr"]
DTYPES = [numpy.int64, numpy.float32, numpy.float64, numpy.complex128]


def square(n, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    a = sps.random(n, n, density=0.3, random_state=rng, format="csr")
    a.data = (a.data * 4 - 2).round(1)
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * sps.random(n, n, density=0.2, random_state=rng, format="csr")
    return a.astype(dtype)


def both(fmt, kind, a):
    name = "%s_%s" % (fmt, kind)
    return getattr(ks, name)(getattr(sps, name)(a)), getattr(sps, name)(a)


@pytest.mark.parametrize("power", [0, 1, 2, 3, 6, 7])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_matrix_power_matches_scipy(fmt, dtype, power):
    k, s = both(fmt, "array", square(8, dtype))
    got, want = kla.matrix_power(k, power), spla.matrix_power(s, power)
    assert got.format == want.format
    assert got.dtype == want.dtype
    assert type(got).__name__ == type(want).__name__
    numpy.testing.assert_allclose(got.toarray().get(), want.toarray(), rtol=1e-5)


@pytest.mark.parametrize("power", [0, 2, 5])
@pytest.mark.parametrize("fmt", FORMATS)
def test_matrix_pow_operator_is_the_matrix_power(fmt, power):
    k, s = both(fmt, "matrix", square(6, numpy.float64, seed=2))
    got, want = k ** power, s ** power
    assert type(got).__name__ == type(want).__name__
    numpy.testing.assert_allclose(got.toarray().get(), want.toarray(), rtol=1e-12)


def test_array_pow_operator_stays_elementwise():
    k, s = both("csr", "array", square(6, numpy.float64))
    numpy.testing.assert_allclose((k ** 3).toarray().get(), (s ** 3).toarray(), rtol=1e-12)


def test_empty_matrix():
    k, s = both("csr", "matrix", sps.csr_matrix((0, 0)))
    assert (k ** 3).shape == (s ** 3).shape == (0, 0)


@pytest.mark.parametrize("power,error", [(-1, ValueError), (1.5, ValueError), (2.0, ValueError),
                                         (numpy.array([2]), ValueError)])
def test_bad_exponents_are_scipy_errors(power, error):
    k, s = both("csr", "matrix", square(4, numpy.float64))
    with pytest.raises(error):
        s ** power
    with pytest.raises(error):
        k ** power


def test_non_square_is_a_type_error():
    k, s = both("csr", "matrix", sps.csr_matrix(numpy.ones((2, 3))))
    with pytest.raises(TypeError, match="not square"):
        s ** 2
    with pytest.raises(TypeError, match="not square"):
        k ** 2
