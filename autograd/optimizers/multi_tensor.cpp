// The multi-tensor engine: see multi_tensor.h. Formulas live in formulas.h.
#include "autograd/optimizers/multi_tensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>

#include "autograd/optimizers/formulas.h"
#include "autograd/optimizers/host_pieces.h"
#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "core/host/thread_pool.h"
#include "kernels/kernel_cache.h"
#include "kernels/launch.h"
#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/elementwise.h"
#include "routines/reduction.h"

namespace kumo {
namespace autograd {
namespace optimizers {

namespace {

#define KUMO_OPT_STR2(...) #__VA_ARGS__
#define KUMO_OPT_STR(...) KUMO_OPT_STR2(__VA_ARGS__)
// The CUDA expansion of the same formulas, as text for NVRTC.
const char* const kCudaFormulas = KUMO_OPT_STR(KUMO_OPT_FORMULAS(__device__));

// Elements per parallel block: large enough to amortise the scheduling, small
// enough that two cores share a 10^7-element update evenly.
constexpr int64_t kBlock = 1 << 15;

// The host view of one launch: per-tensor base pointers and start offsets
// into the concatenated element range (offsets has n + 1 entries).
template <typename T>
struct HostTable {
  std::vector<T*> ptr[5];  // p, g, s0, s1, s2
  std::vector<int64_t> offsets;
};

// Runs `piece` (the loop for this rule, state count and type, built for the
// CPU's widest instruction set) over the concatenated range in parallel blocks.
template <typename T>
void host_run(const HostTable<T>& t, HostPieceFn<T> piece, const double* k) {
  const int64_t total = t.offsets.back();
  const int64_t nblocks = (total + kBlock - 1) / kBlock;
  parallel_for(nblocks, 1, [&](int64_t bb, int64_t be) {
    int64_t b = bb * kBlock;
    const int64_t e = std::min(total, be * kBlock);
    size_t i = static_cast<size_t>(std::upper_bound(t.offsets.begin(), t.offsets.end(), b) - t.offsets.begin() - 1);
    while (b < e) {
      const int64_t end = std::min(e, t.offsets[i + 1]);
      const int64_t off = b - t.offsets[i];
      auto at = [&](int s) { return t.ptr[s][i] ? t.ptr[s][i] + off : nullptr; };
      piece(at(0), at(1), at(2), at(3), at(4), end - b, k);
      b = end;
      ++i;
    }
  });
}

const char* ctype(Dtype dtype) { return dtype == Dtype::kFloat32 ? "float" : "double"; }

// One compiled CUDA kernel per (rule, dtype), loaded per device on first use.
kernels::CudaKernel& cuda_kernel(Rule rule, Dtype dtype) {
  static std::mutex mu;
  static std::unique_ptr<kernels::CudaKernel> table[KUMO_OPT_NUM_RULES][2];
  const int r = static_cast<int>(rule);
  const int d = dtype == Dtype::kFloat32 ? 0 : 1;
  std::lock_guard<std::mutex> lk(mu);
  if (!table[r][d]) {
    table[r][d] = std::make_unique<kernels::CudaKernel>();
    table[r][d]->source = multi_tensor_cuda_source(rule, dtype);
  }
  return *table[r][d];
}

void check_float(const Array& a, const char* what) {
  if (a.dtype() != Dtype::kFloat32 && a.dtype() != Dtype::kFloat64) {
    throw TypeError(std::string("fused optimizer update: ") + what + " must be float32 or float64, got " +
                    dtype_name(a.dtype()));
  }
}

}  // namespace

std::string multi_tensor_cuda_kernel_name(Rule rule, Dtype dtype) {
  return "kumo_opt_r" + std::to_string(static_cast<int>(rule)) + "_" + ctype(dtype);
}

std::string multi_tensor_cuda_source(Rule rule, Dtype dtype) {
  const std::string t = ctype(dtype);
  std::string s;
  s += "// Kumo fused optimizer update (multi-tensor)\n";
  s += kCudaFormulas;
  s += "\nstruct KumoOptArgs { const long long* table; long long n; long long total; double k[";
  s += std::to_string(kMaxScalars) + "]; };\n";
  s += "extern \"C\" __global__ void " + multi_tensor_cuda_kernel_name(rule, dtype) + "(KumoOptArgs a) {\n";
  s += "  typedef " + t + " T;\n";
  s += R"(  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < a.total; i += stride) {
    long long lo = 0, hi = a.n - 1;
    while (lo < hi) {
      const long long mid = (lo + hi + 1) / 2;
      if (a.table[6 * mid + 5] <= i) lo = mid; else hi = mid - 1;
    }
    const long long* row = a.table + 6 * lo;
    const long long j = i - row[5];
    T d0 = 0, d1 = 0, d2 = 0;
    T* p = (T*)row[0];
    T* g = (T*)row[1];
    T* s0 = (T*)row[2];
    T* s1 = (T*)row[3];
    T* s2 = (T*)row[4];
)";
  s += "    kumo_opt_rule" + std::to_string(static_cast<int>(rule)) +
       "<T>(p[j], g[j], s0 ? s0[j] : d0, s1 ? s1[j] : d1, s2 ? s2[j] : d2, a.k);\n";
  s += "  }\n}\n";
  return s;
}

void multi_tensor_update(Rule rule, const std::vector<Array>& params, const std::vector<Array>& grads,
                         const std::vector<std::vector<Array>>& states, const std::vector<double>& scalars) {
  const int r = static_cast<int>(rule);
  if (r < 0 || r >= KUMO_OPT_NUM_RULES) throw ValueError("unknown optimizer rule " + std::to_string(r));
  if (grads.size() != params.size()) throw ValueError("fused optimizer update: params and grads differ in length");
  if (states.size() > 3) throw ValueError("fused optimizer update: at most 3 states");
  for (const auto& s : states) {
    if (s.size() != params.size()) throw ValueError("fused optimizer update: a state list differs in length");
  }
  if (scalars.size() > static_cast<size_t>(kMaxScalars)) throw ValueError("fused optimizer update: too many scalars");
  if (params.empty()) return;
  double k[kMaxScalars] = {};
  std::copy(scalars.begin(), scalars.end(), k);

  const Dtype dtype = params[0].dtype();
  Device& device = params[0].device();
  check_float(params[0], "parameters");
  const size_t n = params.size();
  const size_t ns = states.size();

  // Operands the kernel can use directly are C-contiguous, of the params'
  // dtype and on their device; others go through a staged copy that is
  // written back afterwards (non-contiguous gradients, e.g. transposes).
  // Base pointers only: an Array is large (inline shape and strides), and
  // copying hundreds of them per step cost more than the update itself.
  std::vector<char*> ops[5];
  for (auto& v : ops) v.reserve(n);
  std::vector<std::pair<Array, const Array*>> write_back;  // (staged, original)
  std::vector<int64_t> offsets(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    const Array* src[5] = {&params[i], &grads[i], nullptr, nullptr, nullptr};
    for (size_t s = 0; s < ns; ++s) src[2 + s] = &states[s][i];
    for (int o = 0; o < 5; ++o) {
      if (!src[o]) continue;
      const Array& a = *src[o];
      if (!a.defined()) throw ValueError("fused optimizer update: an operand is undefined");
      check_float(a, o == 0 ? "parameters" : (o == 1 ? "gradients" : "states"));
      if (&a.device() != &device) throw ValueError("fused optimizer update: operands are on different devices");
      if (a.shape() != params[i].shape()) throw ValueError("fused optimizer update: operand shapes differ");
      if (!a.writeable()) throw ValueError("fused optimizer update: an operand is read-only");
    }
    for (int o = 0; o < 5; ++o) {
      if (!src[o]) {
        ops[o].push_back(nullptr);
        continue;
      }
      const Array& a = *src[o];
      if (a.dtype() == dtype && a.c_contiguous()) {
        ops[o].push_back(a.data());
      } else {
        Array staged = kumo::astype(a, dtype, Casting::kUnsafe, true);
        if (!staged.c_contiguous()) staged = staged.copy(Order::kC);
        ops[o].push_back(staged.data());  // the memory outlives the vector's moves
        write_back.emplace_back(std::move(staged), &a);
      }
    }
    offsets[i + 1] = offsets[i] + params[i].size();
  }
  if (offsets[n] == 0) return;

  if (!kernels::runs_cuda_source(device)) {
    if (kernels::verify_cuda_enabled()) kernels::verify_cuda_source(multi_tensor_cuda_source(rule, dtype), {});
    if (dtype == Dtype::kFloat32) {
      HostTable<float> t;
      for (int o = 0; o < 5; ++o)
        for (size_t i = 0; i < n; ++i) t.ptr[o].push_back(reinterpret_cast<float*>(ops[o][i]));
      t.offsets = offsets;
      host_run<float>(t, host_piece_table().f32[r][ns], k);
    } else {
      HostTable<double> t;
      for (int o = 0; o < 5; ++o)
        for (size_t i = 0; i < n; ++i) t.ptr[o].push_back(reinterpret_cast<double*>(ops[o][i]));
      t.offsets = offsets;
      host_run<double>(t, host_piece_table().f64[r][ns], k);
    }
  } else {
    // The pointer table goes to the device once per launch (6 words a tensor).
    std::vector<int64_t> table(6 * n);
    for (size_t i = 0; i < n; ++i) {
      for (int o = 0; o < 5; ++o) {
        table[6 * i + o] = static_cast<int64_t>(reinterpret_cast<intptr_t>(ops[o][i]));
      }
      table[6 * i + 5] = offsets[i];
    }
    std::shared_ptr<Memory> dev_table = device.allocate(table.size() * sizeof(int64_t));
    device.copy_from_host(dev_table->data(), table.data(), table.size() * sizeof(int64_t));
    kernels::CudaKernel& ck = cuda_kernel(rule, dtype);
    void* fn = kernels::cuda_function(device, ck, multi_tensor_cuda_kernel_name(rule, dtype).c_str());
    kernels::ArgsBuffer args;
    args.ptr(dev_table->data());
    args.i64(static_cast<int64_t>(n));
    args.i64(offsets[n]);
    for (int i = 0; i < kMaxScalars; ++i) {
      int64_t w;
      std::memcpy(&w, &k[i], sizeof(w));
      args.i64(w);
    }
    const int64_t block = 256;
    const int64_t grid = std::min<int64_t>((offsets[n] + block - 1) / block, 65535);
    kernels::launch_cuda(device, fn, args, static_cast<unsigned>(grid), static_cast<unsigned>(block));
  }
  for (auto& [staged, original] : write_back) kumo::copyto(*original, staged, Casting::kUnsafe);
}

double multi_tensor_sum_squares(const std::vector<Array>& arrays) {
  if (arrays.empty()) return 0.0;
  Device& device = arrays[0].device();
  for (const auto& a : arrays) check_float(a, "arrays");
  if (device.type() != DeviceType::kCPU) {
    // One reduction per array on the device; only the scalars come back.
    double total = 0;
    for (const auto& a : arrays) {
      Array a64 = kumo::astype(a, Dtype::kFloat64, Casting::kUnsafe, false);
      total += kumo::sum(kumo::multiply(a64, a64)).to_device(host_device()).item<double>();
    }
    return total;
  }
  std::vector<Array> copies;  // contiguous copies of strided inputs
  std::vector<const char*> base;
  std::vector<bool> is_f32;
  std::vector<int64_t> offsets{0};
  for (const auto& a : arrays) {
    if (a.c_contiguous()) {
      base.push_back(a.data());
    } else {
      copies.push_back(a.copy(Order::kC));
      base.push_back(copies.back().data());
    }
    is_f32.push_back(a.dtype() == Dtype::kFloat32);
    offsets.push_back(offsets.back() + a.size());
  }
  const int64_t total = offsets.back();
  const int64_t nblocks = (total + kBlock - 1) / kBlock;
  std::vector<double> partial(static_cast<size_t>(nblocks), 0.0);
  // Fixed blocks with their own partial sums: the result does not depend on
  // the thread count.
  parallel_for(nblocks, 1, [&](int64_t bb, int64_t be) {
    for (int64_t blk = bb; blk < be; ++blk) {
      int64_t b = blk * kBlock;
      const int64_t e = std::min(total, b + kBlock);
      size_t i = static_cast<size_t>(std::upper_bound(offsets.begin(), offsets.end(), b) - offsets.begin() - 1);
      double acc = 0;
      while (b < e) {
        const int64_t end = std::min(e, offsets[i + 1]);
        const int64_t off = b - offsets[i];
        if (is_f32[i]) {
          const float* x = reinterpret_cast<const float*>(base[i]) + off;
          for (int64_t j = 0; j < end - b; ++j) acc += static_cast<double>(x[j]) * x[j];
        } else {
          const double* x = reinterpret_cast<const double*>(base[i]) + off;
          for (int64_t j = 0; j < end - b; ++j) acc += x[j] * x[j];
        }
        b = end;
        ++i;
      }
      partial[static_cast<size_t>(blk)] = acc;
    }
  });
  double sum = 0;
  for (double v : partial) sum += v;
  return sum;
}

bool multi_tensor_all_finite(const std::vector<Array>& arrays) {
  // inf - inf and NaN both make the sum of squares non-finite, and a finite
  // array whose squares overflow float64 is beyond any loss scale's range.
  return std::isfinite(multi_tensor_sum_squares(arrays));
}

}  // namespace optimizers
}  // namespace autograd
}  // namespace kumo
