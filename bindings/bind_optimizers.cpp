// kumo._core.optimizers: the multi-tensor update engine and the rule scalars
// of autograd/optimizers for the Python optimizers in
// kumo.autograd.optimizers, which keep Chainer's object model (update rules,
// hyperparameter objects, hooks) and hand each fused group to these calls.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "autograd/optimizers/multi_tensor.h"
#include "autograd/optimizers/optimizer.h"
#include "core/errors.h"

namespace kumo {
namespace py_bind {

namespace py = pybind11;
namespace opt = kumo::autograd::optimizers;

namespace {

opt::Rule to_rule(int r) {
  if (r < 0 || r > static_cast<int>(opt::Rule::kScaleGrad)) throw ValueError("unknown optimizer rule");
  return static_cast<opt::Rule>(r);
}

// Reads the hyperparameters a rule uses from a dict of Chainer names.
opt::Hyperparameters to_hp(opt::Rule rule, const py::dict& d) {
  opt::Hyperparameters hp = opt::Hyperparameters::defaults(rule);
  auto num = [&](const char* key, double& out) {
    if (d.contains(key)) out = py::cast<double>(d[key]);
  };
  auto flag = [&](const char* key, bool& out) {
    if (d.contains(key)) out = py::cast<bool>(py::bool_(d[key]));
  };
  num("lr", hp.lr);
  num("momentum", hp.momentum);
  num("alpha", hp.alpha);
  num("beta", hp.beta);
  num("beta1", hp.beta1);
  num("beta2", hp.beta2);
  num("eps", hp.eps);
  num("eta", hp.eta);
  num("weight_decay_rate", hp.weight_decay_rate);
  num("final_lr", hp.final_lr);
  num("gamma", hp.gamma);
  num("rho", hp.rho);
  flag("amsgrad", hp.amsgrad);
  flag("adabound", hp.adabound);
  flag("eps_inside_sqrt", hp.eps_inside_sqrt);
  return hp;
}

}  // namespace

void bind_optimizers(py::module_& parent) {
  py::module_ m = parent.def_submodule("optimizers", "fused multi-tensor optimizer updates");
  using Release = py::call_guard<py::gil_scoped_release>;
  m.def(
      "multi_tensor_update",
      [](int rule, const std::vector<Array>& params, const std::vector<Array>& grads,
         const std::vector<std::vector<Array>>& states, const std::vector<double>& scalars) {
        opt::multi_tensor_update(to_rule(rule), params, grads, states, scalars);
      },
      py::arg("rule"), py::arg("params"), py::arg("grads"), py::arg("states"), py::arg("scalars"), Release());
  m.def("sum_squares", &opt::multi_tensor_sum_squares, py::arg("arrays"), Release());
  m.def("all_finite", &opt::multi_tensor_all_finite, py::arg("arrays"), Release());
  m.def(
      "cuda_source",
      [](int rule, const std::string& dtype) {
        if (dtype != "float32" && dtype != "float64") throw TypeError("cuda_source: dtype must be float32 or float64");
        return opt::multi_tensor_cuda_source(to_rule(rule), dtype == "float32" ? Dtype::kFloat32 : Dtype::kFloat64);
      },
      py::arg("rule"), py::arg("dtype"));
  m.def(
      "rule_scalars",
      [](int rule, const py::dict& hp, int64_t t, double initial_alpha) {
        const opt::Rule r = to_rule(rule);
        return opt::rule_scalars(r, to_hp(r, hp), t, initial_alpha);
      },
      py::arg("rule"), py::arg("hyperparam"), py::arg("t"), py::arg("initial_alpha"));
  m.def(
      "adam_alpha_t", [](const py::dict& hp, int64_t t) { return opt::adam_alpha_t(to_hp(opt::Rule::kAdam, hp), t); },
      py::arg("hyperparam"), py::arg("t"));
  m.def(
      "state_names",
      [](int rule, const py::dict& hp) {
        const opt::Rule r = to_rule(rule);
        return opt::rule_state_names(r, to_hp(r, hp));
      },
      py::arg("rule"), py::arg("hyperparam"));
}

}  // namespace py_bind
}  // namespace kumo
