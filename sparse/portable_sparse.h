// A SparseBackend written only with kumo's array routines (sort, take,
// cumsum, scatter_add, ...), so it runs on every device those routines run
// on. It is the CUDA backend's base: cuSPARSE replaces the products there
// (sparse/cuda/cusparse_backend.cpp), and the reorderings, conversions and
// checks run as these compositions of device kernels, with nothing copied to
// the host but the few scalars a call returns.
//
// On the host it is slower than the host backend's fused loops and exists
// there for one reason: the test suite runs on machines without a GPU, and
// with KUMO_SPARSE_BACKEND=portable (or set_portable_sparse_on_host) every
// sparse test exercises the very code the CUDA backend runs.
#pragma once
#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {

class PortableSparseBackend : public SparseBackend {
 public:
  std::string name() const override { return "kumo portable sparse"; }
  std::pair<int64_t, int64_t> min_max(const Array& index) override;
  int64_t first_decrease(const Array& indptr) override;
  IndexOrder index_order(const Compressed& a) override;
  Compressed compress(const Array& major, const Array& minor, const Array& data, int64_t n_major, int64_t n_minor,
                      bool sum_duplicates, Dtype index_dtype) override;
  Compressed sort_indices(const Compressed& a) override;
  Compressed sum_duplicates(const Compressed& a) override;
  Compressed eliminate_zeros(const Compressed& a) override;
  Array expand_major(const Array& indptr, int64_t nnz) override;
  void dense_nonzero(const Array& dense, Dtype index_dtype, Array* row, Array* col, Array* data) override;
  Array todense(const Compressed& a, bool transposed) override;
  Array diagonal(const Compressed& a, int64_t k) override;
  Array spmm(const Compressed& a, const Array& x, bool transposed) override;
  Compressed binop(const Compressed& a, const Compressed& b, BinaryOp op) override;
  Compressed spgemm(const Compressed& a, const Compressed& b) override;
  Compressed take_major(const Compressed& a, const Array& rows) override;
  Compressed take_minor(const Compressed& a, const Array& cols) override;
  Array gather(const Compressed& a, const Array& rows, const Array& cols) override;
  // These two run the host backend's loops on host copies of the arrays
  // (a device's arrays go to the host and the result comes back): an
  // insertion into sorted rows and a per-row arg-reduction with SciPy's
  // tie rules have no short composition of array routines.
  Compressed set_entries(const Compressed& a, const Array& rows, const Array& cols, const Array& values) override;
  Array reduce_major(const Compressed& a, RowReduce op, bool explicit_only) override;
  Compressed dia_to_csr(const Array& data, const Array& offsets, int64_t rows, int64_t cols,
                        Dtype index_dtype) override;
  Array dia_spmm(const Array& data, const Array& offsets, int64_t rows, int64_t cols, const Array& x) override;
  Array bsr_spmm(const Compressed& blocks, const Array& x) override;
  Compressed bsr_to_csr(const Compressed& blocks) override;
  int64_t count_blocks(const Compressed& a, int64_t r, int64_t c) override;
  Compressed csr_to_bsr(const Compressed& a, int64_t r, int64_t c) override;
};

SparseBackend& portable_sparse_backend();

// Whether host arrays use the portable backend instead of the host one
// (process-wide; the default comes from KUMO_SPARSE_BACKEND=portable).
bool portable_sparse_on_host();
void set_portable_sparse_on_host(bool on);

}  // namespace sparse
}  // namespace kumo
