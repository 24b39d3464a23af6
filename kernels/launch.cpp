#include "kernels/launch.h"

#include <algorithm>
#include <mutex>
#include <numeric>
#include <unordered_map>

#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"

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

IterSpace squash(const Shape& shape, std::vector<Strides> strides, int lead) {
  const int nd = shape.size();
  const size_t nops = strides.size();
  std::vector<int> perm;
  for (int d = 0; d < nd; ++d)
    if (shape[d] != 1) perm.push_back(d);
  if (lead >= 0 && static_cast<size_t>(lead) < nops) {
    const Strides& ls = strides[lead];
    std::stable_sort(perm.begin(), perm.end(),
                     [&](int a, int b) { return std::abs(ls[a]) > std::abs(ls[b]); });
  }
  IterSpace out;
  out.strides.assign(nops, Strides());
  for (int d : perm) {
    int n = out.shape.size();
    bool merge = n > 0;
    if (merge) {
      for (size_t k = 0; k < nops; ++k) {
        if (out.strides[k][n - 1] != strides[k][d] * shape[d]) {
          merge = false;
          break;
        }
      }
    }
    if (merge) {
      out.shape[n - 1] *= shape[d];
      for (size_t k = 0; k < nops; ++k) out.strides[k][n - 1] = strides[k][d];
    } else {
      out.shape.push_back(shape[d]);
      for (size_t k = 0; k < nops; ++k) out.strides[k].push_back(strides[k][d]);
    }
  }
  return out;
}

void run_host_range(HostRangeFn fn, const void* args, int64_t n, int64_t grain) {
  if (n <= 0) return;
  parallel_for(n, grain, [&](int64_t b, int64_t e) { fn(args, b, e); });
}

void run_cuda_kernel(Device& device, const std::string& cubin, const char* name, const ArgsBuffer& args,
                     unsigned grid, unsigned block) {
  CudaPlugin* plugin = cuda_plugin();
  if (!plugin) throw DeviceError("CUDA plugin is not loaded: " + cuda_plugin_load_error());
  CudaKernelBackend& backend = plugin->kernels();
  // load_function caches per (device, image); keep our own map to skip hashing.
  static std::mutex mu;
  static std::unordered_map<std::string, void*>* functions = new std::unordered_map<std::string, void*>();
  std::string key = std::to_string(device.index()) + ":" + name + ":" + std::to_string(std::hash<std::string>()(cubin));
  void* fn = nullptr;
  {
    std::lock_guard<std::mutex> lk(mu);
    auto it = functions->find(key);
    if (it != functions->end()) fn = it->second;
  }
  if (!fn) {
    fn = backend.load_function(device.index(), cubin, name);
    std::lock_guard<std::mutex> lk(mu);
    (*functions)[key] = fn;
  }
  LaunchDims dims;
  dims.grid[0] = std::max(1u, grid);
  dims.block[0] = block;
  void* arg_ptr = const_cast<void*>(args.data());
  void* kargs[] = {arg_ptr};
  backend.launch(device.index(), fn, dims, device.current_stream(), kargs);
}

}  // namespace kernels
}  // namespace kumo
