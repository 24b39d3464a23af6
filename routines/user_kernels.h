// CuPy's user kernels for C++, called like functions:
//
//   kumo::ElementwiseKernel square("T x", "T y", "y = x * x", "square");
//   kumo::Array y = square(a);                    // allocates y (a's dtype)
//   square(a, y);                                 // or writes into y
//   kumo::ElementwiseKernel axpy("T a, T x, T y", "T z", "z = a * x + y", "axpy");
//   kumo::Array z = axpy(2.0, x, y);              // a number takes x's type
//
//   kumo::ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
//   kumo::Array n = l2(a);                        // over every axis
//   kumo::Array rows = l2.reduce({a}, 1)[0];      // over axis 1
//
// The snippets are CUDA C++ with generic type names; they compile for the
// host (the system compiler) or, for CUDA arrays, with NVRTC, once per type
// signature (kernels/kernel_cache.h). Errors: TypeError for a wrong argument
// count or a type that cannot be bound, CompileError for a snippet that
// does not compile.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/array.h"
#include "kernels/spec.h"
#include "routines/reduction.h"
#include "routines/scalar.h"

namespace kumo {

// One argument of a user kernel call: an array, or a number, which becomes a
// 0-d array of the type its parameter has or binds.
class KernelOperand {
 public:
  KernelOperand(const Array& array) : array_(array) {}        // NOLINT: implicit, as in a call
  KernelOperand(const Scalar& scalar) : scalar_(scalar) {}    // NOLINT
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  KernelOperand(T value) : scalar_(Scalar(value)) {}          // NOLINT
  KernelOperand(std::complex<double> value) : scalar_(Scalar(value)) {}  // NOLINT

  const Array& array() const { return array_; }
  const std::optional<Scalar>& scalar() const { return scalar_; }

 private:
  Array array_;
  std::optional<Scalar> scalar_;
};

struct ElementwiseKernelOptions {
  std::string preamble;              // code before the kernel (helpers, constants)
  std::vector<std::string> options;  // extra NVRTC options
  std::string loop_prep;             // once per CUDA thread / host chunk, before its loop
  std::string after_loop;            // ... and after it
  bool reduce_dims = true;           // merge contiguous axes before launching
};

class ElementwiseKernel {
 public:
  ElementwiseKernel(const std::string& in_params, const std::string& out_params, const std::string& operation,
                    const std::string& name = "kernel", const ElementwiseKernelOptions& options = {});

  // The inputs, then optionally every output; returns the first output.
  template <class... Args>
  Array operator()(const Args&... args) const {
    return call({KernelOperand(args)...}).front();
  }
  // Every output. `size` >= 0 is the element count when every argument is raw.
  std::vector<Array> call(const std::vector<KernelOperand>& args, int64_t size = -1) const;

  const std::string& name() const { return spec_->name; }
  size_t nin() const { return spec_->in_params.size(); }
  size_t nout() const { return spec_->out_params.size(); }
  const kernels::ElementwiseSpec& spec() const { return *spec_; }

 private:
  std::shared_ptr<kernels::ElementwiseSpec> spec_;
};

struct ReductionKernelOptions {
  std::string reduce_type;  // the accumulator's type; "" -> the first output's type
  std::string preamble;
  std::vector<std::string> options;
};

// out = post_map(reduce(map(inputs))) over axes; `identity` nullopt means
// none (an empty reduction is a ValueError).
class ReductionKernel {
 public:
  ReductionKernel(const std::string& in_params, const std::string& out_params, const std::string& map_expr,
                  const std::string& reduce_expr, const std::string& post_map_expr,
                  const std::optional<std::string>& identity, const std::string& name = "reduce_kernel",
                  const ReductionKernelOptions& options = {});

  // The inputs (then optionally the outputs), reduced over every axis.
  template <class... Args>
  Array operator()(const Args&... args) const {
    return reduce({KernelOperand(args)...}).front();
  }
  std::vector<Array> reduce(const std::vector<KernelOperand>& args, const Axes& axes = Axes::all(),
                            bool keepdims = false) const;

  const std::string& name() const { return spec_->name; }
  const kernels::ReductionSpec& spec() const { return *spec_; }

 private:
  std::shared_ptr<kernels::ReductionSpec> spec_;
};

}  // namespace kumo
