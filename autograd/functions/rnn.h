// Differentiable recurrent cells and Chainer's n-step RNNs, composed of
// linear, sigmoid, tanh and the shape functions (so double backprop works).
//
// Weight layout is Chainer's (that of cuDNN): for layer l and direction d
// (bidirectional: ws[2 * l + d], d = 0 forward, 1 backward)
//   LSTM ws[.][0..3] act on the input, [4..7] on h, gates i, f, a (cell input), o;
//   GRU  ws[.][0..2] on the input (r, z, candidate), [3..5] on h;
//   RNN  ws[.][0] on the input, [1] on h.
// bs has the same layout with vectors. xs is a list of (B_t, in) inputs
// whose batch sizes do not grow with t (sequences sorted by length).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "autograd/variable.h"

namespace kumo {
namespace autograd {

// Chainer's F.lstm: x is (B, 4H, ...) with the gates a, i, f, o interleaved
// along axis 1 (x.reshape(B, H, 4, ...)); returns (c, h) with
// c = tanh(a) * sigmoid(i) + sigmoid(f) * c_prev, h = sigmoid(o) * tanh(c).
// c_prev may have more rows than x: they pass to c unchanged.
std::pair<Variable, Variable> lstm(const Variable& c_prev, const Variable& x);
// Chainer's F.slstm (an LSTM joining two children): returns (c, h).
std::pair<Variable, Variable> slstm(const Variable& c_prev1, const Variable& c_prev2, const Variable& x1,
                                    const Variable& x2);
// One step of n_step_gru's cell (a stateless GRU): the new h from h (B, H)
// and x (B, in) with w[0..5], b[0..5] in n_step_gru's layout.
Variable gru(const Variable& h, const Variable& x, const std::vector<Variable>& w, const std::vector<Variable>& b);

struct NStepResult {
  Variable hy;               // (n_layers * directions, B, H)
  Variable cy;               // LSTM only (undefined otherwise)
  std::vector<Variable> ys;  // the last layer's outputs, one per time step
};

// Dropout of `dropout_ratio` is applied to the input of every layer after the
// first, a fresh mask per step and direction (kumo's random numbers, scaled
// by 1 / (1 - ratio)); there is no train/test configuration yet, so a
// positive ratio always applies. hx (and cx) may be undefined: zeros.
NStepResult n_step_lstm(int64_t n_layers, double dropout_ratio, const Variable& hx, const Variable& cx,
                        const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                        const std::vector<Variable>& xs);
NStepResult n_step_bilstm(int64_t n_layers, double dropout_ratio, const Variable& hx, const Variable& cx,
                          const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                          const std::vector<Variable>& xs);
NStepResult n_step_gru(int64_t n_layers, double dropout_ratio, const Variable& hx,
                       const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                       const std::vector<Variable>& xs);
NStepResult n_step_bigru(int64_t n_layers, double dropout_ratio, const Variable& hx,
                         const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                         const std::vector<Variable>& xs);
// activation: "tanh" or "relu".
NStepResult n_step_rnn(int64_t n_layers, double dropout_ratio, const Variable& hx,
                       const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                       const std::vector<Variable>& xs, const std::string& activation = "tanh");
NStepResult n_step_birnn(int64_t n_layers, double dropout_ratio, const Variable& hx,
                         const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                         const std::vector<Variable>& xs, const std::string& activation = "tanh");

}  // namespace autograd
}  // namespace kumo
