// core/backend_registry.h: the host backends are registered when libkumo
// loads; a missing one is a DeviceError naming the device and the call.
#include <gtest/gtest.h>

#include <string>

#include "core/backend_registry.h"
#include "core/errors.h"
#include "fft/fft_backend.h"
#include "linalg/linalg_backend.h"
#include "routines/sort_backend.h"

namespace kumo {
namespace {

TEST(BackendRegistry, HostBackendsAreRegisteredAtLoad) {
  EXPECT_EQ(find_backend<LinalgBackend>(DeviceType::kCPU), &host_linalg_backend());
  EXPECT_EQ(find_backend<FftBackend>(DeviceType::kCPU), &host_fft_backend());
  EXPECT_EQ(&require_backend<LinalgBackend>(host_device(), "linalg"), &host_linalg_backend());
}

// Sorting host arrays needs no backend object (routines/sorting.cpp sorts
// them itself), so there is none to find.
TEST(BackendRegistry, MissingHostBackendIsADeviceErrorNamingTheCall) {
  EXPECT_EQ(find_backend<SortBackend>(DeviceType::kCPU), nullptr);
  try {
    require_backend<SortBackend>(host_device(), "sorting");
    FAIL() << "require_backend did not throw";
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("sorting on cpu"), std::string::npos) << what;
  }
}

LinalgBackend* replacement = nullptr;

TEST(BackendRegistry, ALaterRegistrationReplacesTheEarlierOne) {
  LinalgBackend& original = host_linalg_backend();
  replacement = &original;
  register_backend(Capability::kLinalg, DeviceType::kCPU, []() -> void* { return nullptr; });
  EXPECT_EQ(find_backend<LinalgBackend>(DeviceType::kCPU), nullptr);
  register_backend(Capability::kLinalg, DeviceType::kCPU, []() -> void* { return replacement; });
  EXPECT_EQ(find_backend<LinalgBackend>(DeviceType::kCPU), &original);
}

}  // namespace
}  // namespace kumo
