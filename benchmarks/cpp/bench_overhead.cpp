// Per-call overhead of the C++ API on the host: the time of one small
// elementwise call (10 elements), which is all launch cost.
//
//   build-tests/bench_overhead            (built with the C++ tests)
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "kumo/kumo.h"

namespace {

double best_ns(const std::function<void()>& fn, int calls) {
  double best = 1e30;
  for (int rep = 0; rep < 7; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) fn();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / calls);
  }
  return best;
}

}  // namespace

int main() {
  using namespace kumo;
  Array a = asarray(std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  Array b = a + 1.0;
  Array out = a + b;
  Array f = a.astype(Dtype::kFloat32);
  volatile int64_t sink = 0;
  struct Case {
    std::string name;
    std::function<void()> fn;
  } cases[] = {
      {"a + b (new array)", [&] { sink = (a + b).size(); }},
      {"add(a, b, out)", [&] { add(a, b, out); }},
      {"a * 2.0 (weak scalar)", [&] { sink = (a * 2.0).size(); }},
      {"f * 2.0 (float32)", [&] { sink = (f * 2.0).size(); }},
      {"sqrt(a)", [&] { sink = sqrt(a).size(); }},
      {"sum(a) (reduction)", [&] { sink = sum(a).size(); }},
      {"a(slice(1, 5)) (view)", [&] { sink = a(slice(1, 5)).size(); }},
  };
  for (int i = 0; i < 1000; ++i) (void)(a + b);  // compile and warm up
  std::printf("%-28s %10s\n", "10-element call", "ns/call");
  for (const Case& c : cases) std::printf("%-28s %10.0f\n", c.name.c_str(), best_ns(c.fn, 20000));
  return 0;
}
