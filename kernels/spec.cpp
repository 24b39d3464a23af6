#include "kernels/spec.h"

#include <atomic>
#include <cctype>
#include <sstream>

#include "core/errors.h"

namespace kumo {
namespace kernels {

uint64_t next_spec_id() {
  static std::atomic<uint64_t> counter{1};
  return counter.fetch_add(1);
}

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace

std::vector<ParamSpec> parse_params(const std::string& params) {
  std::vector<ParamSpec> out;
  std::string trimmed;
  for (char c : params)
    if (!std::isspace(static_cast<unsigned char>(c))) trimmed += c;
  if (trimmed.empty()) return out;
  for (const std::string& part : split(params, ',')) {
    std::istringstream is(part);
    std::vector<std::string> words;
    std::string w;
    while (is >> w) words.push_back(w);
    ParamSpec p;
    size_t k = 0;
    while (k < words.size() && (words[k] == "raw" || words[k] == "const")) {
      if (words[k] == "raw") p.raw = true;
      else p.is_const = true;
      ++k;
    }
    if (words.size() - k != 2 || !is_identifier(words[k + 1]))
      throw ValueError("Syntax error in kernel parameter list: '" + part + "' (expected '[raw] TYPE NAME')");
    p.type_name = words[k];
    p.name = words[k + 1];
    Dtype d;
    if (try_dtype_from_name(p.type_name, &d)) {
      p.dtype = d;
      p.is_generic = false;
    } else if (is_identifier(p.type_name)) {
      p.is_generic = true;
    } else {
      throw ValueError("Invalid type in kernel parameter list: '" + p.type_name + "'");
    }
    for (const ParamSpec& q : out)
      if (q.name == p.name) throw ValueError("Duplicate kernel parameter name: '" + p.name + "'");
    out.push_back(p);
  }
  return out;
}

std::shared_ptr<ElementwiseSpec> ElementwiseSpec::create(const std::string& name, const std::string& in_params,
                                                         const std::string& out_params, const std::string& operation,
                                                         const std::string& preamble,
                                                         const std::vector<std::string>& options,
                                                         const std::string& loop_prep, const std::string& after_loop) {
  auto s = std::make_shared<ElementwiseSpec>();
  s->loop_prep = loop_prep;
  s->after_loop = after_loop;
  s->name = name;
  s->in_params = parse_params(in_params);
  s->out_params = parse_params(out_params);
  for (const ParamSpec& o : s->out_params)
    for (const ParamSpec& i : s->in_params)
      if (o.name == i.name) throw ValueError("Duplicate kernel parameter name: '" + o.name + "'");
  s->operation = operation;
  s->preamble = preamble;
  s->options = options;
  s->id = next_spec_id();
  if (!is_identifier(name)) throw ValueError("kernel name must be an identifier (got '" + name + "')");
  return s;
}

std::shared_ptr<ReductionSpec> ReductionSpec::create(const std::string& name, const std::string& in_params,
                                                     const std::string& out_params, const std::string& map_expr,
                                                     const std::string& reduce_expr, const std::string& post_map_expr,
                                                     const std::string& identity, const std::string& reduce_type,
                                                     const std::string& preamble,
                                                     const std::vector<std::string>& options) {
  auto s = std::make_shared<ReductionSpec>();
  s->name = name;
  s->in_params = parse_params(in_params);
  s->out_params = parse_params(out_params);
  if (s->out_params.empty()) throw ValueError("a reduction kernel needs at least one output parameter");
  for (const ParamSpec& p : s->in_params)
    if (p.raw) throw ValueError("raw input parameters are not supported by reduction kernels");
  s->map_expr = map_expr;
  s->reduce_expr = reduce_expr;
  s->post_map_expr = post_map_expr;
  s->identity = identity;
  s->reduce_type = reduce_type;
  s->preamble = preamble;
  s->options = options;
  s->id = next_spec_id();
  if (!is_identifier(name)) throw ValueError("kernel name must be an identifier (got '" + name + "')");
  return s;
}

}  // namespace kernels
}  // namespace kumo
