// The deep-learning primitives backend: convolution (forward, backward data,
// backward weights) and pooling as a vendor library computes them. Two
// implementations: oneDNN on the host (nn/host/onednn_backend.cpp,
// when the build found it) and cuDNN in the CUDA plugin
// (nn/cuda/cudnn_backend.cpp). nn/convolution.cpp and the
// pooling functions ask a backend first and fall back to their own im2col +
// GEMM and pooling kernels when there is none or it declines a case.
//
// Conventions, shared by every call:
// - Arrays are C-contiguous on `device`: x (N, C, *in), W (Cout, C / groups,
//   *ksize), b (Cout), y (N, Cout, *out), where out is what the geometry
//   gives (ConvGeometry::out_size). Work is queued on the device's current
//   stream; scratch memory comes from the device's memory pool. Nothing waits
//   for the GPU.
// - `supports_*` says whether a call with this dtype and geometry is handled
//   (dtype, rank, asymmetric padding, ...); the other calls may assume it
//   returned true and throw otherwise.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/backend_registry.h"
#include "core/device.h"
#include "core/dtype.h"

namespace kumo {

// One convolution's shapes. Every vector has one entry per spatial axis.
// pad_lo/pad_hi are the zero padding before and after each axis (they
// differ for Chainer's cover_all), dilate >= 1, stride >= 1.
struct ConvGeometry {
  int64_t batch = 0;
  int64_t in_channels = 0;
  int64_t out_channels = 0;
  int64_t groups = 1;
  std::vector<int64_t> in_size, ksize, stride, pad_lo, pad_hi, dilate;

  size_t ndim() const { return in_size.size(); }
  // (in + pad_lo + pad_hi - (k - 1) * dilate - 1) / stride + 1 per axis.
  std::vector<int64_t> out_size() const;
  bool symmetric_padding() const { return pad_lo == pad_hi; }
  std::string to_string() const;
};

// One pooling's shapes: x (N, C, *in) -> y (N, C, *out). Padding reads as
// -inf for max pooling; for average pooling it counts as zeros in the
// window (include_pad, Chainer's average_pooling_2d) or is left out of the
// divisor (!include_pad, average_pooling_nd with pad_value=None).
struct PoolGeometry {
  int64_t batch = 0;
  int64_t channels = 0;
  std::vector<int64_t> in_size, ksize, stride, pad_lo, pad_hi;

  size_t ndim() const { return in_size.size(); }
  std::vector<int64_t> out_size() const;
  bool symmetric_padding() const { return pad_lo == pad_hi; }
};

enum class PoolMode : uint8_t { kMax, kAverageIncludePad, kAverageExcludePad };

class DnnBackend {
 public:
  static constexpr Capability kCapability = Capability::kDnn;
  virtual ~DnnBackend() = default;
  virtual std::string name() const = 0;  // "oneDNN 2.6.3", "cuDNN 9.x.y"

  virtual bool supports_convolution(Dtype dtype, const ConvGeometry& g) const = 0;
  // y = x * W (cross-correlation, Chainer's convolution_nd) [+ b]; b may be null.
  virtual void convolution_forward(Device& device, Dtype dtype, const ConvGeometry& g, const void* x, const void* w,
                                   const void* b, void* y) = 0;
  // gx = the adjoint of convolution_forward in x, applied to gy (also the
  // forward of a deconvolution whose input is gy).
  virtual void convolution_backward_data(Device& device, Dtype dtype, const ConvGeometry& g, const void* w,
                                         const void* gy, void* gx) = 0;
  // gW[o, c, *k] = sum over n and the output positions of gy * the x patch element.
  virtual void convolution_backward_weights(Device& device, Dtype dtype, const ConvGeometry& g, const void* x,
                                            const void* gy, void* gw) = 0;

  // Pooling is optional for a backend: the defaults decline every case.
  virtual bool supports_pooling(Dtype, PoolMode, const PoolGeometry&) const { return false; }
  virtual void pooling_forward(Device& device, Dtype dtype, PoolMode mode, const PoolGeometry& g, const void* x,
                               void* y);
  // gx from x, the forward's y and gy (max pooling routes each gy to the
  // first maximum of its window).
  virtual void pooling_backward(Device& device, Dtype dtype, PoolMode mode, const PoolGeometry& g, const void* x,
                                const void* y, const void* gy, void* gx);
};

// The host's backend (oneDNN), or null when this build has none.
DnnBackend* host_dnn_backend();
// The backend for arrays on `device` when this thread allows one for the
// device's type: host_dnn_backend() on the host, the CUDA plugin's cuDNN
// backend on a CUDA device; null when there is none or it is switched off.
DnnBackend* dnn_backend(const Device& device);

// Whether this thread's routines may use the vendor library for a device
// type (Chainer's config.use_ideep for the host, config.use_cudnn for
// CUDA). On by default; KUMO_DNN=0 in the environment makes it off by
// default. Switching off is how tests compare a backend with the fallback.
bool dnn_enabled(DeviceType type);
void set_dnn_enabled(DeviceType type, bool enabled);

}  // namespace kumo
