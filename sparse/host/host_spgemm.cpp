// Host SpGEMM: C = A @ B for A and B compressed over rows, on all cores.
//
// Gustavson's row-by-row product in one numeric pass: row i of C is the sum
// of the rows of B picked by row i of A, accumulated in a dense row of
// length n_minor per thread (a marker array says which places the current
// row has touched, so nothing is cleared between rows). The touched columns
// are sorted, so the result is canonical, and sums that cancel to zero are
// dropped, as SciPy's product drops them. Rows are split into parts of about
// equal multiply-adds (not entries: a row of A pointing at long rows of B
// costs more), which threads claim one at a time.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sparse/host/host_common.h"

namespace kumo {
namespace sparse {
namespace host_detail {

namespace {

// Rows with fewer touched columns than this are sorted with std::sort.
constexpr size_t kRadixColumns = 48;

// Sorts the columns a row touched (all below 2^bits). A row of a random
// product has about a hundred: std::sort took as long as the product itself
// there, and Highway's vqsort asks the kernel for a random seed on every
// call; a least-significant-digit radix sort, a byte a pass, costs a few
// hundred simple steps per pass instead.
template <class I>
void sort_columns(std::vector<I>& cols, std::vector<I>& scratch, int bits) {
  const size_t c = cols.size();
  if (c < kRadixColumns) {
    std::sort(cols.begin(), cols.end());
    return;
  }
  scratch.resize(c);
  I* src = cols.data();
  I* dst = scratch.data();
  for (int shift = 0; shift < bits; shift += 8) {
    uint32_t start[257] = {0};
    for (size_t i = 0; i < c; ++i) ++start[((static_cast<uint64_t>(src[i]) >> shift) & 0xFF) + 1];
    for (int d = 0; d < 256; ++d) start[d + 1] += start[d];
    for (size_t i = 0; i < c; ++i) dst[start[(static_cast<uint64_t>(src[i]) >> shift) & 0xFF]++] = src[i];
    std::swap(src, dst);
  }
  if (src != cols.data()) std::copy(src, src + c, cols.data());
}

// How many entries of B ahead the accumulator places are prefetched.
constexpr int64_t kAhead = 8;

// Products of at most this many multiply-adds write their rows straight
// into result arrays of that size, row r at the sum of the multiply-adds
// before it (which bound the lengths), and then close the gaps; bigger ones
// collect their rows per part first (build_rows), so memory follows the
// result rather than the work. Writing in place saves a copy of the result
// and the page faults of a second buffer as large.
constexpr int64_t kDirectMax = int64_t{1} << 26;

// Appends to raw arrays.
template <class V, class I>
struct SpanSink {
  I* idx;
  V* val;
  int64_t n = 0;
  void push(I i, V v) {
    idx[n] = i;
    val[n] = v;
    ++n;
  }
};

template <class V, class I, class MakeWorker>
Compressed write_in_place(const std::vector<int64_t>& parts, const std::vector<int64_t>& bound, const Compressed& a,
                          int64_t m, const MakeWorker& make_worker) {
  const int64_t n = a.n_major, room = bound[static_cast<size_t>(n)];
  const Dtype index_dtype = a.indices.dtype();
  Array idx_arr = alloc(room, index_dtype), val_arr = alloc(room, a.data.dtype());
  I* oi = ptr<I>(idx_arr);
  V* ov = ptr<V>(val_arr);
  std::vector<int64_t> len(static_cast<size_t>(n));
  const int64_t n_parts = static_cast<int64_t>(parts.size()) - 1;
  std::atomic<int64_t> next{0};
  const auto run = [&]() {
    auto worker = make_worker();
    for (int64_t p = next.fetch_add(1, std::memory_order_relaxed); p < n_parts;
         p = next.fetch_add(1, std::memory_order_relaxed))
      for (int64_t r = parts[p]; r < parts[p + 1]; ++r) {
        SpanSink<V, I> sink{oi + bound[static_cast<size_t>(r)], ov + bound[static_cast<size_t>(r)]};
        worker(r, sink);
        len[static_cast<size_t>(r)] = sink.n;
      }
  };
  parallel_for(std::min<int64_t>(n_parts, host_num_threads()), 1, [&](int64_t lo, int64_t hi) {
    for (int64_t t = lo; t < hi; ++t) run();
  });
  // Close the gaps, front to back (a row only ever moves towards the front,
  // past the rows already moved).
  Array ip_arr = alloc(n + 1, index_dtype);
  I* ip = ptr<I>(ip_arr);
  int64_t at = 0;
  for (int64_t r = 0; r < n; ++r) {
    ip[r] = static_cast<I>(at);
    const int64_t from = bound[static_cast<size_t>(r)], l = len[static_cast<size_t>(r)];
    if (from != at && l > 0) {
      std::memmove(oi + at, oi + from, static_cast<size_t>(l) * sizeof(I));
      std::memmove(ov + at, ov + from, static_cast<size_t>(l) * sizeof(V));
    }
    at += l;
  }
  ip[n] = static_cast<I>(at);
  if (at == room) return Compressed{val_arr, idx_arr, ip_arr, n, m};
  Array idx = idx_arr.index({slice(0, at)}), val = val_arr.index({slice(0, at)});
  // Many cancelled or merged products: give the unused room back.
  if ((room - at) * 4 > at) {
    idx = idx.copy();
    val = val.copy();
  }
  return Compressed{val, idx, ip_arr, n, m};
}

template <class V, class I>
Compressed spgemm_typed(const Compressed& a, const Compressed& b) {
  const I* ap = ptr<I>(a.indptr);
  const I* ai = ptr<I>(a.indices);
  const V* ad = ptr<V>(a.data);
  const I* bp = ptr<I>(b.indptr);
  const I* bi = ptr<I>(b.indices);
  const V* bd = ptr<V>(b.data);
  const int64_t n = a.n_major, m = b.n_minor;
  // Multiply-adds of each row, as a running sum for row_parts (which adds
  // the row count, so empty rows still weigh a little).
  std::vector<int64_t> work(static_cast<size_t>(n + 1), 0);
  parallel_for(n, kGrain / 8, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t w = 0;
      for (int64_t k = ap[r]; k < ap[r + 1]; ++k) w += static_cast<int64_t>(bp[ai[k] + 1]) - bp[ai[k]];
      work[static_cast<size_t>(r + 1)] = w;
    }
  });
  for (int64_t r = 0; r < n; ++r) work[static_cast<size_t>(r + 1)] += work[static_cast<size_t>(r)];
  using Acc = typename Buffer<V>::value_type;
  const int64_t a_nnz = ap[n], b_nnz = bp[b.n_major];
  int bits = 0;  // of the largest column, m - 1
  while (bits < 63 && (int64_t{1} << bits) < m) ++bits;
  const auto make_worker = [&]() {
    // mark[j] is the last row that touched column j (or -1), in the index
    // type (which holds every row number): half the cache footprint of
    // int64 marks, a quarter less time for int32 indices.
    return [mark = std::vector<I>(static_cast<size_t>(m), I(-1)), acc = Buffer<V>(static_cast<size_t>(m)),
            cols = std::vector<I>(), scratch = std::vector<I>(), &ap, &ai, &ad, &bp, &bi, &bd, a_nnz, b_nnz,
            bits](int64_t r, auto& sink) mutable {
      cols.clear();
      for (int64_t k = ap[r]; k < ap[r + 1]; ++k) {
        const V av = ad[k];
        const I row_b = ai[k];
        // The accesses are random: the next row of B and the accumulator
        // places a few entries ahead are fetched early, so their misses
        // overlap (about a fifth less time on random products).
        if (k + 1 < a_nnz) {
          const int64_t next = bp[ai[k + 1]];
          __builtin_prefetch(bi + next);
          __builtin_prefetch(bd + next);
        }
        for (int64_t q = bp[row_b]; q < bp[row_b + 1]; ++q) {
          if (q + kAhead < b_nnz) {
            __builtin_prefetch(mark.data() + bi[q + kAhead]);
            __builtin_prefetch(acc.data() + bi[q + kAhead]);
          }
          const I j = bi[q];
          const V prod = mul(av, bd[q]);
          if (mark[static_cast<size_t>(j)] != static_cast<I>(r)) {
            mark[static_cast<size_t>(j)] = static_cast<I>(r);
            acc[static_cast<size_t>(j)] = static_cast<Acc>(prod);
            cols.push_back(j);
          } else {
            acc[static_cast<size_t>(j)] = static_cast<Acc>(add(static_cast<V>(acc[static_cast<size_t>(j)]), prod));
          }
        }
      }
      sort_columns(cols, scratch, bits);
      for (const I j : cols) {
        const V v = static_cast<V>(acc[static_cast<size_t>(j)]);
        if (v != V(0)) sink.push(j, v);
      }
    };
  };
  const std::vector<int64_t> parts = row_parts(work.data(), n);
  // A row's multiply-adds bound its length.
  if (work[static_cast<size_t>(n)] <= kDirectMax) return write_in_place<V, I>(parts, work, a, m, make_worker);
  return build_rows<V, I>(parts, n, m, a.data.dtype(), a.indices.dtype(), make_worker, work.data());
}

}  // namespace

Compressed host_spgemm(const Compressed& a, const Compressed& b) {
  return typed(a, [&](auto tv, auto ti) {
    return spgemm_typed<typename decltype(tv)::type, typename decltype(ti)::type>(a, b);
  });
}

}  // namespace host_detail
}  // namespace sparse
}  // namespace kumo
