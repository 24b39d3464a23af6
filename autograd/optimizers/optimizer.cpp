// Optimizers over the multi-tensor engine: see optimizer.h.
#include "autograd/optimizers/optimizer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "core/errors.h"
#include "routines/assignment.h"
#include "routines/creation.h"

namespace kumo {
namespace autograd {
namespace optimizers {

Hyperparameters Hyperparameters::defaults(Rule rule) {
  Hyperparameters hp;
  switch (rule) {
    case Rule::kAdaGrad:
      hp.lr = 0.001;
      break;
    case Rule::kAdaDelta:
      hp.eps = 1e-6;
      break;
    case Rule::kRMSprop:
      hp.alpha = 0.99;
      break;
    case Rule::kRMSpropGraves:
      hp.lr = 1e-4;
      hp.alpha = 0.95;
      hp.eps = 1e-4;
      break;
    case Rule::kSMORMS3:
      hp.lr = 0.001;
      hp.eps = 1e-16;
      break;
    case Rule::kMSVAG:
      hp.lr = 0.1;
      break;
    default:
      break;
  }
  return hp;
}

std::vector<std::string> rule_state_names(Rule rule, const Hyperparameters& hp) {
  switch (rule) {
    case Rule::kMomentumSGD:
    case Rule::kNesterovAG:
    case Rule::kCorrectedMomentumSGD:
      return {"v"};
    case Rule::kAdam:
      if (hp.amsgrad) return {"m", "v", "vhat"};
      return {"m", "v"};
    case Rule::kAdaGrad:
      return {"h"};
    case Rule::kAdaDelta:
      return {"msg", "msdx"};
    case Rule::kRMSprop:
      return {"ms"};
    case Rule::kRMSpropGraves:
      return {"n", "g", "delta"};
    case Rule::kSMORMS3:
      return {"mem", "g", "g2"};
    case Rule::kMSVAG:
      return {"m", "v"};
    default:
      return {};
  }
}

int rule_num_states(Rule rule, const Hyperparameters& hp) {
  return static_cast<int>(rule_state_names(rule, hp).size());
}

double adam_alpha_t(const Hyperparameters& hp, int64_t t) {
  if (t == 0) {
    throw RuntimeError(
        "Can't determine the learning rate of Adam optimizer because the update steps have not been started.");
  }
  const double fix1 = 1.0 - std::pow(hp.beta1, static_cast<double>(t));
  const double fix2 = 1.0 - std::pow(hp.beta2, static_cast<double>(t));
  return hp.alpha * std::sqrt(fix2) / fix1;
}

std::vector<double> rule_scalars(Rule rule, const Hyperparameters& hp, int64_t t, double initial_alpha) {
  switch (rule) {
    case Rule::kSGD:
      return {hp.lr};
    case Rule::kMomentumSGD:
    case Rule::kNesterovAG:
    case Rule::kCorrectedMomentumSGD:
      return {hp.lr, hp.momentum};
    case Rule::kAdam: {
      double lower = 0, upper = 0;
      if (hp.adabound) {
        if (t == 0) {
          throw RuntimeError(
              "Can't determine the bounds of AdaBound optimizer because the update steps have not been started.");
        }
        const double final_lr = hp.final_lr * hp.alpha / initial_alpha;
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * static_cast<double>(t) + 1));
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * static_cast<double>(t)));
      }
      return {adam_alpha_t(hp, t),  1.0 - hp.beta1,         1.0 - hp.beta2,          hp.eps, hp.eta,
              hp.weight_decay_rate, hp.amsgrad ? 1.0 : 0.0, hp.adabound ? 1.0 : 0.0, lower,  upper};
    }
    case Rule::kAdaGrad:
      return {hp.lr, hp.eps};
    case Rule::kAdaDelta:
      return {hp.rho, hp.eps};
    case Rule::kRMSprop:
      return {hp.lr, hp.alpha, hp.eps, hp.eps_inside_sqrt ? 1.0 : 0.0};
    case Rule::kRMSpropGraves:
      return {hp.lr, hp.alpha, hp.momentum, hp.eps};
    case Rule::kSMORMS3:
      return {hp.lr, hp.eps};
    case Rule::kMSVAG: {
      // beta_power is beta^t after t steps' worth of updates, as Chainer's
      // rule accumulates it (beta at the first update).
      const double bp = std::pow(hp.beta, static_cast<double>(t));
      double rho =
          ((1.0 - hp.beta) * (1.0 - hp.beta) * (1.0 - bp * bp)) / ((1.0 - bp) * (1.0 - bp) * (1.0 - hp.beta * hp.beta));
      rho = std::min(rho, 0.9999);
      return {hp.lr, 1.0 - hp.beta, hp.eta, hp.weight_decay_rate, bp, rho};
    }
    default:
      throw ValueError("not an optimizer rule");
  }
}

Hook WeightDecay(double rate) { return Hook{Hook::Kind::kWeightDecay, rate, 0}; }
Hook Lasso(double rate) { return Hook{Hook::Kind::kLasso, rate, 0}; }
Hook GradientClipping(double threshold) { return Hook{Hook::Kind::kGradientClipping, threshold, 0}; }
Hook GradientHardClipping(double lower_bound, double upper_bound) {
  return Hook{Hook::Kind::kGradientHardClipping, lower_bound, upper_bound};
}

Optimizer::Optimizer(Rule rule, Hyperparameters hp) : rule_(rule), hp_(hp), initial_alpha_(hp.alpha) {
  if (static_cast<int>(rule) > static_cast<int>(Rule::kMSVAG)) throw ValueError("not an optimizer rule");
}

void Optimizer::setup(std::vector<Variable> params) {
  for (const auto& p : params) {
    if (!p.defined()) throw ValueError("Optimizer.setup: undefined parameter");
    const Dtype d = p.dtype();
    if (d != Dtype::kFloat16 && d != Dtype::kFloat32 && d != Dtype::kFloat64) {
      throw TypeError(std::string("Optimizer.setup: parameters must be floating, got ") + dtype_name(d));
    }
  }
  params_ = std::move(params);
  states_.assign(params_.size(), {});
  masters_.assign(params_.size(), Array());
  t_ = 0;
  initial_alpha_ = hp_.alpha;
}

void Optimizer::init_states() {
  const int ns = rule_num_states(rule_, hp_);
  for (size_t i = 0; i < params_.size(); ++i) {
    const Array& a = params_[i].array();
    if (a.dtype() == Dtype::kFloat16 && !masters_[i].defined()) masters_[i] = kumo::astype(a, Dtype::kFloat32);
    const Array& like = masters_[i].defined() ? masters_[i] : a;
    auto& st = states_[i];
    while (static_cast<int>(st.size()) < ns) {
      // SMORMS3's memory starts at one, every other state at zero.
      const bool ones = rule_ == Rule::kSMORMS3 && st.empty();
      st.push_back(ones ? kumo::ones_like(like, std::nullopt, Order::kC)
                        : kumo::zeros_like(like, std::nullopt, Order::kC));
    }
  }
}

void Optimizer::update() {
  init_states();
  // Groups by (device, working dtype): one launch per group and pass.
  struct Group {
    std::vector<size_t> index;
    std::vector<Array> params, grads;
  };
  std::map<std::pair<Device*, Dtype>, Group> groups;
  for (size_t i = 0; i < params_.size(); ++i) {
    const Variable& v = params_[i];
    if (!v.grad().defined()) v.set_grad(kumo::zeros_like(v.array()));
    const bool half = masters_[i].defined();
    Array p = half ? masters_[i] : v.array();
    Array g = v.grad();
    if (half) g = kumo::astype(g, Dtype::kFloat32);
    Group& gr = groups[{&p.device(), p.dtype()}];
    gr.index.push_back(i);
    gr.params.push_back(p);
    gr.grads.push_back(g);
  }
  // Hooks see every gradient (float16 ones through their float32 copies,
  // which are what the rule consumes).
  for (const Hook& hook : hooks_) {
    if (hook.kind == Hook::Kind::kGradientClipping) {
      double sq = 0;
      for (auto& [key, gr] : groups) sq += multi_tensor_sum_squares(gr.grads);
      const double rate = hook.a / std::sqrt(sq);
      if (!(rate < 1)) continue;
      for (auto& [key, gr] : groups) multi_tensor_update(Rule::kScaleGrad, gr.params, gr.grads, {}, {rate});
      continue;
    }
    Rule r = Rule::kWeightDecay;
    if (hook.kind == Hook::Kind::kLasso) r = Rule::kLasso;
    if (hook.kind == Hook::Kind::kGradientHardClipping) r = Rule::kHardClip;
    for (auto& [key, gr] : groups) multi_tensor_update(r, gr.params, gr.grads, {}, {hook.a, hook.b});
  }
  ++t_;
  const std::vector<double> k = rule_scalars(rule_, hp_, t_, initial_alpha_);
  const int ns = rule_num_states(rule_, hp_);
  for (auto& [key, gr] : groups) {
    std::vector<std::vector<Array>> st(static_cast<size_t>(ns));
    for (size_t i : gr.index)
      for (int s = 0; s < ns; ++s) st[static_cast<size_t>(s)].push_back(states_[i][static_cast<size_t>(s)]);
    multi_tensor_update(rule_, gr.params, gr.grads, st, k);
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    if (masters_[i].defined()) kumo::copyto(params_[i].array(), masters_[i], Casting::kUnsafe);
  }
}

}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
