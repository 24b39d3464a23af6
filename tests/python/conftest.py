"""Shared test helpers: dtype lists, array layouts and comparison with NumPy."""
import numpy
import pytest

import kumo

ALL_DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32,
              numpy.int64, numpy.uint64, numpy.float16, numpy.float32, numpy.float64, numpy.complex64,
              numpy.complex128]
INT_DTYPES = [numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32, numpy.uint32, numpy.int64,
              numpy.uint64]
FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]
COMPLEX_DTYPES = [numpy.complex64, numpy.complex128]
NUMERIC_DTYPES = INT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES

LAYOUTS = ["0d", "empty", "1d", "3d", "broadcast", "transposed", "negative"]


def make_numpy(layout, dtype, seed=0, low=-5, high=5):
    """A NumPy array of `dtype` in the given layout, with small values that are
    valid for every dtype (non-negative for unsigned, 0/1 for bool)."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)

    def values(shape):
        if dt.kind == "b":
            return rng.integers(0, 2, size=shape).astype(dt)
        lo = 0 if dt.kind == "u" else low
        v = rng.integers(lo, high, size=shape)
        if dt.kind in "fc":
            v = v + rng.integers(0, 4, size=shape) * 0.25
        if dt.kind == "c":
            v = v + 1j * rng.integers(lo, high, size=shape)
        return numpy.asarray(v).astype(dt)

    if layout == "0d":
        return values(())
    if layout == "empty":
        return values((0, 3))
    if layout == "1d":
        return values((7,))
    if layout == "3d":
        return values((2, 3, 4))
    if layout == "broadcast":
        return numpy.broadcast_to(values((1, 4)), (3, 4))
    if layout == "transposed":
        return values((4, 3)).T
    if layout == "negative":
        return values((3, 8))[::-1, ::-2]
    raise ValueError(layout)


def to_kumo(np_arr):
    """The same values and layout as a kumo array (strides reproduced with views)."""
    k = kumo.array(numpy.array(np_arr, order="C"))
    return k if np_arr.flags.c_contiguous else _relayout(np_arr, k)


def _relayout(np_arr, k):
    # Rebuild the same view structure: transposes, reversed and stepped axes,
    # and broadcasting, so kumo sees the same kind of strides as NumPy.
    if np_arr.ndim == 2 and np_arr.strides[0] == 0:
        base = kumo.array(numpy.ascontiguousarray(np_arr[:1]))
        return kumo.broadcast_to(base, np_arr.shape)
    if np_arr.ndim == 2 and np_arr.flags.f_contiguous:
        return kumo.array(numpy.ascontiguousarray(np_arr.T)).T
    if np_arr.ndim == 2 and np_arr.strides[0] < 0:
        base = np_arr[::-1, ::-1]  # positive-stride view over the same data
        kb = kumo.array(numpy.ascontiguousarray(numpy.repeat(base, 2, axis=1)))
        return kb[::-1, ::-2] if np_arr.strides[1] < 0 else kb[::-1, ::2]
    return k


def make_pair(layout, dtype, seed=0):
    n = make_numpy(layout, dtype, seed)
    return n, to_kumo(n)


def _host_result(k, n, check_dtype):
    """The kumo result on the host and NumPy's, after checking type, shape and dtype."""
    assert isinstance(k, kumo.ndarray), "expected a kumo array, got %r" % type(k)
    got = kumo.asnumpy(k)
    n = numpy.asarray(n)
    assert got.shape == n.shape, (got.shape, n.shape)
    if check_dtype:
        assert got.dtype == n.dtype, (got.dtype, n.dtype)
    return got, n


def assert_array_equal(k, n, check_dtype=True):
    """kumo result `k` equals NumPy result `n`: values, shape and dtype."""
    got, n = _host_result(k, n, check_dtype)
    numpy.testing.assert_array_equal(got, n)


def assert_same(k, n):
    """Exact for integer/bool results, close for inexact ones (summation order may differ)."""
    if numpy.asarray(n).dtype.kind in "fc":
        assert_allclose(k, n)
    else:
        assert_array_equal(k, n)


# ---- results of functions that are not correctly rounded ---------------------------
# NumPy evaluates exp, log, sin, power, ... with SIMD loops chosen at run time
# for the CPU it runs on (baseline, AVX2, AVX-512, some of them Intel's SVML),
# and kumo's kernels call the C library or the prelude's own code. None of
# these rounds correctly, so two good answers can differ in the last bits, and
# NumPy's own answer changes from one x86-64 CPU to another. NumPy's accuracy
# tests allow its loops 4 ulp (float32) and 2 ulp (float64) from the exact
# value, and kumo's math is within 1-2 ulp of it, hence these bounds; float16
# is computed in float32 and rounded once more. Exactly defined results
# (integers, bool, + - * /, sqrt, rounding, exactly representable values) are
# still compared bit for bit.
MAX_ULP = {"e": 2, "f": 6, "d": 4}


def ulp_distance(got, want):
    """Per element, |got - want| in units in the last place of `want` (a
    float64 array). For complex values, the larger of the two parts' distances,
    both in ulp of the larger part of `want`. Parts where `want` is not finite
    count as 0: compare those for equality."""
    got, want = numpy.asarray(got), numpy.asarray(want)
    real_dtype = want.real.dtype
    parts = [(got.real, want.real), (got.imag, want.imag)] if want.dtype.kind == "c" else [(got, want)]
    with numpy.errstate(all="ignore"):
        larger = numpy.maximum(numpy.abs(want.real), numpy.abs(want.imag)) if want.dtype.kind == "c" \
            else numpy.abs(want)
        dist = numpy.zeros(want.shape)
        for g, w in parts:
            scale = numpy.where(numpy.isfinite(larger), larger, numpy.abs(w))
            ulp = numpy.spacing(scale.astype(real_dtype)).astype(numpy.float64)
            d = numpy.abs(g.astype(numpy.float64) - w.astype(numpy.float64)) / ulp
            dist = numpy.maximum(dist, numpy.where(numpy.isfinite(w), d, 0.0))
    return dist


def assert_within_ulp(got, want, maxulp=None):
    """NumPy arrays `got` and `want` have NaNs and infinities in the same
    places (real and imaginary parts apart), and every finite value of `got`
    is within `maxulp` ulp of `want` (default MAX_ULP for the dtype)."""
    got, want = numpy.asarray(got), numpy.asarray(want)
    if maxulp is None:
        maxulp = MAX_ULP[want.real.dtype.char]
    parts = [(got.real, want.real), (got.imag, want.imag)] if want.dtype.kind == "c" else [(got, want)]
    for g, w in parts:
        numpy.testing.assert_array_equal(numpy.isnan(g), numpy.isnan(w), err_msg="NaNs in different places")
        inf = numpy.isinf(w)
        numpy.testing.assert_array_equal(numpy.isinf(g), inf, err_msg="infinities in different places")
        numpy.testing.assert_array_equal(g[inf], w[inf], err_msg="infinities of different signs")
    dist = ulp_distance(got, want)
    bad = dist > maxulp
    if bad.any():
        worst = tuple(int(i) for i in numpy.unravel_index(int(numpy.argmax(dist)), dist.shape))
        raise AssertionError("%d of %d values differ by more than %s ulp; the worst, at %s: got %r, want %r "
                             "(%.3g ulp)\ngot:  %r\nwant: %r"
                             % (int(bad.sum()), dist.size, maxulp, worst, got[worst], want[worst], dist[worst],
                                got, want))


def assert_ulp_close(k, n, maxulp=None, check_dtype=True):
    """kumo result `k` matches NumPy's `n` in type, shape and dtype, with
    floating-point values within `maxulp` ulp (see MAX_ULP): for results of
    exp, log, sin, power and the like. Integer and bool results are exact."""
    got, n = _host_result(k, n, check_dtype)
    if n.dtype.kind in "fc":
        assert_within_ulp(got, n, maxulp)
    else:
        numpy.testing.assert_array_equal(got, n)


def assert_allclose(k, n, rtol=None, atol=0, check_dtype=True):
    got, n = _host_result(k, n, check_dtype)
    if rtol is None:
        rtol = {numpy.float16: 1e-3, numpy.float32: 1e-5, numpy.complex64: 1e-5}.get(n.dtype.type, 1e-12)
    numpy.testing.assert_allclose(got, n, rtol=rtol, atol=atol, equal_nan=True)


@pytest.fixture(autouse=True)
def _no_global_state_leak():
    yield


# ---- the kernel cache's work, in the summary --------------------------------
# Each process (each xdist worker) reports how many kernels it compiled and
# how long that took; the summary adds them up, so a log shows what a cold
# cache cost (host compiles, NVRTC compiles for KUMO_VERIFY_CUDA) and how
# much came from the disk cache.
_STAT_KEYS = ("host_compiles", "host_compile_seconds", "cuda_compiles", "cuda_compile_seconds", "disk_hits",
              "cuda_disk_hits")


def pytest_sessionfinish(session):
    all_stats = kumo._core.kernel_cache_stats()
    stats = {k: all_stats[k] for k in _STAT_KEYS}
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller sums them
        workeroutput["kumo_kernel_stats"] = stats
    elif not getattr(session.config.option, "numprocesses", None):  # no workers: this process ran the tests
        session.config._kumo_kernel_stats = [stats]


class _WorkerKernelStats:
    """Collects the workers' kernel cache figures (registered with xdist only)."""

    def __init__(self, config):
        self.config = config
        config._kumo_kernel_stats = []

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        stats = getattr(node, "workeroutput", {}).get("kumo_kernel_stats")
        if stats:
            self.config._kumo_kernel_stats.append(stats)


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_WorkerKernelStats(config), "kumo_worker_kernel_stats")


def pytest_terminal_summary(terminalreporter, config):
    per_process = getattr(config, "_kumo_kernel_stats", [])
    if not per_process:
        return
    total = {k: sum(s[k] for s in per_process) for k in _STAT_KEYS}
    terminalreporter.write_line(
        "kumo kernel cache (%d processes): %d host compiles (%.0f s), %d NVRTC compiles (%.0f s), "
        "%d host and %d CUDA entries from disk"
        % (len(per_process), total["host_compiles"], total["host_compile_seconds"], total["cuda_compiles"],
           total["cuda_compile_seconds"], total["disk_hits"], total["cuda_disk_hits"]))
