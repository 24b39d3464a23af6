// The DIA (diagonal) and BSR (block sparse row) formats of kumo::sparse,
// scipy.sparse's dia and bsr: value types with validating constructors,
// conversions to and from the other formats and dense arrays, transposes,
// products with dense operands and diagonals. Included by sparse/sparse.h;
// the conventions there hold here too (value types, no mutation, complete
// validation, the device's SparseBackend does the work).
#pragma once
#include <cstdint>
#include <optional>
#include <utility>

#include "sparse/sparse.h"

namespace kumo {
namespace sparse {

// Diagonal storage: row d of data (n_diags, L) holds diagonal offsets[d]
// (k > 0 above the main one) indexed by column: data[d, j] is entry
// (j - k, j). Places outside the matrix (j - k outside [0, rows), j >= cols)
// are not part of it. Offsets are distinct, in any order; their dtype is
// the index dtype of the shape (int32 unless a dimension needs int64).
struct DiaMatrix {
  Array data, offsets;
  Shape2 shape;
  // Places of data inside the matrix (SciPy's nnz for dia: zeros count).
  int64_t nnz() const;
  Dtype dtype() const { return data.dtype(); }
};

// Block sparse rows: a CSR matrix over blocks of R x C entries. Block k,
// data[k] (R, C), sits in block row i (indptr[i] <= k < indptr[i+1]) and
// block column indices[k], i.e. at entries (i*R.., indices[k]*C..).
// Duplicate or unsorted block columns are allowed, as in CSR.
struct BsrMatrix {
  Array data, indices, indptr;
  Shape2 shape;
  int64_t block_rows() const;  // R
  int64_t block_cols() const;  // C
  int64_t nnz() const;         // stored entries: blocks * R * C
  Dtype dtype() const { return data.dtype(); }
};

// ---- construction (validating; ValueError naming the call) ----

// (data, offsets) with a shape: data 1-d (one diagonal) or 2-d, offsets a
// scalar-like 1-d integer array of distinct values, one per row of data.
DiaMatrix make_dia(const Array& data, const Array& offsets, Shape2 shape);
// (data (nblocks, R, C), indices, indptr); without a shape it is
// ((len(indptr) - 1) * R, (max index + 1) * C). `blocksize`, when given,
// must equal data's block shape.
BsrMatrix make_bsr(const Array& data, const Array& indices, const Array& indptr,
                   std::optional<Shape2> shape = std::nullopt,
                   std::optional<std::pair<int64_t, int64_t>> blocksize = std::nullopt);
// An all-zero matrix without stored blocks; the shape must be a multiple of the blocksize.
BsrMatrix bsr_empty(Shape2 shape, std::pair<int64_t, int64_t> blocksize, Dtype dtype, Device& device);
DiaMatrix dia_empty(Shape2 shape, Dtype dtype, Device& device);

// ---- conversions ----

// DIA -> CSR drops explicit zeros and is canonical (SciPy's dia_tocsr);
// COO and CSC go through it.
CsrMatrix tocsr(const DiaMatrix& a);
CooMatrix tocoo(const DiaMatrix& a);
CscMatrix tocsc(const DiaMatrix& a);
// -> DIA: duplicates summed; one diagonal per distinct occupied offset, in
// increasing order; data is (diagonals, max occupied column + 1), as SciPy's.
DiaMatrix todia(const CooMatrix& a);
DiaMatrix todia(const CsrMatrix& a);
DiaMatrix todia(const CscMatrix& a);

// BSR -> CSR keeps every stored block entry (zeros too) in block storage
// order within each row, as SciPy's bsr_tocsr; -> COO lists the blocks'
// entries block by block, each block in row-major order.
CsrMatrix tocsr(const BsrMatrix& a);
CooMatrix tocoo(const BsrMatrix& a);
CscMatrix tocsc(const BsrMatrix& a);
// CSR -> BSR with blocksize (R, C), which must divide the shape: every
// block holding a stored entry is stored, in the order of first occurrence
// within its block row, duplicates summed (SciPy's csr_tobsr). Without a
// blocksize, SciPy's estimate_blocksize chooses among 1, 2, 3, 4 and 6.
BsrMatrix tobsr(const CsrMatrix& a, std::optional<std::pair<int64_t, int64_t>> blocksize = std::nullopt);
BsrMatrix tobsr(const CooMatrix& a, std::optional<std::pair<int64_t, int64_t>> blocksize = std::nullopt);
BsrMatrix tobsr(const CscMatrix& a, std::optional<std::pair<int64_t, int64_t>> blocksize = std::nullopt);
BsrMatrix tobsr(const DiaMatrix& a, std::optional<std::pair<int64_t, int64_t>> blocksize = std::nullopt);
// SciPy's estimate_blocksize of a CSR matrix (efficiency in (0, 1)).
std::pair<int64_t, int64_t> estimate_blocksize(const CsrMatrix& a, double efficiency = 0.7);
DiaMatrix todia(const DiaMatrix& a);
DiaMatrix todia(const BsrMatrix& a);

Array toarray(const DiaMatrix& a);
Array toarray(const BsrMatrix& a);

// Transposes: DIA negates the offsets and realigns data to (n_diags, rows);
// BSR is the block CSC of the matrix with each block transposed (blocks
// sorted by block row, stably).
DiaMatrix transpose(const DiaMatrix& a);
BsrMatrix transpose(const BsrMatrix& a);
// Blocks sorted by block column within each block row (stable).
BsrMatrix sort_indices(const BsrMatrix& a);
bool has_sorted_indices(const BsrMatrix& a);
// Sorted and without duplicate blocks.
bool has_canonical_format(const BsrMatrix& a);
// Without the blocks whose entries are all zero (the others keep their order).
BsrMatrix eliminate_zeros(const BsrMatrix& a);

DiaMatrix astype(const DiaMatrix& a, Dtype dtype);
BsrMatrix astype(const BsrMatrix& a, Dtype dtype);
DiaMatrix conj(const DiaMatrix& a);
BsrMatrix conj(const BsrMatrix& a);
// a * s with NumPy's (NEP 50) result dtype; the structure is shared.
DiaMatrix multiply(const DiaMatrix& a, Scalar s);
BsrMatrix multiply(const BsrMatrix& a, Scalar s);

// DIA arithmetic that stays DIA, as SciPy's: a + b and a - b of one shape
// (the same offsets add data; else the union of the offsets, sorted), the
// elementwise product with another DIA matrix (the common offsets) or with
// a dense array broadcast to a's shape (a's offsets). Result dtypes are
// NumPy's promotion; ValueError for shapes that do not agree.
DiaMatrix add(const DiaMatrix& a, const DiaMatrix& b);
DiaMatrix subtract(const DiaMatrix& a, const DiaMatrix& b);
DiaMatrix multiply(const DiaMatrix& a, const DiaMatrix& b);
DiaMatrix multiply(const DiaMatrix& a, const Array& dense);

Array diagonal(const DiaMatrix& a, int64_t k = 0);
Array diagonal(const BsrMatrix& a, int64_t k = 0);

// a @ x for a dense vector (n,) or matrix (n, p), on all cores.
Array matmul(const DiaMatrix& a, const Array& x);
Array matmul(const BsrMatrix& a, const Array& x);

}  // namespace sparse
}  // namespace kumo

// The construction functions, which use both the types above and sparse.h's.
#include "sparse/construct.h"  // NOLINT: after the types it uses
