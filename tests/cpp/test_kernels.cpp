#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/array.h"
#include "core/errors.h"
#include "kernels/codegen.h"
#include "kernels/elementwise.h"
#include "kernels/host/host_compiler.h"
#include "kernels/kernel_cache.h"
#include "kernels/launch.h"
#include "kernels/reduction.h"

using namespace kumo;

namespace {

Array iota(const Shape& shape, Dtype dt = Dtype::kFloat64) {
  Array a = Array::empty(shape, Dtype::kFloat64, host_device());
  double* p = reinterpret_cast<double*>(a.data());
  for (int64_t i = 0; i < a.size(); ++i) p[i] = static_cast<double>(i);
  return dt == Dtype::kFloat64 ? a : a.astype(dt);
}

double get(const Array& a, int64_t flat) {
  Array c = a.astype(Dtype::kFloat64, Order::kC);
  return reinterpret_cast<const double*>(c.data())[flat];
}

}  // namespace

TEST(Kernels, ParamsParse) {
  auto p = kernels::parse_params("T x, raw float32 y, const int32 z");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_TRUE(p[0].is_generic);
  EXPECT_TRUE(p[1].raw);
  EXPECT_EQ(p[1].dtype, Dtype::kFloat32);
  EXPECT_TRUE(p[2].is_const);
  EXPECT_THROW(kernels::parse_params("T"), ValueError);
  EXPECT_THROW(kernels::parse_params("T x, T x"), ValueError);
}

TEST(Kernels, ElementwiseContiguousAndStrided) {
  auto spec = kernels::ElementwiseSpec::create("addmul", "T x, T y", "T z", "z = x * 2 + y");
  Array x = iota(Shape{3, 4});
  Array y = iota(Shape{4});
  Array z = kernels::call_elementwise(*spec, {x, y}, {Array()})[0];
  EXPECT_EQ(z.shape(), (Shape{3, 4}));
  EXPECT_EQ(get(z, 5), 5 * 2 + 1);
  // Transposed and reversed input: the strided loop.
  Array xt = x.transpose().index({IndexItem::slice(std::nullopt, std::nullopt, -1)});
  Array y3 = iota(Shape{3});
  Array zt = kernels::call_elementwise(*spec, {xt, y3}, {Array()})[0];
  EXPECT_EQ(get(zt, 0), 3 * 2 + 0);  // xt[0, 0] = x[0, 3]
  EXPECT_EQ(get(zt, 5), 10 * 2 + 2);  // xt[1, 2] = x[2, 3 - 1] = 10
}

TEST(Kernels, ElementwiseBindsGenericTypesAndRejectsConflicts) {
  auto spec = kernels::ElementwiseSpec::create("same", "T x, T y", "T z", "z = x + y");
  Array a = iota(Shape{2}, Dtype::kFloat32);
  Array b = iota(Shape{2}, Dtype::kFloat64);
  EXPECT_THROW(kernels::call_elementwise(*spec, {a, b}, {Array()}), TypeError);
}

TEST(Kernels, ReductionOverAxesMatchesLoop) {
  auto spec = kernels::ReductionSpec::create("sum_", "T x", "T y", "x", "a + b", "y = a", "0", "T");
  Array x = iota(Shape{3, 4, 5});
  Array s1 = kernels::call_reduction(*spec, {x}, {Array()}, {1}, false, false)[0];
  EXPECT_EQ(s1.shape(), (Shape{3, 5}));
  // sum over axis 1 of element (i, :, k) = sum_j (20 i + 5 j + k)
  EXPECT_EQ(get(s1, 1 * 5 + 2), 4 * 20 + 5 * 6 + 4 * 2);
  Array s02 = kernels::call_reduction(*spec, {x}, {Array()}, {0, 2}, false, true)[0];
  EXPECT_EQ(s02.shape(), (Shape{1, 4, 1}));
  double expect = 0;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 5; ++k) expect += 20 * i + 5 * 2 + k;
  EXPECT_EQ(get(s02, 2), expect);
  Array all = kernels::call_reduction(*spec, {x}, {Array()}, {}, true, false)[0];
  EXPECT_EQ(get(all, 0), 59.0 * 60 / 2);
}

// The emulation test mode runs the CUDA source of the same kernels on the
// CUDA host emulator; results must equal the host source's.
class EmulatedCuda {
 public:
  EmulatedCuda() { kernels::set_emulate_cuda(true); }
  ~EmulatedCuda() { kernels::set_emulate_cuda(false); }
};

TEST(Kernels, CudaSourceOnTheEmulatorEqualsHostSource) {
  auto ew = kernels::ElementwiseSpec::create("emu_addmul", "T x, T y", "T z", "z = x * 3 + y");
  auto red = kernels::ReductionSpec::create("emu_sum", "T x", "T y", "x", "a + b", "y = a", "0", "T");
  Array x = iota(Shape{5, 300, 7}).transpose();  // strided loop
  Array y = iota(Shape{5});                       // broadcast
  Array z_host = kernels::call_elementwise(*ew, {x, y}, {Array()})[0];
  Array s_host = kernels::call_reduction(*red, {x}, {Array()}, {1}, false, false)[0];
  Array all_host = kernels::call_reduction(*red, {x}, {Array()}, {}, true, false)[0];
  const uint64_t before = kernels::emulated_cuda_launches();
  Array z_emu, s_emu, all_emu;
  {
    EmulatedCuda mode;
    EXPECT_TRUE(kernels::runs_cuda_source(host_device()));
    z_emu = kernels::call_elementwise(*ew, {x, y}, {Array()})[0];
    s_emu = kernels::call_reduction(*red, {x}, {Array()}, {1}, false, false)[0];
    all_emu = kernels::call_reduction(*red, {x}, {Array()}, {}, true, false)[0];
  }
  EXPECT_FALSE(kernels::runs_cuda_source(host_device()));
  EXPECT_EQ(kernels::emulated_cuda_launches() - before, 3u);
  ASSERT_EQ(z_emu.shape(), z_host.shape());
  for (int64_t i = 0; i < z_host.size(); ++i) ASSERT_EQ(get(z_emu, i), get(z_host, i)) << i;
  ASSERT_EQ(s_emu.shape(), s_host.shape());
  for (int64_t i = 0; i < s_host.size(); ++i) ASSERT_EQ(get(s_emu, i), get(s_host, i)) << i;
  EXPECT_EQ(get(all_emu, 0), get(all_host, 0));
}

TEST(Kernels, ReductionWithoutIdentityRejectsEmpty) {
  auto spec = kernels::ReductionSpec::create("max_", "T x", "T y", "x", "a > b ? a : b", "y = a", "", "T");
  Array e = Array::empty(Shape{0, 3}, Dtype::kFloat64, host_device());
  EXPECT_THROW(kernels::call_reduction(*spec, {e}, {Array()}, {0}, false, false), ValueError);
  Array r = kernels::call_reduction(*spec, {e}, {Array()}, {1}, false, false)[0];
  EXPECT_EQ(r.shape(), (Shape{0}));
}

TEST(Kernels, LargeSumIsPairwiseAccurate) {
  // 2^24 + 1 cannot be represented in float32; a sequential float32 sum of
  // ones stalls at 2^24, a pairwise one does not.
  const int64_t n = (1 << 24) + 4096;
  Array ones = Array::empty(Shape{n}, Dtype::kFloat32, host_device());
  float* p = reinterpret_cast<float*>(ones.data());
  for (int64_t i = 0; i < n; ++i) p[i] = 1.0f;
  auto spec = kernels::ReductionSpec::create("fsum", "T x", "T y", "x", "a + b", "y = a", "0", "T");
  Array s = kernels::call_reduction(*spec, {ones}, {Array()}, {}, true, false)[0];
  EXPECT_EQ(get(s, 0), static_cast<double>(n));
}

TEST(Kernels, CompileErrorCarriesCompilerLog) {
  auto spec = kernels::ElementwiseSpec::create("broken", "T x", "T y", "y = x +* 1");
  Array x = iota(Shape{2});
  try {
    kernels::call_elementwise(*spec, {x}, {Array()});
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("error"), std::string::npos);
  }
}

TEST(Kernels, SourceTargetsDiffer) {
  auto spec = kernels::ElementwiseSpec::create("k", "T x", "T y", "y = x");
  kernels::ElementwiseSignature sig;
  sig.bindings = {{"T", Dtype::kFloat32}};
  sig.param_dtypes = sig.array_dtypes = {Dtype::kFloat32, Dtype::kFloat32};
  std::string host = kernels::generate_elementwise(*spec, sig, kernels::Target::kHost);
  std::string cuda = kernels::generate_elementwise(*spec, sig, kernels::Target::kCuda);
  EXPECT_NE(host.find("extern \"C\" void kumo_elementwise"), std::string::npos);
  EXPECT_NE(cuda.find("__global__"), std::string::npos);
  EXPECT_EQ(host.find("__global__"), std::string::npos);
}

TEST(KernelCache, DamagedEntryIsRebuiltNotLoaded) {
  std::string dir = testing::TempDir() + "kumo_cache_test_" + std::to_string(::getpid());
  setenv("KUMO_CACHE_DIR", dir.c_str(), 1);
  kernels::write_cache_entry("host", "x.bin", "hello world");
  ASSERT_TRUE(kernels::read_cache_entry("host", "x.bin").has_value());
  {
    std::ofstream f(kernels::cache_entry_path("host", "x.bin"), std::ios::binary | std::ios::trunc);
    f << "hello";  // truncated
  }
  EXPECT_FALSE(kernels::read_cache_entry("host", "x.bin").has_value());
  // The damaged entry is gone, so the next write/read round trip is clean.
  kernels::write_cache_entry("host", "x.bin", "hello world");
  EXPECT_EQ(*kernels::read_cache_entry("host", "x.bin"), "hello world");

  // A real kernel: compile, corrupt the .so on disk, forget the memory
  // level, and load again: it is rebuilt and still computes.
  auto spec = kernels::ElementwiseSpec::create("cache_probe", "T x", "T y", "y = x + 41");
  Array x = iota(Shape{1});
  auto before = kernels::kernel_cache_stats();
  kernels::call_elementwise(*spec, {x}, {Array()});
  std::string src;
  kernels::ElementwiseSignature sig;
  sig.bindings = {{"T", Dtype::kFloat64}};
  sig.param_dtypes = sig.array_dtypes = {Dtype::kFloat64, Dtype::kFloat64};
  src = kernels::generate_elementwise(*spec, sig, kernels::Target::kHost);
  auto mod = kernels::get_host_module(src);
  std::string so = kernels::cache_entry_path("host", mod->key() + ".so");
  {
    // Replace (not overwrite in place: the loaded module maps that inode).
    std::ofstream f(so + ".damaged", std::ios::binary | std::ios::trunc);
    f << "garbage";
  }
  ASSERT_EQ(std::rename((so + ".damaged").c_str(), so.c_str()), 0);
  kernels::clear_memory_cache();
  auto mod2 = kernels::get_host_module(src);
  auto after = kernels::kernel_cache_stats();
  EXPECT_GE(after.host_compiles, before.host_compiles + 2);
  using Fn = void (*)(const void*, int64_t, int64_t);
  EXPECT_NE(reinterpret_cast<Fn>(mod2->symbol("kumo_elementwise")), nullptr);
  unsetenv("KUMO_CACHE_DIR");
}

namespace {
// A host kernel whose body has a syntax error on a known line of the full source.
std::string broken_host_kernel(int* error_line) {
  auto spec = kernels::ElementwiseSpec::create("pch_probe", "T x", "T y", "y = x +* 1");
  kernels::ElementwiseSignature sig;
  sig.bindings = {{"T", Dtype::kFloat64}};
  sig.param_dtypes = sig.array_dtypes = {Dtype::kFloat64, Dtype::kFloat64};
  std::string src = kernels::generate_elementwise(*spec, sig, kernels::Target::kHost);
  const size_t at = src.find("y = x +* 1");
  *error_line = 1 + static_cast<int>(std::count(src.begin(), src.begin() + static_cast<long>(at), '\n'));
  return src;
}

std::string compile_error_of(const std::string& src, const std::string& dir) {
  try {
    kernels::compile_host_shared_object(src, dir);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(HostCompiler, PrologueCompilesPrecompiledWithTheFullSourcesLineNumbers) {
  namespace fs = std::filesystem;
  const std::string dir = testing::TempDir() + "kumo_pch_test_" + std::to_string(::getpid());
  fs::create_directories(dir);
  setenv("KUMO_CACHE_DIR", dir.c_str(), 1);
  int line = 0;
  const std::string src = broken_host_kernel(&line);
  ASSERT_EQ(src.compare(0, kernels::kernel_prologue(kernels::Target::kHost).size(),
                        kernels::kernel_prologue(kernels::Target::kHost)), 0);
  const std::string with_pch = compile_error_of(src, dir);
  // The precompiled prologue was made and used: the kept source includes it.
  bool gch = false;
  for (const auto& e : fs::recursive_directory_iterator(dir + "/pch"))
    gch = gch || e.path().filename() == "kumo_host_prologue.h.gch";
  EXPECT_TRUE(gch);
  const std::string kept_at = "source kept at: ";
  const size_t k0 = with_pch.find(kept_at);
  ASSERT_NE(k0, std::string::npos) << with_pch;
  const size_t k1 = with_pch.find('\n', k0);
  std::ifstream kept(with_pch.substr(k0 + kept_at.size(), k1 - k0 - kept_at.size()));
  std::string first_line;
  std::getline(kept, first_line);
  EXPECT_EQ(first_line.rfind("#include \"", 0), 0u) << first_line;
  EXPECT_NE(first_line.find("kumo_host_prologue.h"), std::string::npos) << first_line;
  setenv("KUMO_HOST_PCH", "0", 1);
  const std::string without = compile_error_of(src, dir);
  unsetenv("KUMO_HOST_PCH");
  // Both name the error's line of the full source.
  const std::string where = ".cpp:" + std::to_string(line) + ":";
  EXPECT_NE(with_pch.find(where), std::string::npos) << with_pch;
  EXPECT_NE(without.find(where), std::string::npos) << without;

  // A correct kernel compiled against the precompiled prologue runs.
  auto spec = kernels::ElementwiseSpec::create("pch_runs", "T x", "T y", "y = x * 3 + 1");
  Array x = iota(Shape{5});
  Array y = kernels::call_elementwise(*spec, {x}, {Array()})[0];
  for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(y.index({IndexItem(i)}).item<double>(), 3.0 * static_cast<double>(i) + 1);
  unsetenv("KUMO_CACHE_DIR");
}
