"""Histograms, order statistics and correlations.

The work is C++ (``kumo._core.statistics``: routines/histogram.h,
routines/quantile.h, routines/correlate.h, linalg/covariance.h); this module converts array-likes
and keyword arguments (the ``bins`` and ``range`` forms, Python-scalar ``q``).
"""
import operator
import warnings

import numpy

from kumo import _core
from kumo._creation import asarray
from kumo._manipulation import stack

_s = _core.statistics
ndarray = _core.ndarray

__all__ = ["bincount", "digitize", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd",
           "median", "nanmedian", "quantile", "nanquantile", "percentile", "nanpercentile"]


def _opt(a):
    return None if a is None else asarray(a)


def bincount(x, weights=None, minlength=0):
    if minlength is None:
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    xa = asarray(x)
    if not isinstance(x, (ndarray, numpy.ndarray)) and xa.dtype.kind == "f":
        # NumPy 2.1+ still casts a sequence of floats, with a warning.
        warnings.warn("Non-integer input passed to bincount. In a future version of NumPy, this will be an error. "
                      "(Deprecated NumPy 2.1)", DeprecationWarning, stacklevel=2)
        xa = xa.astype(numpy.int64)
    return _s.bincount(xa, _opt(weights), operator.index(minlength))


def digitize(x, bins, right=False):
    return _s.digitize(asarray(x), asarray(bins), bool(right))


def _bins_arg(bins):
    """An int, an estimator name, or an array of edges."""
    if isinstance(bins, str):
        return bins
    if isinstance(bins, ndarray):
        return bins if bins.ndim else _bins_arg(bins.item())
    if numpy.ndim(bins) == 0:
        try:
            return operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
    return asarray(bins)


def _range_arg(range):
    if range is None:
        return None
    lo, hi = range
    return (float(lo), float(hi))


def _hist_input(a):
    a = asarray(a)
    if a.dtype == numpy.bool_:
        # The C++ routine counts booleans as uint8, as NumPy does after this warning.
        warnings.warn("Converting input from bool to <class 'numpy.uint8'> for compatibility.", RuntimeWarning,
                      stacklevel=3)
    return a


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    return _s.histogram_bin_edges(_hist_input(a), _bins_arg(bins), _range_arg(range), _opt(weights))


def histogram(a, bins=10, range=None, density=None, weights=None):
    return _s.histogram(_hist_input(a), _bins_arg(bins), _range_arg(range), bool(density), _opt(weights))


def _dd_bins(bins, D):
    try:
        M = len(bins)
    except TypeError:
        return [_dd_bin(bins, 0)] * D
    if isinstance(bins, ndarray) and bins.ndim == 0:
        return [_dd_bin(bins, 0)] * D
    if M != D:
        raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    return [_dd_bin(b, i) for i, b in enumerate(bins)]


def _dd_bin(b, i):
    if isinstance(b, ndarray) and b.ndim == 0:
        b = b.item()
    if numpy.ndim(b) == 0:
        if b < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        try:
            return operator.index(b)
        except TypeError as e:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
    return asarray(b)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    if isinstance(sample, ndarray) or hasattr(sample, "shape"):
        sample = asarray(sample)
        if sample.ndim < 2:
            sample = sample.reshape(-1, 1)
    else:
        sample = stack([asarray(s) for s in sample], axis=-1) if len(sample) else asarray(sample)
        if sample.ndim < 2:
            sample = sample.reshape(-1, 1)
    D = sample.shape[1]
    b = _dd_bins(bins, D)
    if range is None:
        ranges = []
    else:
        if len(range) != D:
            raise ValueError("range argument must have one entry per dimension")
        ranges = [None if r is None else _range_arg(r) for r in range]
    hist, edges = _s.histogramdd(sample, b, ranges, bool(density), _opt(weights))
    return hist, list(edges)


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    x, y = asarray(x), asarray(y)
    if x.shape != y.shape:
        raise ValueError("x and y must have the same shape")  # NumPy fails while stacking them
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N not in (1, 2):
        xedges = yedges = asarray(bins)
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


# ---- order statistics ---------------------------------------------------------------------

def _q(q):
    """q as an array, and whether it was a Python int or float (NEP 50 weak)."""
    weak = type(q) in (int, float)
    return asarray(q), weak


def _ret(r, out):
    return r if out is None else out


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _ret(_s.median(asarray(a), axis, out, bool(overwrite_input), bool(keepdims)), out)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _ret(_s.nanmedian(asarray(a), axis, out, bool(overwrite_input), bool(keepdims)), out)


def _quantile_fn(fn):
    def f(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
        qa, weak = _q(q)
        return _ret(fn(asarray(a), qa, axis, method, out, bool(overwrite_input),
                       bool(keepdims), _opt(weights), weak), out)
    return f


quantile = _quantile_fn(_s.quantile)
quantile.__name__ = "quantile"
percentile = _quantile_fn(_s.percentile)
percentile.__name__ = "percentile"
nanquantile = _quantile_fn(_s.nanquantile)
nanquantile.__name__ = "nanquantile"
nanpercentile = _quantile_fn(_s.nanpercentile)
nanpercentile.__name__ = "nanpercentile"


# ---- correlations and cumulative functions ---------------------------------------------------

__all__ += ["correlate", "convolve", "cov", "corrcoef", "cumulative_sum", "cumulative_prod"]

_MODES = {0: "valid", 1: "same", 2: "full"}


def _mode(mode):
    return _MODES.get(mode, mode) if not isinstance(mode, bool) else mode


def correlate(a, v, mode="valid"):
    return _s.correlate(asarray(a), asarray(v), _mode(mode))


def convolve(a, v, mode="full"):
    return _s.convolve(asarray(a), asarray(v), _mode(mode))


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    if ddof is not None:
        if ddof != int(ddof):
            raise ValueError("ddof must be integer")
        ddof = int(ddof)
    return _s.cov(asarray(m), _opt(y), bool(rowvar), bool(bias), ddof, _opt(fweights), _opt(aweights), dtype)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    return _s.corrcoef(asarray(x), _opt(y), bool(rowvar), dtype)


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _ret(_s.cumulative_sum(asarray(x), axis, dtype, out, bool(include_initial)), out)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _ret(_s.cumulative_prod(asarray(x), axis, dtype, out, bool(include_initial)), out)
