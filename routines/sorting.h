// numpy's sorting, searching and unique routines (sort, argsort, partition,
// argpartition, lexsort, searchsorted, unique).
//
// Order is NumPy's for every dtype: NaN after +inf, -0.0 equal to 0.0, and
// complex numbers by (real, imag) with the NaN-holding values last (those with
// a NaN imaginary part first, then a NaN real part, then both). argsort and
// argpartition are always stable (equal keys keep their order), which NumPy
// allows for every `kind`.
//
// Host arrays sort on the host. sort, argsort, partition and argpartition of
// CUDA arrays run on their device through the CUDA plugin's SortBackend
// (routines/sort_backend.h, CUB radix sorts; partitions are full sorts
// there); lexsort, searchsorted and unique copy CUDA arrays to the host and
// their results back.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"

namespace kumo {

// Checks numpy's `kind` / `stable` arguments ("quicksort", "mergesort",
// "heapsort", "stable", or their first letters; not both) and throws
// ValueError with NumPy's message otherwise. Every kind gives the same result
// here.
void check_sort_kind(const std::optional<std::string>& kind, std::optional<bool> stable);

// numpy.sort: a sorted copy along `axis`; std::nullopt sorts the flattened array.
Array sort(const Array& a, std::optional<int64_t> axis = -1, const std::optional<std::string>& kind = std::nullopt,
           std::optional<bool> stable = std::nullopt);
// ndarray.sort: sorts `a` itself along `axis`. A C-contiguous host array of
// integers or bools of up to four bytes sorted along its last axis is sorted
// where it lies, without the sorted copy and scratch row of sort() (a
// 2 GiB int8 array needs no more memory, as in NumPy); others are sorted
// into a copy that is written back. ValueError when `a` is read-only.
void sort_in_place(const Array& a, int64_t axis = -1, const std::optional<std::string>& kind = std::nullopt,
                   std::optional<bool> stable = std::nullopt);
// numpy.argsort (int64 indices; stable).
Array argsort(const Array& a, std::optional<int64_t> axis = -1, const std::optional<std::string>& kind = std::nullopt,
              std::optional<bool> stable = std::nullopt);
// numpy.sort_complex: sorted flattened-last-axis copy as complex64/complex128.
Array sort_complex(const Array& a);

// numpy.partition / numpy.argpartition: the element at each kth position is
// the one a full sort would put there, smaller-or-equal ones are before it and
// larger-or-equal ones after. Negative kth count from the end.
Array partition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis = -1);
Array argpartition(const Array& a, const std::vector<int64_t>& kth, std::optional<int64_t> axis = -1);

// numpy.lexsort: indices sorting by the last key, then the one before, ...
// All keys have one shape; `axis` is an axis of that shape.
Array lexsort(const std::vector<Array>& keys, int64_t axis = -1);
// lexsort composed of stable argsorts and gathers on the keys' device: what
// arrays off the host use (the host sorts index rows directly).
Array lexsort_composed(const std::vector<Array>& keys, int64_t axis = -1);

// numpy.searchsorted: for each element of v, where it goes in the 1-D sorted
// array a ("left": before equal elements, "right": after). `sorter` holds
// indices that sort a. Both are compared in their promoted dtype.
Array searchsorted(const Array& a, const Array& v, const std::string& side = "left",
                   const std::optional<Array>& sorter = std::nullopt);

// searchsorted as one generated kernel (a binary search per element) on the
// arrays' device: what CUDA arrays use. Real dtypes only.
Array searchsorted_generated(const Array& a, const Array& v, const std::string& side = "left",
                             const std::optional<Array>& sorter = std::nullopt);

// numpy.unique over the flattened array: the sorted distinct values and, when
// asked, the index of each value's first occurrence, the inverse (shaped like
// a, NumPy 2) and the counts. equal_nan merges all NaNs into one value.
struct UniqueResult {
  Array values;
  std::optional<Array> index, inverse, counts;
};
UniqueResult unique(const Array& a, bool return_index = false, bool return_inverse = false, bool return_counts = false,
                    bool equal_nan = true);
// unique composed of sort/argsort, comparisons and compaction on the array's
// device: what arrays off the host use (the host has a faster direct path).
UniqueResult unique_composed(const Array& a, bool return_index = false, bool return_inverse = false,
                             bool return_counts = false, bool equal_nan = true);

}  // namespace kumo
