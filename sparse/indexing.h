// Indexing of CSR and CSC matrices (scipy.sparse's A[rows, cols] and
// A[rows, cols] = values): rows and columns by slice or integer array, on
// either axis of either format, single entries, and assignment.
//
// Index arrays may be of any integer dtype; negative entries count from the
// end, and an entry outside the axis is an IndexError naming the call.
// Selections copy (no result shares arrays with its argument). The result
// of selecting keeps the argument's storage order within each row/column
// (duplicates and explicit zeros included), as SciPy's.
#pragma once
#include <cstdint>
#include <string>

#include "core/array.h"
#include "sparse/sparse.h"

namespace kumo {
namespace sparse {

// int64 positions along an axis of `extent` for an integer array (any
// shape, kept), negatives wrapped; IndexError when one is out of range.
Array axis_positions(const Array& index, int64_t extent, const std::string& call);
// The positions a Python slice (IndexItem::slice) selects along an axis of
// `extent`, as int64.
Array slice_positions(const IndexItem& slice, int64_t extent);

// Rows rows[0], rows[1], ... (1-d integer array) of a, and the columns.
CsrMatrix take_rows(const CsrMatrix& a, const Array& rows);
CscMatrix take_rows(const CscMatrix& a, const Array& rows);
CsrMatrix take_cols(const CsrMatrix& a, const Array& cols);
CscMatrix take_cols(const CscMatrix& a, const Array& cols);

// a[rows, cols] for two slices (IndexItem::slice, any step).
CsrMatrix slice(const CsrMatrix& a, const IndexItem& rows, const IndexItem& cols);
CscMatrix slice(const CscMatrix& a, const IndexItem& rows, const IndexItem& cols);

// The entries at (rows, cols), integer arrays broadcast together, as a dense
// array of their broadcast shape (duplicates summed, zeros where nothing is
// stored).
Array get_entries(const CsrMatrix& a, const Array& rows, const Array& cols);
Array get_entries(const CscMatrix& a, const Array& rows, const Array& cols);

// a with the entries at (rows, cols) set to values (rows, cols and values
// broadcast together; values cast to a's dtype). The last of repeated
// targets wins. Missing entries are inserted, zeros included; the result is
// canonical.
CsrMatrix set_entries(const CsrMatrix& a, const Array& rows, const Array& cols, const Array& values);
CscMatrix set_entries(const CscMatrix& a, const Array& rows, const Array& cols, const Array& values);

}  // namespace sparse
}  // namespace kumo
