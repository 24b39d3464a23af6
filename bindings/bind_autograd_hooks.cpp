// kumo._core.autograd: function hooks (autograd/function_hook.h). Python
// subclasses of FunctionHook run inside the C++ engine; every hook is a
// context manager (`with TimerHook() as h:`) active on the entering thread.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/function_hook.h"
#include "autograd/function_node.h"
#include "bindings/convert.h"

namespace kumo {
namespace py_bind {

namespace ag = kumo::autograd;

namespace {

py::object node_object(const ag::FunctionNode& f) {
  return py::cast(std::const_pointer_cast<ag::FunctionNode>(f.shared_from_this()));
}

py::tuple arrays_tuple(const std::vector<Array>& arrays) {
  py::tuple t(arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) t[i] = arrays[i].defined() ? new_ndarray(Array(arrays[i])) : py::none();
  return t;
}

py::tuple variables_tuple(const std::vector<ag::Variable>& vars) {
  py::tuple t(vars.size());
  for (size_t i = 0; i < vars.size(); ++i) t[i] = vars[i].defined() ? py::cast(vars[i]) : py::none();
  return t;
}

class PyFunctionHook : public ag::FunctionHook, public py::trampoline_self_life_support {
 public:
  std::string name() const override {
    py::gil_scoped_acquire gil;
    py::object self = py::cast(this);
    py::object n = py::getattr(self.attr("__class__"), "name", py::none());
    if (py::isinstance<py::str>(n)) return py::cast<std::string>(n);
    return py::cast<std::string>(self.attr("__class__").attr("__name__"));
  }
  void forward_preprocess(const ag::FunctionNode& f, const std::vector<Array>& in) override {
    call("forward_preprocess", node_object(f), arrays_tuple(in));
  }
  void forward_postprocess(const ag::FunctionNode& f, const std::vector<Array>& in) override {
    call("forward_postprocess", node_object(f), arrays_tuple(in));
  }
  void backward_preprocess(const ag::FunctionNode& f, const std::vector<ag::Variable>& gy) override {
    call("backward_preprocess", node_object(f), variables_tuple(gy));
  }
  void backward_postprocess(const ag::FunctionNode& f, const std::vector<ag::Variable>& gy) override {
    call("backward_postprocess", node_object(f), variables_tuple(gy));
  }

 private:
  void call(const char* method, py::object function, py::tuple data) {
    py::gil_scoped_acquire gil;
    py::function override = py::get_override(static_cast<const ag::FunctionHook*>(this), method);
    if (override) override(function, data);
  }
};

// The scope a `with hook:` block holds.
struct HookScope {
  std::unique_ptr<ag::FunctionHookScope> scope;
};

}  // namespace

void bind_autograd_hooks(py::module_& m) {
  py::class_<HookScope>(m, "_FunctionHookScope")
      .def(py::init([](std::shared_ptr<ag::FunctionHook> hook) {
        return HookScope{std::make_unique<ag::FunctionHookScope>(std::move(hook))};
      }))
      .def("close", [](HookScope& s) { s.scope.reset(); });

  py::class_<ag::FunctionHook, PyFunctionHook, py::smart_holder>(m, "FunctionHook", py::dynamic_attr())
      .def(py::init<>())
      .def_property_readonly("name", &ag::FunctionHook::name);

  py::class_<ag::TimerHook, ag::FunctionHook, py::smart_holder>(m, "TimerHook", py::dynamic_attr())
      .def(py::init<>())
      .def_property_readonly("call_history",
                             [](const ag::TimerHook& h) {
                               py::list out;
                               for (const auto& c : h.call_history()) out.append(py::make_tuple(c.label, c.seconds));
                               return out;
                             })
      .def("total_time", &ag::TimerHook::total_time)
      .def("summary",
           [](const ag::TimerHook& h) {
             py::dict out;
             for (const auto& kv : h.summary()) {
               py::dict entry;
               entry["elapsed_time"] = kv.second.seconds;
               entry["occurrence"] = kv.second.occurrence;
               out[py::str(kv.first)] = entry;
             }
             return out;
           })
      .def("_report", [](const ag::TimerHook& h, const std::string& unit) {
        std::ostringstream s;
        h.print_report(s, unit);
        return s.str();
      });

  py::class_<ag::PrintHook, ag::FunctionHook, py::smart_holder>(m, "PrintHook", py::dynamic_attr())
      .def(py::init([](py::object write, std::string sep, std::string end) {
             auto sink = [write](const std::string& text) {
               py::gil_scoped_acquire gil;
               write(text);
             };
             return std::make_unique<ag::PrintHook>(sink, std::move(sep), std::move(end));
           }),
           py::arg("write"), py::arg("sep") = "", py::arg("end") = "\n");
}

}  // namespace py_bind
}  // namespace kumo
