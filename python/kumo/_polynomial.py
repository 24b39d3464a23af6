"""numpy's legacy polynomial API over kumo arrays: poly1d and the functions
poly, roots, polyval, polyfit, polyadd, polysub, polymul, polydiv, polyder and
polyint.

Coefficients are kumo arrays (highest power first) on the current device and
every step is a kumo operation: products are one scatter-add of the outer
product, roots the eigenvalues of the companion matrix (kumo.linalg.eigvals),
fits a least-squares solve (kumo.linalg.lstsq). Only what depends on data
(the number of leading zeros, polydiv's trimming, printing) reads values on
the host.
"""
import operator
import re
import warnings

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import arange, asarray, diag, ones, zeros
from kumo._manipulation import concatenate
from kumo._numeric import allclose
from kumo._sorting import sort
from kumo.linalg import eigvals, inv, lstsq

ndarray = _core.ndarray


def _coeffs(a):
    """The coefficient array of a poly1d or array-like, at least 1-d."""
    if isinstance(a, poly1d):
        return a.coeffs
    a = asarray(a)
    return a.reshape(1) if a.ndim == 0 else a


def _trim_leading_zeros(c):
    nz = uf.not_equal(c, 0).nonzero()[0]
    if nz.size == 0:
        return c[:0]
    return c[int(nz[0]):]


def _convolve(a, b):
    """Full 1-d convolution: out[k] = sum over i + j == k of a[i] b[j]."""
    if a.size == 0:
        raise ValueError("a cannot be empty")
    if b.size == 0:
        raise ValueError("v cannot be empty")
    products = uf.multiply(a[:, None], b[None, :])
    out = zeros(a.size + b.size - 1, dtype=products.dtype)
    positions = uf.add(arange(a.size)[:, None], arange(b.size)[None, :])
    uf.add.at(out, positions, products)
    return out


def _min_float_code(dt):
    # numpy.mintypecode over 'GDFgdf': float32/complex64/float64/complex128 stay, the rest become float64.
    return dt if dt.char in "fdFD" else numpy.dtype(numpy.float64)


def poly(seq_of_zeros):
    z = _coeffs(seq_of_zeros)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = eigvals(z)
    elif z.ndim == 1:
        z = z.astype(_min_float_code(numpy.dtype(z.dtype)))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    dt = numpy.dtype(z.dtype)
    a = ones(1, dtype=dt)
    zero1 = zeros(1, dtype=dt)
    for i in range(z.shape[0]):
        # a * (x - z_i): the same products and sums as a convolution with [1, -z_i].
        a = uf.add(concatenate([a, zero1]), uf.multiply(concatenate([zero1, a]), uf.negative(z[i])))
    if dt.kind == "c":
        r = z.astype(numpy.complex128)
        if bool(uf.equal(sort(r), sort(uf.conjugate(r))).all()):
            a = a.real.copy()
    return a


def roots(p):
    p = _coeffs(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = uf.not_equal(p, 0).nonzero()[0]
    if nz.size == 0:
        return zeros(0)
    first, last = int(nz[0]), int(nz[-1])
    trailing = p.shape[0] - last - 1
    p = p[first:last + 1]
    if numpy.dtype(p.dtype).kind not in "fc":
        p = p.astype(numpy.float64)
    N = p.shape[0]
    if N > 1:
        A = diag(ones(N - 2, dtype=p.dtype), -1)
        A[0, :] = uf.divide(uf.negative(p[1:]), p[0])
        r = eigvals(A)
    else:
        r = zeros(0)
    return concatenate([r, zeros(trailing, dtype=r.dtype)])


def polyval(p, x):
    p = _coeffs(p)
    if isinstance(x, poly1d):
        y = 0
    else:
        x = asarray(x)
        y = zeros(x.shape, dtype=x.dtype)
    # Horner's scheme, one step per coefficient.
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def polyadd(a1, a2):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = _coeffs(a1), _coeffs(a2)
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = concatenate([zeros(diff, dtype=a1.dtype), a1])
    elif diff < 0:
        a2 = concatenate([zeros(-diff, dtype=a2.dtype), a2])
    val = a1 + a2
    return poly1d(val) if truepoly else val


def polysub(a1, a2):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = _coeffs(a1), _coeffs(a2)
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = concatenate([zeros(diff, dtype=a1.dtype), a1])
    elif diff < 0:
        a2 = concatenate([zeros(-diff, dtype=a2.dtype), a2])
    val = a1 - a2
    return poly1d(val) if truepoly else val


def polymul(a1, a2):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    val = _convolve(poly1d(a1).coeffs, poly1d(a2).coeffs)
    return poly1d(val) if truepoly else val


def polydiv(u, v):
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = _coeffs(u) + 0.0
    v = _coeffs(v) + 0.0
    w_dtype = (u[0] + v[0]).dtype
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = zeros(max(m - n + 1, 1), dtype=w_dtype)
    r = u.astype(w_dtype)
    # Long division: each step removes the leading term of the remainder.
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] = r[k:k + n + 1] - d * v
    while r.shape[-1] > 1 and allclose(r[0], 0, rtol=1e-14):
        r = r[1:]
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


def polyder(p, m=1):
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    val = _coeffs(p)
    for _ in range(m):
        n = val.shape[0] - 1
        val = val[:-1] * arange(n, 0, -1)
    return poly1d(val) if truepoly else val


def polyint(p, m=1, k=None):
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = zeros(m, dtype=numpy.float64)
    k = _coeffs(k)
    if k.shape[0] == 1 and m > 1:
        k = k[0] * ones(m, dtype=numpy.float64)
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    val = _coeffs(p)
    for i in range(m):
        # Integrate term by term, the constant of integration k[i] last.
        val = concatenate([val / arange(val.shape[0], 0, -1), k[i:i + 1]])
    return poly1d(val) if truepoly else val


def _vander(x, n):
    return uf.power(x[:, None], arange(n - 1, -1, -1))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    order = int(deg) + 1
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * numpy.finfo(numpy.dtype(x.dtype)).eps
    lhs = _vander(x, order)
    rhs = y
    if w is not None:
        w = asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    # Columns scaled to unit norm improve the conditioning of the solve.
    scale = uf.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", numpy.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = inv(lhs.T @ lhs)
        vbase = vbase / uf.multiply(scale[:, None], scale[None, :])
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c


# ---- poly1d ----------------------------------------------------------------------------

_POWER = re.compile(r"\*\*([0-9]*)")


def _superscript_powers(text, wrap=70):
    """Moves each '**n' of `text` to a line above its term, wrapping both lines."""
    top, bottom, out, pos = "", "", " ", 0
    for match in _POWER.finditer(text):
        power = match.group(1)
        part = text[pos:match.start()]
        pos = match.end()
        add_bottom = part + " " * (len(power) - 1)
        add_top = " " * (len(part) - 1) + power
        if len(bottom) + len(add_bottom) > wrap or len(top) + len(add_top) > wrap:
            out += top + "\n" + bottom + "\n "
            top, bottom = add_top, add_bottom
        else:
            top += add_top
            bottom += add_bottom
    return out + top + "\n" + bottom + text[pos:]


def _format_number(q):
    s = f"{q:.4g}"
    return s[:-5] if s.endswith(".0000") else s


class poly1d:
    """A one-dimensional polynomial (numpy.poly1d) with kumo coefficients."""
    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable if variable is None else variable
            self._coeffs = c_or_r._coeffs
            return
        if r:
            c_or_r = poly(c_or_r)
        c = asarray(c_or_r)
        if c.ndim == 0:
            c = c.reshape(1)
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = _trim_leading_zeros(c)
        if c.shape[0] == 0:
            c = zeros(1, dtype=c.dtype)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    # -- attributes --
    @property
    def coeffs(self):
        """The coefficients, highest power first."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        # Only an in-place operation on the array itself (p.coeffs *= 2) may assign.
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return self._coeffs.shape[0] - 1

    @property
    def roots(self):
        return roots(self._coeffs)

    r = roots

    @property
    def o(self):
        return self.order

    def __array__(self, dtype=None, copy=None):
        host = self._coeffs.get()
        return host if dtype is None else host.astype(dtype)

    def __len__(self):
        return self.order

    def __iter__(self):
        return iter(self._coeffs)

    # -- printing --
    def __repr__(self):
        return "poly1d(%s)" % repr(self._coeffs.get())[6:-1]

    def __str__(self):
        host = self._coeffs.get()
        host = host[numpy.logical_or.accumulate(host != 0)]
        var = self._variable
        last = len(host) - 1
        text = "0"
        for k, coeff in enumerate(host):
            if not numpy.iscomplex(coeff):
                cs = _format_number(numpy.real(coeff))
            elif numpy.real(coeff) == 0:
                cs = _format_number(numpy.imag(coeff)) + "j"
            else:
                cs = "(%s + %sj)" % (_format_number(numpy.real(coeff)), _format_number(numpy.imag(coeff)))
            power = last - k
            if cs == "0":
                term = "0" if power == 0 and k == 0 else ""
            elif power == 0:
                term = cs
            elif power == 1:
                term = "%s %s" % (cs, var)
            else:
                term = "%s %s**%d" % (cs, var, power)
            if k == 0:
                text = term
            elif term:
                text = text + (" - " + term[1:] if term.startswith("-") else " + " + term)
        return _superscript_powers(text)

    # -- evaluation and calculus --
    def __call__(self, val):
        return polyval(self._coeffs, val)

    def integ(self, m=1, k=0):
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        return poly1d(polyder(self._coeffs, m=m))

    # -- arithmetic --
    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if numpy.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other).coeffs))

    def __rmul__(self, other):
        if numpy.isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(poly1d(other).coeffs, self._coeffs))

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other).coeffs))

    def __radd__(self, other):
        return poly1d(polyadd(poly1d(other).coeffs, self._coeffs))

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other).coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other).coeffs, self._coeffs))

    def __pow__(self, val):
        if not numpy.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = asarray([1])
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if numpy.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if numpy.isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(uf.equal(self._coeffs, other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    # -- coefficients by power --
    def __getitem__(self, val):
        if val > self.order or val < 0:
            return zeros((), dtype=self._coeffs.dtype)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            pad = zeros(key - self.order, dtype=self._coeffs.dtype)
            self._coeffs = concatenate([pad, self._coeffs])
        self._coeffs[self.order - key] = val


__all__ = ["poly1d", "poly", "roots", "polyval", "polyfit", "polyadd", "polysub", "polymul", "polydiv", "polyder",
           "polyint"]
