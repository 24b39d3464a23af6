"""kumo.fuse against the same kumo calls unfused and against NumPy:
`x * y + z` then a sum (one ReductionKernel), and CuPy's docs example
squared_diff (one ElementwiseKernel)."""
import sys

import numpy

import kumo
from _sidebyside import case


def mad_sum(x, y, z):
    return kumo.sum(x * y + z)


def squared_diff(x, y):
    return (x - y) * (x - y)


fused_mad_sum = kumo.fuse(mad_sum)
fused_squared_diff = kumo.fuse(squared_diff)


def main(sizes=(10**6, 10**7), repeat=15):
    for n in sizes:
        rs = numpy.random.RandomState(0)
        nx, ny, nz = (rs.rand(n).astype(numpy.float32) for _ in range(3))
        kx, ky, kz = (kumo.asarray(a) for a in (nx, ny, nz))
        case("mad+sum %.0e float32 fused" % n, lambda: numpy.sum(nx * ny + nz), lambda: fused_mad_sum(kx, ky, kz),
             repeat)
        case("mad+sum %.0e float32 unfused" % n, lambda: numpy.sum(nx * ny + nz), lambda: mad_sum(kx, ky, kz),
             repeat)
        case("squared_diff %.0e float32 fused" % n, lambda: (nx - ny) * (nx - ny),
             lambda: fused_squared_diff(kx, ky), repeat)
        case("squared_diff %.0e float32 unfused" % n, lambda: (nx - ny) * (nx - ny), lambda: squared_diff(kx, ky),
             repeat)


if __name__ == "__main__":
    main(repeat=int(sys.argv[1]) if len(sys.argv) > 1 else 15)
