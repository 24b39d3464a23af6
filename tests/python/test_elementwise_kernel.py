"""ElementwiseKernel arguments with CuPy's semantics (see also test_kernels.py)."""
import numpy
import pytest

import kumo
from conftest import LAYOUTS, make_pair

DTYPES = [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint32, numpy.int64, numpy.float16,
          numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def test_chainer_figure4_verbatim():
    x, y, z = (numpy.random.RandomState(s).rand(5, 4).astype(numpy.float32) for s in range(3))
    kernel = kumo.ElementwiseKernel(
        'float32 x, float32 y, float32 z',
        'float32 w',
        'w = x * y + z',
        'my_mad')
    w = kernel(kumo.asarray(x), kumo.asarray(y), kumo.asarray(z))
    assert w.dtype == numpy.float32
    numpy.testing.assert_allclose(kumo.asnumpy(w), x * y + z, rtol=1e-6)


_copy = kumo.ElementwiseKernel("T x", "T y", "y = x", "ewk_copy")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (7,), (2, 3)])
def test_generic_copy_dtypes_shapes(dtype, shape):
    n = (numpy.arange(int(numpy.prod(shape))) % 3).reshape(shape).astype(dtype)
    r = _copy(kumo.asarray(n))
    assert r.dtype == dtype and r.shape == shape
    numpy.testing.assert_array_equal(kumo.asnumpy(r), n)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("reduce_dims", [True, False])
def test_reduce_dims_layouts(layout, reduce_dims):
    k = kumo.ElementwiseKernel("T x", "T y", "y = x * 2", "ewk_twice_%d" % reduce_dims, reduce_dims=reduce_dims)
    n, a = make_pair(layout, numpy.float64, seed=3)
    numpy.testing.assert_array_equal(kumo.asnumpy(k(a)), n * 2)


def test_loop_prep_and_after_loop_run_outside_the_loop():
    # loop_prep declares a per-thread count; after_loop adds it to a raw counter once per thread/chunk.
    k = kumo.ElementwiseKernel("T x", "raw int64 cnt, T y", "y = x + 1; ++n_seen;", "ewk_loop_prep",
                               loop_prep="long long n_seen = 0; cnt[0] += 0;",
                               after_loop="atomicAdd(reinterpret_cast<unsigned long long*>(&cnt[1]), "
                                          "(unsigned long long)n_seen);",
                               preamble="#ifndef __CUDACC_RTC__\n"
                                        "static inline unsigned long long atomicAdd(unsigned long long* p, "
                                        "unsigned long long v) { return __atomic_fetch_add(p, v, "
                                        "__ATOMIC_RELAXED); }\n#endif\n")
    cnt = kumo.zeros(2, dtype=numpy.int64)
    y = kumo.empty(100000)
    k(kumo.arange(100000.0), cnt, y)
    numpy.testing.assert_array_equal(kumo.asnumpy(y), numpy.arange(100000.0) + 1)
    assert int(kumo.asnumpy(cnt)[1]) == 100000


def test_no_return_and_return_tuple():
    k = kumo.ElementwiseKernel("T x", "T y", "y = x", "ewk_nr", no_return=True)
    out = kumo.zeros(3)
    assert k(kumo.ones(3), out) is None
    numpy.testing.assert_array_equal(kumo.asnumpy(out), numpy.ones(3))
    t = kumo.ElementwiseKernel("T x", "T y", "y = x", "ewk_rt", return_tuple=True)(kumo.ones(2))
    assert isinstance(t, tuple) and len(t) == 1


def test_concrete_output_given_must_match():
    with pytest.raises(TypeError):
        kumo.ElementwiseKernel("float32 x", "float32 y", "y = x", "ewk_cm")(kumo.ones(3, dtype=numpy.float32),
                                                                           kumo.zeros(3))


def test_output_not_array_is_type_error():
    with pytest.raises(TypeError):
        _copy(kumo.ones(3), [0.0, 0.0, 0.0])


def test_concrete_input_is_cast():
    k = kumo.ElementwiseKernel("float32 x", "float32 y", "y = x / 2", "ewk_cast")
    r = k(kumo.arange(4, dtype=numpy.int64))
    assert r.dtype == numpy.float32
    numpy.testing.assert_array_equal(kumo.asnumpy(r), numpy.arange(4, dtype=numpy.float32) / 2)


def test_type_placeholder_in_operation_and_output_from_input():
    k = kumo.ElementwiseKernel("T x, U s", "T y", "T t = x; y = t * (T)s", "ewk_ph")
    r = k(kumo.arange(3, dtype=numpy.int16), numpy.float32(2))
    assert r.dtype == numpy.int16
    numpy.testing.assert_array_equal(kumo.asnumpy(r), numpy.arange(3) * 2)


def test_unknown_keyword_is_type_error():
    with pytest.raises(TypeError):
        _copy(kumo.ones(3), stream=1)


def test_block_size_accepted():
    numpy.testing.assert_array_equal(kumo.asnumpy(_copy(kumo.ones(3), block_size=128)), numpy.ones(3))


def test_kmeans_with_user_kernels():
    # Squared distances + argmin labels with an ElementwiseKernel, per-cluster sums with a ReductionKernel.
    rs = numpy.random.RandomState(0)
    pts = numpy.concatenate([rs.randn(50, 2) + c for c in ([0, 0], [6, 6], [0, 6])]).astype(numpy.float64)
    k = 3
    assign = kumo.ElementwiseKernel(
        "raw T p, raw T c, int32 nc, int32 dim", "int32 label",
        """T best = 0; int arg = -1;
           for (int j = 0; j < nc; ++j) {
             T d = 0;
             for (int q = 0; q < dim; ++q) { T t = p[i * dim + q] - c[j * dim + q]; d += t * t; }
             if (arg < 0 || d < best) { best = d; arg = j; }
           }
           label = arg;""", "kmeans_assign")
    csum = kumo.ReductionKernel("T x, int32 label, int32 j", "T s", "label == j ? x : (T)0", "a + b", "s = a",
                                "0", "kmeans_sum")
    ccount = kumo.ReductionKernel("int32 label, int32 j", "int64 n", "label == j ? 1 : 0", "a + b", "n = a", "0",
                                  "kmeans_count")
    centers = pts[[0, 60, 120]].copy()
    kp, kc = kumo.asarray(pts), kumo.asarray(centers)
    for _ in range(5):
        d = ((pts[:, None, :] - centers[None]) ** 2).sum(-1)
        lab = d.argmin(1).astype(numpy.int32)
        klab = assign(kp, kc, k, 2, kumo.empty(len(pts), dtype=numpy.int32))
        numpy.testing.assert_array_equal(kumo.asnumpy(klab), lab)
        new = numpy.stack([pts[lab == j].mean(0) for j in range(k)])
        knew = []
        for j in range(k):
            s = csum(kp, klab[:, None], j, axis=0)
            n = ccount(klab, j)
            knew.append(kumo.asnumpy(s) / int(kumo.asnumpy(n)))
        numpy.testing.assert_allclose(numpy.stack(knew), new, rtol=1e-12)
        centers = new
        kc = kumo.asarray(numpy.stack(knew))
