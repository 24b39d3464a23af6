// kumo._core.autograd._graph: the computational graph behind some variables,
// listed for kumo.autograd.computational_graph (DOT output, DumpGraph). The
// Python Variable/FunctionNode objects do not expose the graph's internal
// nodes, so the walk is done here over the engine's VariableNode and
// FunctionNode links.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "autograd/function_node.h"
#include "autograd/variable.h"
#include "bindings/convert.h"

namespace kumo {
namespace py_bind {

namespace ag = kumo::autograd;

namespace {

// Returns (variables, functions, edges): variables as (shape, dtype, name,
// Variable or None) tuples, functions as labels, and edges as
// (kind, variable index, function index) with kind 0 for input -> function
// and 1 for function -> output. Indexes are in discovery order (breadth
// first from the given outputs).
py::tuple graph_listing(py::handle outputs) {
  std::vector<std::shared_ptr<ag::VariableNode>> vars;
  std::vector<std::shared_ptr<ag::FunctionNode>> funcs;
  std::unordered_map<const ag::VariableNode*, size_t> var_index;
  std::unordered_map<const ag::FunctionNode*, size_t> func_index;
  std::vector<std::tuple<int, size_t, size_t>> edges;
  std::deque<std::shared_ptr<ag::FunctionNode>> pending;

  auto add_var = [&](const std::shared_ptr<ag::VariableNode>& node) {
    auto [it, inserted] = var_index.emplace(node.get(), vars.size());
    if (inserted) vars.push_back(node);
    return it->second;
  };
  auto add_func = [&](const std::shared_ptr<ag::FunctionNode>& f) {
    auto [it, inserted] = func_index.emplace(f.get(), funcs.size());
    if (inserted) {
      funcs.push_back(f);
      pending.push_back(f);
    }
    return it->second;
  };
  std::vector<py::handle> items;
  if (py::isinstance<ag::Variable>(outputs)) {
    items.push_back(outputs);
  } else {
    for (py::handle item : outputs) items.push_back(item);
  }
  for (py::handle item : items) {
    const ag::Variable& v = py::cast<const ag::Variable&>(item);
    add_var(v.node());
    if (const auto& creator = v.node()->creator()) add_func(creator);
  }
  while (!pending.empty()) {
    std::shared_ptr<ag::FunctionNode> f = pending.front();
    pending.pop_front();
    size_t fi = func_index.at(f.get());
    for (const auto& out : f->outputs()) {
      if (!out) continue;  // an output nobody holds any more
      edges.emplace_back(1, add_var(out), fi);
    }
    for (const auto& in : f->inputs()) {
      if (!in) continue;
      size_t vi = add_var(in);
      edges.emplace_back(0, vi, fi);
      if (const auto& creator = in->creator()) add_func(creator);
    }
  }

  py::list var_list;
  for (const auto& node : vars) {
    ag::Variable alive = node->variable();
    var_list.append(py::make_tuple(py::tuple(py::cast(node->shape().to_vector())), numpy_dtype(node->dtype()),
                                   node->name(), alive.defined() ? py::cast(alive) : py::none()));
  }
  py::list func_list;
  for (const auto& f : funcs) func_list.append(f->label());
  py::list edge_list;
  for (const auto& [kind, vi, fi] : edges) edge_list.append(py::make_tuple(kind, vi, fi));
  return py::make_tuple(var_list, func_list, edge_list);
}

}  // namespace

void bind_autograd_graph(py::module_& parent) {
  py::module_ m = parent.attr("autograd").cast<py::module_>();
  m.def("_graph", &graph_listing, py::arg("outputs"),
        "(variables, functions, edges) of the graph that produced `outputs` (a Variable or a sequence of them)");
}

}  // namespace py_bind
}  // namespace kumo
