// kumo._core.autograd: the C++ engine (autograd/) for kumo.autograd.
//
// Variable is bound as a value handle (copies share the variable); an
// undefined Variable is None in Python. FunctionNode is subclassable from
// Python: forward and backward written in Python run inside the C++ engine,
// and pybind11's smart holder keeps the Python object alive for as long as
// the graph holds the node.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "autograd/autograd.h"
#include "bindings/convert.h"
#include "bindings/convert_variable.h"
#include "core/errors.h"

namespace kumo {
namespace py_bind {

namespace ag = kumo::autograd;

void bind_autograd_math(py::module_& f);
void bind_autograd_norm(py::module_& f);  // bind_autograd_norm.cpp
void bind_autograd_array(py::module_& f);  // bind_autograd_array.cpp

namespace {

std::vector<ag::Variable> to_variables(py::handle seq) {
  std::vector<ag::Variable> out;
  if (py::isinstance<ag::Variable>(seq) || ndarray_value(seq.ptr()) != nullptr) {
    out.push_back(to_variable(seq));
    return out;
  }
  for (py::handle item : seq) out.push_back(to_variable(item));
  return out;
}

std::vector<Array> to_arrays(py::handle result, const std::string& who) {
  std::vector<Array> out;
  auto one = [&](py::handle h) {
    Array storage;
    const Array& a = array_ref(h, &storage);
    out.push_back(a);
  };
  if (ndarray_value(result.ptr()) != nullptr) {
    one(result);
  } else if (py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result)) {
    for (py::handle h : result) one(h);
  } else {
    throw TypeError(who + " must return a tuple of kumo arrays, got " +
                    std::string(py::str(py::type::handle_of(result).attr("__name__"))));
  }
  return out;
}

// Python subclasses of kumo.autograd.FunctionNode.
class PyFunctionNode : public ag::FunctionNode, public py::trampoline_self_life_support {
 public:
  std::string label() const override {
    py::gil_scoped_acquire gil;
    // label is a read-only property on the base class, so py::get_override
    // (which expects a method) cannot be used: a subclass may define a
    // method, a property or a plain class attribute.
    py::object cls = py::cast(this).attr("__class__");
    py::object attr = py::getattr(cls, "label", py::none());
    if (py::isinstance<py::str>(attr)) return py::cast<std::string>(attr);
    if (PyFunction_Check(attr.ptr())) return py::cast<std::string>(attr(py::cast(this)));
    if (PyObject_TypeCheck(attr.ptr(), &PyProperty_Type) && !py::getattr(attr, "fget").is_none()) {
      py::object fget = attr.attr("fget");
      if (PyFunction_Check(fget.ptr())) return py::cast<std::string>(fget(py::cast(this)));
    }
    return py::cast<std::string>(cls.attr("__name__"));
  }
  std::vector<Array> forward(const std::vector<Array>& inputs) override {
    py::gil_scoped_acquire gil;
    py::function override = py::get_override(static_cast<const ag::FunctionNode*>(this), "forward");
    if (!override) throw TypeError("FunctionNode subclass " + label() + " does not define forward");
    py::tuple xs(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) xs[i] = new_ndarray(Array(inputs[i]));
    return to_arrays(override(xs), label() + ".forward");
  }
  std::vector<ag::Variable> backward(const std::vector<size_t>& targets,
                                     const std::vector<ag::Variable>& grad_outputs) override {
    py::gil_scoped_acquire gil;
    py::function override = py::get_override(static_cast<const ag::FunctionNode*>(this), "backward");
    if (!override) throw TypeError("FunctionNode subclass " + label() + " does not define backward");
    py::object result = override(py::tuple(py::cast(targets)), to_py_tuple(grad_outputs));
    std::vector<ag::Variable> gx = to_variables(result);
    if (gx.size() == num_inputs() && targets.size() != num_inputs()) {
      // Chainer allows one gradient per input; keep the targets'.
      std::vector<ag::Variable> picked;
      for (size_t i : targets) picked.push_back(gx[i]);
      return picked;
    }
    return gx;
  }

  using ag::FunctionNode::get_retained_inputs;
  using ag::FunctionNode::get_retained_outputs;
  using ag::FunctionNode::input_dtype;
  using ag::FunctionNode::input_shape;
  using ag::FunctionNode::retain_inputs;
  using ag::FunctionNode::retain_outputs;
};

// `with no_backprop_mode():` / `with force_backprop_mode():`.
class ModeContext {
 public:
  explicit ModeContext(bool enabled) : enabled_(enabled) {}
  void enter() { scopes_.emplace_back(std::make_unique<ag::BackpropModeScope>(enabled_)); }
  void exit() {
    if (!scopes_.empty()) scopes_.pop_back();
  }

 private:
  bool enabled_;
  std::vector<std::unique_ptr<ag::BackpropModeScope>> scopes_;
};

using BinaryVV = ag::Variable (*)(const ag::Variable&, const ag::Variable&);
using BinaryVS = ag::Variable (*)(const ag::Variable&, Scalar);
using BinarySV = ag::Variable (*)(Scalar, const ag::Variable&);

// A binary function of Variables, Python scalars (weak) and arrays.
py::object binary(py::handle a, py::handle b, BinaryVV vv, BinaryVS vs, BinarySV sv) {
  if (is_python_scalar(b)) return to_py(vs(to_variable(a), Scalar(to_scalar_value(b))));
  if (is_python_scalar(a)) return to_py(sv(Scalar(to_scalar_value(a)), to_variable(b)));
  return to_py(vv(to_variable(a), to_variable(b)));
}

ag::Variable add_sv(Scalar a, const ag::Variable& b) { return ag::add(b, a); }
ag::Variable mul_sv(Scalar a, const ag::Variable& b) { return ag::mul(b, a); }

Shape shape_arg(py::handle obj) { return Shape(to_int_list(obj)); }

}  // namespace

void bind_autograd_hooks(py::module_& m);  // bind_autograd_hooks.cpp
void bind_autograd_conv(py::module_& f);

void bind_autograd(py::module_& parent) {
  py::module_ m = parent.def_submodule("autograd", "The C++ autograd engine (autograd/)");

  py::class_<ag::Variable>(m, "Variable")
      .def(py::init([](py::handle data, bool requires_grad, std::optional<std::string> name) {
             Array storage;
             return ag::Variable(array_ref(data, &storage), requires_grad, name.value_or(""));
           }),
           py::arg("data"), py::kw_only(), py::arg("requires_grad") = true, py::arg("name") = py::none())
      .def_property(
          "array", [](const ag::Variable& v) { return new_ndarray(Array(v.array())); },
          [](const ag::Variable& v, py::handle a) {
            Array storage;
            v.set_array(array_ref(a, &storage));
          })
      .def_property(
          "grad",
          [](const ag::Variable& v) -> py::object {
            Array g = v.grad();
            return g.defined() ? new_ndarray(std::move(g)) : py::none();
          },
          [](const ag::Variable& v, py::handle g) {
            if (g.is_none()) return v.cleargrad();
            Array storage;
            v.set_grad(array_ref(g, &storage));
          })
      .def_property(
          "grad_var", [](const ag::Variable& v) { return to_py(v.grad_var()); },
          [](const ag::Variable& v, py::handle g) { v.set_grad_var(to_variable(g)); })
      .def_property(
          "name",
          [](const ag::Variable& v) -> py::object {
            if (v.name().empty()) return py::none();
            return py::str(v.name());
          },
          [](const ag::Variable& v, py::handle n) { v.set_name(n.is_none() ? "" : py::cast<std::string>(n)); })
      .def_property_readonly("requires_grad", &ag::Variable::requires_grad)
      .def_property_readonly("shape", [](const ag::Variable& v) { return py::tuple(py::cast(v.shape().to_vector())); })
      .def_property_readonly("dtype", [](const ag::Variable& v) { return numpy_dtype(v.dtype()); })
      .def_property_readonly("ndim", &ag::Variable::ndim)
      .def_property_readonly("size", &ag::Variable::size)
      .def_property_readonly("rank", &ag::Variable::rank)
      .def_property_readonly("creator_node",
                             [](const ag::Variable& v) -> py::object {
                               std::shared_ptr<ag::FunctionNode> c = v.creator();
                               return c ? py::cast(c) : py::none();
                             })
      .def("_is", &ag::Variable::is)
      .def(
          "backward",
          [](const ag::Variable& v, bool retain_grad, bool enable_double_backprop, std::optional<double> loss_scale,
             bool release_graph) { v.backward(retain_grad, enable_double_backprop, release_graph, loss_scale); },
          py::arg("retain_grad") = false, py::arg("enable_double_backprop") = false, py::arg("loss_scale") = py::none(),
          py::kw_only(), py::arg("release_graph") = false)
      .def_property("_loss_scale", &ag::Variable::loss_scale, &ag::Variable::set_loss_scale)
      .def("cleargrad", &ag::Variable::cleargrad)
      .def("zerograd", &ag::Variable::zerograd)
      .def("unchain", &ag::Variable::unchain)
      .def("unchain_backward", &ag::Variable::unchain_backward)
      .def("__len__",
           [](const ag::Variable& v) {
             if (v.ndim() == 0) throw TypeError("len() of unsized object");
             return v.shape()[0];
           })
      .def("__add__", [](py::handle a, py::handle b) { return binary(a, b, ag::add, ag::add, add_sv); })
      .def("__radd__", [](py::handle a, py::handle b) { return binary(b, a, ag::add, ag::add, add_sv); })
      .def("__sub__", [](py::handle a, py::handle b) { return binary(a, b, ag::sub, ag::sub, ag::sub); })
      .def("__rsub__", [](py::handle a, py::handle b) { return binary(b, a, ag::sub, ag::sub, ag::sub); })
      .def("__mul__", [](py::handle a, py::handle b) { return binary(a, b, ag::mul, ag::mul, mul_sv); })
      .def("__rmul__", [](py::handle a, py::handle b) { return binary(b, a, ag::mul, ag::mul, mul_sv); })
      .def("__truediv__", [](py::handle a, py::handle b) { return binary(a, b, ag::div, ag::div, ag::div); })
      .def("__rtruediv__", [](py::handle a, py::handle b) { return binary(b, a, ag::div, ag::div, ag::div); })
      .def("__pow__", [](py::handle a, py::handle b) { return binary(a, b, ag::pow, ag::pow, ag::pow); })
      .def("__rpow__", [](py::handle a, py::handle b) { return binary(b, a, ag::pow, ag::pow, ag::pow); })
      .def("__neg__", [](const ag::Variable& v) { return ag::neg(v); })
      .def("__abs__", [](const ag::Variable& v) { return ag::absolute(v); })
      .def("__getitem__",
           [](const ag::Variable& v, py::handle key) { return ag::get_item(v, index_components(key, v.device())); })
      .def("__matmul__", [](py::handle a, py::handle b) { return ag::matmul(to_variable(a), to_variable(b)); })
      .def("__rmatmul__", [](py::handle a, py::handle b) { return ag::matmul(to_variable(b), to_variable(a)); });

  py::class_<ag::FunctionNode, PyFunctionNode, py::smart_holder>(m, "FunctionNode")
      .def(py::init<>())
      .def_property_readonly("label", &ag::FunctionNode::label)
      .def_property_readonly("rank", &ag::FunctionNode::rank)
      .def("apply", [](const std::shared_ptr<ag::FunctionNode>& self,
                       py::handle inputs) { return to_py_tuple(ag::apply(self, to_variables(inputs))); })
      .def("retain_inputs",
           [](ag::FunctionNode& self, std::vector<size_t> idx) {
             static_cast<PyFunctionNode&>(self).retain_inputs(std::move(idx));
           })
      .def("retain_outputs",
           [](ag::FunctionNode& self, std::vector<size_t> idx) {
             static_cast<PyFunctionNode&>(self).retain_outputs(std::move(idx));
           })
      .def("get_retained_inputs",
           [](ag::FunctionNode& self) { return to_py_tuple(static_cast<PyFunctionNode&>(self).get_retained_inputs()); })
      .def(
          "get_retained_outputs",
          [](ag::FunctionNode& self) { return to_py_tuple(static_cast<PyFunctionNode&>(self).get_retained_outputs()); })
      .def_property_readonly("inputs",
                             [](const ag::FunctionNode& self) {
                               py::list out;
                               for (const auto& n : self.inputs())
                                 out.append(py::tuple(py::cast(n->shape().to_vector())));
                               return out;
                             })
      .def("unchain", &ag::FunctionNode::unchain);

  py::class_<ModeContext>(m, "_ModeContext")
      .def(py::init<bool>())
      .def("__enter__", [](ModeContext& c) { c.enter(); })
      .def("__exit__", [](ModeContext& c, py::args) {
        c.exit();
        return false;
      });
  m.def("is_backprop_enabled", &ag::is_backprop_enabled);

  m.def(
      "grad",
      [](py::handle outputs, py::handle inputs, py::handle grad_outputs, bool retain_grad,
         bool enable_double_backprop) {
        std::vector<ag::Variable> gy =
            grad_outputs.is_none() ? std::vector<ag::Variable>{} : to_variables(grad_outputs);
        return to_py_tuple(
            ag::grad(to_variables(outputs), to_variables(inputs), gy, retain_grad, enable_double_backprop));
      },
      py::arg("outputs"), py::arg("inputs"), py::arg("grad_outputs") = py::none(), py::arg("retain_grad") = false,
      py::arg("enable_double_backprop") = false);
  // Backprop from several outputs at once, each with its given gradient
  // (kumo.autograd.backward, Chainer's chainer.backward, wraps it).
  m.def(
      "_backward",
      [](py::handle outputs, py::handle grad_outputs, bool enable_double_backprop) {
        ag::backward(to_variables(outputs), to_variables(grad_outputs), false, enable_double_backprop);
      },
      py::arg("outputs"), py::arg("grad_outputs"), py::arg("enable_double_backprop") = false);

  bind_autograd_hooks(m);

  // gradient_check (kumo.autograd.gradient_check gives Chainer's signatures).
  py::register_exception<ag::GradientCheckError>(m, "GradientCheckError", PyExc_AssertionError);
  auto python_function = [](py::function func) -> ag::VariadicFunction {
    return [func](const std::vector<ag::Variable>& xs) {
      py::tuple args(xs.size());
      for (size_t i = 0; i < xs.size(); ++i) args[i] = to_py(xs[i]);
      py::object result = func(*args);
      if (py::isinstance<py::tuple>(result) || py::isinstance<py::list>(result)) return to_variables(result);
      return std::vector<ag::Variable>{to_variable(result)};
    };
  };
  auto options_of = [](double eps, double atol, double rtol, py::handle params, py::handle no_grads, py::handle dtype) {
    ag::GradientCheckOptions options;
    options.eps = eps;
    options.atol = atol;
    options.rtol = rtol;
    for (py::handle p : params) options.params.push_back(py::cast<ag::Variable>(p));
    if (!no_grads.is_none()) {
      for (py::handle flag : no_grads) options.no_grads.push_back(py::cast<bool>(flag));
    }
    if (!dtype.is_none()) options.dtype = to_dtype_required(dtype);
    return options;
  };
  auto arrays_or_undefined = [](py::handle seq) {
    std::vector<Array> out;
    if (seq.is_none()) return out;
    for (py::handle h : seq) {
      Array storage;
      out.push_back(h.is_none() ? Array() : array_ref(h, &storage));
    }
    return out;
  };
  m.def(
      "check_backward",
      [=](py::function func, py::handle inputs, py::handle grad_outputs, py::handle params, double eps, double atol,
          double rtol, py::handle no_grads, py::handle dtype) {
        ag::GradientCheckOptions options = options_of(eps, atol, rtol, params, no_grads, dtype);
        ag::check_backward(python_function(func), arrays_or_undefined(inputs), arrays_or_undefined(grad_outputs),
                           options);
      },
      py::arg("func"), py::arg("inputs"), py::arg("grad_outputs"), py::arg("params"), py::arg("eps"), py::arg("atol"),
      py::arg("rtol"), py::arg("no_grads"), py::arg("dtype"));
  m.def(
      "check_double_backward",
      [=](py::function func, py::handle inputs, py::handle grad_outputs, py::handle grad_grad_inputs, py::handle params,
          double eps, double atol, double rtol, py::handle no_grads, py::handle dtype) {
        ag::GradientCheckOptions options = options_of(eps, atol, rtol, params, no_grads, dtype);
        ag::check_double_backward(python_function(func), arrays_or_undefined(inputs), arrays_or_undefined(grad_outputs),
                                  arrays_or_undefined(grad_grad_inputs), options);
      },
      py::arg("func"), py::arg("inputs"), py::arg("grad_outputs"), py::arg("grad_grad_inputs"), py::arg("params"),
      py::arg("eps"), py::arg("atol"), py::arg("rtol"), py::arg("no_grads"), py::arg("dtype"));

  // Functions (kumo.autograd.functions wraps them with Chainer's signatures).
  py::module_ f = m.def_submodule("functions");
  // Chainer's variadic F.add(*xs): two or more inputs, summed left to right.
  f.def("add", [](py::args xs) {
    if (xs.size() < 2) throw TypeError("add: expected at least two inputs, got " + std::to_string(xs.size()));
    py::object y = binary(xs[0], xs[1], ag::add, ag::add, add_sv);
    for (size_t i = 2; i < xs.size(); ++i) y = binary(y, xs[i], ag::add, ag::add, add_sv);
    return y;
  });
  f.def("sub", [](py::handle a, py::handle b) { return binary(a, b, ag::sub, ag::sub, ag::sub); });
  f.def("mul", [](py::handle a, py::handle b) { return binary(a, b, ag::mul, ag::mul, mul_sv); });
  f.def("div", [](py::handle a, py::handle b) { return binary(a, b, ag::div, ag::div, ag::div); });
  f.def("pow", [](py::handle a, py::handle b) { return binary(a, b, ag::pow, ag::pow, ag::pow); });
  using Unary = ag::Variable (*)(const ag::Variable&);
  const std::pair<const char*, Unary> unary[] = {
      {"neg", ag::neg},         {"exp", ag::exp},       {"log", ag::log},           {"sqrt", ag::sqrt},
      {"square", ag::square},   {"sin", ag::sin},       {"cos", ag::cos},           {"tanh", ag::tanh},
      {"sigmoid", ag::sigmoid}, {"relu", ag::relu},     {"absolute", ag::absolute}, {"log2", ag::log2},
      {"log10", ag::log10},     {"log1p", ag::log1p},   {"expm1", ag::expm1},       {"tan", ag::tan},
      {"arcsin", ag::arcsin},   {"arccos", ag::arccos}, {"arctan", ag::arctan},     {"sinh", ag::sinh},
      {"cosh", ag::cosh},       {"rsqrt", ag::rsqrt},   {"floor", ag::floor},       {"ceil", ag::ceil},
      {"arctanh", ag::arctanh}, {"sign", ag::sign},     {"fix", ag::fix},           {"relu6", ag::relu6},
  };
  for (const auto& [name, fn] : unary) {
    Unary g = fn;
    f.def(
        name, [g](py::handle x) { return g(to_variable(x)); }, py::arg("x"));
  }
  f.def(
      "matmul",
      [](py::handle a, py::handle b, bool transa, bool transb) {
        return ag::matmul(to_variable(a), to_variable(b), transa, transb);
      },
      py::arg("a"), py::arg("b"), py::arg("transa") = false, py::arg("transb") = false);
  f.def(
      "batch_matmul",
      [](py::handle a, py::handle b, bool transa, bool transb) {
        return ag::batch_matmul(to_variable(a), to_variable(b), transa, transb);
      },
      py::arg("a"), py::arg("b"), py::arg("transa") = false, py::arg("transb") = false);
  // Chainer's F.broadcast(*args): one Variable for one argument, else a tuple.
  f.def("broadcast", [](py::args args) -> py::object {
    std::vector<ag::Variable> xs;
    for (py::handle a : args) xs.push_back(to_variable(a));
    std::vector<ag::Variable> ys = ag::broadcast(xs);
    if (ys.size() == 1) return to_py(ys[0]);
    return to_py_tuple(ys);
  });
  f.def(
      "linear",
      [](py::handle x, py::handle W, py::handle b, int n_batch_axes) {
        return ag::linear(to_variable(x), to_variable(W), to_variable(b), n_batch_axes);
      },
      py::arg("x"), py::arg("W"), py::arg("b") = py::none(), py::arg("n_batch_axes") = 1);
  f.def(
      "softmax", [](py::handle x, int64_t axis) { return ag::softmax(to_variable(x), axis); }, py::arg("x"),
      py::arg("axis") = 1);
  f.def(
      "log_softmax", [](py::handle x, int64_t axis) { return ag::log_softmax(to_variable(x), axis); }, py::arg("x"),
      py::arg("axis") = 1);
  f.def(
      "mean_squared_error",
      [](py::handle a, py::handle b) { return ag::mean_squared_error(to_variable(a), to_variable(b)); }, py::arg("x0"),
      py::arg("x1"));
  f.def(
      "mean",
      [](py::handle x, py::handle axis, bool keepdims) {
        return ag::mean(to_variable(x), to_axes(axis), keepdims);
      },
      py::arg("x"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
  f.def(
      "get_item",
      [](py::handle x, py::handle key) {
        ag::Variable v = to_variable(x);
        return ag::get_item(v, index_components(key, v.device()));
      },
      py::arg("x"), py::arg("slices"));
  f.def(
      "select_item",
      [](py::handle x, py::handle t) { return ag::select_item(to_variable(x), to_data(t)); },
      py::arg("x"), py::arg("t"));
  f.def(
      "concat", [](py::handle xs, int64_t axis) { return ag::concat(to_variables(xs), axis); }, py::arg("xs"),
      py::arg("axis") = 1);
  f.def(
      "stack", [](py::handle xs, int64_t axis) { return ag::stack(to_variables(xs), axis); }, py::arg("xs"),
      py::arg("axis") = 0);
  f.def(
      "split_axis",
      [](py::handle x, py::handle sections, int64_t axis, bool force_tuple) -> py::object {
        std::vector<ag::Variable> parts = py::isinstance<py::int_>(sections)
                                              ? ag::split_axis(to_variable(x), py::cast<int64_t>(sections), axis)
                                              : ag::split_axis(to_variable(x), to_int_list(sections), axis);
        // Chainer: with force_tuple=False a single part is returned as itself.
        if (!force_tuple && parts.size() == 1) return to_py(parts[0]);
        return to_py_tuple(parts);
      },
      py::arg("x"), py::arg("indices_or_sections"), py::arg("axis"), py::arg("force_tuple") = true);
  f.def(
      "expand_dims", [](py::handle x, int64_t axis) { return ag::expand_dims(to_variable(x), axis); }, py::arg("x"),
      py::arg("axis"));
  f.def(
      "squeeze",
      [](py::handle x, py::handle axis) {
        if (axis.is_none()) return ag::squeeze(to_variable(x));
        return ag::squeeze(to_variable(x), to_int_list(axis));
      },
      py::arg("x"), py::arg("axis") = py::none());
  f.def(
      "where",
      [](py::handle condition, py::handle x, py::handle y) {
        // Chainer's condition may be a Variable (its data is used) or an array.
        return ag::where(to_data(condition), to_variable(x), to_variable(y));
      },
      py::arg("condition"), py::arg("x"), py::arg("y"));
  f.def("maximum", [](py::handle a, py::handle b) { return ag::maximum(to_variable(a), to_variable(b)); });
  f.def("minimum", [](py::handle a, py::handle b) { return ag::minimum(to_variable(a), to_variable(b)); });
  // Chainer's F.clip: a None bound does not clip on that side.
  f.def(
      "clip",
      [](py::handle x, std::optional<double> lo, std::optional<double> hi) {
        if (!lo && !hi) throw py::value_error("clip: x_min and x_max are both None; give at least one bound");
        const double inf = std::numeric_limits<double>::infinity();
        return ag::clip(to_variable(x), lo.value_or(-inf), hi.value_or(inf));
      },
      py::arg("x"), py::arg("x_min"), py::arg("x_max"));
  f.def(
      "logsumexp",
      [](py::handle x, py::handle axis) { return ag::logsumexp(to_variable(x), to_axes(axis)); },
      py::arg("x"), py::arg("axis") = py::none());
  f.def(
      "max",
      [](py::handle x, py::handle axis, bool keepdims) {
        return ag::max(to_variable(x), to_axes(axis), keepdims);
      },
      py::arg("x"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
  f.def(
      "min",
      [](py::handle x, py::handle axis, bool keepdims) {
        return ag::min(to_variable(x), to_axes(axis), keepdims);
      },
      py::arg("x"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
  f.def(
      "leaky_relu", [](py::handle x, double slope) { return ag::leaky_relu(to_variable(x), slope); }, py::arg("x"),
      py::arg("slope") = 0.2);
  f.def(
      "elu", [](py::handle x, double alpha) { return ag::elu(to_variable(x), alpha); }, py::arg("x"),
      py::arg("alpha") = 1.0);
  f.def(
      "selu", [](py::handle x, double alpha, double scale) { return ag::selu(to_variable(x), alpha, scale); },
      py::arg("x"), py::arg("alpha") = 1.6732632423543772, py::arg("scale") = 1.0507009873554805);
  f.def(
      "softplus", [](py::handle x, double beta) { return ag::softplus(to_variable(x), beta); }, py::arg("x"),
      py::arg("beta") = 1.0);
  f.def(
      "silu", [](py::handle x) { return ag::silu(to_variable(x)); }, py::arg("x"));
  f.def(
      "hard_sigmoid", [](py::handle x) { return ag::hard_sigmoid(to_variable(x)); }, py::arg("x"));
  f.def(
      "clipped_relu", [](py::handle x, double z) { return ag::clipped_relu(to_variable(x), z); }, py::arg("x"),
      py::arg("z") = 20.0);
  f.def(
      "copy", [](py::handle x, const std::string& device) { return ag::copy(to_variable(x), get_device(device)); },
      py::arg("x"), py::arg("dst"));
  f.def(
      "cast", [](py::handle x, py::handle dtype) { return ag::cast(to_variable(x), to_dtype_required(dtype)); },
      py::arg("x"), py::arg("typ"));
  f.def(
      "broadcast_to", [](py::handle x, py::handle shape) { return ag::broadcast_to(to_variable(x), shape_arg(shape)); },
      py::arg("x"), py::arg("shape"));
  f.def(
      "sum_to", [](py::handle x, py::handle shape) { return ag::sum_to(to_variable(x), shape_arg(shape)); },
      py::arg("x"), py::arg("shape"));
  f.def(
      "reshape", [](py::handle x, py::handle shape) { return ag::reshape(to_variable(x), shape_arg(shape)); },
      py::arg("x"), py::arg("shape"));
  f.def(
      "transpose",
      [](py::handle x, py::handle axes) {
        return ag::transpose(to_variable(x), axes.is_none() ? std::vector<int64_t>{} : to_int_list(axes));
      },
      py::arg("x"), py::arg("axes") = py::none());
  f.def(
      "sum",
      [](py::handle x, py::handle axis, bool keepdims) {
        return ag::sum(to_variable(x), to_axes(axis), keepdims);
      },
      py::arg("x"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
  bind_autograd_math(f);
  bind_autograd_norm(f);
  bind_autograd_array(f);
  bind_autograd_conv(f);
}

}  // namespace py_bind
}  // namespace kumo
