"""Full training steps (forward, loss, backward, Adam update) against PyTorch,
JAX and Chainer 7.

Each library builds the model with its own high-level API, the way its users
write it: kumo.autograd.links + optimizers.Adam, torch.nn + torch.optim.Adam
(the default implementation, and fused=True beside it), Chainer's links +
Adam, and JAX with the whole step (gradient and the Adam update, written out)
under one jit. All start from the same weights, float32, learning rate 1e-3.
Kumo, PyTorch and JAX run in this process taking turns in blocks of steps;
Chainer runs in its own interpreter right after (it needs NumPy 1.x).

    bash benchmarks/setup_peers.sh
    .venv-peers/bin/python benchmarks/bench_training.py --chainer-python .venv-chainer/bin/python

``--clock cpu`` times process CPU time with one thread per library (set
KUMO_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1): the figure that
stays stable when other work shares the machine.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy

import bench_autograd as ba

CASES = ["mlp_784_1000_1000_10_b128", "mlp_64_256_256_10_b64", "cnn_mnist_b64"]
LR = 1e-3


# ---- kumo ------------------------------------------------------------------

def kumo_steps():
    import kumo
    import kumo.autograd.functions as F
    import kumo.autograd.links as L
    from kumo.autograd import optimizers

    def trainer(model, x, t, forward):
        opt = optimizers.Adam(alpha=LR)
        opt.setup(model)

        def step():
            model.cleargrads()
            F.softmax_cross_entropy(forward(x), t).backward()
            opt.update()

        return step

    steps = {}
    for name, (sizes, batch) in ba.MLP_SIZES.items():
        weights, xh, th = ba._data(sizes, batch)
        model = L.Sequential(*[L.Linear(W.shape[1], W.shape[0], initialW=W, initial_bias=b) for W, b in weights])
        layers = list(model)

        def forward(x, layers=layers):
            h = x
            for k, layer in enumerate(layers):
                h = layer(h)
                if k + 1 < len(layers):
                    h = F.relu(h)
            return h

        steps[name] = trainer(model, kumo.asarray(xh), kumo.asarray(th), forward)

    p, xh, th = ba._cnn_data()
    model = kumo.autograd.links.Chain()
    with model.init_scope():
        model.c1 = L.Convolution2D(1, 32, 3, pad=1, initialW=p[0], initial_bias=p[1])
        model.c2 = L.Convolution2D(32, 64, 3, pad=1, initialW=p[2], initial_bias=p[3])
        model.l1 = L.Linear(3136, 128, initialW=p[4], initial_bias=p[5])
        model.l2 = L.Linear(128, 10, initialW=p[6], initial_bias=p[7])

    def cnn(x, m=model):
        h = F.max_pooling_2d(F.relu(m.c1(x)), 2)
        h = F.max_pooling_2d(F.relu(m.c2(h)), 2)
        return m.l2(F.relu(m.l1(h)))

    steps["cnn_mnist_b64"] = trainer(model, kumo.asarray(xh), kumo.asarray(th), cnn)
    return steps


# ---- PyTorch ---------------------------------------------------------------

def torch_steps(fused=False):
    import torch
    import torch.nn as nn
    import torch.nn.functional as TF

    torch.set_num_threads(ba.THREADS)

    def linear(W, b):
        layer = nn.Linear(W.shape[1], W.shape[0])
        with torch.no_grad():
            layer.weight.copy_(torch.from_numpy(W))
            layer.bias.copy_(torch.from_numpy(b))
        return layer

    def conv(W, b):
        layer = nn.Conv2d(W.shape[1], W.shape[0], W.shape[2], padding=1)
        with torch.no_grad():
            layer.weight.copy_(torch.from_numpy(W))
            layer.bias.copy_(torch.from_numpy(b))
        return layer

    def trainer(model, x, t):
        opt = torch.optim.Adam(model.parameters(), lr=LR, fused=True if fused else None)

        def step():
            opt.zero_grad(set_to_none=True)
            TF.cross_entropy(model(x), t).backward()
            opt.step()

        return step

    steps = {}
    for name, (sizes, batch) in ba.MLP_SIZES.items():
        weights, xh, th = ba._data(sizes, batch)
        layers = []
        for k, (W, b) in enumerate(weights):
            layers.append(linear(W, b))
            if k + 1 < len(weights):
                layers.append(nn.ReLU())
        steps[name] = trainer(nn.Sequential(*layers), torch.from_numpy(xh), torch.from_numpy(th).long())

    p, xh, th = ba._cnn_data()
    model = nn.Sequential(conv(p[0], p[1]), nn.ReLU(), nn.MaxPool2d(2), conv(p[2], p[3]), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), linear(p[4], p[5]), nn.ReLU(), linear(p[6], p[7]))
    steps["cnn_mnist_b64"] = trainer(model, torch.from_numpy(xh), torch.from_numpy(th).long())
    return steps


# ---- JAX: gradient and Adam update in one jit --------------------------------

def jax_steps():
    import jax
    import jax.numpy as jnp

    b1, b2, eps = 0.9, 0.999, 1e-8

    def xent(logits, t):
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), t[:, None], axis=1))

    def trainer(loss, params, x, t):
        def update(state, x, t):
            params, m, v, step = state
            g = jax.grad(loss)(params, x, t)
            step = step + 1
            m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
            v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, g)
            lr = LR * jnp.sqrt(1 - b2 ** step) / (1 - b1 ** step)
            params = jax.tree_util.tree_map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + eps), params, m, v)
            return params, m, v, step

        update = jax.jit(update, donate_argnums=0)
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        state = [(params, zeros, jax.tree_util.tree_map(jnp.zeros_like, params), jnp.float32(0))]

        def step():
            state[0] = jax.block_until_ready(update(state[0], x, t))

        return step

    steps = {}
    for name, (sizes, batch) in ba.MLP_SIZES.items():
        weights, xh, th = ba._data(sizes, batch)

        def mlp_loss(params, x, t):
            h = x
            for k, (W, b) in enumerate(params):
                h = h @ W.T + b
                if k + 1 < len(params):
                    h = jax.nn.relu(h)
            return xent(h, t)

        params = [(jnp.asarray(W), jnp.asarray(b)) for W, b in weights]
        steps[name] = trainer(mlp_loss, params, jnp.asarray(xh), jnp.asarray(th))

    p, xh, th = ba._cnn_data()

    def conv(h, W, b):
        y = jax.lax.conv_general_dilated(h, W, (1, 1), ((1, 1), (1, 1)), dimension_numbers=("NCHW", "OIHW", "NCHW"))
        return y + b[None, :, None, None]

    def pool(h):
        return jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def cnn_loss(p, x, t):
        h = pool(jax.nn.relu(conv(x, p[0], p[1])))
        h = pool(jax.nn.relu(conv(h, p[2], p[3])))
        h = jax.nn.relu(h.reshape(h.shape[0], -1) @ p[4].T + p[5])
        return xent(h @ p[6].T + p[7], t)

    steps["cnn_mnist_b64"] = trainer(cnn_loss, [jnp.asarray(a) for a in p], jnp.asarray(xh), jnp.asarray(th))
    return steps


# ---- Chainer 7 (NumPy backend) ---------------------------------------------

def chainer_steps():
    import chainer
    import chainer.functions as CF
    import chainer.links as CL

    def trainer(model, x, t, forward):
        opt = chainer.optimizers.Adam(alpha=LR)
        opt.setup(model)

        def step():
            model.cleargrads()
            CF.softmax_cross_entropy(forward(x), t).backward()
            opt.update()

        return step

    steps = {}
    for name, (sizes, batch) in ba.MLP_SIZES.items():
        weights, x, t = ba._data(sizes, batch)
        model = chainer.ChainList(*[CL.Linear(W.shape[1], W.shape[0], initialW=W, initial_bias=b) for W, b in weights])

        def forward(x, model=model):
            h = x
            for k, layer in enumerate(model):
                h = layer(h)
                if k + 1 < len(model):
                    h = CF.relu(h)
            return h

        steps[name] = trainer(model, x, t, forward)

    p, x, t = ba._cnn_data()
    model = chainer.Chain()
    with model.init_scope():
        model.c1 = CL.Convolution2D(1, 32, 3, pad=1, initialW=p[0], initial_bias=p[1])
        model.c2 = CL.Convolution2D(32, 64, 3, pad=1, initialW=p[2], initial_bias=p[3])
        model.l1 = CL.Linear(3136, 128, initialW=p[4], initial_bias=p[5])
        model.l2 = CL.Linear(128, 10, initialW=p[6], initial_bias=p[7])

    def cnn(x, m=model):
        h = CF.max_pooling_2d(CF.relu(m.c1(x)), 2)
        h = CF.max_pooling_2d(CF.relu(m.c2(h)), 2)
        return m.l2(CF.relu(m.l1(h)))

    steps["cnn_mnist_b64"] = trainer(model, x, t, cnn)
    return steps


def measure(libraries, case, rounds, blocks=3):
    """Each library's step in blocks of consecutive calls, the libraries
    taking turns block by block; {name: (min, median)} seconds per step."""
    fns = {name: steps[case] for name, steps in libraries.items() if case in steps}
    per_block = max(1, rounds // blocks)
    times = {name: [] for name in fns}
    for fn in fns.values():  # warm-up: kernel compilation, jit, optimizer state
        for _ in range(3):
            fn()
    for _ in range(blocks):
        for name, fn in fns.items():
            time.sleep(0.05)  # let the previous library's threads go idle
            for _ in range(per_block):
                t0 = ba.clock()
                fn()
                times[name].append(ba.clock() - t0)
    return {name: (min(v), statistics.median(v)) for name, v in times.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chainer-python", help="an interpreter with chainer 7 and NumPy 1.x")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--worker", choices=["chainer"], help=argparse.SUPPRESS)
    parser.add_argument("--clock", choices=sorted(ba.CLOCK), default="wall")
    parser.add_argument("--cases", nargs="*", default=CASES, choices=CASES)
    parser.add_argument("--libs", nargs="*", default=["kumo", "torch", "torch-fused", "jax"])
    args = parser.parse_args()
    ba.clock = ba.CLOCK[args.clock]
    ba.THREADS = 1 if args.clock == "cpu" else 2
    if args.worker == "chainer":
        steps = chainer_steps()
        print(json.dumps({case: measure({"chainer": steps}, case, args.rounds)["chainer"] for case in args.cases}))
        return

    factories = {"kumo": kumo_steps, "torch": torch_steps, "torch-fused": lambda: torch_steps(fused=True),
                 "jax": jax_steps}
    libraries = {}
    for name in args.libs:
        try:
            libraries[name] = factories[name]()
        except ImportError as e:
            print("# %s not installed (%s)" % (name, e), file=sys.stderr)
    results = {case: measure(libraries, case, args.rounds) for case in args.cases}
    if args.chainer_python:
        out = subprocess.run([args.chainer_python, __file__, "--worker", "chainer", "--rounds", str(args.rounds),
                              "--clock", args.clock, "--cases", *args.cases], capture_output=True, text=True)
        if out.returncode == 0:
            for case, value in json.loads(out.stdout.strip().splitlines()[-1]).items():
                results[case]["chainer"] = tuple(value)
        else:
            print("# chainer failed: %s" % out.stderr.strip().splitlines()[-1:], file=sys.stderr)

    peers = [p for p in ("torch", "torch-fused", "jax", "chainer") if any(p in r for r in results.values())]
    print("| case | " + " | ".join(["kumo"] + peers) + " | " + " | ".join("kumo/" + p for p in peers) + " |")
    print("|---" * (1 + 2 * len(peers) + 1) + "|")
    for case in args.cases:
        r = results[case]
        cells = ["%.2f / %.2f ms" % (r[n][0] * 1e3, r[n][1] * 1e3) if n in r else "-" for n in ["kumo"] + peers]
        ratios = ["%.2f" % (r["kumo"][0] / r[p][0]) if p in r and "kumo" in r else "-" for p in peers]
        print("| %s | %s | %s |" % (case, " | ".join(cells), " | ".join(ratios)))
    print("(min / median per step; ratios of minimums, below 1: kumo is faster)")


if __name__ == "__main__":
    main()
