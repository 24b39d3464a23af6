// The sparse backend of CUDA arrays: the portable backend's reorderings and
// conversions (device kernels through kumo's routines) with the products on
// cuSPARSE's generic API.
#pragma once
#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {

SparseBackend& cusparse_sparse_backend();

}  // namespace sparse
}  // namespace kumo
