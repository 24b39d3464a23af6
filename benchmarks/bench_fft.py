"""kumo.fft versus numpy.fft, side by side in one run.

    python benchmarks/bench_fft.py [--repeat N]

Both libraries run pocketfft on the host (NumPy's copy compiled into NumPy,
kumo's from the header its CMake configuration fetches, with batches split over
kumo's host threads). For each case: the best time of N runs of each
library (alternating, after a warm-up call), and the ratio kumo / numpy
(below 1: kumo is faster; the target is <= 1.0)."""
import argparse

import numpy

import kumo
from _sidebyside import case


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    rng = numpy.random.default_rng(0)
    print("kumo %s on cpu, %d host threads; numpy %s"
          % (kumo.__version__, kumo._core.host_num_threads(),
             numpy.__version__))

    n = 1 << 20
    z = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(numpy.complex128)
    kz = kumo.asarray(z)
    case("fft complex128 (2^20)", lambda: numpy.fft.fft(z), lambda: kumo.fft.fft(kz), args.repeat)
    z32 = z.astype(numpy.complex64)
    kz32 = kumo.asarray(z32)
    case("fft complex64 (2^20)", lambda: numpy.fft.fft(z32), lambda: kumo.fft.fft(kz32), args.repeat)
    case("ifft complex128 (2^20)", lambda: numpy.fft.ifft(z), lambda: kumo.fft.ifft(kz), args.repeat)

    img = rng.standard_normal((1024, 1024))
    kimg = kumo.asarray(img)
    case("rfft2 float64 (1024, 1024)", lambda: numpy.fft.rfft2(img), lambda: kumo.fft.rfft2(kimg), args.repeat)
    img32 = img.astype(numpy.float32)
    kimg32 = kumo.asarray(img32)
    case("rfft2 float32 (1024, 1024)", lambda: numpy.fft.rfft2(img32), lambda: kumo.fft.rfft2(kimg32),
         args.repeat)
    spec = numpy.fft.rfft2(img)
    kspec = kumo.asarray(spec)
    case("irfft2 complex128 (1024, 513)", lambda: numpy.fft.irfft2(spec), lambda: kumo.fft.irfft2(kspec),
         args.repeat)
    batch = rng.standard_normal((4096, 256))
    kbatch = kumo.asarray(batch)
    case("rfft float64 batch (4096, 256)", lambda: numpy.fft.rfft(batch), lambda: kumo.fft.rfft(kbatch),
         args.repeat)


if __name__ == "__main__":
    main()
