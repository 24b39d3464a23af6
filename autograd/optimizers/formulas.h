// The update formulas of every fused optimizer rule and gradient hook,
// written once. The host engine expands KUMO_OPT_FORMULAS as C++ templates;
// the CUDA engine stringifies the same expansion into its NVRTC source, so the
// two backends cannot drift apart.
//
// Each formula updates one element: p (parameter), g (gradient) and up to
// three state elements s0..s2, with the rule's scalars in k[] (computed once
// per step on the host, see multi_tensor.cpp for each rule's layout). The
// arithmetic runs in the parameter's type T (float32 or float64).
#pragma once

#define KUMO_OPT_FORMULAS(DEV)                                                                                 \
  template <typename T>                                                                                        \
  DEV inline T kumo_opt_min(T a, T b) {                                                                        \
    return b < a ? b : a;                                                                                      \
  }                                                                                                            \
  template <typename T>                                                                                        \
  DEV inline T kumo_opt_max(T a, T b) {                                                                        \
    return a < b ? b : a;                                                                                      \
  }                                                                                                            \
  /* 0 SGD: k = {lr} */                                                                                        \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule0(T& p, T& g, T&, T&, T&, const double* k) {                                    \
    p -= T(k[0]) * g;                                                                                          \
  }                                                                                                            \
  /* 1 MomentumSGD: k = {lr, momentum}; s0 = v */                                                              \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule1(T& p, T& g, T& v, T&, T&, const double* k) {                                  \
    v = T(k[1]) * v - T(k[0]) * g;                                                                             \
    p += v;                                                                                                    \
  }                                                                                                            \
  /* 2 NesterovAG: k = {lr, momentum}; s0 = v */                                                               \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule2(T& p, T& g, T& v, T&, T&, const double* k) {                                  \
    const T lr = T(k[0]), mu = T(k[1]);                                                                        \
    v = v * mu - lr * g;                                                                                       \
    p += mu * mu * v - (T(1) + mu) * lr * g;                                                                   \
  }                                                                                                            \
  /* 3 Adam: k = {alpha_t, 1-beta1, 1-beta2, eps, eta, weight_decay_rate, amsgrad, adabound, lower, upper}; */ \
  /*   s0 = m, s1 = v, s2 = vhat (amsgrad) */                                                                  \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule3(T& p, T& g, T& m, T& v, T& vhat, const double* k) {                           \
    m += T(k[1]) * (g - m);                                                                                    \
    v += T(k[2]) * (g * g - v);                                                                                \
    /* Branch-free, so the host loop vectorises: without amsgrad s2 is a */                                    \
    /* scratch value and the select keeps v; without adabound, step. */                                        \
    const T vmax = kumo_opt_max(vhat, v);                                                                      \
    vhat = vmax;                                                                                               \
    const T vv = k[6] != 0 ? vmax : v;                                                                         \
    const T raw = T(k[0]) / (sqrt(vv) + T(k[3]));                                                              \
    const T clipped = kumo_opt_min(kumo_opt_max(raw, T(k[8])), T(k[9]));                                       \
    const T step = k[7] != 0 ? clipped : raw;                                                                  \
    p -= T(k[4]) * (step * m + T(k[5]) * p);                                                                   \
  }                                                                                                            \
  /* 4 AdaGrad: k = {lr, eps}; s0 = h */                                                                       \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule4(T& p, T& g, T& h, T&, T&, const double* k) {                                  \
    h += g * g;                                                                                                \
    p -= T(k[0]) * g / (sqrt(h) + T(k[1]));                                                                    \
  }                                                                                                            \
  /* 5 AdaDelta: k = {rho, eps}; s0 = msg, s1 = msdx */                                                        \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule5(T& p, T& g, T& msg, T& msdx, T&, const double* k) {                           \
    const T one_minus_rho = T(1 - k[0]), eps = T(k[1]);                                                        \
    msg += one_minus_rho * (g * g - msg);                                                                      \
    const T dx = sqrt((msdx + eps) / (msg + eps)) * g;                                                         \
    msdx += one_minus_rho * (dx * dx - msdx);                                                                  \
    p -= dx;                                                                                                   \
  }                                                                                                            \
  /* 6 RMSprop: k = {lr, alpha, eps, eps_inside_sqrt}; s0 = ms */                                              \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule6(T& p, T& g, T& ms, T&, T&, const double* k) {                                 \
    const T alpha = T(k[1]), eps = T(k[2]);                                                                    \
    ms = alpha * ms + (T(1) - alpha) * g * g;                                                                  \
    const T denom = k[3] != 0 ? sqrt(ms + eps) : sqrt(ms) + eps;                                               \
    p -= T(k[0]) * g / denom;                                                                                  \
  }                                                                                                            \
  /* 7 RMSpropGraves: k = {lr, alpha, momentum, eps}; s0 = n, s1 = g, s2 = delta */                            \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule7(T& p, T& g, T& n, T& ga, T& delta, const double* k) {                         \
    const T alpha = T(k[1]);                                                                                   \
    n = alpha * n + (T(1) - alpha) * g * g;                                                                    \
    ga = alpha * ga + (T(1) - alpha) * g;                                                                      \
    delta = delta * T(k[2]) - T(k[0]) * g / sqrt(n - ga * ga + T(k[3]));                                       \
    p += delta;                                                                                                \
  }                                                                                                            \
  /* 8 SMORMS3: k = {lr, eps}; s0 = mem, s1 = g, s2 = g2 */                                                    \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule8(T& p, T& g, T& mem, T& ga, T& g2, const double* k) {                          \
    const T lr = T(k[0]), eps = T(k[1]);                                                                       \
    const T r = T(1) / (mem + T(1));                                                                           \
    ga = (T(1) - r) * ga + r * g;                                                                              \
    g2 = (T(1) - r) * g2 + r * g * g;                                                                          \
    const T x = ga * ga / (g2 + eps);                                                                          \
    p -= g * kumo_opt_min(lr, x) / (sqrt(g2) + eps);                                                           \
    mem = T(1) + mem * (T(1) - x);                                                                             \
  }                                                                                                            \
  /* 9 CorrectedMomentumSGD: k = {lr, momentum}; s0 = v */                                                     \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule9(T& p, T& g, T& v, T&, T&, const double* k) {                                  \
    v = T(k[1]) * v - g;                                                                                       \
    p += T(k[0]) * v;                                                                                          \
  }                                                                                                            \
  /* 10 MSVAG: k = {lr, 1-beta, eta, weight_decay_rate, beta_power, rho}; s0 = m, s1 = v */                    \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule10(T& p, T& g, T& m, T& v, T&, const double* k) {                               \
    const T omb = T(k[1]), bp = T(k[4]), rho = T(k[5]);                                                        \
    m += omb * (g - m);                                                                                        \
    v += omb * (g * g - v);                                                                                    \
    const T mt = m / (T(1) - bp);                                                                              \
    const T vt = v / (T(1) - bp);                                                                              \
    const T mt2 = mt * mt;                                                                                     \
    const T s = (vt - mt2) / (T(1) - rho);                                                                     \
    T factor = mt2 / (mt2 + rho * s);                                                                          \
    /* NaN (0/0) fails both comparisons and becomes 0, as Chainer's isnan fix-up does */                       \
    factor = factor > T(0) ? (factor < T(1) ? factor : T(1)) : T(0);                                           \
    p -= T(k[2]) * (T(k[0]) * mt * factor + T(k[3]) * p);                                                      \
  }                                                                                                            \
  /* 11 WeightDecay hook: k = {rate}: g += rate * p */                                                         \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule11(T& p, T& g, T&, T&, T&, const double* k) {                                   \
    g += T(k[0]) * p;                                                                                          \
  }                                                                                                            \
  /* 12 Lasso hook: k = {rate}: g += rate * sign(p) */                                                         \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule12(T& p, T& g, T&, T&, T&, const double* k) {                                   \
    const T sign = p > T(0) ? T(1) : (p < T(0) ? T(-1) : T(0));                                                \
    g += T(k[0]) * sign;                                                                                       \
  }                                                                                                            \
  /* 13 GradientHardClipping hook: k = {lower, upper} */                                                       \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule13(T&, T& g, T&, T&, T&, const double* k) {                                     \
    g = kumo_opt_min(kumo_opt_max(g, T(k[0])), T(k[1]));                                                       \
  }                                                                                                            \
  /* 14 gradient scaling (GradientClipping, loss scaling): k = {factor} */                                     \
  template <typename T>                                                                                        \
  DEV inline void kumo_opt_rule14(T&, T& g, T&, T&, T&, const double* k) {                                     \
    g *= T(k[0]);                                                                                              \
  }

// Number of formulas above.
#define KUMO_OPT_NUM_RULES 15
