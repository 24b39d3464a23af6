// The innermost loops of the fused optimizer update on the host, built once
// per instruction set. libkumo is compiled for the baseline of its
// architecture (SSE2 on x86-64) so it runs everywhere; an update is
// arithmetic-bound while its operands sit in cache, where AVX2 + FMA or
// AVX-512 doubles or quadruples the lanes. The table for the best set the CPU
// supports is picked once at run time.
#pragma once
#include <cstdint>

#include "autograd/optimizers/formulas.h"

namespace kumo {
namespace autograd {
namespace optimizers {

// Updates n consecutive elements: parameter, gradient and up to three states
// (null when the rule has fewer), with the rule's scalars k.
template <typename T>
using HostPieceFn = void (*)(T* p, T* g, T* s0, T* s1, T* s2, int64_t n, const double* k);

// One loop per (rule, number of states) and element type.
struct HostPieceTable {
  const char* isa;  // "baseline", "avx2" or "avx512"
  HostPieceFn<float> f32[KUMO_OPT_NUM_RULES][4];
  HostPieceFn<double> f64[KUMO_OPT_NUM_RULES][4];
};

// The table for the best instruction set this CPU supports.
const HostPieceTable& host_piece_table();

namespace detail {
// Each exists when it was built (x86-64 with GCC or Clang for the wider ones)
// and is null otherwise; the caller checks the CPU before using one.
const HostPieceTable* host_pieces_baseline();
const HostPieceTable* host_pieces_avx2();
const HostPieceTable* host_pieces_avx512();
}  // namespace detail

}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
