#include "core/warnings.h"

#include <iostream>
#include <mutex>
#include <utility>

namespace kumo {
namespace {

std::mutex& handler_mutex() {
  static std::mutex mu;
  return mu;
}

WarningHandler& handler() {
  static WarningHandler h;
  return h;
}

const char* category_name(WarningCategory c) {
  switch (c) {
    case WarningCategory::kDeprecation:
      return "DeprecationWarning";
    case WarningCategory::kUser:
      return "UserWarning";
    case WarningCategory::kComplex:
      return "ComplexWarning";
    case WarningCategory::kRuntime:
      break;
  }
  return "RuntimeWarning";
}

}  // namespace

void warn(const std::string& message, WarningCategory category) {
  WarningHandler h;
  {
    std::lock_guard<std::mutex> lock(handler_mutex());
    h = handler();
  }
  // Called outside the lock: the handler may warn again or throw.
  if (h) {
    h(category, message);
  } else {
    std::cerr << "kumo: " << category_name(category) << ": " << message << '\n';
  }
}

WarningHandler set_warning_handler(WarningHandler h) {
  std::lock_guard<std::mutex> lock(handler_mutex());
  return std::exchange(handler(), std::move(h));
}

void warn_if_complex_to_real(Dtype from, Dtype to) {
  if (is_complex(from) && !is_complex(to) && to != Dtype::kBool)
    warn("Casting complex values to real discards the imaginary part", WarningCategory::kComplex);
}

}  // namespace kumo
