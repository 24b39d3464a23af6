#include "kernels/copy.h"

#include <cstring>

#include "core/errors.h"
#include "kernels/elementwise.h"

namespace kumo {
namespace kernels {

namespace {

const ElementwiseSpec& cast_spec() {
  static const std::shared_ptr<ElementwiseSpec> spec = [] {
    auto s = ElementwiseSpec::create("kumo_copy", "X x", "Y y", "y = kumo_cast<Y>(x)");
    s->reorder_axes = true;
    return s;
  }();
  return *spec;
}

}  // namespace

void copy_cast(const Array& src, const Array& dst) {
  if (src.shape() != dst.shape())
    throw ValueError("could not broadcast input array from shape " + src.shape().to_string() + " into shape " +
                     dst.shape().to_string());
  if (dst.size() == 0) return;
  dst.memory()->bump_version();
  ElementwiseSignature sig;
  sig.bindings = {{"X", src.dtype()}, {"Y", dst.dtype()}};
  sig.param_dtypes = {src.dtype(), dst.dtype()};
  sig.array_dtypes = {src.dtype(), dst.dtype()};
  // Same dtype and both contiguous in the same order: a plain memory copy.
  if (src.dtype() == dst.dtype() && &src.device() == &dst.device() &&
      ((src.c_contiguous() && dst.c_contiguous()) || (src.f_contiguous() && dst.f_contiguous())) &&
      src.strides() == dst.strides() && src.memory() != dst.memory()) {
    dst.device().copy_within(dst.data(), src.data(), static_cast<size_t>(dst.nbytes()));
    return;
  }
  launch_elementwise(cast_spec(), sig, {src, dst});
}

void fill_bytes(const Array& dst, const void* value) {
  if (dst.size() == 0) return;
  // A 0-d host array holding the value, broadcast over dst.
  Array scalar = Array::empty(Shape{}, dst.dtype(), host_device());
  std::memcpy(scalar.data(), value, static_cast<size_t>(dst.itemsize()));
  if (&dst.device() != &host_device()) scalar = scalar.to_device(dst.device());
  copy_cast(scalar.broadcast_to(dst.shape()), dst);
}

}  // namespace kernels

// Array's converting and assigning copies are declared with the value type
// in core/array.h, so that every layer can copy an array, and defined here
// beside the kernel that does the work: core itself launches no kernels.
using kernels::copy_cast;

Array Array::astype(Dtype dtype, Order order, bool copy) const {
  if (!copy && dtype == dtype_) {
    bool ok = order == Order::kK || order == Order::kA || (order == Order::kC && c_contiguous()) ||
              (order == Order::kF && f_contiguous());
    if (ok) return *this;
  }
  Array out = empty_like(*this, dtype, order);
  copy_cast(*this, out);
  return out;
}

void Array::copy_to(const Array& dst) const {
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  check_same_device({this, &dst});
  // NumPy drops leading unit axes of the value before broadcasting it.
  Array src = *this;
  while (src.ndim() > dst.ndim() && src.shape()[0] == 1) src = src.squeeze({0});
  Strides st;
  try {
    st = broadcast_strides(src.shape(), src.strides(), dst.shape());
  } catch (const ValueError&) {
    throw ValueError("could not broadcast input array from shape " + shape_.to_string() + " into shape " +
                     dst.shape().to_string());
  }
  Array b = src.view_with(dst.shape(), st);
  copy_cast(b, dst);
}

}  // namespace kumo
