"""Distributions drawn as a mixture of a continuous and a discrete one: the
noncentral chi-square and F (Poisson-weighted sums over the central ones) and
the negative binomial (Poisson with a Gamma-distributed mean). They use the
samplers of both _continuous and _discrete, which do not import each other.
"""
import math

from kumo import _searching
from kumo import _ufuncs as uf
from kumo.random import _common
from kumo.random import _continuous
from kumo.random import _discrete
from kumo.random._common import (CONS_BOUNDED_GT_0_1, CONS_NON_NEGATIVE, CONS_POSITIVE, CONS_POSITIVE_NOT_NAN,
                                 POISSON_LAM_MAX, check, is_scalar, output_shape)
from kumo.random._continuous import _key, _launch, _on_device, _param
from kumo.random._discrete import _empty_int, _float_param, _get, _param_any

__all__ = ["noncentral_chisquare", "noncentral_f", "negative_binomial"]


def _poisson_counts(bg, nonc, shape):
    """k ~ Poisson(nonc / 2) per output element (0 where nonc is NaN, which
    the kernels turn into NaN results as NumPy does)."""
    if is_scalar(nonc):
        lam = 0.0 if nonc != nonc else 0.5 * nonc
    else:
        lam = _searching.where(uf.isnan(nonc), 0.0, uf.multiply(nonc, 0.5))
    return _discrete.poisson(bg, lam, size=shape)


# Run on the generator's device, as every _continuous sampler (_on_device).
@_on_device
def noncentral_chisquare(bg, df, nonc, size=None):
    df = _param(bg, df, "df", CONS_POSITIVE)
    nonc = _param(bg, nonc, "nonc", CONS_NON_NEGATIVE)
    shape = output_shape(size, df, nonc)
    k = _poisson_counts(bg, nonc, shape)
    return _launch("noncentral_chisquare", _common.empty(bg, shape), df, nonc, k, _key(bg))


@_on_device
def noncentral_f(bg, dfnum, dfden, nonc, size=None):
    dfnum = _param(bg, dfnum, "dfnum", CONS_POSITIVE)
    dfden = _param(bg, dfden, "dfden", CONS_POSITIVE)
    nonc = _param(bg, nonc, "nonc", CONS_NON_NEGATIVE)
    shape = output_shape(size, dfnum, dfden, nonc)
    k = _poisson_counts(bg, nonc, shape)
    return _launch("noncentral_f", _common.empty(bg, shape), dfnum, dfden, nonc, k, _key(bg))


def negative_binomial(bg, n, p, size=None):
    """Failures before the n-th success: Poisson(Gamma(n, (1 - p) / p))."""
    n = _float_param(bg, n, "n", CONS_POSITIVE_NOT_NAN)
    p = _float_param(bg, p, "p", CONS_BOUNDED_GT_0_1)
    # NumPy's bound: the gamma's mean + 10 sigma must stay a valid Poisson lam.
    if is_scalar(p):
        scale = (1.0 - p) / p
    else:
        scale = uf.divide(uf.subtract(1.0, p), p)
    spread = n + 10.0 * math.sqrt(n) if is_scalar(n) else uf.add(n, uf.multiply(uf.sqrt(n), 10.0))
    bound = scale * spread if is_scalar(scale) and is_scalar(spread) else uf.multiply(spread, scale)
    check(_param_any(bound, lambda b: uf.greater(b, POISSON_LAM_MAX), lambda b: b > POISSON_LAM_MAX),
          "n too large or p too small, see Generator.negative_binomial Notes")
    shape = output_shape(size, n, p)
    out = _empty_int(bg, shape)
    if out.size == 0:
        return out
    gam = _continuous.standard_gamma(bg, n, size=shape)
    lam = uf.multiply(gam, scale)
    _get("poisson")(lam, bg._next_key(), out)
    return out
