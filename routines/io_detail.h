// Helpers shared by the binary and the text routines of io.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/array.h"

namespace kumo {
namespace io_detail {

// The elements of an array in C order as host bytes: the array's own memory
// when it is a C-contiguous host array, else a host copy.
class HostBytes {
 public:
  explicit HostBytes(const Array& a);
  const char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  Array keep_;                    // a contiguous host array whose memory data_ points into
  std::shared_ptr<Memory> copy_;  // or a host block holding a copy from another device
  const char* data_ = nullptr;
  size_t size_ = 0;
};

// Reverses the bytes of each of `count` elements of `dtype` in place (each
// half of a complex number on its own).
void byteswap(char* data, int64_t count, Dtype dtype);

}  // namespace io_detail
}  // namespace kumo
