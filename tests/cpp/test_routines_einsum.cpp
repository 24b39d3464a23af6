// kumo::einsum and kumo::einsum_path of the public C++ API: known values of
// products, traces, diagonals and broadcasting, dtypes, views, the paths
// NumPy's searches choose, and NumPy's errors.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

Array f64(std::vector<double> v, const Shape& shape) { return asarray(v, shape); }

Array iota(const Shape& shape, Dtype dtype = Dtype::kFloat64) {
  return arange(shape_size(shape), dtype).reshape(shape);
}

void expect_values(const Array& got, const std::vector<double>& want, double tol = 1e-10) {
  std::vector<double> g = got.to_vector<double>();
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], tol) << "at " << i;
}

template <class E>
void expect_error(const std::string& subscripts, const std::vector<Array>& ops, const std::string& fragment) {
  try {
    einsum(subscripts, ops);
    ADD_FAILURE() << subscripts << ": no exception";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << subscripts << ": " << e.what();
  }
}

}  // namespace

TEST(RoutinesEinsum, MatrixProduct) {
  Array a = f64({1, 2, 3, 4, 5, 6}, {2, 3});
  Array b = f64({7, 8, 9, 10, 11, 12}, {3, 2});
  Array c = einsum("ij,jk->ik", {a, b});
  EXPECT_EQ(c.shape(), (Shape{2, 2}));
  expect_values(c, {58, 64, 139, 154});
  expect_values(einsum("ij,jk", {a, b}), {58, 64, 139, 154});
  expect_values(einsum("ij,jk->ki", {a, b}), {58, 139, 64, 154});
}

TEST(RoutinesEinsum, ImplicitOutputIsSortedLetters) {
  Array a = iota({2, 3}), b = iota({3, 4});
  // 'ba' in implicit mode is the transpose: the output letters are sorted.
  EXPECT_EQ(einsum("ba", {a}).shape(), (Shape{3, 2}));
  EXPECT_EQ(einsum("jk,ij", {b, a}).shape(), (Shape{2, 4}));
  // Uppercase sorts before lowercase.
  EXPECT_EQ(einsum("aB", {a}).shape(), (Shape{3, 2}));
}

TEST(RoutinesEinsum, TraceDiagonalAndSums) {
  Array m = iota({3, 3});
  expect_values(einsum("ii", {m}), {12});
  expect_values(einsum("ii->i", {m}), {0, 4, 8});
  expect_values(einsum("ij->j", {m}), {9, 12, 15});
  expect_values(einsum("ij->", {m}), {36});
  Array t = iota({2, 2, 3});
  expect_values(einsum("iij->j", {t}), {9, 11, 13});
}

TEST(RoutinesEinsum, SingleOperandRelabellingIsAWriteableView) {
  Array m = zeros({3, 3});
  Array d = einsum("ii->i", {m});
  EXPECT_TRUE(d.shares_memory_with(m));
  EXPECT_TRUE(d.writeable());
  fill(d, 1.0);
  expect_values(m, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  Array t = einsum("ij->ji", {iota({2, 3})});
  EXPECT_EQ(t.shape(), (Shape{3, 2}));
  expect_values(t, {0, 3, 1, 4, 2, 5});
}

TEST(RoutinesEinsum, EllipsisBroadcasts) {
  Array a = iota({2, 1, 2, 3}), b = iota({4, 3, 2});
  Array c = einsum("...ij,...jk->...ik", {a, b});
  EXPECT_EQ(c.shape(), (Shape{2, 4, 2, 2}));
  Array want = matmul(a, b);
  expect_values(c, want.to_vector<double>());
  // Implicit output: the ellipsis axes first.
  EXPECT_EQ(einsum("i...", {iota({3, 2})}).shape(), (Shape{2, 3}));
  EXPECT_EQ(einsum("...i,...i", {iota({2, 3}), iota({3})}).shape(), (Shape{2}));
}

TEST(RoutinesEinsum, LengthOneAxesBroadcast) {
  Array a = f64({1, 2, 3}, {3, 1});
  Array b = iota({4, 2});
  // j has length 1 in a and 4 in b: a's column repeats along j.
  expect_values(einsum("ij,jk->ik", {a, b}), {12, 16, 24, 32, 36, 48});
}

TEST(RoutinesEinsum, ThreeOperandsEveryStrategy) {
  Array a = iota({3, 2}), b = iota({2, 4}), c = iota({4, 5});
  Array want = matmul(matmul(a, b), c);
  for (const EinsumOptimize& o : {EinsumOptimize::none(), EinsumOptimize::greedy(), EinsumOptimize::optimal(),
                                  EinsumOptimize::path({{0, 2}, {0, 1}})}) {
    Array got = einsum("ij,jk,kl->il", {a, b, c}, EinsumOptions().optimize(o));
    expect_values(got, want.to_vector<double>());
  }
}

TEST(RoutinesEinsum, IntegersAreExactAndWrap) {
  Array a = full({3, 40}, 100, Dtype::kInt8), b = full({40, 2}, 7, Dtype::kInt8);
  Array c = einsum("ij,jk->ik", {a, b});
  EXPECT_EQ(c.dtype(), Dtype::kInt8);
  // 40 * 700 = 28000 wraps to 28000 - 2**15 + ... in int8: 28000 mod 256 = 96.
  for (int8_t v : c.to_vector<int8_t>()) EXPECT_EQ(v, 96);
  Array big = full({2, 2}, int64_t{1} << 40, Dtype::kInt64);
  Array r = einsum("ij,jk", {big, full({2, 2}, 3, Dtype::kInt64)});
  for (int64_t v : r.to_vector<int64_t>()) EXPECT_EQ(v, (int64_t{1} << 40) * 6);
}

TEST(RoutinesEinsum, BoolIsLogical) {
  Array a = asarray(std::vector<bool>{true, false, false, false}, {2, 2});
  Array b = asarray(std::vector<bool>{false, true, true, true}, {2, 2});
  Array c = einsum("ij,jk", {a, b});
  EXPECT_EQ(c.dtype(), Dtype::kBool);
  EXPECT_EQ(c.to_vector<bool>(), (std::vector<bool>{false, true, false, false}));
}

TEST(RoutinesEinsum, ComplexAndPromotion) {
  Array a = asarray(std::vector<std::complex<double>>{{1, 1}, {0, 2}}, {2});
  Array b = f64({3, 4}, {2});
  Array r = einsum("i,i", {a, b});
  EXPECT_EQ(r.dtype(), Dtype::kComplex128);
  EXPECT_EQ(r.item<std::complex<double>>(), std::complex<double>(3, 11));
  Array i = iota({2, 2}, Dtype::kInt32), f = iota({2, 2}, Dtype::kFloat32);
  EXPECT_EQ(einsum("ij,jk", {i, f}).dtype(), Dtype::kFloat64);
}

TEST(RoutinesEinsum, ScalarsAndEmpty) {
  Array s = f64({2}, {});
  expect_values(einsum(",ij->ij", {s, iota({2, 2})}), {0, 2, 4, 6});
  expect_values(einsum("->", {s}), {2});
  Array e = einsum("ij,jk->ik", {iota({3, 0}), iota({0, 2})});
  EXPECT_EQ(e.shape(), (Shape{3, 2}));
  expect_values(e, {0, 0, 0, 0, 0, 0});
  EXPECT_EQ(einsum("ij->", {iota({0, 3})}).item<double>(), 0.0);
}

TEST(RoutinesEinsum, NegativeStrideOperands) {
  Array a = iota({3, 4}), b = iota({4, 2});
  Array ar = a.index({slice(std::nullopt, std::nullopt, -1), slice(std::nullopt, std::nullopt, -1)});
  Array want = matmul(ar, b);
  expect_values(einsum("ij,jk", {ar, b}), want.to_vector<double>());
  expect_values(einsum("ji,jk->ik", {ar.transpose(), b}), want.to_vector<double>());
}

TEST(RoutinesEinsum, OutDtypeAndCasting) {
  Array a = iota({2, 3}), b = iota({3, 2});
  Array out = zeros({2, 2}, Dtype::kFloat64);
  Array r = einsum("ij,jk", {a, b}, EinsumOptions().out(out));
  EXPECT_TRUE(r.shares_memory_with(out));
  expect_values(out, {10, 13, 28, 40});
  EXPECT_THROW(einsum("ij,jk", {a, b}, EinsumOptions().dtype(Dtype::kFloat32)), TypeError);
  Array f = einsum("ij,jk", {a, b}, EinsumOptions().dtype(Dtype::kFloat32).casting(Casting::kSameKind));
  EXPECT_EQ(f.dtype(), Dtype::kFloat32);
  EXPECT_THROW(einsum("ij,jk", {a, b}, EinsumOptions().out(zeros({2, 2}, Dtype::kFloat32))), TypeError);
  EXPECT_THROW(einsum("ij,jk", {a, b}, EinsumOptions().out(zeros({2, 3}))), ValueError);
  EXPECT_THROW(einsum("ij,jk", {a, b}, EinsumOptions().out(zeros({1, 2, 2}))), ValueError);
}

TEST(RoutinesEinsum, OrderOption) {
  Array a = iota({3, 4}), b = iota({4, 5});
  EXPECT_TRUE(einsum("ij,jk->ki", {a, b}, EinsumOptions().order(Order::kC)).c_contiguous());
  EXPECT_TRUE(einsum("ij,jk->ik", {a, b}, EinsumOptions().order(Order::kF)).f_contiguous());
}

TEST(RoutinesEinsum, Errors) {
  Array m = iota({2, 3}), n = iota({3, 4}), sq = iota({2, 2});
  expect_error<ValueError>("ij,jk", {sq, n}, "could not be broadcast");
  expect_error<ValueError>("ii", {m}, "collapsing index 'i' don't match (2 != 3)");
  expect_error<ValueError>("ij,jk->q", {m, n}, "output subscript 'q' which never appeared");
  expect_error<ValueError>("ij,jk->ii", {m, n}, "output subscript 'i' multiple times");
  expect_error<ValueError>("ij", {m, n}, "more operands provided");
  expect_error<ValueError>("ij,jk", {m}, "fewer operands provided");
  expect_error<ValueError>("ijk", {m}, "too many subscripts for operand 0");
  expect_error<ValueError>("i", {m}, "no '...' ellipsis");
  expect_error<ValueError>("...i->i", {m}, "output has more dimensions");
  expect_error<ValueError>("i1", {iota({3})}, "invalid subscript '1'");
  expect_error<ValueError>("i..", {iota({3})}, "not part of an ellipsis ('...') in operand 0");
  expect_error<ValueError>("i-i", {iota({3})}, "proper '->'");
  EXPECT_THROW(einsum("ij", {}), ValueError);
  EXPECT_THROW(einsum("ij,jk,kl", {m, n, iota({4, 2})}, EinsumOptions().optimize(EinsumOptimize::path({{0, 1}}))),
               RuntimeError);
  EXPECT_THROW(EinsumOptimize::from_name("bogus"), ValueError);
}

TEST(RoutinesEinsum, PathMatchesNumPy) {
  EinsumPath p = einsum_path("ij,jk,kl->il", std::vector<Shape>{{3, 2}, {2, 4}, {4, 5}});
  EXPECT_EQ(p.path, (std::vector<std::vector<int64_t>>{{1, 2}, {0, 1}}));
  // numpy.einsum_path's report for the same shapes, verbatim.
  const std::string want =
      "  Complete contraction:  ij,jk,kl->il\n"
      "         Naive scaling:  4\n"
      "     Optimized scaling:  3\n"
      "      Naive FLOP count:  3.600e+02\n"
      "  Optimized FLOP count:  1.410e+02\n"
      "   Theoretical speedup:  2.553\n"
      "  Largest intermediate:  1.500e+01 elements\n"
      "--------------------------------------------------------------------------\n"
      "scaling                  current                                remaining\n"
      "--------------------------------------------------------------------------\n"
      "   3                   kl,jk->jl                                ij,jl->il\n"
      "   3                   jl,ij->il                                   il->il";
  EXPECT_EQ(p.report, want);
}

TEST(RoutinesEinsum, GreedyAndOptimalPaths) {
  const std::vector<Shape> five{{10, 4}, {10, 4}, {4, 4, 4, 4}, {10, 4}, {10, 4}};
  const std::vector<std::vector<int64_t>> want5{{0, 2}, {0, 3}, {0, 2}, {0, 1}};
  EXPECT_EQ(einsum_path("ea,fb,abcd,gc,hd->efgh", five).path, want5);
  EXPECT_EQ(einsum_path("ea,fb,abcd,gc,hd->efgh", five, EinsumOptimize::optimal()).path, want5);
  const std::vector<Shape> chain{{10, 2}, {2, 30}, {30, 3}, {3, 4}};
  const std::vector<std::vector<int64_t>> want4{{1, 2}, {1, 2}, {0, 1}};
  EXPECT_EQ(einsum_path("ij,jk,kl,lm->im", chain).path, want4);
  EXPECT_EQ(einsum_path("ij,jk,kl,lm->im", chain, EinsumOptimize::optimal()).path, want4);
  // Nothing to optimize: one step over every operand.
  EXPECT_EQ(einsum_path("ij,jk", std::vector<Shape>{{2, 3}, {3, 4}}).path,
            (std::vector<std::vector<int64_t>>{{0, 1}}));
  EXPECT_EQ(einsum_path("ij,jk,kl", std::vector<Shape>{{2, 3}, {3, 4}, {4, 5}}, EinsumOptimize::none()).path,
            (std::vector<std::vector<int64_t>>{{0, 1, 2}}));
}

TEST(RoutinesEinsum, HugeCostsDoNotOverflow) {
  // 24 labels of length 10000: sizes far beyond int64; the search still ends.
  std::string a, b;
  Shape sa, sb;
  for (int i = 0; i < 12; ++i) {
    a += static_cast<char>('a' + i);
    b += static_cast<char>('A' + i);
    sa.push_back(10000);
    sb.push_back(10000);
  }
  EinsumPath p = einsum_path(a + "," + b + "," + a + b + "->", std::vector<Shape>{sa, sb, [&] {
                               Shape s = sa;
                               for (int64_t v : sb) s.push_back(v);
                               return s;
                             }()});
  EXPECT_FALSE(p.path.empty());
}
