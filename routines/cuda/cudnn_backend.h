// cuDNN implementation of DnnBackend (routines/dnn_backend.h) inside the
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

#include "routines/dnn_backend.h"

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

 private:
  std::unique_ptr<Impl> impl_;
};

// The process's cuDNN backend, or null when libcudnn.so.9 (or one of the
// functions used) cannot be loaded; cudnn_load_error() then says why.
// Loading needs no GPU.
DnnBackend* cudnn_backend();
std::string cudnn_load_error();

}  // namespace kumo
