"""Many Python threads using kumo at once: every result checked against
NumPy, on private arrays and on arrays all threads read; errors raised in
one thread stay in that thread."""
import threading

import numpy
import pytest

import kumo
from kumo import autograd as ag

THREADS = 8
ROUNDS = 6


def _mixed_work(seed, shared_k, shared_n, failures):
    rng = numpy.random.default_rng(seed)
    try:
        for r in range(ROUNDS):
            n = rng.standard_normal((37, 23))
            k = kumo.asarray(n)
            checks = [
                (kumo.arange(50) * 3, numpy.arange(50) * 3),
                (kumo.exp(k) + k * 2, numpy.exp(n) + n * 2),
                (k.sum(axis=0), n.sum(axis=0)),
                (kumo.max(shared_k, axis=1), numpy.max(shared_n, axis=1)),
                (shared_k[kumo.asarray([3, 1, 4, 1])] + k[:4, :9], shared_n[[3, 1, 4, 1]] + n[:4, :9]),
                (k[::-1, ::2][k[::-1, ::2] > 0], n[::-1, ::2][n[::-1, ::2] > 0]),
                (kumo.sort(k, axis=1), numpy.sort(n, axis=1)),
                (kumo.linalg.solve(k[:5, :5] + 5 * kumo.eye(5), k[:5, :1]),
                 numpy.linalg.solve(n[:5, :5] + 5 * numpy.eye(5), n[:5, :1])),
                (kumo.unique((k * 3).astype("int64")), numpy.unique((n * 3).astype("int64"))),
            ]
            for got, want in checks:
                numpy.testing.assert_allclose(kumo.asnumpy(got), want, rtol=1e-10, atol=1e-12)
            x = ag.Variable(kumo.asarray(n[:3]))
            y = ag.functions.sum(ag.functions.tanh(x) * x)
            y.backward()
            t = numpy.tanh(n[:3])
            numpy.testing.assert_allclose(kumo.asnumpy(x.grad), t + n[:3] * (1 - t * t), rtol=1e-10)
    except Exception as e:  # noqa: BLE001 - reported by the main thread
        failures.append((seed, repr(e)))


def test_eight_threads_of_mixed_operations_all_match_numpy():
    shared_n = numpy.random.default_rng(99).standard_normal((16, 9))
    shared_k = kumo.asarray(shared_n)
    shared_k.flags.writeable = False  # every thread reads it, none writes
    failures = []
    threads = [threading.Thread(target=_mixed_work, args=(s, shared_k, shared_n, failures)) for s in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread hangs"
    assert failures == []
    numpy.testing.assert_array_equal(kumo.asnumpy(shared_k), shared_n)


def test_errors_in_threads_stay_in_their_thread():
    errors = []

    def bad(i):
        try:
            if i % 2:
                kumo.arange(10)[kumo.asarray([0, 99])]  # IndexError from the gather's check
            else:
                kumo.ones((3, 4)) @ kumo.ones((5, 6))   # ValueError from the product
        except (IndexError, ValueError) as e:
            errors.append(type(e))

    threads = [threading.Thread(target=bad, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(e.__name__ for e in errors) == ["IndexError"] * 4 + ["ValueError"] * 4
    assert float(kumo.arange(4).sum()) == 6  # the process goes on


@pytest.mark.parametrize("shape", [(2**40,), (2**20, 2**20), (2**50,)])
def test_an_allocation_the_machine_cannot_back_is_a_memory_error(shape):
    with pytest.raises(MemoryError):
        kumo.zeros(shape, dtype=numpy.uint8)
    assert float(kumo.ones(3).sum()) == 3.0


def test_a_request_above_the_available_memory_is_refused_before_it_is_touched():
    # More than MemAvailable but less than what the address space allows:
    # Linux would map it and kill the process on first touch.
    with open("/proc/meminfo") as f:
        info = dict(line.split(":", 1) for line in f)
    avail = int(info["MemAvailable"].split()[0]) * 1024 + int(info.get("SwapFree", "0 kB").split()[0]) * 1024
    with pytest.raises(MemoryError, match="available"):
        kumo.empty(int(avail * 1.5) // 8, dtype=numpy.float64)


def test_without_the_availability_check_the_system_refusal_is_reported():
    import subprocess
    import sys
    code = ("import kumo, numpy\n"
            "try:\n    kumo.empty(2**62, dtype=numpy.int8)\n"
            "except MemoryError as e:\n    print('mmap(' in str(e))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=dict(__import__("os").environ, KUMO_HOST_MEMORY_CHECK="0"))
    assert out.stdout.strip() == "True", out.stderr
