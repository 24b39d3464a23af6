// kumo::sparse (sparse/sparse.h) on the host backend: construction and its
// errors, canonical form, conversions, products and elementwise operations,
// against dense references computed here. The "Large" cases are big enough
// to take the parallel paths (several row parts, several histogram chunks,
// private SpMM^T buffers).
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "kumo/kumo.h"

using namespace kumo;
using sparse::Shape2;

namespace {

Array i32(std::vector<int32_t> v) { return asarray(v); }
Array f64(std::vector<double> v) { return asarray(v); }

// The dense matrix (row-major) a COO triplet list means: duplicates summed.
std::vector<double> dense_of(const std::vector<int32_t>& r, const std::vector<int32_t>& c,
                             const std::vector<double>& v, Shape2 s) {
  std::vector<double> d(static_cast<size_t>(s.rows * s.cols), 0.0);
  for (size_t k = 0; k < v.size(); ++k) d[static_cast<size_t>(r[k] * s.cols + c[k])] += v[k];
  return d;
}

struct Triplets {
  std::vector<int32_t> row, col;
  std::vector<double> val;
};

// Random unsorted entries with duplicates and a few explicit zeros.
Triplets random_triplets(int64_t rows, int64_t cols, int64_t nnz, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int64_t> rd(0, rows - 1), cd(0, cols - 1);
  std::uniform_int_distribution<int> vd(-4, 4);
  Triplets t;
  for (int64_t k = 0; k < nnz; ++k) {
    t.row.push_back(static_cast<int32_t>(rd(gen)));
    t.col.push_back(static_cast<int32_t>(cd(gen)));
    t.val.push_back(vd(gen));
  }
  return t;
}

void expect_canonical(const sparse::CsrMatrix& a) {
  const std::vector<int64_t> ip = a.indptr.to_vector<int64_t>(), ix = a.indices.to_vector<int64_t>();
  for (int64_t r = 0; r < a.shape.rows; ++r)
    for (int64_t k = ip[r] + 1; k < ip[r + 1]; ++k) ASSERT_LT(ix[k - 1], ix[k]) << "row " << r;
}

}  // namespace

TEST(SparseFormats, MakeCsrValidates) {
  const sparse::CsrMatrix a = sparse::make_csr(f64({1, 2, 3}), i32({2, 0, 1}), i32({0, 2, 3}), Shape2{2, 3});
  EXPECT_EQ(a.nnz(), 3);
  EXPECT_EQ(a.indices.dtype(), Dtype::kInt32);
  EXPECT_FALSE(sparse::has_sorted_indices(a));
  EXPECT_EQ(sparse::toarray(a).to_vector<double>(), (std::vector<double>{2, 0, 1, 0, 3, 0}));
  // Shape inferred: (len(indptr) - 1, max index + 1).
  EXPECT_EQ(sparse::make_csr(f64({1, 2, 3}), i32({2, 0, 1}), i32({0, 2, 3})).shape, (Shape2{2, 3}));
  EXPECT_THROW(sparse::make_csr(f64({1, 2}), i32({0, 1}), i32({0, 1, 2}), Shape2{3, 3}), ValueError);  // indptr size
  EXPECT_THROW(sparse::make_csr(f64({1, 2}), i32({0, 3}), i32({0, 1, 2}), Shape2{2, 3}), ValueError);  // col range
  EXPECT_THROW(sparse::make_csr(f64({1, 2}), i32({0, -1}), i32({0, 1, 2}), Shape2{2, 3}), ValueError);
  EXPECT_THROW(sparse::make_csr(f64({1, 2}), i32({0, 1}), i32({0, 2, 1}), Shape2{2, 3}), ValueError);  // decreasing
  EXPECT_THROW(sparse::make_csr(f64({1, 2}), i32({0, 1}), i32({1, 1, 2}), Shape2{2, 3}), ValueError);  // start
  EXPECT_THROW(sparse::make_csr(f64({1, 2}), i32({0}), i32({0, 1, 1}), Shape2{2, 3}), ValueError);     // lengths
  EXPECT_THROW(sparse::make_csr(f64({1, 2}), asarray(std::vector<double>{0, 1}), i32({0, 1, 2})), TypeError);
  EXPECT_THROW(sparse::make_csr(f64({1, 2}).astype(Dtype::kFloat16), i32({0, 1}), i32({0, 1, 2})), ValueError);
  EXPECT_THROW(sparse::make_csr(f64({1}), i32({0}), i32({0, 1}), Shape2{-1, 3}), ValueError);
  // Entries past indptr[-1] are dropped.
  EXPECT_EQ(sparse::make_csr(f64({1, 2, 3}), i32({0, 1, 2}), i32({0, 1, 2}), Shape2{2, 3}).nnz(), 2);
}

TEST(SparseFormats, MakeCooValidatesAndInfersShape) {
  const sparse::CooMatrix a = sparse::make_coo(f64({1, 2}), i32({0, 3}), i32({1, 0}));
  EXPECT_EQ(a.shape, (Shape2{4, 2}));
  EXPECT_FALSE(a.canonical);
  EXPECT_THROW(sparse::make_coo(f64({1, 2}), i32({0, 3}), i32({1, 0}), Shape2{3, 3}), ValueError);
  EXPECT_THROW(sparse::make_coo(f64({1, 2}), i32({0, -1}), i32({1, 0}), Shape2{3, 3}), ValueError);
  EXPECT_THROW(sparse::make_coo(f64({1, 2}), i32({0}), i32({1, 0}), Shape2{3, 3}), ValueError);
  EXPECT_THROW(sparse::make_coo(f64({}), i32({}), i32({})), ValueError);  // cannot infer a shape
  // int64 index input stays int64 (SciPy 1.17), also through conversions;
  // narrower input is int32 unless the shape needs int64.
  const sparse::CooMatrix b =
      sparse::make_coo(f64({1}), asarray(std::vector<int64_t>{0}), asarray(std::vector<int64_t>{0}), Shape2{2, 2});
  EXPECT_EQ(b.row.dtype(), Dtype::kInt64);
  EXPECT_EQ(sparse::tocsc(sparse::tocsr(b)).indptr.dtype(), Dtype::kInt64);
  EXPECT_EQ(sparse::make_coo(f64({1}), asarray(std::vector<int16_t>{0}), i32({0}), Shape2{2, 2}).row.dtype(),
            Dtype::kInt32);
  const sparse::CooMatrix c = sparse::make_coo(f64({1}), i32({0}), i32({5}), Shape2{1, int64_t{1} << 32});
  EXPECT_EQ(c.col.dtype(), Dtype::kInt64);
  EXPECT_EQ(sparse::tocsr(c).indices.dtype(), Dtype::kInt64);
  EXPECT_EQ(sparse::index_dtype(int64_t{1} << 31), Dtype::kInt64);
  EXPECT_EQ(sparse::index_dtype((int64_t{1} << 31) - 1), Dtype::kInt32);
}

TEST(SparseFormats, CooToCsrSumsDuplicatesAndSorts) {
  // Unsorted, with a duplicate (1, 2) and an explicit zero (0, 0).
  const sparse::CooMatrix a =
      sparse::make_coo(f64({5, 1, 2, 0, 7}), i32({1, 1, 0, 0, 1}), i32({2, 0, 3, 0, 2}), Shape2{3, 4});
  const sparse::CsrMatrix c = sparse::tocsr(a);
  EXPECT_EQ(c.indptr.to_vector<int32_t>(), (std::vector<int32_t>{0, 2, 4, 4}));
  EXPECT_EQ(c.indices.to_vector<int32_t>(), (std::vector<int32_t>{0, 3, 0, 2}));
  EXPECT_EQ(c.data.to_vector<double>(), (std::vector<double>{0, 2, 1, 12}));
  EXPECT_TRUE(sparse::has_canonical_format(c));
  const sparse::CscMatrix s = sparse::tocsc(a);
  EXPECT_EQ(s.indptr.to_vector<int32_t>(), (std::vector<int32_t>{0, 2, 2, 3, 4}));
  EXPECT_EQ(s.indices.to_vector<int32_t>(), (std::vector<int32_t>{0, 1, 1, 0}));
  EXPECT_EQ(sparse::toarray(s).to_vector<double>(), sparse::toarray(a).to_vector<double>());
  EXPECT_EQ(sparse::eliminate_zeros(c).nnz(), 3);
  const sparse::CooMatrix canon = sparse::sum_duplicates(a);
  EXPECT_TRUE(canon.canonical);
  EXPECT_EQ(canon.row.to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 1, 1}));
  EXPECT_EQ(sparse::eliminate_zeros(a).nnz(), 4);
}

TEST(SparseFormats, SortAndSumDuplicatesOfCsr) {
  const sparse::CsrMatrix a = sparse::make_csr(f64({1, 2, 3, 4, 5}), i32({3, 1, 3, 0, 0}), i32({0, 3, 3, 5}),
                                               Shape2{3, 4});
  EXPECT_FALSE(sparse::has_sorted_indices(a));
  const sparse::CsrMatrix s = sparse::sort_indices(a);
  EXPECT_TRUE(sparse::has_sorted_indices(s));
  EXPECT_FALSE(sparse::has_canonical_format(s));
  EXPECT_EQ(s.indices.to_vector<int32_t>(), (std::vector<int32_t>{1, 3, 3, 0, 0}));
  EXPECT_EQ(s.data.to_vector<double>(), (std::vector<double>{2, 1, 3, 4, 5}));  // stable
  const sparse::CsrMatrix d = sparse::sum_duplicates(a);
  EXPECT_EQ(d.indptr.to_vector<int32_t>(), (std::vector<int32_t>{0, 2, 2, 3}));
  EXPECT_EQ(d.data.to_vector<double>(), (std::vector<double>{2, 4, 9}));
  // The input is untouched.
  EXPECT_EQ(a.indices.to_vector<int32_t>(), (std::vector<int32_t>{3, 1, 3, 0, 0}));
}

TEST(SparseFormats, EmptyMatricesAndRows) {
  const sparse::CooMatrix e = sparse::coo_empty(Shape2{3, 0}, Dtype::kFloat32, host_device());
  EXPECT_EQ(sparse::toarray(e).shape(), (Shape{3, 0}));
  const sparse::CsrMatrix c = sparse::tocsr(sparse::coo_empty(Shape2{4, 5}, Dtype::kFloat64, host_device()));
  EXPECT_EQ(c.indptr.to_vector<int32_t>(), (std::vector<int32_t>(5, 0)));
  EXPECT_EQ(sparse::matmul(c, zeros(Shape{5}, Dtype::kFloat64)).to_vector<double>(), std::vector<double>(4, 0.0));
  EXPECT_EQ(sparse::diagonal(c, 10).size(), 0);
  EXPECT_EQ(sparse::add(c, c).nnz(), 0);
}

TEST(SparseFormats, ProductsMatchDense) {
  const Triplets t = random_triplets(7, 5, 20, 1);
  const Shape2 s{7, 5};
  const sparse::CooMatrix coo = sparse::make_coo(asarray(t.val), asarray(t.row), asarray(t.col), s);
  const std::vector<double> d = dense_of(t.row, t.col, t.val, s);
  std::vector<double> x = {1, -2, 3, 0.5, 4}, y(7, 0.0);
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 5; ++c) y[r] += d[r * 5 + c] * x[c];
  EXPECT_EQ(sparse::matmul(sparse::tocsr(coo), f64(x)).to_vector<double>(), y);
  EXPECT_EQ(sparse::matmul(sparse::tocsc(coo), f64(x)).to_vector<double>(), y);
  EXPECT_EQ(sparse::matmul(coo, f64(x)).to_vector<double>(), y);
  // x^T A.
  std::vector<double> u = {1, 2, 3, 4, 5, 6, 7}, v(5, 0.0);
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 5; ++c) v[c] += u[r] * d[r * 5 + c];
  EXPECT_EQ(sparse::rmatmul(f64(u), sparse::tocsr(coo)).to_vector<double>(), v);
  EXPECT_EQ(sparse::rmatmul(f64(u), sparse::tocsc(coo)).to_vector<double>(), v);
  // SpMM against the dense product, float32 promoted with float64.
  const Array X = arange(15, Dtype::kFloat32).reshape(Shape{5, 3});
  const Array got = sparse::matmul(sparse::tocsr(coo), X);
  EXPECT_EQ(got.dtype(), Dtype::kFloat64);
  EXPECT_EQ(got.to_vector<double>(), matmul(asarray(d).reshape(Shape{7, 5}), X.astype(Dtype::kFloat64)).to_vector<double>());
  EXPECT_THROW(sparse::matmul(sparse::tocsr(coo), f64({1, 2})), ValueError);
}

TEST(SparseFormats, ElementwiseOperationsDropZeros) {
  const sparse::CsrMatrix a = sparse::make_csr(f64({1, 2, 3}), i32({0, 2, 1}), i32({0, 2, 3}), Shape2{2, 3});
  const sparse::CsrMatrix b = sparse::make_csr(f64({1, 5}), i32({0, 1}), i32({0, 1, 2}), Shape2{2, 3});
  const sparse::CsrMatrix diff = sparse::subtract(a, b);  // (0,0) cancels
  EXPECT_EQ(diff.nnz(), 2);
  EXPECT_EQ(sparse::toarray(diff).to_vector<double>(), (std::vector<double>{0, 0, 2, 0, -2, 0}));
  EXPECT_EQ(sparse::toarray(sparse::add(a, b)).to_vector<double>(), (std::vector<double>{2, 0, 2, 0, 8, 0}));
  const sparse::CsrMatrix prod = sparse::multiply(a, b);
  EXPECT_EQ(prod.nnz(), 2);
  EXPECT_EQ(sparse::toarray(prod).to_vector<double>(), (std::vector<double>{1, 0, 0, 0, 15, 0}));
  const sparse::CsrMatrix ai = sparse::astype(a, Dtype::kInt32);
  EXPECT_EQ(sparse::add(ai, b).dtype(), Dtype::kFloat64);
  EXPECT_EQ(sparse::multiply(ai, Scalar(2)).dtype(), Dtype::kInt32);
  EXPECT_EQ(sparse::multiply(ai, Scalar(0.5)).dtype(), Dtype::kFloat64);
  EXPECT_THROW(sparse::add(a, sparse::make_csr(f64({1}), i32({0}), i32({0, 1}), Shape2{1, 3})), ValueError);
}

TEST(SparseFormats, TransposeDiagonalConj) {
  using c64 = std::complex<float>;
  const sparse::CsrMatrix a = sparse::make_csr(asarray(std::vector<c64>{{1, 1}, {2, -1}, {3, 0}}), i32({0, 2, 1}),
                                               i32({0, 2, 3}), Shape2{2, 3});
  const sparse::CscMatrix t = sparse::transpose(a);
  EXPECT_EQ(t.shape, (Shape2{3, 2}));
  EXPECT_EQ(sparse::toarray(t).to_vector<c64>(),
            (std::vector<c64>{{1, 1}, {0, 0}, {0, 0}, {3, 0}, {2, -1}, {0, 0}}));
  EXPECT_EQ(sparse::diagonal(a).to_vector<c64>(), (std::vector<c64>{{1, 1}, {3, 0}}));
  EXPECT_EQ(sparse::diagonal(a, 2).to_vector<c64>(), (std::vector<c64>{{2, -1}}));
  EXPECT_EQ(sparse::diagonal(t, -2).to_vector<c64>(), (std::vector<c64>{{2, -1}}));
  EXPECT_EQ(sparse::conj(a).data.to_vector<c64>(), (std::vector<c64>{{1, -1}, {2, 1}, {3, 0}}));
}

TEST(SparseFormats, LargeConversionsMatchReference) {
  // Parallel paths: 200k entries over 3000 rows, many duplicates.
  const Shape2 s{3000, 800};
  const Triplets t = random_triplets(s.rows, s.cols, 200000, 7);
  const sparse::CooMatrix coo = sparse::make_coo(asarray(t.val), asarray(t.row), asarray(t.col), s);
  const sparse::CsrMatrix csr = sparse::tocsr(coo);
  expect_canonical(csr);
  std::map<std::pair<int32_t, int32_t>, double> ref;
  for (size_t k = 0; k < t.val.size(); ++k) ref[{t.row[k], t.col[k]}] += t.val[k];
  ASSERT_EQ(csr.nnz(), static_cast<int64_t>(ref.size()));
  const std::vector<int32_t> ip = csr.indptr.to_vector<int32_t>(), ix = csr.indices.to_vector<int32_t>();
  const std::vector<double> dv = csr.data.to_vector<double>();
  size_t k = 0;
  for (const auto& [rc, v] : ref) {
    ASSERT_EQ(ix[k], rc.second);
    ASSERT_GE(static_cast<int32_t>(k), ip[rc.first]);
    ASSERT_LT(static_cast<int32_t>(k), ip[rc.first + 1]);
    ASSERT_EQ(dv[k], v);
    ++k;
  }
  // CSR -> CSC -> CSR is the identity on canonical matrices.
  const sparse::CsrMatrix back = sparse::tocsr(sparse::tocsc(csr));
  EXPECT_EQ(back.indptr.to_vector<int32_t>(), ip);
  EXPECT_EQ(back.indices.to_vector<int32_t>(), ix);
  EXPECT_EQ(back.data.to_vector<double>(), dv);
  // SpMV and the transposed product through CSC agree with the dense product.
  const std::vector<double> d = dense_of(t.row, t.col, t.val, s);
  std::vector<double> x(static_cast<size_t>(s.cols)), y(static_cast<size_t>(s.rows), 0.0);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i % 7) - 3;
  for (int64_t r = 0; r < s.rows; ++r)
    for (int64_t c = 0; c < s.cols; ++c) y[r] += d[r * s.cols + c] * x[c];
  EXPECT_EQ(sparse::matmul(csr, f64(x)).to_vector<double>(), y);
  EXPECT_EQ(sparse::matmul(sparse::tocsc(csr), f64(x)).to_vector<double>(), y);
  EXPECT_EQ(sparse::toarray(csr).to_vector<double>(), d);
  const sparse::CsrMatrix twice = sparse::add(csr, csr);
  EXPECT_EQ(sparse::subtract(twice, csr).nnz(), sparse::eliminate_zeros(csr).nnz());
}
