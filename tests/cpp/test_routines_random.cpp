// kumo::random::Generator: reproducibility, state, shapes and dtypes,
// moments, and NumPy's errors. The streams themselves are checked against
// Python's kumo.random.default_rng in tests/python/test_random_core.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "core/cuda_plugin.h"
#include "kumo/kumo.h"

using namespace kumo;
using random::BitGeneratorState;
using random::Generator;

namespace {

// The host generators come from cuRAND in the CUDA plugin; without it
// kumo.random is unavailable (a RuntimeError), which RandomErrors checks.
#define KUMO_NEED_RANDOM() \
  if (cuda_plugin() == nullptr) GTEST_SKIP() << cuda_plugin_load_error()

template <class T>
double mean(const std::vector<T>& v) {
  double s = 0;
  for (T x : v) s += static_cast<double>(x);
  return s / static_cast<double>(v.size());
}

template <class T>
double stddev(const std::vector<T>& v) {
  const double m = mean(v);
  double s = 0;
  for (T x : v) s += (static_cast<double>(x) - m) * (static_cast<double>(x) - m);
  return std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace

TEST(RoutinesRandom, SameSeedSameNumbers) {
  KUMO_NEED_RANDOM();
  for (RandomKind kind : {RandomKind::kPhilox4x32_10, RandomKind::kXorwow}) {
    Generator a(42, kind), b(42, kind);
    EXPECT_EQ(a.random({101}).to_vector<double>(), b.random({101}).to_vector<double>());
    EXPECT_EQ(a.standard_normal({7}, Dtype::kFloat32).to_vector<float>(),
              b.standard_normal({7}, Dtype::kFloat32).to_vector<float>());
    EXPECT_EQ(a.integers(-5, 1000, {33}).to_vector<int64_t>(), b.integers(-5, 1000, {33}).to_vector<int64_t>());
    EXPECT_EQ(a.normal(1.0, 2.0, {9}).to_vector<double>(), b.normal(1.0, 2.0, {9}).to_vector<double>());
    EXPECT_EQ(a.uniform(-1.0, 3.0, {9}).to_vector<double>(), b.uniform(-1.0, 3.0, {9}).to_vector<double>());
    EXPECT_EQ(a.permutation(50).to_vector<int64_t>(), b.permutation(50).to_vector<int64_t>());
  }
  EXPECT_EQ(random::default_rng(7).random({5}).to_vector<double>(), Generator(7).random({5}).to_vector<double>());
}

TEST(RoutinesRandom, DifferentSeedsDiffer) {
  KUMO_NEED_RANDOM();
  EXPECT_NE(Generator(1).random({100}).to_vector<double>(), Generator(2).random({100}).to_vector<double>());
  EXPECT_NE(Generator(1).integers(0, 1 << 30, {100}).to_vector<int64_t>(),
            Generator(2).integers(0, 1 << 30, {100}).to_vector<int64_t>());
  EXPECT_NE(random::default_rng().random({8}).to_vector<double>(), random::default_rng().random({8}).to_vector<double>());
}

TEST(RoutinesRandom, StateSaveRestoreAfterMixedCalls) {
  KUMO_NEED_RANDOM();
  for (RandomKind kind : {RandomKind::kPhilox4x32_10, RandomKind::kXorwow}) {
    Generator g(7, kind);
    g.random({1001});
    g.integers(0, 10, {77});
    g.standard_normal({333}, Dtype::kFloat32);
    const BitGeneratorState st = g.state();
    EXPECT_EQ(st.kind, kind);
    EXPECT_EQ(st.seed, 7u);
    // 2 words per float64, 2 for the integer key, one pair of words per pair of float32 normals.
    EXPECT_EQ(st.offset, 2u * 1001 + 2 + 2 * 167);
    const std::vector<double> a = g.standard_normal({5001}).to_vector<double>();
    g.set_state(st);
    EXPECT_EQ(a, g.standard_normal({5001}).to_vector<double>());
    // Another generator of the same kind takes the state over.
    Generator other(99, kind);
    other.set_state(st);
    g.set_state(st);
    EXPECT_EQ(g.random({9}).to_vector<double>(), other.random({9}).to_vector<double>());
  }
}

TEST(RoutinesRandom, CopiesShareTheStream) {
  KUMO_NEED_RANDOM();
  Generator a(3);
  Generator b = a;  // a handle, as NumPy's Generators share their bit_generator
  const std::vector<double> first = a.random({4}).to_vector<double>();
  EXPECT_NE(first, b.random({4}).to_vector<double>());
  EXPECT_EQ(a.state().offset, 16u);
}

TEST(RoutinesRandom, UniformTransformIsTheDocumentedFormula) {
  KUMO_NEED_RANDOM();
  // float64: two words as one little-endian uint64, top 53 bits; float32: top 24 bits of a word.
  random::BitGenerator bits(RandomKind::kPhilox4x32_10, 31);
  const std::vector<uint32_t> w = bits.words(6).to_vector<uint32_t>();
  const std::vector<double> d = Generator(31).random({2}).to_vector<double>();
  for (int k = 0; k < 2; ++k) {
    const uint64_t b = (static_cast<uint64_t>(w[2 * k + 1]) << 32) | w[2 * k];
    EXPECT_EQ(d[k], static_cast<double>(b >> 11) * 0x1p-53);
  }
  const std::vector<float> f = Generator(31).random({3}, Dtype::kFloat32).to_vector<float>();
  for (int k = 0; k < 3; ++k) EXPECT_EQ(f[k], static_cast<float>(w[k] >> 8) * 0x1p-24f);
}

TEST(RoutinesRandom, OddNormalCountDrawsAWholePair) {
  KUMO_NEED_RANDOM();
  Generator a(9), b(9);
  const std::vector<double> x = a.standard_normal({5}).to_vector<double>();
  const std::vector<double> y = b.standard_normal({6}).to_vector<double>();
  EXPECT_EQ(x, std::vector<double>(y.begin(), y.begin() + 5));
  EXPECT_EQ(a.random({5}).to_vector<double>(), b.random({5}).to_vector<double>());
}

TEST(RoutinesRandom, ShapesAndDtypes) {
  KUMO_NEED_RANDOM();
  Generator g(0);
  for (Dtype dt : {Dtype::kFloat32, Dtype::kFloat64}) {
    for (const Shape& s : {Shape{}, Shape{0}, Shape{5}, Shape{2, 3}, Shape{0, 4}, Shape{2, 1, 3}}) {
      Array r = g.random(s, dt), n = g.standard_normal(s, dt);
      EXPECT_EQ(r.shape(), s);
      EXPECT_EQ(n.shape(), s);
      EXPECT_EQ(r.dtype(), dt);
      EXPECT_EQ(n.dtype(), dt);
    }
  }
  EXPECT_EQ(g.normal(0.0, 1.0).ndim(), 0);
  EXPECT_EQ(g.uniform(0.0, 1.0, {3, 4}).shape(), (Shape{3, 4}));
  EXPECT_EQ(g.integers(0, 5).ndim(), 0);
  // Empty draws consume no words.
  const uint64_t before = g.state().offset;
  g.integers(0, 5, {0, 3});
  g.standard_normal({0});
  g.permutation(0);
  EXPECT_EQ(g.state().offset, before);
}

TEST(RoutinesRandom, IntegersCoverEveryDtypeRange) {
  KUMO_NEED_RANDOM();
  Generator g(1);
  struct Case {
    Dtype dt;
    int64_t lo;
    uint64_t hi;
  };
  const Case cases[] = {{Dtype::kInt8, -128, 127},        {Dtype::kUInt8, 0, 255},
                        {Dtype::kInt16, -32768, 32767},   {Dtype::kUInt16, 0, 65535},
                        {Dtype::kInt32, INT32_MIN, INT32_MAX}, {Dtype::kUInt32, 0, UINT32_MAX},
                        {Dtype::kInt64, INT64_MIN, INT64_MAX}, {Dtype::kUInt64, 0, UINT64_MAX}};
  for (const Case& c : cases) {
    Array x = g.integers(c.lo, c.hi, {2000}, c.dt, /*endpoint=*/true);
    EXPECT_EQ(x.dtype(), c.dt);
    if (c.dt == Dtype::kUInt64) continue;  // every value is in range
    const std::vector<double> v = x.to_vector<double>();
    EXPECT_GE(*std::min_element(v.begin(), v.end()), static_cast<double>(c.lo)) << dtype_name(c.dt);
    EXPECT_LE(*std::max_element(v.begin(), v.end()), static_cast<double>(c.hi)) << dtype_name(c.dt);
  }
  const std::vector<bool> b = g.integers(0, 2, {100}, Dtype::kBool).to_vector<bool>();
  EXPECT_TRUE(std::count(b.begin(), b.end(), true) > 20 && std::count(b.begin(), b.end(), false) > 20);
  // A small range hits every value.
  const std::vector<int64_t> d = g.integers(10, 16, {1000}).to_vector<int64_t>();
  for (int64_t k = 10; k < 16; ++k) EXPECT_NE(std::find(d.begin(), d.end(), k), d.end());
  EXPECT_EQ(*std::max_element(d.begin(), d.end()), 15);
}

TEST(RoutinesRandom, ArrayParametersBroadcast) {
  KUMO_NEED_RANDOM();
  Generator g(0);
  Array low = asarray(std::vector<int64_t>{0, 100}, {2});
  Array high = asarray(std::vector<int64_t>{110, 200}, {2, 1});
  Array x = g.integers(low, high, Shape{50, 2, 2});
  EXPECT_EQ(x.shape(), (Shape{50, 2, 2}));
  const std::vector<int64_t> v = x.to_vector<int64_t>();
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t lo = (i % 2) ? 100 : 0, hi = ((i / 2) % 2) ? 200 : 110;
    EXPECT_TRUE(v[i] >= lo && v[i] < hi) << i;
  }
  EXPECT_EQ(g.integers(low, high).shape(), (Shape{2, 2}));

  // Scalar and 0-d array parameters give the same numbers.
  Array loc = scalar_array(1.5), scale = scalar_array(2.0);
  EXPECT_EQ(Generator(5).normal(1.5, 2.0, {7}).to_vector<double>(),
            Generator(5).normal(loc, scale, Shape{7}).to_vector<double>());
  EXPECT_EQ(Generator(5).uniform(1.5, 2.0, {7}).to_vector<double>(),
            Generator(5).uniform(loc, scale, Shape{7}).to_vector<double>());
  // Per-element locations.
  Array locs = asarray(std::vector<double>{-100, 0, 100}, {3});
  const std::vector<double> n = g.normal(locs, scalar_array(0.5), Shape{1000, 3}).to_vector<double>();
  for (size_t i = 0; i < n.size(); ++i) EXPECT_NEAR(n[i], -100.0 + 100.0 * static_cast<double>(i % 3), 5.0);
  EXPECT_EQ(g.normal(locs, scalar_array(1.0)).shape(), (Shape{3}));
  // Integer arrays are safe-cast to float64.
  EXPECT_EQ(g.uniform(asarray(std::vector<int32_t>{0, 10}), asarray(std::vector<int32_t>{1, 11})).dtype(),
            Dtype::kFloat64);
}

TEST(RoutinesRandom, Moments) {
  KUMO_NEED_RANDOM();
  Generator g(14);
  const int n = 200000;
  const std::vector<double> z = g.normal(3.0, 2.0, {n}).to_vector<double>();
  EXPECT_NEAR(mean(z), 3.0, 0.03);
  EXPECT_NEAR(stddev(z), 2.0, 0.03);
  const std::vector<float> zf = g.standard_normal({n}, Dtype::kFloat32).to_vector<float>();
  EXPECT_NEAR(mean(zf), 0.0, 0.015);
  EXPECT_NEAR(stddev(zf), 1.0, 0.015);
  const std::vector<double> u = g.uniform(-2.0, 5.0, {n}).to_vector<double>();
  EXPECT_NEAR(mean(u), 1.5, 0.03);
  EXPECT_NEAR(stddev(u), 7.0 / std::sqrt(12.0), 0.03);
  EXPECT_GE(*std::min_element(u.begin(), u.end()), -2.0);
  EXPECT_LT(*std::max_element(u.begin(), u.end()), 5.0);
  const std::vector<double> r = g.random({n}).to_vector<double>();
  EXPECT_NEAR(mean(r), 0.5, 0.005);
  const std::vector<int64_t> k = g.integers(0, 7, {n}).to_vector<int64_t>();
  std::vector<int> counts(7);
  for (int64_t v : k) ++counts[static_cast<size_t>(v)];
  for (int c : counts) EXPECT_NEAR(c, n / 7.0, 5 * std::sqrt(n / 7.0));
}

TEST(RoutinesRandom, PermutationIsAPermutation) {
  KUMO_NEED_RANDOM();
  Generator g(21);
  std::vector<int64_t> p = g.permutation(1000).to_vector<int64_t>();
  std::vector<int64_t> sorted_p = p;
  std::sort(sorted_p.begin(), sorted_p.end());
  std::vector<int64_t> expect(1000);
  std::iota(expect.begin(), expect.end(), int64_t{0});
  EXPECT_EQ(sorted_p, expect);
  EXPECT_NE(p, expect);

  // Of an array: whole rows move along axis 0 (any dtype, byte for byte).
  Array a = asarray(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}, {4, 2});
  const std::vector<int64_t> idx = Generator(5).permutation_indices(4);
  const std::vector<float> rows = Generator(5).permutation(a).to_vector<float>();
  for (size_t j = 0; j < 4; ++j) {
    EXPECT_EQ(rows[2 * j], static_cast<float>(2 * idx[j]));
    EXPECT_EQ(rows[2 * j + 1], static_cast<float>(2 * idx[j] + 1));
  }
  // Along axis 1: every row gets the same column order.
  Array cols = Generator(5).permutation(a.transpose(), 1);
  EXPECT_EQ(cols.shape(), (Shape{2, 4}));
  EXPECT_TRUE(cols.c_contiguous());
  EXPECT_EQ(cols.transpose().to_vector<float>(), rows);
}

TEST(RoutinesRandom, ErrorsAreNumpys) {
  KUMO_NEED_RANDOM();
  Generator g(0);
  EXPECT_THROW(g.integers(5, 5), ValueError);
  EXPECT_NO_THROW(g.integers(5, 5, {}, Dtype::kInt64, /*endpoint=*/true));
  EXPECT_THROW(g.integers(6, 5, {}, Dtype::kInt64, true), ValueError);
  EXPECT_THROW(g.integers(-1, 5, {}, Dtype::kUInt8), ValueError);
  EXPECT_THROW(g.integers(0, 300, {}, Dtype::kUInt8), ValueError);
  EXPECT_THROW(g.integers(0, 5, {}, Dtype::kFloat64), TypeError);
  EXPECT_THROW(g.integers(0.5, 5), TypeError);
  EXPECT_THROW(g.random({}, Dtype::kInt32), TypeError);
  EXPECT_THROW(g.standard_normal({}, Dtype::kFloat16), TypeError);
  EXPECT_THROW(g.random({-1}), ValueError);
  EXPECT_THROW(g.normal(0.0, -1.0), ValueError);
  EXPECT_THROW(g.normal(0.0, -0.0), ValueError);  // NumPy tests the sign bit
  EXPECT_NO_THROW(g.normal(0.0, std::nan("")));
  EXPECT_THROW(g.uniform(0.0, std::numeric_limits<double>::infinity()), OverflowError);
  EXPECT_THROW(g.normal(asarray(std::vector<double>{0, 0}), asarray(std::vector<double>{1, 1}), Shape{3}),
               ValueError);
  EXPECT_THROW(g.normal(scalar_array(0.0), asarray(std::vector<double>{1, -1})), ValueError);
  EXPECT_THROW(g.uniform(scalar_array(std::complex<double>(1, 0)), scalar_array(2.0)), TypeError);
  EXPECT_THROW(g.integers(asarray(std::vector<int64_t>{0, 5}), asarray(std::vector<int64_t>{3, 5})), ValueError);
  EXPECT_THROW(g.integers(asarray(std::vector<double>{0}), asarray(std::vector<int64_t>{3})), TypeError);
  EXPECT_THROW(g.permutation(-1), ValueError);
  EXPECT_THROW(g.permutation(scalar_array(1.0)), AxisError);
  EXPECT_THROW(g.permutation(asarray(std::vector<double>{1, 2}), 1), AxisError);
  BitGeneratorState st = g.state();
  st.kind = RandomKind::kXorwow;
  EXPECT_THROW(g.set_state(st), ValueError);
  try {
    g.integers(5, 5);
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "low >= high");
  }
  try {
    g.integers(0, 300, {}, Dtype::kUInt8);
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "high is out of bounds for uint8");
  }
  try {
    g.random({}, Dtype::kInt32);
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "Unsupported dtype dtype('int32') for random");
  }
}

TEST(RoutinesRandom, Mrg32k3aReproducible) {
  KUMO_NEED_RANDOM();
  // Seeding MRG32k3a on the host takes about a second, so one check only.
  Generator a(5, RandomKind::kMrg32k3a);
  const BitGeneratorState st = a.state();
  const std::vector<double> x = a.random({9}).to_vector<double>();
  a.set_state(st);
  EXPECT_EQ(x, a.random({9}).to_vector<double>());
}
