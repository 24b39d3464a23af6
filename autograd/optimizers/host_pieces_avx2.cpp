// The update loops built for AVX2 (CMake compiles this file with the matching
// -m flags and defines KUMO_OPT_BUILD_AVX2 on x86-64; elsewhere it is empty).
#include "autograd/optimizers/host_pieces.h"

#if defined(KUMO_OPT_BUILD_AVX2)
#define KUMO_OPT_ISA isa_avx2
#include "autograd/optimizers/host_pieces.inc"
#endif

namespace kumo {
namespace autograd {
namespace optimizers {
namespace detail {
#if defined(KUMO_OPT_BUILD_AVX2)
const HostPieceTable* host_pieces_avx2() { return isa_avx2::table("avx2"); }
#else
const HostPieceTable* host_pieces_avx2() { return nullptr; }
#endif
}  // namespace detail
}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
