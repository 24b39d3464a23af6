"""kumo.linalg.norm, vector_norm and matrix_norm against NumPy: every ord,
axis forms, keepdims, result dtypes and errors."""
import numpy
import pytest

import kumo
import kumo.linalg as KL
from linalg_testing import DTYPES, rand, to_kumo

VECTOR_ORDS = [None, 0, 1, -1, 2, -2, 3, 0.5, numpy.inf, -numpy.inf]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, numpy.inf, -numpy.inf]


def check(k, n, tol=None):
    assert isinstance(k, kumo.ndarray), type(k)
    got = kumo.asnumpy(k)
    n = numpy.asarray(n)
    assert got.shape == n.shape, (got.shape, n.shape)
    assert got.dtype == n.dtype, (got.dtype, n.dtype)
    if tol is None:
        tol = {numpy.float16: 5e-3, numpy.float32: 2e-5}.get(n.dtype.type, 1e-12)
    numpy.testing.assert_allclose(got, n, rtol=tol, atol=tol * max(1.0, float(numpy.abs(n).max(initial=0))))


# ---------------------------------------------------------------- vector norms
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", VECTOR_ORDS)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_vector_norm_along_axis(dtype, ord, axis):
    x = rand((3, 5, 4), dtype)
    check(KL.norm(to_kumo(x), ord, axis=axis), numpy.linalg.norm(x, ord, axis=axis))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint16, numpy.int64, numpy.bool_, numpy.float16])
@pytest.mark.parametrize("ord", VECTOR_ORDS)
def test_vector_norm_other_dtypes(dtype, ord):
    x = rand((6,), dtype, seed=1)
    x[0] = 1  # no zero vector: negative orders stay finite
    check(KL.norm(to_kumo(x), ord), numpy.linalg.norm(x, ord))


@pytest.mark.parametrize("ord", VECTOR_ORDS)
def test_vector_norm_keepdims(ord):
    x = rand((3, 4), numpy.complex128)
    check(KL.norm(to_kumo(x), ord, axis=1, keepdims=True), numpy.linalg.norm(x, ord, axis=1, keepdims=True))


@pytest.mark.parametrize("layout", ["transposed", "negative"])
@pytest.mark.parametrize("ord", [None, 1, numpy.inf, 3])
def test_vector_norm_strided(layout, ord):
    x = rand((4, 6), numpy.float64)
    check(KL.norm(to_kumo(x, layout), ord, axis=0), numpy.linalg.norm(x, ord, axis=0))


@pytest.mark.parametrize("ord", [None, 2])
def test_vector_norm_1d_default_axis(ord):
    x = rand((7,), numpy.complex64)
    check(KL.norm(to_kumo(x), ord), numpy.linalg.norm(x, ord))


@pytest.mark.parametrize("shape", [(0,), (2, 0)])
@pytest.mark.parametrize("ord", [None, 1, 2, 0, numpy.inf])
def test_vector_norm_empty(shape, ord):
    x = numpy.zeros(shape)
    check(KL.norm(to_kumo(x), ord, axis=-1), numpy.linalg.norm(x, ord, axis=-1))


def test_vector_norm_min_of_empty_raises():
    with pytest.raises(ValueError):
        KL.norm(kumo.zeros((0,)), -numpy.inf)


@pytest.mark.parametrize("ord", ["fro", "nuc"])
def test_vector_norm_string_ord(ord):
    with pytest.raises(ValueError, match="Invalid norm order '%s' for vectors" % ord):
        KL.norm(kumo.ones((2, 3)), ord, axis=1)


# ---------------------------------------------------------------- full-array norm
@pytest.mark.parametrize("dtype", DTYPES + [numpy.int32])
@pytest.mark.parametrize("shape", [(), (5,), (3, 4), (2, 3, 4)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_norm_default(dtype, shape, keepdims):
    x = rand(shape, dtype)
    check(KL.norm(to_kumo(x), keepdims=keepdims), numpy.linalg.norm(x, keepdims=keepdims))


# ---------------------------------------------------------------- matrix norms
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", MATRIX_ORDS)
def test_matrix_norm_2d(dtype, ord):
    x = rand((5, 3), dtype)
    check(KL.norm(to_kumo(x), ord), numpy.linalg.norm(x, ord))


@pytest.mark.parametrize("ord", MATRIX_ORDS)
@pytest.mark.parametrize("axis", [(0, 1), (1, 0), (-1, 0), (2, 0), (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm_axes(ord, axis, keepdims):
    x = rand((3, 4, 5), numpy.float64)
    check(KL.norm(to_kumo(x), ord, axis=axis, keepdims=keepdims),
          numpy.linalg.norm(x, ord, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("layout", ["transposed", "negative"])
@pytest.mark.parametrize("ord", MATRIX_ORDS)
def test_matrix_norm_strided(layout, ord):
    x = rand((2, 4, 6), numpy.complex128)
    check(KL.norm(to_kumo(x, layout), ord, axis=(-2, -1)), numpy.linalg.norm(x, ord, axis=(-2, -1)))


@pytest.mark.parametrize("ord", [None, "fro", 1, numpy.inf])
@pytest.mark.parametrize("dtype", [numpy.int16, numpy.float16])
def test_matrix_norm_other_dtypes(ord, dtype):
    x = rand((3, 4), dtype)
    check(KL.norm(to_kumo(x), ord), numpy.linalg.norm(x, ord))


def test_matrix_norm_spectral_float16_unsupported():
    with pytest.raises(TypeError, match="unsupported in linalg"):
        KL.norm(kumo.ones((2, 2), dtype=numpy.float16), 2)


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, 2, numpy.inf])
def test_matrix_norm_empty(ord):
    x = numpy.zeros((2, 0, 3))
    check(KL.norm(to_kumo(x), ord, axis=(1, 2)), numpy.linalg.norm(x, ord, axis=(1, 2)))


def test_matrix_norm_invalid_ord():
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        KL.norm(kumo.ones((2, 2)), 3)


def test_norm_duplicate_axes():
    with pytest.raises(ValueError, match="Duplicate axes given"):
        KL.norm(kumo.ones((2, 2)), axis=(1, -1))


def test_norm_three_axes():
    with pytest.raises(ValueError, match="Improper number of dimensions to norm"):
        KL.norm(kumo.ones((2, 2, 2)), 1)


def test_norm_axis_out_of_range():
    with pytest.raises(numpy.exceptions.AxisError):
        KL.norm(kumo.ones((2, 2)), axis=(0, 2))
    with pytest.raises(numpy.exceptions.AxisError):
        KL.norm(kumo.ones((2, 2)), axis=5)


def test_norm_axis_type():
    with pytest.raises(TypeError, match="'axis' must be None, an integer or a tuple of integers"):
        KL.norm(kumo.ones((2, 2)), axis="x")


# ---------------------------------------------------------------- array API forms
@pytest.mark.parametrize("ord", [2, 1, 0, numpy.inf, -numpy.inf, 3])
@pytest.mark.parametrize("axis", [None, 1, (0, 2), (2, 0)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norm_function(ord, axis, keepdims):
    x = rand((2, 3, 4), numpy.complex64)
    check(KL.vector_norm(to_kumo(x), axis=axis, keepdims=keepdims, ord=ord),
          numpy.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord), tol=1e-5)


def test_vector_norm_function_int_input():
    x = numpy.arange(-3, 5, dtype=numpy.int8)
    check(KL.vector_norm(to_kumo(x)), numpy.linalg.vector_norm(x))


@pytest.mark.parametrize("ord", MATRIX_ORDS[1:])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm_function(ord, keepdims):
    x = rand((2, 3, 4), numpy.float32)
    check(KL.matrix_norm(to_kumo(x), ord=ord, keepdims=keepdims),
          numpy.linalg.matrix_norm(x, ord=ord, keepdims=keepdims), tol=1e-5)
