// The update loops for the architecture's baseline instruction set.
#define KUMO_OPT_ISA isa_baseline
#include "autograd/optimizers/host_pieces.inc"

namespace kumo {
namespace autograd {
namespace optimizers {
namespace detail {
const HostPieceTable* host_pieces_baseline() { return isa_baseline::table("baseline"); }
}  // namespace detail
}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
