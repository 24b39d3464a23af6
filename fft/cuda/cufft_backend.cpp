// cuFFT implementation of FftBackend (fft/cuda/cufft_backend.h).
//
// Every transform is done one axis at a time as one-dimensional batched
// cuFFT transforms in its advanced data layout (element i of batch b at
// b * dist + i * stride). The batch axes of the operand are merged where
// their strides allow; the largest remaining one becomes cuFFT's batch and
// any others are looped over on the host, one cufftExec per slice. cuFFT
// does not scale, so a small NVRTC kernel multiplies the last axis's output
// by `scale` (and conjugates, for the two directions cuFFT lacks: a
// backward real-to-complex and a forward complex-to-real transform).
#include <cufft.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/backend_registry.h"
#include "core/cuda/cuda_common.h"
#include "core/errors.h"
#include "core/memory.h"
#include "fft/cuda/cufft_backend.h"

namespace kumo {
namespace {

const char* cufft_status_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT error";
  }
}

template <typename... Args>
void check_cufft(cufftResult r, const char* call, const Args&... args) {
  if (r == CUFFT_SUCCESS) return;
  cuda_detail::clear_last_error();
  std::ostringstream os;
  os << call << '(';
  [[maybe_unused]] const char* sep = "";
  ((os << sep << args, sep = ", "), ...);
  os << ") failed: " << cufft_status_name(r);
  if (r == CUFFT_ALLOC_FAILED) throw OutOfMemoryError(os.str());
  throw RuntimeError(os.str());
}

// ---- layouts -------------------------------------------------------------------

// One axis to transform: its input and output lengths and element strides;
// batch axes as (extent, input stride, output stride), in elements.
struct BatchAxis {
  int64_t extent, in_stride, out_stride;
};

struct AxisLayout {
  int64_t n_in, n_out, in_stride, out_stride;
  std::vector<BatchAxis> batch;  // merged; the largest first
};

int64_t elements(int64_t bytes, size_t itemsize, const char* routine) {
  const int64_t size = static_cast<int64_t>(itemsize);
  if (bytes < 0 || bytes % size != 0) {
    std::ostringstream os;
    os << "fft backend " << routine << " (cuFFT): stride of " << bytes
       << " bytes is negative or not a multiple of the element size " << size;
    throw ValueError(os.str());
  }
  return bytes / size;
}

AxisLayout layout_for(const Shape& in_shape, const Strides& in_strides, size_t in_item, const Shape& out_shape,
                      const Strides& out_strides, size_t out_item, int axis, const char* routine) {
  AxisLayout l;
  l.n_in = in_shape[axis];
  l.n_out = out_shape[axis];
  l.in_stride = elements(in_strides[axis], in_item, routine);
  l.out_stride = elements(out_strides[axis], out_item, routine);
  std::vector<BatchAxis> dims;
  for (int k = 0; k < in_shape.size(); ++k) {
    if (k == axis || in_shape[k] == 1) continue;
    dims.push_back({in_shape[k], elements(in_strides[k], in_item, routine),
                    elements(out_strides[k], out_item, routine)});
  }
  // Merge neighbours (outer, inner) that step like one axis in both operands.
  std::sort(dims.begin(), dims.end(), [](const BatchAxis& a, const BatchAxis& b) { return a.in_stride > b.in_stride; });
  std::vector<BatchAxis> merged;
  for (const BatchAxis& d : dims) {
    if (!merged.empty()) {
      BatchAxis& outer = merged.back();
      if (outer.in_stride == d.in_stride * d.extent && outer.out_stride == d.out_stride * d.extent) {
        outer = {outer.extent * d.extent, d.in_stride, d.out_stride};
        continue;
      }
    }
    merged.push_back(d);
  }
  std::stable_sort(merged.begin(), merged.end(),
                   [](const BatchAxis& a, const BatchAxis& b) { return a.extent > b.extent; });
  l.batch = std::move(merged);
  return l;
}

// cuFFT's batch: the count and the input and output distances of the first
// batch axis. A single transform still gets distances past its own data:
// cuFFT validates them even when there is nothing to step over.
std::tuple<int64_t, int64_t, int64_t> cufft_batch(const AxisLayout& l) {
  if (l.batch.empty()) return {1, l.n_in * l.in_stride, l.n_out * l.out_stride};
  return {l.batch[0].extent, l.batch[0].in_stride, l.batch[0].out_stride};
}

// Calls f(in_offset, out_offset) (in elements) for every slice of the batch
// axes after the first, which cuFFT batches itself.
template <typename F>
void for_each_slice(const AxisLayout& l, F&& f) {
  const size_t loops = l.batch.size() > 1 ? l.batch.size() - 1 : 0;
  std::vector<int64_t> index(loops, 0);
  while (true) {
    int64_t in_off = 0, out_off = 0;
    for (size_t i = 0; i < loops; ++i) {
      in_off += index[i] * l.batch[i + 1].in_stride;
      out_off += index[i] * l.batch[i + 1].out_stride;
    }
    f(in_off, out_off);
    size_t k = loops;
    while (k > 0) {
      --k;
      if (++index[k] < l.batch[k + 1].extent) break;
      index[k] = 0;
      if (k == 0) return;
    }
    if (loops == 0) return;
  }
}

// ---- plans ---------------------------------------------------------------------

using PlanKey = std::tuple<int, int, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t>;

// This thread's plans (a cufftHandle binds one stream at a time, so plans
// are not shared between threads), least recently used first out. Never
// destroyed: destroying plans at exit would call into the CUDA runtime after
// its own teardown.
class PlanCache {
 public:
  static constexpr size_t kCapacity = 32;

  cufftHandle get(int device, cufftType type, int64_t n, int64_t istride, int64_t idist, int64_t ostride,
                  int64_t odist, int64_t batch) {
    const PlanKey key{device, static_cast<int>(type), n, istride, idist, ostride, odist, batch};
    auto it = index_.find(key);
    if (it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);
      return it->second->second;
    }
    if (order_.size() >= kCapacity) {
      cufftDestroy(order_.back().second);
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    cufftHandle plan = 0;
    check_cufft(cufftCreate(&plan), "cufftCreate");
    long long len = n, inembed = std::max<long long>(n, 1), onembed = inembed;
    size_t work = 0;
    const cufftResult r = cufftMakePlanMany64(plan, 1, &len, &inembed, istride, idist, &onembed, ostride, odist,
                                              type, batch, &work);
    if (r != CUFFT_SUCCESS) {
      cufftDestroy(plan);
      check_cufft(r, "cufftMakePlanMany64", "n=" + std::to_string(n), "istride=" + std::to_string(istride),
                  "idist=" + std::to_string(idist), "ostride=" + std::to_string(ostride),
                  "odist=" + std::to_string(odist), "type=" + std::to_string(static_cast<int>(type)),
                  "batch=" + std::to_string(batch));
    }
    order_.emplace_front(key, plan);
    index_[key] = order_.begin();
    return plan;
  }

 private:
  std::list<std::pair<PlanKey, cufftHandle>> order_;
  std::map<PlanKey, std::list<std::pair<PlanKey, cufftHandle>>::iterator> index_;
};

PlanCache& plan_cache() {
  thread_local cuda_detail::NoDestructor<PlanCache> cache;
  return cache.get();
}

// ---- the scaling kernel ---------------------------------------------------------

const char* const kScaleSource = R"KUMO(
#define KUMO_GRID_LOOP(i, count) \
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (count); \
       i += (long long)gridDim.x * blockDim.x)

// x[b * dist + i * stride] *= scale (W = 2: complex, conjugated if conj) for
// i < n, b < batch; strides in elements.
template <typename R, int W>
__device__ void kumo_fft_scale(R* x, long long n, long long stride, long long batch, long long dist, R scale,
                               int conj) {
  KUMO_GRID_LOOP(idx, n * batch) {
    R* p = x + ((idx / n) * dist + (idx % n) * stride) * W;
    p[0] *= scale;
    if (W == 2) p[W - 1] *= conj ? -scale : scale;
  }
}

extern "C" __global__ void kumo_fft_scale_f32(float* x, long long n, long long stride, long long batch,
                                              long long dist, float scale, int conj) {
  kumo_fft_scale<float, 1>(x, n, stride, batch, dist, scale, conj);
}
extern "C" __global__ void kumo_fft_scale_f64(double* x, long long n, long long stride, long long batch,
                                              long long dist, double scale, int conj) {
  kumo_fft_scale<double, 1>(x, n, stride, batch, dist, scale, conj);
}
extern "C" __global__ void kumo_fft_scale_c64(float* x, long long n, long long stride, long long batch,
                                              long long dist, float scale, int conj) {
  kumo_fft_scale<float, 2>(x, n, stride, batch, dist, scale, conj);
}
extern "C" __global__ void kumo_fft_scale_c128(double* x, long long n, long long stride, long long batch,
                                               long long dist, double scale, int conj) {
  kumo_fft_scale<double, 2>(x, n, stride, batch, dist, scale, conj);
}
)KUMO";

// f32, f64, c64, c128 for one device; compiled once per architecture.
const std::vector<void*>& scale_kernels(int device) {
  static std::mutex mutex;
  static cuda_detail::NoDestructor<std::map<int, std::string>> cubins;          // arch -> cubin
  static cuda_detail::NoDestructor<std::map<int, std::vector<void*>>> loaded;  // device -> kernels
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded.get().find(device); it != loaded.get().end()) return it->second;
  CudaKernelBackend& backend = cuda_detail::nvrtc_kernel_backend();
  const int arch = backend.device_arch(device);
  auto cubin = cubins.get().find(arch);
  if (cubin == cubins.get().end())
    cubin = cubins.get().emplace(arch, backend.compile(kScaleSource, "kumo_fft_scale", arch, {})).first;
  std::vector<void*> fns;
  for (const char* name : {"kumo_fft_scale_f32", "kumo_fft_scale_f64", "kumo_fft_scale_c64", "kumo_fft_scale_c128"})
    fns.push_back(backend.load_function(device, cubin->second, name));
  return loaded.get().emplace(device, std::move(fns)).first->second;
}

// ---- one call --------------------------------------------------------------------

struct Call {
  const char* routine;
  int device;
  StreamHandle stream;
  bool is_double;

  cudaStream_t cuda_stream() const { return cuda_detail::to_stream(stream); }

  // Scales (and optionally conjugates) n elements at `stride`, `batch` times
  // `dist` apart, starting at x.
  void scale(void* x, bool complex, int64_t n, int64_t stride, int64_t batch, int64_t dist, double factor,
             bool conj) const {
    if ((factor == 1.0 && !conj) || n <= 0 || batch <= 0) return;
    const std::vector<void*>& fns = scale_kernels(device);
    void* fn = fns[(complex ? 2 : 0) + (is_double ? 1 : 0)];
    void* x_arg = x;
    long long n_arg = n, stride_arg = stride, batch_arg = batch, dist_arg = dist;
    float f32 = static_cast<float>(factor);
    double f64 = factor;
    int conj_arg = conj ? 1 : 0;
    void* args[] = {&x_arg, &n_arg, &stride_arg, &batch_arg, &dist_arg,
                    is_double ? static_cast<void*>(&f64) : static_cast<void*>(&f32), &conj_arg};
    constexpr int64_t kBlock = 256;
    const int64_t blocks = std::min<int64_t>(std::max<int64_t>((n * batch + kBlock - 1) / kBlock, 1), 65536);
    LaunchDims dims;
    dims.grid[0] = static_cast<unsigned>(blocks);
    dims.block[0] = static_cast<unsigned>(kBlock);
    cuda_detail::nvrtc_kernel_backend().launch(device, fn, dims, stream, args);
  }
};

Call begin_call(const char* routine, const void* data, Dtype dtype, StreamHandle stream) {
  if (dtype != Dtype::kFloat32 && dtype != Dtype::kFloat64)
    throw TypeError(std::string("fft backend ") + routine + ": unsupported dtype " + dtype_name(dtype) +
                    " (expected float32 or float64)");
  CudaPlugin* plugin = kumo_cuda_plugin_instance();
  if (plugin->device_count() == 0)
    throw DeviceError(std::string("fft ") + routine + " needs a CUDA device: " + plugin->unavailable_reason());
  cudaPointerAttributes attr{};
  cuda_detail::check(cudaPointerGetAttributes(&attr, data), "cudaPointerGetAttributes", data);
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged) {
    std::ostringstream os;
    os << "fft backend " << routine << ": pointer " << data << " is not CUDA device memory";
    throw ValueError(os.str());
  }
  cuda_detail::set_device(attr.device);
  return Call{routine, attr.device, stream, dtype == Dtype::kFloat64};
}

// Runs one axis: exec(plan, in, out) per slice, then the scaling of that
// slice's output. in_item/out_item: element sizes; complex_out: whether the
// output elements are complex.
template <typename Exec>
void run_axis(const Call& call, cufftType type, int64_t n, const AxisLayout& l, const char* in, size_t in_item,
              char* out, size_t out_item, bool complex_out, double scale, bool conj_out, Exec&& exec) {
  int64_t batch = 0, idist = 0, odist = 0;
  std::tie(batch, idist, odist) = cufft_batch(l);
  const cufftHandle plan = plan_cache().get(call.device, type, n, l.in_stride, idist, l.out_stride, odist, batch);
  check_cufft(cufftSetStream(plan, call.cuda_stream()), "cufftSetStream");
  for_each_slice(l, [&](int64_t in_off, int64_t out_off) {
    const char* src = in + in_off * static_cast<int64_t>(in_item);
    char* dst = out + out_off * static_cast<int64_t>(out_item);
    exec(plan, src, dst);
    call.scale(dst, complex_out, l.n_out, l.out_stride, batch, odist, scale, conj_out);
  });
}

// The bytes an operand of `shape` with non-negative `strides` spans.
size_t span_bytes(const Shape& shape, const Strides& strides, size_t itemsize) {
  int64_t last = 0;
  for (int k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0) return 0;
    last += (shape[k] - 1) * strides[k];
  }
  return static_cast<size_t>(last) + itemsize;
}

bool empty_shape(const Shape& shape) {
  for (int64_t e : shape)
    if (e == 0) return true;
  return false;
}

// The parts r2c and c2r share: the call, the element sizes, the shape of
// the half spectrum and the real length.
struct RealTransform {
  Call call;
  size_t real_item, cplx_item;
  Shape half;
  int64_t n;
};

RealTransform begin_real(const char* routine, const void* in, Dtype dtype, StreamHandle stream,
                         const Shape& real_shape, int axis) {
  RealTransform t{begin_call(routine, in, dtype, stream), 0, 0, real_shape, real_shape[axis]};
  t.real_item = t.call.is_double ? sizeof(double) : sizeof(float);
  t.cplx_item = 2 * t.real_item;
  t.half[axis] = real_shape[axis] / 2 + 1;
  return t;
}

class CufftBackend final : public FftBackend {
 public:
  void c2c(Dtype dtype, const Shape& shape, const void* in, const Strides& in_strides, void* out,
           const Strides& out_strides, const std::vector<int>& axes, bool forward, double scale,
           StreamHandle stream) override {
    if (empty_shape(shape) || axes.empty()) return;
    const Call call = begin_call("c2c", in, dtype, stream);
    const size_t item = call.is_double ? sizeof(cufftDoubleComplex) : sizeof(cufftComplex);
    const cufftType type = call.is_double ? CUFFT_Z2Z : CUFFT_C2C;
    const int direction = forward ? CUFFT_FORWARD : CUFFT_INVERSE;
    for (size_t i = 0; i < axes.size(); ++i) {
      // The first axis reads the input, the others work in place on the output.
      const void* src = i == 0 ? in : out;
      const Strides& src_strides = i == 0 ? in_strides : out_strides;
      const AxisLayout l =
          layout_for(shape, src_strides, item, shape, out_strides, item, axes[i], "c2c");
      const double factor = i + 1 == axes.size() ? scale : 1.0;
      run_axis(call, type, shape[axes[i]], l, static_cast<const char*>(src), item, static_cast<char*>(out), item,
               true, factor, false, [&](cufftHandle plan, const char* s, char* d) {
                 if (call.is_double) {
                   check_cufft(cufftExecZ2Z(plan, reinterpret_cast<cufftDoubleComplex*>(const_cast<char*>(s)),
                                            reinterpret_cast<cufftDoubleComplex*>(d), direction),
                               "cufftExecZ2Z", "n=" + std::to_string(shape[axes[i]]));
                 } else {
                   check_cufft(cufftExecC2C(plan, reinterpret_cast<cufftComplex*>(const_cast<char*>(s)),
                                            reinterpret_cast<cufftComplex*>(d), direction),
                               "cufftExecC2C", "n=" + std::to_string(shape[axes[i]]));
                 }
               });
    }
  }

  void r2c(Dtype dtype, const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
           const Strides& out_strides, int axis, bool forward, double scale, StreamHandle stream) override {
    if (empty_shape(real_shape)) return;
    const RealTransform t = begin_real("r2c", in, dtype, stream, real_shape, axis);
    const Call& call = t.call;
    const size_t real_item = t.real_item, cplx_item = t.cplx_item;
    const int64_t n = t.n;
    const AxisLayout l = layout_for(real_shape, in_strides, real_item, t.half, out_strides, cplx_item, axis, "r2c");
    // cuFFT's real-to-complex is forward only; backward is its conjugate.
    run_axis(call, call.is_double ? CUFFT_D2Z : CUFFT_R2C, n, l, static_cast<const char*>(in), real_item,
             static_cast<char*>(out), cplx_item, true, scale, !forward, [&](cufftHandle plan, const char* s, char* d) {
               if (call.is_double) {
                 check_cufft(cufftExecD2Z(plan, reinterpret_cast<cufftDoubleReal*>(const_cast<char*>(s)),
                                          reinterpret_cast<cufftDoubleComplex*>(d)),
                             "cufftExecD2Z", "n=" + std::to_string(n));
               } else {
                 check_cufft(cufftExecR2C(plan, reinterpret_cast<cufftReal*>(const_cast<char*>(s)),
                                          reinterpret_cast<cufftComplex*>(d)),
                             "cufftExecR2C", "n=" + std::to_string(n));
               }
             });
  }

  void c2r(Dtype dtype, const Shape& real_shape, const void* in, const Strides& in_strides, void* out,
           const Strides& out_strides, int axis, bool forward, double scale, StreamHandle stream) override {
    if (empty_shape(real_shape)) return;
    const RealTransform t = begin_real("c2r", in, dtype, stream, real_shape, axis);
    const Call& call = t.call;
    const size_t real_item = t.real_item, cplx_item = t.cplx_item;
    const Shape& half = t.half;
    const int64_t n = t.n;
    const AxisLayout l = layout_for(half, in_strides, cplx_item, real_shape, out_strides, real_item, axis, "c2r");
    // cuFFT's complex-to-real overwrites its input: work on a copy of the
    // bytes the input spans (same strides).
    const size_t span = span_bytes(half, in_strides, cplx_item);
    std::shared_ptr<Memory> scratch = cuda_detail::cuda_device(call.device).memory_pool().malloc(span, stream);
    cuda_detail::check(cudaMemcpyAsync(scratch->data(), in, span, cudaMemcpyDeviceToDevice, call.cuda_stream()),
                       "cudaMemcpyAsync", scratch->data(), in, span);
    int64_t batch = 0, idist = 0, odist = 0;
    std::tie(batch, idist, odist) = cufft_batch(l);
    run_axis(call, call.is_double ? CUFFT_Z2D : CUFFT_C2R, n, l, static_cast<const char*>(scratch->data()),
             cplx_item, static_cast<char*>(out), real_item, false, scale, false,
             [&](cufftHandle plan, const char* s, char* d) {
               char* src = const_cast<char*>(s);
               // cuFFT's complex-to-real is backward only; forward takes the
               // conjugate of the input.
               if (forward) call.scale(src, true, l.n_in, l.in_stride, batch, idist, 1.0, true);
               if (call.is_double) {
                 check_cufft(cufftExecZ2D(plan, reinterpret_cast<cufftDoubleComplex*>(src),
                                          reinterpret_cast<cufftDoubleReal*>(d)),
                             "cufftExecZ2D", "n=" + std::to_string(n));
               } else {
                 check_cufft(cufftExecC2R(plan, reinterpret_cast<cufftComplex*>(src), reinterpret_cast<cufftReal*>(d)),
                             "cufftExecC2R", "n=" + std::to_string(n));
               }
             });
  }
};

}  // namespace

FftBackend& cufft_backend() {
  static cuda_detail::NoDestructor<CufftBackend> backend;
  return backend.get();
}

namespace {
const BackendRegistration registration(Capability::kFft, DeviceType::kCUDA, []() -> void* { return &cufft_backend(); });
}  // namespace

}  // namespace kumo
