// kumo::random::Generator: NumPy's Generator methods as transforms of cuRAND
// words. The kernel sources here are the only definition of these
// transforms: Python's kumo.random calls these methods (and puts the math
// preambles in front of its other distribution kernels), so C++ and Python
// draw the same numbers for the same seed.
#include "random/generator.h"

#include <mutex>
#include <vector>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "core/errors.h"
#include "kernels/elementwise.h"
#include "kernels/spec.h"
#include "routines/elementwise.h"
#include "routines/interop.h"

namespace kumo {
namespace random {

// ---- kernel sources -------------------------------------------------------

namespace {

// Math with one rounding sequence on every compiler: every multiply-add is an
// explicit fma, so no compiler can contract differently; the remaining
// operations (+, *, /, sqrt, frexp, ldexp, rint) are exactly rounded in IEEE,
// and the host libm and CUDA's math library may differ in the last bit.
const char kMathPreamble[] = R"KUMO(
#ifndef KUMO_RNG_MATH_DEFINED
#define KUMO_RNG_MATH_DEFINED
// Without trapping math GCC may if-convert the selects below, so the
// transforms vectorize (as for the exp ufunc; no complex selects here).
#if !defined(__CUDACC_RTC__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif
// Integer-to-double conversions that AVX2 can vectorize (it has no packed
// 64-bit integer conversion): OR the integer into the mantissa of 2^52 and
// subtract 2^52. Exact, so the results are those of a plain cast.
KUMO_FN double kumo_rng_small_u64_to_double(unsigned long long x) {  // x < 2^52
  return kumo::detail::u2d(0x4330000000000000ull | x) - 4503599627370496.0;
}
KUMO_FN double kumo_rng_u54_to_double(unsigned long long x) {  // x <= 2^53
  const double hi = kumo_rng_small_u64_to_double(x >> 26);
  const double lo = kumo_rng_small_u64_to_double(x & 0x3FFFFFFull);
  return fma(hi, 67108864.0, lo);  // exact: the sum is representable
}
// log(x) for x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s), s = (m-1)/(m+1).
KUMO_FN double kumo_rng_log(double x) {
  // frexp by bit manipulation (it vectorizes; the libm call does not).
  double scale_e = 0.0;
  if (x < 2.2250738585072014e-308) { x = x * 18014398509481984.0; scale_e = -54.0; }  // subnormal: times 2^54
  const uint64_t bits = kumo::detail::d2u(x);
  double e = kumo_rng_small_u64_to_double(bits >> 52) - 1022.0 + scale_e;
  double m = kumo::detail::u2d((bits & 0x000FFFFFFFFFFFFFull) | 0x3FE0000000000000ull);  // in [0.5, 1)
  if (m < 0.70710678118654752440) { m = m * 2.0; e = e - 1.0; }
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double s2 = s * s;
  double p = 1.0 / 23.0;
  p = fma(p, s2, 1.0 / 21.0); p = fma(p, s2, 1.0 / 19.0); p = fma(p, s2, 1.0 / 17.0);
  p = fma(p, s2, 1.0 / 15.0); p = fma(p, s2, 1.0 / 13.0); p = fma(p, s2, 1.0 / 11.0);
  p = fma(p, s2, 1.0 / 9.0); p = fma(p, s2, 1.0 / 7.0); p = fma(p, s2, 1.0 / 5.0);
  p = fma(p, s2, 1.0 / 3.0);
  const double t = 2.0 * s;
  const double logm = fma(t * s2, p, t);
  return fma(e, 0.69314718055994530942, logm);
}
// cos and sin of 2*pi*t for t in [0, 1]; the quadrant comes from t exactly.
KUMO_FN void kumo_rng_sincos_turn(double t, double* sn, double* cs) {
  const double v = t * 4.0;
  const double q = rint(v);
  const double a = (v - q) * 1.57079632679489661923;
  const double a2 = a * a;
  double ps = -1.0 / 121645100408832000.0;                  // -1/19!
  ps = fma(ps, a2, 1.0 / 355687428096000.0);                // 1/17!
  ps = fma(ps, a2, -1.0 / 1307674368000.0);
  ps = fma(ps, a2, 1.0 / 6227020800.0);
  ps = fma(ps, a2, -1.0 / 39916800.0);
  ps = fma(ps, a2, 1.0 / 362880.0);
  ps = fma(ps, a2, -1.0 / 5040.0);
  ps = fma(ps, a2, 1.0 / 120.0);
  ps = fma(ps, a2, -1.0 / 6.0);
  const double s = fma(a * a2, ps, a);
  double pc = -1.0 / 6402373705728000.0;                    // -1/18!
  pc = fma(pc, a2, 1.0 / 20922789888000.0);
  pc = fma(pc, a2, -1.0 / 87178291200.0);
  pc = fma(pc, a2, 1.0 / 479001600.0);
  pc = fma(pc, a2, -1.0 / 3628800.0);
  pc = fma(pc, a2, 1.0 / 40320.0);
  pc = fma(pc, a2, -1.0 / 720.0);
  pc = fma(pc, a2, 1.0 / 24.0);
  pc = fma(pc, a2, -0.5);
  const double c = fma(a2, pc, 1.0);
  // Quadrant q in {0, 1, 2, 3, 4} (4 is 0 again), kept in double so the
  // selects vectorize.
  const bool odd = (q == 1.0) || (q == 3.0);
  const double c1 = odd ? s : c;
  const double s1 = odd ? c : s;
  *cs = (q == 1.0 || q == 2.0) ? -c1 : c1;
  *sn = (q == 2.0 || q == 3.0) ? -s1 : s1;
}
// exp(x): x = k ln2 + r, |r| <= ln2/2, Taylor to r^13.
KUMO_FN double kumo_rng_exp(double x) {
  if (x != x) return x;
  if (x > 709.8) return ldexp(1.0, 2000);
  if (x < -745.2) return 0.0;
  const double k = rint(x * 1.44269504088896340736);
  double r = fma(-k, 6.93147180369123816490e-01, x);
  r = fma(-k, 1.90821492927058770002e-10, r);
  double p = 1.0 / 6227020800.0;
  p = fma(p, r, 1.0 / 479001600.0); p = fma(p, r, 1.0 / 39916800.0); p = fma(p, r, 1.0 / 3628800.0);
  p = fma(p, r, 1.0 / 362880.0); p = fma(p, r, 1.0 / 40320.0); p = fma(p, r, 1.0 / 5040.0);
  p = fma(p, r, 1.0 / 720.0); p = fma(p, r, 1.0 / 120.0); p = fma(p, r, 1.0 / 24.0);
  p = fma(p, r, 1.0 / 6.0); p = fma(p, r, 0.5); p = fma(p, r, 1.0); p = fma(p, r, 1.0);
  return ldexp(p, (int)k);
}
KUMO_FN unsigned long long kumo_rng_u64(const unsigned int hi, const unsigned int lo) {
  return ((unsigned long long)hi << 32) | (unsigned long long)lo;
}
#endif
)KUMO";

// cuRAND's bulk generators fill arrays with a fixed number of values per
// element, which suits inversion and Box-Muller but not rejection. For
// those, each call draws one 64-bit key from the cuRAND stream (so the seed
// still decides everything) and element i runs Philox4x32-10 (Salmon et al.,
// SC'11) on the counter (i, draw number) under that key.
const char kPhiloxPreamble[] = R"KUMO(
#ifndef KUMO_PHILOX_DEFINED
#define KUMO_PHILOX_DEFINED
struct KumoPhilox {
  unsigned int key0, key1;
  unsigned int ctr0, ctr1, ctr2, ctr3;
  unsigned int out[4];
  int used;
};

KUMO_FN unsigned int kumo_mulhi32_(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a * b) >> 32);
}

KUMO_INL void kumo_philox_block_(KumoPhilox& r) {
  unsigned int c0 = r.ctr0, c1 = r.ctr1, c2 = r.ctr2, c3 = r.ctr3;
  unsigned int k0 = r.key0, k1 = r.key1;
  for (int round = 0; round < 10; ++round) {
    const unsigned int hi0 = kumo_mulhi32_(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const unsigned int hi1 = kumo_mulhi32_(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  r.out[0] = c0; r.out[1] = c1; r.out[2] = c2; r.out[3] = c3;
  r.used = 0;
  if (++r.ctr2 == 0) ++r.ctr3;  // the draw counter; ctr0/ctr1 hold the element index
}

// Element `index` of a call keyed by `key` gets its own stream.
KUMO_INL void kumo_philox_init(KumoPhilox& r, unsigned long long key, unsigned long long index) {
  r.key0 = (unsigned int)key; r.key1 = (unsigned int)(key >> 32);
  r.ctr0 = (unsigned int)index; r.ctr1 = (unsigned int)(index >> 32);
  r.ctr2 = 0; r.ctr3 = 0;
  r.used = 4;
}

KUMO_INL unsigned int kumo_philox_u32(KumoPhilox& r) {
  if (r.used == 4) kumo_philox_block_(r);
  return r.out[r.used++];
}

KUMO_INL unsigned long long kumo_philox_u64(KumoPhilox& r) {
  const unsigned long long hi = kumo_philox_u32(r);
  return (hi << 32) | kumo_philox_u32(r);
}

// Uniform on the open interval (0, 1): 53 random bits, centred in their cell.
KUMO_INL double kumo_philox_uniform(KumoPhilox& r) {
  return ((double)(kumo_philox_u64(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

KUMO_INL float kumo_philox_uniformf(KumoPhilox& r) {
  return ((float)(kumo_philox_u32(r) >> 8) + 0.5f) * (1.0f / 16777216.0f);
}

// Standard normal by the Marsaglia polar method (one value per call; the
// partner is discarded so every call consumes a whole number of pairs).
KUMO_INL double kumo_philox_normal(KumoPhilox& r) {
  double u, v, s;
  do {
    u = 2.0 * kumo_philox_uniform(r) - 1.0;
    v = 2.0 * kumo_philox_uniform(r) - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  return u * sqrt(-2.0 * log(s) / s);
}
#endif
)KUMO";

// Uniform integers on [0, rmax] from an element's Philox stream.
const char kBoundedPreamble[] = R"KUMO(
// 64 x 64 -> 128-bit product from 32-bit limbs (same code on both targets).
KUMO_FN void kumo_rng_mul64wide(unsigned long long a, unsigned long long b, unsigned long long* hi,
                                unsigned long long* lo) {
  const unsigned long long a0 = a & 0xFFFFFFFFull, a1 = a >> 32, b0 = b & 0xFFFFFFFFull, b1 = b >> 32;
  const unsigned long long p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const unsigned long long mid = (p00 >> 32) + (p01 & 0xFFFFFFFFull) + (p10 & 0xFFFFFFFFull);
  *lo = (mid << 32) | (p00 & 0xFFFFFFFFull);
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
// Uniform on [0, rmax] without bias: Lemire's multiply-shift with rejection
// (redraws come from the element's own Philox stream).
KUMO_INL unsigned long long kumo_rng_bounded(KumoPhilox& r, unsigned long long rmax) {
  if (rmax == 0ull) return 0ull;
  if (rmax == 0xFFFFFFFFFFFFFFFFull) return kumo_philox_u64(r);
  if (rmax == 0xFFFFFFFFull) return (unsigned long long)kumo_philox_u32(r);
  if (rmax < 0xFFFFFFFFull) {
    const unsigned int s = (unsigned int)(rmax + 1ull);
    unsigned long long m = (unsigned long long)kumo_philox_u32(r) * s;
    unsigned int l = (unsigned int)m;
    if (l < s) {
      const unsigned int t = (0u - s) % s;
      while (l < t) { m = (unsigned long long)kumo_philox_u32(r) * s; l = (unsigned int)m; }
    }
    return m >> 32;
  }
  const unsigned long long s = rmax + 1ull;
  unsigned long long hi, lo;
  kumo_rng_mul64wide(kumo_philox_u64(r), s, &hi, &lo);
  if (lo < s) {
    const unsigned long long t = (0ull - s) % s;
    while (lo < t) kumo_rng_mul64wide(kumo_philox_u64(r), s, &hi, &lo);
  }
  return hi;
}
)KUMO";

}  // namespace

const std::string& rng_math_preamble() {
  static const std::string s(kMathPreamble);
  return s;
}

const std::string& philox_preamble() {
  static const std::string s(kPhiloxPreamble);
  return s;
}

namespace {

using kernels::ElementwiseSpec;

// One spec per transform, created on first use and kept for the program.
// The names and sources are those the Python package used before the
// transforms moved here, so kernels already in the disk cache stay valid.
const ElementwiseSpec& transform(const char* name, const char* in, const char* out, const char* op,
                                 const std::string& extra_preamble = std::string()) {
  // Kept in a registry that is never destroyed (kernels may run during the
  // static destruction of other objects) but stays reachable, so leak
  // checkers see no leak.
  static auto* registry = new std::vector<std::shared_ptr<ElementwiseSpec>>();
  static std::mutex mu;
  auto spec = ElementwiseSpec::create(std::string("kumo_random_") + name, in, out, op,
                                      rng_math_preamble() + extra_preamble);
  std::lock_guard<std::mutex> lock(mu);
  registry->push_back(spec);
  return *spec;
}

// Words are consumed in stream order; a float64 draw reads two consecutive
// words as one little-endian uint64 (the words' uint64 view).
const ElementwiseSpec& u01_f64() {
  static const ElementwiseSpec& s = transform("u01_f64", "uint64 b", "float64 y", "y = (double)(b >> 11) * 0x1p-53");
  return s;
}
const ElementwiseSpec& u01_f32() {
  static const ElementwiseSpec& s = transform("u01_f32", "uint32 w", "float32 y", "y = (float)(w >> 8) * 0x1p-24f");
  return s;
}
const ElementwiseSpec& upos_f64() {
  static const ElementwiseSpec& s =
      transform("upos_f64", "uint64 b", "float64 y", "y = (double)((b >> 11) + 1) * 0x1p-53");
  return s;
}
const ElementwiseSpec& upos_f32() {
  static const ElementwiseSpec& s =
      transform("upos_f32", "uint32 w", "float32 y", "y = (float)((w >> 8) + 1) * 0x1p-24f");
  return s;
}
// One Box-Muller pair per element: (y0, y1) = r (cos, sin)(2 pi u2).
const ElementwiseSpec& normal_f64() {
  static const ElementwiseSpec& s = transform("normal_f64", "uint64 a, uint64 b", "float64 y0, float64 y1", R"KUMO(
        const double u1 = kumo_rng_u54_to_double((a >> 11) + 1) * 0x1p-53;
        const double u2 = kumo_rng_u54_to_double(b >> 11) * 0x1p-53;
        const double r = sqrt(-2.0 * kumo_rng_log(u1));
        double s, c;
        kumo_rng_sincos_turn(u2, &s, &c);
        y0 = r * c;
        y1 = r * s;)KUMO");
  return s;
}
const ElementwiseSpec& normal_f32() {
  static const ElementwiseSpec& s = transform("normal_f32", "uint32 a, uint32 b", "float32 y0, float32 y1", R"KUMO(
        const double u1 = (kumo_rng_small_u64_to_double(a) + 1.0) * 0x1p-32;
        const double u2 = kumo_rng_small_u64_to_double(b) * 0x1p-32;
        const double r = sqrt(-2.0 * kumo_rng_log(u1));
        double s, c;
        kumo_rng_sincos_turn(u2, &s, &c);
        y0 = (float)(r * c);
        y1 = (float)(r * s);)KUMO");
  return s;
}
// y = lo + a uniform draw on [0, rmax], from element i's Philox stream.
const ElementwiseSpec& bounded_int() {
  static const ElementwiseSpec& s =
      transform("bounded_int", "uint64 lo, uint64 rmax, raw uint64 key", "T y",
                "KumoPhilox r; kumo_philox_init(r, key[0], i); y = (T)(lo + kumo_rng_bounded(r, rmax));",
                philox_preamble() + kBoundedPreamble);
  return s;
}

void launch(const ElementwiseSpec& spec, const std::vector<Array>& ins, const std::vector<Array>& outs) {
  kernels::call_elementwise(spec, ins, outs);
}

void check_float_dtype(Dtype dtype, const char* method) {
  if (dtype != Dtype::kFloat64 && dtype != Dtype::kFloat32)
    throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for " + method);
}

void check_size(const Shape& size) {
  for (int64_t d : size)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
}

// NumPy's Generator result shape: the parameters' broadcast shape, or `size`,
// which the parameters must broadcast to.
Shape output_shape(const std::optional<Shape>& size, const std::vector<Shape>& params) {
  if (!size) return broadcast_shapes(params);
  check_size(*size);
  if (std::all_of(params.begin(), params.end(), [](const Shape& s) { return s.empty(); })) return *size;
  std::vector<Shape> all{*size};
  all.insert(all.end(), params.begin(), params.end());
  const Shape b = broadcast_shapes(all);
  if (b != *size)
    throw ValueError("Output size " + size->to_string() + " is not compatible with broadcast dimensions of inputs " +
                     b.to_string() + ".");
  return *size;
}

// A float parameter array as NumPy's Generator converts it: float64 under
// the 'safe' casting rule, on the generator's device.
Array float_param(const Array& p, Device& device) {
  if (&p.device() != &device)
    throw DeviceError("parameter is on device " + p.device().name() + " but the generator draws on " + device.name());
  if (p.dtype() == Dtype::kFloat64) return p;
  if (!can_cast(p.dtype(), Dtype::kFloat64, Casting::kSafe))
    throw TypeError(std::string("Cannot cast ") + (p.ndim() == 0 ? "scalar" : "array data") + " from " +
                    dtype_repr(p.dtype()) + " to dtype('float64') according to the rule 'safe'");
  return p.astype(Dtype::kFloat64);
}

bool any_true(const Array& mask) {
  if (mask.size() == 0) return false;
  const std::vector<bool> v = mask.to_vector<bool>();
  return std::find(v.begin(), v.end(), true) != v.end();
}

using int128 = __int128;

// An integer dtype's range (bool: [0, 1]).
void integer_range(Dtype dtype, int128* vmin, int128* vmax) {
  switch (dtype) {
    case Dtype::kBool: *vmin = 0; *vmax = 1; return;
    case Dtype::kInt8: *vmin = INT8_MIN; *vmax = INT8_MAX; return;
    case Dtype::kInt16: *vmin = INT16_MIN; *vmax = INT16_MAX; return;
    case Dtype::kInt32: *vmin = INT32_MIN; *vmax = INT32_MAX; return;
    case Dtype::kInt64: *vmin = INT64_MIN; *vmax = INT64_MAX; return;
    case Dtype::kUInt8: *vmin = 0; *vmax = UINT8_MAX; return;
    case Dtype::kUInt16: *vmin = 0; *vmax = UINT16_MAX; return;
    case Dtype::kUInt32: *vmin = 0; *vmax = UINT32_MAX; return;
    case Dtype::kUInt64: *vmin = 0; *vmax = static_cast<int128>(UINT64_MAX); return;
    default: break;
  }
  throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for integers");
}

int128 scalar_int(const Scalar& s, const char* what) {
  const kernels::ScalarValue& v = s.value();
  switch (s.kind()) {
    case WeakScalar::kBool: return v.b ? 1 : 0;
    case WeakScalar::kInt:
      // (Python ints beyond 64 bits are rejected by the Python layer first.)
      if (v.huge) throw OverflowError(std::string(what) + " does not fit in 64 bits");
      return v.is_uint ? static_cast<int128>(v.u) : static_cast<int128>(v.i);
    default: break;
  }
  throw TypeError(std::string("Unsupported value for ") + what + ": integers are required");
}

// Values of an integer (or bool) array, widened so every bound check is exact.
std::vector<int128> int_values(const Array& a, const char* what) {
  std::vector<int128> out;
  if (a.dtype() == Dtype::kBool || (is_integer(a.dtype()) && kind(a.dtype()) == DtypeKind::kSigned)) {
    for (int64_t v : a.to_vector<int64_t>()) out.push_back(v);
  } else if (is_integer(a.dtype())) {
    for (uint64_t v : a.to_vector<uint64_t>()) out.push_back(static_cast<int128>(v));
  } else {
    throw TypeError(std::string("Unsupported dtype for ") + what + ": integers are required");
  }
  return out;
}

}  // namespace

// ---- BitGenerator -----------------------------------------------------------

BitGenerator::BitGenerator(RandomKind kind, uint64_t seed, uint64_t offset, Device& device)
    : kind_(kind), device_(device), gen_(random_backend().create_generator(kind, seed, offset, device)) {}

uint64_t BitGenerator::seed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return gen_->seed();
}

uint64_t BitGenerator::offset() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return gen_->offset();
}

BitGeneratorState BitGenerator::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  // XORWOW's live state drifts from its offset's; re-syncing here makes
  // "save, draw, restore, draw" replay exactly.
  gen_->sync_to_offset();
  return BitGeneratorState{kind_, gen_->seed(), gen_->offset()};
}

void BitGenerator::set_state(const BitGeneratorState& state) {
  if (state.kind != kind_)
    throw ValueError(std::string("state must be for a ") + random_kind_name(kind_) + " generator, not " +
                     random_kind_name(state.kind));
  // Created before taking the lock: seeding MRG32k3a on the host takes ~1 s.
  auto fresh = random_backend().create_generator(kind_, state.seed, state.offset, device_);
  std::lock_guard<std::mutex> lock(mutex_);
  gen_ = std::move(fresh);
}

void BitGenerator::fill_words(const Array& out) {
  if (out.dtype() != Dtype::kUInt32)
    throw TypeError(std::string("random words need a uint32 array, not ") + dtype_name(out.dtype()));
  if (!out.c_contiguous() || !out.writeable()) throw ValueError("random words need a writeable C-contiguous array");
  if (&out.device() != &device_)
    throw DeviceError("the output array is on " + out.device().name() + " but the generator serves " + device_.name());
  if (out.size() == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  gen_->generate_u32(reinterpret_cast<uint32_t*>(out.data()), static_cast<size_t>(out.size()));
}

void BitGenerator::fill_poisson(const Array& out, double lam) {
  if (out.dtype() != Dtype::kUInt32)
    throw TypeError(std::string("Poisson variates need a uint32 array, not ") + dtype_name(out.dtype()));
  if (!out.c_contiguous() || !out.writeable()) throw ValueError("Poisson variates need a writeable C-contiguous array");
  if (&out.device() != &device_)
    throw DeviceError("the output array is on " + out.device().name() + " but the generator serves " + device_.name());
  if (out.size() == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  gen_->generate_poisson(reinterpret_cast<uint32_t*>(out.data()), static_cast<size_t>(out.size()), lam);
}

Array BitGenerator::words(int64_t n) {
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  Array w = Array::empty(Shape{n}, Dtype::kUInt32, device_);
  fill_words(w);
  return w;
}

uint64_t BitGenerator::next_key() {
  const std::vector<uint32_t> w = words(2).to_vector<uint32_t>();
  return (static_cast<uint64_t>(w[0]) << 32) | w[1];
}

// ---- Generator --------------------------------------------------------------

Generator::Generator(uint64_t seed, RandomKind kind, Device& device)
    : bits_(std::make_shared<BitGenerator>(kind, seed, 0, device)) {}

Generator::Generator(std::shared_ptr<BitGenerator> bit_generator) : bits_(std::move(bit_generator)) {
  if (!bits_) throw ValueError("Generator needs a bit generator");
}

namespace {

// Uniform floats: one word per float32, two (one uint64) per float64.
Array uniform_fill(BitGenerator& bits, const Shape& size, Dtype dtype, const ElementwiseSpec& f64,
                   const ElementwiseSpec& f32) {
  check_size(size);
  Array out = Array::empty(size, dtype, bits.device());
  if (out.size() == 0) return out;
  if (dtype == Dtype::kFloat64) {
    Array w = bits.words(2 * out.size()).view_as(Dtype::kUInt64).reshape(size);
    launch(f64, {w}, {out});
  } else {
    launch(f32, {bits.words(out.size()).reshape(size)}, {out});
  }
  return out;
}

Array slice0(const Array& a, int64_t start, int64_t stop) {
  return a.index({IndexItem::slice(start, stop, 1)});
}

}  // namespace

Array Generator::random(const Shape& size, Dtype dtype) {
  check_float_dtype(dtype, "random");
  return uniform_fill(*bits_, size, dtype, u01_f64(), u01_f32());
}

Array Generator::random_positive(const Shape& size, Dtype dtype) {
  check_float_dtype(dtype, "random");
  return uniform_fill(*bits_, size, dtype, upos_f64(), upos_f32());
}

Array Generator::standard_normal(const Shape& size, Dtype dtype) {
  check_float_dtype(dtype, "standard_normal");
  check_size(size);
  const int64_t n = shape_size(size);
  if (n == 0) return Array::empty(size, dtype, device());
  // An odd count draws a whole last pair and drops its second value, so the
  // stream position is the same as for the next even count.
  const int64_t pairs = (n + 1) / 2;
  Array buf = Array::empty(Shape{2 * pairs}, dtype, device());
  Array w = dtype == Dtype::kFloat64 ? bits_->words(4 * pairs).view_as(Dtype::kUInt64) : bits_->words(2 * pairs);
  // Contiguous halves keep the kernel on its fast path: pair j takes draws j
  // and pairs + j and writes outputs j and pairs + j.
  launch(dtype == Dtype::kFloat64 ? normal_f64() : normal_f32(), {slice0(w, 0, pairs), slice0(w, pairs, 2 * pairs)},
         {slice0(buf, 0, pairs), slice0(buf, pairs, 2 * pairs)});
  return (n == 2 * pairs ? buf : slice0(buf, 0, n)).reshape(size);
}

Array Generator::uniform(double low, double high, const Shape& size) {
  const double range = high - low;
  if (!std::isfinite(range)) throw OverflowError("high - low range exceeds valid bounds");
  Array u = random(size);
  return kumo::add(low, kumo::multiply(u, range));
}

Array Generator::uniform(const Array& low, const Array& high, const std::optional<Shape>& size) {
  Array lo = float_param(low, device()), hi = float_param(high, device());
  const Shape shape = output_shape(size, {lo.shape(), hi.shape()});
  Array range = kumo::subtract(hi, lo);
  if (any_true(kumo::logical_not(kumo::isfinite(range)))) throw OverflowError("high - low range exceeds valid bounds");
  Array u = random(shape);
  return kumo::add(lo, kumo::multiply(u, range));
}

Array Generator::normal(double loc, double scale, const Shape& size) {
  // NumPy tests the sign bit: -0.0 fails, NaN passes.
  if (!std::isnan(scale) && std::signbit(scale)) throw ValueError("scale < 0");
  Array z = standard_normal(size);
  return kumo::add(loc, kumo::multiply(scale, z));
}

Array Generator::normal(const Array& loc, const Array& scale, const std::optional<Shape>& size) {
  Array m = float_param(loc, device()), s = float_param(scale, device());
  if (s.size() != 0 && any_true(kumo::logical_and(kumo::logical_not(kumo::isnan(s)), kumo::signbit(s)))) throw ValueError("scale < 0");
  const Shape shape = output_shape(size, {m.shape(), s.shape()});
  Array z = standard_normal(shape);
  return kumo::add(m, kumo::multiply(s, z));
}

namespace {

Array launch_bounded(BitGenerator& bits, const Array& lo, const Array& rmax, const Shape& shape, Dtype dtype) {
  Array out = Array::empty(shape, dtype, bits.device());
  if (out.size() == 0) return out;
  const Array key = scalar_array<uint64_t>(bits.next_key(), bits.device());
  launch(bounded_int(), {lo, rmax, key}, {out});
  return out;
}

}  // namespace

Array Generator::integers(Scalar low, Scalar high, const Shape& size, Dtype dtype, bool endpoint) {
  int128 vmin, vmax;
  integer_range(dtype, &vmin, &vmax);
  check_size(size);
  const int128 lo = scalar_int(low, "low");
  const int128 hi = scalar_int(high, "high") - (endpoint ? 0 : 1);
  const std::string name = dtype == Dtype::kBool ? "bool" : dtype_name(dtype);
  if (lo < vmin) throw ValueError("low is out of bounds for " + name);
  if (hi > vmax) throw ValueError("high is out of bounds for " + name);
  if (lo > hi) throw ValueError(endpoint ? "low > high" : "low >= high");
  // Two's complement words: lo + draw wraps to the right value of every dtype.
  const Array lo_a = scalar_array<uint64_t>(static_cast<uint64_t>(lo), device());
  const Array rmax_a = scalar_array<uint64_t>(static_cast<uint64_t>(hi - lo), device());
  return launch_bounded(*bits_, lo_a, rmax_a, size, dtype);
}

Array Generator::integers(const Array& low, const Array& high, const std::optional<Shape>& size, Dtype dtype,
                          bool endpoint) {
  int128 vmin, vmax;
  integer_range(dtype, &vmin, &vmax);
  const std::string name = dtype == Dtype::kBool ? "bool" : dtype_name(dtype);
  const std::vector<int128> lo_v = int_values(low, "low/high"), hi_v = int_values(high, "low/high");
  if (!lo_v.empty() && *std::min_element(lo_v.begin(), lo_v.end()) < vmin)
    throw ValueError("low is out of bounds for " + name);
  if (!hi_v.empty() && *std::max_element(hi_v.begin(), hi_v.end()) - (endpoint ? 0 : 1) > vmax)
    throw ValueError("high is out of bounds for " + name);
  const Shape bshape = broadcast_shapes({low.shape(), high.shape()});
  const std::vector<int128> lo_b = int_values(low.broadcast_to(bshape), "low/high");
  const std::vector<int128> hi_b = int_values(high.broadcast_to(bshape), "low/high");
  std::vector<uint64_t> lo_w(lo_b.size()), rmax_w(lo_b.size());
  for (size_t i = 0; i < lo_b.size(); ++i) {
    const int128 h = hi_b[i] - (endpoint ? 0 : 1);
    if (lo_b[i] > h) throw ValueError(endpoint ? "low > high" : "low >= high");
    lo_w[i] = static_cast<uint64_t>(lo_b[i]);
    rmax_w[i] = static_cast<uint64_t>(h - lo_b[i]);
  }
  Shape shape = bshape;
  if (size) {
    check_size(*size);
    if (broadcast_shapes({*size, bshape}) != *size)
      throw ValueError("shape mismatch: objects cannot be broadcast to a single shape.");
    shape = *size;
  }
  const Array lo_a = asarray(lo_w, bshape, device()).broadcast_to(shape);
  const Array rmax_a = asarray(rmax_w, bshape, device()).broadcast_to(shape);
  return launch_bounded(*bits_, lo_a, rmax_a, shape, dtype);
}

std::vector<int64_t> Generator::permutation_indices(int64_t n) {
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  if (n == 0) return {};
  // The stable argsort of uniform 64-bit keys: uniform over permutations up
  // to key ties (probability ~n^2/2^65), and computed on the host so every
  // device gives the same permutation from the same words.
  const std::vector<uint64_t> keys = bits_->words(2 * n).view_as(Dtype::kUInt64).to_vector<uint64_t>();
  std::vector<int64_t> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
  return idx;
}

Array Generator::permutation(int64_t n) { return asarray(permutation_indices(n), device()); }

Array Generator::permutation(const Array& x, int64_t axis) {
  if (x.ndim() == 0) throw AxisError("axis 0 is out of bounds for array of dimension 0");
  const int ax = normalize_axis(axis, x.ndim());
  if (&x.device() != &device())
    throw DeviceError("x is on device " + x.device().name() + " but the generator draws on " + device().name());
  // Rows of the permuted axis are moved as bytes, which serves every dtype.
  const Array moved = ax == 0 ? x : x.swapaxes(0, ax);
  const std::vector<int64_t> perm = permutation_indices(moved.shape()[0]);
  std::vector<char> src(static_cast<size_t>(moved.nbytes())), dst(src.size());
  if (!src.empty()) moved.copy_to_host_buffer(src.data());
  const size_t row = moved.shape()[0] == 0 ? 0 : src.size() / static_cast<size_t>(moved.shape()[0]);
  for (size_t j = 0; j < perm.size(); ++j)
    std::memcpy(dst.data() + j * row, src.data() + static_cast<size_t>(perm[j]) * row, row);
  Array out = Array::empty(moved.shape(), x.dtype(), device());
  if (!dst.empty()) device().copy_from_host(out.data(), dst.data(), dst.size());
  return ax == 0 ? out : out.swapaxes(0, ax).copy(Order::kC);
}

Generator default_rng(uint64_t seed) { return Generator(seed); }

Generator default_rng() {
  std::random_device entropy;
  const uint64_t seed = (static_cast<uint64_t>(entropy()) << 32) | entropy();
  return Generator(seed);
}

}  // namespace random
}  // namespace kumo
