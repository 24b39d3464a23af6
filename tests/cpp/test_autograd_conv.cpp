// nn/im2col.h and autograd/functions/{convolution,pooling}.h from C++:
// im2col/col2im on a small image, a convolution's value and gradients, and
// max pooling with its indexes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
namespace ag = kumo::autograd;

namespace {

std::vector<double> values(const Array& a) { return a.astype(Dtype::kFloat64).to_vector<double>(); }

Array iota(const Shape& shape) {
  return arange(Scalar(0), Scalar(shape_size(shape)), Scalar(1), Dtype::kFloat64).reshape(shape);
}

}  // namespace

TEST(AutogradConvRoutines, Im2colPatchesAndPadding) {
  // x = [[0 1 2] [3 4 5]], 2x2 windows, pad 1 on the width: out (1, 4).
  Array col = im2col(iota({1, 1, 2, 3}), {2, 2}, {1, 1}, {0, 1}, {}, false, Scalar(-1));
  ASSERT_EQ(col.shape(), Shape({1, 1, 2, 2, 1, 4}));
  EXPECT_EQ(values(col), (std::vector<double>{-1, 0, 1, 2, 0, 1, 2, -1, -1, 3, 4, 5, 3, 4, 5, -1}));
  EXPECT_EQ(conv_outsize(7, 3, 2, 1, true), 4);
  EXPECT_EQ(deconv_outsize(4, 3, 2, 1), 7);
}

TEST(AutogradConvRoutines, Col2imCountsEveryWindow) {
  Array col = ones({1, 1, 2, 2, 2, 2}, Dtype::kFloat64);
  Array img = col2im(col, {1, 1}, {0, 0}, {3, 3});
  EXPECT_EQ(values(img), (std::vector<double>{1, 2, 1, 2, 4, 2, 1, 2, 1}));
}

TEST(AutogradConv, Convolution2dValueAndGradients) {
  ag::Variable x(iota({1, 1, 3, 3}));
  ag::Variable W(ones({2, 1, 2, 2}, Dtype::kFloat64));
  ag::Variable b(asarray(std::vector<double>{10, 20}, {2}));
  ag::Variable y = ag::convolution_2d(x, W, b);
  ASSERT_EQ(y.shape(), Shape({1, 2, 2, 2}));
  EXPECT_EQ(values(y.array()), (std::vector<double>{18, 22, 30, 34, 28, 32, 40, 44}));
  ag::sum(y).backward();
  // Each input is in as many windows as col2im counts, for both filters.
  EXPECT_EQ(values(x.grad()), (std::vector<double>{2, 4, 2, 4, 8, 4, 2, 4, 2}));
  EXPECT_EQ(values(b.grad()), (std::vector<double>{4, 4}));
  EXPECT_EQ(values(W.grad()), (std::vector<double>{8, 12, 20, 24, 8, 12, 20, 24}));
}

TEST(AutogradConv, DeconvolutionShape) {
  ag::Variable y = ag::deconvolution_2d(ag::Variable(ones({1, 2, 3, 3}, Dtype::kFloat32)),
                                        ag::Variable(ones({2, 4, 3, 3}, Dtype::kFloat32)), ag::Variable(), {2}, {1});
  EXPECT_EQ(y.shape(), Shape({1, 4, 5, 5}));
  EXPECT_EQ(y.dtype(), Dtype::kFloat32);
}

TEST(AutogradConv, MaxPoolingIndexesAndGradient) {
  ag::Variable x(iota({1, 1, 4, 4}));
  auto r = ag::max_pooling_nd_with_indices(x, {2});
  EXPECT_EQ(values(r.first.array()), (std::vector<double>{5, 7, 13, 15}));
  EXPECT_EQ(values(r.second), (std::vector<double>{3, 3, 3, 3}));
  ag::sum(r.first).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1}));
  EXPECT_THROW(ag::max_pooling_2d(ag::Variable(ones({1, 1, 4, 4}, Dtype::kInt32)), {2}), TypeError);
}

TEST(AutogradConv, AveragePoolingExcludesPadding) {
  ag::Variable x(ones({1, 1, 2, 2}, Dtype::kFloat64));
  EXPECT_EQ(values(ag::average_pooling_2d(x, {2}, {1}, {1}, std::nullopt).array()), std::vector<double>(9, 1.0));
  EXPECT_EQ(values(ag::average_pooling_2d(x, {2}, {1}, {1}).array()),
            (std::vector<double>{0.25, 0.5, 0.25, 0.5, 1, 0.5, 0.25, 0.5, 0.25}));
}

// The per-element (CUDA's default) and per-plane (the host's) kernel forms
// agree; the Python tests run the host's form.
TEST(AutogradConvRoutines, KernelFormsAgree) {
  Array x = sin(iota({2, 3, 7, 6}));
  Array col = im2col(x, {3, 2}, {2, 1}, {1, 1}, {1, 2}, true);
  const std::vector<int64_t> s{2, 1}, p{1, 1}, d{1, 2}, out{7, 6};
  EXPECT_EQ(values(col2im(col, s, p, out, d, true)), values(col2im(col, s, p, out, d, false)));
  auto a = max_pool(x, {3, 2}, {2, 1}, {1, 1}, true, true);
  auto b = max_pool(x, {3, 2}, {2, 1}, {1, 1}, true, false);
  EXPECT_EQ(values(a.first), values(b.first));
  EXPECT_EQ(values(a.second), values(b.second));
  Array x3 = cos(iota({1, 2, 4, 5, 3}));
  auto c = max_pool(x3, {2, 2, 2}, {1, 2, 1}, {1, 0, 1}, true, true);
  auto e = max_pool(x3, {2, 2, 2}, {1, 2, 1}, {1, 0, 1}, true, false);
  EXPECT_EQ(values(c.first), values(e.first));
  EXPECT_EQ(values(c.second), values(e.second));
  EXPECT_EQ(values(pool_scatter(c.first, c.second, {2, 2, 2}, {1, 2, 1}, {1, 0, 1}, {4, 5, 3}, true)),
            values(pool_scatter(c.first, c.second, {2, 2, 2}, {1, 2, 1}, {1, 0, 1}, {4, 5, 3}, false)));
}

namespace {

// Values with many ties, NaNs and infinities, so the rules for the first
// maximum, NaN and all -inf windows are all exercised.
Array awkward(const Shape& shape, Dtype dtype) {
  std::vector<double> v(static_cast<size_t>(shape_size(shape)));
  const double inf = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<double>((i * 7919 + 13) % 5) - 2.0;
    if (i % 23 == 5) v[i] = std::numeric_limits<double>::quiet_NaN();
    if (i % 17 == 3 || (i / 6) % 11 == 4) v[i] = -inf;
    if (i % 29 == 8) v[i] = inf;
  }
  return asarray(v, shape).astype(dtype);
}

// Equal (within tol), NaN positions included.
void expect_same(const Array& a, const Array& b, const std::string& what, double tol = 0) {
  ASSERT_EQ(a.shape(), b.shape()) << what;
  const auto va = values(a), vb = values(b);
  for (size_t i = 0; i < va.size(); ++i) {
    if (std::isnan(va[i]) || std::isnan(vb[i]))
      EXPECT_TRUE(std::isnan(va[i]) && std::isnan(vb[i])) << what << " at " << i;
    else if (tol == 0)
      EXPECT_EQ(va[i], vb[i]) << what << " at " << i;
    else
      EXPECT_NEAR(va[i], vb[i], tol) << what << " at " << i;
  }
}

}  // namespace

// The host's native max pooling and scatter (float32 and float64, ranks 1
// to 3) agree with the per-element kernels, values and first-maximum
// indexes alike, over odd sizes, padding, cover_all, strides other than
// the window and non-contiguous inputs.
TEST(AutogradConvRoutines, HostPoolKernelsMatchPerElementForm) {
  struct Case {
    Shape shape;
    std::vector<int64_t> k, s, p;
    bool cover_all;
  };
  const std::vector<Case> cases{
      {{3, 4, 28, 28}, {2, 2}, {2, 2}, {0, 0}, true},  {{2, 3, 7, 9}, {2, 2}, {2, 2}, {0, 0}, true},
      {{2, 3, 7, 9}, {2, 2}, {2, 2}, {0, 0}, false},   {{2, 3, 7, 9}, {3, 3}, {2, 2}, {1, 1}, true},
      {{2, 3, 8, 5}, {2, 2}, {1, 1}, {0, 0}, false},   {{2, 3, 8, 5}, {3, 3}, {3, 3}, {1, 1}, true},
      {{1, 2, 6, 7}, {3, 2}, {2, 1}, {1, 1}, true},    {{1, 2, 5, 5}, {2, 2}, {2, 2}, {1, 1}, true},
      {{1, 2, 4, 4}, {5, 5}, {1, 1}, {2, 2}, false},   {{2, 3, 11}, {3}, {2}, {1}, true},
      {{2, 2, 4, 5, 3}, {2, 2, 2}, {1, 2, 1}, {1, 0, 1}, true},
  };
  for (Dtype dt : {Dtype::kFloat32, Dtype::kFloat64}) {
    for (const Case& c : cases) {
      const std::string what = std::string(dtype_name(dt)) + " " + c.shape.to_string() + " k" +
                               std::to_string(c.k[0]) + " s" + std::to_string(c.s[0]) + " p" +
                               std::to_string(c.p[0]) + (c.cover_all ? " cover_all" : "");
      const Array x = awkward(c.shape, dt);
      auto ref = max_pool(x, c.k, c.s, c.p, c.cover_all, true);
      auto got = max_pool(x, c.k, c.s, c.p, c.cover_all, false);
      expect_same(got.first, ref.first, what + " values");
      EXPECT_EQ(values(got.second), values(ref.second)) << what << " indexes";
      std::vector<int64_t> in;
      for (int a = 2; a < x.ndim(); ++a) in.push_back(x.shape()[a]);
      // Overlapping windows add in another order in the two forms.
      const Array gy = sin(iota(ref.first.shape())).astype(dt);
      expect_same(pool_scatter(gy, ref.second, c.k, c.s, c.p, in, false),
                  pool_scatter(gy, ref.second, c.k, c.s, c.p, in, true), what + " scatter",
                  dt == Dtype::kFloat32 ? 1e-6 : 1e-14);
    }
    // A non-contiguous input: the spatial axes swapped.
    const Array xt = awkward({2, 3, 9, 8}, dt).transpose({0, 1, 3, 2});
    auto ref = max_pool(xt, {3, 2}, {2, 2}, {1, 0}, true, true);
    auto got = max_pool(xt, {3, 2}, {2, 2}, {1, 0}, true, false);
    expect_same(got.first, ref.first, "transposed values");
    EXPECT_EQ(values(got.second), values(ref.second));
    // Indexes out of the window and positions in the padding drop their value.
    Array idx = asarray(std::vector<int64_t>{-1, 4, 3, 0}, Shape{1, 1, 2, 2});
    Array v = ones({1, 1, 2, 2}, dt);
    expect_same(pool_scatter(v, idx, {2, 2}, {2, 2}, {1, 1}, {3, 3}, false),
                pool_scatter(v, idx, {2, 2}, {2, 2}, {1, 1}, {3, 3}, true), "dropped positions");
  }
}

// The example in docs/cpp_api.md.
TEST(AutogradConv, SmallNetworkShapes) {
  ag::Variable img(ones(Shape{8, 3, 32, 32}, Dtype::kFloat32));
  ag::Variable K(ones(Shape{16, 3, 3, 3}, Dtype::kFloat32));
  ag::Variable h = ag::max_pooling_2d(ag::relu(ag::convolution_2d(img, K, {}, {1}, {1})), {2});
  ag::Variable out = ag::global_average_pooling_2d(h);
  EXPECT_EQ(out.shape(), Shape({8, 16}));
  EXPECT_EQ(kumo::im2col(img.array(), {3, 3}, {1, 1}, {1, 1}).shape(), Shape({8, 3, 3, 3, 32, 32}));
  ag::sum(out).backward();
  EXPECT_EQ(K.grad().shape(), K.shape());
}
