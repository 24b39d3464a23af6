"""Kumo's generated CUDA kernels run on the CUDA host emulator.

In the emulation test mode (kumo._core._set_emulate_cuda, or KUMO_EMULATE_CUDA=1)
the elementwise kernels, reductions, random transforms and fused optimizer
updates that would run their host source run their CUDA source instead: the
CUDA argument layout, launch geometry (grid-stride loops, block reductions
with shared memory and __syncthreads) and the prelude's CUDA branches, on
the emulator. Each test computes the same thing with the host backend and in
the mode and requires equal results, and checks that CUDA grids really ran.
"""
import contextlib

import numpy
import pytest

import kumo
from conftest import make_numpy, to_kumo

_core = kumo._core


@contextlib.contextmanager
def emulated():
    before = _core._emulated_cuda_launches()
    _core._set_emulate_cuda(True)
    try:
        yield
    finally:
        _core._set_emulate_cuda(False)
    assert _core._emulated_cuda_launches() > before, "no generated CUDA kernel ran on the emulator"


def both(fn):
    """fn() on the host backend, then with the CUDA source on the emulator."""
    host = fn()
    with emulated():
        emu = fn()
    return host, emu


def assert_same(host, emu, exact=True):
    if isinstance(host, (tuple, list)):
        assert len(host) == len(emu)
        for h, e in zip(host, emu):
            assert_same(h, e, exact)
        return
    h, e = kumo.asnumpy(host), kumo.asnumpy(emu)
    assert h.dtype == e.dtype and h.shape == e.shape
    if exact:
        numpy.testing.assert_array_equal(e, h)
    else:
        numpy.testing.assert_allclose(e, h, rtol=4 * numpy.finfo(h.dtype).eps if h.dtype.kind in "fc" else 0)


def test_mode_is_off_by_default_and_switches():
    assert not _core.emulate_cuda_enabled()
    _core._set_emulate_cuda(True)
    try:
        assert _core.emulate_cuda_enabled()
    finally:
        _core._set_emulate_cuda(False)
    assert not _core.emulate_cuda_enabled()


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint16, numpy.int32, numpy.int64, numpy.float16,
                                   numpy.float32, numpy.float64, numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("layout", ["0d", "1d", "3d", "broadcast", "transposed", "negative"])
def test_binary_ufunc_layouts(dtype, layout):
    a, b = to_kumo(make_numpy(layout, dtype, seed=1)), to_kumo(make_numpy(layout, dtype, seed=2))
    op = kumo.logical_xor if dtype == numpy.bool_ else kumo.multiply
    assert_same(*both(lambda: op(kumo.add(a, b), b)))


@pytest.mark.parametrize("name", ["subtract", "true_divide", "floor_divide", "remainder", "maximum", "minimum",
                                  "power", "arctan2", "hypot", "greater", "equal", "logical_and", "copysign"])
def test_binary_ufuncs_float64(name):
    a = to_kumo(make_numpy("3d", numpy.float64, seed=3) + 6.0)
    b = to_kumo(make_numpy("3d", numpy.float64, seed=4) + 0.5)
    assert_same(*both(lambda: getattr(kumo, name)(a, b)), exact=name not in ("power", "arctan2", "hypot"))


@pytest.mark.parametrize("name", ["negative", "absolute", "sqrt", "exp", "log", "sin", "tanh", "floor", "rint",
                                  "sign", "isnan", "reciprocal", "square", "logical_not"])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128])
def test_unary_ufuncs(name, dtype):
    if dtype == numpy.complex128 and name in ("floor", "logical_not"):
        pytest.skip("not defined for complex in NumPy")
    a = to_kumo(make_numpy("negative", dtype, seed=5) + 6)
    exact = name in ("negative", "absolute", "floor", "rint", "sign", "isnan", "square", "logical_not")
    assert_same(*both(lambda: getattr(kumo, name)(a)), exact=exact)


@pytest.mark.parametrize("src,dst", [(numpy.float64, numpy.float16), (numpy.float16, numpy.float32),
                                     (numpy.int64, numpy.float32), (numpy.float32, numpy.int16),
                                     (numpy.complex64, numpy.complex128), (numpy.bool_, numpy.float64)])
def test_casts(src, dst):
    a = to_kumo(make_numpy("transposed", src, seed=6))
    assert_same(*both(lambda: a.astype(dst)))


def test_mixed_scalar_and_weak_operands():
    a = to_kumo(make_numpy("negative", numpy.float32, seed=7))
    assert_same(*both(lambda: a * 3 + numpy.float32(0.5)))
    assert_same(*both(lambda: kumo.where(a > 0, a, kumo.float32(-1))))


def test_large_grid_stride():
    # More elements than one grid of blocks covers in one pass.
    a = kumo.arange(3 * 2**20 + 17, dtype=numpy.int64)
    assert_same(*both(lambda: a * 7 - 3))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int32, numpy.uint64, numpy.float16, numpy.float32,
                                   numpy.float64, numpy.complex64])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2)])
def test_sum_prod_axes(dtype, axis):
    a = to_kumo(make_numpy("3d", dtype, seed=8))
    assert_same(*both(lambda: kumo.sum(a, axis=axis)), exact=numpy.dtype(dtype).kind not in "fc")
    assert_same(*both(lambda: kumo.prod(a, axis=axis, keepdims=True)), exact=numpy.dtype(dtype).kind not in "fc")


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin", "all", "any", "count_nonzero"])
@pytest.mark.parametrize("layout", ["1d", "transposed", "negative"])
def test_exact_reductions(name, layout):
    a = to_kumo(make_numpy(layout, numpy.float32, seed=9))
    for axis in (None, 0):
        assert_same(*both(lambda: getattr(kumo, name)(a, axis=axis)))


LARGE = numpy.random.default_rng(10).integers(-100, 100, size=(37, 70001)).astype(numpy.int64)


def test_large_reduction_many_blocks():
    # 70001 outputs, more than the grid's 65536 blocks: the blocks stride over
    # the outputs. Each such reduction costs ~4 s of fiber switches on the
    # emulator, so one op runs past the cap; the striding is the reduction
    # template's, the same for every op.
    a = kumo.asarray(LARGE)
    assert_same(*both(lambda: (kumo.sum(a), kumo.sum(a, axis=0), kumo.sum(a, axis=1))))


def test_reduction_many_blocks_of_another_op():
    a = kumo.asarray(LARGE[:, :5001])
    assert_same(*both(lambda: (kumo.max(a, axis=0), kumo.max(a))))


def test_mean_var_std():
    a = to_kumo(make_numpy("3d", numpy.float64, seed=11))
    assert_same(*both(lambda: (kumo.mean(a, axis=1), kumo.var(a, axis=(0, 2)), kumo.std(a))), exact=False)


def test_empty_and_zero_size_reductions():
    a = kumo.zeros((0, 5), dtype=numpy.float32)
    assert_same(*both(lambda: (kumo.sum(a, axis=0), kumo.add(a, 1))))


def test_elementwise_kernel_raw_and_index():
    k = kumo.ElementwiseKernel("raw T x, int32 shift", "T y", "y = x[(i + shift) % _ind.size()] * (T)i",
                               "emu_roll_scale")
    x = kumo.arange(10, dtype=numpy.float32)
    assert_same(*both(lambda: k(x, numpy.int32(3), kumo.empty(10, dtype=numpy.float32))))


def test_elementwise_kernel_figure4():
    kernel = kumo.ElementwiseKernel("float32 x, float32 y, float32 z", "float32 w", "w = x * y + z", "emu_my_mad")
    x, y, z = (to_kumo(make_numpy("transposed", numpy.float32, seed=s)) for s in (12, 13, 14))
    assert_same(*both(lambda: kernel(x, y, z)))


def test_reduction_kernel_l2norm():
    k = kumo.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "emu_l2norm")
    a = kumo.asarray(numpy.arange(60, dtype=numpy.float64).reshape(3, 4, 5))
    assert_same(*both(lambda: (k(a), k(a, axis=1), k(a, axis=(0, 2), keepdims=True))), exact=False)


@pytest.mark.parametrize("draw", ["random", "standard_normal", "integers", "exponential", "uniform_f32"])
def test_random_transforms(draw):
    def sample():
        g = kumo.random.default_rng(1234)
        if draw == "integers":
            return g.integers(-50, 50, size=(1000,))
        if draw == "uniform_f32":
            return g.random(size=(777,), dtype=numpy.float32)
        return getattr(g, draw)(size=(1000,))
    assert_same(*both(sample), exact=draw in ("random", "integers", "uniform_f32"))


def test_fused_optimizer_update():
    from kumo.autograd import links as L, optimizers

    def train():
        kumo.random.seed(0)
        model = L.Linear(5, 3)
        opt = optimizers.Adam(alpha=0.01)
        opt.setup(model)
        x = kumo.asarray(numpy.linspace(-1, 1, 20, dtype=numpy.float32).reshape(4, 5))
        for _ in range(3):
            model.cleargrads()
            loss = kumo.autograd.functions.sum(model(x) ** 2)
            loss.backward()
            opt.update()
        return model.W.array, model.b.array

    assert_same(*both(train), exact=False)


def test_fuse():
    @kumo.fuse()
    def squared_diff_sum(x, y):
        return kumo.sum((x - y) * (x - y))

    x = kumo.asarray(numpy.linspace(0, 1, 1000, dtype=numpy.float32))
    y = kumo.asarray(numpy.linspace(1, 0, 1000, dtype=numpy.float32))
    assert_same(*both(lambda: squared_diff_sum(x, y)), exact=False)
