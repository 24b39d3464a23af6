"""Fused optimizer updates: Adam over 10^7 float32 parameters, kumo's
multi-tensor kernel against PyTorch's fused and foreach CPU Adam, with the
machine's copy bandwidth measured in the same run.

One Adam step reads p, g, m, v and writes p, m, v: 7 x 4 bytes x 10^7 = 280 MB.
A copy of N bytes moves 2N bytes. GB/s below are those bytes over the best time.

    python benchmarks/bench_optimizers.py --lib kumo    # kumo alone
    python benchmarks/bench_optimizers.py --lib torch   # PyTorch alone (a separate process: kumo's pool
                                                        # threads and PyTorch's OpenMP threads spin against
                                                        # each other when they take turns in one process)
"""
import argparse
import time

import numpy

import kumo
from kumo.autograd import optimizers as O

try:
    import torch
except ImportError:  # kumo-only run
    torch = None

from _sidebyside import case


class _Param:
    def __init__(self, array):
        self.array, self.grad, self.name, self.update_rule = array, None, None, None


class _Link:
    def __init__(self, params):
        self._params = params

    def params(self, include_uninit=True):
        return iter(self._params)

    def namedparams(self, include_uninit=True):
        return (("/p%d" % i, p) for i, p in enumerate(self._params))


def best(fn, repeat):
    fn()
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def row(label, seconds, nbytes):
    print("%-52s %9.3f ms  %7.1f GB/s" % (label, seconds * 1e3, nbytes / seconds / 1e9), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10 ** 7)
    ap.add_argument("--tensors", type=int, default=10, help="the n parameters are split into this many tensors")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--lib", choices=["kumo", "torch", "both"], default="both")
    args = ap.parse_args()
    n, k = args.n, args.tensors
    step_bytes = 7 * 4 * n

    # Copy bandwidth on this machine (2 cores): 256 MB float32, read + write.
    src = numpy.random.default_rng(0).standard_normal(2 ** 26).astype(numpy.float32)
    dst = numpy.empty_like(src)
    ksrc, kdst = kumo.asarray(src), kumo.empty_like(kumo.asarray(src))
    row("numpy copy 256 MB", best(lambda: numpy.copyto(dst, src), args.repeat), 2 * src.nbytes)
    if args.lib != "torch":
        case("copy 256 MB float32 (numpy | kumo)", lambda: numpy.copyto(dst, src),
             lambda: kumo.copyto(kdst, ksrc), args.repeat)
        row("kumo copy 256 MB", best(lambda: kumo.copyto(kdst, ksrc), args.repeat), 2 * src.nbytes)
    del src, dst, ksrc, kdst

    sizes = [n // k] * k
    sizes[-1] += n - sum(sizes)
    rng = numpy.random.default_rng(1)
    init = [rng.standard_normal(s).astype(numpy.float32) for s in sizes]
    grads = [rng.standard_normal(s).astype(numpy.float32) * 1e-3 for s in sizes]

    if args.lib != "torch":
        params = [_Param(kumo.asarray(a)) for a in init]
        for p, g in zip(params, grads):
            p.grad = kumo.asarray(g)
        opt = O.Adam(alpha=1e-3)
        opt.setup(_Link(params))
        t_kumo = best(opt.update, args.repeat)
        row("kumo Adam (%d tensors, one fused launch)" % k, t_kumo, step_bytes)

    if torch is not None and args.lib != "kumo":
        torch.set_num_threads(2)
        for mode in ("fused", "foreach"):
            tp = [torch.nn.Parameter(torch.from_numpy(a.copy())) for a in init]
            for p, g in zip(tp, grads):
                p.grad = torch.from_numpy(g.copy())
            topt = torch.optim.Adam(tp, lr=1e-3, **{mode: True})
            t = best(topt.step, args.repeat)
            row("torch %s Adam (%d tensors)" % (mode, k), t, step_bytes)
            if args.lib == "both":
                # kumo again right after, so both see the same machine load
                row("kumo Adam again", best(opt.update, args.repeat), step_bytes)
                print("kumo / torch %s: %.2f" % (mode, t_kumo / t), flush=True)


if __name__ == "__main__":
    main()
