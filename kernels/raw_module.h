// User-written CUDA C++ modules (CuPy's RawModule/RawKernel): the same
// source runs on CUDA devices (compiled with NVRTC) and on the host (the
// CUDA dialect is translated by kernels/host/cuda_emulation.h, compiled with
// the system C++ compiler and its blocks run on the thread pool). Each
// device type compiles lazily, on the first launch or global lookup there.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/array.h"
#include "core/dtype.h"
#include "core/shape.h"

namespace kumo {

// One kernel argument: an array is passed as its data pointer, a scalar as
// its value with the size of its dtype (a float32 scalar is a C float).
class KernelArg {
 public:
  static KernelArg array(const Array& a);
  // `value` points at one item of `dtype` (copied).
  static KernelArg scalar(Dtype dtype, const void* value);
  template <typename T>
  static KernelArg of(T value);

  bool is_array() const { return is_array_; }
  const Array& array_value() const { return array_; }
  Dtype dtype() const { return dtype_; }
  // The bytes the kernel parameter receives (for an array: its data pointer).
  const void* value_ptr() const { return bytes_; }

 private:
  bool is_array_ = false;
  Array array_;
  Dtype dtype_ = Dtype::kUInt8;
  alignas(16) unsigned char bytes_[16] = {};
};

// Grid and block extents; unset components are 1.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct RawModuleOptions {
  // NVRTC options. On the host -D, -U, -I and -std= are passed to the C++
  // compiler; GPU-only options (-arch, --use_fast_math, -lineinfo, ...) are
  // ignored there (--use_fast_math: the host keeps IEEE math, see docs).
  std::vector<std::string> options;
  // Template instantiations to compile, e.g. "my_kernel<float, 4>".
  std::vector<std::string> name_expressions;
  // Replace #include <cuComplex.h> with a header built on float2/double2
  // matching the memory layout of complex64/complex128 arrays.
  bool translate_cucomplex = false;
  // Adds what cooperative groups need on CUDA (-rdc is not needed for the
  // block-level groups this supports).
  bool enable_cooperative_groups = false;
};

class RawFunction;

class RawModule {
 public:
  // A module from CUDA C++ source.
  explicit RawModule(std::string code, RawModuleOptions options = {});
  // A module from a cubin, fatbin or PTX image (CUDA devices only; the host
  // cannot run machine code for GPUs).
  static RawModule from_image(std::string image);

  // A kernel by its name (an extern "C" __global__ function) or by one of
  // the name expressions. Unknown names raise when the module is compiled
  // for a device (at first launch), naming the kernel.
  RawFunction get_function(const std::string& name) const;
  // An array aliasing a __device__ or __constant__ global as seen on
  // `device`: `dtype` and `shape` default to uint8 over the symbol's bytes;
  // a shape needing more bytes than the symbol has raises ValueError.
  Array get_global(const std::string& name, Device& device, std::optional<Dtype> dtype = std::nullopt,
                   std::optional<Shape> shape = std::nullopt) const;
  // Compiles for a device now (errors surface here rather than at launch).
  void compile(Device& device) const;

  const std::string& code() const;
  const RawModuleOptions& options() const;
  bool is_image() const;

  struct Impl;

 private:
  explicit RawModule(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
  friend class RawFunction;
};

class RawFunction {
 public:
  // Launches on the device of the array arguments (current_device() when
  // none); arrays on two devices raise ValueError. `stream` 0 means the
  // device's current stream.
  void launch(Dim3 grid, Dim3 block, const std::vector<KernelArg>& args, size_t shared_mem = 0,
              StreamHandle stream = 0) const;
  // CUDA's function attributes on a CUDA device; on the host the emulator's
  // values (max_threads_per_block 1024, sizes it cannot know are -1).
  std::vector<std::pair<std::string, int>> attributes(Device& device) const;
  // max_dynamic_shared_size_bytes or preferred_shared_memory_carveout.
  void set_attribute(Device& device, const std::string& name, int value) const;
  const std::string& name() const { return name_; }
  const RawModule& module() const { return module_; }

 private:
  RawFunction(RawModule module, std::string name) : module_(std::move(module)), name_(std::move(name)) {}
  RawModule module_;
  std::string name_;
  friend class RawModule;
};

template <typename T>
KernelArg KernelArg::of(T value) {
  return scalar(dtype_of<T>(), &value);
}

}  // namespace kumo
