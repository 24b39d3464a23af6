// The CUDA backend plugin through the core's interface (core/cuda_plugin.h):
// loading, "no device" reporting, NVRTC compilation (no GPU needed), and —
// when a GPU is present — memory, copies, streams, events and launches.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "core/backend_registry.h"
#include "core/cuda_plugin.h"
#include "core/device.h"
#include "core/errors.h"
#include "sparse/sparse_backend.h"

#ifndef KUMO_TEST_CUDA_PLUGIN_BUILT
#define KUMO_TEST_CUDA_PLUGIN_BUILT 0
#endif

namespace kumo {
namespace {

constexpr bool kPluginBuilt = KUMO_TEST_CUDA_PLUGIN_BUILT;

// Skips the test when the build has no CUDA plugin; fails it when the
// plugin was built but does not load (that is the bug these tests catch).
#define KUMO_REQUIRE_PLUGIN(p)                                                    \
  if (!kPluginBuilt) GTEST_SKIP() << "kumo was built without the CUDA plugin"; \
  CudaPlugin* p = cuda_plugin();                                                 \
  ASSERT_NE(p, nullptr) << cuda_plugin_load_error()

#define KUMO_REQUIRE_GPU(p)                                                                   \
  KUMO_REQUIRE_PLUGIN(p);                                                                     \
  if (p->device_count() == 0) GTEST_SKIP() << "no CUDA device: " << p->unavailable_reason()

const char* const kAddSource = R"(
extern "C" __global__ void kumo_test_add(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
)";

// Spins for about `cycles` clock ticks so that timed work is measurable.
const char* const kSpinSource = R"(
extern "C" __global__ void kumo_test_spin(long long cycles, int* flag) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
  *flag = 1;
}
)";

bool starts_with_elf_magic(const std::string& image) {
  return image.size() >= 4 && std::memcmp(image.data(), "\x7f" "ELF", 4) == 0;
}

// e_machine of an ELF image (EM_CUDA is 190).
unsigned elf_machine(const std::string& image) {
  return static_cast<unsigned char>(image[18]) | (static_cast<unsigned char>(image[19]) << 8);
}

std::string core_library_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuda_plugin), &info) == 0 || info.dli_fname == nullptr) return {};
  return info.dli_fname;
}

// ---- Loading ---------------------------------------------------------------------

TEST(CudaPluginLoader, LoadsWhenBuilt) {
  CudaPlugin* plugin = cuda_plugin();
  if (kPluginBuilt) {
    ASSERT_NE(plugin, nullptr) << cuda_plugin_load_error();
    EXPECT_EQ(cuda_plugin_load_error(), "");
  } else {
    EXPECT_EQ(plugin, nullptr);
    EXPECT_NE(cuda_plugin_load_error().find("built without the CUDA backend"), std::string::npos)
        << cuda_plugin_load_error();
    EXPECT_FALSE(cuda_is_available());
    EXPECT_EQ(cuda_unavailable_reason(), cuda_plugin_load_error());
  }
}

TEST(CudaPluginLoader, ConcurrentFirstCallsGetOneInstance) {
  // Under ctest each test is its own process, so this really races the
  // first load.
  std::vector<CudaPlugin*> seen(8, reinterpret_cast<CudaPlugin*>(1));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&seen, i] { seen[i] = cuda_plugin(); });
  for (auto& t : threads) t.join();
  for (CudaPlugin* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_EQ(seen[0] != nullptr, kPluginBuilt) << cuda_plugin_load_error();
}

// The loader reads KUMO_CUDA_PLUGIN once, on the first call, so each case
// runs in a fresh process (a death test in the re-executing style) where
// nothing has loaded the plugin yet. The child exits 0 when the loader
// failed cleanly with the expected words in its error.
void expect_load_failure(const std::string& plugin_path, const std::string& expected) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv("KUMO_CUDA_PLUGIN", plugin_path.c_str(), 1);
        const bool failed_cleanly = cuda_plugin() == nullptr && !cuda_is_available();
        const std::string error = cuda_plugin_load_error();
        std::fprintf(stderr, "load error: %s\n", error.c_str());
        const bool explained = error.find(expected) != std::string::npos && cuda_unavailable_reason() == error;
        std::exit(failed_cleanly && explained ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "load error: ");
}

TEST(CudaPluginLoader, MissingPluginFileIsReported) {
  if (!kPluginBuilt) {
    expect_load_failure("/nonexistent/libkumo_cuda.so", "built without the CUDA backend");
    return;
  }
  expect_load_failure("/nonexistent/dir/libkumo_cuda.so", "not found at /nonexistent/dir/libkumo_cuda.so");
}

TEST(CudaPluginLoader, DlopenErrorIsReported) {
  if (!kPluginBuilt) GTEST_SKIP() << "kumo was built without the CUDA plugin";
  const std::string path = ::testing::TempDir() + "kumo_not_a_plugin.so";
  std::ofstream(path) << "this is not a shared object\n";
  // dlopen's own text ("invalid ELF header", "file too short") is passed on.
  expect_load_failure(path, "cannot load the CUDA plugin " + path + " (set by KUMO_CUDA_PLUGIN): ");
  std::remove(path.c_str());
}

TEST(CudaPluginLoader, MissingEntryPointIsReported) {
  if (!kPluginBuilt) GTEST_SKIP() << "kumo was built without the CUDA plugin";
  // The core library is a loadable shared object without the entry point.
  const std::string core = core_library_path();
  ASSERT_FALSE(core.empty());
  expect_load_failure(core, "does not export kumo_cuda_plugin_instance");
}

// ---- No device ---------------------------------------------------------------

TEST(CudaPlugin, AvailabilityIsConsistent) {
  KUMO_REQUIRE_PLUGIN(plugin);
  const int count = plugin->device_count();
  ASSERT_GE(count, 0);
  EXPECT_EQ(plugin->device_count(), count);  // stable
  if (count == 0) {
    EXPECT_FALSE(cuda_is_available());
    EXPECT_FALSE(plugin->unavailable_reason().empty());
    EXPECT_EQ(cuda_unavailable_reason(), plugin->unavailable_reason());
    // The reason names the failing query and the runtime's own words.
    EXPECT_TRUE(plugin->unavailable_reason().find("cudaGetDeviceCount") != std::string::npos ||
                plugin->unavailable_reason().find("no CUDA device") != std::string::npos)
        << plugin->unavailable_reason();
  } else {
    EXPECT_TRUE(cuda_is_available());
    EXPECT_EQ(plugin->unavailable_reason(), "");
    EXPECT_EQ(cuda_unavailable_reason(), "");
  }
}

TEST(CudaPlugin, DeviceRequestsFailCleanlyWithoutADevice) {
  KUMO_REQUIRE_PLUGIN(plugin);
  const int count = plugin->device_count();
  // Out of range is an error with or without GPUs.
  EXPECT_THROW(plugin->device(count), DeviceError);
  EXPECT_THROW(plugin->device(-1), DeviceError);
  EXPECT_THROW(plugin->streams().create_stream(count, false), DeviceError);
  EXPECT_THROW(plugin->kernels().device_arch(count), DeviceError);
  if (count > 0) return;
  try {
    plugin->device(0);
    ADD_FAILURE() << "device(0) returned without a device";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find(plugin->unavailable_reason()), std::string::npos) << e.what();
  }
  EXPECT_THROW(plugin->streams().create_event(0, true), DeviceError);
  EXPECT_THROW(plugin->streams().set_current_stream(0, 0), DeviceError);
  EXPECT_THROW(plugin->pinned_memory_pool(), DeviceError);
  const std::string cubin = plugin->kernels().compile(kAddSource, "add.cu", 80, {});
  EXPECT_THROW(plugin->kernels().load_function(0, cubin, "kumo_test_add"), DeviceError);
  // Reading the current stream needs no device and is the default stream.
  EXPECT_EQ(plugin->streams().current_stream(0), StreamHandle{0});
}

TEST(CudaPlugin, VersionInfoNamesTheComponents) {
  KUMO_REQUIRE_PLUGIN(plugin);
  const std::string info = plugin->version_info();
  EXPECT_NE(info.find("CUDA runtime "), std::string::npos) << info;
  EXPECT_NE(info.find("CUDA driver "), std::string::npos) << info;
  EXPECT_NE(info.find("NVRTC " + plugin->kernels().nvrtc_version()), std::string::npos) << info;
}

// The plugin serves CUDA arrays' sparse matrices with the cuSPARSE backend
// (it loads without a GPU; its calls need one).
TEST(CudaPlugin, ProvidesTheCusparseBackend) {
  KUMO_REQUIRE_PLUGIN(plugin);
  auto* backend = find_backend<sparse::SparseBackend>(DeviceType::kCUDA);
  ASSERT_NE(backend, nullptr);
  EXPECT_EQ(backend->name(), "cuSPARSE");
}

// spsolve on CUDA arrays factors on the device (cuSOLVER's sparse QR);
// the host backends leave spsolve to SuperLU.
TEST(CudaPlugin, CusparseBackendHasTheDeviceSolver) {
  KUMO_REQUIRE_PLUGIN(plugin);
  auto* backend = find_backend<sparse::SparseBackend>(DeviceType::kCUDA);
  ASSERT_NE(backend, nullptr);
  EXPECT_TRUE(backend->has_device_solver());
  EXPECT_FALSE(kumo::sparse::host_sparse_backend().has_device_solver());
}

// ---- NVRTC (no GPU needed) -----------------------------------------------------

TEST(Nvrtc, VersionIsMajorDotMinor) {
  KUMO_REQUIRE_PLUGIN(plugin);
  const std::string v = plugin->kernels().nvrtc_version();
  std::smatch m;
  ASSERT_TRUE(std::regex_match(v, m, std::regex(R"((\d+)\.(\d+))"))) << v;
  EXPECT_GE(std::stoi(m[1].str()), 12) << v;  // the library API needs CUDA 12+
}

TEST(Nvrtc, CompilesCubinForSm80AndSm90) {
  KUMO_REQUIRE_PLUGIN(plugin);
  std::string previous;
  for (int arch : {80, 90}) {
    SCOPED_TRACE("sm_" + std::to_string(arch));
    const std::string cubin = plugin->kernels().compile(kAddSource, "add.cu", arch, {});
    ASSERT_GT(cubin.size(), 64u);
    EXPECT_TRUE(starts_with_elf_magic(cubin));
    EXPECT_EQ(elf_machine(cubin), 190u);  // EM_CUDA
    EXPECT_NE(cubin.find("kumo_test_add"), std::string::npos);  // the symbol
    EXPECT_NE(cubin, previous);  // different SASS per architecture
    previous = cubin;
  }
}

TEST(Nvrtc, FindsToolkitHeaders) {
  KUMO_REQUIRE_PLUGIN(plugin);
  // cuda_fp16.h and libcu++ resolve only through the -I the backend adds.
  const char* source = R"(
#include <cuda_fp16.h>
#include <cuda/std/complex>
extern "C" __global__ void kumo_test_headers(__half* h, cuda::std::complex<float>* z) {
  h[0] = __hadd(h[0], h[1]);
  z[0] = z[0] * z[1];
}
)";
  const std::string cubin = plugin->kernels().compile(source, "headers.cu", 80, {});
  EXPECT_TRUE(starts_with_elf_magic(cubin));
  EXPECT_NE(cubin.find("kumo_test_headers"), std::string::npos);
}

TEST(Nvrtc, PassesCallerOptions) {
  KUMO_REQUIRE_PLUGIN(plugin);
  const char* source = R"(
#if KUMO_VALUE != 3
#error "KUMO_VALUE did not arrive"
#endif
template <typename T> concept Small = sizeof(T) <= 8;  // C++20
template <Small T> __device__ T twice(T x) { return x + x; }
extern "C" __global__ void kumo_test_opts(int* x) { x[0] = twice(x[0]) + KUMO_VALUE; }
)";
  // The caller's -std replaces the default C++17 instead of clashing with it.
  const std::string cubin = plugin->kernels().compile(source, "opts.cu", 90, {"-DKUMO_VALUE=3", "-std=c++20"});
  EXPECT_TRUE(starts_with_elf_magic(cubin));
  EXPECT_THROW(plugin->kernels().compile(source, "opts.cu", 90, {"-DKUMO_VALUE=4", "-std=c++20"}), CompileError);
}

TEST(Nvrtc, SyntaxErrorThrowsCompileErrorWithTheLog) {
  KUMO_REQUIRE_PLUGIN(plugin);
  const char* source = "extern \"C\" __global__ void broken(float* x) { x[0] = ; }\n";
  try {
    plugin->kernels().compile(source, "broken_kernel.cu", 80, {});
    FAIL() << "compiling a syntax error succeeded";
  } catch (const CompileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("broken_kernel.cu"), std::string::npos) << msg;       // program name
    EXPECT_NE(msg.find("--gpu-architecture=sm_80"), std::string::npos) << msg;  // options
    EXPECT_NE(msg.find("error: expected an expression"), std::string::npos) << msg;  // NVRTC's log
    EXPECT_NE(msg.find("broken_kernel.cu(1)"), std::string::npos) << msg;  // with the location
  }
}

TEST(Nvrtc, BadOptionThrowsCompileError) {
  KUMO_REQUIRE_PLUGIN(plugin);
  try {
    plugin->kernels().compile(kAddSource, "add.cu", 80, {"--no-such-option"});
    FAIL() << "an unknown option was accepted";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("--no-such-option"), std::string::npos) << e.what();
  }
}

TEST(Nvrtc, UnsupportedArchitectureThrowsCompileError) {
  KUMO_REQUIRE_PLUGIN(plugin);
  try {
    plugin->kernels().compile(kAddSource, "add.cu", 21, {});
    FAIL() << "sm_21 was accepted";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("sm_21"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("90"), std::string::npos) << e.what();  // lists what works
  }
}

TEST(Nvrtc, CompilesFromManyThreads) {
  KUMO_REQUIRE_PLUGIN(plugin);
  std::vector<std::string> out(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < out.size(); ++i) {
    threads.emplace_back([&, i] {
      try {
        out[i] = plugin->kernels().compile(kAddSource, "add.cu", i % 2 ? 90 : 80, {});
      } catch (const std::exception& e) {
        out[i] = std::string("exception: ") + e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_TRUE(starts_with_elf_magic(out[i])) << out[i].substr(0, 200);
    EXPECT_EQ(out[i], out[i % 2]);  // deterministic per architecture
  }
}

TEST(CudaKernelLoading, DamagedImagesAreRejectedBeforeTheDriverSeesThem) {
  KUMO_REQUIRE_PLUGIN(plugin);
  const std::string cubin = plugin->kernels().compile(kAddSource, "add.cu", 80, {});
  // The driver sizes an image from its own headers; a truncated one would
  // be read past its end, so the backend refuses it (no GPU needed).
  EXPECT_THROW(plugin->kernels().load_function(0, cubin.substr(0, cubin.size() / 2), "kumo_test_add"), ValueError);
  EXPECT_THROW(plugin->kernels().load_function(0, cubin.substr(0, 40), "kumo_test_add"), ValueError);
  EXPECT_THROW(plugin->kernels().load_function(0, "", "kumo_test_add"), ValueError);
  EXPECT_THROW(plugin->kernels().load_function(0, std::string("\x01\x00\x02garbage", 10), "f"), ValueError);
}

// ---- On a GPU -------------------------------------------------------------------

TEST(CudaGpu, DeviceIdentity) {
  KUMO_REQUIRE_GPU(plugin);
  for (int i = 0; i < plugin->device_count(); ++i) {
    Device& d = plugin->device(i);
    EXPECT_EQ(d.type(), DeviceType::kCUDA);
    EXPECT_EQ(d.index(), i);
    EXPECT_EQ(&plugin->device(i), &d);  // one object per device, kept
    EXPECT_GE(plugin->kernels().device_arch(i), 50);
  }
}

TEST(CudaGpu, AllocateCopyRoundTrip) {
  KUMO_REQUIRE_GPU(plugin);
  Device& dev = plugin->device(0);
  const size_t n = (1 << 20) + 3;  // not a multiple of the pool's rounding
  std::vector<float> host(n), back(n, -1.0f);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i) * 0.5f;
  auto a = dev.allocate(n * sizeof(float));
  auto b = dev.allocate(n * sizeof(float));
  ASSERT_NE(a->data(), nullptr);
  EXPECT_EQ(a->device(), &dev);
  dev.copy_from_host(a->data(), host.data(), n * sizeof(float));
  dev.copy_within(b->data(), a->data(), n * sizeof(float));
  dev.copy_to_host(back.data(), b->data(), n * sizeof(float));
  EXPECT_EQ(back, host);
  // Zero-byte copies are no-ops even with null pointers.
  dev.copy_to_host(nullptr, nullptr, 0);
  dev.synchronize();
  EXPECT_GE(dev.memory_pool().used_bytes(), 2 * n * sizeof(float));
}

TEST(CudaGpu, OutOfMemoryIsTheOutOfMemoryError) {
  KUMO_REQUIRE_GPU(plugin);
  Device& dev = plugin->device(0);
  EXPECT_THROW(dev.allocate(size_t{1} << 50), OutOfMemoryError);  // 1 PiB
  // The device is still usable afterwards (the error did not stick).
  auto m = dev.allocate(1024);
  std::vector<char> src(1024, 7), dst(1024, 0);
  dev.copy_from_host(m->data(), src.data(), src.size());
  dev.copy_to_host(dst.data(), m->data(), dst.size());
  EXPECT_EQ(dst, src);
}

TEST(CudaGpu, PinnedPoolGivesHostMemory) {
  KUMO_REQUIRE_GPU(plugin);
  MemoryPool& pinned = plugin->pinned_memory_pool();
  auto staging = pinned.malloc(4096);
  ASSERT_NE(staging->data(), nullptr);
  auto* p = static_cast<unsigned char*>(staging->data());
  for (int i = 0; i < 4096; ++i) p[i] = static_cast<unsigned char>(i * 7);  // host-writable
  Device& dev = plugin->device(0);
  auto d = dev.allocate(4096);
  dev.copy_from_host(d->data(), staging->data(), 4096);
  std::vector<unsigned char> back(4096);
  dev.copy_to_host(back.data(), d->data(), 4096);
  EXPECT_EQ(std::memcmp(back.data(), p, 4096), 0);
}

TEST(CudaGpu, LaunchesACompiledAddKernel) {
  KUMO_REQUIRE_GPU(plugin);
  CudaKernelBackend& k = plugin->kernels();
  const int arch = k.device_arch(0);
  const std::string cubin = k.compile(kAddSource, "add.cu", arch, {});
  void* fn = k.load_function(0, cubin, "kumo_test_add");
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(k.load_function(0, cubin, "kumo_test_add"), fn);  // cached
  EXPECT_THROW(k.load_function(0, cubin, "no_such_kernel"), RuntimeError);

  Device& dev = plugin->device(0);
  int n = 100003;
  std::vector<float> a(n), b(n), out(n, 0.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(2 * i + 1);
  }
  auto da = dev.allocate(n * sizeof(float)), db = dev.allocate(n * sizeof(float)),
       dout = dev.allocate(n * sizeof(float));
  dev.copy_from_host(da->data(), a.data(), n * sizeof(float));
  dev.copy_from_host(db->data(), b.data(), n * sizeof(float));
  void* pa = da->data();
  void* pb = db->data();
  void* pout = dout->data();
  void* args[] = {&pa, &pb, &pout, &n};
  LaunchDims dims;
  dims.block[0] = 256;
  dims.grid[0] = (n + 255) / 256;
  k.launch(0, fn, dims, dev.current_stream(), args);
  dev.copy_to_host(out.data(), dout->data(), n * sizeof(float));
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] + b[i]) << "at " << i;

  // A bad configuration is an error naming the launch, not a crash.
  dims.block[0] = 4096;
  try {
    k.launch(0, fn, dims, 0, args);
    ADD_FAILURE() << "a 4096-thread block launched";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("cudaLaunchKernel(kumo_test_add"), std::string::npos) << e.what();
  }
}

TEST(CudaGpu, CubinForAnotherArchitectureFailsAtLoad) {
  KUMO_REQUIRE_GPU(plugin);
  CudaKernelBackend& k = plugin->kernels();
  const int arch = k.device_arch(0);
  // SASS runs only within its major version: pick one of another major.
  const int other = arch >= 90 ? 80 : 90;
  const std::string cubin = k.compile(kAddSource, "add.cu", other, {});
  EXPECT_THROW(k.load_function(0, cubin, "kumo_test_add"), RuntimeError);
}

TEST(CudaGpu, StreamsEventsAndTiming) {
  KUMO_REQUIRE_GPU(plugin);
  CudaStreamApi& s = plugin->streams();
  CudaKernelBackend& k = plugin->kernels();
  Device& dev = plugin->device(0);
  void* spin = k.load_function(0, k.compile(kSpinSource, "spin.cu", k.device_arch(0), {}), "kumo_test_spin");

  const StreamHandle stream = s.create_stream(0, /*non_blocking=*/true);
  ASSERT_NE(stream, StreamHandle{0});
  const uintptr_t start = s.create_event(0, true), end = s.create_event(0, true);
  auto flag = dev.allocate(sizeof(int));
  int zero = 0;
  dev.copy_from_host(flag->data(), &zero, sizeof(int));

  s.record_event(0, start, stream);
  long long cycles = 200LL * 1000 * 1000;  // ~0.1 s at ~2 GHz
  void* pflag = flag->data();
  void* args[] = {&cycles, &pflag};
  LaunchDims one;
  k.launch(0, spin, one, stream, args);
  s.record_event(0, end, stream);
  EXPECT_FALSE(s.query_event(0, end));  // still spinning
  EXPECT_FALSE(s.query_stream(0, stream));
  s.synchronize_event(0, end);
  EXPECT_TRUE(s.query_event(0, end));
  s.synchronize_stream(0, stream);
  EXPECT_TRUE(s.query_stream(0, stream));
  const float ms = s.elapsed_ms(0, start, end);
  EXPECT_GT(ms, 10.0f);
  EXPECT_LT(ms, 10000.0f);

  // The current stream is per thread: copies follow it, other threads
  // still see the default stream.
  EXPECT_EQ(s.current_stream(0), StreamHandle{0});
  s.set_current_stream(0, stream);
  EXPECT_EQ(dev.current_stream(), stream);
  StreamHandle other_thread = 1;
  std::thread([&] { other_thread = s.current_stream(0); }).join();
  EXPECT_EQ(other_thread, StreamHandle{0});
  int result = 0;
  dev.copy_to_host(&result, flag->data(), sizeof(int));
  EXPECT_EQ(result, 1);
  s.set_current_stream(0, 0);

  // A second stream waits for an event on the first.
  const StreamHandle waiter = s.create_stream(0, true);
  const uintptr_t ordering = s.create_event(0, false);
  k.launch(0, spin, one, stream, args);
  s.record_event(0, ordering, stream);
  s.stream_wait_event(0, waiter, ordering);
  s.synchronize_stream(0, waiter);
  EXPECT_TRUE(s.query_event(0, ordering));
  // Events without timing cannot be timed.
  EXPECT_THROW(s.elapsed_ms(0, start, ordering), RuntimeError);

  s.destroy_event(0, ordering);
  s.destroy_event(0, start);
  s.destroy_event(0, end);
  s.destroy_stream(0, waiter);
  s.destroy_stream(0, stream);
  EXPECT_THROW(s.destroy_stream(0, 0), ValueError);
}

}  // namespace
}  // namespace kumo
