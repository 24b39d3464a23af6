// cuDNN implementation of DnnBackend (nn/dnn_backend.h) inside the
// CUDA plugin: convolution forward / backward data / backward weights and
// max / average pooling of float16, float32 and float64 arrays on CUDA
// devices.
//
// cuDNN is not linked: cudnn_backend() opens libcudnn.so.9 with dlopen on
// first use and looks up the functions it calls, so the plugin loads, and
// everything else in it works, on a machine without cuDNN. No cuDNN header
// is included here (the library's types stay inside cudnn_backend.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "nn/dnn_backend.h"

namespace kumo {

class CudnnBackend final : public DnnBackend {
 public:
  struct Impl;  // the loaded library and the per-geometry algorithm cache
  explicit CudnnBackend(std::unique_ptr<Impl> impl);
  ~CudnnBackend() override;

  std::string name() const override;  // "cuDNN 9.19.0", the loaded library's version

  // float16/32/64, 1 to 3 spatial axes, symmetric padding, no empty axis,
  // extents within cuDNN's 32-bit int range.
  bool supports_convolution(Dtype dtype, const ConvGeometry& g) const override;
  void convolution_forward(Device& device, Dtype dtype, const ConvGeometry& g, const void* x, const void* w,
                           const void* b, void* y) override;
  void convolution_backward_data(Device& device, Dtype dtype, const ConvGeometry& g, const void* w, const void* gy,
                                 void* gx) override;
  void convolution_backward_weights(Device& device, Dtype dtype, const ConvGeometry& g, const void* x, const void* gy,
                                    void* gw) override;

  // The same dtypes and ranks, symmetric padding smaller than the window (so
  // every window holds at least one element of x).
  bool supports_pooling(Dtype dtype, PoolMode mode, const PoolGeometry& g) const override;
  void pooling_forward(Device& device, Dtype dtype, PoolMode mode, const PoolGeometry& g, const void* x,
                       void* y) override;
  void pooling_backward(Device& device, Dtype dtype, PoolMode mode, const PoolGeometry& g, const void* x, const void* y,
                        const void* gy, void* gx) override;

  // For tests on machines without a GPU: builds every cuDNN descriptor of a
  // supported problem (cuDNN checks their parameters then, with no device
  // involved) and compares cuDNN's output extents with the geometry's.
  // "" when they agree, else what differs; DeviceError when cuDNN rejects a
  // descriptor. Tests reach it through kumo_cudnn_check_descriptors.
  std::string check_descriptors(Dtype dtype, const ConvGeometry& g) const;
  std::string check_descriptors(Dtype dtype, PoolMode mode, const PoolGeometry& g) const;

 private:
  std::unique_ptr<Impl> impl_;
};

// The process's cuDNN backend, or null when libcudnn.so.9 (or one of the
// functions used) cannot be loaded; cudnn_load_error() then says why.
// Loading needs no GPU.
DnnBackend* cudnn_backend();
std::string cudnn_load_error();

}  // namespace kumo

// The test hook for CudnnBackend::check_descriptors, exported by the plugin
// so that a test can look it up with dlsym (the plugin is not linked into
// anything). Checks `conv` when it is not null, else `pool` with `mode`.
// Returns true and sets *message to the result when the check ran; false
// with the reason (cuDNN not loaded, a rejected descriptor) otherwise.
extern "C" bool kumo_cudnn_check_descriptors(kumo::Dtype dtype, const kumo::ConvGeometry* conv, kumo::PoolMode mode,
                                             const kumo::PoolGeometry* pool, std::string* message);
