"""Convolution and pooling of kumo.autograd.functions against PyTorch's CPU
implementation (when torch is importable) and against NumPy's im2col +
matmul (always): the pieces of a training step of a small CNN, forward and
forward + backward. Both sides use the same float32 data and all cores, or
KUMO_NUM_THREADS each (with OPENBLAS_NUM_THREADS set to the same, BLAS too).

    python benchmarks/bench_conv.py [repeat]
    KUMO_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_conv.py [repeat]
"""
import os
import sys
import time

import numpy
from numpy.lib.stride_tricks import sliding_window_view

import kumo
import kumo.autograd.functions as F
from kumo.autograd import Variable

try:
    import torch
except ImportError:  # compared with NumPy only
    torch = None


# One thread each: the process's CPU time, which other processes on a busy
# machine do not inflate the way they inflate wall time.
clock = time.process_time if os.environ.get("KUMO_NUM_THREADS") == "1" else time.perf_counter


def pair(label, ref_name, ref_fn, kumo_fn, repeat, width=44):
    """Alternating runs, best of each (as _sidebyside.case); returns kumo / reference."""
    ref_fn()
    kumo_fn()
    tr = tk = float("inf")
    for _ in range(repeat):
        t0 = clock()
        ref_fn()
        tr = min(tr, clock() - t0)
        t0 = clock()
        kumo_fn()
        tk = min(tk, clock() - t0)
    print("%-*s %-6s %9.3f ms   kumo %9.3f ms   kumo/%s %5.2f" % (width, label, ref_name, tr * 1e3, tk * 1e3,
                                                                  ref_name, tk / tr), flush=True)
    return tk / tr


def numpy_conv2d(x, W, pad):
    """im2col by a sliding-window view, then one matmul: y (N, O, H', W')."""
    xp = numpy.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    kh, kw = W.shape[2:]
    win = sliding_window_view(xp, (kh, kw), axis=(2, 3))  # (N, C, H', W', kh, kw)
    n, c, oh, ow = win.shape[:4]
    col = win.transpose(0, 2, 3, 1, 4, 5).reshape(n * oh * ow, c * kh * kw)
    y = col @ W.reshape(W.shape[0], -1).T
    return y.reshape(n, oh, ow, -1).transpose(0, 3, 1, 2)


def numpy_maxpool(x, k):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // k, k, w // k, k).max(axis=(3, 5))


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    if torch is not None and os.environ.get("KUMO_NUM_THREADS"):
        torch.set_num_threads(int(os.environ["KUMO_NUM_THREADS"]))  # the same thread count on both sides
    rng = numpy.random.default_rng(0)
    layers = [((32, 3, 32, 32), (32, 3, 3, 3), 1), ((32, 32, 16, 16), (64, 32, 3, 3), 1)]
    print("torch", torch.__version__ if torch else "not installed",
          "threads %d" % torch.get_num_threads() if torch else "", "timing", clock.__name__)
    for xs, ws, pad in layers:
        x = rng.standard_normal(xs).astype(numpy.float32)
        W = rng.standard_normal(ws).astype(numpy.float32)
        b = rng.standard_normal(ws[0]).astype(numpy.float32)
        kx, kW, kb = kumo.asarray(x), kumo.asarray(W), kumo.asarray(b)
        tag = "conv2d x%s W%s pad %d" % (xs, ws, pad)

        def kumo_fwd():
            F.convolution_2d(kx, kW, kb, pad=pad).array.ravel()[:1].tolist()

        def kumo_fwd_bwd():
            xv, Wv, bv = Variable(kx), Variable(kW), Variable(kb)
            F.sum(F.convolution_2d(xv, Wv, bv, pad=pad)).backward()
            xv.grad.ravel()[:1].tolist()

        pair(tag + " fwd", "numpy", lambda: numpy_conv2d(x, W, pad) + b[:, None, None], kumo_fwd, repeat)
        if torch is not None:
            tx, tW, tb = torch.from_numpy(x), torch.from_numpy(W), torch.from_numpy(b)

            def torch_fwd():
                with torch.no_grad():
                    torch.nn.functional.conv2d(tx, tW, tb, padding=pad)

            def torch_fwd_bwd():
                xv, Wv, bv = (t.clone().requires_grad_() for t in (tx, tW, tb))
                torch.nn.functional.conv2d(xv, Wv, bv, padding=pad).sum().backward()

            pair(tag + " fwd", "torch", torch_fwd, kumo_fwd, repeat)
            pair(tag + " fwd+bwd", "torch", torch_fwd_bwd, kumo_fwd_bwd, repeat)

    x = rng.standard_normal((32, 32, 32, 32)).astype(numpy.float32)
    kx = kumo.asarray(x)

    def kumo_pool():
        F.max_pooling_2d(kx, 2).array.ravel()[:1].tolist()

    def kumo_pool_bwd():
        xv = Variable(kx)
        F.sum(F.max_pooling_2d(xv, 2)).backward()
        xv.grad.ravel()[:1].tolist()

    pair("max_pooling_2d 2x2 x(32, 32, 32, 32) fwd", "numpy", lambda: numpy_maxpool(x, 2), kumo_pool, repeat)
    if torch is not None:
        tx = torch.from_numpy(x)

        def torch_pool():
            with torch.no_grad():
                torch.nn.functional.max_pool2d(tx, 2)

        def torch_pool_bwd():
            xv = tx.clone().requires_grad_()
            torch.nn.functional.max_pool2d(xv, 2).sum().backward()

        pair("max_pooling_2d 2x2 x(32, 32, 32, 32) fwd", "torch", torch_pool, kumo_pool, repeat)
        pair("max_pooling_2d 2x2 x(32, 32, 32, 32) fwd+bwd", "torch", torch_pool_bwd, kumo_pool_bwd, repeat)


if __name__ == "__main__":
    main()
