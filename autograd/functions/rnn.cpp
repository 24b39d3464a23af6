#include "autograd/functions/rnn.h"

#include <memory>
#include <random>
#include <string>

#include "autograd/functions/activation.h"
#include "autograd/functions/argument_checks.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "autograd/functions/combine.h"
#include "autograd/functions/indexing.h"
#include "autograd/functions/linalg.h"
#include "autograd/functions/math.h"
#include "core/errors.h"
#include "random/generator.h"
#include "routines/creation.h"
#include "routines/elementwise.h"

namespace kumo {
namespace autograd {
namespace {

IndexItem all() { return IndexItem::slice(std::nullopt, std::nullopt, 1); }

// Rows [begin, end) of x.
Variable rows(const Variable& x, int64_t begin, int64_t end) {
  return get_item(x, {Index(IndexItem::slice(begin, end, 1))});
}

// Chainer's gate extraction: x.reshape(B, H, 4, ...)[:, :, k].
std::vector<Variable> extract_gates(const Variable& x) {
  Shape s = x.shape();
  Shape r{s[0], s[1] / 4, 4};
  for (int i = 2; i < s.size(); ++i) r.push_back(s[i]);
  Variable g = reshape(x, r);
  std::vector<Variable> gates;
  for (int64_t k = 0; k < 4; ++k) gates.push_back(get_item(g, {Index(all()), Index(all()), Index(k)}));
  return gates;
}

void check_lstm_shapes(const Variable& c_prev, const Variable& x, const char* who) {
  require_floating(x, who, "x");
  require_floating(c_prev, who, "c_prev");
  if (x.ndim() < 2 || x.shape()[1] % 4 != 0)
    throw ValueError(std::string(who) + ": x must be at least 2-d with a multiple of 4 channels, got shape " +
                     x.shape().to_string());
  bool ok = c_prev.ndim() == x.ndim() && c_prev.shape()[0] >= x.shape()[0] && c_prev.shape()[1] == x.shape()[1] / 4;
  for (int i = 2; ok && i < x.ndim(); ++i) ok = c_prev.shape()[i] == x.shape()[i];
  if (!ok)
    throw ValueError(std::string(who) + ": c_prev's shape " + c_prev.shape().to_string() +
                     " does not match x's shape " + x.shape().to_string() + " (need (B' >= B, C / 4, ...))");
}

// c_prev's first `batch` rows, and the rest (undefined when there is none).
std::pair<Variable, Variable> split_rows(const Variable& v, int64_t batch) {
  if (v.shape()[0] == batch) return {v, Variable()};
  return {rows(v, 0, batch), rows(v, batch, v.shape()[0])};
}

Variable join_rows(const Variable& head, const Variable& rest) {
  return rest.defined() ? concat({head, rest}, 0) : head;
}

// x times a mask of kept elements scaled by 1 / (1 - ratio).
Variable dropout(const Variable& x, double ratio) {
  if (ratio <= 0.0) return x;
  // One engine per thread seeds a Philox generator on x's device per call.
  thread_local std::mt19937_64 seeds{std::random_device{}()};
  random::Generator rng(seeds(), RandomKind::kPhilox4x32_10, x.device());
  Array keep = kumo::greater_equal(rng.random(x.shape()), Scalar(ratio));
  Array mask = kumo::multiply(keep.astype(x.dtype()), Scalar(1.0 / (1.0 - ratio)));
  return x * Variable(mask, false);
}

enum class Cell { kLstm, kGru, kRnn };

int weights_per_cell(Cell cell) { return cell == Cell::kLstm ? 8 : cell == Cell::kGru ? 6 : 2; }

// One layer and direction's weights, stacked so that a step takes two
// matrix products.
struct CellWeights {
  Variable wx, bx, wh, bh;  // stacked input and hidden parts
  Variable w_last, b_last;  // GRU: the candidate's hidden part, applied after the reset gate
};

CellWeights stack_weights(Cell cell, const std::vector<Variable>& w, const std::vector<Variable>& b) {
  CellWeights cw;
  if (cell == Cell::kLstm) {
    cw.wx = concat({w[0], w[1], w[2], w[3]}, 0);
    cw.wh = concat({w[4], w[5], w[6], w[7]}, 0);
    cw.bx = concat({b[0], b[1], b[2], b[3]}, 0);
    cw.bh = concat({b[4], b[5], b[6], b[7]}, 0);
  } else if (cell == Cell::kGru) {
    cw.wx = concat({w[0], w[1], w[2]}, 0);
    cw.bx = concat({b[0], b[1], b[2]}, 0);
    cw.wh = concat({w[3], w[4]}, 0);
    cw.bh = concat({b[3], b[4]}, 0);
    cw.w_last = w[5];
    cw.b_last = b[5];
  } else {
    cw.wx = w[0];
    cw.bx = b[0];
    cw.wh = w[1];
    cw.bh = b[1];
  }
  return cw;
}

// xw: the input's projection x W_x^T + b_x (computed for all steps at once
// by n_step).
Variable gru_step(const CellWeights& cw, const Variable& h, const Variable& xw) {
  std::vector<Variable> gx = split_axis(xw, 3, 1);
  std::vector<Variable> gh = split_axis(linear(h, cw.wh, cw.bh), 2, 1);
  Variable r = sigmoid(gx[0] + gh[0]);
  Variable z = sigmoid(gx[1] + gh[1]);
  Variable candidate = tanh(gx[2] + r * linear(h, cw.w_last, cw.b_last));
  return (1.0 - z) * candidate + z * h;
}

// h (and c for the LSTM) after one step on the input projection xw.
void step(Cell cell, bool relu_activation, const CellWeights& cw, const Variable& xw, Variable& h, Variable& c) {
  if (cell == Cell::kLstm) {
    std::vector<Variable> g = split_axis(xw + linear(h, cw.wh, cw.bh), 4, 1);
    c = sigmoid(g[1]) * c + sigmoid(g[0]) * tanh(g[2]);
    h = sigmoid(g[3]) * tanh(c);
  } else if (cell == Cell::kGru) {
    h = gru_step(cw, h, xw);
  } else {
    Variable pre = xw + linear(h, cw.wh, cw.bh);
    h = relu_activation ? relu(pre) : tanh(pre);
  }
}

void check_weight_lists(Cell cell, size_t count, const std::vector<std::vector<Variable>>& ws,
                        const std::vector<std::vector<Variable>>& bs, const std::string& who) {
  if (ws.size() != count || bs.size() != count)
    throw ValueError(who + ": ws and bs need " + std::to_string(count) + " entries (n_layers * directions), got " +
                     std::to_string(ws.size()) + " and " + std::to_string(bs.size()));
  const size_t per = static_cast<size_t>(weights_per_cell(cell));
  for (size_t i = 0; i < count; ++i) {
    if (ws[i].size() != per || bs[i].size() != per)
      throw ValueError(who + ": each ws[i] and bs[i] needs " + std::to_string(per) + " arrays");
    for (size_t k = 0; k < per; ++k) {
      if (!ws[i][k].defined() || !bs[i][k].defined()) throw ValueError(who + ": weights and biases must not be None");
      require_floating(ws[i][k], who, "ws");
      require_floating(bs[i][k], who, "bs");
      if (ws[i][k].ndim() != 2 || bs[i][k].ndim() != 1)
        throw ValueError(who + ": ws must hold matrices and bs vectors");
    }
  }
}

NStepResult n_step_checked(Cell cell, int64_t n_layers, double ratio, const Variable& hx, const Variable& cx,
                           const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                           const std::vector<Variable>& xs, int64_t dirs, const std::string& activation,
                           const std::string& who);

NStepResult n_step(Cell cell, int64_t n_layers, double ratio, const Variable& hx, const Variable& cx,
                   const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                   const std::vector<Variable>& xs, bool bidirectional, const std::string& activation,
                   const std::string& who) {
  if (n_layers < 1) throw ValueError(who + ": n_layers must be positive, got " + std::to_string(n_layers));
  if (!(ratio >= 0.0 && ratio < 1.0)) throw ValueError(who + ": dropout_ratio must be in [0, 1)");
  if (activation != "tanh" && activation != "relu")
    throw ValueError(who + ": activation must be 'tanh' or 'relu', got '" + activation + "'");
  if (xs.empty()) throw ValueError(who + ": xs must hold at least one time step");
  const int64_t dirs = bidirectional ? 2 : 1;
  for (size_t t = 0; t < xs.size(); ++t) {
    require_floating(xs[t], who, "xs");
    if (xs[t].ndim() != 2) throw ValueError(who + ": each xs[t] must be 2-d (B_t, in)");
    if (t > 0 && xs[t].shape()[0] > xs[t - 1].shape()[0])
      throw ValueError(who + ": batch sizes of xs must not increase (sort the sequences by length)");
  }
  check_weight_lists(cell, static_cast<size_t>(n_layers * dirs), ws, bs, who);
  // hx / cx None: zero initial states, as Chainer.
  const Shape state{n_layers * dirs, xs[0].shape()[0], ws[0][0].shape()[0]};
  const Variable h0 = hx.defined() ? hx : Variable(zeros(state, xs[0].dtype(), Order::kC, xs[0].device()), false);
  const Variable c0 = cx.defined() || cell != Cell::kLstm
                          ? cx
                          : Variable(zeros(state, xs[0].dtype(), Order::kC, xs[0].device()), false);
  return n_step_checked(cell, n_layers, ratio, h0, c0, ws, bs, xs, dirs, activation, who);
}

NStepResult n_step_checked(Cell cell, int64_t n_layers, double ratio, const Variable& hx, const Variable& cx,
                           const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                           const std::vector<Variable>& xs, int64_t dirs, const std::string& activation,
                           const std::string& who) {
  require_floating(hx, who, "hx");
  if (hx.ndim() != 3 || hx.shape()[0] != n_layers * dirs || hx.shape()[1] != xs[0].shape()[0])
    throw ValueError(who + ": hx must have shape (n_layers * directions, B, H) = (" + std::to_string(n_layers * dirs) +
                     ", " + std::to_string(xs[0].shape()[0]) + ", H), got " + hx.shape().to_string());
  if (cell == Cell::kLstm) {
    require_floating(cx, who, "cx");
    if (cx.shape() != hx.shape())
      throw ValueError(who + ": cx's shape " + cx.shape().to_string() + " differs from hx's " + hx.shape().to_string());
  }
  const bool relu_activation = activation == "relu";

  std::vector<Variable> layer_in = xs, hy, cy;
  for (int64_t layer = 0; layer < n_layers; ++layer) {
    std::vector<std::vector<Variable>> outs(static_cast<size_t>(dirs));
    for (int64_t d = 0; d < dirs; ++d) {
      const size_t idx = static_cast<size_t>(layer * dirs + d);
      CellWeights cw = stack_weights(cell, ws[idx], bs[idx]);
      Variable h = get_item(hx, {Index(static_cast<int64_t>(idx))});
      Variable c = cell == Cell::kLstm ? get_item(cx, {Index(static_cast<int64_t>(idx))}) : Variable();
      std::vector<Variable>& out = outs[static_cast<size_t>(d)];
      out.resize(layer_in.size());
      // The input projections of all steps in one product: the steps' rows
      // stacked, projected, and cut apart again. Layers after the first see
      // their input through dropout (a fresh mask per direction, as Chainer
      // draws one per step and direction).
      std::vector<int64_t> cuts;
      int64_t rows_so_far = 0;
      for (size_t t = 0; t + 1 < layer_in.size(); ++t) cuts.push_back(rows_so_far += layer_in[t].shape()[0]);
      Variable all_in = layer_in.size() == 1 ? layer_in[0] : concat(layer_in, 0);
      if (layer > 0) all_in = dropout(all_in, ratio);
      std::vector<Variable> xw = split_axis(linear(all_in, cw.wx, cw.bx), cuts, 0);
      for (size_t s = 0; s < layer_in.size(); ++s) {
        const size_t t = d == 0 ? s : layer_in.size() - 1 - s;
        const int64_t batch = layer_in[t].shape()[0];
        // Sequences that ended keep their state in the rows past `batch`.
        auto [h_cur, h_rest] = split_rows(h, batch);
        Variable c_cur, c_rest;
        if (cell == Cell::kLstm) std::tie(c_cur, c_rest) = split_rows(c, batch);
        step(cell, relu_activation, cw, xw[t], h_cur, c_cur);
        out[t] = h_cur;
        h = join_rows(h_cur, h_rest);
        if (cell == Cell::kLstm) c = join_rows(c_cur, c_rest);
      }
      hy.push_back(h);
      if (cell == Cell::kLstm) cy.push_back(c);
    }
    if (dirs == 1) {
      layer_in = outs[0];
    } else {
      for (size_t t = 0; t < layer_in.size(); ++t) layer_in[t] = concat({outs[0][t], outs[1][t]}, 1);
    }
  }
  NStepResult result;
  result.hy = stack(hy, 0);
  if (cell == Cell::kLstm) result.cy = stack(cy, 0);
  result.ys = layer_in;
  return result;
}

}  // namespace

std::pair<Variable, Variable> lstm(const Variable& c_prev, const Variable& x) {
  check_lstm_shapes(c_prev, x, "lstm");
  std::vector<Variable> g = extract_gates(x);
  auto [c_cur, c_rest] = split_rows(c_prev, x.shape()[0]);
  Variable c = tanh(g[0]) * sigmoid(g[1]) + sigmoid(g[2]) * c_cur;
  Variable h = sigmoid(g[3]) * tanh(c);
  return {join_rows(c, c_rest), h};
}

std::pair<Variable, Variable> slstm(const Variable& c_prev1, const Variable& c_prev2, const Variable& x1,
                                    const Variable& x2) {
  check_lstm_shapes(c_prev1, x1, "slstm");
  check_lstm_shapes(c_prev2, x2, "slstm");
  if (x1.shape() != x2.shape() || c_prev1.shape() != c_prev2.shape() || c_prev1.shape()[0] != x1.shape()[0])
    throw ValueError("slstm: x1 and x2 must have the same shape, and c_prev1, c_prev2 their batch size");
  std::vector<Variable> g1 = extract_gates(x1), g2 = extract_gates(x2);
  Variable a = tanh(g1[0] + g2[0]);
  Variable i = sigmoid(g1[1] + g2[1]);
  Variable c = a * i + sigmoid(g1[2]) * c_prev1 + sigmoid(g2[2]) * c_prev2;
  Variable h = sigmoid(g1[3] + g2[3]) * tanh(c);
  return {c, h};
}

Variable gru(const Variable& h, const Variable& x, const std::vector<Variable>& w, const std::vector<Variable>& b) {
  check_weight_lists(Cell::kGru, 1, {w}, {b}, "gru");
  require_floating(h, "gru", "h");
  require_floating(x, "gru", "x");
  if (h.ndim() != 2 || x.ndim() != 2 || h.shape()[0] != x.shape()[0])
    throw ValueError("gru: h and x must be 2-d with the same batch size, got " + h.shape().to_string() + " and " +
                     x.shape().to_string());
  CellWeights cw = stack_weights(Cell::kGru, w, b);
  return gru_step(cw, h, linear(x, cw.wx, cw.bx));
}

NStepResult n_step_lstm(int64_t n_layers, double dropout_ratio, const Variable& hx, const Variable& cx,
                        const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                        const std::vector<Variable>& xs) {
  return n_step(Cell::kLstm, n_layers, dropout_ratio, hx, cx, ws, bs, xs, false, "tanh", "n_step_lstm");
}

NStepResult n_step_bilstm(int64_t n_layers, double dropout_ratio, const Variable& hx, const Variable& cx,
                          const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                          const std::vector<Variable>& xs) {
  return n_step(Cell::kLstm, n_layers, dropout_ratio, hx, cx, ws, bs, xs, true, "tanh", "n_step_bilstm");
}

NStepResult n_step_gru(int64_t n_layers, double dropout_ratio, const Variable& hx,
                       const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                       const std::vector<Variable>& xs) {
  return n_step(Cell::kGru, n_layers, dropout_ratio, hx, Variable(), ws, bs, xs, false, "tanh", "n_step_gru");
}

NStepResult n_step_bigru(int64_t n_layers, double dropout_ratio, const Variable& hx,
                         const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                         const std::vector<Variable>& xs) {
  return n_step(Cell::kGru, n_layers, dropout_ratio, hx, Variable(), ws, bs, xs, true, "tanh", "n_step_bigru");
}

NStepResult n_step_rnn(int64_t n_layers, double dropout_ratio, const Variable& hx,
                       const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                       const std::vector<Variable>& xs, const std::string& activation) {
  return n_step(Cell::kRnn, n_layers, dropout_ratio, hx, Variable(), ws, bs, xs, false, activation, "n_step_rnn");
}

NStepResult n_step_birnn(int64_t n_layers, double dropout_ratio, const Variable& hx,
                         const std::vector<std::vector<Variable>>& ws, const std::vector<std::vector<Variable>>& bs,
                         const std::vector<Variable>& xs, const std::string& activation) {
  return n_step(Cell::kRnn, n_layers, dropout_ratio, hx, Variable(), ws, bs, xs, true, activation, "n_step_birnn");
}

}  // namespace autograd
}  // namespace kumo
