"""Matrix and tensor products (matmul, dot, vdot, inner, outer, tensordot,
kron, trace, cross, vecdot) with NumPy's semantics.

matmul, dot, vdot, inner, outer and tensordot are the C++ routines of
linalg/products.h (``kumo._core.linalg``): type resolution, gufunc shape
rules and NumPy's error messages, GEMM on OpenBLAS/cuBLAS, float16 computed
in float32, integers and bool exactly. What stays here is argument parsing,
the ``axes=`` form of matmul, the tiny-batch kernel of the fast path, and
compositions on no hot path (kron, cross, multi_dot; matrix_power, which
inverts for negative powers, is in _solvers).
"""
import operator

import numpy

from kumo import _core
from kumo import _ufuncs as uf
from kumo._creation import asarray
from kumo._dtypes import result_type
from kumo._kernel import ElementwiseKernel
from kumo._manipulation import broadcast_arrays, moveaxis, stack
from kumo._reductions import sum as _sum

ndarray = _core.ndarray
_linalg = _core.linalg
_BLAS_CHARS = frozenset("fdFD")  # einsum's batched-dot shortcut


# ---------------------------------------------------------------------------- helpers
def _shape_str(shape):
    return "(%s)" % (",".join(str(d) for d in shape) + ("," if len(shape) == 1 else ""))


def _prod(dims):
    p = 1
    for d in dims:
        p *= d
    return p


def _empty_on(like, shape, dtype):
    """An uninitialised C-ordered array on the device of `like` (which may
    differ from the thread's current device)."""
    name = like._device_name
    prev = _core.current_device_name()
    if name == prev:
        return _core.empty(tuple(shape), numpy.dtype(dtype), "C")
    _core.set_current_device(name)
    try:
        return _core.empty(tuple(shape), numpy.dtype(dtype), "C")
    finally:
        _core.set_current_device(prev)


def _zeros_on(like, shape, dtype):
    r = _empty_on(like, shape, dtype)
    _core.fill(r, 0)
    return r


def _compute_dtype(dt):
    """The dtype a product of `dt` operands is computed in: the BLAS types as
    they are, float16 in float32, integers and bool in their own type (kernel)."""
    dt = numpy.dtype(dt)
    if dt.char == "e":
        return numpy.dtype(numpy.float32)
    return dt


def _check_out_array(out):
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is None:
        return None
    if not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if not out._writeable:
        raise ValueError("output array is read-only")
    return out


# ---------------------------------------------------------------------------- matmul
def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True, signature=None,
           axes=None, axis=None):
    """Matrix product of two arrays (numpy.matmul): stacks of matrices in the
    last two axes broadcast together; 1-d operands are promoted to a row
    (first) or column (second) vector and the added axis removed after."""
    if signature is not None:
        raise TypeError("matmul: 'signature' is not supported")
    if axis is not None:
        raise TypeError("axis can only be used with a single shape-preserving core dimension")
    if out is None and dtype is None and axes is None and type(x1) is ndarray and type(x2) is ndarray:
        res = _matmul_fast(x1, x2)
        if res is not None:
            return res
    a = asarray(x1)
    b = asarray(x2)
    out = _check_out_array(out)
    if axes is not None:
        return _matmul_axes(a, b, axes, out, casting, dtype)
    return _matmul(a, b, out, casting, dtype, "matmul")


def _matmul(a, b, out, casting, dtype, name):
    """The C++ matmul (linalg/products.h) with `name` in its error messages."""
    res = _linalg.matmul(a, b, out, dtype, casting, name)
    return out if out is not None else res  # the caller's object itself, as NumPy returns it


_FAST_GEMM_DTYPES = frozenset(numpy.dtype(c) for c in "fdFD")


def _matmul_fast(a, b):
    """The common case straight to GEMM: two 2-d (or equally batched 3-d)
    operands of one BLAS dtype whose matrices are row- or column-major.
    Returns None whenever the general path is needed; its checks and errors
    then apply. Saves ~30 us of Python per call, which matters below ~512^2."""
    nd = a.ndim
    if nd != b.ndim or nd not in (2, 3) or a.dtype != b.dtype or a.dtype not in _FAST_GEMM_DTYPES:
        return None
    sa, sb = a.shape, b.shape
    if sa[-1] != sb[-2] or sa[-1] == 0 or (nd == 3 and sa[0] != sb[0]):
        return None
    if not ((a._c_contiguous or a._f_contiguous) and (b._c_contiguous or b._f_contiguous)):
        return None
    if a._device_name != b._device_name:
        return None
    if nd == 3 and (a._f_contiguous and not a._c_contiguous or b._f_contiguous and not b._c_contiguous):
        return None  # an F-ordered stack is not a stack of column-major matrices with one batch stride
    if nd == 3 and _tiny_batched(a, b):
        return _tiny_batched_matmul(a, b)
    return _core.linalg.matmul_new(a, b)


# Batches of tiny real products on the host. BLAS costs 115-210 ns of call
# overhead per product (OpenBLAS 0.3.34, measured; concurrent calls serialize
# inside it and its batched entry point is slower still), several times the
# arithmetic of an 8x8 product. There one generated kernel per (m, k, n)
# computes a whole product per element: sizes are compile-time constants and
# the m x n accumulators are independent, so the compiler keeps them in
# vector registers (10000 x 8x8 float32: ~0.3 ms per thread against ~1.2 ms
# through BLAS). The accumulators must fit the registers, hence the bound on
# m * n. cuBLAS's batched GEMM has no such overhead: CUDA arrays take GEMM.
_TINY_MIN_BATCH = 64
_TINY_MAX_DIM = 16
_TINY_MAX_ACC_BYTES = 512
_TINY_DTYPES = frozenset(numpy.dtype(c) for c in "fd")
_tiny_kernels = {}


def _tiny_batched(a, b):
    m, k = a.shape[1], a.shape[2]
    n = b.shape[2]
    return (a.shape[0] >= _TINY_MIN_BATCH and a.dtype in _TINY_DTYPES and max(m, k, n) <= _TINY_MAX_DIM
            and m * n * a.dtype.itemsize <= _TINY_MAX_ACC_BYTES and a._c_contiguous and b._c_contiguous
            and a._device_name == "cpu")


def _tiny_batched_matmul(a, b):
    batch, m, k = a.shape
    n = b.shape[2]
    key = (m, k, n)
    kern = _tiny_kernels.get(key)
    if kern is None:
        body = """
            const T* __restrict__ x = a.data() + (int64_t)i * {mk};
            const T* __restrict__ y = b.data() + (int64_t)i * {kn};
            T* __restrict__ z = c.data() + (int64_t)i * {mn};
            T acc[{m}][{n}];
            for (int r = 0; r < {m}; ++r)
              for (int q = 0; q < {n}; ++q) acc[r][q] = T(0);
            for (int l = 0; l < {k}; ++l)
              for (int r = 0; r < {m}; ++r) {{
                const T xv = x[r * {k} + l];
                for (int q = 0; q < {n}; ++q) acc[r][q] += xv * y[l * {n} + q];
              }}
            for (int r = 0; r < {m}; ++r)
              for (int q = 0; q < {n}; ++q) z[r * {n} + q] = acc[r][q];""".format(
            m=m, k=k, n=n, mk=m * k, kn=k * n, mn=m * n)
        kern = ElementwiseKernel("raw T a, raw T b", "raw T c", body, "kumo_tiny_matmul_%dx%dx%d" % key)
        _tiny_kernels[key] = kern
    out = _empty_on(a, (batch, m, n), a.dtype)
    kern(a, b, out, size=batch)
    return out


def _check_out_shape(name, sig, out, core, batch):
    if out.ndim < len(core):
        raise ValueError("%s: Output operand 0 does not have enough dimensions (has %d, gufunc core with signature "
                         "%s requires %d)" % (name, out.ndim, sig, len(core)))
    ocore = tuple(out.shape[out.ndim - len(core):])
    for i, (got, want) in enumerate(zip(ocore, core)):
        if got != want:
            raise ValueError("%s: Output operand 0 has a mismatch in its core dimension %d, with gufunc signature %s "
                             "(size %d is different from %d)" % (name, i, sig, got, want))
    obatch = tuple(out.shape[:out.ndim - len(core)])
    try:
        full = numpy.broadcast_shapes(obatch, batch)
    except ValueError:
        full = None
    if full != obatch:
        raise ValueError("non-broadcastable output operand with shape %s doesn't match the broadcast shape %s"
                         % (_shape_str(out.shape), _shape_str(tuple(full or batch) + core)))


def _matmul_axes(a, b, axes, out, casting, dtype):
    """matmul with `axes=[(i, j), (k, l), (p, q)]` naming the core axes."""
    axes = list(axes)
    if len(axes) != 3:
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for outputs "
                         "can only be omitted if none of them has core axes.")

    def core(x, ax):
        ax = (ax,) if isinstance(ax, int) else tuple(ax)
        want = min(x.ndim, 2) if x is not None else len(ax)
        if len(ax) != want:
            raise ValueError("axes item has %d entries but the operand needs %d" % (len(ax), want))
        return ax

    ax_a, ax_b = core(a, axes[0]), core(b, axes[1])
    a = moveaxis(a, ax_a, tuple(range(-len(ax_a), 0)))
    b = moveaxis(b, ax_b, tuple(range(-len(ax_b), 0)))
    nout = (a.ndim > 1) + (b.ndim > 1)
    ax_o = (axes[2],) if isinstance(axes[2], int) else tuple(axes[2])
    if len(ax_o) != nout:
        raise ValueError("axes item for the output has %d entries but the output needs %d" % (len(ax_o), nout))
    dst = tuple(range(-nout, 0))
    if out is not None:
        _matmul(a, b, moveaxis(out, ax_o, dst), casting, dtype, "matmul")
        return out
    res = _matmul(a, b, None, casting, dtype, "matmul")
    return moveaxis(res, dst, ax_o)


def matvec(x1, x2, /, out=None, *, casting="same_kind", dtype=None):
    """Matrix-vector product over the last axes (numpy.matvec)."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim < 2 or b.ndim < 1:
        raise ValueError("matvec: Input operand %d does not have enough dimensions (has %d, gufunc core with "
                         "signature (m,n),(n)->(m) requires %d)" % ((0, a.ndim, 2) if a.ndim < 2 else (1, b.ndim, 1)))
    out = _check_out_array(out)
    o = out[..., None] if out is not None else None
    r = _matmul(a, b[..., None], o, casting, dtype, "matvec")
    return out if out is not None else r[..., 0]


def vecmat(x1, x2, /, out=None, *, casting="same_kind", dtype=None):
    """Vector-matrix product conj(x1) @ x2 over the last axes (numpy.vecmat)."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim < 1 or b.ndim < 2:
        raise ValueError("vecmat: Input operand %d does not have enough dimensions (has %d, gufunc core with "
                         "signature (n),(n,m)->(m) requires %d)" % ((0, a.ndim, 1) if a.ndim < 1 else (1, b.ndim, 2)))
    if a.dtype.kind == "c":
        a = uf.conjugate(a)
    out = _check_out_array(out)
    o = out[..., None, :] if out is not None else None
    r = _matmul(a[..., None, :], b, o, casting, dtype, "vecmat")
    return out if out is not None else r[..., 0, :]


# ---------------------------------------------------------------------------- dot family
def dot(a, b, out=None):
    """Dot product (numpy.dot): scalars multiply, 1-d . 1-d is the inner
    product, 2-d . 2-d the matrix product, N-d . M-d sums over the last axis of
    `a` and the second-to-last of `b`."""
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("'out' must be an array")
    res = _linalg.dot(asarray(a), asarray(b), out)
    return out if out is not None else res


def vdot(a, b, /):
    """Dot product of the flattened arrays, conjugating the first (numpy.vdot)."""
    return _linalg.vdot(asarray(a), asarray(b))


def inner(a, b, /):
    """Inner product over the last axes (numpy.inner)."""
    return _linalg.inner(asarray(a), asarray(b))


def outer(a, b, out=None):
    """Outer product of the flattened arrays (numpy.outer)."""
    if out is not None and not isinstance(out, ndarray):
        return uf.multiply(asarray(a).reshape(-1)[:, None], asarray(b).reshape(-1)[None, :], out=out)
    res = _linalg.outer(asarray(a), asarray(b), out)
    return out if out is not None else res


def _dot_out(res, out, res_dt):
    """multi_dot's out=, checked as numpy.dot checks it."""
    if not isinstance(out, ndarray):
        raise TypeError("'out' must be an array")
    if out.dtype != res_dt or out.ndim != res.ndim or not out._c_contiguous:
        raise ValueError("output array is not acceptable (must have the right datatype, number of dimensions, and "
                         "be a C-Array)")
    if tuple(out.shape) != tuple(res.shape):
        raise ValueError("output array has wrong dimensions")
    out[...] = res
    return out


def _normalize_axes_list(axes, ndim):
    res = []
    for ax in axes:
        ax = operator.index(ax)
        if ax < -ndim or ax >= ndim:
            raise numpy.exceptions.AxisError(ax, ndim)
        res.append(ax % ndim)
    return res


def tensordot(a, b, axes=2):
    """Sum of products over the given axes (numpy.tensordot): `axes` is an
    int N (last N of `a` with first N of `b`) or a pair of axis sequences."""
    a, b = asarray(a), asarray(b)
    try:
        n = operator.index(axes)
    except TypeError:
        try:
            axes_a, axes_b = axes
        except (TypeError, ValueError):
            raise ValueError("axes must be an integer or a pair of sequences of axes") from None
        axes_a = [axes_a] if isinstance(axes_a, int) or numpy.ndim(axes_a) == 0 else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) or numpy.ndim(axes_b) == 0 else list(axes_b)
        return _linalg.tensordot(a, b, [operator.index(x) for x in axes_a], [operator.index(x) for x in axes_b])
    return _linalg.tensordot(a, b, n)


def kron(a, b):
    """Kronecker product (numpy.kron), for any number of dimensions."""
    a, b = asarray(a), asarray(b)
    nd = max(a.ndim, b.ndim)
    if nd == 0:
        return uf.multiply(a, b)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    ia = []
    ib = []
    for x, y in zip(sa, sb):
        ia += [x, 1]
        ib += [1, y]
    prod = uf.multiply(a.reshape(tuple(ia)), b.reshape(tuple(ib)))
    return prod.reshape(tuple(x * y for x, y in zip(sa, sb)))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along a diagonal (numpy.trace)."""
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    return _sum(a.diagonal(offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


# ---------------------------------------------------------------------------- cross
def _cross_last(a, b):
    """Cross product of vectors in the last axes (each 2 or 3 long)."""
    na, nb = a.shape[-1], b.shape[-1]
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if na == 2 and nb == 2:
        return uf.subtract(uf.multiply(a0, b1), uf.multiply(a1, b0))
    if na == 3 and nb == 3:
        a2, b2 = a[..., 2], b[..., 2]
        cx = uf.subtract(uf.multiply(a1, b2), uf.multiply(a2, b1))
        cy = uf.subtract(uf.multiply(a2, b0), uf.multiply(a0, b2))
    elif na == 2:  # a's third component is 0
        b2 = b[..., 2]
        cx = uf.multiply(a1, b2)
        cy = uf.negative(uf.multiply(a0, b2))
    else:  # b's third component is 0
        a2 = a[..., 2]
        cx = uf.negative(uf.multiply(a2, b1))
        cy = uf.multiply(a2, b0)
    cz = uf.subtract(uf.multiply(a0, b1), uf.multiply(a1, b0))
    return stack(broadcast_arrays(cx, cy, cz), axis=-1)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 2- or 3-element vectors (numpy.cross)."""
    a, b = asarray(a), asarray(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = moveaxis(a, _normalize_axes_list([axisa], a.ndim)[0], -1)
    b = moveaxis(b, _normalize_axes_list([axisb], b.ndim)[0], -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        import warnings
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors instead. "
                      "(deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    numpy.broadcast_shapes(tuple(a.shape[:-1]), tuple(b.shape[:-1]))
    dt = result_type(a, b)
    res = _cross_last(a.astype(dt, copy=False), b.astype(dt, copy=False)).astype(dt, copy=False)
    if res.ndim == 0 or (a.shape[-1] == 2 and b.shape[-1] == 2):
        return res
    return moveaxis(res, -1, _normalize_axes_list([axisc], res.ndim)[0])


# ---------------------------------------------------------------------------- array-API / numpy.linalg names
def vecdot(x1, x2, /, out=None, *, axis=-1, casting="same_kind", dtype=None):
    """Vector dot product conj(x1) . x2 along `axis`, broadcasting the rest
    (numpy.vecdot / numpy.linalg.vecdot)."""
    a, b = asarray(x1), asarray(x2)
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError("vecdot: Input operand %d does not have enough dimensions (has 0, gufunc core with "
                             "signature (n),(n)->() requires 1)" % i)
    a = moveaxis(a, _normalize_axes_list([axis], a.ndim)[0], -1)
    b = moveaxis(b, _normalize_axes_list([axis], b.ndim)[0], -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         "(n),(n)->() (size %d is different from %d)" % (b.shape[-1], a.shape[-1]))
    out = _check_out_array(out)
    if a.dtype.kind == "c":
        a = uf.conjugate(a)
    res = _matmul(a[..., None, :], b[..., :, None], None, casting, dtype, "vecdot")[..., 0, 0]
    if out is not None:
        if not numpy.can_cast(res.dtype, out.dtype, casting):
            raise _core.UFuncTypeError("Cannot cast ufunc 'vecdot' output from %r to %r with casting rule '%s'"
                                       % (res.dtype, out.dtype, casting))
        _check_out_shape("vecdot", "(n),(n)->()", out, (), tuple(res.shape))
        out[...] = res
        return out
    return res


def linalg_vecdot(x1, x2, /, *, axis=-1):
    return vecdot(x1, x2, axis=axis)


def matrix_transpose(x, /):
    """Swaps the last two axes (numpy.matrix_transpose)."""
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional, but it is %d" % x.ndim)
    return x.swapaxes(-1, -2)


def linalg_cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors (numpy.linalg.cross)."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    na = a.shape[_normalize_axes_list([axis], a.ndim)[0]]
    nb = b.shape[_normalize_axes_list([axis], b.ndim)[0]]
    if na != 3 or nb != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are %d and %d "
                         "dimensional instead." % (na, nb))
    return cross(a, b, axis=axis)


def linalg_outer(x1, x2, /):
    """Outer product of two vectors (numpy.linalg.outer)."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are x1.ndim=%d and x2.ndim=%d."
                         % (a.ndim, b.ndim))
    return outer(a, b)


def linalg_tensordot(x1, x2, /, *, axes=2):
    return tensordot(x1, x2, axes=axes)


def linalg_matmul(x1, x2, /):
    return matmul(x1, x2)


def linalg_trace(x, /, *, offset=0, dtype=None):
    """Sum along the diagonals of the last two axes (numpy.linalg.trace)."""
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    return _sum(x.diagonal(offset, -2, -1), axis=-1, dtype=dtype)


def linalg_diagonal(x, /, *, offset=0):
    """Diagonals of the last two axes (numpy.linalg.diagonal)."""
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    return x.diagonal(offset, -2, -1)


def multi_dot(arrays, *, out=None):
    """Dot product of two or more arrays in the cheapest association order
    (numpy.linalg.multi_dot); a 1-d first (last) array is a row (column) vector."""
    arrays = [asarray(a) for a in arrays]
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return dot(arrays[0], arrays[1], out=out)
    first_1d, last_1d = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = arrays[0].reshape((1, -1))
    if last_1d:
        arrays[-1] = arrays[-1].reshape((-1, 1))
    for a in arrays:
        if a.ndim != 2:
            raise numpy.linalg.LinAlgError("%d-dimensional array given. Array must be two-dimensional" % a.ndim)
    dims = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    # classic matrix-chain dynamic programme over the split points
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if best is None or c < best:
                    best, split[i][j] = c, k
            cost[i][j] = best

    def chain(i, j):
        if i == j:
            return arrays[i]
        k = split[i][j]
        return dot(chain(i, k), chain(k + 1, j))

    res = chain(0, n - 1)
    if first_1d and last_1d:
        res = res[0, 0]
    elif first_1d:
        res = res[0]
    elif last_1d:
        res = res[:, 0]
    return _dot_out(res, out, res.dtype) if out is not None else res
