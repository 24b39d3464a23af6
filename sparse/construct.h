// Building sparse matrices (scipy.sparse's construction functions):
// diagonal and identity matrices, Kronecker products and sums, block
// stacking, triangles, random matrices and find. Included by
// sparse/sparse.h. Results are in the format SciPy computes them in; the
// Python layer converts to the format asked for.
#pragma once
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "sparse/dia_bsr.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {

// diags_array: diagonals[j] (1-d; length 1 broadcasts along the diagonal,
// a longer one is cut) on diagonal offsets[j] of a rows x cols matrix of
// `dtype`. ValueError for an offset outside the matrix, a diagonal too
// short, or as many diagonals as offsets missing.
DiaMatrix diags(const std::vector<Array>& diagonals, const std::vector<int64_t>& offsets, Shape2 shape, Dtype dtype);
// Ones on diagonal k.
DiaMatrix eye(Shape2 shape, int64_t k, Dtype dtype, Device& device);

// The Kronecker product in COO: each entry of a times all of b, blocks in
// a's entry order (duplicates and explicit zeros kept); an empty float64
// matrix when either factor stores nothing, as SciPy's.
CooMatrix kron(const CooMatrix& a, const CooMatrix& b);
// The Kronecker product as BSR, for a dense b (p, q): block k is
// a.data[k] * b at a's places (SciPy's choice when b is at least half full).
BsrMatrix kron(const CsrMatrix& a, const Array& b);
// kron(I_n, a) + kron(b, I_m) for square a (m x m) and b (n x n), canonical.
CsrMatrix kronsum(const CooMatrix& a, const CooMatrix& b);

// bmat: blocks[i][j] (nullopt: zeros) placed in a grid whose rows and
// columns of blocks must agree in height and width; the entries in block
// order, of `dtype` (default: the blocks' promoted dtype).
CooMatrix bmat(const std::vector<std::vector<std::optional<CooMatrix>>>& blocks,
               std::optional<Dtype> dtype = std::nullopt);
// Stacking compressed matrices along their major axis (CSR rows, CSC
// columns) keeps every array's order; along the minor axis each row is the
// blocks' rows side by side.
CsrMatrix vstack(const std::vector<CsrMatrix>& blocks);
CscMatrix hstack(const std::vector<CscMatrix>& blocks);
CsrMatrix hstack(const std::vector<CsrMatrix>& blocks);
CscMatrix vstack(const std::vector<CscMatrix>& blocks);
// The blocks along the diagonal. `wide_index` forces int64 indices.
CooMatrix block_diag(const std::vector<CooMatrix>& blocks, bool wide_index = false);
// Every element of a 2-d dense array as a stored entry (zeros too), in C order.
CooMatrix coo_all_entries(const Array& dense);

// Entries on or below (tril) / above (triu) diagonal k, in entry order.
CooMatrix tril(const CooMatrix& a, int64_t k = 0);
CooMatrix triu(const CooMatrix& a, int64_t k = 0);
// (row, col, value) of the nonzeros after summing duplicates, sorted by (row, col).
std::tuple<Array, Array, Array> find(const CooMatrix& a);

// round(density * rows * cols) distinct places chosen uniformly from
// `seed`, in random order, with values uniform in [0, 1) (real and
// imaginary parts for complex dtypes), over the dtype's whole range for
// integers, true for bool. ValueError unless 0 <= density <= 1.
CooMatrix random(Shape2 shape, double density, Dtype dtype, uint64_t seed, Device& device);

}  // namespace sparse
}  // namespace kumo
