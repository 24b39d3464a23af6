// Runs CUDA C++ kernels on the CPU: the source is translated into host C++
// that includes an emulation of the CUDA dialect (kernels/prelude/kumo_cuda_host.h),
// compiled by the host kernel compiler, and each grid's blocks run in parallel
// on the thread pool. Threads of a block run as a plain loop when the kernel
// has no barrier or warp operation, else as fibers (Boost.Context) switched at
// every __syncthreads / warp intrinsic.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels/launch.h"

namespace kumo {
namespace kernels {

// What a host entry receives (the cuLaunchKernel convention: params[i] points at argument i's value).
struct EmulatedLaunch {
  uint32_t grid[3];
  uint32_t block[3];
  uint64_t dynamic_shared_bytes;
  void** params;
};

struct EmulatedModuleSource {
  std::string source;  // host C++ to compile with get_host_module(source)
  // kernel expression as the user wrote it ("saxpy", "my_kernel<float, 4>") -> extern "C" entry symbol
  // with the signature of HostRangeFn: void entry(const void* launch /* EmulatedLaunch* */,
  //                                              int64_t block_begin, int64_t block_end)
  // (blocks are linearised x-fastest; launch_emulated runs them with run_host_range(entry, ..., nblocks, 1)).
  std::vector<std::pair<std::string, std::string>> entries;
};

// Translates CUDA C++ into host C++ (plus the emulation header). With an empty `kernel_expressions`,
// one entry per non-template __global__ function found in the source. Throws CompileError naming an
// unsupported construct (inline asm, textures, dynamic parallelism) and its source line.
// `options` are NVRTC-style options; -D/-U/-I... are honoured where they mean something on the host
// (-DNAME[=VALUE] becomes a #define), the others are ignored.
EmulatedModuleSource translate_cuda_for_host(const std::string& cuda_source,
                                             const std::vector<std::string>& kernel_expressions,
                                             const std::vector<std::string>& options);

// Runs a grid: validates dims (block <= 1024 threads, dims > 0, shared memory limits) and runs the
// blocks on the thread pool. Throws ValueError / RuntimeError with a clear message on bad dims.
// Entries must be run through this function (not run_host_range directly): it hands them the
// fiber runtime that kernels with barriers need.
void launch_emulated(HostRangeFn entry, const EmulatedLaunch& launch);
// The same with the dynamic shared memory limit raised (CUDA's cudaFuncAttributeMaxDynamicSharedMemorySize);
// the two-argument form allows CUDA's default 48 KiB.
void launch_emulated(HostRangeFn entry, const EmulatedLaunch& launch, uint64_t max_dynamic_shared_bytes);

// The emulation header's text (embedded into libkumo).
const std::string& cuda_host_header_source();

}  // namespace kernels
}  // namespace kumo
