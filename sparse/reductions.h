// Reductions of CSR and CSC matrices that count the implicit zeros, as
// scipy.sparse's max/min/nanmax/nanmin/argmax/argmin: over the whole matrix
// (axis nullopt) or along an axis (0: one result per column, 1: one per
// row). A matrix (or reduced axis) of size zero is a ValueError, as NumPy's
// reductions without identity. Complex values compare as NumPy's (by real
// part, then imaginary part).
#pragma once
#include <optional>

#include "core/array.h"
#include "sparse/sparse.h"
#include "sparse/sparse_backend.h"

namespace kumo {
namespace sparse {

// max/min/nanmax/nanmin give a's dtype (a 0-d array for axis nullopt);
// argmax/argmin give int64 positions (for axis nullopt, the C-order flat
// index), the first of equal values.
// With `explicit_only` only the stored entries (duplicates summed) compete,
// as SciPy's explicit=True: a row or column without any gives 0, and a
// matrix without any gives 0 (max/min) or a ValueError (argmax/argmin)
// for axis nullopt.
Array reduce(const CsrMatrix& a, RowReduce op, std::optional<int> axis = std::nullopt, bool explicit_only = false);
Array reduce(const CscMatrix& a, RowReduce op, std::optional<int> axis = std::nullopt, bool explicit_only = false);
Array reduce(const CooMatrix& a, RowReduce op, std::optional<int> axis = std::nullopt, bool explicit_only = false);

}  // namespace sparse
}  // namespace kumo
