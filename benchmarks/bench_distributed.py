"""kumo.distributed's speed on one machine (not asserted):

1. allreduce bandwidth of host arrays, 1 KiB to 256 MiB, 2 processes:
   kumo's MPI communicator (in place on a kumo array) against mpi4py's
   Allreduce on a NumPy buffer (the same Open MPI underneath);
2. the digits CNN's epoch time with 1 and 2 processes (the same global batch).

    python benchmarks/bench_distributed.py            # launches mpiexec itself
    python benchmarks/bench_distributed.py --part allreduce|epoch

Needs Open MPI (mpiexec) and, for the comparison, mpi4py.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [1 << k for k in range(10, 29, 2)]  # 1 KiB .. 256 MiB


def mpi_env(threads):
    env = dict(os.environ)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMPI_MCA_btl_vader_single_copy_mechanism": "none", "KUMO_DEVICE": "cpu",
                "KUMO_NUM_THREADS": str(threads), "OMP_NUM_THREADS": str(threads),
                "OPENBLAS_NUM_THREADS": str(threads)})
    return env


def launch(n, worker, threads):
    cmd = ["mpiexec", "-n", str(n), "--oversubscribe", sys.executable, os.path.abspath(__file__), "--worker", worker]
    out = subprocess.run(cmd, env=mpi_env(threads), capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def timed(fn, seconds=0.5, min_reps=3):
    """Median time of fn after a warm-up; repeats for about `seconds` (every
    process runs the same count: the count comes from the first timing, made
    collective by the barrier in fn's caller)."""
    fn()
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    reps = max(min_reps, min(200, int(seconds / max(once, 1e-6))))
    return reps, once


def worker_allreduce():
    import kumo
    import kumo.distributed as kd
    os.environ["KUMO_DISTRIBUTED_BLOCKING"] = "0"  # read when a communicator is created
    comm = kd.create_communicator("naive")
    os.environ["KUMO_DISTRIBUTED_BLOCKING"] = "1"
    blocking = kd.create_communicator("naive")
    try:
        from mpi4py import MPI
    except ImportError:
        MPI = None
    rows = []
    for nbytes in SIZES:
        n = nbytes // 4
        x = kumo.ones(n, dtype="float32")
        reps, _ = timed(lambda: comm.inplace_allreduce(x))
        reps = comm.bcast_obj(reps)  # everyone repeats equally often
        times = []
        for _ in range(reps):
            comm.barrier()
            t = time.perf_counter()
            comm.inplace_allreduce(x)
            times.append(time.perf_counter() - t)
        row = {"bytes": nbytes, "kumo_s": float(numpy.median(times))}
        blocking.inplace_allreduce(x)
        times = []
        for _ in range(reps):
            blocking.barrier()
            t = time.perf_counter()
            blocking.inplace_allreduce(x)
            times.append(time.perf_counter() - t)
        row["kumo_blocking_s"] = float(numpy.median(times))
        if MPI is not None:
            buf = numpy.ones(n, dtype=numpy.float32)
            world = MPI.COMM_WORLD
            world.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
            times = []
            for _ in range(reps):
                world.Barrier()
                t = time.perf_counter()
                world.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)
                times.append(time.perf_counter() - t)
            row["mpi4py_s"] = float(numpy.median(times))
        rows.append(row)
    if comm.rank == 0:
        print(json.dumps({"size": comm.size, "rows": rows}))


def worker_epoch():
    import kumo
    import kumo.autograd.links as L
    import kumo.distributed as kd
    from kumo.autograd import datasets, iterators, optimizers, training
    sys.path.insert(0, os.path.join(HERE, "..", "examples"))
    from train_digits import DigitsCNN
    comm = kd.create_communicator("naive")
    kumo.random.seed(0)
    model = L.Classifier(DigitsCNN())
    model(kumo.zeros((1, 1, 8, 8), dtype="float32"), kumo.zeros((1,), dtype="int32"))
    optimizer = kd.create_multi_node_optimizer(optimizers.Adam(), comm).setup(model)
    train, _ = datasets.get_digits(ndim=3) if comm.rank == 0 else (None, None)
    train = kd.scatter_dataset(train, comm, shuffle=True, seed=0)
    batch = 64 // comm.size  # the same global batch of 64 for every process count
    updater = training.StandardUpdater(iterators.SerialIterator(train, batch), optimizer)
    epochs = 4
    trainer = training.Trainer(updater, (epochs, "epoch"))
    marks = []
    trainer.extend(lambda t: marks.append(time.perf_counter()), trigger=(1, "epoch"))
    trainer.run()
    epoch_s = (marks[-1] - marks[0]) / (len(marks) - 1)  # the first epoch is a warm-up
    epoch_s = max(comm.allgather_obj(epoch_s))
    if comm.rank == 0:
        print(json.dumps({"size": comm.size, "epoch_s": epoch_s, "iterations_per_epoch": len(train) // batch}))


def report_allreduce(result):
    print("allreduce (sum, float32, in place), %d processes; median times; algorithm bandwidth = bytes / time"
          % result["size"])
    print("kumo blocking: the default, blocking calls under the watchdog; kumo nonblocking: "
          "KUMO_DISTRIBUTED_BLOCKING=0 (nonblocking calls polled against the timeout)")
    print("| size | kumo nonblocking | kumo blocking | mpi4py | nonblocking / mpi4py bandwidth | "
          "blocking / mpi4py bandwidth |")
    print("|---:|---:|---:|---:|---:|---:|")
    for row in result["rows"]:
        size = row["bytes"]
        label = "%d KiB" % (size >> 10) if size < (1 << 20) else "%d MiB" % (size >> 20)
        if "mpi4py_s" in row:
            print("| %s | %.1f us | %.1f us | %.1f us | %.2f | %.2f |" % (
                label, row["kumo_s"] * 1e6, row["kumo_blocking_s"] * 1e6, row["mpi4py_s"] * 1e6,
                row["mpi4py_s"] / row["kumo_s"], row["mpi4py_s"] / row["kumo_blocking_s"]))
        else:
            print("| %s | %.1f us | %.1f us | - | - | - |" % (label, row["kumo_s"] * 1e6, row["kumo_blocking_s"] * 1e6))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["all", "allreduce", "epoch"], default="all")
    parser.add_argument("--worker", choices=["allreduce", "epoch"])
    parser.add_argument("--json", help="also write the allreduce times here (input of benchmarks/scaling_model.py)")
    args = parser.parse_args()
    if args.worker == "allreduce":
        return worker_allreduce()
    if args.worker == "epoch":
        return worker_epoch()
    if args.part in ("all", "allreduce"):
        result = launch(2, "allreduce", threads=1)
        report_allreduce(result)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=1)
    if args.part in ("all", "epoch"):
        print("\ndigits CNN (examples/train_digits.py's model), Adam, global batch 64, host backend; "
              "mean of epochs 2-4")
        one = launch(1, "epoch", threads=2)
        two = launch(2, "epoch", threads=1)
        print("| processes | threads each | epoch time | iterations per epoch | speed-up |")
        print("|---:|---:|---:|---:|---:|")
        for r in (one, two):
            threads = 2 if r["size"] == 1 else 1
            print("| %d | %d | %.3f s | %d | %.2f |" % (r["size"], threads, r["epoch_s"], r["iterations_per_epoch"],
                                                        one["epoch_s"] / r["epoch_s"]))


if __name__ == "__main__":
    sys.exit(main())
