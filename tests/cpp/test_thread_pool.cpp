// The host thread pool behind every parallel kernel: chunks cover the range
// exactly once, jobs come back to back or from several threads at once, and
// exceptions reach the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/host/thread_pool.h"

using namespace kumo;

namespace {

// Runs parallel_for over [0, n) and checks that every index was visited once.
void expect_each_index_once(int64_t n, int64_t grain) {
  std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
  parallel_for(n, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) hits[static_cast<size_t>(i)].fetch_add(1);
  });
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[static_cast<size_t>(i)].load(), 1) << "index " << i << " of " << n;
}

}  // namespace

TEST(ThreadPool, CoversTheRangeOnceForManySizes) {
  for (int64_t n : {1, 2, 3, 7, 64, 65, 1000, 4097}) expect_each_index_once(n, 1);
  expect_each_index_once(100000, 1000);
}

TEST(ThreadPool, BackToBackJobsOfDifferentSizes) {
  // Workers still polling from one job must not take chunks of the next.
  for (int round = 0; round < 2000; ++round) expect_each_index_once(2 + round % 37, 1);
}

TEST(ThreadPool, JobsAfterTheWorkersWentToSleep) {
  expect_each_index_once(1000, 10);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // longer than the workers poll
  expect_each_index_once(1000, 10);
}

TEST(ThreadPool, SeveralCallingThreadsAtOnce) {
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        const int64_t n = 50 + 13 * t + round % 11;
        std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
        parallel_for(n, 1, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) hits[static_cast<size_t>(i)].fetch_add(1);
        });
        for (auto& h : hits)
          if (h.load() != 1) failures.fetch_add(1);
      }
    });
  for (auto& c : callers) c.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ThreadPool, RethrowsTheExceptionOfAChunkAndStaysUsable) {
  EXPECT_THROW(parallel_for(1000, 1,
                            [](int64_t b, int64_t) {
                              if (b == 0) throw std::runtime_error("chunk failed");
                            }),
               std::runtime_error);
  expect_each_index_once(1000, 1);
}

TEST(ThreadPool, NestedCallsRunInline) {
  std::atomic<int64_t> total{0};
  parallel_for(8, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      parallel_for(100, 1, [&](int64_t ib, int64_t ie) { total.fetch_add(ie - ib); });
  });
  EXPECT_EQ(total.load(), 800);
}
