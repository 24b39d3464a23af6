// The products (kumo::matmul, dot, ...) and numpy.linalg's routines
// (kumo::linalg::...) of the public C++ API: known values, reconstructions
// (A = QR, U S V^H, ...), batch shapes, empty inputs, and NumPy's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

Array f64(std::vector<double> v, const Shape& shape) { return asarray(v, shape); }

void expect_near(const Array& got, const std::vector<double>& want, double tol = 1e-10) {
  std::vector<double> g = got.to_vector<double>();
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol) << "at " << i;
}

void expect_close(const Array& a, const Array& b, double tol = 1e-9) {
  ASSERT_EQ(a.shape(), b.shape());
  expect_near(a, b.to_vector<double>(), tol);
}

// A well-conditioned 3x3 (symmetric positive definite) matrix.
Array spd() { return f64({4, 1, 2, 1, 3, 0, 2, 0, 5}, {3, 3}); }

}  // namespace

// ---- products ------------------------------------------------------------------

TEST(RoutinesLinalg, MatmulKnownValues) {
  Array a = f64({1, 2, 3, 4, 5, 6}, {2, 3});
  Array b = f64({7, 8, 9, 10, 11, 12}, {3, 2});
  Array c = matmul(a, b);
  EXPECT_EQ(c.shape(), (Shape{2, 2}));
  expect_near(c, {58, 64, 139, 154});
  // Transposed (column-major) operands take GEMM's transpose flags.
  expect_near(matmul(b.transpose(), a.transpose()), {58, 139, 64, 154});
}

TEST(RoutinesLinalg, MatmulOneDimensionalPromotion) {
  Array m = f64({1, 2, 3, 4}, {2, 2});
  Array v = f64({1, 1}, {2});
  Array mv = matmul(m, v);
  EXPECT_EQ(mv.shape(), (Shape{2}));
  expect_near(mv, {3, 7});
  Array vm = matmul(v, m);
  EXPECT_EQ(vm.shape(), (Shape{2}));
  expect_near(vm, {4, 6});
  Array vv = matmul(v, v);
  EXPECT_EQ(vv.ndim(), 0);
  expect_near(vv, {2});
}

TEST(RoutinesLinalg, MatmulBroadcastsBatches) {
  std::vector<double> av(2 * 3 * 2 * 2);
  for (size_t i = 0; i < av.size(); ++i) av[i] = static_cast<double>(i);
  Array a = f64(av, {2, 3, 2, 2});
  Array b = f64({1, 0, 0, 1}, {2, 2});  // identity, broadcast over (2, 3)
  Array c = matmul(a, b);
  EXPECT_EQ(c.shape(), (Shape{2, 3, 2, 2}));
  expect_close(c, a);
  Array b3 = f64({1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0, 3}, {3, 2, 2});
  Array d = matmul(a, b3);
  EXPECT_EQ(d.shape(), (Shape{2, 3, 2, 2}));
  std::vector<double> want = av;
  for (size_t i = 0; i < want.size(); ++i) want[i] *= static_cast<double>((i / 4) % 3 + 1);
  expect_near(d, want);
}

TEST(RoutinesLinalg, MatmulDtypes) {
  Array ai = asarray(std::vector<int64_t>{1, 2, 3, 4}, Shape{2, 2});
  Array ci = matmul(ai, ai);
  EXPECT_EQ(ci.dtype(), Dtype::kInt64);
  EXPECT_EQ(ci.to_vector<int64_t>(), (std::vector<int64_t>{7, 10, 15, 22}));
  // int8 wraps around like NumPy's loops: 100 * 2 + 100 * 2 = 400 -> -112.
  Array a8 = asarray(std::vector<int8_t>{100, 100}, Shape{1, 2});
  Array b8 = asarray(std::vector<int8_t>{2, 2}, Shape{2, 1});
  Array c8 = matmul(a8, b8);
  EXPECT_EQ(c8.dtype(), Dtype::kInt8);
  EXPECT_EQ(c8.to_vector<int>(), (std::vector<int>{-112}));
  Array ab = asarray(std::vector<bool>{true, false, false, false}, Shape{2, 2});
  Array cb = matmul(ab, ab);
  EXPECT_EQ(cb.dtype(), Dtype::kBool);
  EXPECT_EQ(cb.to_vector<bool>(), (std::vector<bool>{true, false, false, false}));
  Array h = f64({1, 2, 3, 4}, {2, 2}).astype(Dtype::kFloat16);
  Array ch = matmul(h, h);
  EXPECT_EQ(ch.dtype(), Dtype::kFloat16);
  expect_near(ch, {7, 10, 15, 22});
  // Mixed dtypes promote; dtype= computes in the requested type.
  EXPECT_EQ(matmul(ai, f64({1, 0, 0, 1}, {2, 2})).dtype(), Dtype::kFloat64);
  EXPECT_EQ(matmul(ai, ai, Dtype::kFloat32).dtype(), Dtype::kFloat32);
  EXPECT_THROW(matmul(f64({1, 2, 3, 4}, {2, 2}), ai, MatmulOptions().dtype(Dtype::kInt64)), CastingError);
}

TEST(RoutinesLinalg, MatmulComplex) {
  using C = std::complex<double>;
  Array a = asarray(std::vector<C>{C(1, 1), C(0, 2)}, Shape{1, 2});
  Array b = asarray(std::vector<C>{C(1, -1), C(3, 0)}, Shape{2, 1});
  std::vector<C> c = matmul(a, b).to_vector<C>();
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].real(), 2, 1e-12);  // (1+i)(1-i) + 2i*3 = 2 + 6i
  EXPECT_NEAR(c[0].imag(), 6, 1e-12);
  // vdot conjugates its first operand: conj(1+i)(1-i) + conj(2i)*3 = -2i - 6i.
  std::vector<C> v = vdot(a, b).to_vector<C>();
  EXPECT_NEAR(v[0].real(), 0, 1e-12);
  EXPECT_NEAR(v[0].imag(), -8, 1e-12);
}

TEST(RoutinesLinalg, MatmulOut) {
  Array a = f64({1, 2, 3, 4}, {2, 2});
  Array out = Array::empty(Shape{2, 2}, Dtype::kFloat64, current_device());
  Array r = matmul(a, a, out);
  EXPECT_EQ(r.data(), out.data());
  expect_near(out, {7, 10, 15, 22});
  // out of another dtype (same_kind) receives the cast result.
  Array out32 = Array::empty(Shape{2, 2}, Dtype::kFloat32, current_device());
  matmul(a, a, out32);
  expect_near(out32, {7, 10, 15, 22});
  // out overlapping an input: the product is computed before it is written.
  Array x = a.copy();
  matmul(x, x, x);
  expect_near(x, {7, 10, 15, 22});
  Array bad = Array::empty(Shape{3, 2}, Dtype::kFloat64, current_device());
  EXPECT_THROW(matmul(a, a, bad), ValueError);
  Array ints = Array::empty(Shape{2, 2}, Dtype::kInt64, current_device());
  EXPECT_THROW(matmul(a, a, ints), CastingError);
}

TEST(RoutinesLinalg, MatmulErrorsAreNumpys) {
  Array a = f64({1, 2, 3, 4, 5, 6}, {2, 3});
  try {
    matmul(a, a);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_EQ(std::string(e.what()),
              "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
              "(n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)");
  }
  EXPECT_THROW(matmul(scalar_array(1.0), a), ValueError);
  Array b1 = Array::empty(Shape{2, 3, 4}, Dtype::kFloat64, current_device());
  Array b2 = Array::empty(Shape{3, 4, 2}, Dtype::kFloat64, current_device());
  EXPECT_THROW(matmul(b1, b2), ValueError);  // batch 2 vs 3
}

TEST(RoutinesLinalg, MatmulEmpty) {
  Array a = Array::empty(Shape{0, 3}, Dtype::kFloat64, current_device());
  Array b = Array::empty(Shape{3, 4}, Dtype::kFloat64, current_device());
  EXPECT_EQ(matmul(a, b).shape(), (Shape{0, 4}));
  // k == 0: the empty sum is zero.
  Array c = matmul(Array::empty(Shape{2, 0}, Dtype::kFloat64, current_device()),
                   Array::empty(Shape{0, 2}, Dtype::kFloat64, current_device()));
  expect_near(c, {0, 0, 0, 0});
}

TEST(RoutinesLinalg, DotInnerOuterTensordot) {
  Array v = f64({1, 2, 3}, {3});
  expect_near(dot(v, v), {14});
  Array m = f64({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_near(dot(m, v), {14, 32});
  expect_near(dot(m, 2.0 * scalar_array(1.0)), {2, 4, 6, 8, 10, 12});
  EXPECT_THROW(dot(v, m), ValueError);
  // N-d . M-d sums over a's last and b's second-to-last axes.
  Array t = f64({1, 0, 0, 1, 2, 0, 0, 2}, {2, 2, 2});
  Array d = dot(f64({1, 2}, {1, 2}), t);
  EXPECT_EQ(d.shape(), (Shape{1, 2, 2}));
  expect_near(d, {1, 2, 2, 4});
  expect_near(inner(m, m), {14, 32, 32, 77});
  Array o = outer(f64({1, 2}, {2}), v);
  EXPECT_EQ(o.shape(), (Shape{2, 3}));
  expect_near(o, {1, 2, 3, 2, 4, 6});
  expect_near(tensordot(m, m, std::vector<int64_t>{0, 1}, std::vector<int64_t>{0, 1}), {91});
  EXPECT_EQ(tensordot(m, m, 0).shape(), (Shape{2, 3, 2, 3}));
  expect_near(tensordot(m, m.transpose(), 1), {14, 32, 32, 77});
  EXPECT_THROW(tensordot(m, m, std::vector<int64_t>{0}, std::vector<int64_t>{1}), ValueError);
  EXPECT_THROW(tensordot(m, m, std::vector<int64_t>{5}, std::vector<int64_t>{0}), IndexError);
  Array out = Array::empty(Shape{2}, Dtype::kFloat64, current_device());
  dot(m, v, out);
  expect_near(out, {14, 32});
  EXPECT_THROW(dot(m, v, Array::empty(Shape{2}, Dtype::kFloat32, current_device())), ValueError);
}

// ---- numpy.linalg ----------------------------------------------------------------

TEST(RoutinesLinalg, SolveAndInv) {
  Array a = spd();
  Array x = f64({1, -2, 3}, {3});
  Array b = matmul(a, x);
  expect_near(linalg::solve(a, b), {1, -2, 3});
  // Several right-hand sides, and a batch of matrices against one b.
  Array B = f64({1, 0, 0, 1, 0, 0}, {3, 2});
  Array X = linalg::solve(a, B);
  EXPECT_EQ(X.shape(), (Shape{3, 2}));
  expect_close(matmul(a, X), B);
  Array stack = multiply(f64({1, 2}, {2, 1, 1}), a.reshape(Shape{1, 3, 3}));  // (2, 3, 3): a and 2a
  Array Xs = linalg::solve(stack, B);
  EXPECT_EQ(Xs.shape(), (Shape{2, 3, 2}));
  expect_close(matmul(stack, Xs), B.broadcast_to(Shape{2, 3, 2}));
  Array ai = linalg::inv(a);
  expect_near(matmul(a, ai), {1, 0, 0, 0, 1, 0, 0, 0, 1});
  EXPECT_EQ(linalg::inv(stack).shape(), (Shape{2, 3, 3}));
  // Integers compute in float64.
  Array ia = asarray(std::vector<int64_t>{2, 0, 0, 4}, Shape{2, 2});
  EXPECT_EQ(linalg::inv(ia).dtype(), Dtype::kFloat64);
  expect_near(linalg::inv(ia), {0.5, 0, 0, 0.25});
}

TEST(RoutinesLinalg, SolveErrors) {
  Array sing = f64({1, 2, 2, 4}, {2, 2});
  EXPECT_THROW(linalg::solve(sing, f64({1, 1}, {2})), LinAlgError);
  EXPECT_THROW(linalg::inv(sing), LinAlgError);
  try {
    linalg::inv(sing);
  } catch (const LinAlgError& e) {
    EXPECT_EQ(std::string(e.what()), "Singular matrix");
  }
  // LinAlgError is a ValueError, as in NumPy.
  EXPECT_THROW(linalg::inv(sing), ValueError);
  EXPECT_THROW(linalg::solve(spd(), f64({1, 2}, {2})), ValueError);
  EXPECT_THROW(linalg::inv(f64({1, 2, 3, 4, 5, 6}, {2, 3})), LinAlgError);
  EXPECT_THROW(linalg::inv(f64({1, 2}, {2})), LinAlgError);
  EXPECT_THROW(linalg::inv(f64({1, 2, 3, 4}, {2, 2}).astype(Dtype::kFloat16)), TypeError);
}

TEST(RoutinesLinalg, DetAndSlogdet) {
  expect_near(linalg::det(f64({1, 2, 3, 4}, {2, 2})), {-2});
  expect_near(linalg::det(spd()), {4 * 15 - 1 * 5 + 2 * (0 - 6)});
  auto [sign, logabsdet] = linalg::slogdet(f64({1, 2, 3, 4}, {2, 2}));
  expect_near(sign, {-1});
  expect_near(logabsdet, {std::log(2.0)});
  auto [s0, l0] = linalg::slogdet(f64({1, 2, 2, 4}, {2, 2}));
  expect_near(s0, {0});
  EXPECT_TRUE(std::isinf(l0.item<double>()) && l0.item<double>() < 0);
  // Batches, and the empty product of a 0x0 matrix.
  Array stack = f64({1, 0, 0, 1, 2, 0, 0, 3}, {2, 2, 2});
  expect_near(linalg::det(stack), {1, 6});
  expect_near(linalg::det(Array::empty(Shape{2, 0, 0}, Dtype::kFloat64, current_device())), {1, 1});
  using C = std::complex<double>;
  Array c = asarray(std::vector<C>{C(0, 1), C(0), C(0), C(0, 1)}, Shape{2, 2});  // i * I: det -1
  std::vector<C> dc = linalg::det(c).to_vector<C>();
  EXPECT_NEAR(dc[0].real(), -1, 1e-12);
  EXPECT_NEAR(dc[0].imag(), 0, 1e-12);
}

TEST(RoutinesLinalg, Cholesky) {
  Array a = spd();
  Array l = linalg::cholesky(a);
  expect_close(matmul(l, l.transpose()), a);
  std::vector<double> lv = l.to_vector<double>();
  EXPECT_EQ(lv[1], 0);
  EXPECT_EQ(lv[2], 0);
  EXPECT_EQ(lv[5], 0);
  Array u = linalg::cholesky(a, /*upper=*/true);
  expect_close(matmul(u.transpose(), u), a);
  EXPECT_EQ(u.to_vector<double>()[3], 0);
  EXPECT_THROW(linalg::cholesky(f64({1, 2, 2, 1}, {2, 2})), LinAlgError);
  EXPECT_EQ(linalg::cholesky(Array::empty(Shape{0, 2, 2}, Dtype::kFloat32, current_device())).shape(),
            (Shape{0, 2, 2}));
}

TEST(RoutinesLinalg, QR) {
  Array a = f64({1, 2, 3, 4, 5, 6, 7, 8, 10, 1, 0, 1}, {4, 3});
  auto [q, r] = linalg::qr(a);
  EXPECT_EQ(q.shape(), (Shape{4, 3}));
  EXPECT_EQ(r.shape(), (Shape{3, 3}));
  expect_close(matmul(q, r), a);
  expect_near(matmul(q.transpose(), q), {1, 0, 0, 0, 1, 0, 0, 0, 1});
  EXPECT_NEAR(r.to_vector<double>()[3], 0, 0);  // strictly lower part is zero
  auto [qc, rc] = linalg::qr(a, linalg::QRMode::kComplete);
  EXPECT_EQ(qc.shape(), (Shape{4, 4}));
  EXPECT_EQ(rc.shape(), (Shape{4, 3}));
  expect_close(matmul(qc, rc), a);
  auto rr = linalg::qr(a, linalg::QRMode::kR);
  EXPECT_FALSE(rr.Q.defined());
  EXPECT_EQ(rr.R.shape(), (Shape{3, 3}));
  auto raw = linalg::qr(a, linalg::QRMode::kRaw);
  EXPECT_EQ(raw.Q.shape(), (Shape{3, 4}));
  EXPECT_EQ(raw.R.shape(), (Shape{3}));
  // Wide and batched.
  Array w = f64({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13}, {2, 2, 3});
  auto [qw, rw] = linalg::qr(w);
  EXPECT_EQ(qw.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(rw.shape(), (Shape{2, 2, 3}));
  expect_close(matmul(qw, rw), w);
  auto [q0, r0] = linalg::qr(Array::empty(Shape{3, 0}, Dtype::kFloat64, current_device()));
  EXPECT_EQ(q0.shape(), (Shape{3, 0}));
  EXPECT_EQ(r0.shape(), (Shape{0, 0}));
}

TEST(RoutinesLinalg, SVD) {
  Array a = f64({3, 2, 2, 2, 3, -2}, {2, 3});
  auto [u, s, vh] = linalg::svd(a);
  EXPECT_EQ(u.shape(), (Shape{2, 2}));
  EXPECT_EQ(vh.shape(), (Shape{3, 3}));
  expect_near(s, {5, 3});
  auto [ur, sr, vhr] = linalg::svd(a, /*full_matrices=*/false);
  EXPECT_EQ(vhr.shape(), (Shape{2, 3}));
  // U diag(S) V^H reconstructs a.
  Array us = multiply(ur, sr.reshape(Shape{1, 2}));
  expect_close(matmul(us, vhr), a);
  auto only = linalg::svd(a, true, /*compute_uv=*/false);
  EXPECT_FALSE(only.U.defined());
  expect_near(only.S, {5, 3});
  expect_near(linalg::svdvals(a), {5, 3});
  auto e = linalg::svd(Array::empty(Shape{2, 0}, Dtype::kFloat64, current_device()));
  expect_near(e.U, {1, 0, 0, 1});
  EXPECT_EQ(e.S.shape(), (Shape{0}));
  Array nan = f64({NAN, 1, 1, 1}, {2, 2});
  EXPECT_THROW(linalg::svd(nan), LinAlgError);
}

TEST(RoutinesLinalg, Eigh) {
  Array a = f64({2, 1, 1, 2}, {2, 2});
  auto [w, v] = linalg::eigh(a);
  expect_near(w, {1, 3});
  // a v = v diag(w)
  expect_close(matmul(a, v), multiply(v, w.reshape(Shape{1, 2})));
  // UPLO='U' reads the upper triangle: the lower one is ignored.
  Array upper_only = f64({2, 1, 99, 2}, {2, 2});
  expect_near(linalg::eigvalsh(upper_only, 'U'), {1, 3});
  EXPECT_THROW(linalg::eigh(a, 'X'), ValueError);
  EXPECT_THROW(linalg::eigh(f64({1, 2, 3, 4, 5, 6}, {2, 3})), LinAlgError);
}

TEST(RoutinesLinalg, Norm) {
  Array v = f64({3, -4}, {2});
  expect_near(linalg::norm(v), {5});
  expect_near(linalg::norm(v, 1), {7});
  expect_near(linalg::norm(v, INFINITY), {4});
  expect_near(linalg::norm(v, -INFINITY), {3});
  expect_near(linalg::norm(v, 0), {2});
  expect_near(linalg::norm(v, 3), {std::cbrt(27.0 + 64.0)});
  Array m = f64({1, -2, 3, 4}, {2, 2});
  expect_near(linalg::norm(m), {std::sqrt(30.0)});
  expect_near(linalg::norm(m, linalg::NormOrder::fro()), {std::sqrt(30.0)});
  expect_near(linalg::norm(m, 1), {6});          // max column sum
  expect_near(linalg::norm(m, INFINITY), {7});   // max row sum
  expect_near(linalg::norm(m, -1), {4});
  expect_near(linalg::norm(m, -INFINITY), {3});
  auto s = linalg::svdvals(m).to_vector<double>();
  expect_near(linalg::norm(m, 2), {s[0]});
  expect_near(linalg::norm(m, -2), {s[1]});
  expect_near(linalg::norm(m, linalg::NormOrder::nuc()), {s[0] + s[1]});
  Array rows = linalg::norm(m, {}, {1});
  expect_near(rows, {std::sqrt(5.0), 5});
  Array kept = linalg::norm(m, {}, {0}, /*keepdims=*/true);
  EXPECT_EQ(kept.shape(), (Shape{1, 2}));
  EXPECT_EQ(linalg::norm(m, {}, {}, true).shape(), (Shape{1, 1}));
  EXPECT_EQ(linalg::norm(asarray(std::vector<int>{3, 4})).dtype(), Dtype::kFloat64);
  EXPECT_THROW(linalg::norm(m, {}, {0, 0}), ValueError);
  EXPECT_THROW(linalg::norm(m, {}, {2}), AxisError);
  EXPECT_THROW(linalg::norm(m, 3, {0, 1}), ValueError);
}
