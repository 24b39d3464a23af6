"""The caching memory pools (CuPy's API) on the host backend."""
import gc
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import kumo
from kumo.cuda.memory import OutOfMemoryError

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(kumo.__file__)))  # where kumo is imported from
MB = 1 << 20


@pytest.fixture
def pool():
    p = kumo.get_default_memory_pool()
    gc.collect()
    p.free_all_blocks()
    yield p
    p.set_limit(size=0)
    gc.collect()
    p.free_all_blocks()


def test_default_pool_is_stable(pool):
    assert kumo.get_default_memory_pool() is pool or \
        kumo.get_default_memory_pool()._raw_name == pool._raw_name


def test_used_bytes_grow_with_arrays(pool):
    before = pool.used_bytes()
    a = kumo.empty(4 * MB // 8, dtype=numpy.float64)
    assert pool.used_bytes() >= before + 4 * MB
    assert pool.total_bytes() >= pool.used_bytes()
    del a


def test_freed_array_goes_back_to_pool(pool):
    a = kumo.empty(4 * MB, dtype=numpy.uint8)
    used = pool.used_bytes()
    total = pool.total_bytes()
    del a
    gc.collect()
    assert pool.used_bytes() <= used - 4 * MB
    assert pool.total_bytes() == total  # cached, not returned to the system
    assert pool.free_bytes() >= 4 * MB
    assert pool.n_free_blocks() >= 1


def test_cached_block_is_reused(pool):
    a = kumo.empty(4 * MB, dtype=numpy.uint8)
    del a
    gc.collect()
    total = pool.total_bytes()
    b = kumo.empty(4 * MB, dtype=numpy.uint8)
    assert pool.total_bytes() == total
    del b


def test_free_all_blocks(pool):
    a = kumo.empty(4 * MB, dtype=numpy.uint8)
    del a
    gc.collect()
    assert pool.free_bytes() > 0
    pool.free_all_blocks()
    assert pool.free_bytes() == 0
    assert pool.n_free_blocks() == 0
    assert pool.total_bytes() == pool.used_bytes()


def test_view_keeps_memory_alive(pool):
    a = kumo.arange(MB, dtype=numpy.int64)
    v = a[::2]
    used = pool.used_bytes()
    del a
    gc.collect()
    assert pool.used_bytes() == used
    assert int(v[3]) == 6


def test_figures_are_consistent(pool):
    keep = [kumo.empty(n, dtype=numpy.uint8) for n in (1000, 123457, 3 * MB)]
    del keep[1]
    gc.collect()
    assert pool.total_bytes() == pool.used_bytes() + pool.free_bytes()
    del keep


def test_limit_raises_out_of_memory(pool):
    pool.set_limit(size=8 * MB)
    assert pool.get_limit() == 8 * MB
    try:
        with pytest.raises(OutOfMemoryError) as info:
            kumo.empty(16 * MB, dtype=numpy.uint8)
        assert isinstance(info.value, MemoryError)
        msg = str(info.value)
        assert str(16 * MB) in msg or "16777216" in msg.replace(",", ""), msg
    finally:
        pool.set_limit(size=0)


def test_pool_works_after_out_of_memory(pool):
    pool.set_limit(size=8 * MB)
    try:
        with pytest.raises(MemoryError):
            kumo.zeros(4 * MB, dtype=numpy.float64)
        small = kumo.ones(1000)  # within the limit
        assert float(kumo.sum(small)) == 1000.0
    finally:
        pool.set_limit(size=0)
    big = kumo.ones(4 * MB, dtype=numpy.uint8)
    assert int(big[-1]) == 1


def test_limit_counts_existing_allocations(pool):
    keep = kumo.empty(6 * MB, dtype=numpy.uint8)
    try:
        pool.set_limit(size=pool.used_bytes() + 2 * MB)
        with pytest.raises(OutOfMemoryError):
            kumo.empty(4 * MB, dtype=numpy.uint8)
    finally:
        pool.set_limit(size=0)
    del keep


def test_limit_frees_cached_blocks_before_failing(pool):
    a = kumo.empty(6 * MB, dtype=numpy.uint8)
    del a
    gc.collect()
    pool.set_limit(size=pool.used_bytes() + 8 * MB)
    try:
        # 6 MB cached + 7 MB new would exceed the limit: the pool must release the cache and retry
        b = kumo.empty(7 * MB, dtype=numpy.uint8)
        assert b.nbytes == 7 * MB
    finally:
        pool.set_limit(size=0)


def test_out_of_memory_from_operation(pool):
    x = kumo.ones(MB, dtype=numpy.float64)
    pool.set_limit(size=pool.used_bytes() + MB)
    try:
        with pytest.raises(OutOfMemoryError):
            x + x  # needs 8 MB for the result
    finally:
        pool.set_limit(size=0)


def test_out_of_memory_error_class():
    assert issubclass(OutOfMemoryError, MemoryError)
    assert kumo.cuda.memory.OutOfMemoryError is OutOfMemoryError


def test_pool_malloc(pool):
    m = pool.malloc(1000)
    assert m.size >= 1000
    assert m.ptr != 0
    used = pool.used_bytes()
    assert used >= 1000
    del m
    gc.collect()
    assert pool.used_bytes() <= used - 1000


def test_zero_size_array(pool):
    a = kumo.empty(0)
    assert a.size == 0


@pytest.mark.skipif(kumo.cuda.is_available(), reason="checks the no-GPU behaviour")
def test_pinned_pool_without_gpu_is_clear():
    code = textwrap.dedent("""
        import kumo
        try:
            p = kumo.get_default_pinned_memory_pool()
        except Exception as e:
            print("RAISED", type(e).__name__, str(e).replace("\\n", " "))
        else:
            figures = (p.used_bytes(), p.total_bytes(), p.free_bytes(), p.n_free_blocks())
            print("POOL", figures)
            try:
                m = p.malloc(4096)
                print("MALLOC_OK", m.size)
            except Exception as e:
                print("MALLOC_RAISED", type(e).__name__, str(e).replace("\\n", " "))
    """)
    env = dict(os.environ)
    env["PYTHONPATH"] = PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, "crashed: %s" % r.stderr[-2000:]
    out = r.stdout.strip()
    assert out, r.stderr
    if out.startswith("RAISED"):
        assert len(out.split(" ", 2)[2]) > 10  # a message that says why
    else:
        assert out.startswith("POOL (0, 0, 0, 0)"), out
        last = out.splitlines()[-1]
        assert last.startswith(("MALLOC_OK", "MALLOC_RAISED")), out
        if last.startswith("MALLOC_RAISED"):
            assert len(last.split(" ", 2)[2]) > 10


def test_cuda_unavailable_reason():
    if kumo.cuda.is_available():
        assert kumo.cuda.get_device_count() > 0
    else:
        assert kumo.cuda.unavailable_reason()
        assert kumo.cuda.get_device_count() == 0


# ---------------------------------------------------------------------------
# Host memory goes back to the system: the host pool caches only blocks up to
# a threshold and only up to a byte budget (KUMO_HOST_POOL_LIMIT).

GB = 10**9
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")


def _resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture
def host_pool():
    with kumo.Device("cpu"):
        p = kumo.get_default_memory_pool()
        gc.collect()
        p.free_all_blocks()
        yield p
        gc.collect()
        p.free_all_blocks()


@linux_only
def test_freed_large_array_leaves_the_process(host_pool):
    pool = host_pool
    kumo.ones(10, dtype=numpy.int8)  # the fill kernel is loaded before the baseline
    gc.collect()
    used0, total0 = pool.used_bytes(), pool.total_bytes()
    rss0 = _resident_bytes()
    a = kumo.ones(2 * GB, dtype=numpy.int8)  # ones writes every byte: all of it is resident
    grown = _resident_bytes() - rss0
    assert grown >= 2 * GB - 100 * MB, "the array was not resident (%d bytes)" % grown
    assert pool.used_bytes() == used0 + 2 * GB
    assert pool.total_bytes() == total0 + 2 * GB
    assert int(a[-1]) == 1
    del a
    gc.collect()
    rss1 = _resident_bytes()
    assert abs(rss1 - rss0) < 100 * MB, "resident memory %d MB over the start after del" % ((rss1 - rss0) // MB)
    assert pool.used_bytes() == used0
    assert pool.total_bytes() == total0  # returned, not cached
    assert pool.free_bytes() == total0 - used0


@linux_only
def test_host_refusal_raises_out_of_memory_with_sizes_and_call(host_pool):
    pool = host_pool
    keep = kumo.ones(1000, dtype=numpy.int8)
    used, total = pool.used_bytes(), pool.total_bytes()
    with pytest.raises(OutOfMemoryError) as info:
        kumo.empty(2**62, dtype=numpy.int8)  # more than any address space: the system refuses
    assert isinstance(info.value, MemoryError)
    msg = str(info.value)
    assert "4,611,686,018,427,387,904 bytes" in msg, msg
    assert "on host: mmap(" in msg, msg
    assert "retrying" in msg, msg
    assert pool.used_bytes() == used
    assert pool.total_bytes() <= total  # at most the cache went back
    assert int(kumo.sum(keep)) == 1000
    b = kumo.ones(1000, dtype=numpy.int8)  # and the pool still works
    assert int(b[-1]) == 1


def _run_with_limit(code, limit, prelude=""):
    """Runs code in a fresh interpreter on the CPU device with KUMO_HOST_POOL_LIMIT=limit."""
    env = dict(os.environ)
    env["PYTHONPATH"] = PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
    env["KUMO_DEVICE"] = "cpu"
    env["KUMO_HOST_POOL_LIMIT"] = limit
    source = textwrap.dedent(prelude) + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", source], env=env, capture_output=True, text=True, timeout=300)


_STATM = """
    import gc, os
    import kumo, numpy
    MB = 1 << 20
    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    pool = kumo.get_default_memory_pool()
    kumo.ones(10, dtype=numpy.int8)
    gc.collect()
"""


@linux_only
def test_limit_bounds_the_cache_over_many_sizes():
    # Twelve arrays of different sizes (40-62 MB, under the 64 MB threshold
    # of a 256 MB budget), each freed before the next: 600 MB in all, which
    # an unbounded pool would keep.
    r = _run_with_limit("""
        used0 = pool.used_bytes()
        rss0 = rss()
        worst = 0
        for i in range(12):
            a = kumo.ones((40 + 2 * i) * MB, dtype=numpy.int8)
            del a
            gc.collect()
            assert pool.free_bytes() <= 256 * MB, pool.free_bytes()
            assert pool.total_bytes() == pool.used_bytes() + pool.free_bytes()
            worst = max(worst, rss() - rss0)
        assert pool.used_bytes() == used0, (pool.used_bytes(), used0)
        cached = pool.total_bytes()
        assert cached >= 200 * MB, cached  # the most recent sizes stay cached...
        b = kumo.ones(62 * MB, dtype=numpy.int8)
        assert pool.total_bytes() == cached  # ...and are reused
        del b
        print("OK", worst // MB, (rss() - rss0) // MB)
    """, "256M", prelude=_STATM)
    assert r.returncode == 0, r.stderr[-3000:]
    ok, worst, end = r.stdout.split()
    assert ok == "OK"
    assert int(worst) < 256 + 62 + 100, r.stdout  # budget + one live array + slack
    assert int(end) < 256 + 100, r.stdout


@linux_only
def test_zero_limit_caches_nothing():
    r = _run_with_limit("""
        for n in (1000, 3 * MB, 40 * MB):
            a = kumo.ones(n, dtype=numpy.int8)
            del a
            gc.collect()
            assert pool.free_bytes() == 0, (n, pool.free_bytes())
            assert pool.total_bytes() == pool.used_bytes()
        print("OK")
    """, "0", prelude=_STATM)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == "OK"


def test_bad_limit_is_a_clear_error():
    r = _run_with_limit("""
        import kumo
        try:
            kumo.ones(3)
        except ValueError as e:
            print("ValueError", e)
    """, "lots")
    out = r.stdout + r.stderr  # raised at import or at first use: either way, said clearly
    assert "ValueError" in out and "KUMO_HOST_POOL_LIMIT='lots'" in out, (r.stdout, r.stderr[-3000:])
    assert "512M" in out
