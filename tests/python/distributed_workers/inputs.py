"""The arrays each rank contributes in the collective tests, reproducible by
the test (NumPy) from the rank alone."""
import numpy

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
SHAPE = (3, 4)


def make_input(rank, dtype, shape=SHAPE, salt=0):
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng([rank, DTYPES.index(dt.name), salt])
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    lo = 0 if dt.kind == "u" else -20
    v = rng.integers(lo, 20, size=shape).astype(numpy.float64)
    if dt.kind in "fc":
        v = v + rng.integers(0, 4, size=shape) * 0.25
    if dt.kind == "c":
        v = v + 1j * rng.integers(-20, 20, size=shape)
    return v.astype(dt)


def with_nans(rank, dtype):
    """A floating input with NaNs at rank-dependent places (max/min propagate them)."""
    a = make_input(rank, dtype, salt=7)
    a.reshape(-1)[rank % a.size] = numpy.nan
    return a
