#include "kernels/launch.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <unordered_map>

#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "core/fp_errors.h"
#include "core/host/thread_pool.h"
#include "kernels/host/cuda_emulation.h"
#include "kernels/kernel_cache.h"

namespace kumo {
namespace kernels {

bool make_kernel_key(uint64_t spec_id, int target, const std::vector<Dtype>& a, const std::vector<Dtype>& b,
                     KernelKey* key) {
  size_t n = a.size() + b.size();
  if (n > static_cast<size_t>(KernelKey::kMaxTypes)) return false;
  key->spec_id = spec_id;
  key->n = static_cast<uint8_t>(n);
  key->target = static_cast<uint8_t>(target);
  size_t i = 0;
  for (Dtype d : a) key->types[i++] = static_cast<uint8_t>(d);
  for (Dtype d : b) key->types[i++] = static_cast<uint8_t>(d);
  return true;
}

void ArgsBuffer::raw_desc(const Array& a) {
  ptr(a.data());
  i64(a.size());
  two_i32(a.ndim(), a.c_contiguous() ? 1 : 0);
  dims(a.shape().data(), a.ndim());
  dims(a.strides().data(), a.ndim());
}

void squash_in_place(Shape& shape, Strides* strides, size_t nops, int lead) {
  const int nd = shape.size();
  int perm[kMaxNdim];
  int np = 0;
  for (int d = 0; d < nd; ++d)
    if (shape[d] != 1) perm[np++] = d;
  if (lead >= 0 && static_cast<size_t>(lead) < nops) {
    const Strides& ls = strides[lead];
    // A stable insertion sort: at most kMaxNdim axes, and std::stable_sort
    // would allocate a temporary buffer on every launch.
    for (int i = 1; i < np; ++i) {
      const int d = perm[i];
      int j = i;
      for (; j > 0 && std::abs(ls[perm[j - 1]]) < std::abs(ls[d]); --j) perm[j] = perm[j - 1];
      perm[j] = d;
    }
  }
  Shape out_shape;
  // Decide merges using all operands, then apply.
  int group_of[kMaxNdim];
  int ngroups = 0;
  int64_t extents[kMaxNdim];
  for (int i = 0; i < np; ++i) {
    int d = perm[i];
    bool merge = ngroups > 0;
    if (merge) {
      int pd = perm[i - 1];
      for (size_t k = 0; k < nops; ++k) {
        if (strides[k][pd] != strides[k][d] * shape[d]) {
          merge = false;
          break;
        }
      }
    }
    if (merge) {
      extents[ngroups - 1] *= shape[d];
    } else {
      extents[ngroups++] = shape[d];
    }
    group_of[i] = ngroups - 1;
  }
  for (size_t k = 0; k < nops; ++k) {
    int64_t st[kMaxNdim];
    // A group's stride is the stride of its last (fastest) axis.
    for (int i = 0; i < np; ++i) st[group_of[i]] = strides[k][perm[i]];
    strides[k].resize(ngroups);
    for (int g = 0; g < ngroups; ++g) strides[k][g] = st[g];
  }
  out_shape.resize(ngroups);
  for (int g = 0; g < ngroups; ++g) out_shape[g] = extents[g];
  shape = out_shape;
}

IterSpace squash(const Shape& shape, std::vector<Strides> strides, int lead) {
  IterSpace out;
  out.shape = shape;
  squash_in_place(out.shape, strides.data(), strides.size(), lead);
  out.strides = std::move(strides);
  return out;
}

void run_host_range(HostRangeFn fn, const void* args, int64_t n, int64_t grain) {
  if (n <= 0) return;
  // Each range runs with the floating-point status flags cleared, and what
  // it raised is recorded for the issuing thread (core/fp_errors.h).
  // Small work runs inline (as parallel_for would) without building its std::function.
  if (n <= grain) {
    clear_cpu_fp_flags();
    fn(args, 0, n);
    record_fp_flags(read_cpu_fp_flags());
    return;
  }
  std::atomic<int> flags{0};
  parallel_for(n, grain, [&](int64_t b, int64_t e) {
    clear_cpu_fp_flags();
    fn(args, b, e);
    if (const int f = read_cpu_fp_flags()) flags.fetch_or(f, std::memory_order_relaxed);
  });
  record_fp_flags(flags.load(std::memory_order_relaxed));
}

namespace {

std::atomic<bool>& emulate_cuda_flag() {
  static std::atomic<bool> flag{[] {
    const char* env = std::getenv("KUMO_EMULATE_CUDA");
    return env && *env && std::string(env) != "0";
  }()};
  return flag;
}

// Host devices and CUDA devices share indices (both have a device 0), so
// the emulated function of a host device is kept under a negative key.
std::atomic<uint64_t> g_emulated_launches{0};

int function_key(const Device& device) {
  return device.type() == DeviceType::kCPU ? -1 - device.index() : device.index();
}

void* emulated_function(CudaKernel& kernel, const char* name) {
  EmulatedModuleSource translated = translate_cuda_for_host(kernel.source, {}, kernel.options);
  for (const auto& entry : translated.entries) {
    if (entry.first != name) continue;
    // The module cache keeps the module loaded for the life of the process.
    std::shared_ptr<HostModule> module = get_host_module(translated.source);
    return module->symbol(entry.second.c_str());
  }
  throw CompileError(std::string("generated CUDA kernel has no __global__ function '") + name +
                     "' for the CUDA host emulator");
}

}  // namespace

bool emulate_cuda_enabled() { return emulate_cuda_flag().load(std::memory_order_relaxed); }
void set_emulate_cuda(bool on) { emulate_cuda_flag().store(on, std::memory_order_relaxed); }
uint64_t emulated_cuda_launches() { return g_emulated_launches.load(std::memory_order_relaxed); }
bool runs_cuda_source(const Device& device) {
  return device.type() != DeviceType::kCPU || emulate_cuda_enabled();
}

void* cuda_function(Device& device, CudaKernel& kernel, const char* name) {
  const int key = function_key(device);
  {
    std::lock_guard<std::mutex> lk(kernel.mu);
    auto it = kernel.functions.find(key);
    if (it != kernel.functions.end()) return it->second;
  }
  void* fn = nullptr;
  if (device.type() == DeviceType::kCPU) {
    fn = emulated_function(kernel, name);
  } else {
    CudaPlugin* plugin = cuda_plugin();
    if (!plugin) throw DeviceError("CUDA plugin is not loaded: " + cuda_plugin_load_error());
    CudaKernelBackend& backend = plugin->kernels();
    const int arch = backend.device_arch(device.index());
    const std::string cubin = get_cuda_cubin(kernel.source, arch, kernel.options);
    fn = backend.load_function(device.index(), cubin, name);
  }
  std::lock_guard<std::mutex> lk(kernel.mu);
  kernel.functions[key] = fn;
  return fn;
}

void launch_cuda(Device& device, void* function, const ArgsBuffer& args, unsigned grid, unsigned block) {
  void* arg_ptr = const_cast<void*>(args.data());
  void* kargs[] = {arg_ptr};
  if (device.type() == DeviceType::kCPU) {
    EmulatedLaunch launch{{std::max(1u, grid), 1, 1}, {block, 1, 1}, 0, kargs};
    launch_emulated(reinterpret_cast<HostRangeFn>(function), launch);
    g_emulated_launches.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  LaunchDims dims;
  dims.grid[0] = std::max(1u, grid);
  dims.block[0] = block;
  cuda_plugin()->kernels().launch(device.index(), function, dims, device.current_stream(), kargs);
}

}  // namespace kernels
}  // namespace kumo
