"""DIA methods SciPy's dia_array/dia_matrix have (found missing by the sparse differential harness,
tests/differential/sparse): reductions, trace, nonzero, setdiag, the elementwise functions, abs, round,
power, maximum/minimum, comparisons, reshape, resize; and the ones SciPy's DIA lacks (max/min and their
arg/nan forms, the canonical-form methods). Each compared against SciPy 1.17."""
import warnings

import numpy
import pytest
import scipy.sparse as sps

import kumo
import kumo.sparse as ks

# Diagonals running off the matrix: the places outside (data[1, 0], data[2, 3:]) must not count. (SciPy's
# DIA sum along axis 0 fails on data wider than the matrix, so the data here is as wide as it.)
DATA = numpy.array([[1, 2, 0, 4, 9], [9, -3, 5, 0, 1], [7, 0, -2, 9, 9]])
OFFSETS = numpy.array([0, 1, -2])
SHAPE = (4, 5)
KINDS = ["dia_array", "dia_matrix"]


def both(cls, dtype="float64", data=DATA, offsets=OFFSETS, shape=SHAPE):
    d = data.astype(dtype)
    n = getattr(sps, cls)((d, offsets), shape=shape)
    k = getattr(ks, cls)((kumo.asarray(d), kumo.asarray(offsets)), shape=shape)
    return n, k


def same(n, k):
    if sps.issparse(n):
        assert ks.issparse(k) and k.format == n.format, (type(n), type(k))
        assert isinstance(k, ks.sparray) == isinstance(n, sps.sparray)
        assert k.dtype == n.dtype and k.shape == n.shape, (k.dtype, n.dtype, k.shape, n.shape)
        numpy.testing.assert_allclose(kumo.asnumpy(k.toarray()), n.toarray(), rtol=1e-6)
    elif isinstance(n, tuple):
        assert len(n) == len(k)
        order_n = numpy.lexsort(n[::-1])
        order_k = numpy.lexsort([kumo.asnumpy(x) for x in k[::-1]])
        for a, b in zip(n, k):
            numpy.testing.assert_array_equal(kumo.asnumpy(b)[order_k], a[order_n])
    else:
        kv = kumo.asnumpy(k) if hasattr(k, "__dlpack__") and not isinstance(k, numpy.generic) else k
        nv = numpy.asarray(n)
        kv = numpy.asarray(kv)
        assert kv.shape == nv.shape and kv.dtype == nv.dtype, (kv.shape, nv.shape, kv.dtype, nv.dtype)
        numpy.testing.assert_allclose(kv, nv, rtol=1e-6)


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("dtype", ["float64", "int16", "bool", "complex128", "uint8"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("op", ["sum", "mean"])
def test_reductions(cls, dtype, axis, op):
    # Explicit dtype= only where the SciPy form is the same accumulator (the harness compares the rest).
    n, k = both(cls, dtype)
    same(getattr(n, op)(axis=axis), getattr(k, op)(axis=axis))


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
@pytest.mark.parametrize("offset", [0, 1, -2, 3, -3])
def test_trace(cls, dtype, offset):
    n, k = both(cls, dtype)
    same(n.trace(offset=offset), k.trace(offset=offset))


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("dtype", ["float64", "int8"])
def test_nonzero(cls, dtype):
    n, k = both(cls, dtype)
    same(n.nonzero(), tuple(k.nonzero()))


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("values,k_", [(7.0, 0), ([1, 2, 3], 1), (5, -1), ([8, 9], 2), (0, 0)])
def test_setdiag_stays_dia(cls, values, k_):
    n, k = both(cls, "float64")
    n.setdiag(values, k_)
    k.setdiag(values, k_)
    same(n, k)


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("fn", ["sin", "tan", "arcsinh", "arctan", "tanh", "sinh", "expm1", "log1p", "sqrt",
                                "deg2rad", "rad2deg", "sign", "floor", "ceil", "trunc", "rint", "__abs__"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_elementwise_functions(cls, fn, dtype):
    data = numpy.abs(DATA) if fn in ("sqrt", "log1p") else DATA
    if fn in ("sin", "tan", "arcsinh", "arctan", "tanh", "sinh", "expm1", "log1p", "sqrt") and dtype != "int32":
        data = data / 10.0
    n, k = both(cls, dtype, data=data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        same(getattr(n, fn)(), getattr(k, fn)())


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("ndigits", [0, 1])
def test_round(cls, ndigits):
    n, k = both(cls, "float64", data=DATA / 4.0)
    same(round(n, ndigits), round(k, ndigits))


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("p,dtype", [(2, None), (3, "float64"), (0.5, None), (-1, None)])
def test_power(cls, p, dtype):
    n, k = both(cls, "float64", data=numpy.abs(DATA) + 1)
    same(n.power(p, dtype=dtype), k.power(p, dtype=dtype))


def test_array_pow_is_power():
    n, k = both("dia_array", "float64")
    same(n ** 2, k ** 2)


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("name", ["maximum", "minimum"])
@pytest.mark.parametrize("other", [0, 2, -1, "sparse", "dense"])
def test_maximum_minimum(cls, name, other):
    n, k = both(cls, "float64")
    if other == "sparse":
        d = numpy.vstack([DATA, DATA[:1]])[::-1].astype(float)
        no, ko = sps.csr_array(d), ks.csr_array(kumo.asarray(d))
    elif other == "dense":
        no = numpy.vstack([DATA, DATA[:1]])[::-1].astype(float)
        ko = kumo.asarray(no)
    else:
        no = ko = other
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(getattr(n, name)(no), getattr(k, name)(ko))


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("op", ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"])
@pytest.mark.parametrize("other", [0, 1, -1, "sparse"])
def test_comparisons(cls, op, other):
    n, k = both(cls, "float64")
    if other == "sparse":
        no, ko = both(cls, "float64", data=DATA[::-1])
    else:
        no = ko = other
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(getattr(n, op)(no), getattr(k, op)(ko))


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("shape,order", [((5, 4), "C"), ((2, 10), "F"), ((20, 1), "C"), ((4, 5), "C")])
def test_reshape(cls, shape, order):
    n, k = both(cls, "float64")
    same(n.reshape(shape, order=order), k.reshape(shape, order=order))


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("shape", [(2, 3), (6, 7), (4, 5)])
def test_resize(cls, shape):
    n, k = both(cls, "float64")
    n.resize(shape)
    k.resize(shape)
    same(n, k)


@pytest.mark.parametrize("cls", KINDS)
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin", "nanmax", "nanmin", "sum_duplicates",
                                  "eliminate_zeros"])
def test_methods_scipy_dia_lacks(cls, name):
    n, k = both(cls, "float64")
    assert not hasattr(n, name)
    assert not hasattr(k, name)
    with pytest.raises(AttributeError):
        getattr(k, name)
