#include "kernels/reduction.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>

#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "core/fp_errors.h"
#include "core/host/thread_pool.h"
#include "kernels/elementwise.h"
#include "kernels/kernel_cache.h"
#include "kernels/launch.h"

namespace kumo {
namespace kernels {

namespace {

constexpr int64_t kHostGrain = 1 << 15;
constexpr unsigned kCudaBlock = 256;  // the generated kernel's shared arrays hold 256

struct CompiledReduction {
  using Range = void (*)(const void*, int64_t, int64_t);
  Range rows = nullptr;
  Range columns = nullptr;
  int64_t (*type_size)() = nullptr;
  void (*partial)(const void*, int64_t, int64_t, void*) = nullptr;
  void (*combine)(const void*, const void*, int64_t) = nullptr;
  CudaKernel cuda;
};

std::mutex g_mu;
std::unordered_map<KernelKey, std::shared_ptr<CompiledReduction>, KernelKeyHash>& cache() {
  static auto* m = new std::unordered_map<KernelKey, std::shared_ptr<CompiledReduction>, KernelKeyHash>();
  return *m;
}

std::shared_ptr<CompiledReduction> lookup(const ReductionSpec& spec, const ReductionSignature& sig, Target target) {
  KernelKey key;
  bool keyed = make_kernel_key(spec.id, static_cast<int>(target), sig.param_dtypes, sig.array_dtypes, &key);
  if (keyed) {
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = cache().find(key);
    if (it != cache().end()) return it->second;
  }
  auto ck = std::make_shared<CompiledReduction>();
  if (target == Target::kHost) {
    auto mod = get_host_module(generate_reduction(spec, sig, Target::kHost));
    ck->rows = reinterpret_cast<CompiledReduction::Range>(mod->symbol("kumo_reduce_rows"));
    ck->columns = reinterpret_cast<CompiledReduction::Range>(mod->symbol("kumo_reduce_columns"));
    ck->type_size = reinterpret_cast<int64_t (*)()>(mod->symbol("kumo_reduce_type_size"));
    ck->partial = reinterpret_cast<void (*)(const void*, int64_t, int64_t, void*)>(mod->symbol("kumo_reduce_partial"));
    ck->combine = reinterpret_cast<void (*)(const void*, const void*, int64_t)>(mod->symbol("kumo_reduce_combine"));
    if (verify_cuda_enabled()) verify_cuda_source(generate_reduction(spec, sig, Target::kCuda), spec.options);
  } else {
    ck->cuda.source = generate_reduction(spec, sig, Target::kCuda);
    ck->cuda.options = spec.options;
  }
  if (keyed) {
    std::lock_guard<std::mutex> lk(g_mu);
    cache()[key] = ck;
  }
  return ck;
}

}  // namespace

void launch_reduction(const ReductionSpec& spec, const ReductionSignature& sig, const std::vector<Array>& inputs_in,
                      const std::vector<Array>& outputs, const std::vector<int>& axes) {
  const size_t nin = inputs_in.size(), nout = outputs.size();
  if (nin != spec.in_params.size() || nout != spec.out_params.size())
    throw ValueError("Wrong number of arguments for '" + spec.name + "'");
  Device& device = inputs_in[0].device();
  for (const Array& out : outputs)
    if (out.defined()) out.memory()->bump_version();  // see core/memory.h
  for (const std::vector<Array>* group : {&inputs_in, &outputs})
    for (const Array& a : *group)
      if (a.defined() && &a.device() != &device) {
        std::vector<const Array*> all;
        for (const Array& x : inputs_in) all.push_back(&x);
        for (const Array& x : outputs) all.push_back(&x);
        check_same_device(all);  // raises with the usual message
      }

  Shape shape = inputs_in[0].shape();
  for (size_t k = 1; k < nin; ++k)
    if (inputs_in[k].shape() != shape) shape = broadcast_shapes(shape, inputs_in[k].shape());
  const int nd = shape.size();
  std::vector<bool> reduced(nd, false);
  for (int a : axes) reduced[normalize_axis(a, nd)] = true;
  Shape out_shape, red_shape;
  for (int d = 0; d < nd; ++d) (reduced[d] ? red_shape : out_shape).push_back(shape[d]);
  for (const Array& o : outputs) {
    if (o.shape() != out_shape)
      throw ValueError("output parameter for reduction operation " + spec.name + " has the wrong shape " +
                       o.shape().to_string() + " (expected " + out_shape.to_string() + ")");
    if (!o.writeable()) throw ValueError("output array is read-only");
  }
  const int64_t out_size = shape_size(out_shape), red_size = shape_size(red_shape);
  if (out_size == 0) return;
  if (red_size == 0 && spec.identity.empty())
    throw ValueError("zero-size array to reduction operation " + spec.name + " which has no identity");

  std::vector<Array> inputs = inputs_in;
  for (Array& a : inputs)
    for (const Array& o : outputs)
      if (o.memory() == a.memory() && a.memory()->size() > 0) a = a.copy(Order::kC);

  // Split every operand's strides into output axes and reduction axes.
  std::vector<Strides> out_st, red_st;
  out_st.reserve(nin + nout);
  red_st.reserve(nin);
  for (const Array& a : inputs) {
    Strides s = broadcast_strides(a.shape(), a.strides(), shape);
    Strides os, rs;
    for (int d = 0; d < nd; ++d) (reduced[d] ? rs : os).push_back(s[d]);
    out_st.push_back(os);
    red_st.push_back(rs);
  }
  for (const Array& o : outputs) out_st.push_back(o.strides());
  // Output axes in the outputs' memory order; reduction axes in input 0's.
  IterSpace oit = squash(out_shape, std::move(out_st), static_cast<int>(nin));
  IterSpace rit = squash(red_shape, std::move(red_st), 0);
  if (oit.shape.size() == 0) {
    oit.shape = Shape{1};
    for (auto& s : oit.strides) s = Strides{0};
  }
  if (rit.shape.size() == 0) {
    rit.shape = Shape{red_size == 0 ? 0 : 1};
    for (auto& s : rit.strides) s = Strides{0};
  }

  ArgsBuffer buf;
  buf.i64(out_size);
  buf.i64(red_size);
  buf.two_i32(oit.shape.size(), rit.shape.size());
  buf.two_i32(0, 0);
  buf.dims(oit.shape.data(), oit.shape.size());
  buf.dims(rit.shape.data(), rit.shape.size());
  for (const Array& a : inputs) buf.ptr(a.data());
  for (const Array& o : outputs) buf.ptr(o.data());
  for (size_t k = 0; k < nin + nout; ++k) buf.dims(oit.strides[k].data(), oit.shape.size());
  for (size_t k = 0; k < nin; ++k) buf.dims(rit.strides[k].data(), rit.shape.size());

  if (!runs_cuda_source(device)) {
    auto ck = lookup(spec, sig, Target::kHost);
    int64_t bytes = 0;
    for (const Array& a : inputs) bytes += a.itemsize();
    bytes *= out_size * red_size;
    const bool parallel = bytes >= kReductionParallelBytes && host_num_threads() > 1;
    if (out_size == 1 && red_size >= 2 * kHostGrain && parallel) {
      int64_t parts = std::min<int64_t>(host_num_threads(), red_size / kHostGrain);
      int64_t chunk = (red_size + parts - 1) / parts;
      parts = (red_size + chunk - 1) / chunk;
      std::vector<char> partials(static_cast<size_t>(parts * ck->type_size()));
      std::atomic<int> flags{0};  // floating-point status, as run_host_range records it
      parallel_for(parts, 1, [&](int64_t b, int64_t e) {
        clear_cpu_fp_flags();
        for (int64_t p = b; p < e; ++p)
          ck->partial(buf.data(), p * chunk, std::min(red_size, (p + 1) * chunk), partials.data() + p * ck->type_size());
        if (const int f = read_cpu_fp_flags()) flags.fetch_or(f, std::memory_order_relaxed);
      });
      clear_cpu_fp_flags();
      ck->combine(buf.data(), partials.data(), parts);
      record_fp_flags(flags.load(std::memory_order_relaxed) | read_cpu_fp_flags());
      return;
    }
    bool columns = oit.shape.size() == 1 && red_size > 0;
    if (columns) {
      for (size_t k = 0; k < nin; ++k) {
        int64_t item = inputs[k].itemsize();
        // Inputs after the first may be broadcast along the reduction
        // (stride 0, e.g. a kept mean): they still stream along the outputs.
        const int64_t rs = std::abs(rit.strides[k].back());
        if (oit.strides[k][0] != item || (rs <= item && !(k > 0 && rs == 0))) columns = false;
      }
      for (size_t k = 0; k < nout; ++k)
        if (oit.strides[nin + k][0] != outputs[k].itemsize()) columns = false;
    }
    if (columns) {
      // One contiguous range of columns per thread: each row is then read
      // as long contiguous segments (short ones defeat the prefetcher),
      // and even ~1000 columns spread over the threads.
      const int64_t threads = parallel ? std::max<int64_t>(1, host_num_threads()) : 1;
      run_host_range(ck->columns, buf.data(), out_size, std::max<int64_t>(128, (out_size + threads - 1) / threads));
    } else {
      const int64_t grain = parallel ? std::max<int64_t>(1, kHostGrain / std::max<int64_t>(red_size, 1)) : out_size;
      run_host_range(ck->rows, buf.data(), out_size, grain);
    }
  } else {
    auto ck = lookup(spec, sig, Target::kCuda);
    void* fn = cuda_function(device, ck->cuda, "kumo_reduction");
    unsigned grid = static_cast<unsigned>(std::min<int64_t>(out_size, 1 << 16));
    launch_cuda(device, fn, buf, grid, kCudaBlock);
  }
}

std::vector<Array> call_reduction(const ReductionSpec& spec, const std::vector<Array>& inputs,
                                  std::vector<Array> outputs, const std::vector<int64_t>& axes_in, bool all_axes,
                                  bool keepdims, const TypeBindings& forced) {
  const size_t nin = spec.in_params.size(), nout = spec.out_params.size();
  outputs.resize(nout);
  TypeBindings b = bind_kernel_types(spec.name, spec.in_params, spec.out_params, inputs, outputs, forced);
  auto dtype_of = [&](const ParamSpec& p) { return bound_dtype(spec.name, p, b); };
  if (inputs.empty()) throw ValueError("reduction '" + spec.name + "' needs an input");
  Shape shape = inputs[0].shape();
  for (size_t k = 1; k < inputs.size(); ++k)
    if (inputs[k].shape() != shape) shape = broadcast_shapes(shape, inputs[k].shape());
  std::vector<int> axes;
  if (all_axes) {
    for (int d = 0; d < shape.size(); ++d) axes.push_back(d);
  } else {
    axes = normalize_axes(axes_in, shape.size());
  }
  std::sort(axes.begin(), axes.end());
  Shape out_shape, keep_shape;
  for (int d = 0; d < shape.size(); ++d) {
    bool r = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!r) out_shape.push_back(shape[d]);
    keep_shape.push_back(r ? 1 : shape[d]);
  }
  ReductionSignature sig;
  sig.bindings = b;
  sig.param_dtypes.reserve(nin + nout);
  sig.array_dtypes.reserve(nin + nout);
  std::vector<Array> launch_outputs;
  launch_outputs.reserve(nout);
  for (size_t k = 0; k < nin; ++k) {
    sig.param_dtypes.push_back(dtype_of(spec.in_params[k]));
    sig.array_dtypes.push_back(inputs[k].dtype());
  }
  for (size_t k = 0; k < nout; ++k) {
    Dtype pd = dtype_of(spec.out_params[k]);
    if (!outputs[k].defined()) outputs[k] = Array::empty(keepdims ? keep_shape : out_shape, pd, inputs[0].device());
    Array o = outputs[k];
    if (o.shape() == keep_shape && keep_shape != out_shape) o = o.reshape(out_shape);
    sig.param_dtypes.push_back(pd);
    sig.array_dtypes.push_back(o.dtype());
    launch_outputs.push_back(o);
  }
  sig.reduce_type = resolve_c_type(spec.reduce_type, b);
  launch_reduction(spec, sig, inputs, launch_outputs, axes);
  return outputs;
}

}  // namespace kernels
}  // namespace kumo
