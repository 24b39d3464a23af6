// scipy.sparse.linalg.norm and onenormest for kumo::sparse matrices.
//
//   Array f = kumo::sparse::linalg::norm(csr);                          // Frobenius, 0-d
//   Array c = kumo::sparse::linalg::norm(csr, INFINITY);                  // max row sum
//   Array v = kumo::sparse::linalg::norm(csr, 2.0, std::vector<int64_t>{1});  // row 2-norms
//
// Duplicates are summed first (the norm of the matrix, not of its storage).
// Results carry SciPy's dtypes: a 0-d array for matrix norms, 1-d for vector
// norms along one axis.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/array.h"
#include "linalg/linalg.h"
#include "sparse/linalg/linear_operator.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {
namespace linalg {

// axis empty: the matrix norm for ord None/"fro" (Frobenius), 1, -1, inf,
// -inf, 2 (the largest singular value, by svds); -2 is NotImplementedError
// as in SciPy, "nuc" and other numbers a ValueError. One axis: vector norms along it for ord None/2, inf, -inf, 0, 1 and
// any other number p ((sum |a|^p)^(1/p)); two axes: as none (in either order).
Array norm(const CsrMatrix& a, kumo::linalg::NormOrder ord = {}, const std::vector<int64_t>& axis = {});
Array norm(const CscMatrix& a, kumo::linalg::NormOrder ord = {}, const std::vector<int64_t>& axis = {});
Array norm(const CooMatrix& a, kumo::linalg::NormOrder ord = {}, const std::vector<int64_t>& axis = {});

// A lower bound of ||A||_1 (the largest column sum of |A|) from products
// with A and A^H only: the block 1-norm estimator of Higham and Tisseur
// (2000, Algorithm 2.4) with t columns and at most itmax iterations, exact
// when t >= n (then A is formed column by column). v (a unit vector e_j)
// and w = A v certify it: ||w||_1 = est. t < 1 and itmax < 2 are a
// ValueError; A must be square. The random starting columns come from a
// fixed seed, so the estimate is reproducible.
struct OneNormEstimate {
  double est = 0;
  Array v, w;
  int64_t nmults = 0, nresamples = 0;
};
OneNormEstimate onenormest(const LinearOperator& a, int64_t t = 2, int64_t itmax = 5);

}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
