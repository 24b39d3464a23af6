// Chainer-style gradient-method optimizers on the multi-tensor engine: every
// update of all parameters of one (dtype, device) group is one fused launch
// per hook and one for the rule.
//
//   namespace opt = kumo::autograd::optimizers;
//   opt::Adam adam;                       // Chainer's defaults
//   adam.hyperparam().alpha = 1e-3;
//   adam.setup({w, b});                   // Variables
//   adam.add_hook(opt::WeightDecay(1e-4));
//   ... loss.backward(); adam.update();
//
// float16 parameters are updated through float32 master copies kept by the
// optimizer and written back after each step (Chainer's use_fp32_update).
#pragma once
#include <cstdint>
#include <vector>

#include "autograd/optimizers/multi_tensor.h"
#include "autograd/variable.h"

namespace kumo {
namespace autograd {
namespace optimizers {

// Every hyperparameter of every rule, by Chainer's names; each rule reads its
// own. defaults(rule) gives that optimizer's Chainer defaults.
struct Hyperparameters {
  double lr = 0.01;
  double momentum = 0.9;
  double alpha = 0.001;  // Adam's step size; RMSprop's decay
  double beta = 0.9;     // MSVAG
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double eta = 1.0;
  double weight_decay_rate = 0.0;
  double final_lr = 0.1;
  double gamma = 1e-3;
  double rho = 0.95;
  bool amsgrad = false;
  bool adabound = false;
  bool eps_inside_sqrt = false;

  static Hyperparameters defaults(Rule rule);
};

// Number of state arrays a rule keeps per parameter (Adam: 3 with amsgrad).
int rule_num_states(Rule rule, const Hyperparameters& hp);
// Chainer's state names per rule, in engine order (e.g. Adam: m, v, vhat).
std::vector<std::string> rule_state_names(Rule rule, const Hyperparameters& hp);
// The engine scalars of a rule at step t (t counted after the increment, as
// Chainer's update rules see it). initial_alpha is Adam's alpha when the rule
// was created (AdaBound's bounds follow later changes of alpha).
std::vector<double> rule_scalars(Rule rule, const Hyperparameters& hp, int64_t t, double initial_alpha);
// Adam's bias-corrected step size alpha_t (RuntimeError before the first step).
double adam_alpha_t(const Hyperparameters& hp, int64_t t);

// A gradient hook run before the rule, over all parameters (Chainer's
// optimizer_hooks with timing 'pre').
struct Hook {
  enum class Kind { kWeightDecay, kLasso, kGradientClipping, kGradientHardClipping };
  Kind kind;
  double a = 0;  // rate / threshold / lower bound
  double b = 0;  // upper bound
};
Hook WeightDecay(double rate);
Hook Lasso(double rate);
Hook GradientClipping(double threshold);
Hook GradientHardClipping(double lower_bound, double upper_bound);

class Optimizer {
 public:
  Optimizer(Rule rule, Hyperparameters hp);
  virtual ~Optimizer() = default;

  Rule rule() const { return rule_; }
  Hyperparameters& hyperparam() { return hp_; }
  const Hyperparameters& hyperparam() const { return hp_; }
  // Number of updates so far, and Chainer's epoch counter.
  int64_t t() const { return t_; }
  int64_t epoch() const { return epoch_; }
  void new_epoch() { ++epoch_; }

  // The parameters to update from now on; states start fresh.
  void setup(std::vector<Variable> params);
  void add_hook(const Hook& hook) { hooks_.push_back(hook); }
  // Parameters without a gradient get zeros (as Chainer reallocates cleared
  // grads), the hooks run, then the rule updates every parameter.
  void update();

  const std::vector<Variable>& params() const { return params_; }
  // State s of parameter i (float32 for float16 parameters).
  const Array& state(size_t i, int s) const { return states_[i][static_cast<size_t>(s)]; }
  // The float32 master copy of float16 parameter i (undefined otherwise).
  const Array& master(size_t i) const { return masters_[i]; }

 private:
  void init_states();
  Rule rule_;
  Hyperparameters hp_;
  double initial_alpha_;
  int64_t t_ = 0;
  int64_t epoch_ = 0;
  std::vector<Variable> params_;
  std::vector<std::vector<Array>> states_;  // [param][state]
  std::vector<Array> masters_;
  std::vector<Hook> hooks_;
};

// The optimizers by Chainer's names, each with its rule's defaults.
#define KUMO_OPT_CLASS(Name, RuleValue)                                                                    \
  class Name : public Optimizer {                                                                          \
   public:                                                                                                 \
    explicit Name(Hyperparameters hp = Hyperparameters::defaults(RuleValue)) : Optimizer(RuleValue, hp) {} \
  };
KUMO_OPT_CLASS(SGD, Rule::kSGD)
KUMO_OPT_CLASS(MomentumSGD, Rule::kMomentumSGD)
KUMO_OPT_CLASS(NesterovAG, Rule::kNesterovAG)
KUMO_OPT_CLASS(Adam, Rule::kAdam)
KUMO_OPT_CLASS(AdaGrad, Rule::kAdaGrad)
KUMO_OPT_CLASS(AdaDelta, Rule::kAdaDelta)
KUMO_OPT_CLASS(RMSprop, Rule::kRMSprop)
KUMO_OPT_CLASS(RMSpropGraves, Rule::kRMSpropGraves)
KUMO_OPT_CLASS(SMORMS3, Rule::kSMORMS3)
KUMO_OPT_CLASS(CorrectedMomentumSGD, Rule::kCorrectedMomentumSGD)
KUMO_OPT_CLASS(MSVAG, Rule::kMSVAG)
#undef KUMO_OPT_CLASS

}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
