"""Elementwise products of sparse operands whose shapes broadcast (a (1, 1)
operand, a row (1, n) or 1-d (n,), a column (m, 1), a column times a row)
against SciPy 1.17: values, stored entries, shape and format."""
import numpy
import pytest
import scipy.sparse as sps

import kumo.sparse as ks

M, N = 4, 6


def np_(a):
    return a.get() if hasattr(a, "get") else numpy.asarray(a)


def full(fmt, dtype=numpy.float64):
    a = numpy.arange(1.0, M * N + 1).reshape(M, N)
    a[1, 2] = a[3, 0] = 0
    a = a.astype(dtype)
    s = sps.bsr_array(a, blocksize=(2, 3)) if fmt == "bsr" else getattr(sps, fmt + "_array")(a)
    return getattr(ks, fmt + "_array")(s), s


OPERANDS = {
    "scalar": numpy.array([[2.0]]),
    "row": numpy.array([[1.0, 0, 2, 0, 0, -1]]),
    "column": numpy.array([[3.0], [0], [1], [-2]]),
    "1-d": numpy.array([1.0, 0, 2, 0, 0, -1]),
}


def operand(name, fmt):
    v = OPERANDS[name]
    s = sps.coo_array(v) if v.ndim == 1 else getattr(sps, fmt + "_array")(v)
    return getattr(ks, s.format + "_array")(s), s


def check(got, want, check_format=True):
    assert got.shape == want.shape
    if check_format:
        assert got.format == want.format
    numpy.testing.assert_allclose(np_(got.toarray()), want.toarray())
    if want.format != "bsr":
        # SciPy's BSR product keeps the zeros inside blocks; kumo's blocks
        # come from the CSR product, which does not store them.
        assert got.nnz == want.nnz


@pytest.mark.parametrize("name", list(OPERANDS))
@pytest.mark.parametrize("other_fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia", "bsr"])
def test_multiply_broadcasts_like_scipy(fmt, other_fmt, name):
    k, s = full(fmt)
    kv, sv = operand(name, other_fmt)
    got, want = k.multiply(kv), s.multiply(sv)
    check(got, want)
    if want.format == "bsr":
        assert got.blocksize == want.blocksize


@pytest.mark.parametrize("name", list(OPERANDS))
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_star_of_arrays_broadcasts_both_ways(fmt, name):
    k, s = full(fmt)
    kv, sv = operand(name, "csr")
    check(k * kv, s * sv)
    check(kv * k, sv * s, check_format=False)
    numpy.testing.assert_allclose(np_((kv * k).toarray()), (sv * s).toarray())


@pytest.mark.parametrize("dtype", [numpy.int64, numpy.float32, numpy.complex128])
def test_outer_product_of_a_column_and_a_row(dtype):
    kc, sc = (c(numpy.array([[3], [0], [1]], dtype=dtype)) for c in (ks.csr_array, sps.csr_array))
    kr, sr = (c(numpy.array([[1, 0, 2, 5]], dtype=dtype)) for c in (ks.csr_array, sps.csr_array))
    got, want = kc.multiply(kr), sc.multiply(sr)
    assert got.dtype == want.dtype
    check(got, want)
    check(kr.multiply(kc), sr.multiply(sc))


def test_matrix_multiply_method_broadcasts():
    k, s = ks.csr_matrix(full("csr")[1]), full("csr")[1]
    kv, sv = ks.csr_matrix(OPERANDS["row"]), sps.csr_matrix(OPERANDS["row"])
    got, want = k.multiply(kv), sps.csr_matrix(s).multiply(sv)
    assert type(got).__name__ == type(want).__name__
    numpy.testing.assert_allclose(np_(got.toarray()), want.toarray())


@pytest.mark.parametrize("shape", [(3, N), (M, 2), (2, 1), (1, 4)])
def test_shapes_that_do_not_broadcast_are_value_errors(shape):
    k, s = full("csr")
    other = numpy.ones(shape)
    with pytest.raises(ValueError):
        s.multiply(sps.csr_array(other))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        k.multiply(ks.csr_array(other))


def test_one_element_1d_operand_scales_a_1d_array():
    kv, sv = ks.coo_array(numpy.array([1.0, 0, 2])), sps.coo_array(numpy.array([1.0, 0, 2]))
    kw, sw = ks.coo_array(numpy.array([2.0])), sps.coo_array(numpy.array([2.0]))
    for got, want in [(kv * kw, sv * sw), (kw * kv, sw * sv), (kv.multiply(kw), sv.multiply(sw))]:
        check(got, want)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        kv * ks.coo_array(numpy.array([2.0, 1.0]))
