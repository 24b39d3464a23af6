// SortBackend on CUB (see cub_sort.h): dtype dispatch onto the per-width
// radix sorts. Complex values sort as a two-key LSD sort: a stable argsort
// by the imaginary part's key, then a stable pass by the real part's key.
// With NaN keys largest, that (real, imag) order is NumPy's complex order
// (NaN-free values, then NaN imaginary parts by real, then NaN real parts by
// imaginary, then both NaN).
#include <string>

#include "core/backend_registry.h"
#include "core/cuda/cuda_common.h"
#include "core/errors.h"
#include "core/memory.h"
#include "routines/cuda/cub_sort.h"
#include "routines/sort_key_dispatch.h"

namespace kumo {
namespace {

using cub_sort_detail::argsort_rows;
using cub_sort_detail::sort_rows;
using sort_detail::KeyKind;

// Calls f(Keys<U, kind>{}) for a real dtype.
template <class F>
void with_key_type(Dtype d, F&& f) {
  sort_detail::visit_sort_keys(d, "the CUDA sort has ", f);
}

void check_device(Device& device) {
  if (device.type() != DeviceType::kCUDA) {
    throw ValueError("the CUDA sort backend got an array on " + device.name());
  }
  cuda_detail::require_device(device.index());
}

class CubSortBackend final : public SortBackend {
 public:
  void sort(Device& device, Dtype dtype, const void* in, void* out, int64_t rows, int64_t n) override {
    check_device(device);
    if (rows * n == 0) return;
    if (is_complex(dtype)) {
      std::shared_ptr<Memory> idx = device.allocate(static_cast<size_t>(rows * n) * sizeof(int64_t));
      int64_t* ip = static_cast<int64_t*>(idx->data());
      argsort(device, dtype, in, ip, rows, n);
      cub_sort_detail::gather_rows(device, itemsize(dtype), in, ip, out, rows, n);
      return;
    }
    with_key_type(dtype, [&](auto kt) {
      using U = typename decltype(kt)::Bits;
      constexpr KeyKind kind = sort_detail::KeyKindOf<decltype(kt)>::value;
      sort_rows<U, kind>(device, static_cast<const U*>(in), static_cast<U*>(out), rows, n);
    });
  }

  void argsort(Device& device, Dtype dtype, const void* in, int64_t* out, int64_t rows, int64_t n) override {
    check_device(device);
    if (rows * n == 0) return;
    if (dtype == Dtype::kComplex64 || dtype == Dtype::kComplex128) {
      const auto two_passes = [&](auto bits) {
        using U = decltype(bits);
        const U* parts = static_cast<const U*>(in);
        argsort_rows<U, KeyKind::kFloat>(device, parts + 1, 2, nullptr, out, rows, n);  // imaginary parts
        argsort_rows<U, KeyKind::kFloat>(device, parts, 2, out, out, rows,
                                         n);  // real parts, stably
      };
      if (dtype == Dtype::kComplex64) {
        two_passes(uint32_t{});
      } else {
        two_passes(uint64_t{});
      }
      return;
    }
    with_key_type(dtype, [&](auto kt) {
      using U = typename decltype(kt)::Bits;
      constexpr KeyKind kind = sort_detail::KeyKindOf<decltype(kt)>::value;
      argsort_rows<U, kind>(device, static_cast<const U*>(in), 1, nullptr, out, rows, n);
    });
  }
};

}  // namespace

SortBackend& cub_sort_backend() {
  static cuda_detail::NoDestructor<CubSortBackend> backend;
  return backend.get();
}

namespace {
const BackendRegistration registration(Capability::kSort, DeviceType::kCUDA, []() -> void* { return &cub_sort_backend(); });
}  // namespace

}  // namespace kumo
