#pragma once
// Where each capability's backend for a device type comes from. A backend
// interface (linalg/linalg_backend.h, fft/fft_backend.h, ...) names its
// capability; the host backends register themselves when libkumo loads and
// the CUDA plugin's register themselves when the plugin is loaded, so core
// needs to know none of them and a layer finds its backend with one call:
//
//   LinalgBackend& be = require_backend<LinalgBackend>(device, "linalg");
//
// Lookups are lock-free (one atomic load per call): the routines that ask
// for a backend run on every array operation.

#include <string>

#include "core/device.h"

namespace kumo {

enum class Capability : int { kLinalg = 0, kFft, kRandom, kSort, kDnn, kSparse };
inline constexpr int kCapabilityCount = 6;

// Returns the backend object, or nullptr when it is not available in this
// process (a missing optional library, a disabled path). Called on every
// lookup, so it may choose among several objects at run time.
using BackendFactory = void* (*)();

// Later registrations of the same (capability, type) replace earlier ones.
void register_backend(Capability capability, DeviceType type, BackendFactory factory);

// The registered backend, or nullptr. A CUDA lookup that finds nothing loads
// the CUDA plugin (whose backends register as it loads) and looks again.
void* find_backend(Capability capability, DeviceType type);

// Why a CUDA backend is missing ("" for the host): the plugin's load error.
std::string backend_unavailable_reason(DeviceType type);

// DeviceError "<what> on <device> needs the CUDA backend: <reason>" (the
// host form says the build lacks a host backend).
[[noreturn]] void throw_backend_missing(const Device& device, const std::string& what);

// Typed forms; Interface::kCapability names the slot.
template <class Interface>
Interface* find_backend(DeviceType type) {
  return static_cast<Interface*>(find_backend(Interface::kCapability, type));
}

// The backend for `device`, or throw_backend_missing(device, what).
template <class Interface>
Interface& require_backend(const Device& device, const std::string& what) {
  if (Interface* backend = find_backend<Interface>(device.type())) return *backend;
  throw_backend_missing(device, what);
}

// A namespace-scope object of this type registers a backend during static
// initialisation of the library that defines it.
struct BackendRegistration {
  BackendRegistration(Capability capability, DeviceType type, BackendFactory factory) {
    register_backend(capability, type, factory);
  }
};

}  // namespace kumo
