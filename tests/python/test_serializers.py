"""kumo.autograd.serializers (Chainer's chainer.serializers): the
serialization protocol through DictionarySerializer / NpzDeserializer and
the HDF5 pair, save_npz / load_npz round trips, strict / ignore_names /
path, None and scalar values, and files written by Chainer 7's save_npz
(tests/python/data/chainer_*.npz: an MLP with batch normalization and its
Adam state after one update) loading with Chainer's key layout."""
import os

import numpy
import pytest

import kumo
from kumo.autograd import serializers
from kumo.autograd.serializer import Deserializer, Serializer

DATA = os.path.join(os.path.dirname(__file__), "data")


class Leaf:
    """A stand-in with Chainer's serialize protocol: arrays, a scalar, a string, None."""

    def __init__(self, seed, shape=(2, 3)):
        rng = numpy.random.default_rng(seed)
        self.W = kumo.asarray(rng.standard_normal(shape).astype(numpy.float32))
        self.count = seed
        self.rate = 0.5 * seed
        self.name = "leaf%d" % seed
        self.missing = None

    def serialize(self, s):
        self.W = s("W", self.W)
        self.count = s("count", self.count)
        self.rate = s("rate", self.rate)
        self.name = s("name", self.name)
        self.missing = s("missing", self.missing)


class Tree:
    def __init__(self, seed):
        self.a, self.b = Leaf(seed), Leaf(seed + 10)

    def serialize(self, s):
        self.a.serialize(s["a"])
        self.b.serialize(s["b"])


def assert_same_tree(x, y):
    for u, v in ((x.a, y.a), (x.b, y.b)):
        numpy.testing.assert_array_equal(kumo.asnumpy(u.W), kumo.asnumpy(v.W))
        assert (u.count, u.rate, u.name, u.missing) == (v.count, v.rate, v.name, v.missing)
        assert type(u.count) is int and type(u.rate) is float and isinstance(u.name, str)


def test_dictionary_serializer_keys():
    target = serializers.serialize(Tree(1))
    assert sorted(target) == sorted("%s/%s" % (c, k) for c in "ab" for k in ("W", "count", "rate", "name", "missing"))
    assert isinstance(target["a/W"], numpy.ndarray) and target["a/W"].dtype == numpy.float32
    assert target["a/missing"].dtype == object and target["a/missing"][()] is None


def test_serializer_base_classes():
    assert isinstance(serializers.DictionarySerializer(), Serializer)
    assert isinstance(serializers.NpzDeserializer({}), Deserializer)


@pytest.mark.parametrize("compression", [True, False])
def test_npz_round_trip(tmp_path, compression):
    path = str(tmp_path / "tree.npz")
    src, dst = Tree(1), Tree(2)
    serializers.save_npz(path, src, compression=compression)
    serializers.load_npz(path, dst)
    assert_same_tree(src, dst)


def test_npz_file_object_and_numpy_reads_it(tmp_path):
    path = str(tmp_path / "tree.npz")
    with open(path, "wb") as f:
        serializers.save_npz(f, Tree(3))
    with numpy.load(path, allow_pickle=True) as ref:
        assert ref["b/count"] == 13 and str(ref["a/name"]) == "leaf3"


def test_load_writes_into_existing_arrays(tmp_path):
    path = str(tmp_path / "tree.npz")
    serializers.save_npz(path, Tree(4))
    dst = Tree(5)
    W = dst.a.W
    serializers.load_npz(path, dst)
    assert dst.a.W is W  # loaded in place, as parameters are
    numpy.testing.assert_array_equal(kumo.asnumpy(W), kumo.asnumpy(Tree(4).a.W))


def test_strict_missing_key_raises_and_non_strict_keeps(tmp_path):
    path = str(tmp_path / "leaf.npz")
    serializers.save_npz(path, {"a/W": numpy.ones((2, 3), numpy.float32)})
    with pytest.raises(KeyError):
        serializers.load_npz(path, Tree(1))
    dst = Tree(1)
    serializers.load_npz(path, dst, strict=False)
    numpy.testing.assert_array_equal(kumo.asnumpy(dst.a.W), numpy.ones((2, 3)))
    assert dst.a.count == 1


def test_ignore_names_and_path(tmp_path):
    path = str(tmp_path / "tree.npz")
    serializers.save_npz(path, Tree(6))
    dst = Tree(7)
    serializers.load_npz(path, dst, ignore_names=["a/count", lambda k: k.startswith("b/")])
    assert dst.a.count == 7 and dst.a.rate == 3.0 and dst.b.count == 17
    leaf = Leaf(8)
    serializers.load_npz(path, leaf, path="b/")
    assert leaf.count == 16 and leaf.name == "leaf16"
    with pytest.raises(ValueError, match="ignore_names"):
        serializers.load_npz(path, Tree(1), ignore_names=[3])


def test_shape_mismatch_is_a_value_error(tmp_path):
    path = str(tmp_path / "leaf.npz")
    serializers.save_npz(path, Leaf(1, shape=(3, 3)))
    with pytest.raises(ValueError, match="shape"):
        serializers.load_npz(path, Leaf(1))


def test_float_into_int_is_a_type_error(tmp_path):
    path = str(tmp_path / "leaf.npz")
    serializers.save_npz(path, {"W": numpy.zeros((2, 3), numpy.float32), "count": numpy.asarray(1.5), "rate": 1.0,
                                "name": "x", "missing": None})
    with pytest.raises(TypeError):
        serializers.load_npz(path, Leaf(1))


class ChainerLikeMLP:
    """The parameter layout of the Chainer model in the fixture: l1, l2 (Linear) and bn (BatchNormalization)."""

    def __init__(self):
        z = lambda *s: kumo.zeros(s, dtype=numpy.float32)  # noqa: E731
        self.values = {"l1/W": z(4, 3), "l1/b": z(4), "l2/W": z(2, 4), "l2/b": z(2), "bn/gamma": z(4),
                       "bn/beta": z(4), "bn/avg_mean": z(4), "bn/avg_var": z(4), "bn/N": 0}

    def serialize(self, s):
        for child in ("l1", "l2", "bn"):
            sub = s[child]
            for key in [k for k in self.values if k.startswith(child + "/")]:
                self.values[key] = sub(key.split("/")[1], self.values[key])


def test_loads_a_file_written_by_chainer():
    model = ChainerLikeMLP()
    path = os.path.join(DATA, "chainer_mlp.npz")
    serializers.load_npz(path, model)
    with numpy.load(path) as ref:
        for key, value in model.values.items():
            numpy.testing.assert_array_equal(kumo.asnumpy(value) if isinstance(value, kumo.ndarray) else value,
                                             ref[key])
        assert model.values["bn/N"] == int(ref["bn/N"]) and type(model.values["bn/N"]) is int
    assert float(abs(model.values["l1/W"]).sum()) > 0


def test_chainer_optimizer_state_keys():
    # Chainer's optimizer layout: t and epoch at the top, per parameter path the rule's state.
    with kumo.load(os.path.join(DATA, "chainer_adam.npz")) as f:
        assert {"t", "epoch", "l1/W/m", "l1/W/v", "l1/W/t"} <= set(f.files)
        leaf = {"t": 0, "epoch": 0}
        d = serializers.NpzDeserializer(f)
        assert d("t", leaf["t"]) == 1 and d("epoch", leaf["epoch"]) == 0
        m = d["l1"]["W"]("m", kumo.zeros((4, 3), dtype=numpy.float32))
        assert m.shape == (4, 3) and float(abs(m).sum()) > 0


def test_hdf5_round_trip(tmp_path):
    pytest.importorskip("h5py")
    path = str(tmp_path / "tree.h5")
    src, dst = Tree(1), Tree(2)
    serializers.save_hdf5(path, src)
    serializers.load_hdf5(path, dst)
    assert_same_tree(src, dst)


def test_hdf5_non_strict_missing_group(tmp_path):
    h5py = pytest.importorskip("h5py")
    path = str(tmp_path / "leaf.h5")
    serializers.save_hdf5(path, {"a/count": numpy.asarray(3)})
    with h5py.File(path, "r") as f:
        dst = Tree(1)
        dst.serialize(serializers.HDF5Deserializer(f, strict=False))
    assert dst.a.count == 3 and dst.b.count == 11


def _mlp():
    from kumo.autograd import links as L

    class MLP(L.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 4)
                self.l2 = L.Linear(4, 2)
                self.bn = L.BatchNormalization(4)

    return MLP()


def test_chainer_file_loads_into_kumo_links():
    model = _mlp()
    path = os.path.join(DATA, "chainer_mlp.npz")
    serializers.load_npz(path, model)
    with numpy.load(path) as ref:
        numpy.testing.assert_array_equal(kumo.asnumpy(model.l1.W.array), ref["l1/W"])
        numpy.testing.assert_array_equal(kumo.asnumpy(model.bn.avg_var), ref["bn/avg_var"])
        assert model.bn.N == int(ref["bn/N"])


def test_links_round_trip_with_chainer_keys(tmp_path):
    src, dst = _mlp(), _mlp()
    path = str(tmp_path / "mlp.npz")
    serializers.save_npz(path, src)
    with numpy.load(path) as ref:
        assert sorted(ref.files) == sorted(numpy.load(os.path.join(DATA, "chainer_mlp.npz")).files)
    serializers.load_npz(path, dst)
    for (n1, p1), (n2, p2) in zip(sorted(src.namedparams()), sorted(dst.namedparams())):
        assert n1 == n2
        numpy.testing.assert_array_equal(kumo.asnumpy(p1.array), kumo.asnumpy(p2.array))
