// numpy.einsum and numpy.einsum_path (NumPy 2.4 semantics), in namespace kumo:
//
//   kumo::Array c = kumo::einsum("ij,jk->ik", {a, b});               // a @ b
//   kumo::Array t = kumo::einsum("ii", {m});                          // trace
//   kumo::Array d = kumo::einsum("ii->i", {m});                       // a writeable diagonal view
//   kumo::einsum("...ij,...jk", {a, b}, kumo::EinsumOptions().out(c).optimize(kumo::EinsumOptimize::greedy()));
//   kumo::EinsumPath p = kumo::einsum_path("ij,jk,kl->il", {a, b, c});  // p.path, p.report
//
// Subscripts are letters, one per axis, with at most one '...' per operand
// for the broadcast axes; without '->' the output is the ellipsis axes then
// the letters that appear exactly once, in sorted order. Letters repeated in
// an operand take its diagonal, letters absent from the output are summed,
// and axes of length 1 broadcast against the same letter elsewhere.
//
// Operands are contracted two at a time in the order of the contraction path
// (numpy.einsum_path's greedy or optimal search, or one given); a pairwise
// contraction with a summed letter is a (batched) matmul, so float and
// complex types run on the device's GEMM and integers stay exact (they wrap
// as NumPy's loops do). One operand is reduced with kumo::sum over views.
//
// Errors are NumPy's: kumo::ValueError for malformed subscripts, operand
// count and shape mismatches, kumo::TypeError for casting refusals.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/array.h"
#include "core/dtype.h"

namespace kumo {

// einsum's optimize= argument: no reordering (NumPy's False), the greedy or
// the optimal (exhaustive) search of numpy.einsum_path, or an explicit path
// (the entries after 'einsum_path' in NumPy's list). A memory limit bounds
// the intermediates the searches consider (NumPy's ('greedy', limit) form);
// without one, the largest operand or the output is the bound.
class EinsumOptimize {
 public:
  enum class Kind : uint8_t { kNone, kGreedy, kOptimal, kPath };
  EinsumOptimize() = default;
  static EinsumOptimize none() { return EinsumOptimize(Kind::kNone); }
  static EinsumOptimize greedy(std::optional<int64_t> memory_limit = std::nullopt) {
    EinsumOptimize o(Kind::kGreedy);
    o.memory_limit_ = memory_limit;
    return o;
  }
  static EinsumOptimize optimal(std::optional<int64_t> memory_limit = std::nullopt) {
    EinsumOptimize o(Kind::kOptimal);
    o.memory_limit_ = memory_limit;
    return o;
  }
  static EinsumOptimize path(std::vector<std::vector<int64_t>> steps) {
    EinsumOptimize o(Kind::kPath);
    o.path_ = std::move(steps);
    return o;
  }
  // "greedy", "optimal" (NumPy's names); kumo::ValueError for any other.
  static EinsumOptimize from_name(const std::string& name, std::optional<int64_t> memory_limit = std::nullopt);

  Kind kind() const { return kind_; }
  const std::vector<std::vector<int64_t>>& steps() const { return path_; }
  std::optional<int64_t> memory_limit() const { return memory_limit_; }

 private:
  explicit EinsumOptimize(Kind k) : kind_(k) {}
  Kind kind_ = Kind::kNone;
  std::vector<std::vector<int64_t>> path_;
  std::optional<int64_t> memory_limit_;
};

// einsum's keyword arguments: out=, dtype=, casting= (default "safe"),
// order= (default 'K') and optimize= (default none).
class EinsumOptions {
 public:
  EinsumOptions() = default;
  EinsumOptions& out(const Array& a) {
    out_ = a;
    return *this;
  }
  EinsumOptions& dtype(Dtype d) {
    dtype_ = d;
    return *this;
  }
  EinsumOptions& casting(Casting c) {
    casting_ = c;
    return *this;
  }
  EinsumOptions& order(Order o) {
    order_ = o;
    return *this;
  }
  EinsumOptions& optimize(EinsumOptimize o) {
    optimize_ = std::move(o);
    return *this;
  }
  const Array& out() const { return out_; }
  std::optional<Dtype> dtype() const { return dtype_; }
  Casting casting() const { return casting_; }
  Order order() const { return order_; }
  const EinsumOptimize& optimize() const { return optimize_; }

 private:
  Array out_;
  std::optional<Dtype> dtype_;
  Casting casting_ = Casting::kSafe;
  Order order_ = Order::kK;
  EinsumOptimize optimize_;
};

// numpy.einsum. Returns `out` when given; a single operand that is only
// relabelled (transposed, diagonals taken) in its own dtype comes back as a
// view sharing its memory, writeable when the operand is, as NumPy's does.
Array einsum(std::string_view subscripts, const std::vector<Array>& operands, const EinsumOptions& options = {});

// numpy.einsum_path: the contraction order (tuples of positions in the list
// of operands still to contract, the new intermediate appended at the end)
// and NumPy's printed report (costs, scaling, each step's subscripts).
struct EinsumPath {
  std::vector<std::vector<int64_t>> path;
  std::string report;
};
EinsumPath einsum_path(std::string_view subscripts, const std::vector<Array>& operands,
                       const EinsumOptimize& optimize = EinsumOptimize::greedy());
// The same from the operands' shapes alone (the plan never reads data).
EinsumPath einsum_path(std::string_view subscripts, const std::vector<Shape>& shapes,
                       const EinsumOptimize& optimize = EinsumOptimize::greedy());

}  // namespace kumo
