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
