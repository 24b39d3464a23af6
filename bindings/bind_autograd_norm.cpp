// kumo._core.autograd.functions: normalization, noise, loss and evaluation
// functions (autograd/functions/{normalization,noise,loss,evaluation}.h)
// with Chainer 7's argument names and defaults, and the train flag that
// kumo.autograd.using_config('train', ...) sets.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "autograd/functions/evaluation.h"
#include "autograd/functions/loss.h"
#include "autograd/functions/noise.h"
#include "autograd/functions/normalization.h"
#include "bindings/convert.h"
#include "bindings/convert_variable.h"
#include "core/errors.h"

namespace kumo {
namespace py_bind {

namespace ag = kumo::autograd;

namespace {

// Running statistics are updated in place, so they must be kumo arrays.
Array running_stat(py::handle obj, const char* name) {
  if (obj.is_none()) return Array();
  if (py::isinstance<ag::Variable>(obj)) return py::cast<ag::Variable>(obj).array();
  const Array* a = ndarray_value(obj.ptr());
  if (a == nullptr)
    throw TypeError(std::string("batch_normalization: ") + name +
                    " must be a kumo.ndarray (it is updated in place), got " +
                    std::string(py::str(py::type::handle_of(obj).attr("__name__"))));
  return *a;
}

std::optional<std::vector<int64_t>> axis_arg(py::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return to_int_list(axis);
}

// `with using_config('train', value):` from Python.
class TrainContext {
 public:
  explicit TrainContext(bool train) : train_(train) {}
  void enter() { scopes_.emplace_back(std::make_unique<ag::TrainModeScope>(train_)); }
  void exit() {
    if (!scopes_.empty()) scopes_.pop_back();
  }

 private:
  bool train_;
  std::vector<std::unique_ptr<ag::TrainModeScope>> scopes_;
};

void bind_normalization(py::module_& f) {
  f.def(
      "batch_normalization",
      [](py::handle x, py::handle gamma, py::handle beta, double eps, py::handle running_mean, py::handle running_var,
         double decay, py::handle axis) {
        return ag::batch_normalization(to_variable_required(x, "x"), to_variable_required(gamma, "gamma"),
                                       to_variable_required(beta, "beta"), eps,
                                       running_stat(running_mean, "running_mean"),
                                       running_stat(running_var, "running_var"), decay, axis_arg(axis));
      },
      py::arg("x"), py::arg("gamma"), py::arg("beta"), py::arg("eps") = 2e-5, py::arg("running_mean") = py::none(),
      py::arg("running_var") = py::none(), py::arg("decay") = 0.9, py::arg("axis") = py::none());
  f.def(
      "fixed_batch_normalization",
      [](py::handle x, py::handle gamma, py::handle beta, py::handle mean, py::handle var, double eps,
         py::handle axis) {
        return ag::fixed_batch_normalization(to_variable_required(x, "x"), to_variable_required(gamma, "gamma"),
                                             to_variable_required(beta, "beta"), to_variable_required(mean, "mean"),
                                             to_variable_required(var, "var"), eps, axis_arg(axis));
      },
      py::arg("x"), py::arg("gamma"), py::arg("beta"), py::arg("mean"), py::arg("var"), py::arg("eps") = 2e-5,
      py::arg("axis") = py::none());
  f.def(
      "layer_normalization",
      [](py::handle x, py::handle gamma, py::handle beta, double eps) {
        return ag::layer_normalization(to_variable_required(x, "x"), to_variable_required(gamma, "gamma"),
                                       to_variable_required(beta, "beta"), eps);
      },
      py::arg("x"), py::arg("gamma"), py::arg("beta"), py::arg("eps") = 1e-5);
  f.def(
      "group_normalization",
      [](py::handle x, int64_t groups, py::handle gamma, py::handle beta, double eps) {
        return ag::group_normalization(to_variable_required(x, "x"), groups, to_variable_required(gamma, "gamma"),
                                       to_variable_required(beta, "beta"), eps);
      },
      py::arg("x"), py::arg("groups"), py::arg("gamma"), py::arg("beta"), py::arg("eps") = 1e-5);
  f.def(
      "local_response_normalization",
      [](py::handle x, int64_t n, double k, double alpha, double beta) {
        return ag::local_response_normalization(to_variable_required(x, "x"), n, k, alpha, beta);
      },
      py::arg("x"), py::arg("n") = 5, py::arg("k") = 2, py::arg("alpha") = 1e-4, py::arg("beta") = 0.75);
  f.def(
      "normalize",
      [](py::handle x, double eps, int64_t axis) { return ag::normalize(to_variable_required(x, "x"), eps, axis); },
      py::arg("x"), py::arg("eps") = 1e-5, py::arg("axis") = 1);
}

void bind_noise(py::module_& f) {
  py::class_<TrainContext>(f, "_TrainContext")
      .def(py::init<bool>())
      .def("__enter__", [](TrainContext& c) { c.enter(); })
      .def("__exit__", [](TrainContext& c, py::args) {
        c.exit();
        return false;
      });
  f.def("_is_train", &ag::is_train);
  f.def("_set_train", &ag::set_train, py::arg("train"));
  f.def("_seed_noise", &ag::seed_noise, py::arg("seed"));
  f.def(
      "dropout",
      [](py::handle x, double ratio, py::handle mask, bool return_mask) -> py::object {
        auto [y, m] = ag::dropout_with_mask(to_variable_required(x, "x"), ratio, to_data_or_none(mask));
        if (!return_mask) return to_py(y);
        return py::make_tuple(to_py(y), m.defined() ? new_ndarray(std::move(m)) : py::none());
      },
      py::arg("x"), py::arg("ratio") = 0.5, py::kw_only(), py::arg("mask") = py::none(),
      py::arg("return_mask") = false);
  f.def(
      "gaussian",
      [](py::handle mean, py::handle ln_var, py::handle eps, bool return_eps) -> py::object {
        auto [y, e] = ag::gaussian_with_eps(to_variable_required(mean, "mean"), to_variable_required(ln_var, "ln_var"),
                                            to_data_or_none(eps));
        if (!return_eps) return to_py(y);
        return py::make_tuple(to_py(y), new_ndarray(std::move(e)));
      },
      py::arg("mean"), py::arg("ln_var"), py::kw_only(), py::arg("eps") = py::none(), py::arg("return_eps") = false);
  f.def(
      "gumbel_softmax",
      [](py::handle log_p, double tau, int64_t axis) {
        return ag::gumbel_softmax(to_variable_required(log_p, "log_p"), tau, axis);
      },
      py::arg("log_p"), py::arg("tau") = 0.1, py::arg("axis") = 1);
}

void bind_losses(py::module_& f) {
  // Replaces the plain softmax_cross_entropy of bind_autograd.cpp (same
  // leading arguments) by Chainer's full signature.
  f.attr("softmax_cross_entropy") = py::cpp_function(
      [](py::handle x, py::handle t, bool normalize, bool cache_score, py::handle class_weight, int64_t ignore_label,
         const std::string& reduce, bool enable_double_backprop, const std::string& soft_target_loss) {
        if (py::isinstance<ag::Variable>(class_weight))
          throw ValueError("softmax_cross_entropy: class_weight should be an array, not a Variable");
        ag::SoftmaxCrossEntropyOptions o;
        o.normalize = normalize;
        o.cache_score = cache_score;
        o.class_weight = to_data_or_none(class_weight);
        o.ignore_label = ignore_label;
        o.reduce = reduce;
        o.enable_double_backprop = enable_double_backprop;
        o.soft_target_loss = soft_target_loss;
        return ag::softmax_cross_entropy(to_variable_required(x, "x"), to_data(t), o);
      },
      py::name("softmax_cross_entropy"), py::scope(f), py::arg("x"), py::arg("t"), py::arg("normalize") = true,
      py::arg("cache_score") = true, py::arg("class_weight") = py::none(), py::arg("ignore_label") = -1,
      py::arg("reduce") = "mean", py::arg("enable_double_backprop") = false,
      py::arg("soft_target_loss") = "cross-entropy");
  f.attr("accuracy") = py::cpp_function(
      [](py::handle y, py::handle t, std::optional<int64_t> ignore_label) {
        return ag::accuracy(to_variable_required(y, "y"), to_data(t), ignore_label);
      },
      py::name("accuracy"), py::scope(f), py::arg("y"), py::arg("t"), py::arg("ignore_label") = py::none());

  using Pair = ag::Variable (*)(const ag::Variable&, const ag::Variable&);
  const std::pair<const char*, Pair> pairs[] = {
      {"squared_error", ag::squared_error},
      {"absolute_error", ag::absolute_error},
      {"mean_absolute_error", ag::mean_absolute_error},
  };
  for (const auto& [name, fn] : pairs) {
    Pair g = fn;
    f.def(
        name,
        [g](py::handle x0, py::handle x1) { return g(to_variable_required(x0, "x0"), to_variable_required(x1, "x1")); },
        py::arg("x0"), py::arg("x1"));
  }
  f.def(
      "sigmoid_cross_entropy",
      [](py::handle x, py::handle t, bool normalize, const std::string& reduce) {
        return ag::sigmoid_cross_entropy(to_variable_required(x, "x"), to_data(t), normalize, reduce);
      },
      py::arg("x"), py::arg("t"), py::arg("normalize") = true, py::arg("reduce") = "mean");
  f.def(
      "huber_loss",
      [](py::handle x, py::handle t, double delta, const std::string& reduce) {
        return ag::huber_loss(to_variable_required(x, "x"), to_variable_required(t, "t"), delta, reduce);
      },
      py::arg("x"), py::arg("t"), py::arg("delta"), py::arg("reduce") = "sum_along_second_axis");
  f.def(
      "hinge",
      [](py::handle x, py::handle t, const std::string& norm, const std::string& reduce) {
        return ag::hinge(to_variable_required(x, "x"), to_data(t), norm, reduce);
      },
      py::arg("x"), py::arg("t"), py::arg("norm") = "L1", py::arg("reduce") = "mean");
  f.def(
      "contrastive",
      [](py::handle x0, py::handle x1, py::handle y, double margin, const std::string& reduce) {
        return ag::contrastive(to_variable_required(x0, "x0"), to_variable_required(x1, "x1"), to_data(y), margin,
                               reduce);
      },
      py::arg("x0"), py::arg("x1"), py::arg("y"), py::arg("margin") = 1, py::arg("reduce") = "mean");
  f.def(
      "triplet",
      [](py::handle anchor, py::handle positive, py::handle negative, double margin, const std::string& reduce) {
        return ag::triplet(to_variable_required(anchor, "anchor"), to_variable_required(positive, "positive"),
                           to_variable_required(negative, "negative"), margin, reduce);
      },
      py::arg("anchor"), py::arg("positive"), py::arg("negative"), py::arg("margin") = 0.2, py::arg("reduce") = "mean");
  f.def(
      "gaussian_kl_divergence",
      [](py::handle mean, py::handle ln_var, const std::string& reduce) {
        return ag::gaussian_kl_divergence(to_variable_required(mean, "mean"), to_variable_required(ln_var, "ln_var"),
                                          reduce);
      },
      py::arg("mean"), py::arg("ln_var"), py::arg("reduce") = "sum");
  f.def(
      "bernoulli_nll",
      [](py::handle x, py::handle y, const std::string& reduce) {
        return ag::bernoulli_nll(to_variable_required(x, "x"), to_variable_required(y, "y"), reduce);
      },
      py::arg("x"), py::arg("y"), py::arg("reduce") = "sum");
  f.def(
      "gaussian_nll",
      [](py::handle x, py::handle mean, py::handle ln_var, const std::string& reduce) {
        return ag::gaussian_nll(to_variable_required(x, "x"), to_variable_required(mean, "mean"),
                                to_variable_required(ln_var, "ln_var"), reduce);
      },
      py::arg("x"), py::arg("mean"), py::arg("ln_var"), py::arg("reduce") = "sum");
  f.def(
      "cross_covariance",
      [](py::handle y, py::handle z, const std::string& reduce) {
        return ag::cross_covariance(to_variable_required(y, "y"), to_variable_required(z, "z"), reduce);
      },
      py::arg("y"), py::arg("z"), py::arg("reduce") = "half_squared_sum");
  f.def(
      "decov", [](py::handle h, const std::string& reduce) { return ag::decov(to_variable_required(h, "h"), reduce); },
      py::arg("h"), py::arg("reduce") = "half_squared_sum");
}

void bind_evaluation(py::module_& f) {
  f.def(
      "binary_accuracy",
      [](py::handle y, py::handle t) { return ag::binary_accuracy(to_variable_required(y, "y"), to_data(t)); },
      py::arg("y"), py::arg("t"));
  f.def(
      "r2_score",
      [](py::handle pred, py::handle true_, py::handle sample_weight, const std::string& multioutput) {
        std::optional<Array> w;
        if (!sample_weight.is_none()) {
          Array storage;
          w = array_ref(sample_weight, &storage);
        }
        return ag::r2_score(to_variable_required(pred, "pred"), to_variable_required(true_, "true"), multioutput, w);
      },
      py::arg("pred"), py::arg("true"), py::arg("sample_weight") = py::none(),
      py::arg("multioutput") = "uniform_average");
}

}  // namespace

void bind_autograd_norm(py::module_& f) {
  bind_normalization(f);
  bind_noise(f);
  bind_losses(f);
  bind_evaluation(f);
}

}  // namespace py_bind
}  // namespace kumo
