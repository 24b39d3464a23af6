// Source generation: one spec + call-site types -> kernel source for the
// host (a C++ shared object) or for CUDA (NVRTC). The per-element code is
// shared; only the loop skeleton differs by target.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.h"
#include "kernels/spec.h"

namespace kumo {
namespace kernels {

enum class Target { kHost, kCuda };

// Generic type name -> dtype (e.g. {"T", float32}).
using TypeBindings = std::vector<std::pair<std::string, Dtype>>;

struct ElementwiseSignature {
  TypeBindings bindings;
  // Per parameter (inputs then outputs): the dtype the parameter has in the
  // kernel, and the dtype of the array actually passed (loads and stores cast).
  std::vector<Dtype> param_dtypes;
  std::vector<Dtype> array_dtypes;
};

struct ReductionSignature {
  TypeBindings bindings;
  std::vector<Dtype> param_dtypes;  // inputs then outputs
  std::vector<Dtype> array_dtypes;
  std::string reduce_type;          // resolved C type of the accumulator
};

// The element types, helpers and the per-kernel support code (raw arrays,
// index objects) that every generated kernel starts with.
const std::string& kernel_support_source();

std::string generate_elementwise(const ElementwiseSpec& spec, const ElementwiseSignature& sig, Target target);
std::string generate_reduction(const ReductionSpec& spec, const ReductionSignature& sig, Target target);

// Maps a type name appearing in a spec (a dtype name, a bound generic, or
// a C type) to the C type used in kernels.
std::string resolve_c_type(const std::string& type_name, const TypeBindings& bindings);

// The prelude (kernels/prelude/kumo_prelude.h), embedded at build time.
const std::string& prelude_source();

// What every generated kernel of `target` starts with: a marker line, the
// prelude and the support structs. The host compiler driver replaces it by
// an #include of its precompiled form (kernels/host/host_compiler.cpp).
const std::string& kernel_prologue(Target target);

}  // namespace kernels
}  // namespace kumo
