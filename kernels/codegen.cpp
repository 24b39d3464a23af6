#include "kernels/codegen.h"

#include <cctype>
#include <sstream>

#include "core/errors.h"
#include "core/shape.h"

namespace kumo {
namespace detail {
const std::string& prelude_source();
}
namespace kernels {

const std::string& prelude_source() { return detail::prelude_source(); }

const std::string& kernel_support_source() {
  // Shared by both targets; the argument structs built by the launchers
  // (kernels/launch_args.h) mirror these layouts field for field.
  static const std::string s = R"KUMO(
#define KUMO_MAX_NDIM )KUMO" + std::to_string(kMaxNdim) + R"KUMO(
struct KumoIndex {
  int64_t index_, size_;
  KUMO_FN KumoIndex(int64_t i, int64_t n) : index_(i), size_(n) {}
  KUMO_FN int64_t get() const { return index_; }
  KUMO_FN int64_t size() const { return size_; }
};
struct KumoRawDesc {
  char* ptr;
  int64_t size;
  int32_t ndim;
  int32_t contiguous;
  int64_t shape[KUMO_MAX_NDIM];
  int64_t strides[KUMO_MAX_NDIM];
};
template <class T>
struct KumoRawArray {
  const KumoRawDesc* d;
  KUMO_FN explicit KumoRawArray(const KumoRawDesc& desc) : d(&desc) {}
  KUMO_FN int64_t size() const { return d->size; }
  KUMO_FN int ndim() const { return d->ndim; }
  KUMO_FN const int64_t* shape() const { return d->shape; }
  KUMO_FN const int64_t* strides() const { return d->strides; }
  KUMO_FN T* data() const { return reinterpret_cast<T*>(d->ptr); }
  // Flat C-order index.
  KUMO_FN T& at(int64_t i) const {
    if (d->contiguous) return reinterpret_cast<T*>(d->ptr)[i];
    int64_t off = 0;
    for (int k = d->ndim - 1; k >= 0; --k) {
      int64_t n = d->shape[k];
      off += (i % n) * d->strides[k];
      i /= n;
    }
    return *reinterpret_cast<T*>(d->ptr + off);
  }
  // One overload per integer type, so a literal 0 is not ambiguous with the pointer forms.
  KUMO_FN T& operator[](int i) const { return at(i); }
  KUMO_FN T& operator[](unsigned int i) const { return at(static_cast<int64_t>(i)); }
  KUMO_FN T& operator[](long i) const { return at(static_cast<int64_t>(i)); }
  KUMO_FN T& operator[](unsigned long i) const { return at(static_cast<int64_t>(i)); }
  KUMO_FN T& operator[](long long i) const { return at(static_cast<int64_t>(i)); }
  KUMO_FN T& operator[](unsigned long long i) const { return at(static_cast<int64_t>(i)); }
  // Multi-index.
  KUMO_FN T& operator[](const int64_t* idx) const {
    int64_t off = 0;
    for (int k = 0; k < d->ndim; ++k) off += idx[k] * d->strides[k];
    return *reinterpret_cast<T*>(d->ptr + off);
  }
  KUMO_FN T& operator[](const int* idx) const {
    int64_t off = 0;
    for (int k = 0; k < d->ndim; ++k) off += static_cast<int64_t>(idx[k]) * d->strides[k];
    return *reinterpret_cast<T*>(d->ptr + off);
  }
};
// Value-with-position accumulator for argmin/argmax style reductions.
template <class T>
struct KumoArg {
  T value;
  int64_t index;
  KUMO_FN KumoArg() : value(), index(0) {}
  KUMO_FN KumoArg(const T& v, int64_t i) : value(v), index(i) {}
};
)KUMO";
  return s;
}

std::string resolve_c_type(const std::string& type_name, const TypeBindings& bindings) {
  for (const auto& b : bindings)
    if (b.first == type_name) return kernel_type_name(b.second);
  Dtype d;
  if (try_dtype_from_name(type_name, &d)) return kernel_type_name(d);
  return type_name;  // a C type written directly (e.g. "KumoArg<float>")
}

const std::string& kernel_prologue(Target target) {
  static const std::string host = "// kumo kernel (host)\n" + prelude_source() + kernel_support_source();
  static const std::string cuda = "// kumo kernel (cuda)\n" + prelude_source() + kernel_support_source();
  return target == Target::kCuda ? cuda : host;
}

namespace {

std::string typedefs(const TypeBindings& bindings) {
  std::string s;
  for (const auto& b : bindings) s += "typedef " + std::string(kernel_type_name(b.second)) + " " + b.first + ";\n";
  return s;
}

std::string header(const TypeBindings& bindings, const std::string& preamble, Target target) {
  std::string s = kernel_prologue(target);
  s += typedefs(bindings);
  s += preamble;
  s += "\n";
  return s;
}

struct Operand {
  std::string name;
  std::string param_type;  // C type in the kernel
  std::string array_type;  // C type of the memory
  bool is_output;
  bool is_const;
};

}  // namespace

std::string generate_elementwise(const ElementwiseSpec& spec, const ElementwiseSignature& sig, Target target) {
  const size_t n_params = spec.in_params.size() + spec.out_params.size();
  if (sig.param_dtypes.size() != n_params || sig.array_dtypes.size() != n_params)
    throw ValueError("internal: elementwise signature does not match the spec");
  std::vector<Operand> ops;  // non-raw, in order
  std::vector<std::pair<std::string, std::string>> raws;  // name, C type
  for (size_t k = 0; k < n_params; ++k) {
    bool is_out = k >= spec.in_params.size();
    const ParamSpec& p = is_out ? spec.out_params[k - spec.in_params.size()] : spec.in_params[k];
    std::string pt = kernel_type_name(sig.param_dtypes[k]);
    if (p.raw) {
      raws.emplace_back(p.name, pt);
    } else {
      ops.push_back({p.name, pt, kernel_type_name(sig.array_dtypes[k]), is_out, p.is_const || !is_out});
    }
  }
  const size_t nops = ops.size(), nraw = raws.size();
  std::ostringstream o;
  o << header(sig.bindings, spec.preamble, target);
  // contiguous: 0 strided, 1 every operand contiguous, 2 (host only)
  // contiguous except broadcast scalar inputs of stride 0.
  o << "struct KumoArgs {\n  int64_t size;\n  int32_t ndim;\n  int32_t contiguous;\n"
       "  int64_t shape[KUMO_MAX_NDIM];\n";
  if (nops) o << "  char* ptr[" << nops << "];\n  int64_t strides[" << nops << "][KUMO_MAX_NDIM];\n";
  if (nraw) o << "  KumoRawDesc raw[" << nraw << "];\n";
  o << "};\n";

  // The element function: loads cast to the parameter types, outputs are
  // references (or cast on store), the user's operation runs in between.
  // With loop_prep/after_loop it is a lambda inside the entry instead, so
  // that the operation sees what loop_prep declared (and raw arrays are
  // captured by their names rather than passed).
  const bool inline_element = !spec.loop_prep.empty() || !spec.after_loop.empty();
  std::ostringstream el;
  std::string elem_params = "int64_t i, int64_t _size";
  for (size_t k = 0; k < nops; ++k)
    elem_params += std::string(", ") + (ops[k].is_output ? "" : "const ") + ops[k].array_type + "& _p" +
                   std::to_string(k);
  if (!inline_element)
    for (size_t r = 0; r < nraw; ++r) elem_params += ", const KumoRawArray<" + raws[r].second + ">& " + raws[r].first;
  el << "const KumoIndex _ind(i, _size);\n  (void)_ind;\n";
  for (size_t k = 0; k < nops; ++k) {
    const Operand& op = ops[k];
    bool same = op.param_type == op.array_type;
    if (!op.is_output) {
      if (same) el << "  const " << op.param_type << "& " << op.name << " = _p" << k << ";\n";
      else el << "  const " << op.param_type << " " << op.name << " = kumo_cast<" << op.param_type << ">(_p" << k << ");\n";
    } else if (same) {
      el << "  " << op.param_type << "& " << op.name << " = _p" << k << ";\n";
    } else {
      el << "  " << op.param_type << " " << op.name << " = kumo_cast<" << op.param_type << ">(_p" << k << ");\n";
    }
  }
  el << "  {\n" << spec.operation << "\n;\n  }\n";
  for (size_t k = 0; k < nops; ++k)
    if (ops[k].is_output && ops[k].param_type != ops[k].array_type)
      el << "  _p" << k << " = kumo_cast<" << ops[k].array_type << ">(" << ops[k].name << ");\n";
  if (!inline_element) o << "static KUMO_FN void kumo_element(" << elem_params << ") {\n  " << el.str() << "}\n";

  auto raw_decls = [&](const char* args) {
    std::string s;
    for (size_t r = 0; r < nraw; ++r)
      s += "  const KumoRawArray<" + raws[r].second + "> _r" + std::to_string(r) + "(" + args + ".raw[" +
           std::to_string(r) + "]);\n";
    return s;
  };
  auto raw_args = [&]() {
    std::string s;
    if (inline_element) return s;  // the lambda captures them by name
    for (size_t r = 0; r < nraw; ++r) s += ", _r" + std::to_string(r);
    return s;
  };
  // Inline mode: raw arrays by their names, loop_prep, then the element lambda.
  auto prep = [&](const std::string& size_expr) {
    std::string s;
    if (!inline_element) return s;
    for (size_t r = 0; r < nraw; ++r)
      s += "  const KumoRawArray<" + raws[r].second + ">& " + raws[r].first + " = _r" + std::to_string(r) + ";\n";
    s += "  {\n  const KumoIndex _ind(0, " + size_expr + ");\n  (void)_ind;\n" + spec.loop_prep + "\n;\n";
    s += "  auto kumo_element = [&](" + elem_params + ") {\n  " + el.str() + "  };\n";
    return s;
  };
  auto finish = [&]() {
    if (!inline_element) return std::string();
    return "\n" + spec.after_loop + "\n;\n  }\n";
  };
  auto elem_ref = [&](size_t k, const std::string& addr) {
    return std::string("*reinterpret_cast<") + (ops[k].is_output ? "" : "const ") + ops[k].array_type + "*>(" + addr + ")";
  };

  if (target == Target::kHost) {
    o << "extern \"C\" void kumo_elementwise(const void* _vargs, int64_t _begin, int64_t _end) {\n"
         "  const KumoArgs& A = *static_cast<const KumoArgs*>(_vargs);\n";
    o << raw_decls("A");
    // Inline mode: the loops below run in a lambda so that their early
    // returns still reach after_loop.
    if (inline_element) o << prep("A.size") << "  [&]() {\n";
    // Contiguous: typed restrict pointers so the loop vectorizes.
    o << "  if (A.contiguous == 1) {\n";
    for (size_t k = 0; k < nops; ++k)
      o << "    " << (ops[k].is_output ? "" : "const ") << ops[k].array_type << "* __restrict__ p" << k
        << " = reinterpret_cast<" << (ops[k].is_output ? "" : "const ") << ops[k].array_type << "*>(A.ptr[" << k
        << "]);\n";
    o << "    for (int64_t i = _begin; i < _end; ++i) kumo_element(i, A.size";
    for (size_t k = 0; k < nops; ++k) o << ", p" << k << "[i]";
    o << raw_args() << ");\n    return;\n  }\n";
    if (nops) {
      // Contiguous but with broadcast scalar inputs (stride 0, e.g. `a * 2.0`):
      // blocks read each scalar from a small local copy, so the loop keeps
      // plain restrict pointers and still vectorizes.
      // Only as many scalar copies as the range needs: small calls stay cheap.
      o << "  if (A.contiguous == 2) {\n";
      // A memory-bound binary operation with one scalar side (`a > 0.5`,
      // `2.0 * a`): the scalar lives in a register, not in a block read back
      // per element, which costs a third memory stream in loops that are
      // only traffic. (Only for those: the extra loops add compile time.)
      std::vector<size_t> in_ops;
      for (size_t k = 0; k < nops; ++k)
        if (!ops[k].is_output) in_ops.push_back(k);
      if (in_ops.size() == 2 && spec.min_parallel_bytes > 0) {
        for (int s = 0; s < 2; ++s) {
          const size_t ks = in_ops[s], ka = in_ops[1 - s];
          o << "    if (A.strides[" << ks << "][0] == 0 && A.strides[" << ka << "][0] != 0) {\n"
            << "      const " << ops[ks].array_type << " v = *reinterpret_cast<const " << ops[ks].array_type
            << "*>(A.ptr[" << ks << "]);\n";
          for (size_t k = 0; k < nops; ++k) {
            if (k == ks) continue;
            const std::string c = ops[k].is_output ? "" : "const ";
            o << "      " << c << ops[k].array_type << "* __restrict__ p" << k << " = reinterpret_cast<" << c
              << ops[k].array_type << "*>(A.ptr[" << k << "]);\n";
          }
          o << "      for (int64_t i = _begin; i < _end; ++i) kumo_element(i, A.size";
          for (size_t k = 0; k < nops; ++k) o << ", " << (k == ks ? std::string("v") : "p" + std::to_string(k) + "[i]");
          o << raw_args() << ");\n      return;\n    }\n";
        }
      }
      o << "    constexpr int64_t kB = 256;\n"
           "    const int64_t fill = _end - _begin < kB ? _end - _begin : kB;\n";
      for (size_t k = 0; k < nops; ++k) {
        if (ops[k].is_output) continue;
        o << "    const bool sc" << k << " = A.strides[" << k << "][0] == 0;\n    " << ops[k].array_type << " b" << k
          << "[kB];\n    if (sc" << k << ") { const " << ops[k].array_type << " v = *reinterpret_cast<const "
          << ops[k].array_type << "*>(A.ptr[" << k << "]); for (int64_t j = 0; j < fill; ++j) b" << k
          << "[j] = v; }\n";
      }
      o << "    for (int64_t b = _begin; b < _end; b += kB) {\n      const int64_t n = _end - b < kB ? _end - b : kB;\n";
      for (size_t k = 0; k < nops; ++k) {
        const std::string t = ops[k].array_type;
        if (ops[k].is_output)
          o << "      " << t << "* __restrict__ p" << k << " = reinterpret_cast<" << t << "*>(A.ptr[" << k
            << "]) + b;\n";
        else
          o << "      const " << t << "* __restrict__ p" << k << " = sc" << k << " ? b" << k
            << " : reinterpret_cast<const " << t << "*>(A.ptr[" << k << "]) + b;\n";
      }
      o << "      for (int64_t j = 0; j < n; ++j) kumo_element(b + j, A.size";
      for (size_t k = 0; k < nops; ++k) o << ", p" << k << "[j]";
      o << raw_args() << ");\n    }\n    return;\n  }\n";
      // Strided: walk the innermost axis with pointer increments and carry
      // into outer axes; division happens once per call, not per element.
      o << "  const int nd = A.ndim;\n  int64_t idx[KUMO_MAX_NDIM];\n  int64_t rem = _begin;\n"
           "  for (int d = nd - 1; d >= 0; --d) { idx[d] = rem % A.shape[d]; rem /= A.shape[d]; }\n";
      for (size_t k = 0; k < nops; ++k) {
        o << "  char* q" << k << " = A.ptr[" << k << "];\n";
        o << "  for (int d = 0; d < nd; ++d) q" << k << " += idx[d] * A.strides[" << k << "][d];\n";
        o << "  const int64_t s" << k << " = A.strides[" << k << "][nd - 1];\n";
      }
      o << "  const int64_t inner = A.shape[nd - 1];\n  int64_t i = _begin;\n  while (i < _end) {\n"
           "    int64_t n = inner - idx[nd - 1];\n    if (n > _end - i) n = _end - i;\n"
           "    for (int64_t k = 0; k < n; ++k) kumo_element(i + k, A.size";
      for (size_t k = 0; k < nops; ++k) o << ", " << elem_ref(k, "q" + std::to_string(k) + " + k * s" + std::to_string(k));
      o << raw_args() << ");\n    i += n;\n    idx[nd - 1] += n;\n";
      for (size_t k = 0; k < nops; ++k) o << "    q" << k << " += n * s" << k << ";\n";
      o << "    for (int d = nd - 1; d > 0 && idx[d] >= A.shape[d]; --d) {\n";
      for (size_t k = 0; k < nops; ++k)
        o << "      q" << k << " += A.strides[" << k << "][d - 1] - A.shape[d] * A.strides[" << k << "][d];\n";
      o << "      idx[d] = 0;\n      ++idx[d - 1];\n    }\n  }\n";
    } else {
      o << "  for (int64_t i = _begin; i < _end; ++i) kumo_element(i, A.size" << raw_args() << ");\n";
    }
    if (inline_element) o << "  }();\n" << finish();
    o << "}\n";
  } else {
    o << "extern \"C\" __global__ void kumo_elementwise(const KumoArgs A) {\n";
    o << raw_decls("A");
    o << prep("A.size");
    o << "  const int64_t step = static_cast<int64_t>(blockDim.x) * gridDim.x;\n"
         "  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < A.size; i += step) {\n";
    o << "    if (A.contiguous) {\n      kumo_element(i, A.size";
    for (size_t k = 0; k < nops; ++k)
      o << ", reinterpret_cast<" << (ops[k].is_output ? "" : "const ") << ops[k].array_type << "*>(A.ptr[" << k
        << "])[i]";
    o << raw_args() << ");\n    } else {\n      int64_t rem = i;\n";
    for (size_t k = 0; k < nops; ++k) o << "      char* q" << k << " = A.ptr[" << k << "];\n";
    o << "      for (int d = A.ndim - 1; d >= 0; --d) {\n        const int64_t c = rem % A.shape[d];\n"
         "        rem /= A.shape[d];\n";
    for (size_t k = 0; k < nops; ++k) o << "        q" << k << " += c * A.strides[" << k << "][d];\n";
    o << "      }\n      kumo_element(i, A.size";
    for (size_t k = 0; k < nops; ++k) o << ", " << elem_ref(k, "q" + std::to_string(k));
    o << raw_args() << ");\n    }\n  }\n" << finish() << "}\n";
  }
  return o.str();
}

std::string generate_reduction(const ReductionSpec& spec, const ReductionSignature& sig, Target target) {
  const size_t nin = spec.in_params.size(), nout = spec.out_params.size();
  if (sig.param_dtypes.size() != nin + nout || sig.array_dtypes.size() != nin + nout)
    throw ValueError("internal: reduction signature does not match the spec");
  if (nin == 0) throw ValueError("a reduction kernel needs at least one input");
  auto ptype = [&](size_t k) { return std::string(kernel_type_name(sig.param_dtypes[k])); };
  auto atype = [&](size_t k) { return std::string(kernel_type_name(sig.array_dtypes[k])); };
  const size_t nops = nin + nout;
  std::ostringstream o;
  o << header(sig.bindings, spec.preamble, target);
  o << "typedef " << sig.reduce_type << " _type_reduce;\n";
  o << "struct KumoRArgs {\n  int64_t out_size;\n  int64_t red_size;\n  int32_t out_ndim;\n  int32_t red_ndim;\n"
       "  int32_t unused0;\n  int32_t unused1;\n  int64_t out_shape[KUMO_MAX_NDIM];\n"
       "  int64_t red_shape[KUMO_MAX_NDIM];\n  char* ptr["
    << nops << "];\n  int64_t out_strides[" << nops << "][KUMO_MAX_NDIM];\n  int64_t red_strides[" << nin
    << "][KUMO_MAX_NDIM];\n};\n";

  // map: inputs (as their array types) -> accumulator.
  o << "static KUMO_FN _type_reduce kumo_map(int64_t _j";
  for (size_t k = 0; k < nin; ++k) o << ", const " << atype(k) << "& _p" << k;
  o << ") {\n  const int64_t _J = _j;\n  (void)_J;\n";
  for (size_t k = 0; k < nin; ++k) {
    if (ptype(k) == atype(k)) o << "  const " << ptype(k) << "& " << spec.in_params[k].name << " = _p" << k << ";\n";
    else o << "  const " << ptype(k) << " " << spec.in_params[k].name << " = kumo_cast<" << ptype(k) << ">(_p" << k << ");\n";
  }
  o << "  return _type_reduce(" << spec.map_expr << ");\n}\n";
  o << "static KUMO_FN _type_reduce kumo_reduce(const _type_reduce& a, const _type_reduce& b) {\n  return _type_reduce("
    << spec.reduce_expr << ");\n}\n";
  o << "static KUMO_FN void kumo_post(const _type_reduce& a";
  for (size_t k = 0; k < nout; ++k) o << ", " << atype(nin + k) << "& _o" << k;
  o << ") {\n";
  for (size_t k = 0; k < nout; ++k) {
    const std::string& nm = spec.out_params[k].name;
    if (ptype(nin + k) == atype(nin + k)) o << "  " << ptype(nin + k) << "& " << nm << " = _o" << k << ";\n";
    else o << "  " << ptype(nin + k) << " " << nm << " = " << ptype(nin + k) << "();\n";
  }
  o << "  {\n" << (spec.post_map_expr.empty() ? "" : spec.post_map_expr) << "\n;\n  }\n";
  for (size_t k = 0; k < nout; ++k)
    if (ptype(nin + k) != atype(nin + k))
      o << "  _o" << k << " = kumo_cast<" << atype(nin + k) << ">(" << spec.out_params[k].name << ");\n";
  o << "}\n";
  o << "static KUMO_FN _type_reduce kumo_identity() { return _type_reduce("
    << (spec.identity.empty() ? "" : spec.identity) << "); }\n";
  o << "#define KUMO_HAS_IDENTITY " << (spec.identity.empty() ? 0 : 1) << "\n";
  // Like NumPy (and CuPy's accumulator start), a reduction with an identity
  // starts from it: hypot.reduce([-3]) is hypot(0, -3) = 3.
  o << "static KUMO_FN _type_reduce kumo_from_identity(const _type_reduce& r) {\n"
    << (spec.identity.empty() ? "  return r;\n" : "  return kumo_reduce(kumo_identity(), r);\n") << "}\n";

  // Calls kumo_map on element k of a run whose operands are at q[] with byte
  // strides s[]. Modes: 2 = every input contiguous, 1 = input 0 contiguous
  // and the others broadcast along the run (stride 0: a mean or an extremum
  // kept for a second pass, loaded once as _c<m> so the loop still
  // vectorizes), 0 = strided.
  auto map_call = [&](const std::string& j, const std::string& k, int mode) {
    std::string s = "kumo_map(" + j;
    for (size_t m = 0; m < nin; ++m) {
      std::string t = atype(m), ms = std::to_string(m);
      if (mode == 2 || (mode == 1 && m == 0)) s += ", reinterpret_cast<const " + t + "*>(q[" + ms + "])[" + k + "]";
      else if (mode == 1) s += ", _c" + ms;
      else s += ", *reinterpret_cast<const " + t + "*>(q[" + ms + "] + (" + k + ") * s[" + ms + "])";
    }
    return s + ")";
  };
  auto hoist = [&](int mode) {
    std::string s;
    if (mode != 1) return s;
    for (size_t m = 1; m < nin; ++m)
      s += "  const " + atype(m) + " _c" + std::to_string(m) + " = *reinterpret_cast<const " + atype(m) + "*>(q[" +
           std::to_string(m) + "]);\n";
    return s;
  };

  if (target == Target::kHost) {
    o << "#define KUMO_NIN " << nin << "\n";
    // Pairwise over a 1-D run with 32 interleaved lanes: leaves of up to
    // 1024 elements accumulate lane-wise (four AVX registers for float), and
    // leaves merge lane-wise by recursive halving, so the only horizontal
    // step is one 32-to-1 tree at the end. Error grows like NumPy's pairwise
    // sum (O(log n)) and the loops vectorize.
    for (int mode = 2; mode >= 0; --mode) {
      if (mode == 1 && nin == 1) continue;
      const std::string suffix = mode == 2 ? "c" : (mode == 1 ? "b" : "s");
      std::string lanes = "kumo_lanes_" + suffix;
      std::string fn = "kumo_pairwise_" + suffix;
      o << "static void " << lanes << "(char* const* q, const int64_t* s, int64_t j0, int64_t n, _type_reduce* r) {\n";
      o << hoist(mode);
      // The leaf accumulates in a local array (not through r, which may
      // alias the input) so the 32 lanes stay in vector registers.
      o << "  if (n <= 1024) {\n    _type_reduce acc[32];\n"
        << "    for (int m = 0; m < 32; ++m) acc[m] = " << map_call("j0 + m", "m", mode)
        << ";\n    for (int64_t k = 32; k < n; k += 32)\n"
        << "      for (int m = 0; m < 32; ++m) acc[m] = kumo_reduce(acc[m], " << map_call("j0 + k + m", "k + m", mode)
        << ");\n    for (int m = 0; m < 32; ++m) r[m] = acc[m];\n    return;\n  }\n";
      o << "  int64_t h = n / 2;\n  h -= h % 32;\n  char* q2[KUMO_NIN];\n"
           "  for (int m = 0; m < KUMO_NIN; ++m) q2[m] = q[m] + h * s[m];\n"
           "  _type_reduce t[32];\n"
        << "  " << lanes << "(q, s, j0, h, r);\n  " << lanes << "(q2, s, j0 + h, n - h, t);\n"
        << "  for (int m = 0; m < 32; ++m) r[m] = kumo_reduce(r[m], t[m]);\n}\n";
      o << "static _type_reduce " << fn << "(char* const* q, const int64_t* s, int64_t j0, int64_t n) {\n";
      // A spec may reduce a contiguous run of its one input itself (the
      // float max/min reductions, whose generic combine is NaN-checked).
      if (mode == 2 && nin == 1)
        o << "#ifdef KUMO_CONTIGUOUS_RUN\n  (void)s; (void)j0;\n  return _type_reduce(KUMO_CONTIGUOUS_RUN(reinterpret_cast<const "
          << atype(0) << "*>(q[0]), n));\n#endif\n";
      o << hoist(mode);
      o << "  if (n < 64) {\n    _type_reduce r = " << map_call("j0", "0", mode)
        << ";\n    for (int64_t k = 1; k < n; ++k) r = kumo_reduce(r, " << map_call("j0 + k", "k", mode)
        << ");\n    return r;\n  }\n";
      o << "  const int64_t n32 = n - n % 32;\n  _type_reduce r[32];\n  " << lanes << "(q, s, j0, n32, r);\n"
        << "  for (int w = 16; w >= 1; w /= 2)\n    for (int m = 0; m < w; ++m) r[m] = kumo_reduce(r[m], r[m + w]);\n"
        << "  _type_reduce t = r[0];\n"
        << "  for (int64_t k = n32; k < n; ++k) t = kumo_reduce(t, " << map_call("j0 + k", "k", mode) << ");\n"
        << "  return t;\n}\n";
    }
    if (nin == 1) o << "#define kumo_pairwise_b kumo_pairwise_s\n";
    o << R"KUMO(
static const int64_t kumo_in_itemsize[KUMO_NIN] = {)KUMO";
    for (size_t k = 0; k < nin; ++k) o << (k ? ", " : "") << "(int64_t)sizeof(" << atype(k) << ")";
    o << R"KUMO(};
// Reduces positions [jb, je) of the reduction for the output whose operands start at base[].
static _type_reduce kumo_span(const KumoRArgs& A, char* const* base, int64_t jb, int64_t je) {
  const int nd = A.red_ndim;
  int64_t idx[KUMO_MAX_NDIM];
  char* q[KUMO_NIN];
  int64_t s[KUMO_NIN];
  bool contig = true, bcast = true;
  int64_t rem = jb;
  for (int d = nd - 1; d >= 0; --d) { idx[d] = rem % A.red_shape[d]; rem /= A.red_shape[d]; }
  for (int m = 0; m < KUMO_NIN; ++m) {
    q[m] = base[m];
    for (int d = 0; d < nd; ++d) q[m] += idx[d] * A.red_strides[m][d];
    s[m] = A.red_strides[m][nd - 1];
    if (s[m] != kumo_in_itemsize[m]) contig = false;
    if (m == 0 ? s[m] != kumo_in_itemsize[m] : s[m] != 0) bcast = false;
  }
  const int64_t inner = A.red_shape[nd - 1];
  _type_reduce acc = _type_reduce();
  bool has = false;
  int64_t j = jb;
  while (j < je) {
    int64_t n = inner - idx[nd - 1];
    if (n > je - j) n = je - j;
    _type_reduce part = contig ? kumo_pairwise_c(q, s, j, n)
                               : (bcast ? kumo_pairwise_b(q, s, j, n) : kumo_pairwise_s(q, s, j, n));
    acc = has ? kumo_reduce(acc, part) : part;
    has = true;
    j += n;
    idx[nd - 1] += n;
    for (int m = 0; m < KUMO_NIN; ++m) q[m] += n * s[m];
    for (int d = nd - 1; d > 0 && idx[d] >= A.red_shape[d]; --d) {
      for (int m = 0; m < KUMO_NIN; ++m) q[m] += A.red_strides[m][d - 1] - A.red_shape[d] * A.red_strides[m][d];
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
  return acc;
}
static void kumo_out_bases(const KumoRArgs& A, int64_t o, char** base) {
  for (int m = 0; m < )KUMO" << nops << R"KUMO(; ++m) base[m] = A.ptr[m];
  for (int d = A.out_ndim - 1; d >= 0; --d) {
    const int64_t c = o % A.out_shape[d];
    o /= A.out_shape[d];
    for (int m = 0; m < )KUMO" << nops << R"KUMO(; ++m) base[m] += c * A.out_strides[m][d];
  }
}
static void kumo_post_at(const _type_reduce& r, char* const* base) {
  kumo_post(r)KUMO";
    for (size_t k = 0; k < nout; ++k) o << ", *reinterpret_cast<" << atype(nin + k) << "*>(base[" << nin + k << "])";
    o << R"KUMO();
}
// One output per step: the reduction runs along the (squashed) reduce axes.
extern "C" void kumo_reduce_rows(const void* _vargs, int64_t ob, int64_t oe) {
  const KumoRArgs& A = *static_cast<const KumoRArgs*>(_vargs);
  char* base[)KUMO" << nops << R"KUMO(];
  for (int64_t o = ob; o < oe; ++o) {
    kumo_out_bases(A, o, base);
    _type_reduce r = A.red_size > 0 ? kumo_from_identity(kumo_span(A, base, 0, A.red_size)) : kumo_identity();
    kumo_post_at(r, base);
  }
}
// Outputs contiguous along one axis: the reduction loop is outside and the
// output loop inside, so the inner loop streams through memory.
extern "C" void kumo_reduce_columns(const void* _vargs, int64_t ob, int64_t oe) {
  const KumoRArgs& A = *static_cast<const KumoRArgs*>(_vargs);
  // 16 KiB of accumulators: long contiguous row segments, still in L1.
  enum { B = sizeof(_type_reduce) >= 1024 ? 16 : 16384 / sizeof(_type_reduce) };
  _type_reduce acc[B];
  const int nd = A.red_ndim;
  for (int64_t blk = ob; blk < oe; blk += B) {
    const int64_t m = (oe - blk < B) ? oe - blk : B;
    if (A.red_size == 0) {
      for (int64_t t = 0; t < m; ++t) acc[t] = kumo_identity();
    }
    int64_t idx[KUMO_MAX_NDIM];
    for (int d = 0; d < nd; ++d) idx[d] = 0;
    char* q[KUMO_NIN];
    for (int k = 0; k < KUMO_NIN; ++k) q[k] = A.ptr[k] + blk * A.out_strides[k][0];
    // Rows of the innermost reduction axis are taken four at a time when
    // they are there: one load and store of each accumulator per four input
    // rows instead of per row (the accumulators, not the input, bounded the
    // loop). The combining order stays sequential: ((acc . r0) . r1) ...
    int64_t j = 0;
    const int in = nd - 1;
    while (j < A.red_size) {
      int64_t step = 1;
      char* q1[KUMO_NIN];
      char* q2[KUMO_NIN];
      char* q3[KUMO_NIN];
      (void)q1; (void)q2; (void)q3;
)KUMO";
    auto on = [](std::string s, const std::string& qn) {
      std::string out;
      for (size_t p = 0; p < s.size();) {
        if (s.compare(p, 2, "q[") == 0 && (p == 0 || !(std::isalnum(static_cast<unsigned char>(s[p - 1])) || s[p - 1] == '_'))) {
          out += qn + "[";
          p += 2;
        } else {
          out += s[p++];
        }
      }
      return out;
    };
    o << "      if (j == 0) { for (int64_t t = 0; t < m; ++t) acc[t] = " << map_call("j", "t", 2) << "; }\n"
      << "      else if (A.red_shape[in] - idx[in] >= 4) {\n"
      << "        for (int k = 0; k < KUMO_NIN; ++k) {\n"
      << "          q1[k] = q[k] + A.red_strides[k][in];\n"
      << "          q2[k] = q1[k] + A.red_strides[k][in];\n"
      << "          q3[k] = q2[k] + A.red_strides[k][in];\n        }\n"
      << "        for (int64_t t = 0; t < m; ++t) {\n"
      << "          _type_reduce v = kumo_reduce(acc[t], " << map_call("j", "t", 2) << ");\n"
      << "          v = kumo_reduce(v, " << on(map_call("j + 1", "t", 2), "q1") << ");\n"
      << "          v = kumo_reduce(v, " << on(map_call("j + 2", "t", 2), "q2") << ");\n"
      << "          acc[t] = kumo_reduce(v, " << on(map_call("j + 3", "t", 2), "q3") << ");\n"
      << "        }\n        step = 4;\n      }\n"
      << "      else { for (int64_t t = 0; t < m; ++t) acc[t] = kumo_reduce(acc[t], " << map_call("j", "t", 2)
      << "); }\n";
    o << R"KUMO(      j += step;
      if (step > 1) {
        // Advance step - 1 rows along the innermost axis (never past its end).
        for (int k = 0; k < KUMO_NIN; ++k) q[k] += (step - 1) * A.red_strides[k][in];
        idx[in] += step - 1;
      }
      for (int d = nd - 1; d >= 0; --d) {
        for (int k = 0; k < KUMO_NIN; ++k) q[k] += A.red_strides[k][d];
        if (++idx[d] < A.red_shape[d]) break;
        for (int k = 0; k < KUMO_NIN; ++k) q[k] -= A.red_shape[d] * A.red_strides[k][d];
        idx[d] = 0;
      }
    }
    char* base[)KUMO" << nops << R"KUMO(];
    for (int64_t t = 0; t < m; ++t) {
      for (int k = 0; k < )KUMO" << nops << R"KUMO(; ++k) base[k] = A.ptr[k] + (blk + t) * A.out_strides[k][0];
      kumo_post_at(A.red_size > 0 ? kumo_from_identity(acc[t]) : acc[t], base);
    }
  }
}
extern "C" int64_t kumo_reduce_type_size() { return (int64_t)sizeof(_type_reduce); }
// Partial result of positions [jb, je) for output 0 (full reductions split across threads).
extern "C" void kumo_reduce_partial(const void* _vargs, int64_t jb, int64_t je, void* dst) {
  const KumoRArgs& A = *static_cast<const KumoRArgs*>(_vargs);
  char* base[)KUMO" << nops << R"KUMO(];
  kumo_out_bases(A, 0, base);
  *static_cast<_type_reduce*>(dst) = kumo_span(A, base, jb, je);
}
extern "C" void kumo_reduce_combine(const void* _vargs, const void* partials, int64_t n) {
  const KumoRArgs& A = *static_cast<const KumoRArgs*>(_vargs);
  const _type_reduce* p = static_cast<const _type_reduce*>(partials);
  _type_reduce r = p[0];
  for (int64_t k = 1; k < n; ++k) r = kumo_reduce(r, p[k]);
  char* base[)KUMO" << nops << R"KUMO(];
  kumo_out_bases(A, 0, base);
  kumo_post_at(kumo_from_identity(r), base);
}
)KUMO";
  } else {
    // One block per output (grid-stride over outputs); threads stride over
    // the reduction and combine through shared memory.
    o << "extern \"C\" __global__ void kumo_reduction(const KumoRArgs A) {\n"
         "  __shared__ __align__(16) unsigned char sh_raw[256 * sizeof(_type_reduce)];\n"
         "  __shared__ bool shv[256];\n"
         "  _type_reduce* sh = reinterpret_cast<_type_reduce*>(sh_raw);\n"
         "  const int tid = threadIdx.x;\n"
         "  for (int64_t o = blockIdx.x; o < A.out_size; o += gridDim.x) {\n"
         "    char* base[" << nops << "];\n"
         "    for (int m = 0; m < " << nops << "; ++m) base[m] = A.ptr[m];\n"
         "    int64_t rem = o;\n"
         "    for (int d = A.out_ndim - 1; d >= 0; --d) {\n"
         "      const int64_t c = rem % A.out_shape[d];\n      rem /= A.out_shape[d];\n"
         "      for (int m = 0; m < " << nops << "; ++m) base[m] += c * A.out_strides[m][d];\n    }\n"
         "    _type_reduce acc = _type_reduce();\n    bool has = false;\n"
         "    for (int64_t j = tid; j < A.red_size; j += blockDim.x) {\n"
         "      int64_t r2 = j;\n      char* q[" << nin << "];\n"
         "      for (int m = 0; m < " << nin << "; ++m) q[m] = base[m];\n"
         "      for (int d = A.red_ndim - 1; d >= 0; --d) {\n"
         "        const int64_t c = r2 % A.red_shape[d];\n        r2 /= A.red_shape[d];\n"
         "        for (int m = 0; m < " << nin << "; ++m) q[m] += c * A.red_strides[m][d];\n      }\n";
    o << "      const _type_reduce v = kumo_map(j";
    for (size_t m = 0; m < nin; ++m) o << ", *reinterpret_cast<const " << atype(m) << "*>(q[" << m << "])";
    o << ");\n      acc = has ? kumo_reduce(acc, v) : v;\n      has = true;\n    }\n"
         "    sh[tid] = acc;\n    shv[tid] = has;\n    __syncthreads();\n"
         "    for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
         "      if (tid < s && shv[tid + s]) {\n"
         "        sh[tid] = shv[tid] ? kumo_reduce(sh[tid], sh[tid + s]) : sh[tid + s];\n"
         "        shv[tid] = true;\n      }\n      __syncthreads();\n    }\n"
         "    if (tid == 0) {\n      const _type_reduce r = shv[0] ? kumo_from_identity(sh[0]) : kumo_identity();\n      kumo_post(r";
    for (size_t k = 0; k < nout; ++k) o << ", *reinterpret_cast<" << atype(nin + k) << "*>(base[" << nin + k << "])";
    o << ");\n    }\n    __syncthreads();\n  }\n}\n";
  }
  return o.str();
}

}  // namespace kernels
}  // namespace kumo
