// Shared machinery of the cuBLAS/cuSOLVER backend: status names, argument
// checks, per-thread handles, the call context and the NVRTC helper kernels.
#include "linalg/cuda/cuda_linalg_common.h"

#include <climits>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/cuda_plugin.h"

namespace kumo {
namespace cuda_linalg {

// ---- Errors ------------------------------------------------------------------

const char* cublas_status_name(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "unknown cuBLAS status";
}

const char* cusolver_status_name(cusolverStatus_t status) {
  switch (status) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_MAPPING_ERROR: return "CUSOLVER_STATUS_MAPPING_ERROR";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_ZERO_PIVOT: return "CUSOLVER_STATUS_ZERO_PIVOT";
    case CUSOLVER_STATUS_INVALID_LICENSE: return "CUSOLVER_STATUS_INVALID_LICENSE";
    case CUSOLVER_STATUS_INVALID_WORKSPACE: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default: break;
  }
  // The iterative-refinement (IRS) statuses are never produced by the
  // routines used here.
  return "unknown cuSOLVER status";
}

// ---- Argument validation ---------------------------------------------------------

void require_linalg_dtype(Dtype dtype, const char* routine) {
  switch (dtype) {
    case Dtype::kFloat32:
    case Dtype::kFloat64:
    case Dtype::kComplex64:
    case Dtype::kComplex128:
      return;
    default:
      throw TypeError(std::string(routine) + ": unsupported dtype " + dtype_name(dtype) +
                      " (expected float32, float64, complex64 or complex128)");
  }
}

void require_nonnegative(int64_t value, const char* name, const char* routine) {
  if (value < 0) throw ValueError(std::string(routine) + ": " + name + " must be >= 0, got " + std::to_string(value));
}

void require_leading_dimension(int64_t ld, int64_t rows, const char* name, const char* routine) {
  const int64_t minimum = rows > 1 ? rows : 1;
  if (ld < minimum) {
    throw ValueError(std::string(routine) + ": " + name + "=" + std::to_string(ld) + " must be >= max(1, " +
                     std::to_string(rows) + ")");
  }
}

int to_int(int64_t value, const char* name, const char* routine) {
  if (value > INT_MAX || value < INT_MIN) {
    throw ValueError(std::string(routine) + ": " + name + "=" + std::to_string(value) +
                     " exceeds the 32-bit range of the cuSOLVER/cuBLAS routine");
  }
  return static_cast<int>(value);
}

cublasOperation_t to_cublas_op(Transpose t) {
  switch (t) {
    case Transpose::kNo: return CUBLAS_OP_N;
    case Transpose::kTrans: return CUBLAS_OP_T;
    case Transpose::kConjTrans: return CUBLAS_OP_C;
  }
  throw ValueError("invalid Transpose value " + std::to_string(static_cast<int>(t)));
}

// ---- Handles -----------------------------------------------------------------------

namespace {

struct DeviceHandles {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
};

// One cuBLAS and one cuSOLVER handle per (device, thread): handles are not
// safe to share between threads that set different streams concurrently,
// and creating one costs far more than a call. They go away with their
// thread. For the main thread that is exit(), which runs thread-local
// destructors before the exit handlers that tear the CUDA runtime and the
// libraries down, so the libraries are still there. No handle exists unless
// a call reached a device, so a process without a driver destroys nothing.
class ThreadHandles {
 public:
  ThreadHandles() = default;
  ThreadHandles(const ThreadHandles&) = delete;
  ThreadHandles& operator=(const ThreadHandles&) = delete;

  ~ThreadHandles() {
    for (size_t d = 0; d < slots_.size(); ++d) {
      DeviceHandles& h = slots_[d];
      if (h.blas == nullptr && h.solver == nullptr) continue;
      // Without a usable runtime (already unloading, faulted context) the
      // handles are leaked: destroying them could only fail or crash, and
      // the process or thread is going away anyway. Statuses are ignored
      // for the same reason; nothing can act on them here.
      if (cudaSetDevice(static_cast<int>(d)) != cudaSuccess) {
        cuda_detail::clear_last_error();
        continue;
      }
      if (h.solver != nullptr) (void)cusolverDnDestroy(h.solver);
      if (h.blas != nullptr) (void)cublasDestroy(h.blas);
      cuda_detail::clear_last_error();
    }
  }

  DeviceHandles& at(int device) {
    if (static_cast<size_t>(device) >= slots_.size()) slots_.resize(static_cast<size_t>(device) + 1);
    return slots_[static_cast<size_t>(device)];
  }

 private:
  std::vector<DeviceHandles> slots_;
};

thread_local ThreadHandles t_handles;

}  // namespace

// ---- CallContext -------------------------------------------------------------------

CallContext::CallContext(const char* routine, const void* data, StreamHandle stream)
    : routine_(routine), device_(-1), stream_(stream) {
  CudaPlugin* plugin = kumo_cuda_plugin_instance();
  if (plugin->device_count() == 0) {
    throw DeviceError(std::string(routine) + " needs a CUDA device: " + plugin->unavailable_reason());
  }
  cudaPointerAttributes attr{};
  cuda_detail::check(cudaPointerGetAttributes(&attr, data), "cudaPointerGetAttributes", data);
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged) {
    std::ostringstream os;
    os << routine << ": pointer " << data << " is not CUDA device memory";
    throw ValueError(os.str());
  }
  device_ = attr.device;
  cuda_detail::set_device(device_);
}

cublasHandle_t CallContext::blas() {
  if (blas_ != nullptr) return blas_;
  DeviceHandles& h = t_handles.at(device_);
  if (h.blas == nullptr) {
    cublasHandle_t handle = nullptr;
    check_cublas(cublasCreate(&handle), "cublasCreate", kv("device", device_));
    // Host scalars (alpha, beta) throughout; default math mode: no TF32
    // unless a gemm asks for it through its compute type.
    const cublasStatus_t mode = cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
    const cublasStatus_t math = mode == CUBLAS_STATUS_SUCCESS ? cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH) : mode;
    if (math != CUBLAS_STATUS_SUCCESS) {
      (void)cublasDestroy(handle);
      check_cublas(math, "cublasSetPointerMode/cublasSetMathMode", kv("device", device_));
    }
    h.blas = handle;
  }
  check_cublas(cublasSetStream(h.blas, stream()), "cublasSetStream", cuda_detail::HexHandle{stream_});
  blas_ = h.blas;
  return blas_;
}

cusolverDnHandle_t CallContext::solver() {
  if (solver_ != nullptr) return solver_;
  DeviceHandles& h = t_handles.at(device_);
  if (h.solver == nullptr) {
    cusolverDnHandle_t handle = nullptr;
    check_cusolver(cusolverDnCreate(&handle), "cusolverDnCreate", kv("device", device_));
    h.solver = handle;
  }
  check_cusolver(cusolverDnSetStream(h.solver, stream()), "cusolverDnSetStream", cuda_detail::HexHandle{stream_});
  solver_ = h.solver;
  return solver_;
}

std::shared_ptr<Memory> CallContext::workspace(size_t nbytes) {
  return cuda_detail::cuda_device(device_).memory_pool().malloc(nbytes, stream_);
}

void CallContext::zero_info(int32_t* info, int64_t count) {
  if (count <= 0 || info == nullptr) return;
  const size_t nbytes = static_cast<size_t>(count) * sizeof(int32_t);
  cuda_detail::check(cudaMemsetAsync(info, 0, nbytes, stream()), "cudaMemsetAsync", static_cast<void*>(info), 0,
                     nbytes, cuda_detail::HexHandle{stream_});
}

// ---- Helper kernels ------------------------------------------------------------------

namespace {

// Grid-stride loops: the grid is capped, so any element count fits.
const char* const kKernelSource = R"KUMO(
#define KUMO_GRID_LOOP(i, count) \
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (count); \
       i += (long long)gridDim.x * blockDim.x)

extern "C" __global__ void kumo_linalg_pointer_array(char* base, long long stride, long long count, void** out) {
  KUMO_GRID_LOOP(i, count) out[i] = base + i * stride;
}

template <typename R, int W>
__device__ void kumo_identity(R* a, long long m, long long n, long long lda) {
  KUMO_GRID_LOOP(idx, m * n) {
    const long long i = idx % m, j = idx / m;
    R* p = a + (i + j * lda) * W;
    p[0] = i == j ? R(1) : R(0);
    if constexpr (W == 2) p[1] = R(0);
  }
}

extern "C" __global__ void kumo_linalg_identity_f32(float* a, long long m, long long n, long long lda) {
  kumo_identity<float, 1>(a, m, n, lda);
}
extern "C" __global__ void kumo_linalg_identity_f64(double* a, long long m, long long n, long long lda) {
  kumo_identity<double, 1>(a, m, n, lda);
}
extern "C" __global__ void kumo_linalg_identity_c64(float* a, long long m, long long n, long long lda) {
  kumo_identity<float, 2>(a, m, n, lda);
}
extern "C" __global__ void kumo_linalg_identity_c128(double* a, long long m, long long n, long long lda) {
  kumo_identity<double, 2>(a, m, n, lda);
}

// LAPACK's real geev format: a complex pair (positive imaginary part first)
// occupies columns j, j+1 as real and imaginary parts; the second vector of
// the pair is the conjugate of the first.
template <typename R>
__device__ void kumo_geev_unpack(long long n, const R* wr_wi, const R* v, R* w, R* vr, long long ldvr) {
  const R* wr = wr_wi;
  const R* wi = wr_wi + n;
  const long long total = vr ? n * n : n;
  KUMO_GRID_LOOP(idx, total) {
    if (idx < n) {
      w[2 * idx] = wr[idx];
      w[2 * idx + 1] = wi[idx];
    }
    if (vr) {
      const long long i = idx % n, j = idx / n;
      R re, im;
      if (wi[j] > R(0) && j + 1 < n) {
        re = v[i + j * n];
        im = v[i + (j + 1) * n];
      } else if (wi[j] < R(0) && j > 0) {
        re = v[i + (j - 1) * n];
        im = -v[i + j * n];
      } else {
        re = v[i + j * n];
        im = R(0);
      }
      vr[2 * (i + j * ldvr)] = re;
      vr[2 * (i + j * ldvr) + 1] = im;
    }
  }
}

extern "C" __global__ void kumo_linalg_geev_unpack_f32(long long n, const float* wr_wi, const float* v, float* w,
                                                       float* vr, long long ldvr) {
  kumo_geev_unpack<float>(n, wr_wi, v, w, vr, ldvr);
}
extern "C" __global__ void kumo_linalg_geev_unpack_f64(long long n, const double* wr_wi, const double* v, double* w,
                                                       double* vr, long long ldvr) {
  kumo_geev_unpack<double>(n, wr_wi, v, w, vr, ldvr);
}
)KUMO";

struct KernelSet {
  void* pointer_array = nullptr;
  void* identity[4] = {nullptr, nullptr, nullptr, nullptr};  // f32, f64, c64, c128
  void* geev_unpack_f32 = nullptr;
  void* geev_unpack_f64 = nullptr;
};

// Compiled once per architecture and loaded once per device, on first use:
// most programs never call a routine that needs them.
const KernelSet& kernels_for(int device) {
  static std::mutex mutex;
  static cuda_detail::NoDestructor<std::map<int, std::string>> cubins;  // arch -> cubin
  static cuda_detail::NoDestructor<std::map<int, KernelSet>> loaded;    // device -> kernels
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded.get().find(device); it != loaded.get().end()) return it->second;
  CudaKernelBackend& backend = cuda_detail::nvrtc_kernel_backend();
  const int arch = backend.device_arch(device);
  auto cubin_it = cubins.get().find(arch);
  if (cubin_it == cubins.get().end()) {
    cubin_it = cubins.get().emplace(arch, backend.compile(kKernelSource, "kumo_linalg_helpers", arch, {})).first;
  }
  const std::string& cubin = cubin_it->second;
  KernelSet set;
  set.pointer_array = backend.load_function(device, cubin, "kumo_linalg_pointer_array");
  set.identity[0] = backend.load_function(device, cubin, "kumo_linalg_identity_f32");
  set.identity[1] = backend.load_function(device, cubin, "kumo_linalg_identity_f64");
  set.identity[2] = backend.load_function(device, cubin, "kumo_linalg_identity_c64");
  set.identity[3] = backend.load_function(device, cubin, "kumo_linalg_identity_c128");
  set.geev_unpack_f32 = backend.load_function(device, cubin, "kumo_linalg_geev_unpack_f32");
  set.geev_unpack_f64 = backend.load_function(device, cubin, "kumo_linalg_geev_unpack_f64");
  return loaded.get().emplace(device, set).first->second;
}

LaunchDims grid_for(int64_t count) {
  constexpr int64_t kBlock = 256;
  constexpr int64_t kMaxBlocks = 65536;
  int64_t blocks = (count + kBlock - 1) / kBlock;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  if (blocks < 1) blocks = 1;
  LaunchDims dims;
  dims.grid[0] = static_cast<unsigned>(blocks);
  dims.block[0] = static_cast<unsigned>(kBlock);
  return dims;
}

}  // namespace

void fill_pointer_array(CallContext& ctx, void* base, int64_t stride_bytes, int64_t count, void** out) {
  if (count <= 0) return;
  const KernelSet& k = kernels_for(ctx.device());
  char* base_arg = static_cast<char*>(base);
  long long stride_arg = stride_bytes;
  long long count_arg = count;
  void** out_arg = out;
  void* args[] = {&base_arg, &stride_arg, &count_arg, &out_arg};
  cuda_detail::nvrtc_kernel_backend().launch(ctx.device(), k.pointer_array, grid_for(count), ctx.stream_handle(),
                                             args);
}

void set_identity(CallContext& ctx, Dtype dtype, void* a, int64_t m, int64_t n, int64_t lda) {
  if (m <= 0 || n <= 0) return;
  const KernelSet& k = kernels_for(ctx.device());
  int which;
  switch (dtype) {
    case Dtype::kFloat32: which = 0; break;
    case Dtype::kFloat64: which = 1; break;
    case Dtype::kComplex64: which = 2; break;
    case Dtype::kComplex128: which = 3; break;
    default: require_linalg_dtype(dtype, ctx.routine()); return;
  }
  void* a_arg = a;
  long long m_arg = m, n_arg = n, lda_arg = lda;
  void* args[] = {&a_arg, &m_arg, &n_arg, &lda_arg};
  cuda_detail::nvrtc_kernel_backend().launch(ctx.device(), k.identity[which], grid_for(m * n), ctx.stream_handle(),
                                             args);
}

void unpack_real_geev(CallContext& ctx, bool is_double, int64_t n, const void* wr_wi, const void* v, void* w,
                      void* vr, int64_t ldvr) {
  if (n <= 0) return;
  const KernelSet& k = kernels_for(ctx.device());
  long long n_arg = n;
  const void* wr_wi_arg = wr_wi;
  const void* v_arg = v;
  void* w_arg = w;
  void* vr_arg = v != nullptr ? vr : nullptr;
  long long ldvr_arg = ldvr;
  void* args[] = {&n_arg, &wr_wi_arg, &v_arg, &w_arg, &vr_arg, &ldvr_arg};
  const int64_t count = vr_arg != nullptr ? n * n : n;
  cuda_detail::nvrtc_kernel_backend().launch(ctx.device(), is_double ? k.geev_unpack_f64 : k.geev_unpack_f32,
                                             grid_for(count), ctx.stream_handle(), args);
}

}  // namespace cuda_linalg
}  // namespace kumo
