"""The on-disk kernel cache, exercised in subprocesses with a private KUMO_CACHE_DIR."""
import glob
import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

import kumo

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(kumo.__file__)))  # where kumo is imported from

# One user kernel whose source is unique to this test file (the constant), so the
# private cache starts empty for it. Only a few kernels run in the child.
_CHILD = textwrap.dedent("""
    import json, sys, time
    import numpy
    import kumo
    k = kumo.ElementwiseKernel("T x", "T y", "y = x * (T)3 + (T)%(const)s", "cache_probe_%(tag)s")
    x = kumo.asarray(numpy.arange(8, dtype=numpy.float64))
    t0 = time.perf_counter()
    y = k(x)
    t1 = time.perf_counter()
    stats_first = kumo._core.kernel_cache_stats()
    y2 = k(x)
    t2 = time.perf_counter()
    print(json.dumps({"result": kumo.asnumpy(y).tolist(), "again": kumo.asnumpy(y2).tolist(),
                      "first_s": t1 - t0, "second_s": t2 - t1, "stats_first": stats_first,
                      "stats": kumo._core.kernel_cache_stats()}))
""")


def _expected(const):
    return [float(i * 3 + const) for i in range(8)]


def _run_child(cache_dir, const=7, tag="a", **env):
    e = dict(os.environ)
    e["PYTHONPATH"] = PYTHON_DIR + os.pathsep + e.get("PYTHONPATH", "")
    e["KUMO_CACHE_DIR"] = str(cache_dir)
    e.pop("KUMO_VERIFY_CUDA", None)
    e.update(env)
    r = subprocess.run([sys.executable, "-c", _CHILD % {"const": const, "tag": tag}], env=e, capture_output=True,
                       text=True, timeout=300)
    return r


def _run_ok(cache_dir, const=7, tag="a", **env):
    r = _run_child(cache_dir, const, tag, **env)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def _host_entries(cache_dir):
    return sorted(glob.glob(os.path.join(str(cache_dir), "host", "*.so")))


@pytest.fixture
def warm_cache(tmp_path):
    """A private cache filled by one child run."""
    first = _run_ok(tmp_path)
    return tmp_path, first


def test_first_run_compiles(warm_cache):
    cache, first = warm_cache
    assert first["stats"]["host_compiles"] > 0
    assert first["result"] == _expected(7)
    assert _host_entries(cache), "nothing was written to the disk cache"
    for so in _host_entries(cache):
        assert os.path.exists(so + ".sum")


def test_second_process_hits_disk_cache(warm_cache):
    cache, _ = warm_cache
    second = _run_ok(cache)
    assert second["stats"]["host_compiles"] == 0, second["stats"]
    assert second["stats"]["disk_hits"] > 0
    assert second["result"] == _expected(7)


def test_memory_cache_within_process(warm_cache):
    cache, first = warm_cache
    assert first["again"] == _expected(7)
    # the second call neither compiles nor reads the disk again
    for key in ("host_compiles", "disk_hits"):
        assert first["stats"][key] == first["stats_first"][key], (first["stats_first"], first["stats"])


def test_no_temp_files_left(warm_cache):
    cache, _ = warm_cache
    leftovers = [p for p in glob.glob(os.path.join(str(cache), "host", "*")) if not p.endswith((".so", ".so.sum"))]
    assert leftovers == []


def _corrupt_and_rerun(cache, corrupt):
    entries = _host_entries(cache)
    assert entries
    for so in entries:
        corrupt(so)
    r = _run_ok(cache)
    assert r["result"] == _expected(7)
    assert r["stats"]["host_compiles"] > 0, "a damaged entry was loaded instead of rebuilt"
    # the rebuilt entries are whole again: a further run hits the cache
    again = _run_ok(cache)
    assert again["stats"]["host_compiles"] == 0 and again["stats"]["disk_hits"] > 0
    return r


def test_truncated_so_is_rebuilt(warm_cache):
    def truncate(so):
        size = os.path.getsize(so)
        with open(so, "r+b") as f:
            f.truncate(size // 2)
    _corrupt_and_rerun(warm_cache[0], truncate)


def test_empty_so_is_rebuilt(warm_cache):
    def empty(so):
        open(so, "wb").close()
    _corrupt_and_rerun(warm_cache[0], empty)


def test_flipped_bytes_so_is_rebuilt(warm_cache):
    def flip(so):
        with open(so, "r+b") as f:
            data = bytearray(f.read())
            mid = len(data) // 2
            for i in range(mid, mid + 64):
                data[i] ^= 0xFF
            f.seek(0)
            f.write(data)
    _corrupt_and_rerun(warm_cache[0], flip)


def test_swapped_valid_so_is_never_loaded(tmp_path):
    # Kernel B's (valid, loadable) shared object put in place of kernel A's: if the
    # cache loaded it without checking, A would compute B's values.
    cache_a, cache_b = tmp_path / "a", tmp_path / "b"
    _run_ok(cache_a, const=7, tag="s")
    _run_ok(cache_b, const=100, tag="s")
    names_a = {os.path.basename(p) for p in _host_entries(cache_a)}
    names_b = {os.path.basename(p) for p in _host_entries(cache_b)}
    only_a = sorted(names_a - names_b)
    only_b = sorted(names_b - names_a)
    assert len(only_a) == 1 and len(only_b) == 1, (only_a, only_b)
    with open(os.path.join(str(cache_b), "host", only_b[0]), "rb") as f:
        other = f.read()
    with open(os.path.join(str(cache_a), "host", only_a[0]), "wb") as f:
        f.write(other)
    r = _run_ok(cache_a, const=7, tag="s")
    assert r["result"] == _expected(7)
    assert r["stats"]["host_compiles"] > 0


def test_corrupted_sum_is_rebuilt(warm_cache):
    def bad_sum(so):
        with open(so + ".sum", "w") as f:
            f.write("0000000000000000 garbage\n")
    _corrupt_and_rerun(warm_cache[0], bad_sum)


def test_missing_sum_is_rebuilt(warm_cache):
    def no_sum(so):
        os.remove(so + ".sum")
    _corrupt_and_rerun(warm_cache[0], no_sum)


def test_truncated_sum_is_rebuilt(warm_cache):
    def trunc_sum(so):
        with open(so + ".sum", "r+b") as f:
            f.truncate(3)
    _corrupt_and_rerun(warm_cache[0], trunc_sum)


def test_missing_compiler_is_clear_error(tmp_path):
    code = textwrap.dedent("""
        import numpy, kumo
        k = kumo.ElementwiseKernel("T x", "T y", "y = x + (T)1", "nocompiler_probe")
        try:
            k(kumo.asarray(numpy.arange(3.0)))
            print("NO_ERROR")
        except kumo._core.CompileError as e:
            print("COMPILE_ERROR", isinstance(e, RuntimeError), str(e).replace("\\n", " "))
    """)
    e = dict(os.environ)
    e["PYTHONPATH"] = PYTHON_DIR + os.pathsep + e.get("PYTHONPATH", "")
    e["KUMO_CACHE_DIR"] = str(tmp_path / "empty")
    e["KUMO_HOST_CXX"] = "/nonexistent/compiler"
    e.pop("KUMO_VERIFY_CUDA", None)
    r = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.startswith("COMPILE_ERROR True"), r.stdout
    assert "KUMO_HOST_CXX" in r.stdout
    assert "/nonexistent/compiler" in r.stdout


def test_unwritable_cache_dir_still_works(tmp_path):
    if os.geteuid() == 0:
        # root ignores permission bits; use a path below a regular file instead
        blocker = tmp_path / "file"
        blocker.write_text("x")
        cache = blocker / "cache"
    else:
        cache = tmp_path / "ro"
        cache.mkdir()
        cache.chmod(0o500)
    r = _run_ok(cache, const=3, tag="ro")
    assert r["result"] == _expected(3)


def test_report_first_use_latency(tmp_path):
    """Measures (prints, does not assert) the latency of a kernel's first use when
    it must be compiled, when it is on disk (new process), and when in memory."""
    cold = _run_ok(tmp_path, const=11, tag="lat")
    disk = _run_ok(tmp_path, const=11, tag="lat")
    print("\nkernel latency: compile %.3f s, disk cache (new process) %.4f s, memory cache %.6f s"
          % (cold["first_s"], disk["first_s"], disk["second_s"]))
    assert cold["result"] == disk["result"] == _expected(11)


# Two processes start the same new kernel at the same moment (a file
# barrier): one compiles it, the other waits for that compile and loads the
# entry from disk. With KUMO_VERIFY_CUDA=1 the same holds for its NVRTC
# compile (to PTX for compute_80) when the CUDA plugin is there.
_RACER = textwrap.dedent("""
    import json, os, sys, time
    import numpy
    import kumo
    go = sys.argv[1]
    x = kumo.asarray(numpy.arange(8, dtype=numpy.float64))
    k = kumo.ElementwiseKernel("T x", "T y", "y = x * (T)5 + (T)%(const)s", "race_probe_%(tag)s")
    open(sys.argv[2], "w").close()  # ready
    while not os.path.exists(go):
        time.sleep(0.001)
    before = kumo._core.kernel_cache_stats()
    y = k(x)
    after = kumo._core.kernel_cache_stats()
    print(json.dumps({"result": kumo.asnumpy(y).tolist(),
                      "delta": {key: after[key] - before[key] for key in
                                ("host_compiles", "disk_hits", "cuda_compiles", "cuda_disk_hits")}}))
""")


@pytest.mark.parametrize("verify_cuda", ["0", "1"])
def test_racing_processes_compile_a_kernel_once(tmp_path, verify_cuda):
    cache = tmp_path / "cache"
    go = tmp_path / "go"
    e = dict(os.environ)
    e["PYTHONPATH"] = PYTHON_DIR + os.pathsep + e.get("PYTHONPATH", "")
    e["KUMO_CACHE_DIR"] = str(cache)
    e["KUMO_VERIFY_CUDA"] = verify_cuda
    code = _RACER % {"const": 13, "tag": "v" + verify_cuda}
    procs = [subprocess.Popen([sys.executable, "-c", code, str(go), str(tmp_path / ("ready%d" % i))], env=e,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(2)]
    try:
        deadline = time.monotonic() + 240
        while not all((tmp_path / ("ready%d" % i)).exists() for i in range(2)):
            assert time.monotonic() < deadline, "the child processes did not start"
            assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
            time.sleep(0.01)
        go.write_text("")
        outs = [p.communicate(timeout=240) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err[-3000:]
    runs = [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]
    assert all(r["result"] == [float(i * 5 + 13) for i in range(8)] for r in runs)
    compiles = sum(r["delta"]["host_compiles"] for r in runs)
    assert compiles >= 1 and sum(r["delta"]["disk_hits"] for r in runs) == compiles, runs
    assert sorted(r["delta"]["host_compiles"] for r in runs)[0] == 0, runs
    if verify_cuda == "1" and kumo._core.cuda.plugin_load_error() == "":
        assert sum(r["delta"]["cuda_compiles"] for r in runs) == 1, runs  # compute_80 PTX, once
        assert sum(r["delta"]["cuda_disk_hits"] for r in runs) == 1, runs
