// kumo::sparse's DIA and BSR formats (sparse/dia_bsr.h) and construction
// functions (sparse/construct.h) on the host backend, against dense
// references computed here. The "Large" cases take the parallel paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
using sparse::Shape2;

namespace {

Array i32(std::vector<int32_t> v) { return asarray(v); }
Array f64(std::vector<double> v) { return asarray(v); }

// A rows x cols row-major matrix with a deterministic pattern of nonzeros.
std::vector<double> pattern(int64_t rows, int64_t cols, int every) {
  std::vector<double> d(static_cast<size_t>(rows * cols), 0.0);
  for (int64_t i = 0; i < rows * cols; ++i)
    if (i % every == 0) d[static_cast<size_t>(i)] = static_cast<double>(i % 7 + 1);
  return d;
}

Array dense(const std::vector<double>& d, int64_t rows, int64_t cols) { return asarray(d).reshape(Shape{rows, cols}); }

// y = A x for a row-major dense A.
std::vector<double> product(const std::vector<double>& a, int64_t rows, int64_t cols, const std::vector<double>& x) {
  std::vector<double> y(static_cast<size_t>(rows), 0.0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) y[static_cast<size_t>(i)] += a[static_cast<size_t>(i * cols + j)] * x[j];
  return y;
}

}  // namespace

TEST(SparseDia, MakeDiaValidates) {
  // data[d, j] is entry (j - offsets[d], j).
  const sparse::DiaMatrix a = sparse::make_dia(f64({1, 2, 3, 4, 5, 6}).reshape(Shape{2, 3}), i32({0, 1}), {3, 3});
  EXPECT_EQ(sparse::toarray(a).to_vector<double>(), (std::vector<double>{1, 5, 0, 0, 2, 6, 0, 0, 3}));
  EXPECT_EQ(a.nnz(), 5);
  EXPECT_EQ(a.offsets.dtype(), Dtype::kInt32);
  const Array two = f64({1, 2, 3, 4, 5, 6}).reshape(Shape{2, 3});
  EXPECT_THROW(sparse::make_dia(two, i32({0, 0}), {3, 3}), ValueError);  // duplicate offsets
  EXPECT_THROW(sparse::make_dia(two, i32({0}), {3, 3}), ValueError);     // diagonals vs offsets
  EXPECT_THROW(sparse::make_dia(two, i32({0, 1}), {-1, 3}), ValueError);
  EXPECT_THROW(sparse::make_dia(two, f64({0, 1}), {3, 3}), TypeError);
}

TEST(SparseDia, ConversionsAndTranspose) {
  const std::vector<double> d = pattern(5, 4, 3);
  const sparse::DiaMatrix a = sparse::todia(sparse::coo_from_dense(dense(d, 5, 4)));
  EXPECT_EQ(sparse::toarray(a).to_vector<double>(), d);
  const sparse::CsrMatrix c = sparse::tocsr(a);
  EXPECT_TRUE(sparse::has_canonical_format(c));
  EXPECT_EQ(sparse::toarray(sparse::tocsc(a)).to_vector<double>(), d);
  const sparse::DiaMatrix t = sparse::transpose(a);
  EXPECT_EQ(t.shape, (Shape2{4, 5}));
  EXPECT_EQ(sparse::toarray(t).to_vector<double>(), dense(d, 5, 4).transpose().copy(Order::kC).to_vector<double>());
  EXPECT_EQ(sparse::diagonal(a, -1).to_vector<double>(), dense(d, 5, 4).diagonal(-1, 0, 1).to_vector<double>());
}

TEST(SparseDia, LargeMatmulMatchesDiagonals) {
  // Enough rows for several row blocks; the reference walks the diagonals.
  const int64_t n = 200000;
  const std::vector<int64_t> offsets{-7, 0, 2};
  std::vector<double> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<double>(i % 11) - 5.0;
  std::vector<Array> diagonals;
  for (int64_t k : offsets)
    diagonals.push_back(full(Shape{n - (k < 0 ? -k : k)}, Scalar(1.0 + static_cast<double>(k))));
  const sparse::DiaMatrix a = sparse::diags(diagonals, offsets, {n, n}, Dtype::kFloat64);
  std::vector<double> want(static_cast<size_t>(n), 0.0);
  for (int64_t k : offsets)
    for (int64_t i = 0; i < n; ++i)
      if (i + k >= 0 && i + k < n) want[static_cast<size_t>(i)] += (1.0 + static_cast<double>(k)) * x[i + k];
  EXPECT_EQ(sparse::matmul(a, asarray(x)).to_vector<double>(), want);
  EXPECT_EQ(sparse::tocsr(a).nnz(), 3 * n - 9);
}

TEST(SparseBsr, ToBsrAndBack) {
  const std::vector<double> d = pattern(6, 6, 4);
  const sparse::CsrMatrix c = sparse::tocsr(sparse::coo_from_dense(dense(d, 6, 6)));
  const sparse::BsrMatrix b = sparse::tobsr(c, {{2, 3}});
  EXPECT_EQ(b.block_rows(), 2);
  EXPECT_EQ(b.block_cols(), 3);
  EXPECT_EQ(sparse::toarray(b).to_vector<double>(), d);
  EXPECT_EQ(sparse::toarray(sparse::tocoo(b)).to_vector<double>(), d);
  EXPECT_EQ(sparse::toarray(sparse::transpose(b)).to_vector<double>(),
            dense(d, 6, 6).transpose().copy(Order::kC).to_vector<double>());
  EXPECT_THROW(sparse::tobsr(c, {{4, 4}}), ValueError);                            // does not divide the shape
  EXPECT_THROW(sparse::make_bsr(f64({1, 2}), i32({0}), i32({0, 1})), ValueError);  // data not 3-d
  // A block-diagonal matrix of full 3 x 3 blocks is estimated as 3 x 3.
  const Array blocks =
      sparse::toarray(sparse::kron(sparse::coo_from_dense(eye(4)), sparse::coo_from_dense(ones(Shape{3, 3}))));
  EXPECT_EQ(sparse::estimate_blocksize(sparse::tocsr(sparse::coo_from_dense(blocks))),
            (std::pair<int64_t, int64_t>{3, 3}));
}

TEST(SparseBsr, LargeMatmulMatchesDense) {
  const int64_t n = 1200;  // about 80000 blocks: several parts of block rows
  const std::vector<double> d = pattern(n, n, 3);
  const sparse::BsrMatrix b = sparse::tobsr(sparse::tocsr(sparse::coo_from_dense(dense(d, n, n))), {{3, 2}});
  std::vector<double> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<double>(i % 5);
  EXPECT_EQ(sparse::matmul(b, asarray(x)).to_vector<double>(), product(d, n, n, x));
}

TEST(SparseConstruct, DiagsEyeAndErrors) {
  const sparse::DiaMatrix e = sparse::eye({3, 4}, 1, Dtype::kFloat32, host_device());
  EXPECT_EQ(sparse::toarray(e).to_vector<float>(), (std::vector<float>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
  EXPECT_THROW(sparse::diags({f64({1, 2})}, {0}, {4, 4}, Dtype::kFloat64), ValueError);  // too short
  EXPECT_THROW(sparse::diags({f64({1})}, {5}, {3, 3}, Dtype::kFloat64), ValueError);     // outside
  EXPECT_THROW(sparse::diags({f64({1})}, {0, 1}, {3, 3}, Dtype::kFloat64), ValueError);  // counts
}

TEST(SparseConstruct, KronStackTriangles) {
  const sparse::CooMatrix a = sparse::coo_from_dense(dense({1, 0, 2, 3}, 2, 2));
  const sparse::CooMatrix k = sparse::kron(a, a);
  EXPECT_EQ(sparse::toarray(k).to_vector<double>(),
            (std::vector<double>{1, 0, 0, 0, 2, 3, 0, 0, 2, 0, 3, 0, 4, 6, 6, 9}));
  const sparse::CooMatrix g = sparse::bmat({{a, std::nullopt}, {std::nullopt, a}});
  EXPECT_EQ(g.shape, (Shape2{4, 4}));
  EXPECT_EQ(sparse::toarray(g).to_vector<double>(), sparse::toarray(sparse::block_diag({a, a})).to_vector<double>());
  const sparse::CooMatrix wide = sparse::coo_from_dense(ones(Shape{3, 3}));
  EXPECT_THROW(sparse::bmat({{a, wide}}), ValueError);  // block heights differ
  const sparse::CsrMatrix v = sparse::vstack({sparse::tocsr(a), sparse::tocsr(a)});
  EXPECT_EQ(v.shape, (Shape2{4, 2}));
  EXPECT_EQ(sparse::tril(a, -1).nnz(), 1);
  EXPECT_EQ(sparse::triu(a).nnz(), 2);
  const auto [r, c, x] = sparse::find(a);
  EXPECT_EQ(x.to_vector<double>(), (std::vector<double>{1, 2, 3}));
}

TEST(SparseConstruct, RandomHasDistinctPlaces) {
  const sparse::CooMatrix m = sparse::random({40, 30}, 0.25, Dtype::kFloat64, 7, host_device());
  EXPECT_EQ(m.nnz(), 300);
  const std::vector<int32_t> r = m.row.to_vector<int32_t>(), c = m.col.to_vector<int32_t>();
  std::set<std::pair<int32_t, int32_t>> places;
  for (size_t i = 0; i < r.size(); ++i) places.insert({r[i], c[i]});
  EXPECT_EQ(static_cast<int64_t>(places.size()), m.nnz());
  EXPECT_THROW(sparse::random({3, 3}, 1.5, Dtype::kFloat64, 0, host_device()), ValueError);
}
