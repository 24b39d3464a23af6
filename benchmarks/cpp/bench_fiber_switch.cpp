// The CUDA host emulator's costs: the fiber switch behind every __syncthreads
// and warp operation (256 threads per block), a barrier-free kernel's cost per
// thread, and the host compile time of a small kernel.
//
//   cmake --build build-tests --target bench_fiber_switch && build-tests/bench_fiber_switch
//
// (a target outside `all`, configured with the C++ tests).
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/host/thread_pool.h"
#include "kernels/host/cuda_emulation.h"
#include "kernels/kernel_cache.h"

using namespace kumo;
using namespace kumo::kernels;

namespace {

const char* kSource = R"CUDA(
extern "C" __global__ void barriers(int* out, int iters) {
  for (int i = 0; i < iters; ++i) __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = iters;
}
extern "C" __global__ void shuffles(int* out, int iters) {
  int v = threadIdx.x;
  for (int i = 0; i < iters; ++i) v += __shfl_xor_sync(0xffffffff, v, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
extern "C" __global__ void empty_blocks(int* out) {
  __syncthreads();
}
)CUDA";

const char* kSaxpy = R"CUDA(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)CUDA";

double best_seconds(const std::function<void()>& fn, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

double thread_cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// CPU time of the calling thread: a one-block launch runs inline on it, so this
// excludes the time other processes of a busy machine take.
double best_cpu_seconds(const std::function<void()>& fn, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t0 = thread_cpu_now();
    fn();
    best = std::min(best, thread_cpu_now() - t0);
  }
  return best;
}

HostRangeFn entry_of(const EmulatedModuleSource& src, const HostModule& mod, const std::string& name) {
  for (auto& e : src.entries)
    if (e.first == name) return reinterpret_cast<HostRangeFn>(mod.symbol(e.second.c_str()));
  return nullptr;
}

void run(HostRangeFn f, uint32_t grid, uint32_t block, std::vector<void*> params) {
  EmulatedLaunch l{{grid, 1, 1}, {block, 1, 1}, 0, params.data()};
  launch_emulated(f, l);
}

}  // namespace

int main() {
  // Compile times first, in a fresh cache directory so that nothing is found on disk.
  char dir[] = "/tmp/kumo_bench_fiber_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  setenv("KUMO_CACHE_DIR", dir, 1);
  // Without the precompiled header, then with it (its first use builds it).
  for (const char* pch : {"0", "1"}) {
    setenv("KUMO_CUDA_HOST_PCH", pch, 1);
    for (int rep = 0; rep < 3; ++rep) {
      // A distinct comment defeats the caches.
      const std::string src = std::string(kSaxpy) + "// " + pch + std::to_string(rep) + "\n";
      auto t0 = std::chrono::steady_clock::now();
      EmulatedModuleSource s = translate_cuda_for_host(src, {}, {});
      auto t1 = std::chrono::steady_clock::now();
      get_host_module(s.source);
      auto t2 = std::chrono::steady_clock::now();
      std::printf("compile saxpy, precompiled header %s: translate %.1f ms, host compile + load %.1f ms\n",
                  pch[0] == '1' ? "on " : "off", std::chrono::duration<double, std::milli>(t1 - t0).count(),
                  std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
  }

  EmulatedModuleSource src = translate_cuda_for_host(kSource, {}, {});
  auto mod = get_host_module(src.source);
  HostRangeFn barriers = entry_of(src, *mod, "barriers");
  HostRangeFn shuffles = entry_of(src, *mod, "shuffles");
  HostRangeFn empty = entry_of(src, *mod, "empty_blocks");
  const int threads = 256;
  std::vector<int> out(1 << 20);
  int* outp = out.data();

  // One block runs on the calling thread alone: the pure switch cost.
  for (int iters : {1000, 10000}) {
    double s = best_seconds([&] { run(barriers, 1, threads, {&outp, &iters}); }, 5);
    double c = best_cpu_seconds([&] { run(barriers, 1, threads, {&outp, &iters}); }, 5);
    std::printf("__syncthreads, 1 block of %d threads, %d barriers: %.1f ns per thread switch (%.1f ns CPU time)\n",
                threads, iters, s * 1e9 / (double(iters) * threads), c * 1e9 / (double(iters) * threads));
  }
  {
    int iters = 2000;
    double s = best_seconds([&] { run(shuffles, 1, threads, {&outp, &iters}); }, 5);
    double c = best_cpu_seconds([&] { run(shuffles, 1, threads, {&outp, &iters}); }, 5);
    std::printf("__shfl_xor_sync, 1 block of %d threads, %d shuffles: %.1f ns per thread and shuffle (%.1f ns CPU)\n",
                threads, iters, s * 1e9 / (double(iters) * threads), c * 1e9 / (double(iters) * threads));
  }
  // Many blocks on all pool threads.
  {
    const int nthreads = host_num_threads();
    int iters = 100;
    const int nb = 64 * nthreads;
    double s = best_seconds([&] { run(barriers, nb, threads, {&outp, &iters}); }, 5);
    std::printf("__syncthreads, %d blocks on %d threads, %d barriers: %.1f ns per thread switch per core\n", nb,
                nthreads, iters, s * 1e9 * nthreads / (double(iters) * threads * nb));
    int unused = 0;
    s = best_seconds([&] { run(empty, 4096, threads, {&outp, &unused}); }, 5);
    std::printf("block start/exit (one barrier), 4096 blocks of %d: %.1f ns per thread per core\n", threads,
                s * 1e9 * nthreads / (4096.0 * threads));
  }
  // A barrier-free kernel runs as a loop over the block's threads.
  {
    EmulatedModuleSource ss = translate_cuda_for_host(kSaxpy, {}, {});
    auto sm = get_host_module(ss.source);
    HostRangeFn saxpy = entry_of(ss, *sm, "saxpy");
    int n = 1 << 22;
    std::vector<float> x(n, 1.0f), y(n, 2.0f);
    float a = 2.0f;
    float* xp = x.data();
    float* yp = y.data();
    double s = best_seconds([&] { run(saxpy, n / 256, 256, {&a, &xp, &yp, &n}); }, 5);
    std::printf("saxpy without fibers, %d elements: %.2f ms (%.2f ns per thread per core)\n", n, s * 1e3,
                s * 1e9 * host_num_threads() / n);
  }
  std::string cmd = std::string("rm -rf '") + dir + "'";
  if (std::system(cmd.c_str()) != 0) return 1;
  return 0;
}
