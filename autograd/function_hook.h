// Function hooks (Chainer's FunctionHook): callbacks around every function's
// forward and backward, e.g. to time them or print what flows through.
//
// A hook is active on the thread that entered its FunctionHookScope, for
// as long as the scope lives; hooks entered later run later. Forward hooks
// see the input arrays; backward hooks see the outputs' gradients (the
// inputs are gone by then unless the function retained them).
//
//   auto timer = std::make_shared<TimerHook>();
//   {
//     FunctionHookScope scope(timer);
//     loss = model(x); loss.backward();
//   }
//   timer->print_report(std::cout);
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

class FunctionNode;

class FunctionHook {
 public:
  virtual ~FunctionHook() = default;
  virtual std::string name() const { return "FunctionHook"; }
  virtual void forward_preprocess(const FunctionNode& /*function*/, const std::vector<Array>& /*inputs*/) {}
  virtual void forward_postprocess(const FunctionNode& /*function*/, const std::vector<Array>& /*inputs*/) {}
  virtual void backward_preprocess(const FunctionNode& /*function*/, const std::vector<Variable>& /*grad_outputs*/) {}
  virtual void backward_postprocess(const FunctionNode& /*function*/, const std::vector<Variable>& /*grad_outputs*/) {}
};

// The hooks active on this thread, in the order they were entered.
const std::vector<std::shared_ptr<FunctionHook>>& active_function_hooks();

// RAII: makes `hook` active on this thread while the scope lives.
class FunctionHookScope {
 public:
  explicit FunctionHookScope(std::shared_ptr<FunctionHook> hook);
  ~FunctionHookScope();
  FunctionHookScope(const FunctionHookScope&) = delete;
  FunctionHookScope& operator=(const FunctionHookScope&) = delete;

 private:
  FunctionHook* hook_;
};

// Wall time of each function's forward and backward (the device is
// synchronized around each, so device work is counted where it ran).
class TimerHook : public FunctionHook {
 public:
  struct Call {
    std::string label;
    double seconds;
  };
  struct Total {
    double seconds = 0;
    int64_t occurrence = 0;
  };

  std::string name() const override { return "TimerHook"; }
  void forward_preprocess(const FunctionNode& function, const std::vector<Array>& inputs) override;
  void forward_postprocess(const FunctionNode& function, const std::vector<Array>& inputs) override;
  void backward_preprocess(const FunctionNode& function, const std::vector<Variable>& grad_outputs) override;
  void backward_postprocess(const FunctionNode& function, const std::vector<Variable>& grad_outputs) override;

  // Every call in order (forward and backward both count).
  const std::vector<Call>& call_history() const { return history_; }
  double total_time() const;
  // Per label: total seconds and number of calls.
  std::map<std::string, Total> summary() const;
  // A table of the summary; unit "sec", "ms", "us" or "auto" (the unit of
  // the largest total).
  void print_report(std::ostream& out, const std::string& unit = "auto") const;

 private:
  void start(const Device* device);
  void stop(const std::string& label, const Device* device);

  std::vector<std::chrono::steady_clock::time_point> starts_;
  std::vector<Call> history_;
};

// Writes each call's function, inputs and output gradients as one record
// to a sink (a stream by default).
class PrintHook : public FunctionHook {
 public:
  explicit PrintHook(std::function<void(const std::string&)> sink, std::string sep = "", std::string end = "\n");
  explicit PrintHook(std::ostream& out);

  std::string name() const override { return "PrintHook"; }
  void forward_preprocess(const FunctionNode& function, const std::vector<Array>& inputs) override;
  void backward_preprocess(const FunctionNode& function, const std::vector<Variable>& grad_outputs) override;

 private:
  std::function<void(const std::string&)> sink_;
  std::string sep_, end_;
};

namespace detail {
// Called by the engine; cheap when no hook is active.
void run_forward_hooks(bool pre, const FunctionNode& function, const std::vector<Array>& inputs);
void run_backward_hooks(bool pre, const FunctionNode& function, const std::vector<Variable>& grad_outputs);
}  // namespace detail

}  // namespace autograd
}  // namespace kumo
