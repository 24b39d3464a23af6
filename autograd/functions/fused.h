// Fused elementwise kernels for autograd functions: an activation's forward,
// or its backward when that backward is not itself recorded, runs as ONE
// generated kernel instead of a chain of routines (one kernel per step).
//
//   const auto& k = fused::elementwise("kumo_ag_elu_fwd", "T x, T a", "T y",
//                                      "y = x >= (T)0 ? x : a * expm1(x)");
//   Array y = fused::call(k, {x, fused::scalar(alpha, x)})[0];
//
// Scalars (alpha, slope, ...) are 0-d kernel arguments, so one kernel serves
// every value. The fused path covers float32/float64 with one dtype (and one
// shape where the caller asks for it); float16 and mixed dtypes keep the
// composed path, whose rounding follows NumPy's promotion rules.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "autograd/variable.h"
#include "core/array.h"
#include "kernels/spec.h"

namespace kumo {
namespace autograd {
namespace fused {

// float32 or float64: the dtypes the fused kernels are written for.
bool fused_dtype(Dtype dtype);
// True when every array is defined, float32/float64, of one dtype and (with
// same_shape) of one shape.
bool applies(std::initializer_list<const Array*> arrays, bool same_shape = true);

// Operations may call kag_exp, kag_log, kag_sigmoid, kag_log1p, kag_expm1 and kag_nabs (-|x|)
// (float and double; vectorizable float32 exp/log on the host, no overflow
// in kag_sigmoid), defined in a preamble put before every fused kernel.
//
// The elementwise kernel for (name, params, operation, preamble), generated
// once per process (thread-safe cache keyed by all of them). The reference
// stays valid for the life of the process.
const kernels::ElementwiseSpec& elementwise(const std::string& name, const std::string& in_params,
                                            const std::string& out_params, const std::string& operation,
                                            const std::string& preamble = "");
// The same for a reduction kernel (CuPy's ReductionKernel model).
const kernels::ReductionSpec& reduction(const std::string& name, const std::string& in_params,
                                        const std::string& out_params, const std::string& map_expr,
                                        const std::string& reduce_expr, const std::string& post_map_expr,
                                        const std::string& identity, const std::string& reduce_type,
                                        const std::string& preamble = "");

// A 0-d array of `like`'s dtype on its device holding v: a scalar kernel argument.
Array scalar(double v, const Array& like);
// Launches an elementwise kernel on `inputs` (broadcast together), allocating
// `n_outputs` outputs.
std::vector<Array> call(const kernels::ElementwiseSpec& spec, const std::vector<Array>& inputs, size_t n_outputs = 1);

// Sums `a` over the axes along which `shape` (same ndim) is 1 and `a` is not,
// keeping them: the gradient of a parameter broadcast to a's shape.
Array sum_to_shape(const Array& a, const Shape& shape);

// A unary activation with up to two scalar parameters a and b, as one
// FunctionNode: forward is one kernel; backward is one kernel when it is not
// recorded (no double backprop) and dtypes fit, else `composed`.
struct UnaryActivation {
  const char* label;     // the node's label ("ELU") and the kernels' name stem
  const char* forward;   // statement(s) setting y from x, a, b
  bool needs_output;     // the derivative reads y (else x)
  const char* gradient;  // statement(s) setting gx from v (x or y), gy, a, b
  // The same gradient written with differentiable functions.
  Variable (*composed)(const Variable& v, const Variable& gy, double a, double b);
  const char* preamble = "";
};
Variable apply_unary(const UnaryActivation& rule, const Variable& x, double a = 0, double b = 0);

// An activation of x and a parameter p (prelu's W, swish's beta) reshaped to
// broadcast_shape (x's ndim, broadcasting against x) inside the node, so the
// node is the only function forward and backward runs none. Its kernels: forward "T x, T p -> T y";
// gradient "T x, T p, T gy -> T gx, T gp" with gp per element (summed to p's
// shape afterwards).
struct ParameterActivation {
  const char* label;
  const char* forward;
  const char* gradient;
  // Differentiable gradients of x and of p (p reshaped; gp summed to its shape).
  std::vector<Variable> (*composed)(const Variable& x, const Variable& p, const Variable& gy);
  const char* preamble = "";
};
Variable apply_parameter(const ParameterActivation& rule, const Variable& x, const Variable& p,
                         const Shape& broadcast_shape);

}  // namespace fused
}  // namespace autograd
}  // namespace kumo
