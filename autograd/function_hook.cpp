#include "autograd/function_hook.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "autograd/function_node.h"
#include "core/device.h"
#include "core/errors.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {
namespace {

std::vector<std::shared_ptr<FunctionHook>>& hooks() {
  thread_local std::vector<std::shared_ptr<FunctionHook>> active;
  return active;
}

const Device* device_of(const std::vector<Array>& arrays) {
  for (const Array& a : arrays)
    if (a.defined()) return &a.device();
  return nullptr;
}

const Device* device_of(const std::vector<Variable>& vars) {
  for (const Variable& v : vars)
    if (v.defined()) return &v.device();
  return nullptr;
}

// One line describing an array: shape, dtype, device and, for floating
// data, its mean and standard deviation.
std::string describe(const Array& a) {
  std::ostringstream s;
  s << "shape=" << a.shape().to_string() << ", dtype=" << dtype_name(a.dtype()) << ", device=" << a.device().name();
  if (a.size() > 0 && is_inexact(a.dtype()) && !is_complex(a.dtype())) {
    Array f = a.astype(Dtype::kFloat64);
    s << std::setprecision(6) << ", mean=" << kumo::mean(f).item<double>() << ", std=" << kumo::std(f).item<double>();
  }
  return s.str();
}

}  // namespace

const std::vector<std::shared_ptr<FunctionHook>>& active_function_hooks() { return hooks(); }

FunctionHookScope::FunctionHookScope(std::shared_ptr<FunctionHook> hook) : hook_(hook.get()) {
  if (!hook) throw ValueError("FunctionHookScope: null hook");
  hooks().push_back(std::move(hook));
}

FunctionHookScope::~FunctionHookScope() {
  // Scopes normally end in reverse order; remove this one wherever it is.
  auto& active = hooks();
  for (auto it = active.rbegin(); it != active.rend(); ++it) {
    if (it->get() == hook_) {
      active.erase(std::next(it).base());
      break;
    }
  }
}

namespace detail {

void run_forward_hooks(bool pre, const FunctionNode& function, const std::vector<Array>& inputs) {
  // A copy: a hook may enter or leave scopes while it runs.
  const std::vector<std::shared_ptr<FunctionHook>> active = hooks();
  for (const auto& h : active) {
    if (pre) {
      h->forward_preprocess(function, inputs);
    } else {
      h->forward_postprocess(function, inputs);
    }
  }
}

void run_backward_hooks(bool pre, const FunctionNode& function, const std::vector<Variable>& grad_outputs) {
  const std::vector<std::shared_ptr<FunctionHook>> active = hooks();
  for (const auto& h : active) {
    if (pre) {
      h->backward_preprocess(function, grad_outputs);
    } else {
      h->backward_postprocess(function, grad_outputs);
    }
  }
}

}  // namespace detail

void TimerHook::start(const Device* device) {
  if (device) const_cast<Device*>(device)->synchronize();
  starts_.push_back(std::chrono::steady_clock::now());
}

void TimerHook::stop(const std::string& label, const Device* device) {
  if (device) const_cast<Device*>(device)->synchronize();
  if (starts_.empty()) return;  // entered mid-call
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - starts_.back()).count();
  starts_.pop_back();
  history_.push_back({label, seconds});
}

void TimerHook::forward_preprocess(const FunctionNode&, const std::vector<Array>& inputs) { start(device_of(inputs)); }
void TimerHook::forward_postprocess(const FunctionNode& function, const std::vector<Array>& inputs) {
  stop(function.label(), device_of(inputs));
}
void TimerHook::backward_preprocess(const FunctionNode&, const std::vector<Variable>& grad_outputs) {
  start(device_of(grad_outputs));
}
void TimerHook::backward_postprocess(const FunctionNode& function, const std::vector<Variable>& grad_outputs) {
  stop(function.label(), device_of(grad_outputs));
}

double TimerHook::total_time() const {
  double total = 0;
  for (const Call& c : history_) total += c.seconds;
  return total;
}

std::map<std::string, TimerHook::Total> TimerHook::summary() const {
  std::map<std::string, Total> out;
  for (const Call& c : history_) {
    Total& t = out[c.label];
    t.seconds += c.seconds;
    ++t.occurrence;
  }
  return out;
}

void TimerHook::print_report(std::ostream& out, const std::string& unit) const {
  const std::map<std::string, Total> totals = summary();
  double largest = 0;
  for (const auto& kv : totals) largest = std::max(largest, kv.second.seconds);
  std::string u = unit;
  if (u == "auto") u = largest >= 1 ? "sec" : largest >= 1e-3 ? "ms" : "us";
  double factor;
  if (u == "sec") {
    factor = 1;
  } else if (u == "ms") {
    factor = 1e3;
  } else if (u == "us") {
    factor = 1e6;
  } else {
    throw ValueError("TimerHook.print_report: unit must be 'sec', 'ms', 'us' or 'auto', got '" + unit + "'");
  }
  out << std::left << std::setw(24) << "FunctionName" << std::right << std::setw(14) << ("ElapsedTime(" + u + ")")
      << std::setw(12) << "Occurrence" << '\n';
  for (const auto& kv : totals) {
    out << std::left << std::setw(24) << kv.first << std::right << std::setw(14) << std::fixed << std::setprecision(3)
        << kv.second.seconds * factor << std::setw(12) << kv.second.occurrence << '\n';
  }
  out.unsetf(std::ios::fixed);
}

PrintHook::PrintHook(std::function<void(const std::string&)> sink, std::string sep, std::string end)
    : sink_(std::move(sink)), sep_(std::move(sep)), end_(std::move(end)) {
  if (!sink_) throw ValueError("PrintHook: null sink");
}

PrintHook::PrintHook(std::ostream& out) : PrintHook([&out](const std::string& s) { out << s; }) {}

void PrintHook::forward_preprocess(const FunctionNode& function, const std::vector<Array>& inputs) {
  std::ostringstream s;
  s << "function\t" << function.label() << (sep_.empty() ? "\n" : sep_) << "input data";
  for (size_t i = 0; i < inputs.size(); ++i)
    s << (sep_.empty() ? "\n" : sep_) << "  (" << i << "): " << describe(inputs[i]);
  sink_(s.str() + end_);
}

void PrintHook::backward_preprocess(const FunctionNode& function, const std::vector<Variable>& grad_outputs) {
  std::ostringstream s;
  s << "function\t" << function.label() << " (backward)" << (sep_.empty() ? "\n" : sep_) << "output gradient";
  for (size_t i = 0; i < grad_outputs.size(); ++i) {
    s << (sep_.empty() ? "\n" : sep_) << "  (" << i << "): ";
    s << (grad_outputs[i].defined() ? describe(grad_outputs[i].array()) : std::string("None"));
  }
  sink_(s.str() + end_);
}

}  // namespace autograd
}  // namespace kumo
