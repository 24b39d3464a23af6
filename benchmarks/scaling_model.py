"""A model of data-parallel scaling by ring all-reduce, fitted to kumo's
measured all-reduce times and used to predict ResNet-50 on 8 to 1024 GPUs.

Ring all-reduce of S bytes over N processes takes 2(N - 1) steps, each
moving S/N bytes over the slowest link of the ring:

    T(S, N) = 2 (N - 1) alpha + 2 (N - 1) / N * S / B

alpha is the latency of one step and B the bus bandwidth (NCCL's "busbw":
the algorithm bandwidth S/T times 2(N - 1)/N, which is the same for every N
on a given link). The script

1. fits alpha and B to kumo's own all-reduce measurements (host arrays over
   MPI, written by bench_distributed.py as JSON), to check that the model
   describes measured times and to give a measured per-step latency;
2. predicts the iteration time of ResNet-50 (25.56 M float32 parameters,
   batch 32 per GPU) with B taken from published bus bandwidths of the links
   of ChainerMN's cluster, and compares the scaling efficiency with
   ChainerMN's published figures.

Run: python benchmarks/bench_distributed.py --part allreduce --json times.json
     python benchmarks/scaling_model.py times.json
"""
import argparse
import json
import sys

import numpy

# ResNet-50: 25,557,032 parameters, gradients all-reduced in float32.
RESNET50_GRADIENT_BYTES = 25_557_032 * 4

# ChainerMN's ImageNet run (Akiba, Suzuki and Fukuda, 2017): 1024 Tesla P100
# GPUs (128 nodes of 8, PCIe), InfiniBand FDR, batch 32 per GPU, 90 epochs
# in 15 minutes: 1.28 M * 90 / 900 s = 128 k images/s, 125 per GPU.
PUBLISHED = {
    "gpus": 1024,
    "images_per_second_per_gpu": 1_281_167 * 90 / (15 * 60) / 1024,
    "efficiency_vs_1_gpu": 0.70,
    "efficiency_vs_8_gpu_node": 0.80,
}
BATCH_PER_GPU = 32
# The per-GPU compute time of one iteration. The published run implies
# 0.70 efficiency at 125 images/s per GPU, so one P100 alone processes
# 125 / 0.70 = 179 images/s: 32 images in 0.179 s.
COMPUTE_SECONDS = BATCH_PER_GPU / (PUBLISHED["images_per_second_per_gpu"] / PUBLISHED["efficiency_vs_1_gpu"])

# Bus bandwidths (GB/s) and per-step latencies of the links (assumed from
# the hardware's published figures: PCIe 3.0 x16 moves about 12 GB/s in one
# direction and NCCL's rings reach about 10 GB/s busbw over it; two
# InfiniBand FDR 4x ports per node carry 2 x 56 Gb/s = 14 GB/s of which
# NCCL reaches about 11 GB/s; an InfiniBand hop costs about 5 us).
LINKS = {
    "intra_node": {"busbw": 10e9, "alpha": None},  # alpha: the fitted, measured one
    "inter_node": {"busbw": 11e9, "alpha": 5e-6},
}


def measured_points(result):
    """(nprocs, bytes, seconds) of kumo's default (blocking) all-reduce from
    bench_distributed.py's JSON."""
    return [{"nprocs": result["size"], "bytes": row["bytes"], "seconds": row["kumo_blocking_s"]}
            for row in result["rows"]]


def fit(points):
    """Least-squares alpha and B of T = 2(N-1) alpha + 2(N-1)/N S / B."""
    n = numpy.array([p["nprocs"] for p in points], float)
    s = numpy.array([p["bytes"] for p in points], float)
    t = numpy.array([p["seconds"] for p in points], float)
    # Relative errors matter across six decades of sizes: weight by 1/t.
    design = numpy.stack([2 * (n - 1), 2 * (n - 1) / n * s], axis=1) / t[:, None]
    (alpha, inv_bw), *_ = numpy.linalg.lstsq(design, numpy.ones_like(t), rcond=None)
    model = 2 * (n - 1) * alpha + 2 * (n - 1) / n * s * inv_bw
    return alpha, 1.0 / inv_bw, numpy.abs(model / t - 1)


def allreduce_seconds(nbytes, gpus, alpha_intra):
    if gpus == 1:
        return 0.0
    link = LINKS["intra_node"] if gpus <= 8 else LINKS["inter_node"]
    alpha = link["alpha"] if link["alpha"] is not None else alpha_intra
    return 2 * (gpus - 1) * alpha + 2 * (gpus - 1) / gpus * nbytes / link["busbw"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("measurements", help="the JSON of bench_distributed.py --json")
    parser.add_argument("--min-bytes", type=float, default=0, help="fit only sizes from this")
    parser.add_argument("--max-bytes", type=float, default=float("inf"),
                        help="fit only sizes up to this (larger ones are noisy on a loaded machine)")
    args = parser.parse_args(argv)
    with open(args.measurements) as f:
        points = [p for p in measured_points(json.load(f)) if args.min_bytes <= p["bytes"] <= args.max_bytes]
    alpha, bandwidth, rel_err = fit(points)
    print(f"fit to {len(points)} measured all-reduces: alpha = {alpha * 1e6:.2f} us per step, "
          f"B = {bandwidth / 1e9:.2f} GB/s; relative error median {numpy.median(rel_err):.1%}, "
          f"max {rel_err.max():.1%}")
    print(f"ResNet-50: {RESNET50_GRADIENT_BYTES / 1e6:.1f} MB of gradients, compute {COMPUTE_SECONDS * 1e3:.0f} ms "
          f"per iteration (batch {BATCH_PER_GPU} per GPU)")
    print("| GPUs | all-reduce (ms) | iteration (ms) | efficiency vs 1 GPU | vs one 8-GPU node |")
    print("|---|---|---|---|---|")
    base = COMPUTE_SECONDS
    node = COMPUTE_SECONDS + allreduce_seconds(RESNET50_GRADIENT_BYTES, 8, alpha)
    for gpus in (8, 16, 32, 64, 128, 256, 512, 1024):
        comm = allreduce_seconds(RESNET50_GRADIENT_BYTES, gpus, alpha)
        it = COMPUTE_SECONDS + comm
        print(f"| {gpus} | {comm * 1e3:.1f} | {it * 1e3:.1f} | {base / it:.2f} | {node / it:.2f} |")
    print(f"ChainerMN published at {PUBLISHED['gpus']} GPUs: {PUBLISHED['efficiency_vs_1_gpu']:.2f} vs 1 GPU, "
          f"{PUBLISHED['efficiency_vs_8_gpu_node']:.2f} vs one 8-GPU node")
    # The inter-node bus bandwidth at which the model reproduces the published
    # efficiency: T_allreduce = compute (1 / efficiency - 1).
    gpus = PUBLISHED["gpus"]
    needed = COMPUTE_SECONDS * (1 / PUBLISHED["efficiency_vs_1_gpu"] - 1)
    latency = 2 * (gpus - 1) * LINKS["inter_node"]["alpha"]
    implied = 2 * (gpus - 1) / gpus * RESNET50_GRADIENT_BYTES / (needed - latency)
    print(f"the model meets the published {PUBLISHED['efficiency_vs_1_gpu']:.2f} at {gpus} GPUs with an all-reduce of "
          f"{needed * 1e3:.1f} ms, i.e. an effective inter-node bus bandwidth of {implied / 1e9:.2f} GB/s "
          f"(assumed above: {LINKS['inter_node']['busbw'] / 1e9:.0f} GB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
