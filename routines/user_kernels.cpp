#include "routines/user_kernels.h"

#include "core/errors.h"
#include "kernels/elementwise.h"
#include "kernels/kernel_arguments.h"
#include "kernels/reduction.h"

namespace kumo {
namespace {

// The params of inputs and outputs, checking the count (inputs, or inputs
// and every output).
std::vector<kernels::ParamSpec> call_params(const std::string& name, const std::vector<kernels::ParamSpec>& in,
                                            const std::vector<kernels::ParamSpec>& out, size_t given) {
  if (given != in.size() && given != in.size() + out.size()) {
    throw TypeError("Wrong number of arguments for '" + name + "': expected " + std::to_string(in.size()) + " or " +
                    std::to_string(in.size() + out.size()) + ", got " + std::to_string(given));
  }
  std::vector<kernels::ParamSpec> params = in;
  params.insert(params.end(), out.begin(), out.end());
  return params;
}

std::vector<kernels::KernelArgument> converted(const std::vector<KernelOperand>& args) {
  std::vector<kernels::KernelArgument> out(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].scalar()) {
      out[i].scalar = args[i].scalar()->value();
    } else {
      out[i].array = args[i].array();
    }
  }
  return out;
}

}  // namespace

ElementwiseKernel::ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                                     const std::string& operation, const std::string& name,
                                     const ElementwiseKernelOptions& options)
    : spec_(kernels::ElementwiseSpec::create(name, in_params, out_params, operation, options.preamble,
                                             options.options, options.loop_prep, options.after_loop)) {
  spec_->reduce_dims = options.reduce_dims;
}

std::vector<Array> ElementwiseKernel::call(const std::vector<KernelOperand>& args, int64_t size) const {
  const size_t nin = spec_->in_params.size();
  std::vector<kernels::ParamSpec> params = call_params(spec_->name, spec_->in_params, spec_->out_params, args.size());
  // CuPy's rule for given outputs: arrays of exactly the parameter's type.
  for (size_t k = nin; k < args.size(); ++k) {
    if (args[k].scalar() || !args[k].array().defined()) {
      throw TypeError("Output arguments of '" + spec_->name + "' must be arrays");
    }
    const kernels::ParamSpec& p = params[k];
    const Dtype d = args[k].array().dtype();
    if (!p.is_generic && d != p.dtype) {
      throw TypeError("Type is mismatched. " + p.name + " " + dtype_name(d) + " " + dtype_name(p.dtype));
    }
  }
  kernels::TypeBindings bindings;
  std::vector<Array> all = kernels::kernel_arguments(params, converted(args), {}, &bindings);
  std::vector<Array> ins(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(nin));
  std::vector<Array> outs(all.begin() + static_cast<std::ptrdiff_t>(nin), all.end());
  return kernels::call_elementwise(*spec_, ins, outs, bindings, size);
}

ReductionKernel::ReductionKernel(const std::string& in_params, const std::string& out_params,
                                 const std::string& map_expr, const std::string& reduce_expr,
                                 const std::string& post_map_expr, const std::optional<std::string>& identity,
                                 const std::string& name, const ReductionKernelOptions& options) {
  std::string reduce_type = options.reduce_type;
  if (reduce_type.empty()) {
    const std::vector<kernels::ParamSpec> outs = kernels::parse_params(out_params);
    reduce_type = outs.empty() ? "T" : outs[0].type_name;
  }
  spec_ = kernels::ReductionSpec::create(name, in_params, out_params, map_expr, reduce_expr, post_map_expr,
                                         identity.value_or(""), reduce_type, options.preamble, options.options);
}

std::vector<Array> ReductionKernel::reduce(const std::vector<KernelOperand>& args, const Axes& axes, bool keepdims) const {
  const size_t nin = spec_->in_params.size();
  std::vector<kernels::ParamSpec> params = call_params(spec_->name, spec_->in_params, spec_->out_params, args.size());
  kernels::TypeBindings bindings;
  std::vector<Array> all = kernels::kernel_arguments(params, converted(args), {}, &bindings);
  std::vector<Array> ins(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(nin));
  std::vector<Array> outs(all.begin() + static_cast<std::ptrdiff_t>(nin), all.end());
  return kernels::call_reduction(*spec_, ins, outs, axes.list(), axes.is_all(), keepdims, bindings);
}

}  // namespace kumo
