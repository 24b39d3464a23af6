#pragma once
// The dtype -> key transform dispatch of routines/sort_keys.h, shared by the
// host sorts (routines/sorting.cpp) and the CUDA plugin's CUB sorts
// (routines/cuda/cub_sort_backend.cpp): f(sort_detail::Keys<U, kind>{}) with
// U the unsigned integer of the dtype's width. bool sorts as uint8 and
// float16 by its bits; complex dtypes sort as two real keys and are not
// taken here.
#include <string>

#include "core/dtype.h"
#include "core/errors.h"
#include "routines/sort_keys.h"

namespace kumo {
namespace sort_detail {

// The KeyKind of a Keys<U, K> type.
template <class KeysType>
struct KeyKindOf;
template <class U, KeyKind K>
struct KeyKindOf<Keys<U, K>> {
  static constexpr KeyKind value = K;
};

// An unsupported dtype is a TypeError "<prefix>no key transform for dtype X".
template <class F>
decltype(auto) visit_sort_keys(Dtype d, const char* prefix, F&& f) {
  switch (d) {
    case Dtype::kBool:
    case Dtype::kUInt8: return f(Keys<uint8_t, KeyKind::kUnsigned>{});
    case Dtype::kInt8: return f(Keys<uint8_t, KeyKind::kSigned>{});
    case Dtype::kUInt16: return f(Keys<uint16_t, KeyKind::kUnsigned>{});
    case Dtype::kInt16: return f(Keys<uint16_t, KeyKind::kSigned>{});
    case Dtype::kFloat16: return f(Keys<uint16_t, KeyKind::kFloat>{});
    case Dtype::kUInt32: return f(Keys<uint32_t, KeyKind::kUnsigned>{});
    case Dtype::kInt32: return f(Keys<uint32_t, KeyKind::kSigned>{});
    case Dtype::kFloat32: return f(Keys<uint32_t, KeyKind::kFloat>{});
    case Dtype::kUInt64: return f(Keys<uint64_t, KeyKind::kUnsigned>{});
    case Dtype::kInt64: return f(Keys<uint64_t, KeyKind::kSigned>{});
    case Dtype::kFloat64: return f(Keys<uint64_t, KeyKind::kFloat>{});
    default: break;
  }
  throw TypeError(std::string(prefix) + "no key transform for dtype " + dtype_name(d));
}

}  // namespace sort_detail
}  // namespace kumo
