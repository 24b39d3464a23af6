#include "autograd/mode.h"

namespace kumo {
namespace autograd {
namespace {

thread_local bool g_backprop_enabled = true;

}  // namespace

bool is_backprop_enabled() { return g_backprop_enabled; }

BackpropModeScope::BackpropModeScope(bool enabled) : previous_(g_backprop_enabled) { g_backprop_enabled = enabled; }

BackpropModeScope::~BackpropModeScope() { g_backprop_enabled = previous_; }

}  // namespace autograd
}  // namespace kumo
