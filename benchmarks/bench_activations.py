"""Activation forward + backward: kumo.autograd against PyTorch (CPU).

One step is the activation's forward on 10^6 float32 elements (1000 x 1000;
softmax family along axis 1, prelu/swish with a parameter per column) and
its backward for a given output gradient (kumo.autograd.grad /
torch.autograd.grad, no double backprop). The two libraries alternate step
by step; reported: the best time of each over the rounds, in ms.

PyTorch is imported from the running interpreter and kumo from wherever it
is importable (e.g. PYTHONPATH at a venv's site-packages):

    KUMO_NUM_THREADS=1 PYTHONPATH=<venv>/lib/python3.11/site-packages \\
        <python with torch> benchmarks/bench_activations.py --threads 1

Without PyTorch only kumo's column is printed.
"""
import argparse
import time

import numpy

import kumo
import kumo.autograd.functions as KF
from kumo.autograd import Variable, grad

try:
    import torch
    import torch.nn.functional as TF
except ImportError:  # kumo alone
    torch = None

SHAPE = (1000, 1000)


def _cases():
    """name -> (kumo fn, torch fn, takes a per-column parameter). The torch
    lambdas only run when torch is importable."""
    return {
        "leaky_relu": (lambda x: KF.leaky_relu(x, 0.2), lambda x: TF.leaky_relu(x, 0.2), False),
        "elu": (lambda x: KF.elu(x), lambda x: TF.elu(x), False),
        "selu": (lambda x: KF.selu(x), lambda x: TF.selu(x), False),
        "celu": (lambda x: KF.celu(x), lambda x: TF.celu(x), False),
        "gelu (erf)": (lambda x: KF.gelu(x), lambda x: TF.gelu(x), False),
        "gelu (tanh)": (lambda x: KF.gelu(x, approximate=True), lambda x: TF.gelu(x, approximate="tanh"), False),
        "sigmoid": (lambda x: KF.sigmoid(x), lambda x: torch.sigmoid(x), False),
        "silu": (lambda x: KF.silu(x), lambda x: TF.silu(x), False),
        # PyTorch has no swish with a learned beta: its composition
        "swish (beta per column)": (lambda x, b: KF.swish(x, b), lambda x, b: x * torch.sigmoid(b * x), True),
        "prelu (W per column)": (lambda x, w: KF.prelu(x, w), lambda x, w: TF.prelu(x, w), True),
        # torch's hardsigmoid has slope 1/6; Chainer's 0.2, composed
        "hard_sigmoid": (lambda x: KF.hard_sigmoid(x), lambda x: torch.clamp(0.2 * x + 0.5, 0, 1), False),
        "softplus": (lambda x: KF.softplus(x), lambda x: TF.softplus(x), False),
        "clipped_relu": (lambda x: KF.clipped_relu(x, 20.0), lambda x: TF.hardtanh(x, 0.0, 20.0), False),
        "softmax (axis 1)": (lambda x: KF.softmax(x, axis=1), lambda x: torch.softmax(x, 1), False),
        "log_softmax (axis 1)": (lambda x: KF.log_softmax(x, axis=1), lambda x: torch.log_softmax(x, 1), False),
        "logsumexp (axis 1)": (lambda x: KF.logsumexp(x, axis=1), lambda x: torch.logsumexp(x, 1), False),
    }


def _best(fn, rounds, other=None):
    best = float("inf")
    best_other = float("inf")
    fn()
    if other:
        other()
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
        if other:
            t0 = time.perf_counter()
            other()
            best_other = min(best_other, time.perf_counter() - t0)
    return best * 1e3, best_other * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1, help="PyTorch's threads (kumo: KUMO_NUM_THREADS)")
    args = ap.parse_args()
    if torch:
        torch.set_num_threads(args.threads)
    rng = numpy.random.default_rng(0)
    xn = rng.standard_normal(SHAPE).astype(numpy.float32)
    gn = rng.standard_normal(SHAPE).astype(numpy.float32)
    pn = rng.uniform(0.5, 1.5, SHAPE[1]).astype(numpy.float32)
    xk, pk = kumo.asarray(xn), kumo.asarray(pn)
    print("| activation, 10^6 float32, forward + backward | kumo (ms) | PyTorch (ms) | kumo/PyTorch |")
    print("|---|---|---|---|")
    for name, (kfn, tfn, param) in _cases().items():
        gshape = (SHAPE[0],) if name.startswith("logsumexp") else SHAPE
        gk = kumo.asarray(gn[:, 0].copy() if len(gshape) == 1 else gn)

        def kumo_step():
            ins = [Variable(xk)] + ([Variable(pk)] if param else [])
            y = kfn(*ins)
            grad([y], ins, [gk])

        torch_step = None
        if torch is not None:
            xt = torch.from_numpy(xn).requires_grad_()
            pt = torch.from_numpy(pn).requires_grad_()
            gt = torch.from_numpy(gn[:, 0].copy() if len(gshape) == 1 else gn)

            def torch_step():
                ins = [xt] + ([pt] if param else [])
                y = tfn(*ins)
                torch.autograd.grad([y], ins, [gt])

        tk, tt = _best(kumo_step, args.rounds, torch_step)
        if torch_step:
            print("| %s | %.2f | %.2f | %.2f |" % (name, tk, tt, tk / tt), flush=True)
        else:
            print("| %s | %.2f | - | - |" % (name, tk), flush=True)


if __name__ == "__main__":
    main()
