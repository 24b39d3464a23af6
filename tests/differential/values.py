"""Values per dtype and per value domain, drawn from a seeded Generator.

A domain names the values an operation is fed:
  "full"     every value the dtype has that matters: NaN, +-inf, -0.0,
             integer extremes, the largest and smallest floats, small ints;
  "special"  small values plus NaN, +-inf and -0.0 (no overflow-prone
             magnitudes: for reductions, whose summation order may differ);
  "small"    small integers (exact in every dtype, valid for bool/unsigned);
  "positive" small positive values (logs, roots, bins);
  "unit"     values in [-1, 1] (arcsin, arctanh);
  "nonzero"  small values without zero (divisors, inverses);
  "index"    non-negative small ints (bincount).
"""
import numpy

BOOL = ["bool"]
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
INTS = SIGNED + UNSIGNED
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
REAL = BOOL + INTS + FLOATS
NUMERIC = INTS + FLOATS + COMPLEX
ALL = BOOL + NUMERIC
INEXACT = FLOATS + COMPLEX


def _specials(dt, domain):
    """The edge values of dtype `dt` that domain `domain` admits."""
    if dt.kind == "b":
        return [False, True]
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        vals = [0, 1, 2, 3]
        if dt.kind == "i":
            vals += [-1, -2, -3]
        if domain == "full":
            vals += [info.min, info.max, info.max - 1, info.min + 1]
        return vals
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 3.0]
    if domain in ("full", "special"):
        vals += [numpy.nan, numpy.inf, -numpy.inf]
    if domain == "full":
        info = numpy.finfo(dt.char.lower() if dt.kind == "c" else dt)
        vals += [float(info.max), -float(info.max), float(info.tiny), float(info.smallest_subnormal)]
    return vals


def values(rng, shape, dtype, domain="small"):
    """A C-contiguous NumPy array of `shape` and `dtype` drawn from `domain`."""
    dt = numpy.dtype(dtype)
    shape = tuple(shape)
    n = int(numpy.prod(shape, dtype=numpy.int64))
    if dt.kind == "b":
        return (rng.integers(0, 2, size=n) > 0).reshape(shape)
    if domain == "index":
        return rng.integers(0, 6, size=n).astype(dt).reshape(shape)
    if domain == "positive":
        v = rng.integers(1, 9, size=n) * (0.5 if dt.kind in "fc" else 1)
    elif domain == "nonzero":
        v = rng.integers(1, 5, size=n) * rng.choice([-1, 1] if dt.kind != "u" else [1], size=n)
    elif domain == "unit":
        v = rng.integers(-4, 5, size=n) / 4.0 if dt.kind in "fc" else rng.integers(0, 2, size=n)
    else:
        lo = 0 if dt.kind == "u" else -4
        v = rng.integers(lo, 5, size=n).astype(numpy.float64)
        if dt.kind in "fc":
            v = v + rng.integers(0, 4, size=n) * 0.25
        if domain in ("full", "special"):
            edge = _specials(dt, domain)
            pick = rng.random(n) < 0.3
            v = numpy.where(pick, numpy.array(edge, dtype=object)[rng.integers(0, len(edge), size=n)], v.astype(object))
    with numpy.errstate(all="ignore"):
        if dt.kind == "c":
            re = numpy.asarray(v, dtype=numpy.float64)
            im = values(rng, (n,), numpy.float64, domain if domain != "positive" else "small")
            if domain == "positive":
                im = numpy.abs(im)
            out = (re + 1j * im).astype(dt)
        elif dt.kind in "iu":
            out = numpy.array([int(x) for x in numpy.ravel(v)], dtype=object).astype(dt) if n else numpy.zeros(0, dt)
        else:
            out = numpy.asarray(v, dtype=numpy.float64).astype(dt)
    return out.reshape(shape)


def scalar(rng, dtype, domain="small"):
    """A Python scalar (bool, int, float or complex) of the kind of `dtype`."""
    v = values(rng, (1,), dtype, domain)[0]
    return v.item()
