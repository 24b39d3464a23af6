// numpy.einsum / numpy.einsum_path; see einsum.h.
//
// A subscript label is an int: a letter is its character code, and the axes
// an ellipsis covers are -n..-1, right-aligned so that they broadcast across
// operands as NumPy's ellipsis axes do. Each operand first loses its repeated
// labels (diagonal views), its length-1 axes that broadcast against a longer
// axis of the same label (indexed away: the value is the same along it), and
// the labels nothing else needs (summed). The operands are then contracted in
// the order of the contraction path, two at a time; a pair with summed labels
// is one batched matmul once its labels are grouped into batch (both operands,
// still needed), contracted (both, no longer needed) and free ones (one
// operand), all transposes and reshapes being views where the layout allows.
#include "linalg/einsum.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>

#include "core/errors.h"
#include "linalg/products.h"
#include "routines/assignment.h"
#include "routines/elementwise.h"
#include "routines/reduction.h"

namespace kumo {

EinsumOptimize EinsumOptimize::from_name(const std::string& name, std::optional<int64_t> memory_limit) {
  if (name == "greedy") return greedy(memory_limit);
  if (name == "optimal") return optimal(memory_limit);
  throw ValueError("einsum: Path name " + name + " not found (expected 'greedy' or 'optimal')");
}

namespace {

using Labels = std::vector<int>;
using LabelSet = std::set<int>;
using SizeMap = std::map<int, int64_t>;
using Path = std::vector<std::vector<int64_t>>;

// ---------------------------------------------------------------------------------- parsing
struct Parsed {
  std::vector<Labels> inputs;  // one label per axis of each operand
  Labels output;
  int n_ellipsis = 0;  // axes the widest ellipsis covers
};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string label_name(int label) { return label >= 0 ? std::string(1, static_cast<char>(label)) : "..."; }

// One comma-separated term: its letters and where its ellipsis is (-1: none).
// `where` names the term in errors ("operand 0", "the output").
Labels parse_term(std::string_view term, const std::string& where, int* ellipsis_at) {
  Labels letters;
  *ellipsis_at = -1;
  for (size_t i = 0; i < term.size();) {
    const char c = term[i];
    if (c == '.') {
      if (term.substr(i, 3) != "..." || *ellipsis_at >= 0)
        throw ValueError("einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in " +
                         where);
      *ellipsis_at = static_cast<int>(letters.size());
      i += 3;
      continue;
    }
    if (!is_letter(c))
      throw ValueError(std::string("invalid subscript '") + c +
                       "' in einstein sum subscripts string, subscripts must be letters");
    letters.push_back(static_cast<unsigned char>(c));
    ++i;
  }
  return letters;
}

Parsed parse(std::string_view subscripts, const std::vector<int>& ndims) {
  std::string s;
  for (char c : subscripts)
    if (c != ' ') s += c;
  // The inputs end at the first '-', which must start the "->".
  const size_t dash = s.find('-');
  const bool explicit_out = dash != std::string::npos;
  const std::string in = s.substr(0, dash);

  std::vector<std::string_view> terms;
  for (size_t start = 0;;) {
    const size_t comma = in.find(',', start);
    terms.emplace_back(std::string_view(in).substr(start, comma == std::string::npos ? std::string::npos
                                                                                     : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  // Terms are checked left to right, each before the count reaches it, so
  // the first mistake in the string is the one reported, as in NumPy.
  Parsed p;
  for (size_t k = 0; k < ndims.size(); ++k) {
    if (k + 1 < ndims.size() && k + 1 == terms.size())
      throw ValueError("more operands provided to einstein sum function than specified in the subscripts string");
    if (k + 1 == ndims.size() && terms.size() > ndims.size())
      throw ValueError("fewer operands provided to einstein sum function than specified in the subscripts string");
    int at;
    Labels letters = parse_term(terms[k], "operand " + std::to_string(k), &at);
    const int nd = ndims[k], extra = nd - static_cast<int>(letters.size());
    if (extra < 0)
      throw ValueError("einstein sum subscripts string contains too many subscripts for operand " +
                       std::to_string(k));
    if (at < 0) {
      if (extra > 0)
        throw ValueError(
            "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to "
            "broadcast the extra dimensions.");
      p.inputs.push_back(letters);
      continue;
    }
    Labels full(letters.begin(), letters.begin() + at);
    for (int e = -extra; e < 0; ++e) full.push_back(e);
    full.insert(full.end(), letters.begin() + at, letters.end());
    p.inputs.push_back(full);
    p.n_ellipsis = std::max(p.n_ellipsis, extra);
  }

  if (explicit_out && (dash + 1 >= s.size() || s[dash + 1] != '>'))
    throw ValueError("einstein sum subscript string does not contain proper '->' output specified");
  const std::string out = explicit_out ? s.substr(dash + 2) : std::string();

  std::map<int, int> counts;
  for (const Labels& ls : p.inputs)
    for (int l : ls)
      if (l >= 0) ++counts[l];
  if (!explicit_out) {
    for (int e = -p.n_ellipsis; e < 0; ++e) p.output.push_back(e);
    for (const auto& [l, c] : counts)
      if (c == 1) p.output.push_back(l);
    return p;
  }
  int at;
  const Labels letters = parse_term(out, "the output", &at);
  for (size_t i = 0; i < letters.size(); ++i) {
    if (std::find(letters.begin(), letters.begin() + i, letters[i]) != letters.begin() + i)
      throw ValueError("einstein sum subscripts string includes output subscript '" + label_name(letters[i]) +
                       "' multiple times");
    if (!counts.count(letters[i]))
      throw ValueError("einstein sum subscripts string included output subscript '" + label_name(letters[i]) +
                       "' which never appeared in an input");
  }
  if (at < 0) {
    if (p.n_ellipsis > 0)
      throw ValueError(
          "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to "
          "broadcast the extra dimensions.");
    p.output = letters;
  } else {
    p.output.assign(letters.begin(), letters.begin() + at);
    for (int e = -p.n_ellipsis; e < 0; ++e) p.output.push_back(e);
    p.output.insert(p.output.end(), letters.begin() + at, letters.end());
  }
  return p;
}

// Labels of each operand once its repeated labels are diagonals: the first
// occurrences in order, then each collapsed label (Array::diagonal appends
// the diagonal axis). `shapes` get the same treatment; sizes are checked.
struct Collapsed {
  Labels labels;
  Shape shape;
  std::vector<std::pair<int, int>> diagonals;  // (axis1, axis2) to take, in order
};

Collapsed collapse(const Labels& labels, const Shape& shape, size_t operand) {
  Collapsed c{labels, shape, {}};
  for (;;) {
    int i = -1, j = -1;
    for (int a = 0; a < static_cast<int>(c.labels.size()) && i < 0; ++a)
      for (int b = a + 1; b < static_cast<int>(c.labels.size()); ++b)
        if (c.labels[a] == c.labels[b]) {
          i = a;
          j = b;
          break;
        }
    if (i < 0) return c;
    if (c.shape[i] != c.shape[j])
      throw ValueError("dimensions in operand " + std::to_string(operand) + " for collapsing index '" +
                       label_name(c.labels[i]) + "' don't match (" + std::to_string(c.shape[i]) +
                       " != " + std::to_string(c.shape[j]) + ")");
    const int label = c.labels[i];
    const int64_t n = c.shape[i];
    c.diagonals.emplace_back(i, j);
    c.labels.erase(c.labels.begin() + j);
    c.labels.erase(c.labels.begin() + i);
    c.labels.push_back(label);
    c.shape.erase(j);
    c.shape.erase(i);
    c.shape.push_back(n);
  }
}

std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (int i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

// NumPy's message shows every operand (and out) in the iteration space: the
// output labels, then the summed ones; "newaxis" where an operand lacks a
// label, leading ones left out.
ValueError broadcast_error(const std::vector<Shape>& originals, const std::vector<Collapsed>& ops,
                           const Labels& output, const Array* out) {
  Labels space = output;
  LabelSet summed;
  for (const Collapsed& c : ops)
    for (int l : c.labels)
      if (std::find(output.begin(), output.end(), l) == output.end()) summed.insert(l);
  space.insert(space.end(), summed.begin(), summed.end());
  auto remapped = [&](const Labels& labels, const Shape& shape) {
    std::vector<std::string> parts;
    for (int l : space) {
      auto it = std::find(labels.begin(), labels.end(), l);
      if (it == labels.end()) {
        if (!parts.empty()) parts.push_back("newaxis");
      } else {
        parts.push_back(std::to_string(shape[static_cast<int>(it - labels.begin())]));
      }
    }
    std::string r = "(";
    for (size_t i = 0; i < parts.size(); ++i) r += (i ? "," : "") + parts[i];
    return r + ")";
  };
  std::string msg = "operands could not be broadcast together with remapped shapes [original->remapped]: ";
  for (size_t k = 0; k < ops.size(); ++k) msg += shape_str(originals[k]) + "->" + remapped(ops[k].labels, ops[k].shape) + " ";
  if (out) msg += shape_str(out->shape()) + "->" + remapped(output, out->shape()) + " ";
  return ValueError(msg);
}

// The length of every label; length-1 axes broadcast.
SizeMap label_sizes(const std::vector<Collapsed>& ops, const std::vector<Shape>& originals, const Labels& output) {
  SizeMap sizes;
  for (const Collapsed& c : ops)
    for (size_t i = 0; i < c.labels.size(); ++i) {
      const int64_t d = c.shape[static_cast<int>(i)];
      auto it = sizes.find(c.labels[i]);
      if (it == sizes.end() || it->second == 1)
        sizes[c.labels[i]] = d;
      else if (d != 1 && d != it->second)
        throw broadcast_error(originals, ops, output, nullptr);
    }
  return sizes;
}

// ---------------------------------------------------------------------------------- path search
// numpy.einsum_path's cost model and its greedy and optimal searches, over
// the sets of labels of the operands.
// Costs of huge contractions saturate rather than wrap (NumPy's are
// unbounded Python ints); every realistic one is exact.
int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}
int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}

int64_t size_of(const LabelSet& s, const SizeMap& sizes) {
  int64_t n = 1;
  for (int l : s) n = sat_mul(n, sizes.at(l));
  return n;
}

// Multiply-adds of contracting `num_terms` operands over the labels `all`;
// one more per element when some label is summed away.
int64_t flop_count(const LabelSet& all, bool summed, size_t num_terms, const SizeMap& sizes) {
  int64_t factor = std::max<int64_t>(1, static_cast<int64_t>(num_terms) - 1) + (summed ? 1 : 0);
  return sat_mul(size_of(all, sizes), factor);
}

struct Contraction {
  LabelSet result, removed, all;
  std::vector<LabelSet> remaining;  // the untouched sets, then the result
};

Contraction find_contraction(const std::vector<int64_t>& positions, const std::vector<LabelSet>& sets,
                             const LabelSet& output) {
  Contraction c;
  LabelSet kept = output;
  for (size_t i = 0; i < sets.size(); ++i) {
    if (std::find(positions.begin(), positions.end(), static_cast<int64_t>(i)) != positions.end()) {
      c.all.insert(sets[i].begin(), sets[i].end());
    } else {
      c.remaining.push_back(sets[i]);
      kept.insert(sets[i].begin(), sets[i].end());
    }
  }
  for (int l : c.all) (kept.count(l) ? c.result : c.removed).insert(l);
  c.remaining.push_back(c.result);
  return c;
}

std::vector<int64_t> all_positions(size_t n) {
  std::vector<int64_t> r(n);
  std::iota(r.begin(), r.end(), 0);
  return r;
}

std::vector<std::pair<int64_t, int64_t>> all_pairs(size_t n) {
  std::vector<std::pair<int64_t, int64_t>> r;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) r.emplace_back(i, j);
  return r;
}

bool disjoint(const LabelSet& a, const LabelSet& b) {
  for (int l : a)
    if (b.count(l)) return false;
  return true;
}

// The greedy search: at each step the pair whose contraction frees the most
// elements (then the cheapest), among pairs sharing a label when there are
// any, within the memory limit and the cost of doing it all at once. Pairs
// scored in earlier steps keep their scores (only pairs with the new
// intermediate are scored anew), which is what makes it match NumPy's choices.
Path greedy_path(std::vector<LabelSet> sets, const LabelSet& output, const SizeMap& sizes, int64_t memory_limit) {
  if (sets.size() == 1) return {{0}};
  if (sets.size() == 2) return {{0, 1}};
  const Contraction whole = find_contraction(all_positions(sets.size()), sets, output);
  const int64_t naive_cost = flop_count(whole.all, !whole.removed.empty(), sets.size(), sizes);

  struct Candidate {
    int64_t neg_removed, cost;
    std::pair<int64_t, int64_t> pos;
    std::vector<LabelSet> sets;
  };
  std::vector<Candidate> known;
  int64_t path_cost = 0;
  Path path;
  auto score = [&](std::pair<int64_t, int64_t> pos) -> std::optional<Candidate> {
    Contraction c = find_contraction({pos.first, pos.second}, sets, output);
    const int64_t new_size = size_of(c.result, sizes);
    if (new_size > memory_limit) return std::nullopt;
    const int64_t removed = sat_add(size_of(sets[pos.first], sizes), size_of(sets[pos.second], sizes)) - new_size;
    const int64_t cost = flop_count(c.all, !c.removed.empty(), 2, sizes);
    if (sat_add(path_cost, cost) > naive_cost) return std::nullopt;
    return Candidate{-removed, cost, pos, std::move(c.remaining)};
  };
  std::vector<std::pair<int64_t, int64_t>> fresh = all_pairs(sets.size());
  const size_t n = sets.size();
  for (size_t iteration = 0; iteration + 1 < n; ++iteration) {
    for (auto pos : fresh) {
      if (disjoint(sets[pos.first], sets[pos.second])) continue;
      if (auto c = score(pos)) known.push_back(std::move(*c));
    }
    if (known.empty()) {
      for (auto pos : all_pairs(sets.size()))
        if (auto c = score(pos)) known.push_back(std::move(*c));
      if (known.empty()) {
        path.push_back(all_positions(sets.size()));
        break;
      }
    }
    size_t best = 0;
    for (size_t i = 1; i < known.size(); ++i)
      if (std::make_pair(known[i].neg_removed, known[i].cost) <
          std::make_pair(known[best].neg_removed, known[best].cost))
        best = i;
    Candidate chosen = known[best];
    const auto [bx, by] = chosen.pos;
    // The remaining candidates, renumbered for the list without bx, by and
    // with the new intermediate before each candidate's own result.
    std::vector<Candidate> next;
    for (Candidate& c : known) {
      const auto [x, y] = c.pos;
      if (x == bx || x == by || y == bx || y == by) continue;
      c.sets.erase(c.sets.begin() + (by - (by > x) - (by > y)));
      c.sets.erase(c.sets.begin() + (bx - (bx > x) - (bx > y)));
      c.sets.insert(c.sets.end() - 1, chosen.sets.back());
      c.pos = {x - (x > bx) - (x > by), y - (y > bx) - (y > by)};
      next.push_back(std::move(c));
    }
    known = std::move(next);
    sets = chosen.sets;
    fresh.clear();
    for (size_t i = 0; i + 1 < sets.size(); ++i) fresh.emplace_back(i, sets.size() - 1);
    path.push_back({chosen.pos.first, chosen.pos.second});
    path_cost = sat_add(path_cost, chosen.cost);
  }
  return path;
}

// The optimal search: every order of pairwise contractions within the
// memory limit, breadth first; the cheapest total (the first found among
// equals) wins.
Path optimal_path(const std::vector<LabelSet>& sets, const LabelSet& output, const SizeMap& sizes,
                  int64_t memory_limit) {
  struct Partial {
    int64_t cost;
    Path path;
    std::vector<LabelSet> remaining;
  };
  std::vector<Partial> full{{0, {}, sets}};
  const size_t n = sets.size();
  auto cheapest = [](const std::vector<Partial>& v) {
    size_t best = 0;
    for (size_t i = 1; i < v.size(); ++i)
      if (v[i].cost < v[best].cost) best = i;
    return v[best].path;
  };
  for (size_t iteration = 0; iteration + 1 < n; ++iteration) {
    std::vector<Partial> next;
    for (const Partial& p : full)
      for (auto pos : all_pairs(n - iteration)) {
        Contraction c = find_contraction({pos.first, pos.second}, p.remaining, output);
        if (size_of(c.result, sizes) > memory_limit) continue;
        Partial q{sat_add(p.cost, flop_count(c.all, !c.removed.empty(), 2, sizes)), p.path, std::move(c.remaining)};
        q.path.push_back({pos.first, pos.second});
        next.push_back(std::move(q));
      }
    if (next.empty()) {
      Path path = cheapest(full);
      path.push_back(all_positions(n - iteration));
      return path;
    }
    full = std::move(next);
  }
  return cheapest(full);
}

// The plan of an einsum: the path and, for einsum_path, NumPy's report.
struct Plan {
  Path path;
  std::string report;
};

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// printf's %Ns for strings of any length.
std::string right(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

Plan make_plan(const Parsed& p, const SizeMap& sizes, const EinsumOptimize& optimize, bool want_report) {
  std::vector<LabelSet> sets;
  LabelSet indices;
  for (const Labels& ls : p.inputs) {
    sets.emplace_back(ls.begin(), ls.end());
    indices.insert(ls.begin(), ls.end());
  }
  const LabelSet output(p.output.begin(), p.output.end());
  const size_t n = sets.size();
  int64_t max_size = size_of(output, sizes);
  for (const Labels& ls : p.inputs) {
    int64_t s = 1;
    for (int l : ls) s = sat_mul(s, sizes.at(l));
    max_size = std::max(max_size, s);
  }

  Plan plan;
  using Kind = EinsumOptimize::Kind;
  const int64_t limit = optimize.memory_limit() ? *optimize.memory_limit() : max_size;
  if (optimize.kind() == Kind::kPath) {
    plan.path = optimize.steps();
  } else if (optimize.kind() == Kind::kNone || n <= 2 || indices == output) {
    plan.path = {all_positions(n)};
  } else if (optimize.kind() == Kind::kOptimal) {
    plan.path = optimal_path(sets, output, sizes, limit);
  } else {
    plan.path = greedy_path(sets, output, sizes, limit);
  }

  // The letters NumPy prints: ellipsis axes take unused letters, the last
  // axis the last one.
  std::string unused;
  for (char c : std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
    if (!indices.count(static_cast<unsigned char>(c)) && !output.count(static_cast<unsigned char>(c))) unused += c;
  auto letter = [&](int l) { return l >= 0 ? static_cast<char>(l) : unused[unused.size() + l]; };
  auto term = [&](const Labels& ls) {
    std::string s;
    for (int l : ls) s += letter(l);
    return s;
  };
  std::vector<std::string> inputs;
  for (const Labels& ls : p.inputs) inputs.push_back(term(ls));
  const std::string out_str = term(p.output);

  std::vector<int64_t> costs, scales, result_sizes;
  std::vector<std::string> lines;
  for (size_t step = 0; step < plan.path.size(); ++step) {
    std::vector<int64_t> inds = plan.path[step];
    std::sort(inds.rbegin(), inds.rend());
    for (size_t i = 0; i < inds.size(); ++i)
      if (inds[i] < 0 || inds[i] >= static_cast<int64_t>(sets.size()) || (i && inds[i] == inds[i - 1]))
        throw ValueError("einsum_path: step " + std::to_string(step) + " of the contraction path names operand " +
                         std::to_string(inds[i]) + " of " + std::to_string(sets.size()) +
                         " (positions must be distinct and in range)");
    Contraction c = find_contraction(inds, sets, output);
    sets = c.remaining;
    if (!want_report) continue;
    costs.push_back(flop_count(c.all, !c.removed.empty(), inds.size(), sizes));
    scales.push_back(static_cast<int64_t>(c.all.size()));
    result_sizes.push_back(size_of(c.result, sizes));
    std::string current;
    for (size_t i = 0; i < inds.size(); ++i) {
      current += (i ? "," : "") + inputs[inds[i]];
      inputs.erase(inputs.begin() + inds[i]);
    }
    std::string result;
    if (step + 1 == plan.path.size()) {
      result = out_str;
    } else {
      std::vector<std::pair<int64_t, char>> by_size;
      for (int l : c.result) by_size.emplace_back(sizes.at(l), letter(l));
      std::sort(by_size.begin(), by_size.end());
      for (auto& [s, ch] : by_size) result += ch;
    }
    inputs.push_back(result);
    std::string remaining;
    for (size_t i = 0; i < inputs.size(); ++i) remaining += (i ? "," : "") + inputs[i];
    lines.push_back("\n" + right(std::to_string(scales.back()), 4) + "    " + right(current + "->" + result, 24) + " " +
                    right(remaining + "->" + out_str, 40));
  }
  if (sets.size() != 1)
    throw RuntimeError("Invalid einsum_path is specified: " + std::to_string(sets.size() - 1) +
                       " more operands has to be contracted.");
  if (!want_report) return plan;

  size_t set_sizes = 0;
  std::string all_inputs;
  for (size_t k = 0; k < p.inputs.size(); ++k) {
    set_sizes += LabelSet(p.inputs[k].begin(), p.inputs[k].end()).size();
    all_inputs += (k ? "," : "") + term(p.inputs[k]);
  }
  const int64_t naive = flop_count(indices, set_sizes > indices.size(), n, sizes);
  int64_t optimized = 1;
  for (int64_t c : costs) optimized = sat_add(optimized, c);
  const int64_t max_scale = scales.empty() ? 0 : *std::max_element(scales.begin(), scales.end());
  const int64_t largest = result_sizes.empty() ? 0 : *std::max_element(result_sizes.begin(), result_sizes.end());
  std::string r = "  Complete contraction:  " + all_inputs + "->" + out_str + "\n";
  r += "         Naive scaling:  " + std::to_string(indices.size()) + "\n";
  r += "     Optimized scaling:  " + std::to_string(max_scale) + "\n";
  r += "      Naive FLOP count:  " + format("%.3e", static_cast<double>(naive)) + "\n";
  r += "  Optimized FLOP count:  " + format("%.3e", static_cast<double>(optimized)) + "\n";
  r += "   Theoretical speedup:  " + format("%3.3f", static_cast<double>(naive) / static_cast<double>(optimized)) + "\n";
  r += "  Largest intermediate:  " + format("%.3e", static_cast<double>(largest)) + " elements\n";
  r += std::string(74, '-') + "\n";
  r += right("scaling", 6) + " " + right("current", 24) + " " + right("remaining", 40) + "\n" + std::string(74, '-');
  for (const std::string& line : lines) r += line;
  plan.report = std::move(r);
  return plan;
}

// ---------------------------------------------------------------------------------- evaluation
struct Term {
  Array x;
  Labels labels;
};

bool contains(const Labels& ls, int l) { return std::find(ls.begin(), ls.end(), l) != ls.end(); }

Array transposed_to(const Array& x, const Labels& labels, const Labels& order) {
  std::vector<int64_t> perm;
  bool identity = true;
  for (int l : order) {
    perm.push_back(std::find(labels.begin(), labels.end(), l) - labels.begin());
    identity &= perm.back() == static_cast<int64_t>(perm.size() - 1);
  }
  return identity ? x : x.transpose(perm);
}

// Sums the labels of t that keep (plus the labels of `other`) does not name.
Term sum_unneeded(Term t, const LabelSet& keep, const Labels* other, Dtype cdt) {
  std::vector<int64_t> axes;
  Labels left;
  for (size_t i = 0; i < t.labels.size(); ++i) {
    const int l = t.labels[i];
    if (keep.count(l) || (other && contains(*other, l)))
      left.push_back(l);
    else
      axes.push_back(static_cast<int64_t>(i));
  }
  if (axes.empty()) return t;
  return Term{sum(t.x, Axes(axes), ReduceOptions().dtype(cdt)), left};
}

using linalg::detail::is_blas_dtype;

// Contracts two operands; the result has the labels of either that `keep` names.
Term contract_pair(Term a, Term b, const LabelSet& keep, const SizeMap& sizes, Dtype cdt) {
  a = sum_unneeded(std::move(a), keep, &b.labels, cdt);
  b = sum_unneeded(std::move(b), keep, &a.labels, cdt);
  const Array ax = a.x.astype(cdt, Order::kK, false), bx = b.x.astype(cdt, Order::kK, false);
  Labels batch, contracted, free_a, free_b;
  for (int l : a.labels) {
    if (!contains(b.labels, l))
      free_a.push_back(l);
    else
      (keep.count(l) ? batch : contracted).push_back(l);
  }
  for (int l : b.labels)
    if (!contains(a.labels, l)) free_b.push_back(l);
  auto extents = [&](const Labels& ls) {
    Shape s;
    for (int l : ls) s.push_back(sizes.at(l));
    return s;
  };
  auto cat = [](Labels x, const Labels& y) {
    x.insert(x.end(), y.begin(), y.end());
    return x;
  };
  auto cat_shape = [](Shape x, const Shape& y) {
    for (int64_t v : y) x.push_back(v);
    return x;
  };
  auto product = [](const Shape& s) { return shape_size(s); };
  const Shape bs = extents(batch), sa = extents(free_a), sb = extents(free_b), sk = extents(contracted);
  const Labels result = cat(cat(batch, free_a), free_b);
  const int nb = bs.size(), nfa = sa.size(), nfb = sb.size();
  if (contracted.empty()) {
    // Nothing summed: a broadcast elementwise product.
    std::vector<int64_t> tail_a, mid_b;
    for (int i = 0; i < nfb; ++i) tail_a.push_back(nb + nfa + i);
    for (int i = 0; i < nfa; ++i) mid_b.push_back(nb + i);
    Array x = transposed_to(ax, a.labels, cat(batch, free_a)), y = transposed_to(bx, b.labels, cat(batch, free_b));
    if (!tail_a.empty()) x = x.expand_dims(tail_a);
    if (!mid_b.empty()) y = y.expand_dims(mid_b);
    return Term{multiply(x, y), result};
  }
  const int64_t M = product(sa), N = product(sb), K = product(sk);
  if (M == 1 && N == 1 && is_blas_dtype(cdt)) {
    // Stacked dot products: one tiny GEMM per batch element is all overhead.
    Array x = transposed_to(ax, a.labels, cat(cat(batch, free_a), contracted)).reshape(cat_shape(bs, {K}));
    Array y = transposed_to(bx, b.labels, cat(cat(batch, free_b), contracted)).reshape(cat_shape(bs, {K}));
    Array r = sum(multiply(x, y), Axes(int64_t{-1}), ReduceOptions().dtype(cdt));
    return Term{r.reshape(cat_shape(cat_shape(bs, sa), sb)), result};
  }
  Array a3 = transposed_to(ax, a.labels, cat(cat(batch, free_a), contracted)).reshape(cat_shape(bs, {M, K}));
  Array b3 = transposed_to(bx, b.labels, cat(cat(batch, contracted), free_b)).reshape(cat_shape(bs, {K, N}));
  return Term{matmul(a3, b3).reshape(cat_shape(cat_shape(bs, sa), sb)), result};
}

LabelSet labels_of(const std::vector<Term>& terms, const LabelSet& base) {
  LabelSet s = base;
  for (const Term& t : terms) s.insert(t.labels.begin(), t.labels.end());
  return s;
}

// Contracts the operands of one path step; `keep` are the labels needed
// after it. More than two are paired smallest intermediate first.
Term contract_step(std::vector<Term> picked, const LabelSet& keep, const SizeMap& sizes, Dtype cdt) {
  if (picked.size() == 1) return sum_unneeded(std::move(picked[0]), keep, nullptr, cdt);
  while (picked.size() > 1) {
    size_t bi = 0, bj = 1;
    if (picked.size() > 2) {
      std::pair<int64_t, int64_t> best{std::numeric_limits<int64_t>::max(), 0};
      for (size_t i = 0; i < picked.size(); ++i)
        for (size_t j = i + 1; j < picked.size(); ++j) {
          std::vector<Term> others;
          for (size_t k = 0; k < picked.size(); ++k)
            if (k != i && k != j) others.push_back(picked[k]);
          const LabelSet k2 = labels_of(others, keep);
          LabelSet all(picked[i].labels.begin(), picked[i].labels.end());
          all.insert(picked[j].labels.begin(), picked[j].labels.end());
          LabelSet res;
          for (int l : all)
            if (k2.count(l)) res.insert(l);
          const std::pair<int64_t, int64_t> key{size_of(res, sizes), size_of(all, sizes)};
          if (key < best) {
            best = key;
            bi = i;
            bj = j;
          }
        }
    }
    std::vector<Term> rest;
    for (size_t k = 0; k < picked.size(); ++k)
      if (k != bi && k != bj) rest.push_back(picked[k]);
    Term t = contract_pair(picked[bi], picked[bj], labels_of(rest, keep), sizes, cdt);
    rest.push_back(std::move(t));
    picked = std::move(rest);
  }
  return picked[0];
}

std::vector<Shape> shapes_of(const std::vector<Array>& operands) {
  std::vector<Shape> shapes;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (!operands[k].defined()) throw TypeError("einsum: operand " + std::to_string(k) + " is not an array");
    shapes.push_back(operands[k].shape());
  }
  return shapes;
}

// Parses and checks the subscripts against the shapes: labels, collapsed
// operands and label lengths.
struct Analysis {
  Parsed parsed;
  std::vector<Collapsed> collapsed;
  SizeMap sizes;
};

Analysis analyse(std::string_view subscripts, const std::vector<Shape>& shapes) {
  std::vector<int> ndims;
  for (const Shape& s : shapes) ndims.push_back(s.size());
  Analysis a;
  a.parsed = parse(subscripts, ndims);
  for (size_t k = 0; k < shapes.size(); ++k) a.collapsed.push_back(collapse(a.parsed.inputs[k], shapes[k], k));
  a.sizes = label_sizes(a.collapsed, shapes, a.parsed.output);
  return a;
}

}  // namespace

EinsumPath einsum_path(std::string_view subscripts, const std::vector<Shape>& shapes, const EinsumOptimize& optimize) {
  if (shapes.empty()) throw ValueError("No input operands");
  const Analysis a = analyse(subscripts, shapes);
  Plan plan = make_plan(a.parsed, a.sizes, optimize, true);
  return EinsumPath{std::move(plan.path), std::move(plan.report)};
}

EinsumPath einsum_path(std::string_view subscripts, const std::vector<Array>& operands,
                       const EinsumOptimize& optimize) {
  return einsum_path(subscripts, shapes_of(operands), optimize);
}

Array einsum(std::string_view subscripts, const std::vector<Array>& operands, const EinsumOptions& options) {
  if (operands.empty()) throw ValueError("No input operands");
  const std::vector<Shape> shapes = shapes_of(operands);
  const Array& out = options.out();
  {
    std::vector<const Array*> all;
    for (const Array& x : operands) all.push_back(&x);
    if (out.defined()) all.push_back(&out);
    check_same_device(all);
  }
  const Analysis an = analyse(subscripts, shapes);
  const Labels& output = an.parsed.output;
  const SizeMap& sizes = an.sizes;

  std::vector<Dtype> dtypes;
  for (const Array& x : operands) dtypes.push_back(x.dtype());
  const Dtype res_dt = options.dtype() ? *options.dtype() : result_type(dtypes, {});
  for (size_t k = 0; k < operands.size(); ++k)
    if (!can_cast(dtypes[k], res_dt, options.casting()))
      throw TypeError("Iterator operand " + std::to_string(k) + " dtype could not be cast from " +
                      dtype_repr(dtypes[k]) + " to " + dtype_repr(res_dt) + " according to the rule '" +
                      casting_name(options.casting()) + "'");
  if (out.defined()) {
    if (!can_cast(res_dt, out.dtype(), options.casting()))
      throw TypeError("Iterator requested dtype could not be cast from " + dtype_repr(res_dt) + " to " +
                      dtype_repr(out.dtype()) + ", the operand " + std::to_string(operands.size()) +
                      " dtype, according to the rule '" + casting_name(options.casting()) + "'");
    if (out.ndim() != static_cast<int>(output.size()))
      throw ValueError("out parameter does not have the correct number of dimensions, has " +
                       std::to_string(out.ndim()) + " but should have " + std::to_string(output.size()));
    for (size_t i = 0; i < output.size(); ++i) {
      const int64_t want = sizes.at(output[i]);
      if (out.shape()[static_cast<int>(i)] != want && want != 1)
        throw broadcast_error(shapes, an.collapsed, output, &out);
    }
    if (!out.writeable()) throw ValueError("output array is read-only");
  }

  // Repeated labels: diagonal views.
  std::vector<Term> work;
  for (size_t k = 0; k < operands.size(); ++k) {
    Array x = operands[k];
    Labels labels = an.parsed.inputs[k];
    for (auto [i, j] : an.collapsed[k].diagonals) {
      x = x.diagonal(0, i, j);
      const int l = labels[i];
      labels.erase(labels.begin() + j);
      labels.erase(labels.begin() + i);
      labels.push_back(l);
    }
    work.push_back(Term{x, labels});
  }

  if (work.size() == 1 && !out.defined() && work[0].x.dtype() == res_dt &&
      LabelSet(work[0].labels.begin(), work[0].labels.end()) == LabelSet(output.begin(), output.end())) {
    // Only relabelled: NumPy returns a view (whatever order= says), writeable
    // as the operand is.
    Array view = transposed_to(work[0].x, work[0].labels, output);
    view.set_writeable(operands[0].writeable());
    return view;
  }

  const Dtype cdt = linalg::detail::product_compute_dtype(res_dt);
  const LabelSet out_set(output.begin(), output.end());
  // A length-1 axis whose label is longer elsewhere holds one value along
  // it: dropping it leaves the label to the operands that have its length.
  std::map<int, int> counts;
  for (Term& t : work) {
    std::vector<int64_t> drop;
    Labels left;
    for (size_t i = 0; i < t.labels.size(); ++i) {
      if (t.x.shape()[static_cast<int>(i)] == 1 && sizes.at(t.labels[i]) != 1)
        drop.push_back(static_cast<int64_t>(i));
      else
        left.push_back(t.labels[i]);
    }
    if (!drop.empty()) {
      t.x = t.x.squeeze(drop);
      t.labels = left;
    }
    for (int l : t.labels) ++counts[l];
  }
  // Labels only one operand has and the output lacks are summed right away.
  for (Term& t : work) {
    LabelSet keep = out_set;
    for (int l : t.labels)
      if (counts[l] > 1) keep.insert(l);
    t = sum_unneeded(std::move(t), keep, nullptr, cdt);
  }

  // Without optimize= NumPy sums over all operands at once; pairwise
  // contractions in the greedy order (no bound on intermediates) do the same
  // sums and let the products run on GEMM.
  const EinsumOptimize& opt = options.optimize();
  const Plan plan = make_plan(an.parsed, sizes,
                              opt.kind() == EinsumOptimize::Kind::kNone
                                  ? EinsumOptimize::greedy(std::numeric_limits<int64_t>::max())
                                  : opt,
                              false);
  for (const std::vector<int64_t>& step : plan.path) {
    std::vector<Term> picked;
    for (int64_t i : step) picked.push_back(work[i]);
    std::vector<int64_t> desc = step;
    std::sort(desc.rbegin(), desc.rend());
    for (int64_t i : desc) work.erase(work.begin() + i);
    Term t = contract_step(std::move(picked), labels_of(work, out_set), sizes, cdt);
    work.push_back(std::move(t));
  }

  Term t = sum_unneeded(std::move(work[0]), out_set, nullptr, cdt);
  // Output labels that every operand only broadcast (length 1) are gone.
  for (int l : output)
    if (!contains(t.labels, l)) {
      t.x = t.x.expand_dims({t.x.ndim()});
      t.labels.push_back(l);
    }
  Array res = transposed_to(t.x, t.labels, output);
  // A lone operand with nothing to sum is still a view of it here; results
  // are new arrays, and out must not be read while it is written.
  for (const Array& x : operands)
    if (res.shares_memory_with(x)) res = res.copy(Order::kK);
  if (out.defined()) {
    copyto(out, res, Casting::kUnsafe);
    return out;
  }
  Order order = options.order();
  if (order == Order::kA) {
    bool all_f = true;
    for (const Array& x : operands) all_f &= x.f_contiguous() && !x.c_contiguous();
    order = all_f ? Order::kF : Order::kC;
  }
  if ((order == Order::kC && !res.c_contiguous()) || (order == Order::kF && !res.f_contiguous()))
    return res.astype(res_dt, order, true);
  return res.astype(res_dt, Order::kK, false);
}

}  // namespace kumo
