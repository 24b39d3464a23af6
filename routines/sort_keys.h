// Order-preserving unsigned keys and the host radix sort behind
// routines/sorting.cpp.
//
// Every real dtype maps to an unsigned integer of its width whose plain
// integer order is NumPy's order of the values: signed integers flip the sign
// bit, floats flip every bit of negatives and the sign bit of the others,
// -0.0 maps to +0.0's key and every NaN to the largest key. Sorting the keys
// then needs no comparisons, so a least-significant-digit radix sort can do
// it: a few linear passes that run at memory speed and split over the host
// threads, where comparison sorts pay a branch per comparison.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <type_traits>
#include <vector>

#include "core/host/thread_pool.h"

#ifdef KUMO_HAVE_VQSORT
#include <hwy/contrib/sort/vqsort.h>
#endif

// The key transforms also run in the CUDA plugin's sort kernels
// (routines/cuda/), compiled by nvcc: there they are device functions too.
#ifdef __CUDACC__
#define KUMO_SORT_KEY_FN __host__ __device__
#else
#define KUMO_SORT_KEY_FN
#endif

namespace kumo {
namespace sort_detail {

enum class KeyKind { kUnsigned, kSigned, kFloat };

// Key transform for values stored as the unsigned integer U.
template <class U, KeyKind K>
struct Keys {
  using Bits = U;
  static constexpr U kSign = U(U(1) << (sizeof(U) * 8 - 1));
  static constexpr U kMax = U(~U(0));
  // Exponent all ones (the bits below the sign that inf and NaN share).
  static constexpr U kExpMask = sizeof(U) == 2 ? U(0x7C00) : sizeof(U) == 4 ? U(0x7F800000u) : U(0x7FF0000000000000ull);
  static constexpr U kQuietNan = sizeof(U) == 2   ? U(0x7E00)
                                 : sizeof(U) == 4 ? U(0x7FC00000u)
                                                  : U(0x7FF8000000000000ull);

  // Only floats have NaNs: an integer's bits (-2 is all ones but the last)
  // may look like one.
  KUMO_SORT_KEY_FN static bool is_nan(U b) {
    return K == KeyKind::kFloat && (b & kExpMask) == kExpMask && (b & U(~kSign) & U(~kExpMask)) != 0;
  }

  KUMO_SORT_KEY_FN static U key(U b) {
    if constexpr (K == KeyKind::kUnsigned) {
      return b;
    } else if constexpr (K == KeyKind::kSigned) {
      return U(b ^ kSign);
    } else {
      if (is_nan(b)) return kMax;
      if (b == kSign) b = 0;  // -0.0 sorts with +0.0
      return (b & kSign) ? U(~b) : U(b | kSign);
    }
  }
  KUMO_SORT_KEY_FN static U value(U k) {
    if constexpr (K == KeyKind::kUnsigned) {
      return k;
    } else if constexpr (K == KeyKind::kSigned) {
      return U(k ^ kSign);
    } else {
      if (k == kMax) return kQuietNan;
      return (k & kSign) ? U(k & ~kSign) : U(~k);
    }
  }
  // Whether value(key(b)) gives b back (not for -0.0 or unusual NaNs).
  KUMO_SORT_KEY_FN static bool round_trips(U b) {
    if constexpr (K != KeyKind::kFloat) {
      return true;
    } else {
      return b != kSign && (!is_nan(b) || b == kQuietNan);
    }
  }
};

// Radix digits are bytes: 256 counters per digit stay in L1 and each scatter
// pass writes to only 256 places at a time.
constexpr int kRadixBits = 8;
constexpr int kBuckets = 1 << kRadixBits;
// Below this length a comparison sort wins over the radix passes' setup.
constexpr int64_t kRadixMin = 256;
// Per-thread share below which one thread sorts alone.
constexpr int64_t kParallelGrain = 1 << 16;

// Sorts keys[0, n) (with idx, when not null, permuted alongside; idx starts as
// 0..n-1 when init_idx) by LSD radix. ktmp and itmp are scratch buffers of n
// elements. `threads` > 1 splits each pass over the host pool.
template <class U, class I>
void radix_sort(U* keys, U* ktmp, I* idx, I* itmp, int64_t n, bool init_idx, int threads) {
  constexpr int kDigits = sizeof(U);
  const int p = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(threads, n / kParallelGrain)));
  const auto chunk_begin = [n, p](int t) { return n * t / p; };
  using Counts = std::vector<int64_t>;  // [digit][bucket]
  std::vector<Counts> counts(p, Counts(kDigits * kBuckets, 0));
  const auto run = [p](const std::function<void(int)>& fn) {
    if (p == 1) {
      fn(0);
    } else {
      parallel_for(p, 1, [&fn](int64_t b, int64_t e) {
        for (int64_t t = b; t < e; ++t) fn(static_cast<int>(t));
      });
    }
  };
  // One read of the data counts every digit, to find the passes that can be
  // skipped (all keys share that digit).
  run([&](int t) {
    int64_t* c = counts[t].data();
    for (int64_t i = chunk_begin(t), e = chunk_begin(t + 1); i < e; ++i) {
      U k = keys[i];
      for (int d = 0; d < kDigits; ++d) ++c[d * kBuckets + ((k >> (d * kRadixBits)) & (kBuckets - 1))];
    }
  });
  std::vector<int> passes;
  for (int d = 0; d < kDigits; ++d) {
    bool trivial = false;
    for (int b = 0; b < kBuckets && !trivial; ++b) {
      int64_t total = 0;
      for (int t = 0; t < p; ++t) total += counts[t][d * kBuckets + b];
      trivial = total == n;
    }
    if (!trivial) passes.push_back(d);
  }
  if (init_idx && idx && passes.empty()) std::iota(idx, idx + n, I(0));

  U* src = keys;
  U* dst = ktmp;
  I* isrc = idx;
  I* idst = itmp;
  bool first = true;
  for (int d : passes) {
    const int shift = d * kRadixBits;
    // Counts of this digit per thread chunk of the current order (the first
    // pass reuses those of the original order).
    if (!first) {
      run([&](int t) {
        int64_t* c = counts[t].data() + d * kBuckets;
        std::fill(c, c + kBuckets, 0);
        for (int64_t i = chunk_begin(t), e = chunk_begin(t + 1); i < e; ++i) ++c[(src[i] >> shift) & (kBuckets - 1)];
      });
    }
    // Thread t writes bucket b after every element of smaller buckets and
    // after bucket b's elements from threads before it: the pass stays stable.
    std::vector<Counts> offsets(p, Counts(kBuckets));
    int64_t pos = 0;
    for (int b = 0; b < kBuckets; ++b) {
      for (int t = 0; t < p; ++t) {
        offsets[t][b] = pos;
        pos += counts[t][d * kBuckets + b];
      }
    }
    const bool fresh_idx = first && init_idx;
    run([&](int t) {
      int64_t* off = offsets[t].data();
      const int64_t b = chunk_begin(t), e = chunk_begin(t + 1);
      if (!idx) {
        for (int64_t i = b; i < e; ++i) {
          const U k = src[i];
          dst[off[(k >> shift) & (kBuckets - 1)]++] = k;
        }
      } else {
        for (int64_t i = b; i < e; ++i) {
          const U k = src[i];
          const int64_t o = off[(k >> shift) & (kBuckets - 1)]++;
          dst[o] = k;
          idst[o] = fresh_idx ? I(i) : isrc[i];
        }
      }
    });
    std::swap(src, dst);
    std::swap(isrc, idst);
    first = false;
  }
  if (src != keys) {
    run([&](int t) {
      const int64_t b = chunk_begin(t), e = chunk_begin(t + 1);
      std::memcpy(keys + b, src + b, (e - b) * sizeof(U));
      if (idx) std::memcpy(idx + b, isrc + b, (e - b) * sizeof(I));
    });
  }
}

// Number of elements of a (sorted, na long) among the first k of its stable
// merge with b (sorted, nb long): the smallest i whose a[i] no earlier
// element of b passes, found by bisection. Every k can so be placed without
// merging what comes before it, which lets threads merge disjoint output
// ranges of the same two runs.
template <class U>
int64_t co_rank(const U* a, int64_t na, const U* b, int64_t nb, int64_t k) {
  int64_t lo = std::max<int64_t>(0, k - nb), hi = std::min<int64_t>(k, na);
  while (lo < hi) {
    const int64_t i = lo + (hi - lo) / 2;
    if (b[k - i - 1] < a[i]) {
      hi = i;
    } else {
      lo = i + 1;
    }
  }
  return lo;
}

// Writes f(x) for the elements [k0, k1) of the stable merge of a and b to
// out[k0, k1). The loop takes one element per step without a branch on the
// data (random keys would mispredict half of them).
template <class U, class F>
void merge_range(const U* a, int64_t na, const U* b, int64_t nb, int64_t k0, int64_t k1, U* out, F f) {
  int64_t i = co_rank(a, na, b, nb, k0), j = k0 - i;
  const int64_t ie = co_rank(a, na, b, nb, k1), je = k1 - ie;
  U* o = out + k0;
  while (i < ie && j < je) {
    const U x = a[i], y = b[j];
    const bool take_b = y < x;
    *o++ = f(take_b ? y : x);
    i += !take_b;
    j += take_b;
  }
  while (i < ie) *o++ = f(a[i++]);
  while (j < je) *o++ = f(b[j++]);
}

// Per-thread share below which splitting a sort into merged runs does not pay.
constexpr int64_t kMergeSortGrain = int64_t(1) << 17;

// Number of runs (a power of two, at most `threads`) that sort_runs_and_merge
// splits n keys into; 1 means sorting on one thread is better.
inline int merge_sort_runs(int64_t n, int threads) {
  int p = 1;
  while (2 * p <= threads && 2 * p * kMergeSortGrain <= n) p *= 2;
  return p;
}

// Sorts n keys on p threads (p a power of two, >= 2): thread t fills run t,
// keys[n*t/p, n*(t+1)/p), with fill(begin, end) and sorts it with
// sort_run(begin_ptr, length) (vqsort in routines/sorting.cpp); then runs
// are merged pairwise in log2(p) rounds, each split evenly over the p
// threads by co-ranking. The last round writes value(key) to out, so the
// key-to-value pass costs no extra read. tmp holds n keys (used when p > 2).
template <class U, class Fill, class SortRun, class Value>
void sort_runs_and_merge(U* keys, U* tmp, U* out, int64_t n, int p, Fill fill, SortRun sort_run, Value value) {
  std::vector<int64_t> bounds(p + 1);
  for (int t = 0; t <= p; ++t) bounds[t] = n * t / p;
  parallel_for(p, 1, [&](int64_t tb, int64_t te) {
    for (int64_t t = tb; t < te; ++t) {
      fill(bounds[t], bounds[t + 1]);
      sort_run(keys + bounds[t], bounds[t + 1] - bounds[t]);
    }
  });
  U* src = keys;
  U* dst = tmp;
  for (int runs = p; runs > 1; runs /= 2) {
    const int per_pair = p / (runs / 2);  // threads merging each pair of runs
    const bool last = runs == 2;
    U* target = last ? out : dst;
    parallel_for(p, 1, [&](int64_t tb, int64_t te) {
      for (int64_t t = tb; t < te; ++t) {
        const int64_t pair = t / per_pair, part = t % per_pair;
        const int64_t lo = bounds[2 * pair], mid = bounds[2 * pair + 1], hi = bounds[2 * pair + 2];
        const int64_t k0 = (hi - lo) * part / per_pair, k1 = (hi - lo) * (part + 1) / per_pair;
        if (last) {
          merge_range(src + lo, mid - lo, src + mid, hi - mid, k0, k1, target + lo, value);
        } else {
          merge_range(src + lo, mid - lo, src + mid, hi - mid, k0, k1, target + lo, [](U k) { return k; });
        }
      }
    });
    std::vector<int64_t> merged;
    for (size_t i = 0; i < bounds.size(); i += 2) merged.push_back(bounds[i]);
    bounds.swap(merged);
    std::swap(src, dst);
  }
}

#ifdef KUMO_HAVE_VQSORT
// Highway's vectorized quicksort (vqsort) on one thread: it sorts keys of 2,
// 4 and 8 bytes faster than the radix passes (10^7 float32: 85-100 ms against
// 122 ms for the radix sort on two threads), which are bound
// by memory traffic (a read and a scattered write of the whole array per
// byte of key). One-byte keys stay with the radix sort (a counting sort).
template <class U>
constexpr bool kSimdSortable = sizeof(U) >= 2;

template <class U>
void simd_sort(U* keys, int64_t n) {
  static thread_local hwy::Sorter sorter;
  sorter(keys, static_cast<size_t>(n), hwy::SortAscending());
}

#endif

// Sorts one row of keys in place: std::sort for short rows, else vqsort when
// available and the radix sort otherwise. vqsort runs on one thread: sorting
// two halves side by side and merging them took twice as long on this
// 2-core machine (201-237 ms against 84-136 ms for 10^7 uint32 keys).
// Keys of one or two bytes take few values: counted, then written back in
// order, in place (no scratch row, one read and one write pass).
template <class U>
void counting_sort_keys(U* keys, int64_t n) {
  static_assert(sizeof(U) <= 2, "counting sort is for one- and two-byte keys");
  std::vector<int64_t> count(size_t(1) << (8 * sizeof(U)), 0);
  for (int64_t i = 0; i < n; ++i) ++count[keys[i]];
  U* out = keys;
  for (size_t v = 0; v < count.size(); ++v) out = std::fill_n(out, count[v], static_cast<U>(v));
}

template <class U>
void sort_keys(U* keys, int64_t n, int threads, std::vector<U>& scratch) {
  if (n < kRadixMin) {
    std::sort(keys, keys + n);
    return;
  }
  if constexpr (sizeof(U) == 1) {
    counting_sort_keys(keys, n);
    return;
  } else if constexpr (sizeof(U) == 2) {
    if (n >= (int64_t(1) << 16)) {  // shorter rows: the 64K counters cost more than the sort
      counting_sort_keys(keys, n);
      return;
    }
  }
#ifdef KUMO_HAVE_VQSORT
  if constexpr (kSimdSortable<U>) {
    simd_sort(keys, n);
    return;
  }
#endif
  scratch.resize(n);
  radix_sort<U, uint32_t>(keys, scratch.data(), nullptr, nullptr, n, false, threads);
}

// Stable argsort of one row of keys: keys end sorted, idx holds their
// original positions.
template <class U, class I>
void argsort_keys(U* keys, I* idx, int64_t n, int threads, std::vector<U>& kscratch, std::vector<I>& iscratch) {
  if (n < kRadixMin) {
    std::vector<std::pair<U, I>> pairs(n);
    for (int64_t i = 0; i < n; ++i) pairs[i] = {keys[i], I(i)};
    std::sort(pairs.begin(), pairs.end());  // ties broken by position: stable
    for (int64_t i = 0; i < n; ++i) {
      keys[i] = pairs[i].first;
      idx[i] = pairs[i].second;
    }
    return;
  }
  kscratch.resize(n);
  iscratch.resize(n);
  radix_sort<U, I>(keys, kscratch.data(), idx, iscratch.data(), n, true, threads);
}

}  // namespace sort_detail
}  // namespace kumo
