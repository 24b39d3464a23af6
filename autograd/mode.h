// Whether operations on Variables record the graph: on by default, off
// inside no_backprop_mode. Thread-local, so each thread builds (or does not
// build) its own graphs.
#pragma once

namespace kumo {
namespace autograd {

// True when functions applied now connect their outputs to the graph.
bool is_backprop_enabled();

// RAII: functions applied while it lives record no graph (Chainer's
// no_backprop_mode), or record it even inside a no_backprop_mode
// (force_backprop_mode). Nested scopes restore what they found.
class BackpropModeScope {
 public:
  explicit BackpropModeScope(bool enabled);
  ~BackpropModeScope();
  BackpropModeScope(const BackpropModeScope&) = delete;
  BackpropModeScope& operator=(const BackpropModeScope&) = delete;

 private:
  bool previous_;
};

class NoBackpropMode : public BackpropModeScope {
 public:
  NoBackpropMode() : BackpropModeScope(false) {}
};

class ForceBackpropMode : public BackpropModeScope {
 public:
  ForceBackpropMode() : BackpropModeScope(true) {}
};

}  // namespace autograd
}  // namespace kumo
