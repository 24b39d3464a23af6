#include "autograd/functions/embed.h"

#include <string>

#include "autograd/functions/basic_math.h"
#include "autograd/functions/indexing.h"
#include "core/errors.h"
#include "routines/elementwise.h"
#include "routines/manipulation.h"

namespace kumo {
namespace autograd {

Variable embed_id(const Array& x, const Variable& W, std::optional<int64_t> ignore_label) {
  if (!is_integer(x.dtype())) throw TypeError("embed_id: x must hold integer ids, got " + dtype_repr(x.dtype()));
  if (!is_floating(W.dtype())) throw TypeError("embed_id: W must be floating, got " + dtype_repr(W.dtype()));
  if (W.ndim() != 2) throw ValueError("embed_id: W must be 2-d (n_vocab, n_units), got shape " + W.shape().to_string());
  if (!ignore_label) return get_item(W, {Index(x)});
  // Ignored ids look up row 0 and are then multiplied by zero, so neither the
  // value nor the gradient of that row is touched by them.
  Array ignored = kumo::equal(x, Scalar(*ignore_label));
  Array ids = kumo::where(ignored, Scalar(0), x).astype(x.dtype());
  Shape mask_shape = x.shape();
  mask_shape.push_back(1);
  Variable keep(kumo::logical_not(ignored).astype(W.dtype()).reshape(mask_shape), false);
  return get_item(W, {Index(ids)}) * keep;
}

}  // namespace autograd
}  // namespace kumo
