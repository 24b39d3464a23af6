// Universal functions: a name, a list of type loops ("ff->f") each with an
// operation snippet, and NumPy's loop selection (NEP 50 weak scalars,
// casting rules). Each loop becomes an ElementwiseSpec on first use; binary
// loops also give a ReductionSpec for reduce().
#pragma once
#include <array>
#include <atomic>
#include <complex>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "kernels/codegen.h"
#include "kernels/spec.h"

namespace kumo {
namespace kernels {

// A Python scalar taking part in an operation as a weak operand.
struct ScalarValue {
  WeakScalar kind = WeakScalar::kInt;
  bool b = false;
  // Python ints: exact when they fit int64 or uint64; `huge` when they fit neither.
  int64_t i = 0;
  uint64_t u = 0;
  bool is_uint = false;  // the value is above INT64_MAX and held in u
  bool huge = false;
  double f = 0.0;        // float value, also the int value as a double
  std::complex<double> c;
};

// Writes the scalar converted to `dtype` into dst. Python ints that do not
// fit an integer dtype raise OverflowError ("Python integer 1000 out of
// bounds for int8") as NumPy 2 does.
void store_scalar(const ScalarValue& v, Dtype dtype, void* dst);
// A 0-d array holding the scalar on `device`.
Array scalar_to_array(const ScalarValue& v, Dtype dtype, Device& device);

// One input of a ufunc call: an array, or a scalar taking part as a weak
// operand (NEP 50). An operand made from an lvalue Array refers to it (the
// caller keeps it alive for the call, as every call site does); one made
// from a temporary owns it. Referring saves the shared-pointer reference
// count updates, atomic operations that cost as much as a small kernel.
class UfuncOperand {
 public:
  bool is_scalar = false;
  ScalarValue scalar;

  UfuncOperand() = default;
  UfuncOperand(const Array& a) : ref_(&a) {}                // NOLINT: an array is an operand
  UfuncOperand(Array&& a) : owned_(std::move(a)) {}         // NOLINT
  UfuncOperand(const ScalarValue& s) : is_scalar(true), scalar(s) {}  // NOLINT

  const Array& array() const { return ref_ ? *ref_ : owned_; }
  // Makes this operand own `a` (an array operand).
  void set_array(Array a) {
    owned_ = std::move(a);
    ref_ = nullptr;
    is_scalar = false;
  }

 private:
  Array owned_;
  const Array* ref_ = nullptr;  // set: the operand is *ref_, owned_ is unused
};

// The most operands (inputs plus outputs) a ufunc has; the call path keeps
// them in fixed-size arrays instead of vectors (a small call is dominated by
// allocations otherwise).
inline constexpr int kMaxUfuncOperands = 4;

// Where memory-bound loops start using several host threads. Measured on a
// 2-core machine once the pool's threads poll between kernels (and the
// caller never waits for a sleeping one): from about 1e5 float32 elements
// (0.5-1.2 MB moved) two threads beat one, 1e6-element operations by 1.7-2x
// (the operands stay in the last-level cache, whose bandwidth one core
// cannot use up). Below, the split costs more than it saves.
inline constexpr int64_t kMemoryBoundParallelBytes = int64_t(256) << 10;

struct UfuncLoop {
  std::vector<Dtype> types;  // nin inputs then nout outputs
  std::string operation;     // uses in0.., out0..

  // A loop from NumPy's type string ("ff->f", characters as numpy.dtype.char).
  // Throws ValueError when the string does not have nin inputs and nout outputs.
  static UfuncLoop parse(const std::string& types, std::string operation, int nin, int nout);
};

class Ufunc {
 public:
  Ufunc(std::string name, int nin, int nout, std::vector<UfuncLoop> loops, std::string preamble = "",
        std::string reduce_identity = "");
  virtual ~Ufunc() = default;
  Ufunc(const Ufunc&) = delete;
  Ufunc& operator=(const Ufunc&) = delete;

  const std::string& name() const { return name_; }
  int nin() const { return nin_; }
  int nout() const { return nout_; }
  const std::vector<UfuncLoop>& loops() const { return loops_; }
  // "ff->f" strings in loop order.
  std::vector<std::string> type_strings() const;
  // C++ identity expression used by reduce ("" = none).
  const std::string& reduce_identity() const { return reduce_identity_; }

  // Index of the loop NumPy would pick. `dtype` forces the output type.
  // Throws CastingError when no loop fits or casting is violated.
  int resolve(const UfuncOperand* inputs, int n_inputs, std::optional<Dtype> dtype, Casting casting) const;
  int resolve(const std::vector<UfuncOperand>& inputs, std::optional<Dtype> dtype, Casting casting) const {
    return resolve(inputs.data(), static_cast<int>(inputs.size()), dtype, casting);
  }
  // Full call: resolves, casts inputs, runs, and writes/casts into the
  // outputs. `outputs` has nout() entries: on entry the outputs given
  // (undefined entries are allocated), on return the results. Built-in
  // ufuncs override it with NumPy's refinements of the plain loop search
  // (routines/ufunc_table.h).
  virtual void call_into(const UfuncOperand* inputs, int n_inputs, Array* outputs, std::optional<Dtype> dtype,
                         Casting casting) const;
  // The same with containers: missing trailing outputs are allocated.
  std::vector<Array> call(const std::vector<UfuncOperand>& inputs, std::vector<Array> outputs,
                          std::optional<Dtype> dtype, Casting casting) const;

  // Below this many bytes of operands a loop runs on one host thread (0:
  // split by element count alone). Set before the first call.
  void set_min_parallel_bytes(int64_t bytes) { min_parallel_bytes_ = bytes; }
  // The inputs count only as truth values (NumPy 2's logical_and/or/xor):
  // they are not held to `casting` (casting='no' with int8 and complex128
  // inputs works; the output still is), and a Python number is its truth.
  // Set before the first call.
  void set_truth_inputs(bool on) { truth_inputs_ = on; }

  const ElementwiseSpec& loop_spec(int loop) const;
  const ElementwiseSignature& loop_signature(int loop) const;
  // Reduction over axes for a binary ufunc with one output (loop types all equal).
  const ReductionSpec& reduce_spec(int loop) const;
  // Inclusive scan along the last axis of C-contiguous rows (accumulate).
  const ElementwiseSpec& accumulate_spec(int loop) const;

 private:
  std::string name_;
  int nin_, nout_;
  std::vector<UfuncLoop> loops_;
  std::string preamble_;
  std::string reduce_identity_;
  bool homogeneous_;
  bool truth_inputs_ = false;  // set_truth_inputs
  int64_t min_parallel_bytes_ = 0;
  mutable std::mutex mu_;
  mutable std::vector<std::shared_ptr<ElementwiseSpec>> specs_;
  mutable std::vector<std::shared_ptr<ElementwiseSignature>> signatures_;
  // Published once a loop's spec and signature exist, so later calls read
  // them without taking mu_ (one per loop; never reset).
  mutable std::unique_ptr<std::atomic<bool>[]> spec_ready_;
  static constexpr int kUnresolved = -2;
  mutable std::array<std::atomic<int>, kNumDtypes> first_loop_for_;
  mutable std::vector<std::shared_ptr<ReductionSpec>> reduce_specs_;
  mutable std::vector<std::shared_ptr<ElementwiseSpec>> accumulate_specs_;
  std::string loop_preamble(int loop) const;
};

}  // namespace kernels
}  // namespace kumo
