// The host's run-sort-and-merge (routines/sort_keys.h): co-ranking and the
// parallel merge rounds for 2, 4 and 8 runs, with std::sort for the runs
// (kumo itself uses vqsort there, which the test build does not link).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "routines/sort_keys.h"

namespace kumo {
namespace {

using sort_detail::co_rank;
using sort_detail::merge_sort_runs;
using sort_detail::sort_runs_and_merge;

std::vector<uint64_t> random_keys(int64_t n, uint64_t range, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = range ? gen() % range : gen();
  return v;
}

// Sorts `in` with p runs; the value transform adds one to show it is applied.
std::vector<uint64_t> run_merge_sort(const std::vector<uint64_t>& in, int p) {
  const int64_t n = static_cast<int64_t>(in.size());
  std::vector<uint64_t> keys(n), tmp(n), out(n);
  sort_runs_and_merge<uint64_t>(
      keys.data(), tmp.data(), out.data(), n, p, [&](int64_t b, int64_t e) { std::copy(&in[b], &in[e], &keys[b]); },
      [](uint64_t* run, int64_t len) { std::sort(run, run + len); }, [](uint64_t k) { return k + 1; });
  return out;
}

TEST(SortMerge, CoRankSplitsAStableMerge) {
  const std::vector<uint64_t> a = {1, 2, 2, 5, 9}, b = {2, 2, 3, 9};
  // The merge takes a's element first on ties: 1a 2a 2a 2b 2b 3b 5a 9a 9b.
  const int64_t expected[] = {0, 1, 2, 3, 3, 3, 3, 4, 5, 5};
  for (int64_t k = 0; k <= 9; ++k) EXPECT_EQ(co_rank(a.data(), 5, b.data(), 4, k), expected[k]) << "k = " << k;
  EXPECT_EQ(co_rank(a.data(), 0, b.data(), 4, 2), 0);
  EXPECT_EQ(co_rank(a.data(), 5, b.data(), 0, 2), 2);
}

TEST(SortMerge, RunsOfEveryCountSortAndApplyTheValueTransform) {
  for (int p : {2, 4, 8}) {
    for (int64_t n : {int64_t(16), int64_t(1001), int64_t(100003)}) {
      for (uint64_t range : {uint64_t(0), uint64_t(3)}) {
        std::vector<uint64_t> in = random_keys(n, range, static_cast<unsigned>(p * n + range));
        std::vector<uint64_t> want = in;
        std::sort(want.begin(), want.end());
        for (auto& x : want) x += 1;
        EXPECT_EQ(run_merge_sort(in, p), want) << "p = " << p << ", n = " << n << ", range = " << range;
      }
    }
  }
}

TEST(SortMerge, RunCountFollowsThreadsAndLength) {
  EXPECT_EQ(merge_sort_runs(int64_t(1) << 30, 1), 1);
  EXPECT_EQ(merge_sort_runs(1000, 16), 1);
  EXPECT_EQ(merge_sort_runs(2 * sort_detail::kMergeSortGrain, 2), 2);
  EXPECT_EQ(merge_sort_runs(2 * sort_detail::kMergeSortGrain, 4), 2);
  EXPECT_EQ(merge_sort_runs(4 * sort_detail::kMergeSortGrain, 4), 4);
  EXPECT_EQ(merge_sort_runs(int64_t(1) << 30, 6), 4);
}

}  // namespace
}  // namespace kumo
