#include "autograd/functions/linalg.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "autograd/functions/argument_checks.h"
#include "autograd/function_node.h"
#include "autograd/functions/array.h"
#include "autograd/functions/basic_math.h"
#include "core/dtype.h"
#include "core/errors.h"
#include "linalg/einsum.h"
#include "linalg/linalg.h"
#include "linalg/products.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"

namespace kumo {
namespace autograd {
namespace {

// The last two axes swapped.
Variable swap_last(const Variable& x) {
  std::vector<int64_t> perm(static_cast<size_t>(x.ndim()));
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(x, perm);
}

// Shape of a matmul operand once a 1-d vector is made a matrix: a row for
// the left operand, a column for the right one.
Shape as_matrix(const Shape& s, bool left) {
  if (s.size() != 1) return s;
  return left ? Shape{1, s[0]} : Shape{s[0], 1};
}

class MatMul : public FunctionNode {
 public:
  std::string label() const override { return "MatMul"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0, 1});
    return {kumo::matmul(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    const Shape sa = as_matrix(input_shape(0), true), sb = as_matrix(input_shape(1), false);
    Variable a = reshape(x[0], sa), b = reshape(x[1], sb);
    // The output with the dimensions a 1-d operand dropped put back.
    Shape gs = gy[0].shape();
    if (input_shape(0).size() == 1) gs.insert(gs.size() - (input_shape(1).size() == 1 ? 0 : 1), 1);
    if (input_shape(1).size() == 1) gs.push_back(1);
    Variable g = reshape(gy[0], gs);
    std::vector<Variable> gx;
    for (size_t i : targets) {
      Variable d = i == 0 ? matmul(g, swap_last(b)) : matmul(swap_last(a), g);
      const Shape& want = i == 0 ? sa : sb;
      gx.push_back(reshape(sum_to(d, want), input_shape(i)));
    }
    return gx;
  }
};

Variable transposed_if(const Variable& x, bool transpose) {
  return transpose && x.ndim() >= 2 ? swap_last(x) : x;
}

// A batch_matmul operand as (B, N, rest).
Variable as_batch_of_matrices(const Variable& x, const char* name) {
  if (x.ndim() < 2)
    throw ValueError(std::string("batch_matmul: ") + name + " must have at least 2 dimensions (batch, rows, ...), got " +
                     std::to_string(x.ndim()));
  const Shape& s = x.shape();
  int64_t rest = 1;
  for (size_t k = 2; k < s.size(); ++k) rest *= s[k];
  return reshape(x, Shape{s[0], s[1], rest});
}

// Chainer's LinearFunction: y = x W^T (+ b) as one node. Its weight gradient
// gy^T x comes out C-contiguous in W's own (out, in) layout, so the fused
// optimizer updates it in place; as a MatMul of a transposed W it was a
// transposed view that the optimizer had to copy in and back every step.
// The bias is added into the product in place.
class LinearFunction : public FunctionNode {
 public:
  std::string label() const override { return "LinearFunction"; }
  std::vector<Array> forward(const std::vector<Array>& in) override {
    retain_inputs({0, 1});
    Array y = kumo::matmul(in[0], kumo::transpose(in[1]));
    if (in.size() == 3) {
      if (promote_types(y.dtype(), in[2].dtype()) == y.dtype()) {
        kumo::add(y, in[2], y);
      } else {
        y = kumo::add(y, in[2]);
      }
    }
    return {y};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    std::vector<Variable> gx;
    for (size_t i : targets) {
      if (i == 0) {
        gx.push_back(matmul(gy[0], x[1]));
      } else if (i == 1) {
        gx.push_back(matmul(transpose(gy[0]), x[0]));
      } else {
        gx.push_back(sum(gy[0], Axes{0}));
      }
    }
    return gx;
  }
};

}  // namespace

Variable matmul(const Variable& a, const Variable& b) {
  if (a.ndim() == 0 || b.ndim() == 0) throw ValueError("matmul: input operand does not have enough dimensions");
  return apply(std::make_shared<MatMul>(), {a, b})[0];
}

Variable matmul(const Variable& a, const Variable& b, bool transa, bool transb) {
  if (!a.defined() || !b.defined()) throw TypeError("matmul: an operand is None");
  return matmul(transposed_if(a, transa), transposed_if(b, transb));
}

Variable batch_matmul(const Variable& a, const Variable& b, bool transa, bool transb) {
  if (!a.defined() || !b.defined()) throw TypeError("batch_matmul: an operand is None");
  return matmul(as_batch_of_matrices(a, "a"), as_batch_of_matrices(b, "b"), transa, transb);
}

Variable linear(const Variable& x, const Variable& W, const Variable& b, int n_batch_axes) {
  if (!x.defined() || !W.defined()) throw TypeError("linear: x and W must not be None");
  if (W.ndim() != 2) throw ValueError("linear: W must be 2-d (out, in), got shape " + W.shape().to_string());
  if (n_batch_axes <= 0) throw ValueError("linear: n_batch_axes should be greater than 0, got " + std::to_string(n_batch_axes));
  if (n_batch_axes > 1) {
    if (x.ndim() <= n_batch_axes)
      throw ValueError("linear: x of shape " + x.shape().to_string() + " has no feature axes after " +
                       std::to_string(n_batch_axes) + " batch axes");
    Shape batch(std::vector<int64_t>(x.shape().begin(), x.shape().begin() + n_batch_axes));
    int64_t rows = 1;
    for (int64_t d : batch) rows *= d;
    Variable y = linear(reshape(x, Shape{rows, -1}), W, b, 1);
    batch.push_back(y.shape()[1]);
    return reshape(y, batch);
  }
  Variable x2 = x.ndim() == 2 ? x : reshape(x, Shape{x.ndim() ? x.shape()[0] : 1, -1});
  if (x2.shape()[1] != W.shape()[1]) {
    throw ValueError("linear: x has " + std::to_string(x2.shape()[1]) + " features per example but W expects " +
                     std::to_string(W.shape()[1]) + " (W has shape " + W.shape().to_string() + ")");
  }
  if (!b.defined()) return apply(std::make_shared<LinearFunction>(), {x2, W})[0];
  if (b.ndim() == 1 && b.shape()[0] == W.shape()[0]) return apply(std::make_shared<LinearFunction>(), {x2, W, b})[0];
  return matmul(x2, transpose(W)) + b;  // a bias of another shape broadcasts as NumPy would
}

namespace {

Variable constant(Array a) { return Variable(std::move(a), false); }

void require_ndim(const Variable& x, int ndim, const char* fn) {
  if (x.ndim() != ndim)
    throw ValueError(std::string(fn) + ": expected a " + std::to_string(ndim) + "-d array, got shape " +
                     x.shape().to_string());
}

// x with two trailing axes of size 1 (a batch of scalars as 1x1 matrices).
Variable as_matrices(const Variable& x) {
  Shape s = x.shape();
  s.push_back(1);
  s.push_back(1);
  return reshape(x, s);
}

Variable unbroadcast(const Variable& g, const Shape& shape) { return g.shape() == shape ? g : sum_to(g, shape); }

// d det(A) = det(A) tr(A^-1 dA): the gradient is gy det(A) A^-T.
class Det : public FunctionNode {
 public:
  std::string label() const override { return "Det"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    retain_outputs({0});
    return {kumo::linalg::det(x[0])};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable a = get_retained_inputs()[0], y = get_retained_outputs()[0];
    return {as_matrices(gy[0] * y) * swap_last(detail_inv(a))};
  }

 private:
  static Variable detail_inv(const Variable& a);
};

// d(A^-1) = -A^-1 dA A^-1: the gradient is -Y^T gy Y^T.
class Inv : public FunctionNode {
 public:
  std::string label() const override { return "Inv"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_outputs({0});
    return {kumo::linalg::inv(x[0])};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable yt = swap_last(get_retained_outputs()[0]);
    return {neg(matmul(matmul(yt, gy[0]), yt))};
  }
};

Variable inv_any(const Variable& a) { return autograd::apply(std::make_shared<Inv>(), {a})[0]; }
Variable Det::detail_inv(const Variable& a) { return inv_any(a); }

// Murray's rule: with P = Phi(L^T gL) (the lower triangle, diagonal halved),
// S = L^-T P L^-1 and the symmetric gradient (S + S^T) / 2.
class Cholesky : public FunctionNode {
 public:
  std::string label() const override { return "Cholesky"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_outputs({0});
    return {kumo::linalg::cholesky(x[0])};
  }
  std::vector<Variable> backward(const std::vector<size_t>&, const std::vector<Variable>& gy) override {
    Variable L = get_retained_outputs()[0];
    const int64_t n = L.shape()[L.ndim() - 1];
    // Ones below the diagonal, one half on it.
    Array i = kumo::arange(Scalar(n), Dtype::kInt64, L.device());
    Array rows = i.reshape(Shape{n, 1}), cols = i.reshape(Shape{1, n});
    Array mask = kumo::where(kumo::greater(rows, cols), Scalar(1.0),
                             kumo::where(kumo::equal(rows, cols), Scalar(0.5), Scalar(0.0)))
                     .astype(L.dtype());
    Variable phi = matmul(swap_last(L), gy[0]) * constant(mask);
    Variable linv = inv_any(L);
    Variable s = matmul(matmul(swap_last(linv), phi), linv);
    return {(s + swap_last(s)) * 0.5};
  }
};

// x = A^-1 B: gB = A^-T gy, gA = -gB x^T (summed over broadcast batches).
class Solve : public FunctionNode {
 public:
  std::string label() const override { return "Solve"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    retain_inputs({0});
    retain_outputs({0});
    return {kumo::linalg::solve(x[0], x[1])};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    Variable a = get_retained_inputs()[0], x = get_retained_outputs()[0];
    Variable gb = solve(swap_last(a), gy[0]);
    std::vector<Variable> gx;
    for (size_t i : targets)
      gx.push_back(i == 1 ? unbroadcast(gb, input_shape(1))
                          : unbroadcast(neg(matmul(gb, swap_last(x))), input_shape(0)));
    return gx;
  }
};

// ---- einsum -------------------------------------------------------------------------------

// Subscripts with the ellipsis replaced by letters and the output explicit,
// so that backward can rearrange them freely.
struct EinsumSpec {
  std::vector<std::string> inputs;
  std::string output;
  std::map<char, int64_t> sizes;  // each letter's (broadcast) size
};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

EinsumSpec parse_einsum(const std::string& subscripts, const std::vector<Variable>& operands) {
  std::string s;
  for (char c : subscripts)
    if (c != ' ') s += c;
  std::string lhs = s, rhs;
  const size_t arrow = s.find("->");
  const bool explicit_out = arrow != std::string::npos;
  if (explicit_out) {
    lhs = s.substr(0, arrow);
    rhs = s.substr(arrow + 2);
  }
  std::vector<std::string> terms;
  size_t start = 0;
  for (size_t i = 0; i <= lhs.size(); ++i)
    if (i == lhs.size() || lhs[i] == ',') {
      terms.push_back(lhs.substr(start, i - start));
      start = i + 1;
    }
  if (terms.size() != operands.size())
    throw ValueError(
        "einsum: more operands were provided than specified in the subscripts string"
        " (or fewer): " +
        std::to_string(terms.size()) + " terms for " + std::to_string(operands.size()) + " operands");
  std::set<char> used;
  for (char c : s)
    if (is_letter(c))
      used.insert(c);
    else if (c != ',' && c != '.' && c != '-' && c != '>')
      throw ValueError(std::string("einsum: invalid subscript '") + c + "' in the subscripts string");
  // Each operand's number of ellipsis dimensions.
  std::vector<int> ell(terms.size(), -1);
  int max_ell = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string& t = terms[i];
    const size_t dots = t.find("...");
    int letters = 0;
    for (char c : t)
      if (is_letter(c)) ++letters;
    if (dots == std::string::npos) {
      if (letters != operands[i].ndim())
        throw ValueError("einsum: operand " + std::to_string(i) + " has " + std::to_string(operands[i].ndim()) +
                         " dimensions but its subscripts '" + t + "' name " + std::to_string(letters));
    } else {
      ell[i] = operands[i].ndim() - letters;
      if (ell[i] < 0) throw ValueError("einsum: operand " + std::to_string(i) + " has more subscripts than dimensions");
      max_ell = std::max(max_ell, ell[i]);
    }
  }
  std::string ell_letters;
  for (char c = 'A'; static_cast<int>(ell_letters.size()) < max_ell; ++c) {
    if (c > 'Z' && c < 'a') c = 'a';
    if (c > 'z') throw ValueError("einsum: too many subscripts");
    if (!used.count(c)) ell_letters += c;
  }
  EinsumSpec spec;
  std::map<char, int> count;
  for (size_t i = 0; i < terms.size(); ++i) {
    std::string t = terms[i];
    const size_t dots = t.find("...");
    if (dots != std::string::npos) t.replace(dots, 3, ell_letters.substr(static_cast<size_t>(max_ell - ell[i])));
    for (size_t k = 0; k < t.size(); ++k) {
      const int64_t d = operands[i].shape()[static_cast<int>(k)];
      auto it = spec.sizes.find(t[k]);
      if (it == spec.sizes.end() || it->second == 1)
        spec.sizes[t[k]] = d;
      else if (d != 1 && d != it->second)
        throw ValueError(std::string("einsum: operands could not be broadcast together: subscript '") + t[k] +
                         "' has sizes " + std::to_string(it->second) + " and " + std::to_string(d));
    }
    for (char c : terms[i])
      if (is_letter(c)) ++count[c];
    spec.inputs.push_back(t);
  }
  if (explicit_out) {
    std::string out = rhs;
    const size_t dots = out.find("...");
    if (dots != std::string::npos) out.replace(dots, 3, ell_letters);
    for (char c : out)
      if (!is_letter(c) || !spec.sizes.count(c))
        throw ValueError(std::string("einsum: output subscript '") + c + "' does not appear in the inputs");
    spec.output = out;
  } else {
    spec.output = ell_letters;
    for (const auto& [c, k] : count)  // std::map: ASCII order, uppercase first, as NumPy's
      if (k == 1) spec.output += c;
  }
  return spec;
}

std::string join_terms(const std::vector<std::string>& terms, const std::string& out) {
  std::string s;
  for (size_t i = 0; i < terms.size(); ++i) s += (i ? "," : "") + terms[i];
  return s + "->" + out;
}

class Einsum : public FunctionNode {
 public:
  explicit Einsum(EinsumSpec spec) : spec_(std::move(spec)) {}
  std::string label() const override { return "Einsum"; }
  std::vector<Array> forward(const std::vector<Array>& x) override {
    std::vector<size_t> all(x.size());
    for (size_t i = 0; i < x.size(); ++i) all[i] = i;
    retain_inputs(all);
    // A copy: einsum may return a view of a single operand.
    Array y = kumo::einsum(join_terms(spec_.inputs, spec_.output), x);
    return {x.size() == 1 ? y.copy() : y};
  }
  std::vector<Variable> backward(const std::vector<size_t>& targets, const std::vector<Variable>& gy) override {
    std::vector<Variable> x = get_retained_inputs();
    std::vector<Variable> gx;
    for (size_t i : targets) gx.push_back(operand_grad(i, x, gy[0]));
    return gx;
  }

 private:
  Shape full_shape(const std::string& letters) const {
    Shape s;
    for (char c : letters) s.push_back(spec_.sizes.at(c));
    return s;
  }

  Variable operand_grad(size_t i, const std::vector<Variable>& x, const Variable& gy) const {
    const std::string& term = spec_.inputs[i];
    // The other operands at full (broadcast) size, and gy.
    std::vector<std::string> terms{spec_.output};
    std::vector<Variable> ops{gy};
    std::set<char> available(spec_.output.begin(), spec_.output.end());
    for (size_t j = 0; j < x.size(); ++j) {
      if (j == i) continue;
      terms.push_back(spec_.inputs[j]);
      Shape fs = full_shape(spec_.inputs[j]);
      ops.push_back(x[j].shape() == fs ? x[j] : broadcast_to(x[j], fs));
      available.insert(spec_.inputs[j].begin(), spec_.inputs[j].end());
    }
    std::string unique, reached;
    for (char c : term)
      if (unique.find(c) == std::string::npos) {
        unique += c;
        if (available.count(c)) reached += c;
      }
    Variable g = einsum(join_terms(terms, reached), ops);
    // Letters summed within this operand only: the gradient is the same
    // along them.
    if (reached != unique) {
      Shape s;
      for (char c : unique) s.push_back(reached.find(c) == std::string::npos ? 1 : spec_.sizes.at(c));
      g = broadcast_to(reshape(g, s), full_shape(unique));
    }
    // A repeated letter (a diagonal): spread onto it with identity matrices.
    if (unique.size() != term.size()) {
      std::set<char> letters;
      for (const auto& t : spec_.inputs) letters.insert(t.begin(), t.end());
      std::string renamed, fresh_pool;
      for (char c = 'A'; c <= 'z'; ++c)
        if (is_letter(c) && !letters.count(c)) fresh_pool += c;
      std::vector<std::string> eterms{unique};
      std::vector<Variable> eops{g};
      std::set<char> seen;
      size_t next = 0;
      for (char c : term) {
        if (!seen.count(c)) {
          seen.insert(c);
          renamed += c;
          continue;
        }
        if (next >= fresh_pool.size()) throw ValueError("einsum: too many subscripts for the gradient");
        char f = fresh_pool[next++];
        renamed += f;
        eterms.push_back(std::string{c, f});
        const int64_t n = spec_.sizes.at(c);
        eops.push_back(constant(kumo::eye(n, std::nullopt, 0, g.dtype(), Order::kC, g.device())));
      }
      g = einsum(join_terms(eterms, renamed), eops);
    }
    return unbroadcast(g, input_shape(i));
  }

  EinsumSpec spec_;
};

}  // namespace

Variable det(const Variable& a) {
  require_floating(a, "det", "a");
  require_ndim(a, 2, "det");
  return autograd::apply(std::make_shared<Det>(), {a})[0];
}

Variable batch_det(const Variable& a) {
  require_floating(a, "batch_det", "a");
  require_ndim(a, 3, "batch_det");
  return autograd::apply(std::make_shared<Det>(), {a})[0];
}

Variable inv(const Variable& a) {
  require_floating(a, "inv", "a");
  require_ndim(a, 2, "inv");
  return inv_any(a);
}

Variable batch_inv(const Variable& a) {
  require_floating(a, "batch_inv", "a");
  require_ndim(a, 3, "batch_inv");
  return inv_any(a);
}

Variable cholesky(const Variable& a) {
  require_floating(a, "cholesky", "a");
  if (a.ndim() < 2) throw ValueError("cholesky: expected a matrix, got shape " + a.shape().to_string());
  return autograd::apply(std::make_shared<Cholesky>(), {a})[0];
}

Variable solve(const Variable& a, const Variable& b) {
  require_floating(a, "solve", "a");
  require_floating(b, "solve", "b");
  if (a.ndim() < 2) throw ValueError("solve: a must be at least 2-d, got shape " + a.shape().to_string());
  if (b.ndim() == 1) {
    // NumPy 2: a 1-d b is one vector (for every matrix of a batch).
    Variable x = solve(a, reshape(b, Shape{b.shape()[0], 1}));
    Shape s = x.shape();
    s.erase(s.size() - 1);
    return reshape(x, s);
  }
  return autograd::apply(std::make_shared<Solve>(), {a, b})[0];
}

Variable einsum(const std::string& subscripts, const std::vector<Variable>& operands) {
  if (operands.empty()) throw ValueError("einsum: no operands given");
  for (const Variable& x : operands) require_floating(x, "einsum", "an operand");
  return autograd::apply(std::make_shared<Einsum>(parse_einsum(subscripts, operands)), operands)[0];
}

Variable tensordot(const Variable& a, const Variable& b, const std::vector<int64_t>& axes_a,
                   const std::vector<int64_t>& axes_b) {
  if (axes_a.size() != axes_b.size()) throw ValueError("tensordot: shape-mismatch for sum");
  if (a.ndim() + b.ndim() > 52) throw ValueError("tensordot: too many dimensions");
  std::string ta, tb, out;
  for (int i = 0; i < a.ndim(); ++i) ta += static_cast<char>(i < 26 ? 'a' + i : 'A' + i - 26);
  tb.assign(static_cast<size_t>(b.ndim()), '?');
  std::vector<bool> summed_a(static_cast<size_t>(a.ndim())), summed_b(static_cast<size_t>(b.ndim()));
  for (size_t k = 0; k < axes_a.size(); ++k) {
    const int ia = normalize_axis(axes_a[k], a.ndim()), ib = normalize_axis(axes_b[k], b.ndim());
    if (a.shape()[ia] != b.shape()[ib]) throw ValueError("tensordot: shape-mismatch for sum");
    if (summed_a[ia] || summed_b[ib]) throw ValueError("tensordot: repeated axis");
    summed_a[ia] = summed_b[ib] = true;
    tb[ib] = ta[ia];
  }
  int next = a.ndim();
  for (auto& c : tb)
    if (c == '?') {
      c = static_cast<char>(next < 26 ? 'a' + next : 'A' + next - 26);
      ++next;
    }
  for (int i = 0; i < a.ndim(); ++i)
    if (!summed_a[i]) out += ta[i];
  for (int i = 0; i < b.ndim(); ++i)
    if (!summed_b[i]) out += tb[i];
  return einsum(ta + "," + tb + "->" + out, {a, b});
}

Variable tensordot(const Variable& a, const Variable& b, int64_t axes) {
  if (axes < 0 || axes > a.ndim() || axes > b.ndim())
    throw ValueError("tensordot: axes " + std::to_string(axes) + " out of range for operands of " +
                     std::to_string(a.ndim()) + " and " + std::to_string(b.ndim()) + " dimensions");
  std::vector<int64_t> aa, bb;
  for (int64_t k = 0; k < axes; ++k) {
    aa.push_back(a.ndim() - axes + k);
    bb.push_back(k);
  }
  return tensordot(a, b, aa, bb);
}

Variable bilinear(const Variable& e1, const Variable& e2, const Variable& W, const Variable& V1, const Variable& V2,
                  const Variable& b) {
  const int given = V1.defined() + V2.defined() + b.defined();
  if (given != 0 && given != 3) throw ValueError("bilinear: V1, V2 and b must be all given or all None");
  require_floating(e1, "bilinear", "e1");
  require_floating(e2, "bilinear", "e2");
  require_floating(W, "bilinear", "W");
  if (e1.ndim() < 1 || e2.ndim() < 1) throw ValueError("bilinear: e1 and e2 need a batch axis");
  if (W.ndim() != 3) throw ValueError("bilinear: W must be 3-d (J, K, L), got shape " + W.shape().to_string());
  const int64_t n = e1.shape()[0];
  if (e2.shape()[0] != n) throw ValueError("bilinear: e1 and e2 must have the same batch size");
  auto flat = [n](const Variable& e) {
    int64_t per = 1;
    for (int i = 1; i < e.ndim(); ++i) per *= e.shape()[i];
    return e.ndim() == 2 ? e : reshape(e, Shape{n, per});
  };
  Variable f1 = flat(e1), f2 = flat(e2);
  if (f1.shape()[1] != W.shape()[0] || f2.shape()[1] != W.shape()[1])
    throw ValueError("bilinear: W's shape " + W.shape().to_string() + " does not match e1 " + e1.shape().to_string() +
                     " and e2 " + e2.shape().to_string());
  Variable y = einsum("ij,ik,jkl->il", {f1, f2, W});
  if (given == 3) y = y + matmul(f1, V1) + matmul(f2, V2) + b;
  return y;
}

}  // namespace autograd
}  // namespace kumo
