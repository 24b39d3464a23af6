// cuRAND backend: host generators (no GPU needed) and, when a GPU is
// present, device generators giving the same streams.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/cuda_plugin.h"
#include "core/device.h"
#include "core/errors.h"
#include "random/random_backend.h"

namespace kumo {
namespace {

const RandomKind kKinds[] = {RandomKind::kPhilox4x32_10, RandomKind::kXorwow, RandomKind::kMrg32k3a};

bool have_backend() { return cuda_plugin() != nullptr; }

std::vector<uint32_t> words(RandomGenerator& g, size_t n) {
  std::vector<uint32_t> v(n);
  g.generate_u32(v.data(), n);
  return v;
}

TEST(RandomKinds, NamesRoundTrip) {
  for (RandomKind k : kKinds) EXPECT_EQ(random_kind_from_name(random_kind_name(k)), k);
  EXPECT_THROW(random_kind_from_name("mt19937"), ValueError);
}

TEST(RandomHost, SameSeedSameStreamEachKind) {
  if (!have_backend()) GTEST_SKIP() << cuda_plugin_load_error();
  for (RandomKind k : kKinds) {
    auto a = random_backend().create_generator(k, 1234, 0, host_device());
    auto b = random_backend().create_generator(k, 1234, 0, host_device());
    EXPECT_EQ(words(*a, 1000), words(*b, 1000)) << random_kind_name(k);
    auto c = random_backend().create_generator(k, 1235, 0, host_device());
    EXPECT_NE(words(*a, 100), words(*c, 100)) << random_kind_name(k);
  }
}

// "Generate N then M" equals "a new generator at offset N, generate M" for
// Philox and MRG32k3a, for raw words and Poisson values, any N.
TEST(RandomHost, OffsetArithmeticIsExact) {
  if (!have_backend()) GTEST_SKIP() << cuda_plugin_load_error();
  for (RandomKind k : {RandomKind::kPhilox4x32_10, RandomKind::kMrg32k3a}) {
    auto g = random_backend().create_generator(k, 77, 0, host_device());
    std::vector<uint32_t> scratch(5001);
    g->generate_u32(scratch.data(), 7);
    g->generate_poisson(scratch.data(), 5001, 3.5);
    g->generate_u32(scratch.data(), 1001);
    EXPECT_EQ(g->offset(), 7u + 5001u + 1001u);
    auto fresh = random_backend().create_generator(k, 77, g->offset(), host_device());
    EXPECT_EQ(words(*g, 64), words(*fresh, 64)) << random_kind_name(k);
  }
}

// XORWOW's live state drifts from the offset state; sync_to_offset makes the
// continuation equal to a fresh generator's at the tracked offset.
TEST(RandomHost, XorwowSyncToOffsetRestoresExactly) {
  if (!have_backend()) GTEST_SKIP() << cuda_plugin_load_error();
  auto g = random_backend().create_generator(RandomKind::kXorwow, 5, 0, host_device());
  std::vector<uint32_t> scratch(70001);
  g->generate_u32(scratch.data(), 70001);
  g->sync_to_offset();
  auto fresh = random_backend().create_generator(RandomKind::kXorwow, 5, g->offset(), host_device());
  EXPECT_EQ(words(*g, 4099), words(*fresh, 4099));
}

TEST(RandomHost, PoissonRejectsNonPositiveLambda) {
  if (!have_backend()) GTEST_SKIP() << cuda_plugin_load_error();
  auto g = random_backend().create_generator(RandomKind::kPhilox4x32_10, 1, 0, host_device());
  uint32_t v[2];
  EXPECT_THROW(g->generate_poisson(v, 2, 0.0), ValueError);
  EXPECT_EQ(g->offset(), 0u);
}

TEST(RandomHost, PoissonMeanIsLambda) {
  if (!have_backend()) GTEST_SKIP() << cuda_plugin_load_error();
  auto g = random_backend().create_generator(RandomKind::kPhilox4x32_10, 2, 0, host_device());
  std::vector<uint32_t> v(100000);
  g->generate_poisson(v.data(), v.size(), 4.0);
  double sum = 0;
  for (uint32_t x : v) sum += x;
  EXPECT_NEAR(sum / v.size(), 4.0, 0.05);
}

TEST(RandomHost, ZeroCountIsANoOp) {
  if (!have_backend()) GTEST_SKIP() << cuda_plugin_load_error();
  auto g = random_backend().create_generator(RandomKind::kPhilox4x32_10, 2, 0, host_device());
  g->generate_u32(nullptr, 0);
  EXPECT_EQ(g->offset(), 0u);
}

// The device generator gives the host generator's stream (needs a GPU).
TEST(RandomDevice, MatchesHostStream) {
  if (!cuda_is_available()) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  Device& gpu = get_device(DeviceType::kCUDA, 0);
  for (RandomKind k : kKinds) {
    auto host = random_backend().create_generator(k, 99, 12345, host_device());
    auto dev = random_backend().create_generator(k, 99, 12345, gpu);
    const size_t n = 100003;
    std::vector<uint32_t> expect = words(*host, n);
    auto mem = gpu.allocate(n * sizeof(uint32_t));
    dev->generate_u32(static_cast<uint32_t*>(mem->data()), n);
    std::vector<uint32_t> got(n);
    gpu.copy_to_host(got.data(), mem->data(), n * sizeof(uint32_t));
    gpu.synchronize();
    EXPECT_EQ(got, expect) << random_kind_name(k);
    std::vector<uint32_t> pe(n), pg(n);
    host->generate_poisson(pe.data(), n, 7.5);
    dev->generate_poisson(static_cast<uint32_t*>(mem->data()), n, 7.5);
    gpu.copy_to_host(pg.data(), mem->data(), n * sizeof(uint32_t));
    gpu.synchronize();
    EXPECT_EQ(pg, pe) << random_kind_name(k);
  }
}

}  // namespace
}  // namespace kumo
