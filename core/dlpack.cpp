#include "core/dlpack.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"

namespace kumo {
namespace {

using dlpack::DLDataType;
using dlpack::DLManagedTensor;
using dlpack::DLManagedTensorVersioned;
using dlpack::DLTensor;

DLDataType dlpack_dtype(Dtype d) {
  const auto bits = static_cast<uint8_t>(itemsize(d) * 8);
  switch (kind(d)) {
    case DtypeKind::kBool:
      return {dlpack::kDLBool, 8, 1};
    case DtypeKind::kSigned:
      return {dlpack::kDLInt, bits, 1};
    case DtypeKind::kUnsigned:
      return {dlpack::kDLUInt, bits, 1};
    case DtypeKind::kFloat:
      return {dlpack::kDLFloat, bits, 1};
    case DtypeKind::kComplex:
      return {dlpack::kDLComplex, bits, 1};
  }
  throw BufferError("to_dlpack: unknown dtype");
}

Dtype kumo_dtype(DLDataType t) {
  const std::string what = "from_dlpack: DLPack dtype (code " + std::to_string(t.code) + ", " + std::to_string(t.bits) +
                           " bits, " + std::to_string(t.lanes) + " lanes)";
  if (t.lanes != 1) throw BufferError(what + " has several lanes; kumo arrays hold scalars");
  switch (t.code) {
    case dlpack::kDLBool:
      if (t.bits == 8) return Dtype::kBool;
      break;
    case dlpack::kDLInt:
      if (t.bits == 8) return Dtype::kInt8;
      if (t.bits == 16) return Dtype::kInt16;
      if (t.bits == 32) return Dtype::kInt32;
      if (t.bits == 64) return Dtype::kInt64;
      break;
    case dlpack::kDLUInt:
      if (t.bits == 8) return Dtype::kUInt8;
      if (t.bits == 16) return Dtype::kUInt16;
      if (t.bits == 32) return Dtype::kUInt32;
      if (t.bits == 64) return Dtype::kUInt64;
      break;
    case dlpack::kDLFloat:
      if (t.bits == 16) return Dtype::kFloat16;
      if (t.bits == 32) return Dtype::kFloat32;
      if (t.bits == 64) return Dtype::kFloat64;
      break;
    case dlpack::kDLComplex:
      if (t.bits == 64) return Dtype::kComplex64;
      if (t.bits == 128) return Dtype::kComplex128;
      break;
    default:
      break;
  }
  throw BufferError(what + " has no kumo dtype");
}

// What an exported tensor owns: the array (so its memory lives on) and the
// shape and strides the DLTensor points to.
template <class Managed>
struct ExportContext {
  Managed managed{};
  Array array;
  std::vector<int64_t> shape, strides;
};

template <class Managed>
void delete_export(Managed* self) {
  // manager_ctx is the ExportContext that holds `self`; taking it back into a
  // unique_ptr frees both.
  std::unique_ptr<ExportContext<Managed>> owner(static_cast<ExportContext<Managed>*>(self->manager_ctx));
}

template <class Managed>
Managed* export_tensor(const Array& a) {
  auto ctx = std::make_unique<ExportContext<Managed>>();
  ctx->array = a;
  const int64_t item = a.itemsize();
  for (int i = 0; i < a.ndim(); ++i) {
    ctx->shape.push_back(a.shape()[i]);
    if (a.strides()[i] % item != 0)
      throw BufferError("to_dlpack: stride " + std::to_string(a.strides()[i]) + " of axis " + std::to_string(i) +
                        " is not a multiple of the itemsize " + std::to_string(item) +
                        "; DLPack strides count elements (copy the array first)");
    ctx->strides.push_back(a.strides()[i] / item);
  }
  DLTensor& t = ctx->managed.dl_tensor;
  t.data = a.memory()->data();
  t.byte_offset = static_cast<uint64_t>(a.offset());
  // An empty array may sit at an offset past its block; DLPack consumers only
  // need a valid base pointer then.
  if (a.size() == 0) t.byte_offset = 0;
  t.device = dlpack_device(a.device());
  t.ndim = a.ndim();
  t.dtype = dlpack_dtype(a.dtype());
  t.shape = ctx->shape.empty() ? nullptr : ctx->shape.data();
  t.strides = ctx->strides.empty() ? nullptr : ctx->strides.data();
  ctx->managed.manager_ctx = ctx.get();
  ctx->managed.deleter = &delete_export<Managed>;
  return &ctx.release()->managed;
}

// Calls a producer's deleter once if the import fails before kumo memory
// takes the tensor over.
template <class Managed>
struct ProducerGuard {
  Managed* t;
  ~ProducerGuard() {
    if (t != nullptr && t->deleter != nullptr) t->deleter(t);
  }
};

Device& kumo_device(const dlpack::DLDevice& d) {
  switch (d.device_type) {
    case dlpack::kDLCPU:
    case dlpack::kDLCUDAHost:  // pinned host memory: the CPU reads it directly
      return host_device();
    case dlpack::kDLCUDA:
    case dlpack::kDLCUDAManaged:
      return get_device(DeviceType::kCUDA, d.device_id);
    default:
      throw BufferError("from_dlpack: DLPack device type " + std::to_string(d.device_type) +
                        " is not one kumo runs on (CPU 1, CUDA 2, CUDA host 3, "
                        "CUDA managed 13)");
  }
}

template <class Managed>
Array import_tensor(Managed* raw, bool read_only) {
  if (raw == nullptr) throw ValueError("from_dlpack: null DLPack tensor");
  ProducerGuard<Managed> guard{raw};
  const DLTensor& t = raw->dl_tensor;
  if (t.ndim < 0 || t.ndim > kMaxNdim)
    throw BufferError("from_dlpack: " + std::to_string(t.ndim) + " dimensions (kumo arrays have at most " +
                      std::to_string(kMaxNdim) + ")");
  const Dtype dtype = kumo_dtype(t.dtype);
  Device& device = kumo_device(t.device);
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim), strides(t.ndim);
  // The extent the array reaches from its first element: the smallest and
  // largest byte offsets any index gives (strides may be negative).
  int64_t lo = 0, hi = 0, size = 1, running = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    if (shape[i] < 0) throw BufferError("from_dlpack: negative dimension " + std::to_string(shape[i]));
    strides[i] = (t.strides != nullptr ? t.strides[i] : running) * item;
    running *= shape[i];
    size *= shape[i];
  }
  for (int i = 0; i < t.ndim; ++i) {
    if (shape[i] == 0) continue;
    const int64_t reach = strides[i] * (shape[i] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  char* first = static_cast<char*>(t.data) + t.byte_offset;
  // Kernels access elements through typed pointers, which must be aligned.
  const int64_t align = std::min<int64_t>(item, 8);
  bool aligned = reinterpret_cast<uintptr_t>(first) % align == 0;
  for (int64_t st : strides) aligned = aligned && st % align == 0;
  if (size > 0 && !aligned)
    throw BufferError("from_dlpack: the data is not aligned to its " + std::to_string(item) +
                      "-byte elements; kumo needs aligned data (copy it first)");
  char* base = size == 0 ? first : first + lo;
  const size_t extent = size == 0 ? 0 : static_cast<size_t>(hi - lo + item);
  // The producer's memory is released when the last array using it is gone.
  auto memory = std::make_shared<ExternalMemory>(base, extent, &device, [raw] {
    if (raw->deleter != nullptr) raw->deleter(raw);
  });
  guard.t = nullptr;
  return Array(std::move(memory), first - base, Shape(shape), Strides(strides), dtype, !read_only);
}

}  // namespace

dlpack::DLDevice dlpack_device(const Device& device) {
  if (device.type() == DeviceType::kCPU) return {dlpack::kDLCPU, 0};
  return {dlpack::kDLCUDA, device.index()};
}

dlpack::DLManagedTensorVersioned* to_dlpack_versioned(const Array& a, bool copied) {
  auto* t = export_tensor<DLManagedTensorVersioned>(a);
  t->version = {dlpack::kMajorVersion, dlpack::kMinorVersion};
  t->flags = (a.writeable() ? 0 : dlpack::kFlagReadOnly) | (copied ? dlpack::kFlagIsCopied : 0);
  return t;
}

dlpack::DLManagedTensor* to_dlpack(const Array& a) { return export_tensor<DLManagedTensor>(a); }

Array from_dlpack(dlpack::DLManagedTensorVersioned* t) {
  if (t != nullptr && t->version.major > dlpack::kMajorVersion) {
    ProducerGuard<DLManagedTensorVersioned> release{t};
    throw BufferError("from_dlpack: DLPack version " + std::to_string(t->version.major) + "." +
                      std::to_string(t->version.minor) + " is newer than kumo's " +
                      std::to_string(dlpack::kMajorVersion) + ".x");
  }
  return import_tensor(t, t != nullptr && (t->flags & dlpack::kFlagReadOnly) != 0);
}

Array from_dlpack(dlpack::DLManagedTensor* t) { return import_tensor(t, false); }

}  // namespace kumo
