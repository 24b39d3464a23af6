// The CUDA plugin's cuDNN DnnBackend (nn/cuda/cudnn_backend.cpp):
// without a GPU, that the plugin exposes it when libcudnn.so.9 loads, its
// name and which cases it takes; with a GPU, convolution forward / backward
// data / backward weights and pooling forward / backward on a CUDA device
// against the host's own implementation (the im2col path), and the
// autograd pooling functions on CUDA (which use it) against the host.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/backend_registry.h"
#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "kumo/kumo.h"
#include "nn/dnn_backend.h"

#ifndef KUMO_TEST_CUDA_PLUGIN_BUILT
#define KUMO_TEST_CUDA_PLUGIN_BUILT 0
#endif

namespace kumo {
namespace {

namespace ag = kumo::autograd;

constexpr bool kPluginBuilt = KUMO_TEST_CUDA_PLUGIN_BUILT;

#define KUMO_REQUIRE_CUDNN(b)                                                  \
  if (!kPluginBuilt) GTEST_SKIP() << "kumo was built without the CUDA plugin"; \
  CudaPlugin* plugin_ = cuda_plugin();                                         \
  ASSERT_NE(plugin_, nullptr) << cuda_plugin_load_error();                     \
  DnnBackend* b = find_backend<DnnBackend>(DeviceType::kCUDA);                \
  if (b == nullptr) GTEST_SKIP() << "libcudnn.so.9 cannot be loaded"

#define KUMO_REQUIRE_CUDNN_GPU(b) \
  KUMO_REQUIRE_CUDNN(b);          \
  if (plugin_->device_count() == 0) GTEST_SKIP() << "no CUDA device: " << plugin_->unavailable_reason()

ConvGeometry conv2d(int64_t pad_lo = 1, int64_t pad_hi = 1) {
  ConvGeometry g;
  g.batch = 2;
  g.in_channels = 4;
  g.out_channels = 6;
  g.groups = 1;
  g.in_size = {7, 6};
  g.ksize = {3, 3};
  g.stride = {1, 2};
  g.pad_lo = {pad_lo, pad_lo};
  g.pad_hi = {pad_hi, pad_hi};
  g.dilate = {1, 1};
  return g;
}

ConvGeometry conv_nd(size_t nd) {
  ConvGeometry g;
  g.batch = 2;
  g.in_channels = 4;
  g.out_channels = 6;
  g.groups = 2;
  for (size_t a = 0; a < nd; ++a) {
    g.in_size.push_back(static_cast<int64_t>(5 + a));
    g.ksize.push_back(static_cast<int64_t>(2 + a % 2));
    g.stride.push_back(static_cast<int64_t>(1 + a % 2));
    g.pad_lo.push_back(1);
    g.pad_hi.push_back(1);
    g.dilate.push_back(static_cast<int64_t>(a == 0 ? 2 : 1));
  }
  return g;
}

PoolGeometry pool_nd(size_t nd, int64_t pad = 1) {
  PoolGeometry g;
  g.batch = 2;
  g.channels = 3;
  for (size_t a = 0; a < nd; ++a) {
    g.in_size.push_back(static_cast<int64_t>(6 + a));
    g.ksize.push_back(3);
    g.stride.push_back(2);
    g.pad_lo.push_back(pad);
    g.pad_hi.push_back(pad);
  }
  return g;
}

// ---- Without a GPU ---------------------------------------------------------------

TEST(CudnnBackend, PluginExposesItExactlyWhenLibcudnnLoads) {
  if (!kPluginBuilt) GTEST_SKIP() << "kumo was built without the CUDA plugin";
  CudaPlugin* p = cuda_plugin();
  ASSERT_NE(p, nullptr) << cuda_plugin_load_error();
  DnnBackend* b = find_backend<DnnBackend>(DeviceType::kCUDA);
  // The lookup dlopens libcudnn.so.9; it is in the process exactly when that
  // worked (RTLD_NOLOAD only finds an already loaded library).
  void* loaded = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_NOLOAD);
  EXPECT_EQ(b != nullptr, loaded != nullptr);
  if (loaded != nullptr) dlclose(loaded);  // drops only the reference taken here
  EXPECT_EQ(find_backend<DnnBackend>(DeviceType::kCUDA), b);  // one backend per process
}

TEST(CudnnBackend, NameGivesTheLoadedVersion) {
  KUMO_REQUIRE_CUDNN(b);
  const std::string name = b->name();
  EXPECT_EQ(name.rfind("cuDNN 9.", 0), 0u) << name;
  EXPECT_EQ(std::count(name.begin(), name.end(), '.'), 2) << name;
}

TEST(CudnnBackend, ConvolutionTakesSymmetricPaddingOnly) {
  KUMO_REQUIRE_CUDNN(b);
  EXPECT_TRUE(b->supports_convolution(Dtype::kFloat32, conv2d(1, 1)));
  EXPECT_TRUE(b->supports_convolution(Dtype::kFloat32, conv2d(0, 0)));
  // Chainer's cover_all pads the end more than the start.
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, conv2d(1, 2)));
  ConvGeometry one_axis = conv2d();
  one_axis.pad_hi[1] = 0;
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, one_axis));
}

TEST(CudnnBackend, ConvolutionDtypes) {
  KUMO_REQUIRE_CUDNN(b);
  for (Dtype d : {Dtype::kFloat16, Dtype::kFloat32, Dtype::kFloat64}) {
    EXPECT_TRUE(b->supports_convolution(d, conv2d())) << dtype_name(d);
  }
  for (Dtype d : {Dtype::kBool, Dtype::kInt8, Dtype::kInt32, Dtype::kInt64, Dtype::kUInt8, Dtype::kComplex64,
                  Dtype::kComplex128}) {
    EXPECT_FALSE(b->supports_convolution(d, conv2d())) << dtype_name(d);
  }
}

TEST(CudnnBackend, ConvolutionRanksOneToThree) {
  KUMO_REQUIRE_CUDNN(b);
  for (size_t nd = 1; nd <= 3; ++nd) EXPECT_TRUE(b->supports_convolution(Dtype::kFloat32, conv_nd(nd))) << nd;
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, conv_nd(0)));
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, conv_nd(4)));
}

TEST(CudnnBackend, ConvolutionDeclinesDegenerateGeometry) {
  KUMO_REQUIRE_CUDNN(b);
  ConvGeometry g = conv2d();
  g.batch = 0;  // empty arrays: nothing for cuDNN to do, the fallback handles them
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, g));
  g = conv2d();
  g.groups = 4;  // 6 output channels do not split into 4 groups
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, g));
  g.out_channels = 8;
  EXPECT_TRUE(b->supports_convolution(Dtype::kFloat32, g));
  g = conv2d(3, 3);  // a window wholly in the padding
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, g));
  g = conv2d();
  g.in_size = {1, 1};
  g.pad_lo = g.pad_hi = {0, 0};  // no output
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, g));
  g = conv2d();
  g.batch = int64_t{1} << 31;  // past cuDNN's int extents
  EXPECT_FALSE(b->supports_convolution(Dtype::kFloat32, g));
}

TEST(CudnnBackend, PoolingModesRanksAndPadding) {
  KUMO_REQUIRE_CUDNN(b);
  for (PoolMode m : {PoolMode::kMax, PoolMode::kAverageIncludePad, PoolMode::kAverageExcludePad}) {
    for (size_t nd = 1; nd <= 3; ++nd) EXPECT_TRUE(b->supports_pooling(Dtype::kFloat32, m, pool_nd(nd))) << nd;
    EXPECT_FALSE(b->supports_pooling(Dtype::kFloat32, m, pool_nd(4)));
    PoolGeometry g = pool_nd(2);
    g.pad_hi[0] = 2;  // cover_all
    EXPECT_FALSE(b->supports_pooling(Dtype::kFloat32, m, g));
    EXPECT_FALSE(b->supports_pooling(Dtype::kFloat32, m, pool_nd(2, 3)));  // pad >= ksize
    EXPECT_TRUE(b->supports_pooling(Dtype::kFloat32, m, pool_nd(2, 2)));
  }
}

TEST(CudnnBackend, PoolingDtypes) {
  KUMO_REQUIRE_CUDNN(b);
  for (Dtype d : {Dtype::kFloat16, Dtype::kFloat32, Dtype::kFloat64}) {
    EXPECT_TRUE(b->supports_pooling(d, PoolMode::kMax, pool_nd(2))) << dtype_name(d);
  }
  for (Dtype d : {Dtype::kBool, Dtype::kInt32, Dtype::kUInt16, Dtype::kComplex64}) {
    EXPECT_FALSE(b->supports_pooling(d, PoolMode::kMax, pool_nd(2))) << dtype_name(d);
  }
}

TEST(CudnnBackend, HostArraysAreRefusedWithAValueError) {
  KUMO_REQUIRE_CUDNN(b);
  std::vector<float> buf(4096);
  EXPECT_THROW(
      b->convolution_forward(host_device(), Dtype::kFloat32, conv2d(), buf.data(), buf.data(), nullptr, buf.data()),
      ValueError);
  EXPECT_THROW(b->pooling_forward(host_device(), Dtype::kFloat32, PoolMode::kMax, pool_nd(2), buf.data(), buf.data()),
               ValueError);
}

TEST(CudnnBackend, UnsupportedCasesThrowInsteadOfCallingCudnn) {
  KUMO_REQUIRE_CUDNN(b);
  std::vector<float> buf(4096);
  try {
    b->convolution_forward(host_device(), Dtype::kFloat32, conv2d(1, 2), buf.data(), buf.data(), nullptr, buf.data());
    FAIL() << "an asymmetric padding was not refused";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("pad=(1, 1)/(2, 2)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(b->convolution_backward_data(host_device(), Dtype::kInt32, conv2d(), buf.data(), buf.data(), buf.data()),
               ValueError);
  EXPECT_THROW(b->pooling_backward(host_device(), Dtype::kFloat32, PoolMode::kMax, pool_nd(2, 3), buf.data(),
                                   buf.data(), buf.data(), buf.data()),
               ValueError);
}

// The plugin's kumo_cudnn_check_descriptors (nn/cuda/cudnn_backend.h),
// found through the loaded plugin that holds the backend object.
using CheckDescriptors = bool (*)(Dtype, const ConvGeometry*, PoolMode, const PoolGeometry*, std::string*);
CheckDescriptors check_descriptors_hook(DnnBackend* backend) {
  Dl_info info{};
  // The object's vtable lies in the plugin's image.
  if (dladdr(*reinterpret_cast<void**>(backend), &info) == 0 || info.dli_fname == nullptr) return nullptr;
  void* plugin = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  if (plugin == nullptr) return nullptr;
  auto fn = reinterpret_cast<CheckDescriptors>(dlsym(plugin, "kumo_cudnn_check_descriptors"));
  dlclose(plugin);  // drops only the reference taken here: the plugin stays loaded
  return fn;
}

// cuDNN validates descriptors on the host: building every descriptor of a
// problem, and cuDNN's own output extents, check the translation of the
// geometry (unit axis for 1-d, filter layout, groups, padding, strides,
// dilation) without a GPU.
TEST(CudnnBackend, DescriptorsAgreeWithTheGeometry) {
  KUMO_REQUIRE_CUDNN(b);
  CheckDescriptors check = check_descriptors_hook(b);
  ASSERT_NE(check, nullptr);
  std::string message;
  for (Dtype d : {Dtype::kFloat16, Dtype::kFloat32, Dtype::kFloat64}) {
    for (size_t nd = 1; nd <= 3; ++nd) {
      const ConvGeometry g = conv_nd(nd);
      ASSERT_TRUE(check(d, &g, PoolMode::kMax, nullptr, &message)) << message;
      EXPECT_EQ(message, "") << g.to_string();
      for (PoolMode m : {PoolMode::kMax, PoolMode::kAverageIncludePad, PoolMode::kAverageExcludePad}) {
        const PoolGeometry p = pool_nd(nd);
        ASSERT_TRUE(check(d, nullptr, m, &p, &message)) << message;
        EXPECT_EQ(message, "") << nd;
      }
    }
    for (int64_t pad : {0, 1}) {
      const ConvGeometry g = conv2d(pad, pad);
      ASSERT_TRUE(check(d, &g, PoolMode::kMax, nullptr, &message)) << message;
      EXPECT_EQ(message, "") << g.to_string();
    }
  }
  // Larger strides, dilation and windows than the fixed cases.
  ConvGeometry g = conv_nd(3);
  g.stride = {3, 2, 1};
  g.dilate = {1, 3, 2};
  g.ksize = {2, 2, 3};
  g.in_size = {11, 9, 13};
  g.pad_lo = g.pad_hi = {1, 2, 0};
  ASSERT_TRUE(check(Dtype::kFloat32, &g, PoolMode::kMax, nullptr, &message)) << message;
  EXPECT_EQ(message, "") << g.to_string();
  PoolGeometry p = pool_nd(2, 2);
  p.in_size = {10, 11};
  p.stride = {3, 1};
  ASSERT_TRUE(check(Dtype::kFloat32, nullptr, PoolMode::kAverageExcludePad, &p, &message)) << message;
  EXPECT_EQ(message, "");
}

TEST(CudnnBackend, HostDnnBackendStillDeclinesPooling) {
  // The pooling functions ask dnn_backend() on every device; on the host it
  // must keep declining so the host's results do not change.
  DnnBackend* host = dnn_backend(host_device());
  if (host == nullptr) GTEST_SKIP() << "no host DNN backend in this build";
  EXPECT_FALSE(host->supports_pooling(Dtype::kFloat32, PoolMode::kMax, pool_nd(2)));
}

// ---- With a GPU ------------------------------------------------------------------

Array values_of(const Shape& shape, Dtype dtype, double phase) {
  Array i = arange(Scalar(0), Scalar(shape_size(shape)), Scalar(1), Dtype::kFloat64).reshape(shape);
  return sin(i * Scalar(0.37) + Scalar(phase)).astype(dtype);
}

Shape conv_x_shape(const ConvGeometry& g) {
  Shape s{g.batch, g.in_channels};
  for (int64_t e : g.in_size) s.push_back(e);
  return s;
}
Shape conv_w_shape(const ConvGeometry& g) {
  Shape s{g.out_channels, g.in_channels / g.groups};
  for (int64_t e : g.ksize) s.push_back(e);
  return s;
}
Shape conv_y_shape(const ConvGeometry& g) {
  Shape s{g.batch, g.out_channels};
  for (int64_t e : g.out_size()) s.push_back(e);
  return s;
}

double tolerance(Dtype d) { return d == Dtype::kFloat16 ? 2e-2 : d == Dtype::kFloat32 ? 1e-4 : 1e-10; }

void expect_close(const Array& got, const Array& want, Dtype dtype, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  const std::vector<double> g = got.to_device(host_device()).astype(Dtype::kFloat64).to_vector<double>();
  const std::vector<double> w = want.to_device(host_device()).astype(Dtype::kFloat64).to_vector<double>();
  const double tol = tolerance(dtype);
  for (size_t i = 0; i < g.size(); ++i) {
    ASSERT_NEAR(g[i], w[i], tol * (1 + std::fabs(w[i]))) << what << " at " << i;
  }
}

// The host's convolution (im2col + GEMM) and its gradients for gy, all in
// float64.
struct ConvReference {
  Array y, gx, gw, gb;
};
ConvReference host_convolution(const ConvGeometry& g, const Array& x, const Array& w, const Array& b, const Array& gy) {
  const auto f64 = [](const Array& a) { return a.to_device(host_device()).astype(Dtype::kFloat64); };
  ag::Variable xv(f64(x)), wv(f64(w)), bv(f64(b));
  ag::Variable y = ag::convolution_nd(xv, wv, bv, g.stride, g.pad_lo, false, g.dilate, g.groups);
  ag::sum(y * ag::Variable(f64(gy), false)).backward();
  return {y.array(), xv.grad(), wv.grad(), bv.grad()};
}

class CudnnConvolutionGpu : public ::testing::TestWithParam<std::tuple<Dtype, size_t>> {};

TEST_P(CudnnConvolutionGpu, ForwardAndBackwardMatchTheHost) {
  KUMO_REQUIRE_CUDNN_GPU(b);
  const Dtype dtype = std::get<0>(GetParam());
  const ConvGeometry g = conv_nd(std::get<1>(GetParam()));
  ASSERT_TRUE(b->supports_convolution(dtype, g)) << g.to_string();
  Device& dev = plugin_->device(0);
  const Array x = values_of(conv_x_shape(g), dtype, 0.1).to_device(dev);
  const Array w = values_of(conv_w_shape(g), dtype, 0.7).to_device(dev);
  const Array bias = values_of(Shape{g.out_channels}, dtype, 1.3).to_device(dev);
  const Array gy = values_of(conv_y_shape(g), dtype, 2.1).to_device(dev);
  const ConvReference ref = host_convolution(g, x, w, bias, gy);

  Array y = Array::empty(conv_y_shape(g), dtype, dev);
  b->convolution_forward(dev, dtype, g, x.data(), w.data(), bias.data(), y.data());
  expect_close(y, ref.y, dtype, "forward with bias");

  Array gx = Array::empty(conv_x_shape(g), dtype, dev);
  b->convolution_backward_data(dev, dtype, g, w.data(), gy.data(), gx.data());
  expect_close(gx, ref.gx, dtype, "backward data");

  Array gw = Array::empty(conv_w_shape(g), dtype, dev);
  b->convolution_backward_weights(dev, dtype, g, x.data(), gy.data(), gw.data());
  expect_close(gw, ref.gw, dtype, "backward weights");

  // Without a bias: the same call again (the cached algorithm) gives y - b.
  Array y0 = Array::empty(conv_y_shape(g), dtype, dev);
  b->convolution_forward(dev, dtype, g, x.data(), w.data(), nullptr, y0.data());
  Shape bs{1, g.out_channels};
  for (size_t a = 0; a < g.ndim(); ++a) bs.push_back(1);
  expect_close(y0, ref.y - bias.to_device(host_device()).astype(Dtype::kFloat64).reshape(bs), dtype, "no bias");
}

INSTANTIATE_TEST_SUITE_P(DtypesAndRanks, CudnnConvolutionGpu,
                         ::testing::Combine(::testing::Values(Dtype::kFloat16, Dtype::kFloat32, Dtype::kFloat64),
                                            ::testing::Values(size_t{1}, size_t{2}, size_t{3})));

class CudnnPoolingGpu : public ::testing::TestWithParam<std::tuple<PoolMode, size_t>> {};

// The backend's pooling and its gradient against the host's autograd
// pooling (which never uses a backend for pooling).
TEST_P(CudnnPoolingGpu, ForwardAndBackwardMatchTheHost) {
  KUMO_REQUIRE_CUDNN_GPU(b);
  const PoolMode mode = std::get<0>(GetParam());
  const PoolGeometry g = pool_nd(std::get<1>(GetParam()));
  const Dtype dtype = Dtype::kFloat32;
  ASSERT_TRUE(b->supports_pooling(dtype, mode, g));
  Device& dev = plugin_->device(0);
  Shape xs{g.batch, g.channels}, ys{g.batch, g.channels};
  for (int64_t e : g.in_size) xs.push_back(e);
  for (int64_t e : g.out_size()) ys.push_back(e);
  const Array x = values_of(xs, dtype, 0.3).to_device(dev);  // sin of distinct points: no ties
  const Array gy = values_of(ys, dtype, 1.9).to_device(dev);

  ag::Variable xv(x.to_device(host_device()));
  ag::Variable yv =
      mode == PoolMode::kMax
          ? ag::max_pooling_nd(xv, g.ksize, g.stride, g.pad_lo, false)
          : ag::average_pooling_nd(xv, g.ksize, g.stride, g.pad_lo,
                                   mode == PoolMode::kAverageIncludePad ? std::optional<double>(0.0) : std::nullopt);
  ag::sum(yv * ag::Variable(gy.to_device(host_device()), false)).backward();

  Array y = Array::empty(ys, dtype, dev);
  b->pooling_forward(dev, dtype, mode, g, x.data(), y.data());
  expect_close(y, yv.array(), dtype, "pooling forward");
  Array gx = Array::empty(xs, dtype, dev);
  b->pooling_backward(dev, dtype, mode, g, x.data(), y.data(), gy.data(), gx.data());
  expect_close(gx, xv.grad(), dtype, "pooling backward");
}

INSTANTIATE_TEST_SUITE_P(ModesAndRanks, CudnnPoolingGpu,
                         ::testing::Combine(::testing::Values(PoolMode::kMax, PoolMode::kAverageIncludePad,
                                                              PoolMode::kAverageExcludePad),
                                            ::testing::Values(size_t{1}, size_t{2}, size_t{3})));

// The autograd pooling functions on CUDA (cuDNN forward and, without double
// backprop, cuDNN backward) give the host's values and gradients, and the
// same as CUDA with the backend switched off; double backprop takes the
// differentiable path.
TEST(CudnnAutogradPoolingGpu, MatchesTheHostAndTheFallback) {
  KUMO_REQUIRE_CUDNN_GPU(b);
  Device& dev = plugin_->device(0);
  const Array x_host = values_of(Shape{2, 3, 7, 6}, Dtype::kFloat32, 0.2);
  const auto run = [&](Device& d, bool pool_max, bool double_backprop) {
    ag::Variable xv(x_host.to_device(d));
    ag::Variable y = pool_max ? ag::max_pooling_2d(xv, {3}, {2}, {1}, false)
                              : ag::average_pooling_2d(xv, {3}, {2}, {1}, std::nullopt);
    ag::Variable loss = ag::sum(y * y);
    loss.backward(false, double_backprop);
    return std::make_pair(y.array().to_device(host_device()), xv.grad().to_device(host_device()));
  };
  for (bool pool_max : {true, false}) {
    for (bool double_backprop : {false, true}) {
      const auto want = run(host_device(), pool_max, double_backprop);
      const auto got = run(dev, pool_max, double_backprop);
      expect_close(got.first, want.first, Dtype::kFloat32, "y");
      expect_close(got.second, want.second, Dtype::kFloat32, "gx");
      set_dnn_enabled(DeviceType::kCUDA, false);
      const auto fallback = run(dev, pool_max, double_backprop);
      set_dnn_enabled(DeviceType::kCUDA, true);
      expect_close(got.first, fallback.first, Dtype::kFloat32, "y vs fallback");
      expect_close(got.second, fallback.second, Dtype::kFloat32, "gx vs fallback");
    }
  }
}

}  // namespace
}  // namespace kumo
