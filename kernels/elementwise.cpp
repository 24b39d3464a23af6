#include "kernels/elementwise.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "kernels/kernel_cache.h"
#include "kernels/launch.h"

namespace kumo {
namespace kernels {

namespace {

constexpr int64_t kHostGrain = 1 << 15;
constexpr unsigned kCudaBlock = 256;

struct CompiledElementwise {
  HostRangeFn host_fn = nullptr;
  CudaKernel cuda;
};

std::mutex g_mu;
std::unordered_map<KernelKey, std::shared_ptr<CompiledElementwise>, KernelKeyHash>& fast_cache() {
  static auto* m = new std::unordered_map<KernelKey, std::shared_ptr<CompiledElementwise>, KernelKeyHash>();
  return *m;
}

std::shared_ptr<CompiledElementwise> compile(const ElementwiseSpec& spec, const ElementwiseSignature& sig,
                                             Target target) {
  auto ck = std::make_shared<CompiledElementwise>();
  if (target == Target::kHost) {
    std::string src = generate_elementwise(spec, sig, Target::kHost);
    auto mod = get_host_module(src);
    ck->host_fn = reinterpret_cast<HostRangeFn>(mod->symbol("kumo_elementwise"));
    if (verify_cuda_enabled()) verify_cuda_source(generate_elementwise(spec, sig, Target::kCuda), spec.options);
  } else {
    ck->cuda.source = generate_elementwise(spec, sig, Target::kCuda);
    ck->cuda.options = spec.options;
  }
  return ck;
}

// The compiled kernel, cached for the life of the process (entries are never
// replaced or removed, so the raw pointer stays valid).
const CompiledElementwise* lookup(const ElementwiseSpec& spec, const ElementwiseSignature& sig, Target target) {
  KernelKey key;
  bool keyed = make_kernel_key(spec.id, static_cast<int>(target), sig.param_dtypes, sig.array_dtypes, &key);
  // Loops often call the same kernel repeatedly: a per-thread last hit
  // skips the lock and the hash.
  thread_local KernelKey last_key;
  thread_local const CompiledElementwise* last = nullptr;
  if (keyed && last && key == last_key) return last;
  if (keyed) {
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = fast_cache().find(key);
    if (it != fast_cache().end()) {
      last_key = key;
      last = it->second.get();
      return last;
    }
  }
  auto ck = compile(spec, sig, target);
  if (!keyed) {
    // Not in the keyed cache: kept alive here (the source-keyed module cache
    // already holds the compiled code, so this grows only with such kernels).
    static std::mutex unkeyed_mu;
    static auto* unkeyed = new std::vector<std::shared_ptr<CompiledElementwise>>();
    std::lock_guard<std::mutex> lk(unkeyed_mu);
    unkeyed->push_back(ck);
    return ck.get();
  }
  std::lock_guard<std::mutex> lk(g_mu);
  // Another thread may have compiled the same kernel meanwhile: keep the first.
  return fast_cache().emplace(key, std::move(ck)).first->second.get();
}

// Runs a specialised kernel over `total` elements with a filled argument buffer.
void run(Device& device, const ElementwiseSpec& spec, const ElementwiseSignature& sig, const ArgsBuffer& buf,
         int64_t total, int64_t bytes_per_element = 0) {
  if (!runs_cuda_source(device)) {
    const CompiledElementwise* ck = lookup(spec, sig, Target::kHost);
    const bool small = spec.min_parallel_bytes > 0 && total * bytes_per_element < spec.min_parallel_bytes;
    run_host_range(ck->host_fn, buf.data(), total, small ? total : spec.host_grain > 0 ? spec.host_grain : kHostGrain);
  } else {
    const CompiledElementwise* ck = lookup(spec, sig, Target::kCuda);
    void* fn = cuda_function(device, const_cast<CudaKernel&>(ck->cuda), "kumo_elementwise");
    int64_t blocks = (total + kCudaBlock - 1) / kCudaBlock;
    unsigned grid = static_cast<unsigned>(std::min<int64_t>(blocks, 1 << 20));
    launch_cuda(device, fn, buf, grid, kCudaBlock);
  }
}

}  // namespace

TypeBindings bind_generic_types(const std::vector<ParamSpec>& params, const std::vector<const Array*>& arrays,
                                const TypeBindings& forced) {
  TypeBindings b = forced;
  auto find = [&](const std::string& name) -> Dtype* {
    for (auto& kv : b)
      if (kv.first == name) return &kv.second;
    return nullptr;
  };
  for (size_t i = 0; i < params.size() && i < arrays.size(); ++i) {
    const ParamSpec& p = params[i];
    if (!p.is_generic || !arrays[i] || !arrays[i]->defined()) continue;
    Dtype d = arrays[i]->dtype();
    Dtype* existing = find(p.type_name);
    if (!existing) {
      b.emplace_back(p.type_name, d);
    } else if (*existing != d) {
      throw TypeError("Type is mismatched. " + p.name + " " + p.type_name + " " + dtype_name(d) + " " +
                      dtype_name(*existing));
    }
  }
  return b;
}

void launch_elementwise(const ElementwiseSpec& spec, const ElementwiseSignature& sig, const std::vector<Array>& args,
                        int64_t size) {
  std::vector<const Array*> ptrs;
  ptrs.reserve(args.size());
  for (const Array& a : args) ptrs.push_back(&a);
  launch_elementwise(spec, sig, ptrs.data(), ptrs.size(), size);
}

void launch_elementwise(const ElementwiseSpec& spec, const ElementwiseSignature& sig, const Array* const* argp,
                        size_t n, int64_t size) {
  // The hot path of every array operation: no heap allocation besides the
  // arrays themselves, so fixed-capacity locals instead of vectors.
  constexpr size_t kMaxOperands = 32;
  const size_t nin = spec.in_params.size();
  struct ArgView {
    const Array* const* p;
    const Array& operator[](size_t k) const { return *p[k]; }
  } args{argp};
  if (n != nin + spec.out_params.size())
    throw ValueError("Wrong number of arguments for '" + spec.name + "'");
  if (n > kMaxOperands)
    throw ValueError("kernel '" + spec.name + "' has " + std::to_string(n) + " arguments; at most " +
                     std::to_string(kMaxOperands) + " are supported");
  auto is_raw = [&](size_t k) { return k < nin ? spec.in_params[k].raw : spec.out_params[k - nin].raw; };
  Device* device = n ? &args[0].device() : &current_device();
  for (size_t k = 1; k < n; ++k)
    if (&args[k].device() != device)
      throw DeviceError("arrays are on different devices: " + device->name() + " and " + args[k].device().name() +
                        "; move one with to_device() first");
  // The host's blocked scalar-operand loop (mode 2) exists only in host source.
  const bool cuda_source = runs_cuda_source(*device);

  // Iteration shape: the broadcast of every non-raw operand; outputs must have it.
  Shape shape;
  bool any_loop_operand = false;
  for (size_t k = 0; k < n; ++k) {
    if (is_raw(k)) continue;
    const Shape& s = args[k].shape();
    if (!any_loop_operand) {
      shape = s;
      any_loop_operand = true;
    } else if (s != shape) {
      shape = broadcast_shapes(shape, s);
    }
  }
  // size= sets the loop length; non-raw arguments must then be scalars
  // (0-d, broadcast over it) or already of shape (size,).
  if (size >= 0 && any_loop_operand) {
    const Shape sized{size};
    if (shape.size() != 0 && shape != sized)
      throw ValueError("size=" + std::to_string(size) + " does not match the broadcast shape " + shape.to_string() +
                       " of the non-raw arguments");
    shape = sized;
  }
  if (any_loop_operand) {
    for (size_t k = nin; k < n; ++k) {
      if (is_raw(k)) continue;
      if (args[k].shape() != shape)
        throw ValueError("non-broadcastable output operand with shape " + args[k].shape().to_string() +
                         " doesn't match the broadcast shape " + shape.to_string());
      if (!args[k].writeable()) throw ValueError("output array is read-only");
    }
  } else {
    if (size < 0) throw ValueError("Loop size is undecided: pass size= when every argument is raw");
    shape = Shape{size};
  }
  // Outputs are written: in-place writes must be visible to autograd (core/memory.h).
  for (size_t k = nin; k < n; ++k) args[k].memory()->bump_version();
  const int64_t total = shape_size(shape);
  if (total == 0) return;

  // Loop operands (pointers into args, or overlap-breaking copies).
  const Array* ops[kMaxOperands];
  std::vector<Array> copies;  // allocated only when an input overlaps an output
  const Array* raws[kMaxOperands];
  size_t nops = 0, nraw = 0;
  int lead = -1;
  for (size_t k = 0; k < n; ++k) {
    if (is_raw(k)) {
      raws[nraw++] = argp[k];
      continue;
    }
    const Array* a = argp[k];
    if (k < nin) {
      // An input that overlaps an output differently must be read before
      // it is overwritten: take a copy (NumPy does the same).
      for (size_t o = nin; o < n; ++o) {
        const Array& out = args[o];
        if (out.memory() == a->memory() && a->memory()->size() > 0 &&
            !(out.offset() == a->offset() && out.strides() == a->strides() && out.shape() == a->shape())) {
          if (copies.empty()) copies.reserve(nin);
          copies.push_back(a->copy(Order::kC));
          a = &copies.back();
          break;
        }
      }
    } else if (lead < 0) {
      lead = static_cast<int>(nops);
    }
    ops[nops++] = a;
  }

  // Every operand C-contiguous with the full shape: one flat run, no
  // squashing needed (the common case for small arrays, where it matters).
  // On the host, 0-d inputs (weak scalars) join it as stride-0 operands of
  // the blocked scalar loop (mode 2).
  size_t nops_in = 0;
  for (size_t k = 0; k < nin; ++k) nops_in += is_raw(k) ? 0 : 1;
  int64_t bytes_per_element = 0;  // what the loop moves per element (broadcast scalars aside)
  for (size_t k = 0; k < nops; ++k)
    if (ops[k]->ndim() != 0 || shape.size() == 0) bytes_per_element += ops[k]->itemsize();
  bool flat = true, scalar_inputs = false;
  for (size_t k = 0; k < nops && flat; ++k) {
    if (ops[k]->shape() == shape && ops[k]->c_contiguous()) continue;
    if (k < nops_in && ops[k]->ndim() == 0 && !cuda_source) {
      scalar_inputs = true;
      continue;
    }
    flat = false;
  }
  if (flat && spec.reduce_dims) {
    // One axis of `total` elements: contiguous (mode 1), or with 0-d inputs
    // read through stride 0 by the blocked scalar loop (mode 2).
    ArgsBuffer fbuf;
    fbuf.i64(total);
    fbuf.two_i32(1, scalar_inputs ? 2 : 1);
    const int64_t extent[1] = {total};
    fbuf.dims(extent, 1);
    for (size_t k = 0; k < nops; ++k) fbuf.ptr(ops[k]->data());
    for (size_t k = 0; k < nops; ++k) {
      const int64_t stride[1] = {ops[k]->ndim() == 0 && shape.size() != 0 ? 0 : ops[k]->itemsize()};
      fbuf.dims(stride, 1);
    }
    for (size_t r = 0; r < nraw; ++r) fbuf.raw_desc(*raws[r]);
    run(*device, spec, sig, fbuf, total, bytes_per_element);
    return;
  }
  Strides strides[kMaxOperands];
  for (size_t k = 0; k < nops; ++k) {
    const Array& a = *ops[k];
    strides[k] = a.shape() == shape ? a.strides() : broadcast_strides(a.shape(), a.strides(), shape);
  }
  Shape it_shape = shape;
  if (spec.reduce_dims) squash_in_place(it_shape, strides, nops, spec.reorder_axes ? lead : -1);
  bool contiguous = it_shape.size() <= 1;
  if (it_shape.size() == 1)
    for (size_t k = 0; k < nops; ++k)
      if (strides[k][0] != ops[k]->itemsize()) contiguous = false;
  if (it_shape.size() == 0) {
    // A single element: a contiguous run of one.
    it_shape = Shape{1};
    for (size_t k = 0; k < nops; ++k) strides[k] = Strides{0};
    contiguous = true;
  }

  // On the host, one axis where every input is contiguous or a broadcast
  // scalar (stride 0) runs the blocked scalar-operand loop (mode 2).
  int mode = contiguous ? 1 : 0;
  if (!contiguous && it_shape.size() == 1 && !cuda_source) {
    bool scalar_ok = true;
    for (size_t k = 0; k < nops && scalar_ok; ++k)
      scalar_ok = strides[k][0] == ops[k]->itemsize() || (strides[k][0] == 0 && k < nops_in);
    if (scalar_ok) mode = 2;
  }
  ArgsBuffer buf;
  buf.i64(total);
  buf.two_i32(it_shape.size(), mode);
  buf.dims(it_shape.data(), it_shape.size());
  for (size_t k = 0; k < nops; ++k) buf.ptr(ops[k]->data());
  for (size_t k = 0; k < nops; ++k) buf.dims(strides[k].data(), it_shape.size());
  for (size_t r = 0; r < nraw; ++r) buf.raw_desc(*raws[r]);

  run(*device, spec, sig, buf, total, bytes_per_element);
}

TypeBindings bind_kernel_types(const std::string& kernel, const std::vector<ParamSpec>& in_params,
                               const std::vector<ParamSpec>& out_params, const std::vector<Array>& inputs,
                               const std::vector<Array>& outputs, const TypeBindings& forced) {
  if (inputs.size() != in_params.size())
    throw TypeError("Wrong number of arguments for '" + kernel + "': expected " + std::to_string(in_params.size()) +
                    " inputs, got " + std::to_string(inputs.size()));
  // The same rule as bind_generic_types, without building its parameter
  // and pointer lists (this runs on every reduction and kernel call).
  TypeBindings b = forced;
  auto bind = [&](const ParamSpec& p, const Array& a) {
    if (!p.is_generic || !a.defined()) return;
    const Dtype d = a.dtype();
    for (auto& kv : b)
      if (kv.first == p.type_name) {
        if (kv.second != d)
          throw TypeError("Type is mismatched. " + p.name + " " + p.type_name + " " + dtype_name(d) + " " +
                          dtype_name(kv.second));
        return;
      }
    b.emplace_back(p.type_name, d);
  };
  for (size_t i = 0; i < in_params.size(); ++i) bind(in_params[i], inputs[i]);
  for (size_t k = 0; k < out_params.size() && k < outputs.size(); ++k) bind(out_params[k], outputs[k]);
  return b;
}

Dtype bound_dtype(const std::string& kernel, const ParamSpec& p, const TypeBindings& bindings) {
  if (!p.is_generic) return p.dtype;
  for (auto& kv : bindings)
    if (kv.first == p.type_name) return kv.second;
  throw TypeError("Cannot determine the type of '" + p.name + "' (" + p.type_name + ") in '" + kernel + "'");
}

std::vector<Array> call_elementwise(const ElementwiseSpec& spec, const std::vector<Array>& inputs,
                                    std::vector<Array> outputs, const TypeBindings& forced, int64_t size) {
  const size_t nin = spec.in_params.size(), nout = spec.out_params.size();
  outputs.resize(nout);
  TypeBindings b = bind_kernel_types(spec.name, spec.in_params, spec.out_params, inputs, outputs, forced);
  auto dtype_of = [&](const ParamSpec& p) { return bound_dtype(spec.name, p, b); };
  std::vector<const Array*> all;
  for (const Array& a : inputs) all.push_back(&a);
  for (const Array& a : outputs) all.push_back(&a);
  check_same_device(all);
  Device* device = nullptr;
  for (const Array* a : all)
    if (a->defined()) {
      device = &a->device();
      break;
    }
  if (!device) device = &current_device();

  std::vector<Shape> shapes;
  for (size_t k = 0; k < nin; ++k)
    if (!spec.in_params[k].raw) shapes.push_back(inputs[k].shape());
  for (size_t k = 0; k < nout; ++k)
    if (!spec.out_params[k].raw && outputs[k].defined()) shapes.push_back(outputs[k].shape());
  Shape shape = shapes.empty() ? Shape{size < 0 ? 0 : size} : broadcast_shapes(shapes);
  if (shapes.empty() && size < 0) throw ValueError("Loop size is undecided: pass size= when every argument is raw");

  ElementwiseSignature sig;
  sig.bindings = b;
  std::vector<Array> args;
  for (size_t k = 0; k < nin; ++k) {
    Dtype pd = dtype_of(spec.in_params[k]);
    Array a = inputs[k];
    if (spec.in_params[k].raw && a.dtype() != pd) a = a.astype(pd);
    sig.param_dtypes.push_back(pd);
    sig.array_dtypes.push_back(a.dtype());
    args.push_back(a);
  }
  for (size_t k = 0; k < nout; ++k) {
    Dtype pd = dtype_of(spec.out_params[k]);
    if (!outputs[k].defined()) outputs[k] = Array::empty(shape, pd, *device);
    if (spec.out_params[k].raw && outputs[k].dtype() != pd)
      throw TypeError("raw output '" + spec.out_params[k].name + "' must have dtype " + dtype_name(pd));
    sig.param_dtypes.push_back(pd);
    sig.array_dtypes.push_back(outputs[k].dtype());
    args.push_back(outputs[k]);
  }
  launch_elementwise(spec, sig, args, size);
  return outputs;
}

}  // namespace kernels
}  // namespace kumo
