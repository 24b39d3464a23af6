"""Helpers shared by the kumo.linalg tests: inputs in several memory layouts
and comparisons with NumPy's results."""
import numpy

import kumo

DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]
LAYOUTS = ["c", "transposed", "negative"]


def rand(shape, dtype, seed=0, diag=0.0):
    """Random values of any numeric dtype (small integers for integer and
    bool types); `diag` is added to the diagonal to keep matrices well conditioned."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind in "biu":
        lo = 0 if dt.kind in "bu" else -5
        return rng.integers(lo, 2 if dt.kind == "b" else 6, size=shape).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if diag and len(shape) >= 2:
        x = x + diag * numpy.eye(shape[-2], shape[-1])
    return x.astype(dt)


def to_kumo(x, layout="c"):
    """A kumo array with x's values in the given memory layout."""
    if layout == "c" or x.ndim < 2:
        return kumo.asarray(numpy.array(x, order="C"))
    if layout == "transposed":
        return kumo.asarray(numpy.ascontiguousarray(x.swapaxes(-1, -2))).swapaxes(-1, -2)
    if layout == "negative":
        return kumo.asarray(numpy.ascontiguousarray(x[..., ::-1, :]))[..., ::-1, :]
    raise ValueError(layout)


def host(k):
    assert isinstance(k, kumo.ndarray), type(k)
    return kumo.asnumpy(k)


def make_check(default_tol):
    """A comparison with NumPy's result `n`: same shape (and dtype unless
    dtype=False), values within tol relative to the result's magnitude."""
    def check(k, n, tol=None, dtype=True):
        got = host(k)
        n = numpy.asarray(n)
        assert got.shape == n.shape, (got.shape, n.shape)
        if dtype:
            assert got.dtype == n.dtype, (got.dtype, n.dtype)
        tol = default_tol(n.dtype) if tol is None else tol
        numpy.testing.assert_allclose(got, n, rtol=tol, atol=tol * max(1.0, float(numpy.abs(n).max(initial=0))))
    return check
