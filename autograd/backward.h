// Backpropagation over the graph: Variable::backward and grad().
//
// Function nodes run from the highest rank (generation) down, so every
// gradient of a variable has been accumulated before its creator runs.
//
// The graph stays after a pass, as Chainer's: a second backward from the
// same output accumulates the gradients again, and two losses that share
// part of a graph (a GAN's discriminator and generator losses) can each be
// backpropagated. It is freed when the last Variable that reaches it goes.
// With release_graph (kumo's option, not Chainer's) each node is released
// (unchained) as soon as it has been processed, so its retained arrays are
// freed during the pass instead of with the graph; the graph cannot be
// backpropagated again then. Double backprop never releases.
#pragma once
#include <optional>
#include <vector>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// Backpropagates from `outputs` with the gradients `grad_outputs` (default:
// each output's grad, or ones for a one-element output without one) and
// accumulates the gradients into the leaf variables' grad. With loss_scale
// the ones an output starts from are loss_scale (a given gradient is used
// as it is) and the leaves reached record it (Variable::loss_scale).
void backward(const std::vector<Variable>& outputs, const std::vector<Variable>& grad_outputs = {},
              bool retain_grad = false, bool enable_double_backprop = false, bool release_graph = false,
              std::optional<double> loss_scale = std::nullopt);

// The gradients of `outputs` with respect to `inputs` (one per input; an
// undefined Variable where no gradient reaches it), without touching any
// variable's grad unless retain_grad. grad_outputs defaults to ones for
// one-element outputs. With enable_double_backprop the results are part of
// a graph and can be differentiated again.
std::vector<Variable> grad(const std::vector<Variable>& outputs, const std::vector<Variable>& inputs,
                           const std::vector<Variable>& grad_outputs = {}, bool retain_grad = false,
                           bool enable_double_backprop = false);

}  // namespace autograd
}  // namespace kumo
