"""kumo.fft against numpy.fft: every function over dtypes, shapes (empty,
one element, odd and prime lengths), axes, n/s, norms, out=, strided
layouts and the error cases. FFT results are not bit-exact, so values are
compared relative to the largest magnitude of NumPy's result."""
import warnings

import numpy
import pytest

import kumo
from conftest import make_pair, to_kumo

REAL_DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32, numpy.float64]
ALL_DTYPES = REAL_DTYPES + [numpy.complex64, numpy.complex128]
NORMS = [None, "backward", "ortho", "forward"]
SHAPES = [(1,), (2,), (7,), (8,), (13,), (2, 17), (3, 4, 5), (0, 4), (5, 1)]


def _values(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -20, 20, size=shape).astype(dt)
    v = rng.standard_normal(shape)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


def _tol(dtype):
    return {"e": 4e-3, "f": 3e-5, "d": 1e-12}[numpy.empty(0, dtype).real.dtype.char]


def assert_fft_close(k, n, tol=None):
    """Same type, shape and dtype as NumPy's result; values within `tol`
    times the largest magnitude of NumPy's result."""
    assert isinstance(k, kumo.ndarray), type(k)
    got = kumo.asnumpy(k)
    n = numpy.asarray(n)
    assert got.shape == n.shape, (got.shape, n.shape)
    assert got.dtype == n.dtype, (got.dtype, n.dtype)
    if n.size == 0:
        return
    if tol is None:
        tol = _tol(n.dtype)
    scale = max(float(numpy.max(numpy.abs(n.astype(numpy.complex128)))), 1e-300)
    err = float(numpy.max(numpy.abs(got.astype(numpy.complex128) - n.astype(numpy.complex128))))
    assert err <= tol * scale, f"max error {err:.3g} > {tol:g} * {scale:.3g}"


def _both(name, a, *args, **kwargs):
    want = getattr(numpy.fft, name)(a, *args, **kwargs)
    got = getattr(kumo.fft, name)(to_kumo(a), *args, **kwargs)
    return got, want


# ---- one-dimensional transforms ----------------------------------------------------

@pytest.mark.parametrize("name,dtype", [(f, d) for f in ("fft", "ifft") for d in ALL_DTYPES]
                         + [(f, d) for f in ("rfft", "ihfft") for d in REAL_DTYPES])
@pytest.mark.parametrize("shape", SHAPES)
def test_transforms_over_dtypes_and_shapes(name, dtype, shape):
    a = _values(shape, dtype)
    assert_fft_close(*_both(name, a))


@pytest.mark.parametrize("name", ["irfft", "hfft"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(2,), (5,), (9,), (3, 6), (2, 3, 4), (0, 4)])
def test_real_output_transforms(name, dtype, shape):
    a = _values(shape, dtype)
    assert_fft_close(*_both(name, a))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 11, 16, 31])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_n_pads_and_truncates(name, n, axis):
    dtype = numpy.float64 if name in ("rfft", "ihfft") else numpy.complex128
    a = _values((6, 9), dtype, seed=n)
    assert_fft_close(*_both(name, a, n=n, axis=axis))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_norms(name, norm, dtype):
    a = _values((4, 10), dtype)
    assert_fft_close(*_both(name, a, norm=norm))
    assert_fft_close(*_both(name, a, n=7, axis=0, norm=norm))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("length", [17, 97, 128, 1000, 1031])
def test_long_and_prime_lengths(name, length):
    dtype = numpy.float64 if name in ("rfft", "ihfft") else numpy.complex128
    assert_fft_close(*_both(name, _values((length,), dtype)))


@pytest.mark.parametrize("layout", ["1d", "3d", "broadcast", "transposed", "negative", "empty"])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "fft2", "rfftn", "irfftn"])
def test_strided_layouts(layout, dtype, name):
    n, k = make_pair(layout, dtype)
    if name in ("rfft", "rfftn") and numpy.dtype(dtype).kind == "c":
        n = n.real
        k = to_kumo(n)
    if name == "fft2" and n.ndim < 2:
        n = n.reshape(1, -1)
        k = to_kumo(n)
    kw = {"axis": 0} if name in ("fft", "irfft") and n.ndim > 1 and n.shape[0] > 0 else {}
    if layout == "empty" and not kw:
        kw = {"n": 4} if name in ("fft", "ifft", "rfft", "irfft") else {"s": (2, 4), "axes": (0, 1)}
    want = getattr(numpy.fft, name)(n, **kw)
    got = getattr(kumo.fft, name)(k, **kw)
    assert_fft_close(got, want)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("step", [-1, 2, -3])
@pytest.mark.parametrize("length", [1, 2, 9, 64, 257])
def test_one_strided_line(name, step, length):
    dtype = numpy.float64 if name in ("rfft", "ihfft") else numpy.complex128
    a = _values((length * abs(step),), dtype)[::step]
    if not (length == 1 and name in ("irfft", "hfft")):  # else n = 0 (an error, tested below)
        assert_fft_close(*_both(name, a))
    assert_fft_close(*_both(name, a, n=length + 3))


# ---- n-dimensional transforms ----------------------------------------------------------

ND_CASES = [
    (None, None), (None, (0,)), (None, (-1,)), (None, (1, 0)), ((4, 6), (0, 1)), ((3,), (-1,)),
    ((5, -1), (1, 0)), ((2, 3, 4), (0, 1, 2)), (None, (0, 0)), ((3, 5), (1, 1)), (None, (-3, 2)),
]


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("s,axes", ND_CASES)
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_nd(name, s, axes, norm):
    dtype = numpy.float64 if name == "rfftn" else numpy.complex128
    a = _values((3, 4, 5), dtype)
    if name in ("rfftn", "irfftn") and axes is not None and len(set(axes)) < len(axes):
        pytest.skip("repeated axes: NumPy's real n-D transforms change the array kind in between")
    assert_fft_close(*_both(name, a, s=s, axes=axes, norm=norm))


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int16, numpy.float16, numpy.float32, numpy.float64,
                                   numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("shape,s,axes", [((4, 6), None, (-2, -1)), ((3, 5, 7), None, (0, 2)),
                                          ((3, 5), (4, 8), (-2, -1)), ((2, 3, 4), (3, 3), (1, 0))])
def test_2d(name, dtype, shape, s, axes):
    if name == "rfft2" and numpy.dtype(dtype).kind == "c":
        pytest.skip("rfft2 of complex input is a TypeError (tested below)")
    a = _values(shape, dtype)
    assert_fft_close(*_both(name, a, s=s, axes=axes))


def test_fftn_empty_axes_returns_input():
    a = _values((3, 4), numpy.float64)
    k = to_kumo(a)
    r = kumo.fft.fftn(k, axes=())
    assert r.dtype == numpy.float64
    numpy.testing.assert_array_equal(kumo.asnumpy(r), a)


def test_nd_zero_d_is_identity():
    a = numpy.array(2.5)
    assert_fft_close(kumo.fft.fftn(to_kumo(a)), numpy.fft.fftn(a))


def test_s_without_axes_warns_like_numpy():
    a = _values((3, 4), numpy.complex128)
    with pytest.warns(DeprecationWarning):
        got = kumo.fft.fftn(to_kumo(a), s=(2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = numpy.fft.fftn(a, s=(2, 2))
    assert_fft_close(got, want)


# ---- out= ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name,in_dtype,out_dtype", [
    ("fft", numpy.float64, numpy.complex128), ("fft", numpy.float64, numpy.complex64),
    ("ifft", numpy.complex64, numpy.complex128), ("rfft", numpy.float32, numpy.complex64),
    ("irfft", numpy.complex128, numpy.float64), ("irfft", numpy.complex128, numpy.float32),
    ("hfft", numpy.complex128, numpy.float64), ("ihfft", numpy.float64, numpy.complex128),
])
def test_out(name, in_dtype, out_dtype):
    a = _values((3, 8), in_dtype)
    want_full = getattr(numpy.fft, name)(a)
    out = kumo.empty(want_full.shape, dtype=out_dtype)
    r = getattr(kumo.fft, name)(to_kumo(a), out=out)
    assert r is out
    want = numpy.empty(want_full.shape, out_dtype)
    getattr(numpy.fft, name)(a, out=want)
    if name == "hfft":
        # NumPy 2.4's hfft accepts out= but never writes it (it calls irfft
        # with out=None); kumo fills it as documented.
        want = want_full.astype(out_dtype)
    assert_fft_close(out, want)


@pytest.mark.parametrize("name", ["fftn", "rfftn", "irfftn", "fft2"])
def test_out_nd(name):
    a = _values((4, 6), numpy.float64 if name == "rfftn" else numpy.complex128)
    want = getattr(numpy.fft, name)(a)
    out = kumo.empty(want.shape, dtype=want.dtype)
    r = getattr(kumo.fft, name)(to_kumo(a), out=out)
    assert_fft_close(r, want)
    assert_fft_close(out, want)


def test_out_overlapping_input():
    a = _values((8,), numpy.complex128)
    k = to_kumo(a)
    r = kumo.fft.fft(k, out=k)
    assert_fft_close(r, numpy.fft.fft(a))
    assert_fft_close(k, numpy.fft.fft(a))


def test_out_errors():
    a = _values((8,), numpy.complex128)
    with pytest.raises(ValueError, match="wrong shape"):
        kumo.fft.fft(to_kumo(a), out=kumo.empty((7,), dtype=numpy.complex128))
    with pytest.raises(TypeError):
        kumo.fft.fft(to_kumo(a), out=kumo.empty((8,), dtype=numpy.float64))
    with pytest.raises(TypeError):
        numpy.fft.fft(a, out=numpy.empty((8,), numpy.float64))


# ---- errors ---------------------------------------------------------------------------------

def _raises_like_numpy(fn, *args, **kwargs):
    a = args[0]
    with pytest.raises(Exception) as want:
        getattr(numpy.fft, fn)(a, *args[1:], **kwargs)
    with pytest.raises(want.type):
        getattr(kumo.fft, fn)(to_kumo(numpy.asarray(a)), *args[1:], **kwargs)
    return want.type


@pytest.mark.parametrize("fn,args,kwargs", [
    ("fft", (numpy.ones(4),), {"n": 0}),
    ("ifft", (numpy.ones(4),), {"n": -3}),
    ("rfft", (numpy.ones(4),), {"n": 0}),
    ("irfft", (numpy.ones(1),), {}),           # n = 0 from a length-1 input
    ("fft", (numpy.ones(0),), {}),             # empty axis
    ("fft", (numpy.ones(4),), {"norm": "sideways"}),
    ("ifft", (numpy.ones(4),), {"norm": "Ortho"}),
    ("hfft", (numpy.ones(4),), {"norm": "bad"}),
    ("fft", (numpy.array(1.0),), {}),          # 0-d: IndexError
    ("fft", (numpy.array(1.0),), {"n": 4}),    # 0-d with n: AxisError
    ("fft", (numpy.ones(4),), {"axis": 1}),
    ("fft", (numpy.ones(4),), {"axis": -2, "n": 4}),
    ("rfft", (numpy.ones(4, numpy.complex128),), {}),
    ("ihfft", (numpy.ones(4, numpy.complex64),), {}),
    ("rfftn", (numpy.ones((2, 2), numpy.complex128),), {}),
    ("fftn", (numpy.ones((2, 2)),), {"s": (2, 2), "axes": (0,)}),
    ("fftn", (numpy.ones((2, 2)),), {"axes": (0, 2)}),
    ("fftn", (numpy.ones((2, 2)),), {"s": (2, 2), "axes": (0, 5)}),
    ("rfftn", (numpy.ones((2, 2)),), {"axes": ()}),
    ("irfftn", (numpy.ones((2, 2)),), {"axes": ()}),
    ("fft2", (numpy.ones(3),), {}),
    ("irfft2", (numpy.ones(3),), {}),
])
def test_errors_match_numpy(fn, args, kwargs):
    _raises_like_numpy(fn, *args, **kwargs)


def test_error_types():
    assert _raises_like_numpy("fft", numpy.ones(4), n=0) is ValueError
    assert issubclass(_raises_like_numpy("fft", numpy.array(1.0), n=4), IndexError)  # AxisError
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        kumo.fft.fft(kumo.ones(4), n=0)
    with pytest.raises(ValueError, match="Invalid norm value"):
        kumo.fft.fft(kumo.ones(4), norm="x")


# ---- helpers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 5, 8, 9, 100])
@pytest.mark.parametrize("d", [1.0, 0.1, 2.5, -0.5])
def test_fftfreq(n, d):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(kumo.fft, name)(n, d)
        want = getattr(numpy.fft, name)(n, d)
        assert got.dtype == want.dtype
        numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


def test_fftfreq_errors():
    for name in ("fftfreq", "rfftfreq"):
        with pytest.raises(ZeroDivisionError):
            getattr(kumo.fft, name)(0)
        with pytest.raises(ZeroDivisionError):
            getattr(kumo.fft, name)(4, 0.0)
        with pytest.raises(ValueError):
            getattr(kumo.fft, name)(2.5)
    with pytest.raises(ValueError):
        kumo.fft.fftfreq(-3)
    numpy.testing.assert_array_equal(kumo.asnumpy(kumo.fft.rfftfreq(-3)), numpy.fft.rfftfreq(-3))
    assert kumo.fft.fftfreq(4, device="cpu").shape == (4,)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("shape,axes", [((5,), None), ((6,), None), ((4, 5), None), ((4, 5), 0), ((4, 5), -1),
                                        ((4, 5), (1,)), ((3, 4, 5), (0, 2)), ((4, 5), (1, 1)),
                                        ((0, 3), None), ((1,), None), ((7, 3), (-2, 0))])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64, numpy.complex64])
def test_shifts(name, shape, axes, dtype):
    a = numpy.arange(int(numpy.prod(shape)), dtype=dtype).reshape(shape)
    got = getattr(kumo.fft, name)(to_kumo(a), axes=axes)
    want = getattr(numpy.fft, name)(a, axes=axes)
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(kumo.asnumpy(got), want)


def test_shifts_of_strided_input():
    n, k = make_pair("negative", numpy.float64)
    numpy.testing.assert_array_equal(kumo.asnumpy(kumo.fft.fftshift(k)), numpy.fft.fftshift(n))
    with pytest.raises(IndexError):
        kumo.fft.fftshift(kumo.ones(3), axes=2)


# ---- interop ------------------------------------------------------------------------------------

def test_numpy_functions_dispatch_to_kumo():
    a = _values((16,), numpy.complex128)
    r = numpy.fft.fft(to_kumo(a))
    assert isinstance(r, kumo.ndarray)
    assert_fft_close(r, numpy.fft.fft(a))


def test_array_likes():
    assert_fft_close(kumo.fft.fft([1, 2, 3, 4]), numpy.fft.fft([1, 2, 3, 4]))
    assert_fft_close(kumo.fft.rfft([1.0, 2.0, 3.0]), numpy.fft.rfft([1.0, 2.0, 3.0]))
