// kumo::fft (fft/fft.h) and the host FftBackend: known transforms, round
// trips, dtypes, padding and truncation, normalisation, strided inputs,
// out=, the helpers, and NumPy's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "fft/fft_backend.h"
#include "kumo/kumo.h"

using namespace kumo;
using cd = std::complex<double>;

namespace {

Array f64(std::vector<double> v, const Shape& shape) { return asarray(v, shape); }
Array f64(std::vector<double> v) { return asarray(v); }

void expect_complex(const Array& got, const std::vector<cd>& want, double tol = 1e-12) {
  std::vector<cd> g = got.to_vector<cd>();
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_LT(std::abs(g[i] - want[i]), tol) << "at " << i << ": " << g[i];
}

void expect_real(const Array& got, const std::vector<double>& want, double tol = 1e-12) {
  std::vector<double> g = got.to_vector<double>();
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol) << "at " << i;
}

}  // namespace

TEST(Fft, KnownValues) {
  Array x = f64({1, 2, 3, 4});
  Array X = fft::fft(x);
  EXPECT_EQ(X.dtype(), Dtype::kComplex128);
  expect_complex(X, {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}});
  expect_complex(fft::ifft(X), {{1, 0}, {2, 0}, {3, 0}, {4, 0}});
  expect_complex(fft::rfft(x), {{10, 0}, {-2, 2}, {-2, 0}});
  expect_real(fft::irfft(fft::rfft(x)), {1, 2, 3, 4});
}

TEST(Fft, PaddingTruncationAndNorms) {
  expect_complex(fft::fft(f64({1, 2}), 4), {{3, 0}, {1, -2}, {-1, 0}, {1, 2}});
  expect_complex(fft::fft(f64({1, 2, 5, 7}), 2), {{3, 0}, {-1, 0}});
  expect_complex(fft::fft(f64({1, 1, 1, 1}), std::nullopt, -1, "ortho"), {{2, 0}, {0, 0}, {0, 0}, {0, 0}});
  expect_complex(fft::fft(f64({1, 1, 1, 1}), std::nullopt, -1, "forward"), {{1, 0}, {0, 0}, {0, 0}, {0, 0}});
  expect_complex(fft::ifft(f64({4, 0, 0, 0}), std::nullopt, -1, "forward"), {{4, 0}, {4, 0}, {4, 0}, {4, 0}});
  // irfft of an odd length: n = 5 from 3 input bins.
  Array x = f64({1, -2, 3, 0.5, 2});
  expect_real(fft::irfft(fft::rfft(x), 5), {1, -2, 3, 0.5, 2});
}

TEST(Fft, Dtypes) {
  EXPECT_EQ(fft::fft(asarray(std::vector<float>{1, 2, 3})).dtype(), Dtype::kComplex64);
  EXPECT_EQ(fft::fft(asarray(std::vector<int32_t>{1, 2, 3})).dtype(), Dtype::kComplex128);
  EXPECT_EQ(fft::rfft(asarray(std::vector<float>{1, 2, 3})).dtype(), Dtype::kComplex64);
  EXPECT_EQ(fft::irfft(asarray(std::vector<float>{1, 2, 3})).dtype(), Dtype::kFloat32);
  EXPECT_EQ(fft::irfft(asarray(std::vector<float>{1, 2, 3}).astype(Dtype::kFloat16)).dtype(), Dtype::kFloat16);
  EXPECT_EQ(fft::hfft(fft::ifft(f64({1, 2, 3}))).dtype(), Dtype::kFloat64);
  Array single = fft::fft(asarray(std::vector<float>{1, 2, 3, 4}));
  expect_complex(single, {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}, 1e-5);
}

TEST(Fft, MultiDimensional) {
  Array a = f64({1, 1, 1, 1, 1, 1}, {2, 3});
  expect_complex(fft::fft2(a), {{6, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}});
  expect_complex(fft::ifft2(fft::fft2(a)), {{1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}});
  Array r = fft::rfft2(a);
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  expect_complex(r, {{6, 0}, {0, 0}, {0, 0}, {0, 0}});
  Array back = fft::irfft2(r, std::vector<int64_t>{2, 3});
  expect_real(back, {1, 1, 1, 1, 1, 1});
  // fftn over one axis equals fft along it; repeated axes transform twice.
  Array b = f64({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_complex(fft::fftn(b, std::nullopt, std::vector<int64_t>{0}), fft::fft(b, std::nullopt, 0).to_vector<cd>());
  Array twice = fft::fftn(b, std::nullopt, std::vector<int64_t>{1, 1});
  expect_complex(twice, fft::fft(fft::fft(b)).to_vector<cd>(), 1e-11);
  // axes=() returns the input untransformed.
  EXPECT_EQ(fft::fftn(b, std::nullopt, std::vector<int64_t>{}).dtype(), Dtype::kFloat64);
}

TEST(Fft, StridedAndTransposedInputs) {
  Array a = f64({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {3, 4});
  Array t = a.transpose();  // (4, 3), non-contiguous
  expect_complex(fft::fft(t), fft::fft(t.copy()).to_vector<cd>());
  Array rev = f64({1, 2, 3, 4, 5}).index({IndexItem::slice(std::nullopt, std::nullopt, -1)});
  expect_complex(fft::fft(rev), fft::fft(f64({5, 4, 3, 2, 1})).to_vector<cd>());
  expect_complex(fft::rfft(rev), fft::rfft(f64({5, 4, 3, 2, 1})).to_vector<cd>());
}

TEST(Fft, OutArgument) {
  Array out = Array::empty(Shape{4}, Dtype::kComplex64, host_device());
  Array r = fft::fft(f64({1, 2, 3, 4}), std::nullopt, -1, "backward", out);
  EXPECT_EQ(r.data(), out.data());
  expect_complex(out, {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}, 1e-5);
  Array wrong = Array::empty(Shape{3}, Dtype::kComplex128, host_device());
  EXPECT_THROW(fft::fft(f64({1, 2, 3, 4}), std::nullopt, -1, "backward", wrong), ValueError);
  Array real_out = Array::empty(Shape{4}, Dtype::kFloat64, host_device());
  EXPECT_THROW(fft::fft(f64({1, 2, 3, 4}), std::nullopt, -1, "backward", real_out), TypeError);
}

TEST(Fft, Errors) {
  EXPECT_THROW(fft::fft(f64({1, 2}), 0), ValueError);
  EXPECT_THROW(fft::fft(f64({1, 2}), std::nullopt, -1, "sideways"), ValueError);
  EXPECT_THROW(fft::fft(scalar_array(1.0)), IndexError);
  EXPECT_THROW(fft::fft(scalar_array(1.0), 4), AxisError);
  EXPECT_THROW(fft::fft(f64({1, 2}), std::nullopt, 1), IndexError);
  EXPECT_THROW(fft::fft(f64({1, 2}), 2, 1), AxisError);
  EXPECT_THROW(fft::rfft(fft::fft(f64({1, 2}))), TypeError);
  EXPECT_THROW(fft::fft(f64({})), ValueError);  // n = 0
  EXPECT_THROW(fft::fftn(f64({1, 2}), std::vector<int64_t>{2, 2}, std::vector<int64_t>{0}), ValueError);
  EXPECT_THROW(fft::rfftn(f64({1, 2}), std::nullopt, std::vector<int64_t>{}), IndexError);
  EXPECT_THROW(fft::fft2(f64({1, 2})), IndexError);
}

TEST(Fft, Helpers) {
  expect_real(fft::fftfreq(4, 0.1), {0, 2.5, -5, -2.5});
  expect_real(fft::fftfreq(5), {0, 0.2, 0.4, -0.4, -0.2});
  expect_real(fft::rfftfreq(5), {0, 0.2, 0.4});
  EXPECT_THROW(fft::fftfreq(0), ZeroDivisionError);
  EXPECT_THROW(fft::fftfreq(-2), ValueError);
  Array x = f64({0, 1, 2, 3, 4});
  expect_real(fft::fftshift(x), {3, 4, 0, 1, 2});
  expect_real(fft::ifftshift(fft::fftshift(x)), {0, 1, 2, 3, 4});
  Array m = f64({0, 1, 2, 3, 4, 5}, {2, 3});
  expect_real(fft::fftshift(m), {5, 3, 4, 2, 0, 1});
  expect_real(fft::fftshift(m, std::vector<int64_t>{1}), {2, 0, 1, 5, 3, 4});
}

TEST(Fft, HermitianPair) {
  Array x = f64({1, 2, 3, 4, 5});
  Array h = fft::ihfft(x);
  EXPECT_EQ(h.shape(), (Shape{3}));
  expect_real(fft::hfft(h, 5), {1, 2, 3, 4, 5});
}

TEST(FftBackend, HostBatchedStrided) {
  // Two interleaved length-4 signals (stride 2 elements: 1 2 3 4 and 0 1 0 0)
  // transformed as a batch into contiguous rows, scaled by 0.5.
  std::vector<cd> in = {{1, 0}, {0, 0}, {2, 0}, {1, 0}, {3, 0}, {0, 0}, {4, 0}, {0, 0}};
  std::vector<cd> out(8);
  const int64_t s = sizeof(cd);
  host_fft_backend().c2c(Dtype::kFloat64, Shape{4, 2}, in.data(), Strides{2 * s, s}, out.data(), Strides{s, 4 * s},
                         {0}, true, 0.5, 0);
  const std::vector<cd> want = {{5, 0}, {-1, 1}, {-1, 0}, {-1, -1}, {0.5, 0}, {0, -0.5}, {-0.5, 0}, {0, 0.5}};
  for (size_t i = 0; i < 8; ++i) EXPECT_LT(std::abs(out[i] - want[i]), 1e-12) << "at " << i;
  EXPECT_THROW(host_fft_backend().c2c(Dtype::kInt32, Shape{4}, in.data(), Strides{s}, out.data(), Strides{s}, {0},
                                      true, 1.0, 0),
               TypeError);
}

TEST(FftBackend, SingleLineMatchesBatchedPath) {
  // One line takes the backend's in-place path, two stacked lines pocketfft's
  // general one; both must agree for even and odd lengths and strided input.
  for (int64_t n : {1, 2, 7, 8, 31, 64}) {
    std::vector<double> v(static_cast<size_t>(2 * n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.7 * static_cast<double>(i)) + 0.1 * i;
    Array two = asarray(v, Shape{2, n});
    Array one = two.index({IndexItem(0)});
    Array stepped = asarray(v).index({IndexItem::slice(std::nullopt, std::nullopt, -2)});  // stride -2
    const double tol = 1e-12 * static_cast<double>(n);
    for (const Array& line : {one, stepped}) {
      Array stacked = stack({line, line});
      expect_complex(fft::rfft(line), fft::rfft(stacked).index({IndexItem(1)}).to_vector<cd>(), tol);
      expect_complex(fft::fft(line), fft::fft(stacked).index({IndexItem(1)}).to_vector<cd>(), tol);
      Array spec = fft::rfft(line);
      expect_real(fft::irfft(spec, n), fft::irfft(stack({spec, spec}), n).index({IndexItem(1)}).to_vector<double>(),
                  tol);
      expect_real(fft::irfft(spec, n), line.to_vector<double>(), tol);
    }
  }
}
