// Arrays from C++ containers, and back (Array::to_vector<T>() in core/array.h).
//
//   kumo::Array a = kumo::asarray(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
//   std::vector<double> v = kumo::sqrt(a).to_vector<double>();
#pragma once
#include <initializer_list>
#include <vector>

#include "core/array.h"
#include "core/errors.h"

namespace kumo {

// A new C-ordered array of T's dtype holding `data`, on `device` (default:
// the current device). `shape` defaults to 1-d; its size must match.
template <class T>
Array asarray(const std::vector<T>& data, const Shape& shape, Device& device = current_device()) {
  if (shape_size(shape) != static_cast<int64_t>(data.size()))
    throw ValueError("cannot reshape " + std::to_string(data.size()) + " elements into shape " +
                     shape.to_string());
  Array out = Array::empty(shape, dtype_of<T>(), device);
  if (data.empty()) return out;
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<uint8_t> bytes(data.begin(), data.end());
    device.copy_from_host(out.data(), bytes.data(), bytes.size());
  } else {
    device.copy_from_host(out.data(), data.data(), data.size() * sizeof(T));
  }
  return out;
}
template <class T>
Array asarray(const std::vector<T>& data, Device& device = current_device()) {
  return asarray(data, Shape{static_cast<int64_t>(data.size())}, device);
}
template <class T>
Array asarray(std::initializer_list<T> data, const Shape& shape, Device& device = current_device()) {
  return asarray(std::vector<T>(data), shape, device);
}
template <class T>
Array asarray(std::initializer_list<T> data, Device& device = current_device()) {
  return asarray(std::vector<T>(data), device);
}
// A 0-d array holding one value.
template <class T>
Array scalar_array(T value, Device& device = current_device()) {
  return asarray(std::vector<T>{value}, Shape{}, device);
}

}  // namespace kumo
