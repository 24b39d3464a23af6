"""kumo.autograd.iterators against Chainer 7's documented behaviour."""
import copy

import numpy
import pytest

import kumo
from kumo.autograd import datasets as D
from kumo.autograd import iterators as I


class _DictSerializer:
    """Stand-in for Chainer's serializers: saves into a dict, or loads from it
    (missing keys raise KeyError, like Chainer's deserializers)."""

    def __init__(self, target=None, load=False):
        self.target = {} if target is None else target
        self.load = load

    def __call__(self, key, value):
        if self.load:
            v = self.target[key]
            return v.copy() if isinstance(v, numpy.ndarray) else v
        self.target[key] = value.copy() if isinstance(value, numpy.ndarray) else value
        return value


def _make(kind, dataset, batch_size, **kw):
    if kind == "serial":
        return I.SerialIterator(dataset, batch_size, **kw)
    if kind == "thread":
        return I.MultithreadIterator(dataset, batch_size, n_threads=2, **kw)
    return I.MultiprocessIterator(dataset, batch_size, n_processes=2, n_prefetch=2, **kw)


KINDS = ["serial", "thread", "process"]


def _sampler(seed):
    return I.ShuffleOrderSampler(numpy.random.RandomState(seed))


@pytest.mark.parametrize("kind", KINDS)
def test_no_shuffle_order_and_epochs(kind):
    it = _make(kind, list(range(5)), 2, shuffle=False)
    assert it.epoch == 0 and it.epoch_detail == 0.0 and it.previous_epoch_detail is None
    assert next(it) == [0, 1]
    assert it.epoch == 0 and not it.is_new_epoch and it.epoch_detail == pytest.approx(0.4)
    assert it.previous_epoch_detail == pytest.approx(0.0)
    assert next(it) == [2, 3]
    # The batch that ends the epoch wraps around into the next one.
    assert next(it) == [4, 0]
    assert it.epoch == 1 and it.is_new_epoch and it.epoch_detail == pytest.approx(1.2)
    assert it.previous_epoch_detail == pytest.approx(0.8)
    assert next(it) == [1, 2]
    assert not it.is_new_epoch
    it.finalize()


@pytest.mark.parametrize("kind", KINDS)
def test_exact_epoch_boundary(kind):
    it = _make(kind, list(range(4)), 2, shuffle=False)
    assert next(it) == [0, 1] and not it.is_new_epoch
    assert next(it) == [2, 3] and it.is_new_epoch and it.epoch == 1 and it.current_position == 0
    it.finalize()


@pytest.mark.parametrize("kind", KINDS)
def test_batch_larger_than_dataset(kind):
    it = _make(kind, list(range(3)), 7, shuffle=False)
    assert next(it) == [0, 1, 2, 0, 1, 2, 0]
    assert it.epoch == 2 and it.current_position == 1
    it.finalize()


@pytest.mark.parametrize("kind", KINDS)
def test_no_repeat_stops(kind):
    it = _make(kind, list(range(5)), 2, repeat=False, shuffle=False)
    assert list(it) == [[0, 1], [2, 3], [4]]
    assert it.epoch == 1 and it.is_new_epoch
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(StopIteration):
        next(it)
    it.finalize()


@pytest.mark.parametrize("kind", KINDS)
def test_shuffle_each_example_once_per_epoch(kind):
    n, bs = 17, 4
    it = _make(kind, list(range(n)), bs, shuffle=True)
    seen = []
    for _ in range(3 * n // bs + 2):
        seen.extend(next(it))
    for e in range(3):
        assert sorted(seen[e * n:(e + 1) * n]) == list(range(n))
    it.finalize()


@pytest.mark.parametrize("kind", KINDS)
def test_shuffle_follows_numpy_seed(kind):
    # The default sampler draws from NumPy's global generator, as in Chainer.
    numpy.random.seed(42)
    first = numpy.random.permutation(6)
    second = numpy.random.permutation(6)
    numpy.random.seed(42)
    it = _make(kind, list(range(6)), 3, shuffle=True)
    got = [next(it) for _ in range(4)]
    it.finalize()
    assert got == [first[:3].tolist(), first[3:].tolist(), second[:3].tolist(), second[3:].tolist()]


@pytest.mark.parametrize("kind", KINDS)
def test_no_repeat_shuffled_single_epoch(kind):
    it = _make(kind, list(range(7)), 3, repeat=False, order_sampler=_sampler(0))
    batches = list(it)
    assert [len(b) for b in batches] == [3, 3, 1]
    assert sorted(sum(batches, [])) == list(range(7))
    it.finalize()


@pytest.mark.parametrize("kind", ["thread", "process"])
def test_parallel_matches_serial(kind):
    data = D.TupleDataset(numpy.arange(23) * 3, numpy.arange(23).astype(numpy.int32))
    ref = I.SerialIterator(data, 5, order_sampler=_sampler(3))
    it = _make(kind, data, 5, order_sampler=_sampler(3))
    for _ in range(12):
        a, b = next(ref), next(it)
        assert [(int(x), int(y)) for x, y in a] == [(int(x), int(y)) for x, y in b]
        assert (ref.epoch, ref.is_new_epoch, ref.current_position) == (it.epoch, it.is_new_epoch,
                                                                       it.current_position)
        assert ref.epoch_detail == pytest.approx(it.epoch_detail)
        assert ref.previous_epoch_detail == pytest.approx(it.previous_epoch_detail)
    it.finalize()


def test_multiprocess_kumo_array_dataset():
    x = kumo.arange(12, dtype=numpy.float32).reshape(6, 2)
    data = D.TupleDataset(x, kumo.arange(6))
    with I.MultiprocessIterator(data, 4, shuffle=False, n_processes=2) as it:
        batch = next(it)
    assert isinstance(batch[0][0], kumo.ndarray)
    numpy.testing.assert_array_equal(kumo.asnumpy(batch[3][0]), [6, 7])
    assert int(batch[3][1]) == 3


@pytest.mark.parametrize("kind", KINDS)
def test_serialize_round_trip_resumes(kind):
    data = list(range(11))
    it = _make(kind, data, 4, order_sampler=_sampler(5))
    for _ in range(4):
        next(it)
    saver = _DictSerializer()
    it.serialize(saver)
    expected = [next(it) for _ in range(5)]
    it.finalize()
    keys = {"current_position", "epoch", "is_new_epoch", "previous_epoch_detail"}
    assert keys <= set(saver.target)
    assert ("_order" if kind == "thread" else "order") in saver.target

    other = _make(kind, data, 4, order_sampler=_sampler(99))
    other.serialize(_DictSerializer(saver.target, load=True))
    assert other.epoch == saver.target["epoch"] and other.current_position == saver.target["current_position"]
    got = [next(other)]
    other.finalize()
    # The first batch after loading comes from the saved order.
    assert got[0] == expected[0]


@pytest.mark.parametrize("kind", KINDS)
def test_serialize_saving_does_not_disturb(kind):
    ref = _make("serial", list(range(9)), 4, order_sampler=_sampler(1))
    it = _make(kind, list(range(9)), 4, order_sampler=_sampler(1))
    for _ in range(3):
        assert next(ref) == next(it)
    it.serialize(_DictSerializer())
    for _ in range(4):
        assert next(ref) == next(it)
    it.finalize()


def test_serialize_previous_epoch_detail_fallback():
    it = I.SerialIterator(list(range(10)), 4, shuffle=False)
    target = {"current_position": 8, "epoch": 0, "is_new_epoch": False}
    it.serialize(_DictSerializer(target, load=True))
    assert it.epoch_detail == pytest.approx(0.8)
    assert it.previous_epoch_detail == pytest.approx(0.4)
    assert next(it) == [8, 9, 0, 1]


def test_serialize_reads_legacy_order_key():
    it = I.SerialIterator(list(range(4)), 2, order_sampler=_sampler(0))
    target = {"current_position": 0, "epoch": 1, "is_new_epoch": True, "_order": numpy.array([3, 2, 1, 0]),
              "previous_epoch_detail": 0.5}
    it.serialize(_DictSerializer(target, load=True))
    assert next(it) == [3, 2]
    assert it.previous_epoch_detail == pytest.approx(1.0)


@pytest.mark.parametrize("kind", KINDS)
def test_reset(kind):
    it = _make(kind, list(range(5)), 3, shuffle=False)
    next(it), next(it)
    it.reset()
    assert it.epoch == 0 and it.current_position == 0 and it.previous_epoch_detail is None
    assert next(it) == [0, 1, 2]
    it.finalize()


@pytest.mark.parametrize("kind", KINDS)
def test_shuffle_and_sampler_conflict(kind):
    with pytest.raises(ValueError, match="order_sampler"):
        _make(kind, [1, 2], 1, shuffle=True, order_sampler=_sampler(0))


@pytest.mark.parametrize("kind", KINDS)
def test_repeat_on_empty_dataset_raises(kind):
    it = _make(kind, [], 2, shuffle=False)
    with pytest.raises(ValueError, match="Epoch size must be positive"):
        next(it)
    it.finalize()


def test_sampler_changing_size_raises():
    it = I.SerialIterator(list(range(4)), 3, order_sampler=lambda order, pos: numpy.arange(len(order) - 1))
    with pytest.raises(ValueError, match="size of order"):
        next(it)
        next(it)


def test_custom_sampler_receives_order_and_position():
    calls = []

    def sampler(order, pos):
        calls.append((list(order), pos))
        return numpy.arange(len(order))[::-1]

    it = I.SerialIterator(list(range(4)), 3, order_sampler=sampler)
    assert next(it) == [3, 2, 1]
    assert next(it) == [0, 3, 2]
    assert calls == [([0, 1, 2, 3], 0), ([3, 2, 1, 0], 3)]


def test_kumo_random_state_sampler():
    rs = kumo.random.RandomState(0)
    it = I.SerialIterator(list(range(8)), 8, order_sampler=I.ShuffleOrderSampler(rs))
    assert sorted(next(it)) == list(range(8))


def test_multiprocess_finalize_is_idempotent_and_restartable():
    it = I.MultiprocessIterator(list(range(6)), 2, shuffle=False, n_processes=1)
    assert next(it) == [0, 1]
    it.finalize()
    it.finalize()
    assert next(it) == [2, 3]
    it.finalize()


def test_multiprocess_copy():
    it = I.MultiprocessIterator(list(range(6)), 2, shuffle=False, n_processes=1, n_prefetch=3)
    assert next(it) == [0, 1]
    c = copy.copy(it)
    assert c.n_prefetch == 3 and c.epoch_detail == it.epoch_detail
    assert next(c) == [2, 3] and next(it) == [2, 3]
    c.finalize()
    it.finalize()


def test_multiprocess_bad_prefetch():
    with pytest.raises(ValueError):
        I.MultiprocessIterator([1], 1, n_prefetch=0)


def test_worker_error_propagates():
    class Bad:
        def __len__(self):
            return 4

        def __getitem__(self, i):
            raise KeyError("boom %d" % i)

    it = I.MultithreadIterator(Bad(), 2, shuffle=False)
    with pytest.raises(KeyError):
        next(it)
    it.finalize()


def test_interpreter_exits_with_live_workers():
    # Neither iterator is finalized: the workers must not keep the process alive.
    import subprocess
    import sys
    code = ("from kumo.autograd import iterators as I\n"
            "it = I.MultiprocessIterator(list(range(100)), 10, n_processes=2, n_prefetch=4)\n"
            "next(it)\n"
            "it2 = I.MultithreadIterator(list(range(100)), 10, n_threads=2)\n"
            "next(it2)\n"
            "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_slow_dataset_warns_once():
    import time

    class Slow:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            time.sleep(0.8)
            return i

    with I.MultiprocessIterator(Slow(), 1, shuffle=False, n_processes=1, dataset_timeout=0.1) as it:
        with pytest.warns(RuntimeWarning, match="dataset_timeout"):
            assert next(it) == [0]
