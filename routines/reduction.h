// Reductions and statistics with NumPy's semantics:
//
//   kumo::Array s = kumo::sum(a);                                  // every axis
//   kumo::Array r = kumo::sum(a, 1);                               // one axis
//   kumo::Array m = kumo::mean(a, {0, 2}, kumo::ReduceOptions().keepdims(true));
//   kumo::Array v = kumo::var(a, kumo::Axes::all(), kumo::VarOptions().ddof(1));
//   kumo::Array i = kumo::argmax(a, 0);
//   kumo::Array c = kumo::cumsum(a);                               // flattened
//   kumo::Array t = kumo::reduce(kumo::builtin_ufunc("add"), a);    // ufunc.reduce
//
// Accumulation dtypes are NumPy's: sum/prod of bool and small integers
// accumulate in int64 (unsigned in uint64), the mean of integers is float64,
// float16 accumulates in float32. Errors are NumPy's: kumo::AxisError for an
// axis out of range, kumo::ValueError for duplicate axes, empty reductions
// without an identity, and non-reorderable multi-axis reductions.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "core/array.h"
#include "routines/scalar.h"
#include "routines/ufunc_table.h"

namespace kumo {

// Which axes a reduction runs over: all of them (NumPy's axis=None), one
// axis (an integer), or a list (a tuple in NumPy; an empty list reduces
// nothing). Negative axes count from the end.
class Axes {
 public:
  Axes() = default;                                      // all axes
  Axes(int64_t axis) : all_(false), single_(true), axes_{axis} {}  // NOLINT: kumo::sum(a, 1)
  Axes(int axis) : Axes(static_cast<int64_t>(axis)) {}  // NOLINT
  Axes(std::initializer_list<int64_t> axes) : all_(false), axes_(axes) {}
  Axes(std::vector<int64_t> axes) : all_(false), axes_(std::move(axes)) {}  // NOLINT
  static Axes all() { return Axes(); }

  bool is_all() const { return all_; }
  // Given as a plain integer (ufunc.reduce's 0-d rule accepts axis 0 or -1 then).
  bool is_single() const { return single_; }
  const std::vector<int64_t>& list() const { return axes_; }

 private:
  bool all_ = true;
  bool single_ = false;
  std::vector<int64_t> axes_;
};

// The keyword arguments of a reduction (out=, dtype=, keepdims=, where=,
// initial=), as a builder. Routines ignore the options NumPy's function of
// the same name does not take (e.g. initial for mean).
template <class Self>
class ReduceOptionsBase {
 public:
  ReduceOptionsBase() = default;
  ReduceOptionsBase(const Array& out) : out_(out) {}  // NOLINT: kumo::sum(a, 0, out)
  ReduceOptionsBase(Dtype dtype) : dtype_(dtype) {}   // NOLINT: kumo::sum(a, 0, Dtype::kFloat64)

  Self& out(const Array& a) { out_ = a; return self(); }
  Self& dtype(Dtype d) { dtype_ = d; return self(); }
  Self& keepdims(bool k = true) { keepdims_ = k; return self(); }
  // Only elements where the mask (broadcast to the input) is true take part.
  Self& where(const Array& mask) { where_ = mask; return self(); }
  // The starting value of the reduction (also what an empty reduction returns).
  Self& initial(Scalar v) { initial_ = v; return self(); }

  const Array& out() const { return out_; }
  std::optional<Dtype> dtype() const { return dtype_; }
  bool keepdims() const { return keepdims_; }
  const Array& where() const { return where_; }
  const std::optional<Scalar>& initial() const { return initial_; }

 private:
  Self& self() { return static_cast<Self&>(*this); }
  Array out_;
  std::optional<Dtype> dtype_;
  bool keepdims_ = false;
  Array where_;
  std::optional<Scalar> initial_;
};

class ReduceOptions : public ReduceOptionsBase<ReduceOptions> {
 public:
  using ReduceOptionsBase::ReduceOptionsBase;
};

// var/std options: ddof (or its Array API name, correction) and a
// precomputed mean (keepdims shape), besides the reduction options.
class VarOptions : public ReduceOptionsBase<VarOptions> {
 public:
  using ReduceOptionsBase::ReduceOptionsBase;
  VarOptions& ddof(double d) { ddof_ = d; return *this; }
  VarOptions& correction(double c) { correction_ = c; return *this; }
  VarOptions& mean(const Array& m) { mean_ = m; return *this; }
  double ddof() const { return ddof_; }
  std::optional<double> correction() const { return correction_; }
  const Array& mean() const { return mean_; }

 private:
  double ddof_ = 0;
  std::optional<double> correction_;
  Array mean_;
};

// ---- ufunc methods -------------------------------------------------------------------------
// ufunc.reduce: any binary built-in (or user) ufunc. NumPy's default axis is 0.
Array reduce(const kernels::Ufunc& ufunc, const Array& a, const Axes& axes = 0, const ReduceOptions& options = {});
// ufunc.accumulate along one axis (out= and dtype= are used).
Array accumulate(const kernels::Ufunc& ufunc, const Array& a, int64_t axis = 0, const ReduceOptions& options = {});
// ufunc.reduceat: along `axis`, result k reduces a[indices[k]:indices[k+1]]
// (to the end for the last), or is a[indices[k]] itself when the next index
// is not larger; indices must lie in [0, n) (IndexError). options: dtype and
// out (keepdims, initial and where do not apply, as in NumPy).
Array reduceat(const kernels::Ufunc& ufunc, const Array& a, const std::vector<int64_t>& indices, int64_t axis = 0,
               const ReduceOptions& options = {});

// ---- reductions ------------------------------------------------------------------------------
Array sum(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array prod(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array max(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array min(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
inline Array amax(const Array& a, const Axes& axes = {}, const ReduceOptions& o = {}) { return max(a, axes, o); }
inline Array amin(const Array& a, const Axes& axes = {}, const ReduceOptions& o = {}) { return min(a, axes, o); }
Array all(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array any(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
// max - min (out= and keepdims= are used).
Array ptp(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
// How many elements are non-zero, as int64.
Array count_nonzero(const Array& a, const Axes& axes = {}, bool keepdims = false);
// Index of the first maximum/minimum (the first NaN if any) along one axis,
// or in the flattened array without one; int64. out= and keepdims= are used.
Array argmax(const Array& a, std::optional<int64_t> axis = std::nullopt, const ReduceOptions& options = {});
Array argmin(const Array& a, std::optional<int64_t> axis = std::nullopt, const ReduceOptions& options = {});

// ---- statistics -------------------------------------------------------------------------------
Array mean(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array var(const Array& a, const Axes& axes = {}, const VarOptions& options = {});
Array std(const Array& a, const Axes& axes = {}, const VarOptions& options = {});

// ---- scans --------------------------------------------------------------------------------------
// Along one axis, or over the flattened array without one (out= and dtype= are used).
Array cumsum(const Array& a, std::optional<int64_t> axis = std::nullopt, const ReduceOptions& options = {});
Array cumprod(const Array& a, std::optional<int64_t> axis = std::nullopt, const ReduceOptions& options = {});

// ---- NaN-ignoring variants (NaN counts as 0 for sums, 1 for products, and
// is skipped by extrema and statistics; integer inputs behave as above) --------------------
Array nansum(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array nanprod(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array nanmax(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array nanmin(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
// ValueError "All-NaN slice encountered" when a slice holds only NaN.
Array nanargmax(const Array& a, std::optional<int64_t> axis = std::nullopt, const ReduceOptions& options = {});
Array nanargmin(const Array& a, std::optional<int64_t> axis = std::nullopt, const ReduceOptions& options = {});
Array nanmean(const Array& a, const Axes& axes = {}, const ReduceOptions& options = {});
Array nanvar(const Array& a, const Axes& axes = {}, const VarOptions& options = {});
Array nanstd(const Array& a, const Axes& axes = {}, const VarOptions& options = {});
Array nancumsum(const Array& a, std::optional<int64_t> axis = std::nullopt, const ReduceOptions& options = {});
Array nancumprod(const Array& a, std::optional<int64_t> axis = std::nullopt, const ReduceOptions& options = {});

}  // namespace kumo
