// The CUDA plugin's SortBackend (routines/sort_backend.h, CUB radix sorts):
// the plugin exposes it, it refuses arrays of another device with a clear
// error, and — with a GPU — sort, argsort and partition of CUDA arrays give
// the host's results bit for bit (NaN last, signed zeros in their order,
// complex order, stability, several rows).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/backend_registry.h"
#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "kumo/kumo.h"
#include "routines/sort_backend.h"

#ifndef KUMO_TEST_CUDA_PLUGIN_BUILT
#define KUMO_TEST_CUDA_PLUGIN_BUILT 0
#endif

namespace kumo {
namespace {

constexpr bool kPluginBuilt = KUMO_TEST_CUDA_PLUGIN_BUILT;

#define KUMO_REQUIRE_PLUGIN(p)                                                 \
  if (!kPluginBuilt) GTEST_SKIP() << "kumo was built without the CUDA plugin"; \
  CudaPlugin* p = cuda_plugin();                                               \
  ASSERT_NE(p, nullptr) << cuda_plugin_load_error()

#define KUMO_REQUIRE_GPU(p) \
  KUMO_REQUIRE_PLUGIN(p);   \
  if (p->device_count() == 0) GTEST_SKIP() << "no CUDA device: " << p->unavailable_reason()

TEST(CubSort, PluginExposesTheSortBackend) {
  KUMO_REQUIRE_PLUGIN(p);
  SortBackend* a = find_backend<SortBackend>(DeviceType::kCUDA);
  SortBackend* b = find_backend<SortBackend>(DeviceType::kCUDA);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a, b);  // one backend per process
}

TEST(CubSort, HostMemoryIsRefusedWithAClearError) {
  KUMO_REQUIRE_PLUGIN(p);
  SortBackend* backend = find_backend<SortBackend>(DeviceType::kCUDA);
  ASSERT_NE(backend, nullptr);
  std::vector<double> v = {3, 1, 2};
  std::vector<double> out(3);
  try {
    backend->sort(host_device(), Dtype::kFloat64, v.data(), out.data(), 1, 3);
    FAIL() << "sorting host memory on the CUDA backend did not throw";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu"), std::string::npos) << e.what();
  }
}

TEST(CubSort, NoGpuMeansDeviceErrorNotACrash) {
  KUMO_REQUIRE_PLUGIN(p);
  if (p->device_count() > 0) GTEST_SKIP() << "a GPU is present";
  // Without a device no CUDA array can exist: asking for one is the error.
  EXPECT_THROW(get_device(DeviceType::kCUDA, 0), DeviceError);
}

// ---- With a GPU ----------------------------------------------------------------------

Array on_gpu(const Array& a) { return a.to_device(cuda_plugin()->device(0)); }
Array on_cpu(const Array& a) { return a.to_device(host_device()); }

// Byte equality of two arrays (NaN payloads and signs of zero included).
void expect_same_bytes(const Array& got, const Array& want) {
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  std::vector<unsigned char> g(got.nbytes()), w(want.nbytes());
  if (g.empty()) return;
  got.copy_to_host_buffer(g.data());
  want.copy_to_host_buffer(w.data());
  const size_t item = got.itemsize();
  for (size_t i = 0; i < g.size(); i += item) {
    ASSERT_EQ(std::memcmp(&g[i], &w[i], item), 0) << "element " << i / item;
  }
}

std::vector<double> specials(int64_t n, unsigned seed) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const double pool[] = {nan, -inf, -0.0, 0.0, inf, 1.5, -2.0, 1.5, 3.0, -1.0};
  std::mt19937 gen(seed);
  std::vector<double> v(n);
  for (auto& x : v) x = pool[gen() % 10];
  return v;
}

TEST(CubSortGpu, RealDtypesMatchTheHost) {
  KUMO_REQUIRE_GPU(p);
  const Array base = asarray(specials(3000, 1)).reshape(Shape{30, 100});
  for (Dtype d : {Dtype::kBool, Dtype::kInt8, Dtype::kUInt8, Dtype::kInt16, Dtype::kUInt16, Dtype::kFloat16,
                  Dtype::kInt32, Dtype::kUInt32, Dtype::kFloat32, Dtype::kInt64, Dtype::kUInt64, Dtype::kFloat64}) {
    SCOPED_TRACE(dtype_name(d));
    const Array host = base.astype(d);
    const Array gpu = on_gpu(host);
    for (std::optional<int64_t> axis :
         {std::optional<int64_t>(-1), std::optional<int64_t>(0), std::optional<int64_t>()}) {
      expect_same_bytes(argsort(gpu, axis), argsort(host, axis));
      expect_same_bytes(sort(gpu, axis), sort(host, axis));
    }
  }
}

TEST(CubSortGpu, ComplexOrderMatchesTheHost) {
  KUMO_REQUIRE_GPU(p);
  const std::vector<double> re = specials(2000, 2), im = specials(2000, 3);
  std::vector<std::complex<double>> z(re.size());
  for (size_t i = 0; i < z.size(); ++i) z[i] = {re[i], im[i]};
  for (Dtype d : {Dtype::kComplex64, Dtype::kComplex128}) {
    const Array host = asarray(z).astype(d).reshape(Shape{20, 100});
    const Array gpu = on_gpu(host);
    expect_same_bytes(argsort(gpu), argsort(host));
    expect_same_bytes(argsort(gpu, 0), argsort(host, 0));
    // The host sorts complex values with std::sort, which may order equal
    // values of other bits (-0.0, NaNs) differently: compare with its stable argsort.
    expect_same_bytes(sort(gpu), take_along_axis(host, argsort(host), -1));
  }
}

TEST(CubSortGpu, LongRowAndPartition) {
  KUMO_REQUIRE_GPU(p);
  const Array host = asarray(specials(1 << 20, 4));
  const Array gpu = on_gpu(host);
  expect_same_bytes(sort(gpu), sort(host));
  expect_same_bytes(argsort(gpu), argsort(host));
  // A full sort is a valid partition.
  expect_same_bytes(partition(gpu, {5, 100}), sort(host));
  EXPECT_THROW(partition(gpu, {1 << 21}), ValueError);
}

TEST(CubSortGpu, EmptyAndResultsStayOnTheDevice) {
  KUMO_REQUIRE_GPU(p);
  const Array gpu = on_gpu(asarray(std::vector<double>{}));
  EXPECT_EQ(sort(gpu).size(), 0);
  const Array r = sort(on_gpu(asarray(std::vector<double>{3, 1, 2})));
  EXPECT_EQ(r.device().type(), DeviceType::kCUDA);
  EXPECT_EQ(on_cpu(r).to_vector<double>(), (std::vector<double>{1, 2, 3}));
}

}  // namespace
}  // namespace kumo
