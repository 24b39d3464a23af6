#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>
#include <string>

#include "core/array.h"
#include "core/cuda_plugin.h"
#include "core/device.h"
#include "core/errors.h"
#include "kernels/elementwise.h"

using namespace kumo;

namespace {

// A second host-memory device, standing in for "another device" so the
// mixing rules can be tested without a GPU.
class OtherDevice final : public Device {
 public:
  OtherDevice() : pool_(std::make_unique<HostRawAllocator>(), this) {}
  DeviceType type() const override { return DeviceType::kCPU; }
  int index() const override { return 7; }
  MemoryPool& memory_pool() override { return pool_; }
  void copy_to_host(void* d, const void* s, size_t n) override { std::memcpy(d, s, n); }
  void copy_from_host(void* d, const void* s, size_t n) override { std::memcpy(d, s, n); }
  void copy_within(void* d, const void* s, size_t n) override { std::memmove(d, s, n); }
  void synchronize() override {}

 private:
  MemoryPool pool_;
};

}  // namespace

TEST(Device, HostIsDefaultWithoutGpu) {
  if (cuda_is_available()) GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(current_device().name(), "cpu");
  EXPECT_FALSE(cuda_unavailable_reason().empty());
}

TEST(Device, ParsesSpecsAndRejectsUnknown) {
  EXPECT_EQ(&get_device("cpu"), &host_device());
  EXPECT_THROW(get_device("tpu"), ValueError);
  EXPECT_THROW(get_device(DeviceType::kCPU, 1), ValueError);
  if (!cuda_is_available()) {
    try {
      get_device("cuda:0");
      FAIL() << "expected DeviceError";
    } catch (const DeviceError& e) {
      EXPECT_NE(std::string(e.what()).find("not available"), std::string::npos);
    }
  }
}

TEST(Device, ScopeRestoresPrevious) {
  static OtherDevice other;
  Device& before = current_device();
  {
    DeviceScope scope(other);
    EXPECT_EQ(&current_device(), &other);
    Array a = Array::empty(Shape{3}, Dtype::kFloat32, current_device());
    EXPECT_EQ(&a.device(), &other);
  }
  EXPECT_EQ(&current_device(), &before);
}

TEST(Device, MixingDevicesNamesBoth) {
  static OtherDevice other;
  Array a = Array::empty(Shape{3}, Dtype::kFloat32, host_device());
  Array b = Array::empty(Shape{3}, Dtype::kFloat32, other);
  auto spec = kernels::ElementwiseSpec::create("mix", "T x, T y", "T z", "z = x + y");
  try {
    kernels::call_elementwise(*spec, {a, b}, {Array()});
    FAIL() << "expected DeviceError";
  } catch (const DeviceError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("cpu"), std::string::npos);
    EXPECT_NE(msg.find(other.name()), std::string::npos);
  }
  EXPECT_THROW(a.copy_to(b), DeviceError);
}

TEST(Device, ToDeviceCopies) {
  static OtherDevice other;
  Array a = Array::empty(Shape{4}, Dtype::kInt32, host_device());
  int32_t v[4] = {1, 2, 3, 4};
  std::memcpy(a.data(), v, sizeof v);
  Array b = a.to_device(other);
  EXPECT_EQ(&b.device(), &other);
  EXPECT_EQ(std::memcmp(b.data(), v, sizeof v), 0);
}

TEST(Device, HostCopiesOfLargeBlocksMatchMemmove) {
  // Large copies are split over the threads; overlapping ones must not be.
  const size_t n = (size_t(3) << 20) + 37;  // not a multiple of a cache line
  std::vector<unsigned char> src(n), dst(n);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
  Device& host = host_device();
  host.copy_within(dst.data(), src.data(), n);
  EXPECT_EQ(dst, src);
  for (long shift : {-4099L, 4099L}) {  // overlapping, in both directions
    std::vector<unsigned char> buf(n + 10000), want;
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<unsigned char>(i * 31 + 3);
    want = buf;
    const size_t from = 5000, to = static_cast<size_t>(5000 + shift), len = n;
    std::memmove(want.data() + to, want.data() + from, len);
    host.copy_within(buf.data() + to, buf.data() + from, len);
    EXPECT_EQ(buf, want) << "shift " << shift;
  }
}
