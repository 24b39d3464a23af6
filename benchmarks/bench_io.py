"""kumo.save/load/savez versus NumPy's, side by side in one run.

    python benchmarks/bench_io.py [--repeat N] [--dir DIR]

A 10^7-element float64 array (80 MB) saved and loaded as .npy, and an .npz
of it with two small arrays, stored and compressed (a smaller 10^6 array for
the compressed case: deflate dominates). Files go to DIR (default: a
temporary directory); the page cache is warm, so the times are of the
library's own work and memory copies rather than of the disk. For each case:
the best of N runs of each library, alternating, and kumo / numpy."""
import argparse
import os
import tempfile

import numpy

import kumo
from bench_fft import case  # alternating best-of-N, printed as kumo/numpy


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    print("kumo %s on cpu, %d host threads; numpy %s" % (kumo.__version__, kumo._core.host_num_threads(),
                                                         numpy.__version__))
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal(10**7)
    small = rng.standard_normal(10**6)
    extra = {"b": numpy.arange(1000), "c": numpy.eye(10, dtype=numpy.float32)}
    with kumo.Device("cpu"), tempfile.TemporaryDirectory(dir=args.dir) as d:
        kx, ksmall = kumo.asarray(x), kumo.asarray(small)
        kextra = {k: kumo.asarray(v) for k, v in extra.items()}
        pn, pk = os.path.join(d, "n.npy"), os.path.join(d, "k.npy")
        case("save .npy float64 10^7", lambda: numpy.save(pn, x), lambda: kumo.save(pk, kx), args.repeat)
        case("load .npy float64 10^7", lambda: numpy.load(pn), lambda: kumo.load(pk), args.repeat)
        zn, zk = os.path.join(d, "n.npz"), os.path.join(d, "k.npz")
        case("savez (10^7 float64 + 2 small)", lambda: numpy.savez(zn, a=x, **extra),
             lambda: kumo.savez(zk, a=kx, **kextra), args.repeat)

        def load_all(mod, path):
            with mod.load(path) as z:
                return [z[k] for k in z.files]

        case("load .npz, every array", lambda: load_all(numpy, zn), lambda: load_all(kumo, zk), args.repeat)
        cn, ck = os.path.join(d, "cn.npz"), os.path.join(d, "ck.npz")
        case("savez_compressed (10^6 float64 + 2 small)", lambda: numpy.savez_compressed(cn, a=small, **extra),
             lambda: kumo.savez_compressed(ck, a=ksmall, **kextra), max(2, args.repeat // 2))
        case("load compressed .npz, every array", lambda: load_all(numpy, cn), lambda: load_all(kumo, ck),
             args.repeat)


if __name__ == "__main__":
    main()
