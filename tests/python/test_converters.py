"""kumo.autograd.dataset.concat_examples, to_device and converters against
Chainer 7's documented behaviour."""
import numpy
import pytest

import kumo
from kumo.autograd import dataset
from kumo.autograd.dataset import concat_examples, to_device

from conftest import ALL_DTYPES


def _np(x):
    assert isinstance(x, kumo.ndarray)
    return kumo.asnumpy(x)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("make", [numpy.asarray, kumo.asarray])
def test_tuple_examples(dtype, make):
    rng = numpy.random.default_rng(0)
    xs = [(rng.integers(0, 2, size=(2, 3)).astype(dtype), numpy.asarray(i, dtype=numpy.int32)) for i in range(4)]
    batch = [(make(x), make(t)) for x, t in xs]
    x, t = concat_examples(batch)
    assert x.dtype == dtype and x.shape == (4, 2, 3) and x.device == "cpu"
    numpy.testing.assert_array_equal(_np(x), numpy.stack([x for x, _ in xs]))
    assert t.dtype == numpy.int32
    numpy.testing.assert_array_equal(_np(t), [0, 1, 2, 3])


def test_python_scalars_and_lists():
    # The docstring example of Chainer: plain lists and ints.
    x, t = concat_examples([([1, 2], 1), ([3, 4], 2), ([5, 6], 3)])
    numpy.testing.assert_array_equal(_np(x), [[1, 2], [3, 4], [5, 6]])
    numpy.testing.assert_array_equal(_np(t), [1, 2, 3])
    assert t.dtype == numpy.asarray([1, 2, 3]).dtype


def test_array_examples():
    batch = [kumo.arange(3) + i for i in range(2)]
    out = concat_examples(batch)
    numpy.testing.assert_array_equal(_np(out), [[0, 1, 2], [1, 2, 3]])


def test_non_contiguous_examples():
    base = numpy.arange(24, dtype=numpy.float64).reshape(4, 6)
    batch = [base[:, ::-2], base.T[:4, :3], numpy.broadcast_to(base[0, :3], (4, 3))]
    out = concat_examples(batch)
    numpy.testing.assert_array_equal(_np(out), numpy.stack(batch))


def test_kumo_non_contiguous_examples():
    base = kumo.arange(24, dtype=numpy.float32).reshape(4, 6)
    batch = [base[:, ::-2], base[::-1, 1::2]]
    out = concat_examples(batch)
    ref = numpy.arange(24, dtype=numpy.float32).reshape(4, 6)
    numpy.testing.assert_array_equal(_np(out), numpy.stack([ref[:, ::-2], ref[::-1, 1::2]]))


def test_dict_examples():
    batch = [{"feature": numpy.array([1, 2]) + i, "label": i} for i in range(3)]
    out = concat_examples(batch)
    assert set(out) == {"feature", "label"}
    numpy.testing.assert_array_equal(_np(out["feature"]), [[1, 2], [2, 3], [3, 4]])
    numpy.testing.assert_array_equal(_np(out["label"]), [0, 1, 2])


def test_zero_dim_examples():
    out = concat_examples([numpy.float32(1.5), numpy.float32(2.5)])
    assert out.dtype == numpy.float32 and out.shape == (2,)


def test_empty_batch_raises():
    with pytest.raises(ValueError, match="batch is empty"):
        concat_examples([])


def test_shape_mismatch_without_padding_raises():
    with pytest.raises(ValueError):
        concat_examples([numpy.zeros(2), numpy.zeros(3)])
    with pytest.raises(ValueError):
        concat_examples([kumo.zeros(2), kumo.zeros(3)])


@pytest.mark.parametrize("make", [numpy.asarray, kumo.asarray])
def test_padding_scalar(make):
    # Chainer's docstring example.
    batch = [(make(numpy.array([1, 2])), 0), (make(numpy.array([3])), 1), (make(numpy.array([], dtype=int)), 2)]
    x, t = concat_examples(batch, padding=100)
    numpy.testing.assert_array_equal(_np(x), [[1, 2], [3, 100], [100, 100]])
    numpy.testing.assert_array_equal(_np(t), [0, 1, 2])


def test_padding_per_field_tuple():
    batch = [(numpy.array([1, 2]), numpy.array([0])), (numpy.array([3]), numpy.array([], dtype=int)),
             (numpy.array([], dtype=int), numpy.array([2]))]
    x, t = concat_examples(batch, padding=(100, 200))
    numpy.testing.assert_array_equal(_np(x), [[1, 2], [3, 100], [100, 100]])
    numpy.testing.assert_array_equal(_np(t), [[0], [200], [2]])


def test_padding_2d_and_dtype():
    batch = [numpy.ones((1, 3), dtype=numpy.float32), numpy.full((2, 1), 2, dtype=numpy.float32)]
    out = concat_examples(batch, padding=-1)
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(_np(out), [[[1, 1, 1], [-1, -1, -1]], [[2, -1, -1], [2, -1, -1]]])


def test_padding_dict():
    batch = [{"a": numpy.array([1]), "b": numpy.array([5, 6])}, {"a": numpy.array([2, 3]), "b": numpy.array([7])}]
    out = concat_examples(batch, padding={"a": 0, "b": -1})
    numpy.testing.assert_array_equal(_np(out["a"]), [[1, 0], [2, 3]])
    numpy.testing.assert_array_equal(_np(out["b"]), [[5, 6], [7, -1]])


def test_padding_ndim_mismatch_raises():
    with pytest.raises(ValueError):
        concat_examples([numpy.zeros(2), numpy.zeros((2, 2))], padding=0)


@pytest.mark.parametrize("device", [None, "cpu", -1, "@numpy", kumo.Device("cpu"), "native:0"])
def test_host_devices(device):
    x, = concat_examples([(numpy.arange(3),), (numpy.arange(3),)], device=device)
    assert isinstance(x, kumo.ndarray) and x.device == "cpu"


def test_to_device_none_leaves_input():
    a = numpy.arange(3)
    assert to_device(None, a) is a


def test_to_device_host_converts_nested():
    out = to_device("cpu", {"a": numpy.arange(2), "b": (numpy.float64(1.0), None), "c": [kumo.ones(1)]})
    assert isinstance(out["a"], kumo.ndarray) and isinstance(out["b"][0], kumo.ndarray) and out["b"][1] is None
    assert isinstance(out["c"][0], kumo.ndarray)


def test_to_device_keeps_kumo_array_on_its_device():
    a = kumo.arange(4)
    assert to_device(-1, a) is a


def test_to_device_bad_type():
    with pytest.raises(TypeError):
        to_device("cpu", "text")


@pytest.mark.parametrize("spec", ["gpu", "@cupy:x", "cuda:a", 1.5, True])
def test_bad_device_specifier(spec):
    with pytest.raises((ValueError, TypeError)):
        to_device(spec, numpy.zeros(1))


@pytest.mark.parametrize("make", [numpy.asarray, kumo.asarray])
@pytest.mark.parametrize("spec", [0, "cuda", "cuda:0", "@cupy:0", kumo.Device("cuda", 0)])
def test_cuda_device(spec, make):
    batch = [(make(numpy.arange(3, dtype=numpy.float32) + i), make(numpy.int32(i))) for i in range(2)]
    if not kumo.cuda.is_available():
        # No GPU: kumo's clear device error, not a crash.
        with pytest.raises(Exception, match="CUDA"):
            concat_examples(batch, device=spec)
        return
    x, t = concat_examples(batch, device=spec)
    assert x.device == "cuda:0" and t.device == "cuda:0"
    numpy.testing.assert_array_equal(kumo.asnumpy(x), [[0, 1, 2], [1, 2, 3]])
    numpy.testing.assert_array_equal(kumo.asnumpy(t), [0, 1])


def test_get_device_specifiers():
    g = dataset.get_device
    assert g(None) is None
    assert g(-1) == "cpu" and g(numpy.int64(-3)) == "cpu" and g("@intel64") == "cpu"
    assert g(2) == "cuda:2" and g("@cupy:1") == "cuda:1" and g("cuda") == "cuda:0"


def test_converter_decorator_converts_device():
    seen = []

    @dataset.converter()
    def conv(batch, device):
        seen.append(device)
        return device.send(batch) if device is not None else batch

    assert isinstance(conv, dataset.Converter)
    out = conv([numpy.arange(2)], -1)
    assert seen[-1] == "cpu" and isinstance(seen[-1], kumo.Device) and isinstance(out[0], kumo.ndarray)
    conv([numpy.zeros(1)], device="@numpy")
    assert seen[-1] == "cpu"
    conv([numpy.zeros(1)], None)
    assert seen[-1] is None
    with pytest.raises(TypeError):
        dataset.converter()(42)


def test_concat_examples_is_a_converter():
    assert isinstance(concat_examples, dataset.Converter)


def test_converter_base_class():
    class Twice(dataset.Converter):
        def __call__(self, batch, device):
            return to_device(device, concat_examples(batch) * 2)

    out = Twice()([numpy.arange(2), numpy.arange(2)], None)
    numpy.testing.assert_array_equal(_np(out), [[0, 2], [0, 2]])
    with pytest.raises(NotImplementedError):
        dataset.Converter()([], None)


def test_with_iterator_and_dataset():
    from kumo.autograd import datasets, iterators
    train, _ = datasets.get_digits() if _has_sklearn() else (datasets.TupleDataset(
        numpy.zeros((10, 64), numpy.float32), numpy.zeros(10, numpy.int32)), None)
    it = iterators.SerialIterator(train, 8, shuffle=False)
    x, t = concat_examples(next(it))
    assert x.shape == (8, 64) and x.dtype == numpy.float32 and t.dtype == numpy.int32


def _has_sklearn():
    try:
        import sklearn  # noqa: F401
        return True
    except ImportError:
        return False


class _FakePinnedPool:
    """Host memory standing in for the pinned pool (there may be no GPU)."""

    class _Block:
        def __init__(self, n):
            self.buf = numpy.zeros(max(n, 1), dtype=numpy.uint8)
            self.ptr = self.buf.ctypes.data
            self.size = n

    def __init__(self):
        self.blocks = []

    def malloc(self, n):
        self.blocks.append(self._Block(n))
        return self.blocks[-1]


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int16, numpy.float32, numpy.complex128])
def test_pinned_staging_copies_values(monkeypatch, dtype):
    # The CUDA path copies through a pinned block; here the block is host
    # memory and the target the CPU, which checks the staging itself.
    from kumo.autograd.dataset import _convert
    pool = _FakePinnedPool()
    monkeypatch.setattr(kumo, "get_default_pinned_memory_pool", lambda: pool)
    src = (numpy.arange(12).reshape(3, 4)[:, ::-1] % 3).astype(dtype)
    out = _convert._pinned_to_cuda(src, kumo.Device("cpu"))
    assert len(pool.blocks) == 1 and pool.blocks[0].size == src.nbytes
    pool.blocks[0].buf[:] = 0xFF  # the block goes back to the pool: the result must not alias it
    assert out.dtype == dtype and out.shape == (3, 4)
    numpy.testing.assert_array_equal(kumo.asnumpy(out), src)
