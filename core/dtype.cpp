#include "core/dtype.h"

#include <string_view>
#include <unordered_map>

#include <algorithm>
#include <array>
#include <optional>

#include "core/errors.h"

namespace kumo {
namespace {

struct DtypeInfo {
  const char* name;
  const char* kernel_type;
  size_t itemsize;
  DtypeKind kind;
  char type_char;
};

constexpr std::array<DtypeInfo, kNumDtypes> kInfo = {{
    {"bool", "bool", 1, DtypeKind::kBool, '?'},
    {"int8", "int8_t", 1, DtypeKind::kSigned, 'b'},
    {"uint8", "uint8_t", 1, DtypeKind::kUnsigned, 'B'},
    {"int16", "int16_t", 2, DtypeKind::kSigned, 'h'},
    {"uint16", "uint16_t", 2, DtypeKind::kUnsigned, 'H'},
    {"int32", "int32_t", 4, DtypeKind::kSigned, 'i'},
    {"uint32", "uint32_t", 4, DtypeKind::kUnsigned, 'I'},
    {"int64", "int64_t", 8, DtypeKind::kSigned, 'l'},
    {"uint64", "uint64_t", 8, DtypeKind::kUnsigned, 'L'},
    {"float16", "float16", 2, DtypeKind::kFloat, 'e'},
    {"float32", "float", 4, DtypeKind::kFloat, 'f'},
    {"float64", "double", 8, DtypeKind::kFloat, 'd'},
    {"complex64", "complex64", 8, DtypeKind::kComplex, 'F'},
    {"complex128", "complex128", 16, DtypeKind::kComplex, 'D'},
}};

constexpr bool itemsizes_agree() {
  for (int i = 0; i < kNumDtypes; ++i)
    if (kInfo[i].itemsize != itemsize(static_cast<Dtype>(i))) return false;
  return true;
}
static_assert(itemsizes_agree(), "itemsize() in dtype.h disagrees with the dtype table");

const DtypeInfo& info(Dtype d) { return kInfo[static_cast<size_t>(d)]; }

Dtype signed_of_size(size_t bytes) {
  switch (bytes) {
    case 1: return Dtype::kInt8;
    case 2: return Dtype::kInt16;
    case 4: return Dtype::kInt32;
    default: return Dtype::kInt64;
  }
}

// The smallest float that represents every value of an integer type as
// NumPy's promotion sees it (int8 -> float16, int16 -> float32, wider -> float64).
Dtype float_for_integer(Dtype d) {
  size_t s = itemsize(d);
  if (s == 1) return Dtype::kFloat16;
  if (s == 2) return Dtype::kFloat32;
  return Dtype::kFloat64;
}

Dtype complex_for_float(Dtype f) { return f == Dtype::kFloat64 ? Dtype::kComplex128 : Dtype::kComplex64; }

Dtype max_float(Dtype a, Dtype b) { return itemsize(a) >= itemsize(b) ? a : b; }

Dtype promote_impl(Dtype a, Dtype b) {
  if (a == b) return a;
  DtypeKind ka = kind(a), kb = kind(b);
  if (ka > kb || (ka == kb && itemsize(a) < itemsize(b))) {
    std::swap(a, b);
    std::swap(ka, kb);
  }
  // Now kind(a) <= kind(b).
  if (ka == DtypeKind::kBool) return b;
  if (ka == kb) return itemsize(a) >= itemsize(b) ? a : b;
  if (ka == DtypeKind::kUnsigned && kb == DtypeKind::kSigned) {
    if (itemsize(b) > itemsize(a)) return b;
    if (itemsize(a) == 8) return Dtype::kFloat64;  // uint64 with any signed int
    return signed_of_size(itemsize(a) * 2);
  }
  // a is an integer (or float) and b is float or complex.
  Dtype a_float = (ka == DtypeKind::kFloat) ? a : float_for_integer(a);
  if (kb == DtypeKind::kFloat) return max_float(a_float, b);
  // b complex: component precision is the larger of the two.
  Dtype b_comp = real_dtype(b);
  return complex_for_float(max_float(a_float, b_comp));
}

struct PromotionTable {
  std::array<std::array<Dtype, kNumDtypes>, kNumDtypes> t;
  PromotionTable() {
    for (int i = 0; i < kNumDtypes; ++i)
      for (int j = 0; j < kNumDtypes; ++j) t[i][j] = promote_impl(static_cast<Dtype>(i), static_cast<Dtype>(j));
  }
};
const PromotionTable& promotion_table() {
  static const PromotionTable table;
  return table;
}

}  // namespace

DtypeKind kind(Dtype d) { return info(d).kind; }
char kind_char(Dtype d) {
  static const char k[] = {'b', 'u', 'i', 'f', 'c'};
  return k[static_cast<int>(kind(d))];
}
char type_char(Dtype d) { return info(d).type_char; }
const char* dtype_name(Dtype d) { return info(d).name; }
std::string dtype_repr(Dtype d) { return std::string("dtype('") + dtype_name(d) + "')"; }
const char* kernel_type_name(Dtype d) { return info(d).kernel_type; }
bool is_integer(Dtype d) { return kind(d) == DtypeKind::kSigned || kind(d) == DtypeKind::kUnsigned; }
bool is_floating(Dtype d) { return kind(d) == DtypeKind::kFloat; }
bool is_complex(Dtype d) { return kind(d) == DtypeKind::kComplex; }
bool is_inexact(Dtype d) { return is_floating(d) || is_complex(d); }

bool try_dtype_from_name(const std::string& name, Dtype* out) {
  struct Alias {
    const char* name;
    Dtype dtype;
  };
  static const Alias aliases[] = {
      {"bool", Dtype::kBool},       {"bool_", Dtype::kBool},      {"?", Dtype::kBool},
      {"b1", Dtype::kBool},         {"int8", Dtype::kInt8},       {"i1", Dtype::kInt8},
      {"b", Dtype::kInt8},          {"uint8", Dtype::kUInt8},     {"u1", Dtype::kUInt8},
      {"B", Dtype::kUInt8},         {"int16", Dtype::kInt16},     {"i2", Dtype::kInt16},
      {"h", Dtype::kInt16},         {"uint16", Dtype::kUInt16},   {"u2", Dtype::kUInt16},
      {"H", Dtype::kUInt16},        {"int32", Dtype::kInt32},     {"i4", Dtype::kInt32},
      {"i", Dtype::kInt32},         {"uint32", Dtype::kUInt32},   {"u4", Dtype::kUInt32},
      {"I", Dtype::kUInt32},        {"int64", Dtype::kInt64},     {"i8", Dtype::kInt64},
      {"l", Dtype::kInt64},         {"q", Dtype::kInt64},         {"int", Dtype::kInt64},
      {"intp", Dtype::kInt64},      {"uint64", Dtype::kUInt64},   {"u8", Dtype::kUInt64},
      {"L", Dtype::kUInt64},        {"Q", Dtype::kUInt64},        {"uint", Dtype::kUInt64},
      {"uintp", Dtype::kUInt64},    {"float16", Dtype::kFloat16}, {"f2", Dtype::kFloat16},
      {"e", Dtype::kFloat16},       {"half", Dtype::kFloat16},    {"float32", Dtype::kFloat32},
      {"f4", Dtype::kFloat32},      {"f", Dtype::kFloat32},       {"single", Dtype::kFloat32},
      {"float64", Dtype::kFloat64}, {"f8", Dtype::kFloat64},      {"d", Dtype::kFloat64},
      {"float", Dtype::kFloat64},   {"double", Dtype::kFloat64},  {"complex64", Dtype::kComplex64},
      {"c8", Dtype::kComplex64},    {"F", Dtype::kComplex64},     {"complex128", Dtype::kComplex128},
      {"c16", Dtype::kComplex128},  {"D", Dtype::kComplex128},    {"complex", Dtype::kComplex128},
  };
  // Hashed once: kernels resolve type names on every launch.
  static const auto* by_name = [] {
    auto* m = new std::unordered_map<std::string_view, Dtype>();
    for (const Alias& a : aliases) m->emplace(a.name, a.dtype);
    return m;
  }();
  std::string_view n = name;
  // Explicit little-endian / native byte order prefixes are accepted.
  if (!n.empty() && (n[0] == '<' || n[0] == '=' || n[0] == '|')) n.remove_prefix(1);
  auto it = by_name->find(n);
  if (it == by_name->end()) return false;
  *out = it->second;
  return true;
}

Dtype dtype_from_name(const std::string& name) {
  Dtype d;
  if (!try_dtype_from_name(name, &d)) throw TypeError("data type '" + name + "' not understood");
  return d;
}

Dtype promote_types(Dtype a, Dtype b) {
  return promotion_table().t[static_cast<size_t>(a)][static_cast<size_t>(b)];
}

bool can_cast(Dtype from, Dtype to, Casting casting) {
  if (from == to) return true;
  switch (casting) {
    case Casting::kNo:
    case Casting::kEquiv:
      return from == to;
    case Casting::kSafe:
      return promote_types(from, to) == to;
    case Casting::kSameKind:
      return promote_types(from, to) == to || kind(from) <= kind(to);
    case Casting::kUnsafe:
      return true;
  }
  return false;
}

const char* casting_name(Casting c) {
  switch (c) {
    case Casting::kNo: return "no";
    case Casting::kEquiv: return "equiv";
    case Casting::kSafe: return "safe";
    case Casting::kSameKind: return "same_kind";
    case Casting::kUnsafe: return "unsafe";
  }
  return "?";
}

Casting casting_from_name(const std::string& name) {
  if (name == "no") return Casting::kNo;
  if (name == "equiv") return Casting::kEquiv;
  if (name == "safe") return Casting::kSafe;
  if (name == "same_kind") return Casting::kSameKind;
  if (name == "unsafe") return Casting::kUnsafe;
  throw ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got '" + name + "')");
}

Dtype default_dtype(WeakScalar s) {
  switch (s) {
    case WeakScalar::kBool: return Dtype::kBool;
    case WeakScalar::kInt: return Dtype::kInt64;
    case WeakScalar::kFloat: return Dtype::kFloat64;
    case WeakScalar::kComplex: return Dtype::kComplex128;
  }
  return Dtype::kFloat64;
}

Dtype weak_scalar_dtype(WeakScalar s, Dtype other) {
  DtypeKind k = kind(other);
  switch (s) {
    case WeakScalar::kBool:
      return other;
    case WeakScalar::kInt:
      return k == DtypeKind::kBool ? Dtype::kInt64 : other;
    case WeakScalar::kFloat:
      if (k == DtypeKind::kFloat || k == DtypeKind::kComplex) return other;
      return Dtype::kFloat64;
    case WeakScalar::kComplex:
      if (k == DtypeKind::kComplex) return other;
      if (k == DtypeKind::kFloat) return complex_for_float(other);
      return Dtype::kComplex128;
  }
  return other;
}

Dtype result_type(const std::vector<Dtype>& strong, const std::vector<WeakScalar>& weak) {
  if (strong.empty() && weak.empty()) throw ValueError("at least one array or dtype is required");
  if (strong.empty()) {
    WeakScalar top = *std::max_element(weak.begin(), weak.end());
    return default_dtype(top);
  }
  // NumPy's promotion of several dtypes is not pairwise (int8, uint8 and
  // float16 give float16, where int8 + uint8 = int16 and int16 + float16 =
  // float32): the dtypes of the highest kind (bool < integer < float <
  // complex) are promoted together, then each of the others joins the result
  // on its own. (This matches numpy.result_type on every tuple of up to four
  // builtin dtypes.)
  auto kind_rank = [](Dtype d) { return d == Dtype::kBool ? 0 : is_integer(d) ? 1 : is_complex(d) ? 3 : 2; };
  int top_rank = 0;
  for (Dtype d : strong) top_rank = std::max(top_rank, kind_rank(d));
  std::optional<Dtype> acc;
  for (Dtype d : strong)
    if (kind_rank(d) == top_rank) acc = acc ? promote_types(*acc, d) : d;
  Dtype r = *acc;
  for (Dtype d : strong)
    if (kind_rank(d) != top_rank) r = promote_types(r, d);
  if (weak.empty()) return r;
  WeakScalar top = *std::max_element(weak.begin(), weak.end());
  return weak_scalar_dtype(top, r);
}

Dtype real_dtype(Dtype d) {
  if (d == Dtype::kComplex64) return Dtype::kFloat32;
  if (d == Dtype::kComplex128) return Dtype::kFloat64;
  return d;
}

Dtype complex_dtype(Dtype d) {
  if (is_complex(d)) return d;
  if (d == Dtype::kFloat16 || d == Dtype::kFloat32) return Dtype::kComplex64;
  return Dtype::kComplex128;
}

}  // namespace kumo
