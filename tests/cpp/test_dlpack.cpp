// core/dlpack.h: export and import without copies, the deleter contract
// (called exactly once, by whoever owns the tensor), flags and errors.
#include <gtest/gtest.h>

#include <vector>

#include "kumo/kumo.h"

using namespace kumo;

namespace {

TEST(DLPack, ExportDescribesTheArray) {
  Array a = asarray(std::vector<float>{0, 1, 2, 3, 4, 5}, {2, 3}).transpose();
  dlpack::DLManagedTensorVersioned* t = to_dlpack_versioned(a);
  EXPECT_EQ(t->version.major, 1u);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.shape[0], 3);
  EXPECT_EQ(t->dl_tensor.shape[1], 2);
  EXPECT_EQ(t->dl_tensor.strides[0], 1);  // elements, not bytes
  EXPECT_EQ(t->dl_tensor.strides[1], 3);
  EXPECT_EQ(t->dl_tensor.dtype.code, dlpack::kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 32);
  EXPECT_EQ(t->dl_tensor.device.device_type, dlpack::kDLCPU);
  EXPECT_EQ(static_cast<char*>(t->dl_tensor.data) + t->dl_tensor.byte_offset, a.data());
  EXPECT_EQ(t->flags, 0u);
  t->deleter(t);
}

TEST(DLPack, ExportKeepsMemoryAlive) {
  dlpack::DLManagedTensor* t = nullptr;
  {
    Array a = asarray(std::vector<double>{1, 2, 3}, {3});
    t = to_dlpack(a);
  }
  const double* data =
      reinterpret_cast<const double*>(static_cast<char*>(t->dl_tensor.data) + t->dl_tensor.byte_offset);
  EXPECT_EQ(data[2], 3.0);
  t->deleter(t);
}

TEST(DLPack, ReadOnlyAndCopiedFlags) {
  Array a = asarray(std::vector<int32_t>{1, 2}, {2}).broadcast_to(Shape{3, 2});
  dlpack::DLManagedTensorVersioned* t = to_dlpack_versioned(a, /*copied=*/true);
  EXPECT_EQ(t->flags, dlpack::kFlagReadOnly | dlpack::kFlagIsCopied);
  EXPECT_EQ(t->dl_tensor.strides[0], 0);
  t->deleter(t);
}

TEST(DLPack, RoundTripSharesMemory) {
  Array a = asarray(std::vector<int64_t>{1, 2, 3, 4}, {2, 2});
  Array b = from_dlpack(to_dlpack_versioned(a));
  EXPECT_EQ(b.data(), a.data());
  EXPECT_EQ(b.shape(), a.shape());
  EXPECT_EQ(b.dtype(), Dtype::kInt64);
  EXPECT_TRUE(b.writeable());
  fill(b, Scalar(7));
  EXPECT_EQ(a.to_vector<int64_t>(), (std::vector<int64_t>{7, 7, 7, 7}));
}

// A producer tensor over a std::vector that counts its deleter calls.
struct CountingProducer {
  std::vector<double> data{0, 1, 2, 3, 4, 5};
  std::vector<int64_t> shape{2, 3};
  std::vector<int64_t> strides{1, 2};  // Fortran order, in elements
  int deleted = 0;
  dlpack::DLManagedTensor tensor{};

  dlpack::DLManagedTensor* make() {
    tensor.dl_tensor = {data.data(),  {dlpack::kDLCPU, 0}, 2, {dlpack::kDLFloat, 64, 1},
                        shape.data(), strides.data(),      0};
    tensor.manager_ctx = this;
    tensor.deleter = [](dlpack::DLManagedTensor* self) {
      ++static_cast<CountingProducer*>(self->manager_ctx)->deleted;
    };
    return &tensor;
  }
};

TEST(DLPack, ImportCallsDeleterWhenLastArrayDies) {
  CountingProducer p;
  {
    Array a = from_dlpack(p.make());
    Array view = a.transpose();
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 2, 4, 1, 3, 5}));
    a = Array();
    EXPECT_EQ(p.deleted, 0);
    EXPECT_EQ(view.to_vector<double>(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  }
  EXPECT_EQ(p.deleted, 1);
}

TEST(DLPack, FailedImportStillCallsDeleter) {
  CountingProducer p;
  dlpack::DLManagedTensor* t = p.make();
  t->dl_tensor.dtype = {dlpack::kDLBfloat, 16, 1};
  EXPECT_THROW(from_dlpack(t), BufferError);
  EXPECT_EQ(p.deleted, 1);
}

TEST(DLPack, ImportRejectsUnknownDevice) {
  CountingProducer p;
  dlpack::DLManagedTensor* t = p.make();
  t->dl_tensor.device = {7, 0};  // Vulkan
  EXPECT_THROW(from_dlpack(t), BufferError);
  EXPECT_EQ(p.deleted, 1);
}

TEST(DLPack, ImportRejectsMisalignedData) {
  CountingProducer p;
  dlpack::DLManagedTensor* t = p.make();
  t->dl_tensor.byte_offset = 4;
  EXPECT_THROW(from_dlpack(t), BufferError);
  EXPECT_EQ(p.deleted, 1);
}

TEST(DLPack, ImportRejectsNewerMajorVersion) {
  Array a = asarray(std::vector<float>{1}, {1});
  dlpack::DLManagedTensorVersioned* t = to_dlpack_versioned(a);
  t->version.major = 2;
  EXPECT_THROW(from_dlpack(t), BufferError);
}

TEST(DLPack, ExportRejectsStridesThatAreNotWholeElements) {
  Array bytes = Array::empty(Shape{8}, Dtype::kUInt8, host_device());
  Array odd(bytes.memory(), 0, Shape{2}, Strides{3},
            Dtype::kInt16);  // 3-byte steps over 2-byte elements
  EXPECT_THROW(to_dlpack(odd), BufferError);
}

}  // namespace
