"""kumo.random core: bit generators, Generator, RandomState, module functions."""
import pickle

import numpy
import pytest
import scipy.stats

import kumo
import kumo.random as kr

KINDS = [kr.Philox4x3210, kr.XORWOW]  # MRG32k3a seeds in ~1 s on the host; covered once below


def h(a):
    return kumo.asnumpy(a)


# ---- reproducibility and state ----
@pytest.mark.parametrize("cls", KINDS)
def test_same_seed_same_numbers(cls):
    a, b = kr.Generator(cls(42)), kr.Generator(cls(42))
    numpy.testing.assert_array_equal(h(a.standard_normal(1001)), h(b.standard_normal(1001)))


@pytest.mark.parametrize("cls", KINDS)
def test_different_seeds_differ(cls):
    assert not numpy.array_equal(h(kr.Generator(cls(1)).random(100)), h(kr.Generator(cls(2)).random(100)))


@pytest.mark.parametrize("cls", KINDS)
def test_state_restore_after_mixed_calls(cls):
    g = kr.Generator(cls(7))
    g.random(1001)
    g.integers(0, 10, 77)
    g.standard_normal(333, dtype=numpy.float32)
    st = g.bit_generator.state
    a = h(g.standard_normal(5001))
    g.bit_generator.state = st
    numpy.testing.assert_array_equal(a, h(g.standard_normal(5001)))


def test_state_restores_into_new_generator():
    g = kr.default_rng(3)
    g.random(10)
    st = g.bit_generator.state
    other = kr.Philox4x3210(99)
    other.state = st
    numpy.testing.assert_array_equal(h(g.random(7)), h(kr.Generator(other).random(7)))


def test_mrg32k3a_reproducible():
    a, b = kr.Generator(kr.MRG32k3a(5)), kr.Generator(kr.MRG32k3a(5))
    numpy.testing.assert_array_equal(h(a.random(9)), h(b.random(9)))


def test_pickle_generator():
    g = kr.default_rng(11)
    g.random(5)
    g2 = pickle.loads(pickle.dumps(g))
    numpy.testing.assert_array_equal(h(g.random(6)), h(g2.random(6)))


def test_pickle_random_state():
    rs = kr.RandomState(11)
    rs.rand(3)
    rs2 = pickle.loads(pickle.dumps(rs))
    numpy.testing.assert_array_equal(h(rs.randn(5)), h(rs2.randn(5)))


def test_random_state_get_set_state():
    rs = kr.RandomState(4)
    rs.rand(13)
    st = rs.get_state()
    a = h(rs.randint(0, 100, 50))
    rs.set_state(st)
    numpy.testing.assert_array_equal(a, h(rs.randint(0, 100, 50)))


def test_module_seed_reproducible():
    kr.seed(5)
    a = h(kr.rand(4))
    kr.seed(5)
    numpy.testing.assert_array_equal(a, h(kr.rand(4)))


def test_set_random_state():
    old = kr.get_random_state()
    try:
        kr.set_random_state(kr.RandomState(8))
        a = h(kr.random_sample(3))
        numpy.testing.assert_array_equal(a, h(kr.RandomState(8).random_sample(3)))
    finally:
        kr.set_random_state(old)


@pytest.mark.parametrize("seed", [0, 2**64 - 1, 2**100 + 5, [1, 2, 3], numpy.random.SeedSequence(4)])
def test_seed_forms_accepted(seed):
    assert h(kr.default_rng(seed).random(2)).shape == (2,)


def test_seed_none_gives_fresh_streams():
    assert not numpy.array_equal(h(kr.default_rng().random(8)), h(kr.default_rng().random(8)))


def test_default_rng_passthrough():
    g = kr.default_rng(1)
    assert kr.default_rng(g) is g
    bg = kr.XORWOW(1)
    assert kr.default_rng(bg).bit_generator is bg


@pytest.mark.parametrize("call,exc,msg", [
    (lambda: kr.default_rng(-1), ValueError, "expected non-negative integer"),
    (lambda: kr.RandomState(-1), ValueError, "Seed must be between 0 and 2\\*\\*32 - 1"),
    (lambda: kr.default_rng(1.5), TypeError, "SeedSequence expects int"),
])
def test_seed_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_odd_count_normals_continue_stream():
    # An odd count draws a whole pair: the next call starts after it.
    a = kr.default_rng(9)
    b = kr.default_rng(9)
    a.standard_normal(3)
    b.standard_normal(4)
    numpy.testing.assert_array_equal(h(a.random(5)), h(b.random(5)))


def test_odd_count_normals_prefix():
    x = h(kr.default_rng(9).standard_normal(5))
    y = h(kr.default_rng(9).standard_normal(6))
    assert x.shape == (5,)
    numpy.testing.assert_array_equal(x, y[:5])  # the odd count drops the last pair's second value


# ---- shapes and dtypes ----
@pytest.mark.parametrize("size", [None, 0, 5, (2, 3), (0, 4), (2, 1, 3)])
@pytest.mark.parametrize("method", ["random", "standard_normal"])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_float_shape_dtype(size, method, dtype):
    k = getattr(kr.default_rng(0), method)(size, dtype=dtype)
    n = getattr(numpy.random.default_rng(0), method)(size, dtype=dtype)
    assert k.shape == numpy.shape(n) and k.dtype == numpy.dtype(dtype)


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint8, numpy.int16, numpy.uint16, numpy.int32,
                                   numpy.uint32, numpy.int64, numpy.uint64])
def test_integers_dtype_range(dtype):
    info = numpy.iinfo(dtype) if dtype is not numpy.bool_ else None
    lo, hi = (0, 2) if info is None else (int(info.min), int(info.max))
    x = h(kr.default_rng(1).integers(lo, hi, size=2000, dtype=dtype, endpoint=info is not None))
    assert x.dtype == numpy.dtype(dtype)
    assert x.min() >= lo and x.max() <= hi


def test_integers_scalar_is_0d():
    assert kr.default_rng(0).integers(5).shape == ()


def test_integers_broadcast_arrays():
    low, high = numpy.array([0, 100]), numpy.array([[110], [200]])
    x = h(kr.default_rng(0).integers(low, high, size=(50, 2, 2)))
    assert x.shape == (50, 2, 2)
    assert (x >= low).all() and (x < high).all()


def test_random_out_fills_in_place():
    out = kumo.empty((3, 4))
    r = kr.default_rng(0).random(out=out)
    assert r is out
    assert ((h(out) >= 0) & (h(out) < 1)).all()


# ---- argument errors ----
@pytest.mark.parametrize("call", [
    lambda g: g.integers(5, 5), lambda g: g.integers(-1, 5, dtype=numpy.uint8),
    lambda g: g.integers(0, 300, dtype=numpy.uint8), lambda g: g.normal(0, -1), lambda g: g.lognormal(0, -1),
    lambda g: g.choice(0), lambda g: g.choice([]), lambda g: g.choice(3, p=[0.2, 0.2, 0.2]),
    lambda g: g.choice(3, p=[0.2, 0.2]), lambda g: g.choice(3, p=[-0.2, 0.6, 0.6]),
    lambda g: g.choice(3, 5, replace=False), lambda g: g.choice(3, 3, replace=False, p=[0.5, 0.5, 0]),
    lambda g: g.random(dtype=numpy.int32), lambda g: g.standard_normal(dtype=numpy.float16),
    lambda g: g.integers(0, 5, dtype=numpy.float64), lambda g: g.normal([0, 0], [1, 1], size=3),
    lambda g: g.uniform(0, numpy.inf),
])
def test_errors_match_numpy(call):
    with pytest.raises(Exception) as ne:
        call(numpy.random.default_rng(0))
    with pytest.raises(type(ne.value)) as ke:
        call(kr.default_rng(0))
    if type(ne.value) is not ValueError or "shape" not in str(ne.value):
        assert str(ke.value) == str(ne.value)


def test_random_out_size_mismatch():
    with pytest.raises(ValueError, match="size must match out.shape"):
        kr.default_rng(0).random(size=(2,), out=kumo.empty(3))


# ---- statistics (fixed seeds) ----
N = 200000


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_uniform_ks(dtype):
    x = h(kr.default_rng(12).random(N, dtype=dtype)).astype(numpy.float64)
    assert x.min() >= 0 and x.max() < 1
    assert scipy.stats.kstest(x, "uniform").pvalue > 1e-3


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("cls", KINDS)
def test_normal_ks(dtype, cls):
    x = h(kr.Generator(cls(13)).standard_normal(N, dtype=dtype)).astype(numpy.float64)
    assert scipy.stats.kstest(x, "norm").pvalue > 1e-3


def test_normal_loc_scale_moments():
    x = h(kr.default_rng(14).normal(3.0, 2.0, N))
    assert abs(x.mean() - 3.0) < 0.03 and abs(x.std() - 2.0) < 0.03


def test_lognormal_ks():
    x = h(kr.default_rng(15).lognormal(0.5, 0.75, N))
    assert scipy.stats.kstest(x, "lognorm", args=(0.75, 0, numpy.exp(0.5))).pvalue > 1e-3


def test_uniform_range_ks():
    x = h(kr.default_rng(16).uniform(-2.0, 5.0, N))
    assert scipy.stats.kstest(x, "uniform", args=(-2.0, 7.0)).pvalue > 1e-3


@pytest.mark.parametrize("lo,hi", [(0, 7), (-3, 97), (0, 2**32 + 7), (10, 16)])
def test_integers_chi_square(lo, hi):
    x = h(kr.default_rng(17).integers(lo, hi, N))
    assert x.min() >= lo and x.max() < hi
    bins = 7 if hi - lo > 1000 else hi - lo
    counts = numpy.bincount(((x - lo) * bins // (hi - lo)).astype(numpy.int64), minlength=bins)
    assert scipy.stats.chisquare(counts).pvalue > 1e-3


def test_choice_with_p_chi_square():
    p = numpy.array([0.1, 0.0, 0.2, 0.3, 0.4])
    x = h(kr.default_rng(18).choice(5, N, p=p))
    counts = numpy.bincount(x, minlength=5)
    assert counts[1] == 0
    nz = p > 0
    assert scipy.stats.chisquare(counts[nz], p[nz] * N).pvalue > 1e-3


def test_choice_without_replacement_unique():
    x = h(kr.default_rng(19).choice(50, 20, replace=False))
    assert len(set(x.tolist())) == 20 and x.max() < 50


def test_choice_weighted_without_replacement_unique():
    x = h(kr.default_rng(19).choice(10, 5, replace=False, p=numpy.full(10, 0.1)))
    assert len(set(x.tolist())) == 5


def test_choice_from_array():
    a = numpy.array([[1, 2], [3, 4], [5, 6]])
    x = h(kr.default_rng(20).choice(a, 4))
    assert x.shape == (4, 2) and all(any((r == row).all() for row in a) for r in x)


def test_permutation_is_permutation():
    x = h(kr.default_rng(21).permutation(1000))
    assert sorted(x.tolist()) == list(range(1000))


def test_permutation_first_position_uniform():
    counts = numpy.zeros(5, numpy.int64)
    g = kr.default_rng(22)
    for _ in range(500):
        counts[int(h(g.permutation(5))[0])] += 1
    assert scipy.stats.chisquare(counts).pvalue > 1e-3


def test_shuffle_non_contiguous_view_in_place():
    base = kumo.arange(40).reshape(4, 10)
    view = base[:, ::-2]
    before = h(view).copy()
    kr.default_rng(23).shuffle(view)
    after = h(base)[:, ::-2]
    assert sorted(map(tuple, after.tolist())) == sorted(map(tuple, before.tolist()))
    numpy.testing.assert_array_equal(h(base)[:, -2::-2], numpy.arange(40).reshape(4, 10)[:, -2::-2])


def test_permuted_axis_rows_are_permutations():
    x = h(kr.default_rng(24).permuted(kumo.arange(30).reshape(3, 10), axis=1))
    for i, row in enumerate(x):
        assert sorted(row.tolist()) == list(range(10 * i, 10 * i + 10))


def test_bytes_length():
    b = kr.default_rng(25).bytes(13)
    assert isinstance(b, bytes) and len(b) == 13


def test_random_raw_uint64():
    r = kr.Philox4x3210(1).random_raw(4)
    assert r.dtype == numpy.uint64 and r.shape == (4,)


def test_legacy_shapes():
    rs = kr.RandomState(0)
    assert rs.rand(2, 3).shape == (2, 3)
    assert rs.randn().shape == ()
    assert rs.randint(5, size=4).dtype == numpy.int64
    with pytest.warns(DeprecationWarning):
        x = h(rs.random_integers(1, 6, size=1000))
    assert x.min() >= 1 and x.max() <= 6 and 6 in x


def test_distributions_attached():
    names = set(kr._continuous.__all__) | set(kr._discrete.__all__)
    for name in names:
        assert callable(getattr(kr.Generator, name)) and callable(getattr(kr.RandomState, name))
        assert callable(getattr(kr, name))


def test_uniform_transform_matches_formula():
    # float64 draws read two stream words as one little-endian uint64.
    bg = kr.Philox4x3210(31)
    w = h(kr.Philox4x3210(31)._uint32((4,))).astype(numpy.uint64)
    expect = ((w[0::2] | (w[1::2] << numpy.uint64(32))) >> numpy.uint64(11)) * 2.0 ** -53
    numpy.testing.assert_array_equal(h(kr.Generator(bg).random(2)), expect)


# ---- the C++ Generator (random/generator.h) draws Python's streams ----
def _cxx_generator(kind, seed):
    from kumo import _core
    return _core.random.Generator(_core.random.BitGenerator(kind, seed))


_CXX_CALLS = [
    ("random", lambda g: g.random(7), lambda c: c.random((7,), numpy.float64)),
    ("random_f32", lambda g: g.random((2, 3), dtype=numpy.float32), lambda c: c.random((2, 3), numpy.float32)),
    ("standard_normal", lambda g: g.standard_normal(9), lambda c: c.standard_normal((9,), numpy.float64)),
    ("standard_normal_f32", lambda g: g.standard_normal(5, dtype=numpy.float32),
     lambda c: c.standard_normal((5,), numpy.float32)),
    ("uniform", lambda g: g.uniform(-2.0, 3.0, (4, 2)), lambda c: c.uniform(-2.0, 3.0, (4, 2))),
    ("normal", lambda g: g.normal(1.5, 0.25, 11), lambda c: c.normal(1.5, 0.25, (11,))),
    ("integers", lambda g: g.integers(-7, 1000, 13), lambda c: c.integers(-7, 1000, (13,), numpy.int64, False)),
    ("integers_u8", lambda g: g.integers(0, 255, 6, dtype=numpy.uint8, endpoint=True),
     lambda c: c.integers(0, 255, (6,), numpy.uint8, True)),
    ("permutation", lambda g: g.permutation(20), lambda c: c.permutation(20)),
    ("permutation_rows", lambda g: g.permutation(kumo.arange(12).reshape(4, 3)),
     lambda c: c.permutation(kumo.arange(12).reshape(4, 3))),
]


@pytest.mark.parametrize("name,py_call,cxx_call", _CXX_CALLS, ids=[c[0] for c in _CXX_CALLS])
@pytest.mark.parametrize("seed", [0, 42, 2**64 - 1])
def test_cxx_generator_matches_default_rng(name, py_call, cxx_call, seed):
    g = kr.default_rng(seed)
    c = _cxx_generator("philox4x32_10", seed)
    for _ in range(2):  # and the streams continue alike
        k, x = py_call(g), cxx_call(c)
        assert k.dtype == x.dtype and k.shape == x.shape
        numpy.testing.assert_array_equal(h(k), h(x))


def test_cxx_generator_matches_xorwow_generator():
    g = kr.Generator(kr.XORWOW(5))
    c = _cxx_generator("xorwow", 5)
    numpy.testing.assert_array_equal(h(g.standard_normal(1001)), h(c.standard_normal((1001,), numpy.float64)))
    numpy.testing.assert_array_equal(h(g.integers(0, 10, 5)), h(c.integers(0, 10, (5,), numpy.int64, False)))


def test_python_methods_draw_through_the_cxx_generator():
    # The Generator's bit generator wraps a C++ BitGenerator, and its state
    # moves when the C++ Generator draws.
    g = kr.default_rng(8)
    cxx = g.bit_generator._cxx
    before = g.bit_generator.state["state"]["offset"]
    cxx.random((5,), numpy.float64)
    assert g.bit_generator.state["state"]["offset"] == before + 10
    numpy.testing.assert_array_equal(h(g.random(3)), h(_cxx_generator("philox4x32_10", 8).random((8,), numpy.float64))[5:])


def test_normal_stream_is_box_muller_of_the_words():
    # Pair j of an n-value draw uses uint64 words j and pairs + j (Box-Muller
    # with u1 in (0, 1], u2 in [0, 1)); the fma-only math is within an ulp or two of libm.
    n, pairs = 7, 4
    w = h(kr.Philox4x3210(17)._uint32((4 * pairs,))).view(numpy.uint64)
    u1 = ((w[:pairs] >> numpy.uint64(11)) + numpy.uint64(1)) * 2.0 ** -53
    u2 = (w[pairs:] >> numpy.uint64(11)) * 2.0 ** -53
    r = numpy.sqrt(-2.0 * numpy.log(u1))
    expect = numpy.concatenate([r * numpy.cos(2 * numpy.pi * u2), r * numpy.sin(2 * numpy.pi * u2)])[:n]
    numpy.testing.assert_allclose(h(kr.default_rng(17).standard_normal(n)), expect, rtol=1e-13, atol=1e-15)


def _philox_u32_stream(key, index, count):
    """Per-element Philox4x32-10 words (the reference for integers())."""
    m32 = 0xFFFFFFFF
    k0, k1 = key & m32, key >> 32
    ctr = [index & m32, index >> 32, 0, 0]
    out = []
    while len(out) < count:
        c0, c1, c2, c3 = ctr
        a, b = k0, k1
        for _ in range(10):
            p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
            c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ a, p1 & m32, (p0 >> 32) ^ c3 ^ b, p0 & m32
            a, b = (a + 0x9E3779B9) & m32, (b + 0xBB67AE85) & m32
        out += [c0, c1, c2, c3]
        ctr[2] += 1
    return out


def test_integers_stream_is_lemire_over_per_element_philox():
    lo, hi, n = -3, 97, 12
    w = h(kr.Philox4x3210(29)._uint32((2,)))
    key = (int(w[0]) << 32) | int(w[1])
    s = hi - lo
    expect = []
    for i in range(n):
        words = iter(_philox_u32_stream(key, i, 64))
        m = next(words) * s
        if (m & 0xFFFFFFFF) < s:
            t = (2**32 - s) % s
            while (m & 0xFFFFFFFF) < t:
                m = next(words) * s
        expect.append(lo + (m >> 32))
    numpy.testing.assert_array_equal(h(kr.default_rng(29).integers(lo, hi, n)), expect)


def test_permutation_is_stable_argsort_of_word_keys():
    w = h(kr.Philox4x3210(30)._uint32((2 * 25,))).view(numpy.uint64)
    numpy.testing.assert_array_equal(h(kr.default_rng(30).permutation(25)), numpy.argsort(w, kind="stable"))


def test_integers_uint64_full_span():
    x = h(kr.default_rng(3).integers(0, 2**64, 1000, dtype=numpy.uint64))
    assert x.dtype == numpy.uint64 and x.max() > 2**63


@pytest.mark.parametrize("low,high,dtype,msg", [
    (-2**70, 5, numpy.int64, "low is out of bounds for int64"),
    (0, 2**70, numpy.int64, "high is out of bounds for int64"),
    (2**70, 2**71, numpy.uint64, "high is out of bounds for uint64"),
    ([0, -2**70], 5, numpy.int64, "low is out of bounds for int64"),
])
def test_integers_bounds_beyond_64_bits(low, high, dtype, msg):
    with pytest.raises(ValueError, match=msg):
        numpy.random.default_rng(0).integers(low, high, dtype=dtype)
    with pytest.raises(ValueError, match=msg):
        kr.default_rng(0).integers(low, high, dtype=dtype)
