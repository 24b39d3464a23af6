// The sparse backend: the kernels behind kumo::sparse (sparse/sparse.h).
// One implementation per device type, chosen by the arrays' device as the
// DNN backend is (nn/dnn_backend.h): the host's is written for all
// cores with parallel_for (sparse/host/host_sparse.cpp); a CUDA one on
// cuSPARSE's generic API plugs in behind the same calls through the plugin.
//
// Every kernel works on the compressed form over the "major" axis (rows of
// CSR, columns of CSC), so CSC is CSR of the transpose and needs no kernels
// of its own. Conventions, shared by every call:
// - Arrays are 1-d (dense operands 2-d), C-contiguous and on the backend's
//   device. The index arrays of one call share one dtype, int32 or int64
//   (the front end converts them); results use that dtype too unless a
//   call says otherwise.
// - Inputs have been validated (indices in range, indptr non-decreasing
//   from 0 to nnz), so kernels do not check bounds.
// - Binary operations get operands of one value dtype, which is the
//   result's; the front end promotes.
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include "core/array.h"
#include "core/backend_registry.h"
#include "core/device.h"

namespace kumo {
namespace sparse {

// A compressed matrix of n_major rows of n_minor columns.
struct Compressed {
  Array data, indices, indptr;
  int64_t n_major = 0, n_minor = 0;
};

struct IndexOrder {
  bool sorted = true;     // indices non-decreasing within every row
  bool canonical = true;  // strictly increasing (sorted, no duplicates)
};

// kMaximum/kMinimum are numpy.maximum/minimum (NaN propagates). The
// comparisons give 1 where they hold and 0 elsewhere, in the operands' dtype
// (so the zeros are dropped; the front end makes the values bool); complex
// numbers order by real part, then imaginary part, as NumPy's.
enum class BinaryOp : uint8_t { kAdd, kSubtract, kMultiply, kMaximum, kMinimum, kNotEqual, kLess, kGreater };

// Reductions of each row including its implicit zeros (ReduceMajor).
enum class RowReduce : uint8_t { kMax, kMin, kNanMax, kNanMin, kArgMax, kArgMin };

class SparseBackend {
 public:
  static constexpr Capability kCapability = Capability::kSparse;
  virtual ~SparseBackend() = default;
  virtual std::string name() const = 0;

  // ---- checks ----
  // (min, max) of an integer array; (0, -1) when it is empty.
  virtual std::pair<int64_t, int64_t> min_max(const Array& index) = 0;
  // The first i with indptr[i + 1] < indptr[i], or -1.
  virtual int64_t first_decrease(const Array& indptr) = 0;
  virtual IndexOrder index_order(const Compressed& a) = 0;

  // ---- reordering ----
  // Entries (major[k], minor[k], data[k]) grouped by major index into a
  // compressed matrix of index dtype `index_dtype`, each row sorted by minor
  // index; duplicates are summed in entry order when sum_duplicates, else
  // kept in entry order.
  virtual Compressed compress(const Array& major, const Array& minor, const Array& data, int64_t n_major,
                              int64_t n_minor, bool sum_duplicates, Dtype index_dtype) = 0;
  // Rows sorted by index (stable: duplicates keep their order).
  virtual Compressed sort_indices(const Compressed& a) = 0;
  // Rows sorted, duplicates summed in storage order.
  virtual Compressed sum_duplicates(const Compressed& a) = 0;
  virtual Compressed eliminate_zeros(const Compressed& a) = 0;
  // The major index of every stored entry (CSR -> COO rows).
  virtual Array expand_major(const Array& indptr, int64_t nnz) = 0;
  // The nonzeros of a 2-d dense array in C order: (row, col, data) with
  // index dtype `index_dtype`.
  virtual void dense_nonzero(const Array& dense, Dtype index_dtype, Array* row, Array* col, Array* data) = 0;

  // ---- products and dense results ----
  // The dense C-contiguous matrix (n_major, n_minor), or (n_minor, n_major)
  // when `transposed`, duplicates summed.
  virtual Array todense(const Compressed& a, bool transposed) = 0;
  // Entry (i, i + k) of the matrix for every i where it exists, duplicates summed.
  virtual Array diagonal(const Compressed& a, int64_t k) = 0;
  // y = A x (or A^T x when `transposed`) for x of shape (n, p) with p >= 1,
  // C-contiguous, of a's value dtype; y has shape (rows of the product, p).
  virtual Array spmm(const Compressed& a, const Array& x, bool transposed) = 0;
  // Elementwise op of two canonical matrices of one shape; zeros dropped.
  virtual Compressed binop(const Compressed& a, const Compressed& b, BinaryOp op) = 0;

  // ---- sparse products, indexing and row reductions (sparse/indexing.h,
  // sparse/products.cpp, sparse/reductions.cpp) ----
  // Results here may hold more entries than int32 can count: their index
  // dtype is the operands' one, or int64 when the result's nnz needs it.
  //
  // a @ b (SpGEMM) for a of n_major x k and b of k x n_minor, both compressed
  // over rows; canonical result without zero entries (SciPy's drop cancelled
  // sums too).
  virtual Compressed spgemm(const Compressed& a, const Compressed& b) = 0;
  // Rows `rows` (int64, in range, any order, repeats allowed) of a, each as
  // stored.
  virtual Compressed take_major(const Compressed& a, const Array& rows) = 0;
  // Column p of the result is column cols[p] of a (int64, in range, repeats
  // allowed); entries keep their row's storage order.
  virtual Compressed take_minor(const Compressed& a, const Array& cols) = 0;
  // Entry (rows[k], cols[k]) for each k (int64, in range), duplicates summed:
  // a dense 1-d array of a's dtype.
  virtual Array gather(const Compressed& a, const Array& rows, const Array& cols) = 0;
  // a canonical with entry (rows[k], cols[k]) set to values[k] (of a's dtype)
  // for every k; the last of repeated targets wins. Missing entries are
  // inserted (zeros too, as stored entries); the result is canonical.
  virtual Compressed set_entries(const Compressed& a, const Array& rows, const Array& cols, const Array& values) = 0;
  // One value per row of canonical a over all n_minor places, implicit zeros
  // included (over the stored entries only when `explicit_only`, where a
  // row without any gives 0): the max/min (nan-propagating or nan-ignoring)
  // in a's dtype, or the int64 column of the first max/min (argmax/argmin).
  virtual Array reduce_major(const Compressed& a, RowReduce op, bool explicit_only) = 0;

  // ---- DIA and BSR formats (sparse/dia_bsr.h) ----
  // A DIA matrix is data (n_diags, L) and offsets (int64, n_diags, distinct)
  // of a rows x cols matrix; a BSR matrix is a Compressed whose data is
  // (nblocks, R, C) and whose indices are block columns.
  //
  // The CSR of a DIA matrix with index dtype `index_dtype`: explicit zeros
  // dropped, rows sorted by column (canonical).
  virtual Compressed dia_to_csr(const Array& data, const Array& offsets, int64_t rows, int64_t cols,
                                Dtype index_dtype) = 0;
  // y = A x for a DIA matrix and x (cols, p) of data's dtype; y is (rows, p).
  virtual Array dia_spmm(const Array& data, const Array& offsets, int64_t rows, int64_t cols, const Array& x) = 0;
  // y = A x for a BSR matrix (n_major block rows of R, n_minor block
  // columns of C) and x (n_minor * C, p) of data's dtype; y is (n_major * R, p).
  virtual Array bsr_spmm(const Compressed& blocks, const Array& x) = 0;
  // The CSR of a BSR matrix: every stored block entry, rows in block storage order.
  virtual Compressed bsr_to_csr(const Compressed& blocks) = 0;
  // How many R x C blocks of the CSR matrix `a` hold a stored entry.
  virtual int64_t count_blocks(const Compressed& a, int64_t r, int64_t c) = 0;
  // The BSR (data (nblocks, R, C)) of the CSR matrix `a`: blocks in order of
  // first occurrence within each block row, duplicates summed.
  virtual Compressed csr_to_bsr(const Compressed& a, int64_t r, int64_t c) = 0;

  // ---- direct solver (sparse/linalg/superlu.h's spsolve on a device) ----
  // Whether solve_qr is available: a backend of device memory whose library
  // factors sparse matrices there (cuSOLVER's sparse QR). The host solves
  // with SuperLU instead.
  virtual bool has_device_solver() const { return false; }
  // x (written, n) with A x = b for a square canonical CSR A with 32-bit
  // indices and b (n) of A's dtype, contiguous, on the backend's device, by
  // a sparse QR factorization with `tol` as its singularity threshold.
  // Returns -1, or the first row where A was found singular (x is then not
  // a solution).
  virtual int64_t solve_qr(const Compressed& a, const Array& b, double tol, const Array& x);
};

// The backend for arrays on `device`: the host backend for host arrays (or
// the portable one, see sparse/portable_sparse.h), cuSPARSE's from the CUDA
// plugin for CUDA arrays. A device without one raises DeviceError naming
// the call.
SparseBackend& sparse_backend(const Device& device, const char* call);
// The host's backend.
SparseBackend& host_sparse_backend();

}  // namespace sparse
}  // namespace kumo
