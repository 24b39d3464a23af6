// The per-instruction-set update loops agree with the baseline build.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "autograd/optimizers/host_pieces.h"

namespace kumo {
namespace autograd {
namespace optimizers {
namespace {

std::vector<const HostPieceTable*> runnable_tables() {
  // The chosen table is runnable by definition; a wider one than it is not.
  std::vector<const HostPieceTable*> out = {detail::host_pieces_baseline()};
  const std::string chosen = host_piece_table().isa;
  if ((chosen == "avx2" || chosen == "avx512") && detail::host_pieces_avx2()) out.push_back(detail::host_pieces_avx2());
  if (chosen == "avx512") out.push_back(detail::host_pieces_avx512());
  return out;
}

TEST(OptimizerHostPieces, ChosenTableIsNamed) {
  const std::string isa = host_piece_table().isa;
  EXPECT_TRUE(isa == "baseline" || isa == "avx2" || isa == "avx512") << isa;
  for (int r = 0; r < KUMO_OPT_NUM_RULES; ++r) {
    for (int ns = 0; ns < 4; ++ns) {
      EXPECT_NE(host_piece_table().f32[r][ns], nullptr);
      EXPECT_NE(host_piece_table().f64[r][ns], nullptr);
    }
  }
}

// Adam (rule 3, two states) over an odd length, so vector loops run their
// remainder too; FMA contraction allows a few ulps of difference.
TEST(OptimizerHostPieces, AdamAgreesAcrossInstructionSets) {
  const int64_t n = 1037;
  std::mt19937 gen(7);
  std::normal_distribution<float> normal;
  std::vector<float> p0(n), g0(n), m0(n), v0(n);
  for (int64_t i = 0; i < n; ++i) {
    p0[i] = normal(gen);
    g0[i] = normal(gen);
    m0[i] = 0.1f * normal(gen);
    v0[i] = std::abs(normal(gen));
  }
  const double k[10] = {1e-3, 0.1, 0.001, 1e-8, 1.0, 0.01, 0, 0, 0, 0};
  std::vector<std::vector<float>> results;
  for (const HostPieceTable* table : runnable_tables()) {
    std::vector<float> p = p0, g = g0, m = m0, v = v0;
    table->f32[3][2](p.data(), g.data(), m.data(), v.data(), nullptr, n, k);
    results.push_back(p);
    for (int64_t i = 0; i < n; ++i) {
      const float m_ref = m0[i] + 0.1f * (g0[i] - m0[i]);
      ASSERT_NEAR(m[i], m_ref, 1e-6f) << table->isa << " at " << i;
    }
  }
  for (size_t t = 1; t < results.size(); ++t) {
    for (int64_t i = 0; i < n; ++i) ASSERT_NEAR(results[t][i], results[0][i], 1e-6f * (1 + std::abs(results[0][i])));
  }
}

TEST(OptimizerHostPieces, Float64SgdIsExactEverywhere) {
  const int64_t n = 33;
  const double k[1] = {0.5};
  for (const HostPieceTable* table : runnable_tables()) {
    std::vector<double> p(n, 1.0), g(n, 2.0);
    table->f64[0][0](p.data(), g.data(), nullptr, nullptr, nullptr, n, k);
    for (double x : p) ASSERT_EQ(x, 0.0) << table->isa;
  }
}

}  // namespace
}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
