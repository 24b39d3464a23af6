// Backend-neutral pieces of kernel launching: argument buffers mirroring the
// generated structs, dimension squashing, and the per-backend runners.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/shape.h"

namespace kumo {
namespace kernels {

// The in-memory key of a specialised kernel: spec identity, target and the
// (parameter, array) dtypes. Built without heap allocation on every call.
struct KernelKey {
  static constexpr int kMaxTypes = 64;
  uint64_t spec_id = 0;
  uint8_t n = 0;
  uint8_t target = 0;
  std::array<uint8_t, kMaxTypes> types{};
  bool operator==(const KernelKey& o) const {
    return spec_id == o.spec_id && n == o.n && target == o.target && std::memcmp(types.data(), o.types.data(), n) == 0;
  }
};
struct KernelKeyHash {
  size_t operator()(const KernelKey& k) const {
    uint64_t h = k.spec_id * 0x9E3779B97F4A7C15ull ^ (static_cast<uint64_t>(k.n) << 8) ^ k.target;
    for (int i = 0; i < k.n; ++i) h = (h ^ k.types[i]) * 0x100000001B3ull;
    return static_cast<size_t>(h);
  }
};
// False when there are too many types for a key (the caller then compiles
// through the source-keyed cache only).
bool make_kernel_key(uint64_t spec_id, int target, const std::vector<Dtype>& a, const std::vector<Dtype>& b,
                     KernelKey* key);

// A flat buffer of 8-byte words laid out like a generated Kumo*Args struct.
class ArgsBuffer {
 public:
  void i64(int64_t v) { push(v); }
  void two_i32(int32_t a, int32_t b) {
    int64_t w = 0;
    std::memcpy(&w, &a, 4);
    std::memcpy(reinterpret_cast<char*>(&w) + 4, &b, 4);
    push(w);
  }
  void ptr(const void* p) { push(static_cast<int64_t>(reinterpret_cast<intptr_t>(p))); }
  // Fills a kMaxNdim-word field with the first n values; kernels read only
  // the first ndim entries, so the rest is left unwritten (hot path).
  void dims(const int64_t* values, int n) {
    for (int i = 0; i < n; ++i) push(values[i]);
    skip(static_cast<size_t>(kMaxNdim - n));
  }
  void raw_desc(const Array& a);
  const void* data() const { return heap_.empty() ? inline_ : heap_.data(); }

 private:
  // Most launches fit inline, so the hot path does not allocate.
  static constexpr size_t kInline = 640;
  void skip(size_t count) {
    if (n_ + count <= kInline && heap_.empty()) {
      n_ += count;
      return;
    }
    for (size_t i = 0; i < count; ++i) push(0);
  }
  void push(int64_t v) {
    if (n_ < kInline) {
      inline_[n_++] = v;
      return;
    }
    if (heap_.empty()) heap_.assign(inline_, inline_ + kInline);
    heap_.push_back(v);
    ++n_;
  }
  alignas(16) int64_t inline_[kInline];
  std::vector<int64_t> heap_;
  size_t n_ = 0;
};

// The iteration space shared by several operands: shape plus per-operand
// byte strides, after dropping unit axes and merging axes that are
// contiguous for every operand.
struct IterSpace {
  Shape shape;
  std::vector<Strides> strides;  // one per operand
};
// Sorts axes by the |stride| of operand `lead` (largest first) so the
// innermost axis is the fastest for it, then squashes.
IterSpace squash(const Shape& shape, std::vector<Strides> strides, int lead);
// In-place form for the hot path: `strides[0..nops)` and `shape` are replaced
// by the squashed iteration space.
void squash_in_place(Shape& shape, Strides* strides, size_t nops, int lead);

// Host runner: calls fn(args, begin, end) over [0, n) on the thread pool.
using HostRangeFn = void (*)(const void*, int64_t, int64_t);
void run_host_range(HostRangeFn fn, const void* args, int64_t n, int64_t grain);

// The CUDA side of one specialised kernel: its generated source and the
// loaded function per device (compiled for that device's architecture on
// first use, through the kernel cache).
struct CudaKernel {
  std::string source;
  std::vector<std::string> options;
  std::mutex mu;
  std::unordered_map<int, void*> functions;  // device index -> function
};
// The loaded function `name` of a kernel's CUDA source on `device`. On the
// host (the CUDA-emulation test mode below) the source is translated by the
// CUDA host emulator and compiled for the CPU instead.
void* cuda_function(Device& device, CudaKernel& kernel, const char* name);
// Launches a function from cuda_function with the argument struct `args`
// (1-D grid and block); on the host it runs on the CUDA host emulator.
void launch_cuda(Device& device, void* function, const ArgsBuffer& args, unsigned grid, unsigned block);

// CUDA-emulation test mode: the generated kernels (elementwise, reductions,
// the random transforms, the fused optimizers) meant for the host device run
// their CUDA source, launch geometry and argument layout on the CUDA host
// emulator instead of their host source, so the CUDA code generator is
// exercised end to end on machines without a GPU and its results can be
// compared with the host backend's. Off by default; KUMO_EMULATE_CUDA=1 turns
// it on for the process, set_emulate_cuda for the caller (tests).
bool emulate_cuda_enabled();
void set_emulate_cuda(bool on);
// Whether kernels for `device` run their CUDA source: a CUDA device, or the
// host device in the emulation test mode.
bool runs_cuda_source(const Device& device);
// How many grids the emulation test mode has run (tests check that a
// comparison really went through the CUDA source).
uint64_t emulated_cuda_launches();

}  // namespace kernels
}  // namespace kumo
