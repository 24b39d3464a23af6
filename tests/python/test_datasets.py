"""kumo.autograd.datasets against Chainer 7's documented behaviour."""
import os
import warnings

import numpy
import pytest

import kumo
from kumo.autograd import datasets as D
from kumo.autograd.dataset import DatasetMixin


def _np(x):
    return kumo.asnumpy(x) if isinstance(x, kumo.ndarray) else numpy.asarray(x)


class _Range(DatasetMixin):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def get_example(self, i):
        if not -self.n <= i < self.n:
            raise IndexError("out of range")
        return i % self.n


# ---- DatasetMixin ---------------------------------------------------------

def test_mixin_int_slice_list_array():
    d = _Range(10)
    assert d[3] == 3
    assert d[2:8:2] == [2, 4, 6]
    assert d[::-3] == [9, 6, 3, 0]
    assert d[[1, 5, 5]] == [1, 5, 5]
    assert d[numpy.array([4, 0])] == [4, 0]
    assert d[kumo.array([7, 2])] == [7, 2]
    assert d[numpy.array(4)] == 4 and d[kumo.array(6)] == 6


# ---- TupleDataset -----------------------------------------------------------

@pytest.mark.parametrize("make", [numpy.array, kumo.array])
def test_tuple_dataset_int_index(make):
    x = make(numpy.arange(12, dtype=numpy.float32).reshape(4, 3))
    t = make(numpy.array([1, 0, 3, 2], dtype=numpy.int32))
    ds = D.TupleDataset(x, t)
    assert len(ds) == 4
    ex = ds[2]
    assert isinstance(ex, tuple) and len(ex) == 2
    numpy.testing.assert_array_equal(_np(ex[0]), [6, 7, 8])
    assert int(ex[1]) == 3


def test_tuple_dataset_slice_gives_list_of_tuples():
    x = kumo.arange(10)
    y = [chr(97 + i) for i in range(10)]
    ds = D.TupleDataset(x, y)
    got = ds[1:7:2]
    assert isinstance(got, list) and len(got) == 3
    assert [(int(a), b) for a, b in got] == [(1, "b"), (3, "d"), (5, "f")]


def test_tuple_dataset_array_index_gives_tuple_of_batches():
    x = numpy.arange(10) * 2
    ds = D.TupleDataset(x, x + 1)
    got = ds[numpy.array([1, 3])]
    assert isinstance(got, tuple)
    numpy.testing.assert_array_equal(got[0], [2, 6])
    numpy.testing.assert_array_equal(got[1], [3, 7])


def test_tuple_dataset_errors():
    with pytest.raises(ValueError):
        D.TupleDataset()
    with pytest.raises(ValueError, match="index 1 has a wrong length"):
        D.TupleDataset(numpy.zeros(3), numpy.zeros(4))


# ---- DictDataset ------------------------------------------------------------

def test_dict_dataset():
    ds = D.DictDataset(x=numpy.arange(5), y=kumo.arange(5) * 10)
    assert len(ds) == 5
    ex = ds[3]
    assert set(ex) == {"x", "y"} and int(ex["x"]) == 3 and int(ex["y"]) == 30
    got = ds[:2]
    assert [(int(e["x"]), int(e["y"])) for e in got] == [(0, 0), (1, 10)]


def test_dict_dataset_errors():
    with pytest.raises(ValueError):
        D.DictDataset()
    with pytest.raises(ValueError, match="conflicts"):
        D.DictDataset(a=[1, 2], b=[1])


# ---- SubDataset and splits --------------------------------------------------

def test_sub_dataset_range_and_negative_index():
    s = D.SubDataset(list(range(10)), 2, 6)
    assert len(s) == 4
    assert [s[i] for i in range(4)] == [2, 3, 4, 5]
    assert s[-1] == 5 and s[-4] == 2
    assert s[1:3] == [3, 4]
    with pytest.raises(IndexError):
        s[4]
    with pytest.raises(IndexError):
        s[-5]


def test_sub_dataset_with_order():
    order = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    s = D.SubDataset(list(range(10)), 0, 3, order)
    assert s[:] == [9, 8, 7]


def test_sub_dataset_errors():
    with pytest.raises(ValueError, match="overruns"):
        D.SubDataset([1, 2, 3], 0, 4)
    with pytest.raises(ValueError, match="overruns"):
        D.SubDataset([1, 2, 3], -1, 2)
    with pytest.raises(ValueError, match="same length"):
        D.SubDataset([1, 2, 3], 0, 2, order=[0, 1])


def test_split_dataset():
    a, b = D.split_dataset(list(range(7)), 3)
    assert a[:] == [0, 1, 2] and b[:] == [3, 4, 5, 6]
    a, b = D.split_dataset(list(range(4)), numpy.int64(0))
    assert len(a) == 0 and len(b) == 4


def test_split_dataset_errors():
    with pytest.raises(TypeError):
        D.split_dataset([1, 2], 1.0)
    with pytest.raises(ValueError):
        D.split_dataset([1, 2], -1)
    with pytest.raises(ValueError):
        D.split_dataset([1, 2], 3)


@pytest.mark.parametrize("seed", [0, 3, 12345])
def test_split_dataset_random_matches_chainer_permutation(seed):
    # Chainer permutes with numpy.random.RandomState(seed).
    order = numpy.random.RandomState(seed).permutation(20)
    a, b = D.split_dataset_random(list(range(20)), 8, seed=seed)
    assert a[:] == order[:8].tolist() and b[:] == order[8:].tolist()
    assert sorted(a[:] + b[:]) == list(range(20))


def test_split_dataset_random_without_seed_is_a_permutation():
    a, b = D.split_dataset_random(list(range(15)), 5)
    assert len(a) == 5 and sorted(a[:] + b[:]) == list(range(15))


def test_split_dataset_n_drops_remainder():
    parts = D.split_dataset_n(list(range(11)), 3)
    assert [p[:] for p in parts] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_split_dataset_n_random():
    order = numpy.random.RandomState(7).permutation(10)
    parts = D.split_dataset_n_random(list(range(10)), 3, seed=7)
    assert [p[:] for p in parts] == [order[0:3].tolist(), order[3:6].tolist(), order[6:9].tolist()]


def test_cross_validation_folds():
    # 10 examples in 3 folds: borders 0, 3, 6, 10; pair k tests on fold k.
    splits = D.get_cross_validation_datasets(list(range(10)), 3)
    assert len(splits) == 3
    tests = [test[:] for _, test in splits]
    # Chainer's construction: the test parts are taken from the end of a
    # rotating order, the largest (last) fold first.
    assert [train[:] for train, _ in splits] == [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 0, 1, 2], [3, 4, 5, 6, 7, 8, 9]]
    assert tests == [[6, 7, 8, 9], [3, 4, 5], [0, 1, 2]]
    for train, test in splits:
        assert sorted(train[:] + test[:]) == list(range(10))


def test_cross_validation_with_order_and_random():
    order = [3, 1, 4, 0, 2, 5]
    splits = D.get_cross_validation_datasets(list(range(6)), 2, order=order)
    assert [(tr[:], te[:]) for tr, te in splits] == [([3, 1, 4], [0, 2, 5]), ([0, 2, 5], [3, 1, 4])]
    perm = numpy.random.RandomState(1).permutation(6).tolist()
    got = D.get_cross_validation_datasets_random(list(range(6)), 2, seed=1)
    assert [(tr[:], te[:]) for tr, te in got] == [(perm[:3], perm[3:]), (perm[3:], perm[:3])]


def test_cross_validation_n_fold_is_deprecated():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        splits = D.get_cross_validation_datasets(list(range(4)), n_fold=2)
    assert any(issubclass(x.category, DeprecationWarning) for x in w)
    assert len(splits) == 2


# ---- TransformDataset, ConcatenatedDataset ----------------------------------

def test_transform_dataset():
    ds = D.TransformDataset(list(range(5)), lambda v: v * v)
    assert len(ds) == 5 and ds[3] == 9 and ds[1:3] == [1, 4]


def test_concatenated_dataset():
    ds = D.ConcatenatedDataset([0, 1], [], [2, 3, 4])
    assert len(ds) == 5
    assert ds[:] == [0, 1, 2, 3, 4]
    assert ds[3] == 3
    with pytest.raises(IndexError):
        ds[5]
    with pytest.raises(IndexError):
        ds[-1]


# ---- get_digits -------------------------------------------------------------

@pytest.fixture(scope="module")
def digits_reference():
    datasets = pytest.importorskip("sklearn.datasets")
    return datasets.load_digits()


def test_digits_default(digits_reference):
    train, test = D.get_digits()
    assert len(train) == 1438 and len(test) == 359
    x, t = train[0]
    assert x.shape == (64,) and x.dtype == numpy.float32 and t.dtype == numpy.int32
    ref = digits_reference
    numpy.testing.assert_allclose(_np(x), ref.data[0] / 16.0, rtol=1e-6)
    assert int(t) == ref.target[0]
    x, t = test[-1]
    numpy.testing.assert_allclose(_np(x), ref.data[-1] / 16.0, rtol=1e-6)
    assert int(t) == ref.target[-1]


@pytest.mark.parametrize("ndim,shape", [(1, (64,)), (2, (8, 8)), (3, (1, 8, 8))])
def test_digits_ndim_and_scale(ndim, shape, digits_reference):
    train, _ = D.get_digits(ndim=ndim, scale=255.0)
    x, _ = train[5]
    assert x.shape == shape
    v = _np(x)
    assert v.min() >= 0 and v.max() <= 255.0
    numpy.testing.assert_allclose(v.ravel(), digits_reference.data[5] * (255.0 / 16.0), rtol=1e-6)


def test_digits_without_label_and_dtype(digits_reference):
    train, test = D.get_digits(withlabel=False, ndim=3, dtype=numpy.float64)
    assert isinstance(train, kumo.ndarray) and train.shape == (1438, 1, 8, 8) and train.dtype == numpy.float64
    assert test.shape == (359, 1, 8, 8)


def test_digits_bad_ndim():
    with pytest.raises(ValueError, match="invalid ndim"):
        D.get_digits(ndim=4)


# ---- ImageDataset / LabeledImageDataset (Pillow) ------------------------------

@pytest.fixture
def image_dir(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    rng = numpy.random.default_rng(0)
    gray = rng.integers(0, 256, size=(5, 4), dtype=numpy.uint8)
    rgb = rng.integers(0, 256, size=(3, 6, 3), dtype=numpy.uint8)
    Image.fromarray(gray).save(tmp_path / "g.png")
    Image.fromarray(rgb).save(tmp_path / "c.png")
    return tmp_path, gray, rgb


def test_image_dataset_paths_list(image_dir):
    root, gray, rgb = image_dir
    ds = D.ImageDataset(["g.png", "c.png"], root=str(root))
    assert len(ds) == 2
    g, c = ds[0], ds[1]
    assert g.shape == (1, 5, 4) and g.dtype == numpy.float32
    numpy.testing.assert_array_equal(_np(g)[0], gray)
    assert c.shape == (3, 3, 6)
    numpy.testing.assert_array_equal(_np(c), rgb.transpose(2, 0, 1))


def test_image_dataset_paths_file_and_dtype(image_dir):
    root, gray, _ = image_dir
    listing = root / "list.txt"
    listing.write_text("g.png\nc.png\n")
    ds = D.ImageDataset(str(listing), root=str(root), dtype=numpy.uint8)
    assert len(ds) == 2 and ds[0].dtype == numpy.uint8
    assert len(ds[0:2]) == 2


def test_labeled_image_dataset(image_dir):
    root, gray, rgb = image_dir
    ds = D.LabeledImageDataset([("g.png", 3), ("c.png", 7)], root=str(root))
    img, label = ds[1]
    assert img.shape == (3, 3, 6) and label.dtype == numpy.int32 and label.shape == () and int(label) == 7
    pairs = root / "pairs.txt"
    pairs.write_text("g.png 1\nc.png 2\n")
    ds = D.LabeledImageDataset(str(pairs), root=str(root), label_dtype=numpy.int64)
    assert [int(t) for _, t in ds[:]] == [1, 2] and ds[0][1].dtype == numpy.int64


def test_labeled_image_dataset_bad_file(image_dir):
    root, _, _ = image_dir
    bad = root / "bad.txt"
    bad.write_text("g.png 1 extra\n")
    with pytest.raises(ValueError, match="invalid format at line 0"):
        D.LabeledImageDataset(str(bad), root=str(root))


def test_image_dataset_missing_file(image_dir):
    root, _, _ = image_dir
    ds = D.ImageDataset(["nope.png"], root=str(root))
    with pytest.raises(OSError):
        ds[0]
    assert os.path.isdir(root)


@pytest.fixture
def zipped(image_dir):
    import zipfile
    root, gray, rgb = image_dir
    z1, z2 = root / "a.zip", root / "b.zip"
    with zipfile.ZipFile(z1, "w") as z:
        z.write(root / "g.png", "imgs/g.png")
        z.writestr("imgs/", "")  # a folder entry is not an image
    with zipfile.ZipFile(z2, "w") as z:
        z.write(root / "c.png", "c.png")
        z.write(root / "g.png", "g2.png")
    return root, z1, z2, gray, rgb


def test_zipped_image_dataset(zipped):
    _, z1, z2, gray, rgb = zipped
    ds = D.ZippedImageDataset(str(z2))
    assert len(ds) == 2
    numpy.testing.assert_array_equal(_np(ds[0]), rgb.transpose(2, 0, 1))
    numpy.testing.assert_array_equal(_np(ds.get_example("g2.png"))[0], gray)
    assert len(D.ZippedImageDataset(str(z1))) == 1


def test_zipped_image_dataset_pickles(zipped):
    import pickle
    _, _, z2, _, rgb = zipped
    ds = pickle.loads(pickle.dumps(D.ZippedImageDataset(str(z2), dtype=numpy.uint8)))
    assert ds[0].dtype == numpy.uint8
    numpy.testing.assert_array_equal(_np(ds[0]), rgb.transpose(2, 0, 1))


def test_labeled_and_multi_zipped(zipped):
    root, z1, z2, gray, rgb = zipped
    labels = root / "labels.txt"
    labels.write_text("g2.png 4\nc.png 9\n")
    ds = D.LabeledZippedImageDataset(str(z2), str(labels))
    img, t = ds[1]
    assert int(t) == 9 and t.dtype == numpy.int32 and img.shape == (3, 3, 6)
    multi = D.MultiZippedImageDataset([str(z1), str(z2)])
    assert len(multi) == 3
    numpy.testing.assert_array_equal(_np(multi[0])[0], gray)
    numpy.testing.assert_array_equal(_np(multi[1]), rgb.transpose(2, 0, 1))
    with pytest.raises(IndexError):
        multi[3]


def test_zipped_with_multiprocess_iterator(zipped):
    from kumo.autograd import iterators
    _, _, z2, gray, rgb = zipped
    ds = D.ZippedImageDataset(str(z2))
    with iterators.MultiprocessIterator(ds, 2, shuffle=False, n_processes=2) as it:
        a, b = next(it)
    numpy.testing.assert_array_equal(_np(a), rgb.transpose(2, 0, 1))
    numpy.testing.assert_array_equal(_np(b)[0], gray)


def test_without_pillow_image_datasets_raise_import_error(monkeypatch):
    import sys
    from kumo.autograd.datasets import _image
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setattr(_image, "_pillow", {})
    with pytest.raises(ImportError, match="Install Pillow"):
        D.ImageDataset(["x.png"])
    with pytest.raises(ImportError, match="Install Pillow"):
        D.LabeledImageDataset([("x.png", 0)])
