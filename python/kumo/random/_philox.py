"""A per-element counter-based generator for kernels that consume a variable
number of random draws per output (rejection samplers).

cuRAND's bulk generators fill arrays with a fixed number of values per
element, which suits inversion and Box-Muller but not rejection. For those,
each call draws one 64-bit key from the cuRAND stream (so the seed still
decides everything) and element i runs Philox4x32-10 (Salmon et al., SC'11)
on the counter (i, draw number) under that key. The same source compiles for
the host and for NVRTC, so a seed gives the same samples on both backends.
"""

PHILOX_PREAMBLE = r"""
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
"""
