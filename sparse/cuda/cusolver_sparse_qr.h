// spsolve on CUDA arrays: cuSOLVER's sparse QR (csrlsvqr), which factors
// and solves on the device. cuSOLVER marks its sparse API deprecated in
// favour of cuDSS; the toolkit this project builds with does not ship cuDSS,
// and csrlsvqr is the device solver it has.
#pragma once
#include <cstdint>

#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {

// x with A x = b, see SparseBackend::solve_qr.
int64_t cusolver_csr_qr_solve(const Compressed& a, const Array& b, double tol, const Array& x);

}  // namespace sparse
}  // namespace kumo
