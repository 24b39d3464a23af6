"""The host's parallel sort of one long row (routines/sort_keys.h,
sort_runs_and_merge: runs sorted side by side, then merged by co-ranking)
compared with NumPy: dtypes (8-byte ones take it, the others the general
path), strides, ties, special values and the lengths around where it starts
(2 * 2**17 elements on two or more host threads; a child process with
KUMO_NUM_THREADS=4 covers four runs and two merge rounds)."""
import os
import subprocess
import sys

import numpy
import pytest

import kumo
from conftest import assert_array_equal

MERGE_DTYPES = [numpy.float16, numpy.float32, numpy.float64, numpy.int16, numpy.uint16, numpy.int32,
                numpy.uint32, numpy.int64, numpy.uint64]
LONG = 600_001


def _data(dtype, n, seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind == "f":
        x = (rng.standard_normal(n) * 100).astype(dtype)
        x[::1009] = numpy.nan
        x[5::2003] = numpy.inf
        x[7::3001] = -numpy.inf
        return x
    info = numpy.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("dtype", MERGE_DTYPES)
def test_long_row_matches_numpy(dtype):
    n = _data(dtype, LONG)
    assert_array_equal(kumo.sort(kumo.asarray(n)), numpy.sort(n))


@pytest.mark.parametrize("layout", ["strided", "negative", "flattened"])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int64])
def test_long_row_layouts(layout, dtype):
    base = _data(dtype, 2 * LONG, seed=1)
    k = kumo.asarray(base)
    if layout == "strided":
        n, kk = base[::2], k[::2]
    elif layout == "negative":
        n, kk = base[::-1], k[::-1]
    else:
        n, kk = base[:1_200_000].reshape(600, 2000).T, k[:1_200_000].reshape(600, 2000).T
        assert_array_equal(kumo.sort(kk, axis=None), numpy.sort(n, axis=None))
        return
    assert_array_equal(kumo.sort(kk), numpy.sort(n))


@pytest.mark.parametrize("length", [262_143, 262_144, 262_145, 524_288, 1_000_003])
def test_long_row_lengths_around_the_threshold(length):
    n = _data(numpy.float64, length, seed=length)
    assert_array_equal(kumo.sort(kumo.asarray(n)), numpy.sort(n))


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64])
def test_long_row_many_ties(dtype):
    # Ties across the runs' boundary exercise the co-ranking.
    rng = numpy.random.default_rng(2)
    n = rng.integers(0, 3, LONG).astype(dtype)
    assert_array_equal(kumo.sort(kumo.asarray(n)), numpy.sort(n))
    s = numpy.sort(rng.integers(0, 5, LONG)).astype(dtype)
    assert_array_equal(kumo.sort(kumo.asarray(s)), s)
    assert_array_equal(kumo.sort(kumo.asarray(s[::-1].copy())), s)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_long_row_signed_zeros_keep_their_order(dtype):
    # -0.0 cannot come back from its key: the stable argsort path takes over.
    rng = numpy.random.default_rng(3)
    n = rng.choice(numpy.array([-0.0, 0.0, 1.0, -1.0, numpy.nan], dtype=dtype), LONG)
    k = kumo.sort(kumo.asarray(n))
    want = numpy.sort(n, kind="stable")
    assert_array_equal(k, want)
    assert (numpy.signbit(kumo.asnumpy(k)) == numpy.signbit(want)).all()


def test_long_row_nan_payloads_come_back():
    n = _data(numpy.float64, LONG, seed=4)
    bits = n.view(numpy.uint64)
    bits[3::4001] = 0x7FF0000000000123  # a signalling NaN with a payload
    bits[9::5003] = 0xFFF8000000000000  # a negative quiet NaN
    got = kumo.asnumpy(kumo.sort(kumo.asarray(n)))
    want = numpy.sort(n, kind="stable")
    assert (got.view(numpy.uint64) == want.view(numpy.uint64)).all()


_CHILD = r"""
import numpy, kumo
assert kumo._core.host_num_threads() == 4
rng = numpy.random.default_rng(5)
for dtype in (numpy.float64, numpy.int64, numpy.uint64):
    for n in (262_143, 262_144, 600_001, 1_048_583):
        if numpy.dtype(dtype).kind == "f":
            x = rng.standard_normal(n) * 100
            x[::1009] = numpy.nan
            x[5::2003] = numpy.inf
        else:
            info = numpy.iinfo(dtype)
            x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        for v in (x, x[::-1], x[::2], numpy.sort(x), rng.integers(0, 3, n).astype(dtype)):
            got = kumo.asnumpy(kumo.sort(kumo.asarray(v)))
            want = numpy.sort(v)
            assert (got.view(numpy.uint64) == want.view(numpy.uint64)).all(), (dtype, n)
z = rng.choice(numpy.array([-0.0, 0.0, 1.0, numpy.nan]), 600_001)
got = kumo.asnumpy(kumo.sort(kumo.asarray(z)))
assert (numpy.signbit(got) == numpy.signbit(numpy.sort(z, kind="stable"))).all()
print("ok")
"""


def test_merged_runs_on_four_threads():
    env = dict(os.environ, KUMO_NUM_THREADS="4")
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
