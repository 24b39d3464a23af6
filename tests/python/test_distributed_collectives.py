"""kumo.distributed's MPI communicator: every collective on every dtype, run
under mpiexec with 2 and 3 processes, compared with NumPy on the inputs each
rank contributed (distributed_workers/inputs.py)."""
import functools
import os

import numpy
import pytest

from distributed_workers.inputs import DTYPES, make_input, with_nans
from distributed_workers.launch import mpirun, requires_mpi

pytestmark = requires_mpi
# (processes, KUMO_DISTRIBUTED_BLOCKING): the default blocking calls under the
# watchdog, and the nonblocking ones polled against the timeout
RUNS = [(2, "1"), (3, "1"), (3, "0")]


@pytest.fixture(scope="module", params=RUNS, ids=lambda p: "np%d%s" % (p[0], "-nonblocking" if p[1] == "0" else ""))
def run(request, tmp_path_factory):
    n, blocking = request.param
    out = tmp_path_factory.mktemp("collectives%d" % n)
    mpirun(n, "collectives.py", out, env={"KUMO_DISTRIBUTED_BLOCKING": blocking})
    results = [dict(numpy.load(os.path.join(out, "rank%d.npz" % r))) for r in range(n)]
    errors = []
    for r in range(n):
        with open(os.path.join(out, "errors%d.txt" % r)) as f:
            errors.append(dict(line.split() for line in f if line.strip()))
    return n, results, errors


def _inputs(n, dt, **kw):
    return [make_input(r, dt, **kw) for r in range(n)]


def _close(actual, expected, dt):
    assert actual.dtype == numpy.dtype(dt)
    assert actual.shape == expected.shape
    if numpy.dtype(dt).kind in "fc":
        tol = 1e-3 if numpy.dtype(dt) == numpy.float16 else 1e-6
        numpy.testing.assert_allclose(actual, expected.astype(dt), rtol=tol, atol=tol)
    else:
        numpy.testing.assert_array_equal(actual, expected.astype(dt))


def test_topology(run):
    n, results, _ = run
    assert [int(r["rank"]) for r in results] == list(range(n))
    assert all(int(r["size"]) == n for r in results)
    # one machine: every process is intra, one inter group per intra rank
    assert [int(r["intra_rank"]) for r in results] == list(range(n))
    assert all(int(r["intra_size"]) == n and int(r["inter_size"]) == 1 for r in results)
    assert all(int(r["inter_rank"]) == 0 for r in results)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_allreduce(run, dt, op):
    n, results, _ = run
    ufunc = {"sum": numpy.add, "max": numpy.maximum, "min": numpy.minimum}[op]
    expected = functools.reduce(ufunc, _inputs(n, dt))
    for r in range(n):
        _close(results[r]["allreduce_%s_%s" % (op, dt)], expected, dt)


@pytest.mark.parametrize("dt", [d for d in DTYPES if numpy.dtype(d).kind in "fc"])
def test_allreduce_mean(run, dt):
    n, results, _ = run
    expected = functools.reduce(numpy.add, [x.astype(numpy.complex128) for x in _inputs(n, dt)]) / n
    if numpy.dtype(dt).kind == "f":
        expected = expected.real
    for r in range(n):
        _close(results[r]["allreduce_mean_%s" % dt], expected, dt)


@pytest.mark.parametrize("dt", [d for d in DTYPES if numpy.dtype(d).kind in "bui"])
def test_allreduce_mean_of_integers_is_a_type_error(run, dt):
    n, _, errors = run
    assert all(e["allreduce_mean_%s" % dt] == "TypeError" for e in errors)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
@pytest.mark.parametrize("op", ["max", "min"])
def test_allreduce_max_min_propagate_nan(run, dt, op):
    n, results, _ = run
    ufunc = numpy.maximum if op == "max" else numpy.minimum
    expected = functools.reduce(ufunc, [with_nans(r, dt) for r in range(n)])
    for r in range(n):
        numpy.testing.assert_array_equal(results[r]["nan_%s_%s" % (op, dt)], expected)


@pytest.mark.parametrize("dt", DTYPES)
def test_allreduce_in_place_and_strided(run, dt):
    n, results, _ = run
    total = functools.reduce(numpy.add, _inputs(n, dt))
    for r in range(n):
        _close(results[r]["inplace_sum_%s" % dt], total, dt)
        expected = make_input(r, dt)
        expected[:, ::2] = total[:, ::2]  # only the view changed
        _close(results[r]["strided_sum_%s" % dt], expected, dt)


@pytest.mark.parametrize("dt", DTYPES)
def test_bcast(run, dt):
    n, results, _ = run
    for r in range(n):
        numpy.testing.assert_array_equal(results[r]["bcast_%s" % dt], make_input(n - 1, dt))


@pytest.mark.parametrize("dt", DTYPES)
def test_allgather_with_different_shapes(run, dt):
    n, results, _ = run
    for r in range(n):
        for i in range(n):
            numpy.testing.assert_array_equal(results[r]["allgather_%s_%d" % (dt, i)], make_input(i, dt, (i + 1, 2)))


@pytest.mark.parametrize("dt", DTYPES)
def test_gather_on_root_only(run, dt):
    n, results, _ = run
    for i in range(n):
        numpy.testing.assert_array_equal(results[0]["gather_%s_%d" % (dt, i)], make_input(i, dt).T)
    assert not any(k.startswith("gather_%s_" % dt) for k in results[1])


@pytest.mark.parametrize("dt", DTYPES)
def test_scatter(run, dt):
    n, results, _ = run
    for r in range(n):
        numpy.testing.assert_array_equal(results[r]["scatter_%s" % dt], make_input(0, dt, (r + 1,), salt=3))


@pytest.mark.parametrize("dt", DTYPES)
def test_alltoall(run, dt):
    n, results, _ = run
    for r in range(n):
        for i in range(n):
            numpy.testing.assert_array_equal(results[r]["alltoall_%s_%d" % (dt, i)],
                                             make_input(i, dt, (r + 1, 2), salt=5))


@pytest.mark.parametrize("dt", DTYPES)
def test_send_recv_ring(run, dt):
    n, results, _ = run
    for r in range(n):
        numpy.testing.assert_array_equal(results[r]["recv_%s" % dt], make_input((r - 1) % n, dt))


def test_empty_and_zero_d(run):
    n, results, _ = run
    for r in range(n):
        assert results[r]["empty_allreduce"].shape == (0, 3)
        assert results[r]["empty_bcast"].shape == (0, 3)
        assert results[r]["zero_d_allreduce"].shape == ()
        assert float(results[r]["zero_d_allreduce"]) == sum(k + 1.5 for k in range(n))


def test_bad_arguments_raise_value_error(run):
    _, _, errors = run
    assert all(e["bad_op"] == "ValueError" and e["bad_root"] == "ValueError" for e in errors)
    assert all(e["bad_name"] == "ValueError" and e["bad_mpi_comm"] == "TypeError" for e in errors)


def test_objects(run):
    n, results, _ = run
    for r in range(n):
        assert int(results[r]["allreduce_obj"]) == sum(range(1, n + 1))
        assert results[r]["bcast_obj"].tolist() == [1, 2, 0]
        assert results[r]["allgather_obj"].tolist() == [2 * k for k in range(n)]
        assert results[r]["recv_obj"].tolist() == [(r - 1) % n, 100000]
    assert results[n - 1]["gather_obj"].tolist() == list(range(n))


def test_split(run):
    n, results, _ = run
    for r in range(n):
        members = [k for k in range(n) if k % 2 == r % 2]
        assert int(results[r]["split_size"]) == len(members)
        assert int(results[r]["split_rank"]) == sorted(members, reverse=True).index(r)  # key = -rank
        assert results[r]["split_sum"].tolist() == [sum(members)]


def test_scatter_index(run):
    n, results, _ = run
    length = -(-10 // n)
    for r in range(n):
        start = 10 * r // n
        assert results[r]["scatter_index"].tolist() == [start, start + length]
        assert results[r]["scatter_index_unequal"].tolist() == [start, 10 * (r + 1) // n]


def test_import_kumo_needs_no_mpi():
    """kumo and kumo.distributed load the MPI layer only when a communicator is made."""
    import subprocess
    import sys
    code = ("import sys, kumo, kumo.distributed; "
            "assert 'kumo._distributed' not in sys.modules, 'loaded at import'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_communicator_from_mpi4py(run):
    n, results, _ = run
    if "mpi4py_split_sum" not in results[0]:
        pytest.skip("mpi4py is not installed")
    for r in range(n):
        assert results[r]["mpi4py_split_sum"].tolist() == [sum(k for k in range(n) if k % 2 == r % 2)]
