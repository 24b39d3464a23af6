// CudnnBackend (see cudnn_backend.h): cuDNN's legacy convolution and pooling
// API, reached through a table of function pointers filled by dlsym from
// libcudnn.so.9 (the plugin has no link-time dependency on cuDNN).
//
// cuDNN needs 4-d or 5-d tensors: a problem with one spatial axis runs as a
// 2-d one with a unit axis in front (extent 1, kernel 1, stride 1, pad 0),
// which has the same C-contiguous memory layout.
#include "nn/cuda/cudnn_backend.h"

#include <cudnn.h>
#include <dlfcn.h>

#include <climits>
#include <initializer_list>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/backend_registry.h"
#include "core/cuda/cuda_common.h"
#include "core/errors.h"
#include "core/memory.h"

namespace kumo {

// Every cuDNN function the backend calls; KUMO_CUDNN_FUNCTIONS(X) expands
// X(name) once per function.
#define KUMO_CUDNN_FUNCTIONS(X)                     \
  X(cudnnGetVersion)                                \
  X(cudnnGetErrorString)                            \
  X(cudnnCreate)                                    \
  X(cudnnDestroy)                                   \
  X(cudnnSetStream)                                 \
  X(cudnnCreateTensorDescriptor)                    \
  X(cudnnSetTensorNdDescriptor)                     \
  X(cudnnDestroyTensorDescriptor)                   \
  X(cudnnCreateFilterDescriptor)                    \
  X(cudnnSetFilterNdDescriptor)                     \
  X(cudnnDestroyFilterDescriptor)                   \
  X(cudnnCreateConvolutionDescriptor)               \
  X(cudnnSetConvolutionNdDescriptor)                \
  X(cudnnSetConvolutionGroupCount)                  \
  X(cudnnSetConvolutionMathType)                    \
  X(cudnnDestroyConvolutionDescriptor)              \
  X(cudnnGetConvolutionForwardAlgorithm_v7)         \
  X(cudnnGetConvolutionBackwardDataAlgorithm_v7)    \
  X(cudnnGetConvolutionBackwardFilterAlgorithm_v7)  \
  X(cudnnGetConvolutionForwardWorkspaceSize)        \
  X(cudnnGetConvolutionBackwardDataWorkspaceSize)   \
  X(cudnnGetConvolutionBackwardFilterWorkspaceSize) \
  X(cudnnConvolutionForward)                        \
  X(cudnnConvolutionBackwardData)                   \
  X(cudnnConvolutionBackwardFilter)                 \
  X(cudnnAddTensor)                                 \
  X(cudnnCreatePoolingDescriptor)                   \
  X(cudnnSetPoolingNdDescriptor)                    \
  X(cudnnDestroyPoolingDescriptor)                  \
  X(cudnnPoolingForward)                            \
  X(cudnnPoolingBackward)                           \
  X(cudnnGetConvolutionNdForwardOutputDim)          \
  X(cudnnGetPoolingNdForwardOutputDim)

namespace {

// A chosen algorithm and the workspace it needs.
struct Choice {
  int algo = 0;
  size_t workspace = 0;
};

// Algorithms whose workspace exceeds this are used only when every
// applicable one does: the heuristics sometimes rank an FFT algorithm first
// that wants gigabytes, which would crowd the memory pool for little gain.
constexpr size_t kWorkspaceSoftLimit = size_t{256} << 20;

}  // namespace

struct CudnnBackend::Impl {
#define KUMO_CUDNN_POINTER(fn) decltype(&::fn) fn = nullptr;
  KUMO_CUDNN_FUNCTIONS(KUMO_CUDNN_POINTER)
#undef KUMO_CUDNN_POINTER

  void* library = nullptr;  // never closed: handles may outlive every caller
  size_t version = 0;       // cudnnGetVersion(): major * 10000 + minor * 100 + patch

  // The algorithm per (direction, dtype, device, geometry), from cuDNN's
  // heuristics (cudnnGet*Algorithm_v7, which need no benchmark run and so
  // never synchronize or allocate while choosing).
  std::mutex cache_mutex;
  std::map<std::string, Choice> algorithms;
};

namespace {

using Impl = CudnnBackend::Impl;

// ---- Errors ------------------------------------------------------------------

[[noreturn]] __attribute__((noinline, cold)) void throw_status(const Impl& api, cudnnStatus_t status, const char* call,
                                                               const std::string& what) {
  // A failed call may leave the runtime's last error set; it must not be
  // blamed on the next unrelated call.
  cuda_detail::clear_last_error();
  throw DeviceError(std::string(call) + " failed: " + api.cudnnGetErrorString(status) + " (" + what + ")");
}

// `describe` builds the message's problem description only on failure.
template <typename Describe>
inline void check(const Impl& api, cudnnStatus_t status, const char* call, const Describe& describe) {
  if (status != CUDNN_STATUS_SUCCESS) throw_status(api, status, call, describe());
}

std::string join(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

const char* mode_name(PoolMode mode) {
  switch (mode) {
    case PoolMode::kMax:
      return "max";
    case PoolMode::kAverageIncludePad:
      return "average (padding counted)";
    case PoolMode::kAverageExcludePad:
      return "average (padding not counted)";
  }
  return "unknown";
}

std::string describe_conv(Dtype dtype, const ConvGeometry& g) {
  return std::string(dtype_name(dtype)) + " convolution " + g.to_string();
}

std::string describe_pool(Dtype dtype, PoolMode mode, const PoolGeometry& g) {
  return std::string(dtype_name(dtype)) + " " + mode_name(mode) + " pooling N=" + std::to_string(g.batch) +
         " C=" + std::to_string(g.channels) + " in=" + join(g.in_size) + " ksize=" + join(g.ksize) +
         " stride=" + join(g.stride) + " pad=" + join(g.pad_lo) + "/" + join(g.pad_hi);
}

// ---- Types ---------------------------------------------------------------------

bool cudnn_dtype(Dtype dtype, cudnnDataType_t* out) {
  switch (dtype) {
    case Dtype::kFloat16:
      *out = CUDNN_DATA_HALF;
      return true;
    case Dtype::kFloat32:
      *out = CUDNN_DATA_FLOAT;
      return true;
    case Dtype::kFloat64:
      *out = CUDNN_DATA_DOUBLE;
      return true;
    default:
      return false;
  }
}

cudnnDataType_t data_type(Dtype dtype) {
  cudnnDataType_t t = CUDNN_DATA_FLOAT;
  if (!cudnn_dtype(dtype, &t)) throw TypeError(std::string("cuDNN has no data type for ") + dtype_name(dtype));
  return t;
}

// float16 convolutions accumulate in float32 (cuDNN's "pseudo half"
// configuration, which every algorithm supports and which keeps sums of many
// products accurate); the others in their own type.
cudnnDataType_t compute_type(Dtype dtype) { return dtype == Dtype::kFloat64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT; }

// Tensor cores for float16 (they read half inputs and accumulate in float32,
// so nothing is lost against the pseudo-half configuration); plain FMA math
// for float32, because tensor-core float32 means TF32 (10-bit mantissa
// inputs) and results must agree with the host and with kumo's own kernels
// to float32 accuracy; float64 has no tensor-op variant to choose.
cudnnMathType_t math_type(Dtype dtype) {
  switch (dtype) {
    case Dtype::kFloat16:
      return CUDNN_TENSOR_OP_MATH;
    case Dtype::kFloat32:
      return CUDNN_FMA_MATH;
    default:
      return CUDNN_DEFAULT_MATH;
  }
}

// alpha and beta: float for half and float data, double for double data.
struct Scale {
  float f;
  double d;
  explicit Scale(double v) : f(static_cast<float>(v)), d(v) {}
  const void* get(Dtype dtype) const {
    return dtype == Dtype::kFloat64 ? static_cast<const void*>(&d) : static_cast<const void*>(&f);
  }
};
const Scale kOne(1.0);
const Scale kZero(0.0);

// ---- Geometry checks -----------------------------------------------------------

// a * b * ... stays within cuDNN's int range (strides and element counts are
// int in the legacy API).
bool product_fits(std::initializer_list<int64_t> heads, const std::vector<int64_t>& tail) {
  int64_t p = 1;
  const auto mul = [&p](int64_t v) {
    if (v <= 0 || v > INT_MAX || p > INT_MAX / v) return false;
    p *= v;
    return true;
  };
  for (int64_t v : heads)
    if (!mul(v)) return false;
  for (int64_t v : tail)
    if (!mul(v)) return false;
  return true;
}

bool all_in(const std::vector<int64_t>& v, int64_t lo) {
  for (int64_t e : v)
    if (e < lo || e > INT_MAX) return false;
  return true;
}

bool conv_supported(Dtype dtype, const ConvGeometry& g) {
  cudnnDataType_t t;
  if (!cudnn_dtype(dtype, &t)) return false;
  const size_t nd = g.ndim();
  if (nd < 1 || nd > 3) return false;
  if (g.ksize.size() != nd || g.stride.size() != nd || g.pad_lo.size() != nd || g.pad_hi.size() != nd ||
      g.dilate.size() != nd)
    return false;
  // cuDNN pads both ends of an axis by the same amount.
  if (!g.symmetric_padding()) return false;
  if (g.groups < 1 || g.in_channels < 1 || g.out_channels < 1 || g.batch < 1) return false;
  if (g.in_channels % g.groups != 0 || g.out_channels % g.groups != 0) return false;
  if (!all_in(g.in_size, 1) || !all_in(g.ksize, 1) || !all_in(g.stride, 1) || !all_in(g.dilate, 1) ||
      !all_in(g.pad_lo, 0))
    return false;
  for (size_t a = 0; a < nd; ++a) {
    // A window that lies wholly in the padding is legal for kumo but not a
    // case cuDNN documents; such geometries are left to the fallback.
    if (g.pad_lo[a] >= (g.ksize[a] - 1) * g.dilate[a] + 1) return false;
  }
  const std::vector<int64_t> out = g.out_size();
  if (!all_in(out, 1)) return false;
  return product_fits({g.batch, g.in_channels}, g.in_size) && product_fits({g.batch, g.out_channels}, out) &&
         product_fits({g.out_channels, g.in_channels / g.groups}, g.ksize);
}

bool pool_supported(Dtype dtype, const PoolGeometry& g) {
  cudnnDataType_t t;
  if (!cudnn_dtype(dtype, &t)) return false;
  const size_t nd = g.ndim();
  if (nd < 1 || nd > 3) return false;
  if (g.ksize.size() != nd || g.stride.size() != nd || g.pad_lo.size() != nd || g.pad_hi.size() != nd) return false;
  if (!g.symmetric_padding()) return false;
  if (g.batch < 1 || g.channels < 1) return false;
  if (!all_in(g.in_size, 1) || !all_in(g.ksize, 1) || !all_in(g.stride, 1) || !all_in(g.pad_lo, 0)) return false;
  // pad < ksize: every window then holds an element of x (a window starting
  // at o * stride - pad with o < out ends at or after 0 and starts before
  // the end), so max never sees only padding and the average's divisor is
  // never zero.
  for (size_t a = 0; a < nd; ++a)
    if (g.pad_lo[a] >= g.ksize[a]) return false;
  const std::vector<int64_t> out = g.out_size();
  if (!all_in(out, 1)) return false;
  return product_fits({g.batch, g.channels}, g.in_size) && product_fits({g.batch, g.channels}, out);
}

// ---- The cuDNN form of a problem -------------------------------------------------

std::vector<int> to_ints(const std::vector<int64_t>& v) { return std::vector<int>(v.begin(), v.end()); }

// Spatial vectors for cuDNN: with one spatial axis, a unit axis is put in
// front (value `unit`), so descriptors are always 4-d or 5-d.
std::vector<int> spatial(const std::vector<int64_t>& v, int unit) {
  std::vector<int> out = to_ints(v);
  if (out.size() == 1) out.insert(out.begin(), unit);
  return out;
}

// C-contiguous strides of dims.
std::vector<int> contiguous_strides(const std::vector<int>& dims) {
  std::vector<int> strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i > 0; --i) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

// RAII for one cuDNN descriptor: created on construction, destroyed with the
// object. The destroy status is ignored: nothing could act on it there.
template <typename D>
class Descriptor {
 public:
  using Create = cudnnStatus_t (*)(D*);
  using Destroy = cudnnStatus_t (*)(D);
  template <typename Describe>
  Descriptor(const Impl& api, Create create, Destroy destroy, const char* create_name, const Describe& describe)
      : destroy_(destroy) {
    check(api, create(&desc_), create_name, describe);
  }
  ~Descriptor() {
    if (desc_ != nullptr) (void)destroy_(desc_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  D get() const { return desc_; }

 private:
  D desc_ = nullptr;
  Destroy destroy_;
};

using TensorDesc = Descriptor<cudnnTensorDescriptor_t>;
using FilterDesc = Descriptor<cudnnFilterDescriptor_t>;
using ConvDesc = Descriptor<cudnnConvolutionDescriptor_t>;
using PoolDesc = Descriptor<cudnnPoolingDescriptor_t>;

template <typename Describe>
std::unique_ptr<TensorDesc> make_tensor(const Impl& api, cudnnDataType_t type, const std::vector<int>& dims,
                                        const Describe& describe) {
  auto t = std::make_unique<TensorDesc>(api, api.cudnnCreateTensorDescriptor, api.cudnnDestroyTensorDescriptor,
                                        "cudnnCreateTensorDescriptor", describe);
  const std::vector<int> strides = contiguous_strides(dims);
  check(api, api.cudnnSetTensorNdDescriptor(t->get(), type, static_cast<int>(dims.size()), dims.data(), strides.data()),
        "cudnnSetTensorNdDescriptor", describe);
  return t;
}

// The descriptors of one convolution: x (N, C, *in), w (Cout, C / groups,
// *k), y (N, Cout, *out) and the convolution itself.
struct ConvProblem {
  std::unique_ptr<TensorDesc> x, y;
  std::unique_ptr<FilterDesc> w;
  std::unique_ptr<ConvDesc> conv;

  template <typename Describe>
  ConvProblem(const Impl& api, Dtype dtype, const ConvGeometry& g, const Describe& describe) {
    const cudnnDataType_t type = data_type(dtype);
    const int n = static_cast<int>(g.batch), c = static_cast<int>(g.in_channels);
    const int cout = static_cast<int>(g.out_channels);
    std::vector<int> xd = {n, c}, yd = {n, cout}, wd = {cout, static_cast<int>(g.in_channels / g.groups)};
    for (int e : spatial(g.in_size, 1)) xd.push_back(e);
    for (int e : spatial(g.out_size(), 1)) yd.push_back(e);
    for (int e : spatial(g.ksize, 1)) wd.push_back(e);
    x = make_tensor(api, type, xd, describe);
    y = make_tensor(api, type, yd, describe);

    w = std::make_unique<FilterDesc>(api, api.cudnnCreateFilterDescriptor, api.cudnnDestroyFilterDescriptor,
                                     "cudnnCreateFilterDescriptor", describe);
    check(api,
          api.cudnnSetFilterNdDescriptor(w->get(), type, CUDNN_TENSOR_NCHW, static_cast<int>(wd.size()), wd.data()),
          "cudnnSetFilterNdDescriptor", describe);

    conv = std::make_unique<ConvDesc>(api, api.cudnnCreateConvolutionDescriptor, api.cudnnDestroyConvolutionDescriptor,
                                      "cudnnCreateConvolutionDescriptor", describe);
    const std::vector<int> pad = spatial(g.pad_lo, 0), stride = spatial(g.stride, 1), dilate = spatial(g.dilate, 1);
    // Chainer's convolution is a cross-correlation (the kernel is not
    // flipped), which is cuDNN's CUDNN_CROSS_CORRELATION.
    check(api,
          api.cudnnSetConvolutionNdDescriptor(conv->get(), static_cast<int>(pad.size()), pad.data(), stride.data(),
                                              dilate.data(), CUDNN_CROSS_CORRELATION, compute_type(dtype)),
          "cudnnSetConvolutionNdDescriptor", describe);
    check(api, api.cudnnSetConvolutionGroupCount(conv->get(), static_cast<int>(g.groups)),
          "cudnnSetConvolutionGroupCount", describe);
    check(api, api.cudnnSetConvolutionMathType(conv->get(), math_type(dtype)), "cudnnSetConvolutionMathType", describe);
  }
};

// ---- Handles -------------------------------------------------------------------

// One cuDNN handle per (device, thread), as the cuBLAS handles of
// linalg/cuda: a handle is bound to one stream at a time, and creating one
// costs far more than a call. They are destroyed when their thread ends;
// for the main thread that is exit(), whose thread-local destructors run
// before the exit handlers that tear the libraries down.
class ThreadHandles {
 public:
  ThreadHandles() = default;
  ThreadHandles(const ThreadHandles&) = delete;
  ThreadHandles& operator=(const ThreadHandles&) = delete;

  ~ThreadHandles() {
    if (api_ == nullptr) return;
    for (size_t d = 0; d < slots_.size(); ++d) {
      if (slots_[d] == nullptr) continue;
      // Without a usable runtime (faulted context, teardown) the handle is
      // leaked: destroying it could only fail, and the thread is ending.
      if (cudaSetDevice(static_cast<int>(d)) != cudaSuccess) {
        cuda_detail::clear_last_error();
        continue;
      }
      (void)api_->cudnnDestroy(slots_[d]);
      cuda_detail::clear_last_error();
    }
  }

  cudnnHandle_t get(const Impl& api, int device) {
    api_ = &api;
    if (static_cast<size_t>(device) >= slots_.size()) slots_.resize(static_cast<size_t>(device) + 1, nullptr);
    cudnnHandle_t& h = slots_[static_cast<size_t>(device)];
    if (h == nullptr) {
      cudnnHandle_t created = nullptr;
      check(api, api.cudnnCreate(&created), "cudnnCreate", [device] { return "device " + std::to_string(device); });
      h = created;
    }
    return h;
  }

 private:
  const Impl* api_ = nullptr;
  std::vector<cudnnHandle_t> slots_;
};

thread_local ThreadHandles t_handles;

// Everything one call works with: its device made current, this thread's
// handle for it bound to the device's current stream.
struct Call {
  int device = 0;
  StreamHandle stream = 0;
  cudnnHandle_t handle = nullptr;
};

template <typename Describe>
Call begin_call(const Impl& api, Device& device, const Describe& describe) {
  if (device.type() != DeviceType::kCUDA) {
    throw ValueError("the cuDNN backend got arrays on " + device.name() + " (" + describe() + ")");
  }
  cuda_detail::require_device(device.index());
  Call c;
  c.device = device.index();
  cuda_detail::set_device(c.device);
  c.stream = device.current_stream();
  c.handle = t_handles.get(api, c.device);
  check(api, api.cudnnSetStream(c.handle, cuda_detail::to_stream(c.stream)), "cudnnSetStream", describe);
  return c;
}

// Stream-ordered workspace from the device's pool: memory freed when the
// returned block goes away is reused only by later work on the same stream,
// so dropping it right after queueing the call is safe.
std::shared_ptr<Memory> workspace(Device& device, size_t nbytes) {
  if (nbytes == 0) return nullptr;
  return device.memory_pool().malloc(nbytes, device.current_stream());
}

// The first algorithm the heuristics rank applicable whose workspace size
// query succeeds and stays under the soft limit; else the applicable one
// with the smallest workspace.
template <typename Perf, typename WorkspaceSize, typename Describe>
Choice pick(const Impl& api, const Perf* perf, int count, const WorkspaceSize& workspace_size, const char* what,
            const Describe& describe) {
  Choice best;
  bool found = false;
  for (int i = 0; i < count; ++i) {
    if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
    size_t nbytes = 0;
    if (workspace_size(perf[i].algo, &nbytes) != CUDNN_STATUS_SUCCESS) continue;
    if (nbytes <= kWorkspaceSoftLimit) return Choice{static_cast<int>(perf[i].algo), nbytes};
    if (!found || nbytes < best.workspace) best = Choice{static_cast<int>(perf[i].algo), nbytes};
    found = true;
  }
  if (!found) {
    cuda_detail::clear_last_error();
    throw DeviceError(std::string("cuDNN has no applicable ") + what + " algorithm (" + describe() + ")");
  }
  return best;
}

enum class Direction { kForward, kBackwardData, kBackwardFilter };

// The cached choice for one problem, made on first use.
template <typename Describe>
Choice algorithm(Impl& api, Direction dir, Dtype dtype, const ConvGeometry& g, const Call& c, const ConvProblem& p,
                 const Describe& describe) {
  const std::string key = std::to_string(static_cast<int>(dir)) + " " + dtype_name(dtype) +
                          " cuda:" + std::to_string(c.device) + " " + g.to_string();
  {
    std::lock_guard<std::mutex> lock(api.cache_mutex);
    auto it = api.algorithms.find(key);
    if (it != api.algorithms.end()) return it->second;
  }
  Choice choice;
  int count = 0;
  switch (dir) {
    case Direction::kForward: {
      cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
      check(api,
            api.cudnnGetConvolutionForwardAlgorithm_v7(c.handle, p.x->get(), p.w->get(), p.conv->get(), p.y->get(),
                                                       CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf),
            "cudnnGetConvolutionForwardAlgorithm_v7", describe);
      choice = pick(
          api, perf, count,
          [&](cudnnConvolutionFwdAlgo_t a, size_t* n) {
            return api.cudnnGetConvolutionForwardWorkspaceSize(c.handle, p.x->get(), p.w->get(), p.conv->get(),
                                                               p.y->get(), a, n);
          },
          "forward convolution", describe);
      break;
    }
    case Direction::kBackwardData: {
      cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
      check(api,
            api.cudnnGetConvolutionBackwardDataAlgorithm_v7(c.handle, p.w->get(), p.y->get(), p.conv->get(), p.x->get(),
                                                            CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &count, perf),
            "cudnnGetConvolutionBackwardDataAlgorithm_v7", describe);
      choice = pick(
          api, perf, count,
          [&](cudnnConvolutionBwdDataAlgo_t a, size_t* n) {
            return api.cudnnGetConvolutionBackwardDataWorkspaceSize(c.handle, p.w->get(), p.y->get(), p.conv->get(),
                                                                    p.x->get(), a, n);
          },
          "backward-data convolution", describe);
      break;
    }
    case Direction::kBackwardFilter: {
      cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
      check(
          api,
          api.cudnnGetConvolutionBackwardFilterAlgorithm_v7(c.handle, p.x->get(), p.y->get(), p.conv->get(), p.w->get(),
                                                            CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &count, perf),
          "cudnnGetConvolutionBackwardFilterAlgorithm_v7", describe);
      choice = pick(
          api, perf, count,
          [&](cudnnConvolutionBwdFilterAlgo_t a, size_t* n) {
            return api.cudnnGetConvolutionBackwardFilterWorkspaceSize(c.handle, p.x->get(), p.y->get(), p.conv->get(),
                                                                      p.w->get(), a, n);
          },
          "backward-filter convolution", describe);
      break;
    }
  }
  std::lock_guard<std::mutex> lock(api.cache_mutex);
  api.algorithms.emplace(key, choice);
  return choice;
}

cudnnPoolingMode_t pooling_mode(PoolMode mode) {
  switch (mode) {
    case PoolMode::kMax:
      // The deterministic variant: its backward routes each gradient to one
      // maximum of the window, as kumo's own kernels do, instead of racing.
      return CUDNN_POOLING_MAX_DETERMINISTIC;
    case PoolMode::kAverageIncludePad:
      return CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
    case PoolMode::kAverageExcludePad:
      return CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
  }
  throw ValueError("invalid PoolMode " + std::to_string(static_cast<int>(mode)));
}

// The descriptors of one pooling: x (N, C, *in), y (N, C, *out), the window.
struct PoolProblem {
  std::unique_ptr<TensorDesc> x, y;
  std::unique_ptr<PoolDesc> pool;

  template <typename Describe>
  PoolProblem(const Impl& api, Dtype dtype, PoolMode mode, const PoolGeometry& g, const Describe& describe) {
    const cudnnDataType_t type = data_type(dtype);
    std::vector<int> xd = {static_cast<int>(g.batch), static_cast<int>(g.channels)}, yd = xd;
    for (int e : spatial(g.in_size, 1)) xd.push_back(e);
    for (int e : spatial(g.out_size(), 1)) yd.push_back(e);
    x = make_tensor(api, type, xd, describe);
    y = make_tensor(api, type, yd, describe);
    pool = std::make_unique<PoolDesc>(api, api.cudnnCreatePoolingDescriptor, api.cudnnDestroyPoolingDescriptor,
                                      "cudnnCreatePoolingDescriptor", describe);
    const std::vector<int> window = spatial(g.ksize, 1), pad = spatial(g.pad_lo, 0), stride = spatial(g.stride, 1);
    // NaN propagates: kumo's max pooling lets a NaN win its window, as
    // NumPy's max does.
    check(api,
          api.cudnnSetPoolingNdDescriptor(pool->get(), pooling_mode(mode), CUDNN_PROPAGATE_NAN,
                                          static_cast<int>(window.size()), window.data(), pad.data(), stride.data()),
          "cudnnSetPoolingNdDescriptor", describe);
  }
};

// ---- Loading -------------------------------------------------------------------

struct Loaded {
  std::unique_ptr<CudnnBackend> backend;
  std::string error;
};

Loaded load() {
  Loaded out;
  (void)dlerror();
  // Found through the plugin's run path (the toolkit's library folder) or
  // the usual search; RTLD_LOCAL keeps cuDNN's symbols out of the process's
  // global namespace.
  void* library = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* e = dlerror();
    out.error = std::string("cannot load libcudnn.so.9: ") + (e ? e : "unknown dlopen error");
    return out;
  }
  auto impl = std::make_unique<Impl>();
  impl->library = library;
  std::string missing;
#define KUMO_CUDNN_LOOKUP(fn)                                        \
  impl->fn = reinterpret_cast<decltype(&::fn)>(dlsym(library, #fn)); \
  if (impl->fn == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(#fn);
  KUMO_CUDNN_FUNCTIONS(KUMO_CUDNN_LOOKUP)
#undef KUMO_CUDNN_LOOKUP
  if (!missing.empty()) {
    dlclose(library);
    out.error = "libcudnn.so.9 lacks " + missing;
    return out;
  }
  impl->version = impl->cudnnGetVersion();
  out.backend = std::make_unique<CudnnBackend>(std::move(impl));
  return out;
}

// Loaded once per process and never destroyed: thread-local handles are
// destroyed through it until the very end of the process.
Loaded& loaded() {
  static cuda_detail::NoDestructor<Loaded> instance(load());
  return instance.get();
}

}  // namespace

// ---- CudnnBackend ----------------------------------------------------------------

CudnnBackend::CudnnBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CudnnBackend::~CudnnBackend() = default;

std::string CudnnBackend::name() const {
  const size_t v = impl_->version;
  return "cuDNN " + std::to_string(v / 10000) + "." + std::to_string(v % 10000 / 100) + "." + std::to_string(v % 100);
}

bool CudnnBackend::supports_convolution(Dtype dtype, const ConvGeometry& g) const { return conv_supported(dtype, g); }

bool CudnnBackend::supports_pooling(Dtype dtype, PoolMode mode, const PoolGeometry& g) const {
  (void)mode;  // every PoolMode has a cuDNN mode
  return pool_supported(dtype, g);
}

namespace {

template <typename Describe>
void require(bool supported, const char* routine, const Describe& describe) {
  if (!supported) {
    throw ValueError(std::string("cuDNN ") + routine + " does not handle " + describe() +
                     " (the caller must check supports_*)");
  }
}

}  // namespace

void CudnnBackend::convolution_forward(Device& device, Dtype dtype, const ConvGeometry& g, const void* x, const void* w,
                                       const void* b, void* y) {
  Impl& api = *impl_;
  const auto describe = [&] { return describe_conv(dtype, g); };
  require(conv_supported(dtype, g), "convolution_forward", describe);
  const Call c = begin_call(api, device, describe);
  const ConvProblem p(api, dtype, g, describe);
  const Choice ch = algorithm(api, Direction::kForward, dtype, g, c, p, describe);
  const std::shared_ptr<Memory> ws = workspace(device, ch.workspace);
  check(api,
        api.cudnnConvolutionForward(c.handle, kOne.get(dtype), p.x->get(), x, p.w->get(), w, p.conv->get(),
                                    static_cast<cudnnConvolutionFwdAlgo_t>(ch.algo), ws ? ws->data() : nullptr,
                                    ch.workspace, kZero.get(dtype), p.y->get(), y),
        "cudnnConvolutionForward", describe);
  if (b == nullptr) return;
  // y += b broadcast over (N, *out): a (1, Cout, 1, ...) tensor of y's rank.
  std::vector<int> bd(g.ndim() == 1 ? 4 : g.ndim() + 2, 1);
  bd[1] = static_cast<int>(g.out_channels);
  const auto bias = make_tensor(api, data_type(dtype), bd, describe);
  check(api, api.cudnnAddTensor(c.handle, kOne.get(dtype), bias->get(), b, kOne.get(dtype), p.y->get(), y),
        "cudnnAddTensor", describe);
}

void CudnnBackend::convolution_backward_data(Device& device, Dtype dtype, const ConvGeometry& g, const void* w,
                                             const void* gy, void* gx) {
  Impl& api = *impl_;
  const auto describe = [&] { return describe_conv(dtype, g); };
  require(conv_supported(dtype, g), "convolution_backward_data", describe);
  const Call c = begin_call(api, device, describe);
  const ConvProblem p(api, dtype, g, describe);
  const Choice ch = algorithm(api, Direction::kBackwardData, dtype, g, c, p, describe);
  const std::shared_ptr<Memory> ws = workspace(device, ch.workspace);
  check(api,
        api.cudnnConvolutionBackwardData(c.handle, kOne.get(dtype), p.w->get(), w, p.y->get(), gy, p.conv->get(),
                                         static_cast<cudnnConvolutionBwdDataAlgo_t>(ch.algo), ws ? ws->data() : nullptr,
                                         ch.workspace, kZero.get(dtype), p.x->get(), gx),
        "cudnnConvolutionBackwardData", describe);
}

void CudnnBackend::convolution_backward_weights(Device& device, Dtype dtype, const ConvGeometry& g, const void* x,
                                                const void* gy, void* gw) {
  Impl& api = *impl_;
  const auto describe = [&] { return describe_conv(dtype, g); };
  require(conv_supported(dtype, g), "convolution_backward_weights", describe);
  const Call c = begin_call(api, device, describe);
  const ConvProblem p(api, dtype, g, describe);
  const Choice ch = algorithm(api, Direction::kBackwardFilter, dtype, g, c, p, describe);
  const std::shared_ptr<Memory> ws = workspace(device, ch.workspace);
  check(api,
        api.cudnnConvolutionBackwardFilter(c.handle, kOne.get(dtype), p.x->get(), x, p.y->get(), gy, p.conv->get(),
                                           static_cast<cudnnConvolutionBwdFilterAlgo_t>(ch.algo),
                                           ws ? ws->data() : nullptr, ch.workspace, kZero.get(dtype), p.w->get(), gw),
        "cudnnConvolutionBackwardFilter", describe);
}

void CudnnBackend::pooling_forward(Device& device, Dtype dtype, PoolMode mode, const PoolGeometry& g, const void* x,
                                   void* y) {
  Impl& api = *impl_;
  const auto describe = [&] { return describe_pool(dtype, mode, g); };
  require(pool_supported(dtype, g), "pooling_forward", describe);
  const Call c = begin_call(api, device, describe);
  const PoolProblem p(api, dtype, mode, g, describe);
  check(
      api,
      api.cudnnPoolingForward(c.handle, p.pool->get(), kOne.get(dtype), p.x->get(), x, kZero.get(dtype), p.y->get(), y),
      "cudnnPoolingForward", describe);
}

void CudnnBackend::pooling_backward(Device& device, Dtype dtype, PoolMode mode, const PoolGeometry& g, const void* x,
                                    const void* y, const void* gy, void* gx) {
  Impl& api = *impl_;
  const auto describe = [&] { return describe_pool(dtype, mode, g); };
  require(pool_supported(dtype, g), "pooling_backward", describe);
  const Call c = begin_call(api, device, describe);
  const PoolProblem p(api, dtype, mode, g, describe);
  // gy has y's shape and gx has x's, so the y and x descriptors serve both.
  check(api,
        api.cudnnPoolingBackward(c.handle, p.pool->get(), kOne.get(dtype), p.y->get(), y, p.y->get(), gy, p.x->get(), x,
                                 kZero.get(dtype), p.x->get(), gx),
        "cudnnPoolingBackward", describe);
}

// ---- Descriptor self-check (no GPU needed) ----------------------------------------

namespace {

std::string compare_dims(const std::vector<int>& got, const std::vector<int>& want) {
  if (got == want) return "";
  std::string s = "cuDNN's output dims (";
  for (size_t i = 0; i < got.size(); ++i) s += (i ? ", " : "") + std::to_string(got[i]);
  s += ") differ from the geometry's (";
  for (size_t i = 0; i < want.size(); ++i) s += (i ? ", " : "") + std::to_string(want[i]);
  return s + ")";
}

}  // namespace

std::string CudnnBackend::check_descriptors(Dtype dtype, const ConvGeometry& g) const {
  const Impl& api = *impl_;
  const auto describe = [&] { return describe_conv(dtype, g); };
  require(conv_supported(dtype, g), "check_descriptors", describe);
  const ConvProblem p(api, dtype, g, describe);
  std::vector<int> want = {static_cast<int>(g.batch), static_cast<int>(g.out_channels)};
  for (int e : spatial(g.out_size(), 1)) want.push_back(e);
  std::vector<int> got(want.size());
  check(api,
        api.cudnnGetConvolutionNdForwardOutputDim(p.conv->get(), p.x->get(), p.w->get(), static_cast<int>(got.size()),
                                                  got.data()),
        "cudnnGetConvolutionNdForwardOutputDim", describe);
  std::vector<int> bd(want.size(), 1);
  bd[1] = static_cast<int>(g.out_channels);
  (void)make_tensor(api, data_type(dtype), bd, describe);  // the bias tensor of convolution_forward
  return compare_dims(got, want);
}

std::string CudnnBackend::check_descriptors(Dtype dtype, PoolMode mode, const PoolGeometry& g) const {
  const Impl& api = *impl_;
  const auto describe = [&] { return describe_pool(dtype, mode, g); };
  require(pool_supported(dtype, g), "check_descriptors", describe);
  const PoolProblem p(api, dtype, mode, g, describe);
  std::vector<int> want = {static_cast<int>(g.batch), static_cast<int>(g.channels)};
  for (int e : spatial(g.out_size(), 1)) want.push_back(e);
  std::vector<int> got(want.size());
  check(api, api.cudnnGetPoolingNdForwardOutputDim(p.pool->get(), p.x->get(), static_cast<int>(got.size()), got.data()),
        "cudnnGetPoolingNdForwardOutputDim", describe);
  return compare_dims(got, want);
}

DnnBackend* cudnn_backend() { return loaded().backend.get(); }

namespace {
const BackendRegistration registration(Capability::kDnn, DeviceType::kCUDA, []() -> void* { return cudnn_backend(); });
}  // namespace

std::string cudnn_load_error() { return loaded().error; }

}  // namespace kumo

extern "C" bool kumo_cudnn_check_descriptors(kumo::Dtype dtype, const kumo::ConvGeometry* conv, kumo::PoolMode mode,
                                             const kumo::PoolGeometry* pool, std::string* message) {
  auto* backend = static_cast<kumo::CudnnBackend*>(kumo::cudnn_backend());
  if (backend == nullptr) {
    *message = kumo::cudnn_load_error();
    return false;
  }
  try {
    *message =
        conv != nullptr ? backend->check_descriptors(dtype, *conv) : backend->check_descriptors(dtype, mode, *pool);
    return true;
  } catch (const std::exception& e) {
    *message = e.what();
    return false;
  }
}
