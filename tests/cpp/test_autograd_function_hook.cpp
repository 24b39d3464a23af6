// autograd/function_hook: hooks see every forward and backward on their
// thread while their scope lives, and the timer and printer report them.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;

namespace {

struct Recorder : ag::FunctionHook {
  std::vector<std::string> events;
  void forward_preprocess(const ag::FunctionNode& f, const std::vector<Array>& in) override {
    events.push_back("f<" + f.label() + ":" + std::to_string(in.size()));
  }
  void forward_postprocess(const ag::FunctionNode& f, const std::vector<Array>&) override {
    events.push_back("f>" + f.label());
  }
  void backward_preprocess(const ag::FunctionNode& f, const std::vector<ag::Variable>&) override {
    events.push_back("b<" + f.label());
  }
  void backward_postprocess(const ag::FunctionNode& f, const std::vector<ag::Variable>&) override {
    events.push_back("b>" + f.label());
  }
};

Array vec(std::vector<double> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return asarray(v, {n});
}

TEST(FunctionHook, SeesForwardAndBackwardInOrder) {
  auto rec = std::make_shared<Recorder>();
  ag::Variable x(vec({0.5, -1.0}));
  {
    ag::FunctionHookScope scope(rec);
    ag::Variable y = ag::tanh(x);
    std::vector<std::string> forward = rec->events;
    EXPECT_EQ(forward, (std::vector<std::string>{"f<Tanh:1", "f>Tanh"}));
    rec->events.clear();
    ag::sum(y).backward();
  }
  // Backward runs Sum's then Tanh's backward; each applies functions of its
  // own (forward hooks fire for those too).
  ASSERT_FALSE(rec->events.empty());
  EXPECT_EQ(rec->events.front(), "f<Sum:1");
  auto pos = [&](const std::string& e) {
    for (size_t i = 0; i < rec->events.size(); ++i)
      if (rec->events[i] == e) return static_cast<int>(i);
    return -1;
  };
  EXPECT_LT(pos("b<Sum"), pos("b>Sum"));
  EXPECT_LT(pos("b>Sum"), pos("b<Tanh"));
  EXPECT_LT(pos("b<Tanh"), pos("b>Tanh"));
  EXPECT_GE(pos("b>Tanh"), 0);
}

TEST(FunctionHook, InactiveOutsideItsScopeAndOnOtherThreads) {
  auto rec = std::make_shared<Recorder>();
  ag::Variable x(vec({1.0}));
  {
    ag::FunctionHookScope scope(rec);
    std::thread other([&] { ag::exp(ag::Variable(vec({2.0}))); });
    other.join();
  }
  ag::exp(x);
  EXPECT_TRUE(rec->events.empty());
  EXPECT_TRUE(ag::active_function_hooks().empty());
}

TEST(FunctionHook, TimerCountsCalls) {
  auto timer = std::make_shared<ag::TimerHook>();
  ag::Variable x(vec({0.1, 0.2, 0.3}));
  {
    ag::FunctionHookScope scope(timer);
    for (int i = 0; i < 3; ++i) ag::exp(x);
  }
  auto summary = timer->summary();
  ASSERT_EQ(summary.count("Exp"), 1u);
  EXPECT_EQ(summary["Exp"].occurrence, 3);
  EXPECT_EQ(timer->call_history().size(), 3u);
  EXPECT_GE(timer->total_time(), 0.0);
  std::ostringstream report;
  timer->print_report(report, "us");
  EXPECT_NE(report.str().find("Exp"), std::string::npos);
  EXPECT_NE(report.str().find("ElapsedTime(us)"), std::string::npos);
  EXPECT_THROW(timer->print_report(report, "minutes"), ValueError);
}

TEST(FunctionHook, PrintHookDescribesInputsAndGradients) {
  std::ostringstream out;
  auto printer = std::make_shared<ag::PrintHook>(out);
  ag::Variable x(vec({1.0, 3.0}));
  {
    ag::FunctionHookScope scope(printer);
    ag::sum(x * 2.0).backward();
  }
  const std::string text = out.str();
  EXPECT_NE(text.find("function\tMul"), std::string::npos);
  EXPECT_NE(text.find("shape=(2,), dtype=float64"), std::string::npos);
  EXPECT_NE(text.find("mean=2"), std::string::npos);
  EXPECT_NE(text.find("(backward)"), std::string::npos);
}

}  // namespace
