// The paper's memory claims (section 4.1), measured with the memory pool:
// during forward a chain of 200 functions holds only what the retention
// rules promise (tanh keeps its output, mul by a constant keeps nothing);
// backward keeps the graph (Chainer's rule: it can be backpropagated
// again) or, with release_graph, frees each function's arrays as it
// passes; nothing is left once the user drops the outputs. The figures are
// printed for the report.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>

#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;

namespace {

constexpr int kLayers = 200;
constexpr int64_t kElements = 1 << 15;  // 256 KiB per float64 array
constexpr size_t kArrayBytes = kElements * sizeof(double);

struct Figures {
  size_t after_forward, forward_peak, backward_peak, after_backward, after_release;
};

// Builds the chain from x, backpropagates from sum(h) and records the pool's
// used bytes (relative to before x existed) at each stage.
Figures run_chain(const std::function<ag::Variable(const ag::Variable&)>& layer, bool release_graph) {
  MemoryPool& pool = host_device().memory_pool();
  const size_t before = pool.used_bytes();
  Figures f{};
  {
    ag::Variable x(full(Shape{kElements}, 0.5));
    pool.reset_peak_used_bytes();
    ag::Variable h = x;
    for (int i = 0; i < kLayers; ++i) h = layer(h);
    ag::Variable loss = ag::sum(h);
    h = ag::Variable();  // the user keeps only the loss (and x)
    f.after_forward = pool.used_bytes() - before;
    f.forward_peak = pool.peak_used_bytes() - before;
    pool.reset_peak_used_bytes();
    loss.backward(false, false, release_graph);
    f.backward_peak = pool.peak_used_bytes() - before;
    f.after_backward = pool.used_bytes() - before;  // x and its grad, the loss
  }
  f.after_release = pool.used_bytes() - before;
  return f;
}

void report(const char* name, bool release_graph, const Figures& f, int keep_everything_arrays) {
  const double a = static_cast<double>(kArrayBytes);
  std::printf(
      "[memory] %s x%d%s, %lld-element float64 arrays: after forward %.1f arrays, forward peak %.1f, backward "
      "peak %.1f, after backward %.1f, after release %.1f; a keep-everything graph holds %d\n",
      name, kLayers, release_graph ? " (release_graph)" : "", static_cast<long long>(kElements), f.after_forward / a, f.forward_peak / a, f.backward_peak / a,
      f.after_backward / a, f.after_release / a, keep_everything_arrays);
}

TEST(AutogradMemory, TanhChainHoldsOneArrayPerLayer) {
  const Figures f = run_chain([](const ag::Variable& h) { return ag::tanh(h); }, /*release_graph=*/true);
  report("tanh", true, f, kLayers + 1);
  // x plus the 200 retained outputs (the last one is also h), a few KiB for
  // the loss.
  EXPECT_GE(f.after_forward, (kLayers + 1) * kArrayBytes);
  EXPECT_LE(f.after_forward, (kLayers + 2) * kArrayBytes);
  EXPECT_LE(f.forward_peak, (kLayers + 2) * kArrayBytes);
  // Backward releases each tanh's output as it passes, so its peak stays at
  // the forward's plus a few gradients in flight.
  EXPECT_LE(f.backward_peak, (kLayers + 6) * kArrayBytes);
  EXPECT_LE(f.after_backward, 3 * kArrayBytes);  // x, x.grad
  EXPECT_EQ(f.after_release, 0u);
}

TEST(AutogradMemory, KeptGraphHoldsItsArraysUntilTheLossGoes) {
  const Figures f = run_chain([](const ag::Variable& h) { return ag::tanh(h); }, /*release_graph=*/false);
  report("tanh", false, f, kLayers + 1);
  // The graph (200 retained outputs) stays for another backward, beside x
  // and x.grad; the gradients in flight are freed as the pass goes.
  EXPECT_LE(f.backward_peak, (kLayers + 6) * kArrayBytes);
  EXPECT_GE(f.after_backward, (kLayers + 2) * kArrayBytes);
  EXPECT_LE(f.after_backward, (kLayers + 3) * kArrayBytes);
  EXPECT_EQ(f.after_release, 0u);  // dropping the loss frees the graph
}

TEST(AutogradMemory, MulByConstantChainHoldsNothingPerLayer) {
  for (bool release : {true, false}) {
    const Figures f = run_chain([](const ag::Variable& h) { return h * 1.0001; }, release);
    report("mul", release, f, kLayers + 1);
    // Only x survives the forward: each intermediate dies when the next layer
    // replaces h, since mul by a constant retains nothing.
    EXPECT_LE(f.after_forward, 2 * kArrayBytes);
    EXPECT_LE(f.forward_peak, 3 * kArrayBytes);
    EXPECT_LE(f.backward_peak, 6 * kArrayBytes);
    EXPECT_LE(f.after_backward, 3 * kArrayBytes);
    EXPECT_EQ(f.after_release, 0u);
  }
}

}  // namespace
