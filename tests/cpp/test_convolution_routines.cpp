// nn/convolution.h from C++: the geometry (cover_all's end padding,
// readable errors), and the three routines as each other's adjoints,
// <conv(x, W), gy> = <x, backward_data(gy, W)> = <W, backward_weights(x, gy)>,
// on the host backend (oneDNN for float32 when built) and on kumo's own path.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

// Deterministic values in [-1, 1) without a random generator.
Array wave(const Shape& shape, double phase, Dtype dtype) {
  return sin(add(multiply(arange(Scalar(0), Scalar(shape_size(shape)), Scalar(1), Dtype::kFloat64), 0.7), phase))
      .astype(dtype)
      .reshape(shape);
}

double dot_all(const Array& a, const Array& b) {
  return vdot(a.astype(Dtype::kFloat64).ravel(), b.astype(Dtype::kFloat64).ravel()).item<double>();
}

struct DnnScope {
  explicit DnnScope(bool on) : old(dnn_enabled(DeviceType::kCPU)) { set_dnn_enabled(DeviceType::kCPU, on); }
  ~DnnScope() { set_dnn_enabled(DeviceType::kCPU, old); }
  bool old;
};

}  // namespace

TEST(ConvolutionRoutines, GeometryAddsCoverAllPaddingAtTheEnd) {
  ConvGeometry g = conv_geometry(Shape{2, 4, 7, 8}, Shape{6, 4, 3, 3}, {2}, {1}, {}, 1, true);
  EXPECT_EQ(g.pad_lo, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(g.pad_hi, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(g.out_size(), (std::vector<int64_t>{4, 5}));
  EXPECT_FALSE(g.symmetric_padding());
  EXPECT_TRUE(conv_geometry(Shape{2, 4, 7, 8}, Shape{6, 4, 3, 3}, {2}, {1}).symmetric_padding());
}

TEST(ConvolutionRoutines, GeometryErrorsNameTheProblem) {
  EXPECT_THROW(conv_geometry(Shape{2, 4, 7}, Shape{6, 3, 3}), ValueError);                       // channels
  EXPECT_THROW(conv_geometry(Shape{2, 4, 2, 2}, Shape{6, 4, 3, 3}), ValueError);                 // output extent 0
  EXPECT_THROW(conv_geometry(Shape{2, 4, 7, 7}, Shape{6, 4, 3, 3}, {0}), ValueError);            // stride
  EXPECT_THROW(conv_geometry(Shape{2, 4, 7, 7}, Shape{6, 2, 3, 3}, {}, {}, {}, 3), ValueError);  // groups
  try {
    conv_geometry(Shape{2, 4, 7, 7}, Shape{6, 4, 3, 3}, {1, 1, 1});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("stride"), std::string::npos);
  }
}

class ConvolutionAdjoint : public ::testing::TestWithParam<std::tuple<Dtype, bool>> {};

TEST_P(ConvolutionAdjoint, RoutinesAreEachOthersAdjoints) {
  const auto [dtype, use_dnn] = GetParam();
  DnnScope scope(use_dnn);
  // Grouped, strided, dilated, with cover_all's asymmetric padding.
  const Shape xs{2, 16, 11, 10}, ws{16, 8, 3, 3};
  ConvGeometry g = conv_geometry(xs, ws, {2, 1}, {1, 2}, {1, 2}, 2, true);
  Array x = wave(xs, 0.1, dtype), w = wave(ws, 0.5, dtype);
  Array y = convolution_forward(x, w, Array(), g);
  Shape ys{2, 16};
  for (int64_t o : g.out_size()) ys.push_back(o);
  ASSERT_EQ(y.shape(), ys);
  Array gy = wave(ys, 0.9, dtype);
  const double tol = dtype == Dtype::kFloat32 ? 1e-3 : 1e-9;
  const double lhs = dot_all(y, gy);
  EXPECT_NEAR(dot_all(x, convolution_backward_data(gy, w, g)), lhs, tol * std::abs(lhs) + tol);
  EXPECT_NEAR(dot_all(w, convolution_backward_weights(x, gy, g)), lhs, tol * std::abs(lhs) + tol);
}

INSTANTIATE_TEST_SUITE_P(DtypesAndPaths, ConvolutionAdjoint,
                         ::testing::Combine(::testing::Values(Dtype::kFloat32, Dtype::kFloat64), ::testing::Bool()));

TEST(ConvolutionRoutines, BackendAndOwnPathAgree) {
  const Shape xs{3, 8, 9, 9}, ws{16, 8, 3, 3};
  ConvGeometry g = conv_geometry(xs, ws, {1}, {1});
  Array x = wave(xs, 0.2, Dtype::kFloat32), w = wave(ws, 0.4, Dtype::kFloat32), b = wave({16}, 0.3, Dtype::kFloat32);
  Array y_dnn, y_own;
  {
    DnnScope on(true);
    y_dnn = convolution_forward(x, w, b, g);
  }
  {
    DnnScope off(false);
    y_own = convolution_forward(x, w, b, g);
  }
  const std::vector<double> a = y_dnn.astype(Dtype::kFloat64).to_vector<double>(),
                            e = y_own.astype(Dtype::kFloat64).to_vector<double>();
  ASSERT_EQ(a.size(), e.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], e[i], 1e-4 * (1 + std::abs(e[i]))) << i;
}

TEST(ConvolutionRoutines, WrongShapesAreValueErrors) {
  ConvGeometry g = conv_geometry(Shape{1, 8, 5, 5}, Shape{8, 8, 3, 3});
  Array x = wave({1, 8, 5, 5}, 0, Dtype::kFloat32), w = wave({8, 8, 3, 3}, 0, Dtype::kFloat32);
  EXPECT_THROW(convolution_forward(x, w, wave({7}, 0, Dtype::kFloat32), g), ValueError);
  EXPECT_THROW(convolution_backward_data(x, w, g), ValueError);  // gy must be (1, 8, 3, 3)
  EXPECT_THROW(convolution_forward(x.astype(Dtype::kInt32), w, Array(), g), TypeError);
}

TEST(ConvolutionRoutines, HostBackendIsNamed) {
  if (DnnBackend* b = host_dnn_backend()) {
    EXPECT_EQ(b->name().rfind("oneDNN ", 0), 0u);
    EXPECT_FALSE(b->supports_convolution(Dtype::kFloat64, conv_geometry(Shape{1, 8, 5, 5}, Shape{8, 8, 3, 3})));
  } else {
    GTEST_SKIP() << "built without oneDNN";
  }
}
