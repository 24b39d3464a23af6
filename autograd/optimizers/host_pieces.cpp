// Picks the widest update loops the CPU can run; see host_pieces.h.
#include "autograd/optimizers/host_pieces.h"

#include <cstdlib>
#include <cstring>

namespace kumo {
namespace autograd {
namespace optimizers {

namespace {

bool cpu_has_avx512() {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
#else
  return false;
#endif
}

bool cpu_has_avx2() {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

const HostPieceTable* choose() {
  // KUMO_OPT_ISA=baseline|avx2 caps the choice (for comparing the builds).
  const char* cap = std::getenv("KUMO_OPT_ISA");
  const bool allow512 = !cap || std::strcmp(cap, "avx512") == 0;
  const bool allow2 = allow512 || std::strcmp(cap, "avx2") == 0;
  if (allow512 && cpu_has_avx512() && detail::host_pieces_avx512()) return detail::host_pieces_avx512();
  if (allow2 && cpu_has_avx2() && detail::host_pieces_avx2()) return detail::host_pieces_avx2();
  return detail::host_pieces_baseline();
}

}  // namespace

const HostPieceTable& host_piece_table() {
  static const HostPieceTable* const table = choose();
  return *table;
}

}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
