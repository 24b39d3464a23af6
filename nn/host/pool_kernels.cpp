#include "nn/host/pool_kernels.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/errors.h"
#include "core/host/thread_pool.h"

namespace kumo {
namespace host_pool {
namespace {

// Planes per pool task: enough elements that a task outweighs waking a
// worker (a few microseconds), so small poolings run on the caller.
int64_t plane_grain(const Geometry& g) {
  const int64_t per_plane = g.in[0] * g.in[1] * g.in[2] + g.o[0] * g.o[1] * g.o[2];
  return std::max<int64_t>(1, 16384 / std::max<int64_t>(1, per_plane));
}

// The outputs along the last axis whose window row lies wholly inside the
// input, [*lo, *hi): they need no bounds checks.
void interior(const Geometry& g, int64_t* lo, int64_t* hi) {
  const int64_t W = g.in[2], kw = g.k[2], sw = g.s[2], pw = g.p[2], OW = g.o[2];
  *lo = std::min<int64_t>((pw + sw - 1) / sw, OW);
  const int64_t last = W - kw + pw;  // the last window start (unpadded) that fits
  *hi = last < 0 ? 0 : std::min<int64_t>(last / sw + 1, OW);
  if (*lo > *hi) *lo = *hi;
}

// A later window position takes over when strictly greater, or when it is
// the first NaN: the first maximum wins, and a NaN wins over numbers.
template <class T>
inline bool takes_over(T v, T best) {
  return v > best || (v != v && best == best);
}

// One window position's update, written as selects so that it compiles to
// conditional moves: on real data the comparisons are coin flips, and
// branches on them cost more than the rest of the loop (measured).
template <class T>
inline void update(T v, int64_t kk, T* best, int64_t* bi) {
  const bool t = takes_over(v, *best);
  *best = t ? v : *best;
  *bi = t ? kk : *bi;
}

// The 2x2 windows of one output row, outputs [lo, hi) (all inside the
// input), from input rows r0 and r1 whose first window positions are k0
// and k1. Returns the first output it left to the general loop.
template <class T>
int64_t max_pool_2x2(const T* r0, const T* r1, int64_t k0, int64_t k1, int64_t sw, int64_t pw, int64_t lo,
                     int64_t hi, T* yr, int64_t* ir) {
  const T ninf = -std::numeric_limits<T>::infinity();
  int64_t ox = lo;
#if defined(__SSE2__)
  if constexpr (std::is_same_v<T, float>) {
    if (sw == 2) {
      // Four outputs at a time: their eight inputs per row split into the
      // left and right columns of the windows, then the scalar rule below
      // as masks, in the same window order.
      const __m128i kv0 = _mm_set1_epi32(static_cast<int32_t>(k0)), kv1 = _mm_set1_epi32(static_cast<int32_t>(k0 + 1));
      const __m128i kv2 = _mm_set1_epi32(static_cast<int32_t>(k1)), kv3 = _mm_set1_epi32(static_cast<int32_t>(k1 + 1));
      const __m128 vninf = _mm_set1_ps(ninf);
      auto step = [](__m128 v, __m128i k, __m128& best, __m128i& bi) {
        const __m128 t = _mm_or_ps(_mm_cmpgt_ps(v, best), _mm_and_ps(_mm_cmpunord_ps(v, v), _mm_cmpord_ps(best, best)));
        best = _mm_or_ps(_mm_and_ps(t, v), _mm_andnot_ps(t, best));
        const __m128i ti = _mm_castps_si128(t);
        bi = _mm_or_si128(_mm_and_si128(ti, k), _mm_andnot_si128(ti, bi));
      };
      // A row whose length is not a multiple of 4 ends with one more group
      // that overlaps the previous one (rewriting equal values), so short
      // rows (7 outputs) stay vectorised too.
      for (int64_t next = lo; next < hi && hi - lo >= 4; next = ox + 4) {
        ox = std::min(next, hi - 4);
        const int64_t j = ox * 2 - pw;
        const __m128 a0 = _mm_loadu_ps(r0 + j), a1 = _mm_loadu_ps(r0 + j + 4);
        const __m128 b0 = _mm_loadu_ps(r1 + j), b1 = _mm_loadu_ps(r1 + j + 4);
        __m128 best = _mm_shuffle_ps(a0, a1, _MM_SHUFFLE(2, 0, 2, 0));
        __m128i bi = kv0;
        step(_mm_shuffle_ps(a0, a1, _MM_SHUFFLE(3, 1, 3, 1)), kv1, best, bi);
        step(_mm_shuffle_ps(b0, b1, _MM_SHUFFLE(2, 0, 2, 0)), kv2, best, bi);
        step(_mm_shuffle_ps(b0, b1, _MM_SHUFFLE(3, 1, 3, 1)), kv3, best, bi);
        // A window of -inf keeps position 0 (nothing takes over from the
        // -inf the scalar rule starts from).
        bi = _mm_andnot_si128(_mm_castps_si128(_mm_cmpeq_ps(best, vninf)), bi);
        _mm_storeu_ps(yr + ox, best);
        const __m128i zero = _mm_setzero_si128();  // the positions are >= 0
        _mm_storeu_si128(reinterpret_cast<__m128i*>(ir + ox), _mm_unpacklo_epi32(bi, zero));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(ir + ox + 2), _mm_unpackhi_epi32(bi, zero));
      }
      if (hi - lo >= 4) ox = hi;
    }
  }
#endif
  for (; ox < hi; ++ox) {
    const int64_t j = ox * sw - pw;
    T best = r0[j];
    int64_t bi = k0;
    update(r0[j + 1], k0 + 1, &best, &bi);
    update(r1[j], k1, &best, &bi);
    update(r1[j + 1], k1 + 1, &best, &bi);
    // A window of -inf keeps position 0, as above.
    bi = best == ninf ? 0 : bi;
    yr[ox] = best;
    ir[ox] = bi;
  }
  return ox;
}

template <class T>
void max_pool_planes(const Geometry& g, int64_t p0, int64_t p1, const T* x, T* y, int64_t* idx) {
  const int64_t D = g.in[0], H = g.in[1], W = g.in[2];
  const int64_t OD = g.o[0], OH = g.o[1], OW = g.o[2];
  const int64_t KH = g.k[1], kw = g.k[2], sw = g.s[2], pw = g.p[2];
  const int64_t insz = D * H * W, O = OD * OH * OW;
  int64_t lo, hi;
  interior(g, &lo, &hi);
  // The in-bounds window rows of the current output row: the offset of
  // each input row within the plane, and the flat window position of its
  // first element.
  std::vector<int64_t> row_off, row_kk;
  row_off.reserve(static_cast<size_t>(g.k[0] * KH));
  row_kk.reserve(static_cast<size_t>(g.k[0] * KH));
  const T ninf = -std::numeric_limits<T>::infinity();
  for (int64_t plane = p0; plane < p1; ++plane) {
    const T* xp = x + plane * insz;
    T* yp = y + plane * O;
    int64_t* ip = idx + plane * O;
    for (int64_t od = 0; od < OD; ++od) {
      for (int64_t oy = 0; oy < OH; ++oy) {
        row_off.clear();
        row_kk.clear();
        for (int64_t kz = 0; kz < g.k[0]; ++kz) {
          const int64_t iz = od * g.s[0] - g.p[0] + kz;
          if (iz < 0 || iz >= D) continue;
          for (int64_t ky = 0; ky < KH; ++ky) {
            const int64_t iy = oy * g.s[1] - g.p[1] + ky;
            if (iy < 0 || iy >= H) continue;
            row_off.push_back((iz * H + iy) * W);
            row_kk.push_back((kz * KH + ky) * kw);
          }
        }
        const size_t nrows = row_off.size();
        T* yr = yp + (od * OH + oy) * OW;
        int64_t* ir = ip + (od * OH + oy) * OW;
        auto edge = [&](int64_t ox) {
          T best = ninf;
          int64_t bi = 0;
          const int64_t x0 = ox * sw - pw;
          for (size_t r = 0; r < nrows; ++r) {
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t ix = x0 + kx;
              if (ix < 0 || ix >= W) continue;
              update(xp[row_off[r] + ix], row_kk[r] + kx, &best, &bi);
            }
          }
          yr[ox] = best;
          ir[ox] = bi;
        };
        for (int64_t ox = 0; ox < lo; ++ox) edge(ox);
        int64_t ox = lo;
        if (kw == 2 && nrows == 2)
          ox = max_pool_2x2(xp + row_off[0], xp + row_off[1], row_kk[0], row_kk[1], sw, pw, lo, hi, yr, ir);
        for (; ox < hi; ++ox) {
          T best = ninf;
          int64_t bi = 0;
          const int64_t x0 = ox * sw - pw;
          for (size_t r = 0; r < nrows; ++r) {
            const T* src = xp + row_off[r] + x0;
            for (int64_t kx = 0; kx < kw; ++kx) update(src[kx], row_kk[r] + kx, &best, &bi);
          }
          yr[ox] = best;
          ir[ox] = bi;
        }
        for (; ox < OW; ++ox) edge(ox);  // ox == hi here
      }
    }
  }
}

template <class T>
void pool_scatter_planes(const Geometry& g, int64_t p0, int64_t p1, const T* v, const int64_t* idx, T* img,
                         const std::vector<int32_t>& kpos) {
  const int64_t D = g.in[0], H = g.in[1], W = g.in[2];
  const int64_t OD = g.o[0], OH = g.o[1], OW = g.o[2];
  const int64_t insz = D * H * W, O = OD * OH * OW, K = g.k[0] * g.k[1] * g.k[2];
  for (int64_t plane = p0; plane < p1; ++plane) {
    T* dst = img + plane * insz;
    std::fill(dst, dst + insz, T(0));
    const T* src = v + plane * O;
    const int64_t* ip = idx + plane * O;
    int64_t o = 0;
    for (int64_t od = 0; od < OD; ++od) {
      const int64_t z0 = od * g.s[0] - g.p[0];
      for (int64_t oy = 0; oy < OH; ++oy) {
        const int64_t y0 = oy * g.s[1] - g.p[1];
        for (int64_t ox = 0; ox < OW; ++ox, ++o) {
          const int64_t kk = ip[o];
          if (kk < 0 || kk >= K) continue;
          const int64_t iz = z0 + kpos[3 * kk], iy = y0 + kpos[3 * kk + 1], ix = ox * g.s[2] - g.p[2] + kpos[3 * kk + 2];
          if (iz < 0 || iz >= D || iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
          dst[(iz * H + iy) * W + ix] += src[o];
        }
      }
    }
  }
}

}  // namespace

bool make_geometry(const std::vector<int64_t>& in, const std::vector<int64_t>& k, const std::vector<int64_t>& s,
                   const std::vector<int64_t>& p, const std::vector<int64_t>& o, Geometry* g) {
  const size_t nd = in.size();
  if (nd < 1 || nd > 3 || k.size() != nd || s.size() != nd || p.size() != nd || o.size() != nd) return false;
  const size_t lead = 3 - nd;
  for (size_t a = 0; a < 3; ++a) {
    const bool pad = a < lead;
    g->in[a] = pad ? 1 : in[a - lead];
    g->k[a] = pad ? 1 : k[a - lead];
    g->s[a] = pad ? 1 : s[a - lead];
    g->p[a] = pad ? 0 : p[a - lead];
    g->o[a] = pad ? 1 : o[a - lead];
  }
  // The window positions are decoded from int32 tables.
  return g->k[0] * g->k[1] * g->k[2] <= std::numeric_limits<int32_t>::max() / 3;
}

bool supports(Dtype dtype) { return dtype == Dtype::kFloat32 || dtype == Dtype::kFloat64; }

void max_pool(Dtype dtype, const Geometry& g, int64_t planes, const void* x, void* y, int64_t* idx) {
  if (!supports(dtype)) throw TypeError(std::string("host_pool::max_pool: unsupported dtype ") + dtype_name(dtype));
  parallel_for(planes, plane_grain(g), [&](int64_t b, int64_t e) {
    if (dtype == Dtype::kFloat32)
      max_pool_planes(g, b, e, static_cast<const float*>(x), static_cast<float*>(y), idx);
    else
      max_pool_planes(g, b, e, static_cast<const double*>(x), static_cast<double*>(y), idx);
  });
}

void pool_scatter(Dtype dtype, const Geometry& g, int64_t planes, const void* v, const int64_t* idx, void* img) {
  if (!supports(dtype))
    throw TypeError(std::string("host_pool::pool_scatter: unsupported dtype ") + dtype_name(dtype));
  // Each flat window position's (kz, ky, kx), so the loop divides nothing.
  const int64_t K = g.k[0] * g.k[1] * g.k[2];
  std::vector<int32_t> kpos(static_cast<size_t>(3 * K));
  for (int64_t kk = 0; kk < K; ++kk) {
    kpos[3 * kk] = static_cast<int32_t>(kk / (g.k[1] * g.k[2]));
    kpos[3 * kk + 1] = static_cast<int32_t>(kk / g.k[2] % g.k[1]);
    kpos[3 * kk + 2] = static_cast<int32_t>(kk % g.k[2]);
  }
  parallel_for(planes, plane_grain(g), [&](int64_t b, int64_t e) {
    if (dtype == Dtype::kFloat32)
      pool_scatter_planes(g, b, e, static_cast<const float*>(v), idx, static_cast<float*>(img), kpos);
    else
      pool_scatter_planes(g, b, e, static_cast<const double*>(v), idx, static_cast<double*>(img), kpos);
  });
}

}  // namespace host_pool
}  // namespace kumo
