// The built-in ufuncs as data: one row per ufunc (name, type loops in
// NumPy's order with their operation snippets, reduce identity, docstring),
// the only place a ufunc is defined. The kernel layer turns each row into
// kernels for the host and for CUDA; Python builds its ufunc objects from
// these rows. To add a ufunc, add a row (ufunc_table.cpp) and its name to
// the matching list in routines/elementwise.h.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/ufunc.h"

namespace kumo {

// How a ufunc refines NumPy's plain "first loop the inputs cast to" search
// (each one is a NumPy type resolver of its own).
enum class UfuncRefinement : uint8_t {
  kNone,
  kPower,       // integers to negative integer powers raise ValueError
  kTrueDivide,  // an integer array by a Python int out of its range divides in float64
  kComparison,  // Python ints out of an integer array's range compare exactly
  kFloatLoops,  // floating loops only: each integer input picks its loop on its own
};

// A snippet starting with this marker makes its loop an error: resolution
// raises TypeError with the rest of the text (NumPy refuses some types).
inline constexpr std::string_view kUfuncErrorMarker = "!error:";

struct UfuncRow {
  std::string name;
  int nin = 1, nout = 1;
  std::vector<std::pair<std::string, std::string>> loops;  // ("ff->f", snippet)
  std::string identity;  // reduce identity as a C++ expression ("" = none)
  std::string doc;
  std::string preamble;  // source placed before the kernel
  UfuncRefinement refinement = UfuncRefinement::kNone;
  // A few instructions per element (+, *, comparisons, ...): the work is the
  // memory traffic, and on the host a second thread only pays off once the
  // operands outgrow the caches.
  bool memory_bound = false;
  // Inputs count only as truth values (logical_and/or/xor):
  // kernels::Ufunc::set_truth_inputs.
  bool truth_inputs = false;
};

const std::vector<UfuncRow>& ufunc_rows();
// (alias, target): other names NumPy exports for the same ufunc.
const std::vector<std::pair<std::string, std::string>>& ufunc_aliases();

class BuiltinUfunc : public kernels::Ufunc {
 public:
  explicit BuiltinUfunc(const UfuncRow& row);
  const UfuncRow& row() const { return row_; }
  // The plain call with the row's refinement applied first.
  void call_into(const kernels::UfuncOperand* inputs, int n_inputs, Array* outputs, std::optional<Dtype> dtype,
                 Casting casting) const override;

 private:
  const UfuncRow& row_;
};

// The built-in ufunc of this name or alias; ValueError for an unknown name.
const BuiltinUfunc& builtin_ufunc(std::string_view name);
std::shared_ptr<const BuiltinUfunc> builtin_ufunc_ptr(std::string_view name);
// Every built-in ufunc in table order (no aliases).
const std::vector<std::shared_ptr<const BuiltinUfunc>>& builtin_ufuncs();

}  // namespace kumo
