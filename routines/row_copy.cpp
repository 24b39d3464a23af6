#include "routines/row_copy.h"

#include "kernels/elementwise.h"

namespace kumo {
namespace detail {

namespace {

const kernels::ElementwiseSpec& row_copy_spec() {
  // One element per row: a row's copy is a long loop of its own, so the
  // thread pool's tasks are counted in rows (host_grain 1).
  static auto spec = [] {
    auto s = kernels::ElementwiseSpec::create(
        "kumo_copy_rows", "raw T s", "raw T d",
        "const long long ncol = s.shape()[1];\n"
        "const T* __restrict__ a = reinterpret_cast<const T*>(reinterpret_cast<const char*>(s.data()) + i * "
        "s.strides()[0]);\n"
        "T* __restrict__ b = reinterpret_cast<T*>(reinterpret_cast<char*>(d.data()) + i * d.strides()[0]);\n"
        "for (long long j = 0; j < ncol; ++j) b[j] = a[j];");
    s->host_grain = 1;
    return s;
  }();
  return *spec;
}

}  // namespace

void copy_rows(const Array& src, const Array& dst) {
  const int nd = dst.ndim();
  // Short rows, or one contiguous block, are the generic copy's best case.
  const bool eligible = nd >= 2 && src.shape() == dst.shape() && src.dtype() == dst.dtype() &&
                        dst.device().type() == DeviceType::kCPU && dst.shape()[nd - 1] >= 64 &&
                        !(src.c_contiguous() && dst.c_contiguous());
  if (eligible) {
    const int64_t cols = dst.shape()[nd - 1], rows = dst.size() / cols;
    const std::optional<Array> s2 = src.reshape_view(Shape{rows, cols});
    const std::optional<Array> d2 = dst.reshape_view(Shape{rows, cols});
    if (s2 && d2 && s2->strides()[1] == src.itemsize() && d2->strides()[1] == dst.itemsize() && rows > 1) {
      kernels::call_elementwise(row_copy_spec(), {*s2}, {*d2}, {}, rows);
      return;
    }
  }
  src.copy_to(dst);
}

}  // namespace detail
}  // namespace kumo
