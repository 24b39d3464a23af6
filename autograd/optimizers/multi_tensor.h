// The multi-tensor update engine behind every fused optimizer: given lists of
// arrays of one dtype on one device (parameters, gradients and per-rule state
// arrays) and the rule's scalars, ONE kernel launch updates all of them.
//
// Host: one parallel loop over the concatenated element range, split into
// chunks on the thread pool, with a vectorisable inner loop per tensor piece.
// CUDA: one NVRTC kernel per (rule, dtype) reading a device table of
// pointers and start offsets. Both expand the formulas of formulas.h.
#pragma once
#include <string>
#include <vector>

#include "core/array.h"

namespace kumo {
namespace autograd {
namespace optimizers {

// The formulas of formulas.h, by number; hooks that rewrite gradients are
// rules too (they read the parameter and write the gradient).
enum class Rule : int {
  kSGD = 0,
  kMomentumSGD = 1,
  kNesterovAG = 2,
  kAdam = 3,
  kAdaGrad = 4,
  kAdaDelta = 5,
  kRMSprop = 6,
  kRMSpropGraves = 7,
  kSMORMS3 = 8,
  kCorrectedMomentumSGD = 9,
  kMSVAG = 10,
  kWeightDecay = 11,
  kLasso = 12,
  kHardClip = 13,
  kScaleGrad = 14,
};
// The most scalars a rule takes.
constexpr int kMaxScalars = 12;

// Updates params[i] (and grads[i] for hooks) in place with `rule`, for every
// i, in one launch. states[s][i] is state s of tensor i (as many state lists
// as the rule uses; absent states may be omitted). All arrays must be float32
// or float64 of the params' dtype, on the params' device, with equal shapes
// per i; operands that are not C-contiguous or not of that dtype are staged
// through contiguous copies and written back.
void multi_tensor_update(Rule rule, const std::vector<Array>& params, const std::vector<Array>& grads,
                         const std::vector<std::vector<Array>>& states, const std::vector<double>& scalars);

// The sum of squares of every element of every array (float32/float64, one
// device), accumulated in float64. Used by GradientClipping's global norm.
double multi_tensor_sum_squares(const std::vector<Array>& arrays);

// True when no element of any array is inf or NaN (dynamic loss scaling).
bool multi_tensor_all_finite(const std::vector<Array>& arrays);

// The NVRTC source of the CUDA kernel for (rule, dtype) and its entry name.
std::string multi_tensor_cuda_source(Rule rule, Dtype dtype);
std::string multi_tensor_cuda_kernel_name(Rule rule, Dtype dtype);

}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
