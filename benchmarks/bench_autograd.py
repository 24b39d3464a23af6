"""Autograd speed: kumo.autograd against PyTorch (CPU), JAX and Chainer 7.

Each case is one forward + backward (no optimizer step: that comes with the
optimizers), float32, on 2 threads. Kumo, PyTorch and JAX run in this
process, taking turns in blocks of steps; Chainer needs NumPy 1.x,
so it runs in its own interpreter right after (``--chainer-python``).
Reported: the minimum and the median per step, and kumo's minimum over
each peer's. A peer that is not importable is reported as missing.

    bash benchmarks/setup_peers.sh           # .venv-peers (torch, jax), .venv-chainer
    .venv-peers/bin/python benchmarks/bench_autograd.py --chainer-python .venv-chainer/bin/python
"""
import argparse
import json
import math
import statistics
import subprocess
import sys
import time

import numpy

CASES = ["relu10", "mlp_784_1000_1000_10_b128", "mlp_64_256_256_10_b64", "cnn_mnist_b64"]
# --clock cpu times process CPU time with one thread per library (set
# KUMO_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1): the figure
# that stays stable when other work shares the machine.
CLOCK = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter
THREADS = 2
MLP_SIZES = {"mlp_784_1000_1000_10_b128": ((784, 1000, 1000, 10), 128), "mlp_64_256_256_10_b64": ((64, 256, 256, 10), 64)}


def _data(sizes, batch):
    rng = numpy.random.default_rng(0)
    weights = [(rng.standard_normal((o, i)).astype(numpy.float32) * numpy.float32(math.sqrt(2.0 / i)),
                numpy.zeros(o, numpy.float32)) for i, o in zip(sizes[:-1], sizes[1:])]
    x = rng.standard_normal((batch, sizes[0])).astype(numpy.float32)
    t = rng.integers(0, sizes[-1], batch).astype(numpy.int32)
    return weights, x, t


def _cnn_data(batch=64):
    rng = numpy.random.default_rng(0)

    def w(*shape):
        fan_in = numpy.prod(shape[1:])
        return rng.standard_normal(shape).astype(numpy.float32) * numpy.float32(math.sqrt(2.0 / fan_in))

    params = [w(32, 1, 3, 3), numpy.zeros(32, numpy.float32), w(64, 32, 3, 3), numpy.zeros(64, numpy.float32),
              w(128, 3136), numpy.zeros(128, numpy.float32), w(10, 128), numpy.zeros(10, numpy.float32)]
    x = rng.standard_normal((batch, 1, 28, 28)).astype(numpy.float32)
    t = rng.integers(0, 10, batch).astype(numpy.int32)
    return params, x, t


# ---- kumo ------------------------------------------------------------------

def kumo_steps():
    import kumo
    import kumo.autograd.functions as F
    from kumo.autograd import Variable

    steps = {}
    x10 = Variable(kumo.asarray(numpy.linspace(-1, 1, 10, dtype=numpy.float32)))
    g10 = kumo.ones(10, dtype=kumo.float32)

    def relu10():
        y = F.relu(x10)
        y.grad = g10
        y.backward()
        x10.cleargrad()

    steps["relu10"] = relu10

    def mlp(sizes, batch):
        weights, xh, th = _data(sizes, batch)
        params = [(Variable(kumo.asarray(W)), Variable(kumo.asarray(b))) for W, b in weights]
        x, t = kumo.asarray(xh), kumo.asarray(th)

        def step():
            for W, b in params:
                W.cleargrad()
                b.cleargrad()
            h = x
            for k, (W, b) in enumerate(params):
                h = F.linear(h, W, b)
                if k + 1 < len(params):
                    h = F.relu(h)
            F.softmax_cross_entropy(h, t).backward()

        return step

    for name, (sizes, batch) in MLP_SIZES.items():
        steps[name] = mlp(sizes, batch)

    if hasattr(F, "convolution_2d") and hasattr(F, "max_pooling_2d"):
        ph, xh, th = _cnn_data()
        params = [Variable(kumo.asarray(p)) for p in ph]
        x, t = kumo.asarray(xh), kumo.asarray(th)

        def cnn():
            for p in params:
                p.cleargrad()
            h = F.max_pooling_2d(F.relu(F.convolution_2d(x, params[0], params[1], pad=1)), 2)
            h = F.max_pooling_2d(F.relu(F.convolution_2d(h, params[2], params[3], pad=1)), 2)
            h = F.relu(F.linear(h, params[4], params[5]))
            F.softmax_cross_entropy(F.linear(h, params[6], params[7]), t).backward()

        steps["cnn_mnist_b64"] = cnn
    return steps


# ---- PyTorch ---------------------------------------------------------------

def torch_steps():
    import torch
    import torch.nn.functional as TF

    torch.set_num_threads(THREADS)
    steps = {}
    x10 = torch.linspace(-1, 1, 10, requires_grad=True)
    g10 = torch.ones(10)

    def relu10():
        torch.relu(x10).backward(g10)
        x10.grad = None

    steps["relu10"] = relu10

    def mlp(sizes, batch):
        weights, xh, th = _data(sizes, batch)
        params = [(torch.tensor(W, requires_grad=True), torch.tensor(b, requires_grad=True)) for W, b in weights]
        x, t = torch.tensor(xh), torch.tensor(th).long()

        def step():
            for W, b in params:
                W.grad = None
                b.grad = None
            h = x
            for k, (W, b) in enumerate(params):
                h = TF.linear(h, W, b)
                if k + 1 < len(params):
                    h = torch.relu(h)
            TF.cross_entropy(h, t).backward()

        return step

    for name, (sizes, batch) in MLP_SIZES.items():
        steps[name] = mlp(sizes, batch)

    ph, xh, th = _cnn_data()
    params = [torch.tensor(p, requires_grad=True) for p in ph]
    x, t = torch.tensor(xh), torch.tensor(th).long()

    def cnn():
        for p in params:
            p.grad = None
        h = TF.max_pool2d(torch.relu(TF.conv2d(x, params[0], params[1], padding=1)), 2)
        h = TF.max_pool2d(torch.relu(TF.conv2d(h, params[2], params[3], padding=1)), 2)
        h = torch.relu(TF.linear(h.reshape(h.shape[0], -1), params[4], params[5]))
        TF.cross_entropy(TF.linear(h, params[6], params[7]), t).backward()

    steps["cnn_mnist_b64"] = cnn
    return steps


# ---- JAX (jit of the whole forward + backward) --------------------------------

def jax_steps():
    import jax
    import jax.numpy as jnp

    steps = {}
    relu_grad = jax.jit(lambda x, g: jax.vjp(jax.nn.relu, x)[1](g)[0])
    x10 = jnp.linspace(-1, 1, 10, dtype=jnp.float32)
    g10 = jnp.ones(10, jnp.float32)
    steps["relu10"] = lambda: relu_grad(x10, g10).block_until_ready()

    def xent(logits, t):
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), t[:, None], axis=1))

    def mlp(sizes, batch):
        weights, xh, th = _data(sizes, batch)
        params = [(jnp.asarray(W), jnp.asarray(b)) for W, b in weights]
        x, t = jnp.asarray(xh), jnp.asarray(th)

        def loss(params):
            h = x
            for k, (W, b) in enumerate(params):
                h = h @ W.T + b
                if k + 1 < len(params):
                    h = jax.nn.relu(h)
            return xent(h, t)

        g = jax.jit(jax.grad(loss))
        return lambda: jax.block_until_ready(g(params))

    for name, (sizes, batch) in MLP_SIZES.items():
        steps[name] = mlp(sizes, batch)

    ph, xh, th = _cnn_data()
    params = [jnp.asarray(p) for p in ph]
    x, t = jnp.asarray(xh), jnp.asarray(th)

    def conv(h, W, b):
        y = jax.lax.conv_general_dilated(h, W, (1, 1), ((1, 1), (1, 1)), dimension_numbers=("NCHW", "OIHW", "NCHW"))
        return y + b[None, :, None, None]

    def pool(h):
        return jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def cnn_loss(p):
        h = pool(jax.nn.relu(conv(x, p[0], p[1])))
        h = pool(jax.nn.relu(conv(h, p[2], p[3])))
        h = jax.nn.relu(h.reshape(h.shape[0], -1) @ p[4].T + p[5])
        return xent(h @ p[6].T + p[7], t)

    g = jax.jit(jax.grad(cnn_loss))
    steps["cnn_mnist_b64"] = lambda: jax.block_until_ready(g(params))
    return steps


# ---- Chainer 7 (NumPy backend) ---------------------------------------------

def chainer_steps():
    import chainer
    import chainer.functions as CF

    steps = {}
    x10 = chainer.Variable(numpy.linspace(-1, 1, 10, dtype=numpy.float32))
    g10 = numpy.ones(10, numpy.float32)

    def relu10():
        y = CF.relu(x10)
        y.grad = g10
        y.backward()
        x10.cleargrad()

    steps["relu10"] = relu10

    def mlp(sizes, batch):
        weights, x, t = _data(sizes, batch)
        params = [(chainer.Parameter(W), chainer.Parameter(b)) for W, b in weights]

        def step():
            for W, b in params:
                W.cleargrad()
                b.cleargrad()
            h = x
            for k, (W, b) in enumerate(params):
                h = CF.linear(h, W, b)
                if k + 1 < len(params):
                    h = CF.relu(h)
            CF.softmax_cross_entropy(h, t).backward()

        return step

    for name, (sizes, batch) in MLP_SIZES.items():
        steps[name] = mlp(sizes, batch)

    ph, x, t = _cnn_data()
    params = [chainer.Parameter(p) for p in ph]

    def cnn():
        for p in params:
            p.cleargrad()
        h = CF.max_pooling_2d(CF.relu(CF.convolution_2d(x, params[0], params[1], pad=1)), 2)
        h = CF.max_pooling_2d(CF.relu(CF.convolution_2d(h, params[2], params[3], pad=1)), 2)
        h = CF.relu(CF.linear(h, params[4], params[5]))
        CF.softmax_cross_entropy(CF.linear(h, params[6], params[7]), t).backward()

    steps["cnn_mnist_b64"] = cnn
    return steps


def measure(libraries, case, rounds, blocks=3):
    """Runs each library's step in blocks of consecutive calls, the libraries
    taking turns block by block (so load changes hit all of them, while one
    library's spinning worker threads do not steal the cores from another's
    call); returns {name: (min, median)} per step in seconds."""
    fns = {name: steps[case] for name, steps in libraries.items() if case in steps}
    inner = 100 if case == "relu10" else 1
    per_block = max(1, rounds // blocks)
    times = {name: [] for name in fns}
    for fn in fns.values():  # warm-up: kernel compilation, jit, caches
        for _ in range(3):
            fn()
    for _ in range(blocks):
        for name, fn in fns.items():
            time.sleep(0.05)  # let the previous library's threads go idle
            for _ in range(per_block):
                t0 = clock()
                for _ in range(inner):
                    fn()
                times[name].append((clock() - t0) / inner)
    return {name: (min(v), statistics.median(v)) for name, v in times.items()}


def _load(name, factory):
    try:
        return factory()
    except ImportError as e:
        print("# %s not installed (%s)" % (name, e), file=sys.stderr)
        return None


def main():
    global clock, THREADS, CASES
    parser = argparse.ArgumentParser()
    parser.add_argument("--chainer-python", help="an interpreter with chainer 7 and NumPy 1.x")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--worker", choices=["chainer"], help=argparse.SUPPRESS)
    parser.add_argument("--clock", choices=sorted(CLOCK), default="wall")
    parser.add_argument("--cases", nargs="*", default=CASES, choices=CASES)
    args = parser.parse_args()
    clock = CLOCK[args.clock]
    THREADS = 1 if args.clock == "cpu" else 2
    CASES = args.cases
    if args.worker == "chainer":
        steps = chainer_steps()
        print(json.dumps({case: measure({"chainer": steps}, case, args.rounds)["chainer"] for case in CASES}))
        return

    libraries = {}
    for name, factory in (("kumo", kumo_steps), ("torch", torch_steps), ("jax", jax_steps)):
        steps = _load(name, factory)
        if steps is not None:
            libraries[name] = steps
    results = {case: measure(libraries, case, args.rounds) for case in CASES}
    if args.chainer_python:
        out = subprocess.run([args.chainer_python, __file__, "--worker", "chainer", "--rounds", str(args.rounds),
                              "--clock", args.clock, "--cases", *CASES],
                             capture_output=True, text=True)
        if out.returncode == 0:
            for case, value in json.loads(out.stdout.strip().splitlines()[-1]).items():
                results[case]["chainer"] = tuple(value)
        else:
            print("# chainer failed: %s" % out.stderr.strip().splitlines()[-1:], file=sys.stderr)

    peers = [p for p in ("torch", "jax", "chainer") if any(p in r for r in results.values())]
    print("%-28s" % "case" + "".join("%22s" % n for n in ["kumo"] + peers) + "".join(
        "%14s" % ("kumo/" + p) for p in peers))
    for case in CASES:
        r = results[case]
        if "kumo" not in r:
            print("%-28s kumo has no %s yet" % (case, case))
            continue
        unit, scale = ("us", 1e6) if case == "relu10" else ("ms", 1e3)
        cells = []
        for name in ["kumo"] + peers:
            cells.append("%22s" % ("%.1f / %.1f %s" % (r[name][0] * scale, r[name][1] * scale, unit)
                                   if name in r else "-"))
        ratios = ["%14s" % ("%.2f" % (r["kumo"][0] / r[p][0]) if p in r else "-") for p in peers]
        print("%-28s" % case + "".join(cells) + "".join(ratios))
    print("(min / median per step; ratios of minimums, below 1: kumo is faster)")


if __name__ == "__main__":
    main()
