// DLPack: exchanging arrays with other libraries (NumPy, PyTorch, JAX, CuPy)
// without copying, on the host and on CUDA devices.
//
// The structs are DLPack's C ABI (version 1.x of the protocol: dlpack.h's
// DLTensor, DLManagedTensor and DLManagedTensorVersioned), declared here so
// that the core needs no third-party header.
#pragma once
#include <cstdint>

#include "core/array.h"

namespace kumo {
namespace dlpack {

constexpr uint32_t kMajorVersion = 1;
constexpr uint32_t kMinorVersion = 0;

// DLDeviceType values kumo produces or accepts.
enum DeviceType : int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
// DLDataTypeCode values.
enum TypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };
// DLManagedTensorVersioned::flags bits.
constexpr uint64_t kFlagReadOnly = 1ull << 0;
constexpr uint64_t kFlagIsCopied = 1ull << 1;

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null means C-contiguous
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // namespace dlpack

// The DLPack device of an array's device: (kDLCPU, 0) or (kDLCUDA, index).
dlpack::DLDevice dlpack_device(const Device& device);

// Exports `a` without copying. The returned tensor keeps a's memory alive
// until its deleter is called, which the consumer must do exactly once
// (bindings wrap it in a PyCapsule). A read-only array sets the read-only
// flag of the versioned form; the legacy form has no such flag. Throws
// BufferError for strides that are not a whole number of elements.
// `copied` sets the versioned flag that tells the consumer `a` is a copy
// made for it (which it may then write to freely).
dlpack::DLManagedTensorVersioned* to_dlpack_versioned(const Array& a, bool copied = false);
dlpack::DLManagedTensor* to_dlpack(const Array& a);

// Imports a producer's tensor without copying: the result's memory is the
// producer's, and the tensor's deleter runs when the last kumo array using
// it is gone. Ownership of `t` passes to kumo even when this throws
// (BufferError for a device or dtype kumo cannot hold or data not aligned
// to its element size, DeviceError for a
// CUDA device this process cannot use), so the caller never calls the
// deleter itself.
Array from_dlpack(dlpack::DLManagedTensorVersioned* t);
Array from_dlpack(dlpack::DLManagedTensor* t);

}  // namespace kumo
