// kumo::RawModule from C++: a saxpy kernel in CUDA C++ launched on the host,
// a template kernel through a name expression, a __device__ global and the
// errors for unknown names and mixed devices.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/array.h"
#include "core/cuda_plugin.h"
#include "core/device.h"
#include "core/errors.h"
#include "kernels/raw_module.h"

using namespace kumo;

namespace {

const char* kSource = R"(
__device__ int launches;
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  if (i == 0) atomicAdd(&launches, 1);
}
template <typename T>
__global__ void fill(T* out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}
)";

Array host_array(const std::vector<float>& values) {
  Array a = Array::empty(Shape{static_cast<int64_t>(values.size())}, Dtype::kFloat32, host_device());
  std::memcpy(a.data(), values.data(), values.size() * sizeof(float));
  return a;
}

RawModule& module() {
  static RawModule m(kSource, RawModuleOptions{{}, {"fill<double>"}, false, false});
  return m;
}

}  // namespace

TEST(RawModuleTest, SaxpyOnTheHost) {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 1.0f - i;
  Array ax = host_array(x), ay = host_array(y);
  module().get_function("saxpy").launch(
      Dim3{(n + 255) / 256}, Dim3{256},
      {KernelArg::of(2.0f), KernelArg::array(ax), KernelArg::array(ay), KernelArg::of(n)});
  const float* out = reinterpret_cast<const float*>(ay.data());
  for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(out[i], 2.0f * x[i] + y[i]) << i;
}

TEST(RawModuleTest, TemplateKernelThroughNameExpression) {
  Array out = Array::empty(Shape{10}, Dtype::kFloat64, host_device());
  module()
      .get_function("fill<double>")
      .launch(Dim3{1}, Dim3{32}, {KernelArg::array(out), KernelArg::of(2.5), KernelArg::of(10)});
  const double* p = reinterpret_cast<const double*>(out.data());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p[i], 2.5);
}

TEST(RawModuleTest, GlobalAliasesTheSymbol) {
  Array g = module().get_global("launches", host_device(), Dtype::kInt32);
  ASSERT_EQ(g.size(), 1);
  *reinterpret_cast<int*>(g.data()) = 0;
  Array x = host_array({1, 2}), y = host_array({0, 0});
  module().get_function("saxpy").launch(
      Dim3{1}, Dim3{2}, {KernelArg::of(1.0f), KernelArg::array(x), KernelArg::array(y), KernelArg::of(2)});
  EXPECT_EQ(*reinterpret_cast<const int*>(g.data()), 1);
}

TEST(RawModuleTest, UnknownKernelNamesItself) {
  try {
    module().get_function("not_here").launch(Dim3{1}, Dim3{1}, {});
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("not_here"), std::string::npos);
  }
}

TEST(RawModuleTest, CompileErrorCarriesTheLog) {
  RawModule bad("extern \"C\" __global__ void k(int* x) {\n  undeclared_thing(x);\n}\n");
  try {
    bad.compile(host_device());
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("undeclared_thing"), std::string::npos);
  }
}

// The CUDA plugin's additions, which need no GPU: name expressions give
// lowered names, and an NVRTC error carries the user's line.
TEST(RawModuleCudaTest, NvrtcLowersNameExpressions) {
  CudaPlugin* plugin = cuda_plugin();
  if (!plugin) GTEST_SKIP() << cuda_plugin_load_error();
  auto compiled = plugin->kernels().compile_module(kSource, "raw.cu", 80, {}, {"fill<double>", "saxpy"});
  ASSERT_EQ(compiled.lowered_names.size(), 2u);
  EXPECT_EQ(compiled.lowered_names[0].rfind("_Z", 0), 0u) << compiled.lowered_names[0];
  EXPECT_EQ(compiled.lowered_names[1], "saxpy");  // extern "C": unmangled
  EXPECT_FALSE(compiled.cubin.empty());
}

TEST(RawModuleCudaTest, NvrtcErrorShowsTheUserLine) {
  CudaPlugin* plugin = cuda_plugin();
  if (!plugin) GTEST_SKIP() << cuda_plugin_load_error();
  try {
    plugin->kernels().compile_module("extern \"C\" __global__ void k(int* x) {\n  x[0] = 1;\n  nope(x);\n}\n", "raw.cu",
                                     80, {}, {});
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("raw.cu(3)"), std::string::npos) << e.what();
  }
}
