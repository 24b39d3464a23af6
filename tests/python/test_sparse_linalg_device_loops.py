"""The iterative solvers' device path: on CUDA arrays each vector update is
a generated kernel and each reduction a kumo routine, so no element leaves
the device. Without a GPU the path runs on host arrays with the portable
sparse switch on, and with the CUDA emulation mode also on, the generated
kernels run their CUDA source: the solvers must then agree with the host
loops (same info, same iteration count, equal solutions to rounding) and
with SciPy."""
import contextlib

import numpy
import pytest
import scipy.sparse.linalg as spla

import kumo
import kumo.sparse.linalg as kla
from kumo import _core
from sparse_linalg_testing import FLOAT_DTYPES, general, hpd, np_, rvec, to_kumo, tol

N = 40
SQUARE = {"cg": hpd, "bicg": general, "bicgstab": general, "cgs": general, "gmres": general, "minres": hpd}


@contextlib.contextmanager
def device_path(emulate_cuda):
    """The solvers' device path on host arrays (with the CUDA source of its
    kernels when `emulate_cuda`)."""
    before_portable = _core.sparse._portable_backend()
    launches = _core._emulated_cuda_launches()
    _core.sparse._set_portable_backend(True)
    _core._set_emulate_cuda(emulate_cuda)
    try:
        yield
    finally:
        _core._set_emulate_cuda(False)
        _core.sparse._set_portable_backend(before_portable)
    if emulate_cuda:
        assert _core._emulated_cuda_launches() > launches, "no generated CUDA kernel ran"


def run(name, a, b, **kw):
    count = []
    if name == "gmres":
        kw.setdefault("callback_type", "x")
    x, info = getattr(kla, name)(to_kumo(a, "csr"), kumo.asarray(b), callback=lambda xk: count.append(1), **kw)
    return np_(x), info, len(count)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", list(SQUARE))
def test_device_path_equals_host_loops(name, dtype):
    a = SQUARE[name](N, dtype)
    b = rvec(N, dtype)
    rtol = 1e-4 if tol(dtype) > 1e-6 else 1e-8
    hx, hinfo, hcount = run(name, a, b, rtol=rtol)
    with device_path(emulate_cuda=False):
        dx, dinfo, dcount = run(name, a, b, rtol=rtol)
    assert dinfo == hinfo == 0
    # Sums are ordered differently, so a borderline last iteration may differ.
    assert abs(dcount - hcount) <= 1
    assert dx.dtype == hx.dtype
    numpy.testing.assert_allclose(dx, hx, rtol=tol(dtype) * 1000, atol=tol(dtype) * 1000)


# SciPy's minres does not handle complex input; the host-loop test above
# covers kumo's there.
@pytest.mark.parametrize("name,dtype", [(n, d) for n in SQUARE for d in [numpy.float64, numpy.complex64]
                                        if not (n == "minres" and d == numpy.complex64)])
def test_cuda_source_of_the_device_path_matches_scipy(name, dtype):
    a = SQUARE[name](N, dtype)
    b = rvec(N, dtype)
    rtol = 1e-4 if tol(dtype) > 1e-6 else 1e-8
    with device_path(emulate_cuda=True):
        kx, kinfo, _ = run(name, a, b, rtol=rtol)
    sx, sinfo = getattr(spla, name)(a, b, rtol=rtol)
    assert kinfo == sinfo == 0
    numpy.testing.assert_allclose(kx, sx, rtol=tol(dtype) * 1000, atol=tol(dtype) * 1000)


@pytest.mark.parametrize("emulate_cuda", [False, True])
@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_least_squares_device_path_equals_host_loops(name, dtype, emulate_cuda):
    a = general(N, dtype)[:, : N // 2]
    b = rvec(N, dtype)
    kw = {"damp": 0.1, "atol": 1e-10, "btol": 1e-10}
    fn = getattr(kla, name)
    host = fn(to_kumo(a.tocsr(), "csr"), kumo.asarray(b), **kw)
    with device_path(emulate_cuda):
        dev = fn(to_kumo(a.tocsr(), "csr"), kumo.asarray(b), **kw)
    assert dev[1] == host[1]  # istop
    assert abs(dev[2] - host[2]) <= 1  # itn
    scale = tol(dtype) * 1000
    numpy.testing.assert_allclose(np_(dev[0]), np_(host[0]), rtol=scale, atol=scale)
    ref = getattr(spla, name)(a, b, **kw)
    numpy.testing.assert_allclose(np_(dev[0]), ref[0], rtol=scale, atol=scale)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_lsqr_variance_estimate_on_the_device_path(dtype):
    # A few iterations: near convergence the estimate amplifies rounding
    # (kumo's host loops and SciPy differ there by percents too).
    a = general(N, dtype)[:, : N // 2]
    b = rvec(N, dtype)
    kw = {"damp": 0.1, "calc_var": True, "iter_lim": 6}
    host = kla.lsqr(to_kumo(a.tocsr(), "csr"), kumo.asarray(b), **kw)
    with device_path(emulate_cuda=False):
        dev = kla.lsqr(to_kumo(a.tocsr(), "csr"), kumo.asarray(b), **kw)
    ref = spla.lsqr(a, b, **kw)
    scale = tol(dtype) * 1000
    numpy.testing.assert_allclose(np_(dev[-1]), np_(host[-1]), rtol=scale, atol=scale)
    if numpy.dtype(dtype).kind == "f":
        # SciPy squares complex dk without conjugating; kumo sums |dk|^2.
        numpy.testing.assert_allclose(np_(dev[-1]), ref[-1], rtol=scale, atol=scale)

def test_preconditioned_cg_and_x0_on_the_device_path():
    a = hpd(N, numpy.float64)
    b = rvec(N, numpy.float64)
    m = spla.LinearOperator(a.shape, matvec=lambda v: v / a.diagonal(), dtype=numpy.float64)
    x0 = rvec(N, numpy.float64, seed=5)
    km = kla.LinearOperator(a.shape, matvec=lambda v: v / kumo.asarray(a.diagonal()), dtype=numpy.float64)
    with device_path(emulate_cuda=False):
        kx, kinfo = kla.cg(to_kumo(a, "csr"), kumo.asarray(b), x0=kumo.asarray(x0), M=km, rtol=1e-10)
    sx, sinfo = spla.cg(a, b, x0=x0, M=m, rtol=1e-10)
    assert kinfo == sinfo == 0
    numpy.testing.assert_allclose(np_(kx), sx, rtol=1e-8, atol=1e-10)

