// Dims: a small fixed-capacity vector of int64 used for shapes, strides and
// axis lists. Arrays are copied often (every view is a new Array), so this
// keeps them free of heap allocation.
#pragma once
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace kumo {

constexpr int kMaxNdim = 32;

class Dims {
 public:
  Dims() = default;
  explicit Dims(int n, int64_t value = 0) { assign(n, value); }
  Dims(std::initializer_list<int64_t> values) {
    for (int64_t v : values) push_back(v);
  }
  explicit Dims(const std::vector<int64_t>& values) {
    for (int64_t v : values) push_back(v);
  }
  Dims(const Dims& o) : n_(o.n_) { std::memcpy(v_, o.v_, sizeof(int64_t) * n_); }
  Dims& operator=(const Dims& o) {
    n_ = o.n_;
    std::memcpy(v_, o.v_, sizeof(int64_t) * n_);
    return *this;
  }

  void assign(int n, int64_t value);
  void push_back(int64_t v);
  void insert(int pos, int64_t v);
  void erase(int pos);
  void clear() { n_ = 0; }
  void resize(int n, int64_t value = 0);

  int size() const { return n_; }
  bool empty() const { return n_ == 0; }
  int64_t& operator[](int i) { return v_[i]; }
  int64_t operator[](int i) const { return v_[i]; }
  int64_t& back() { return v_[n_ - 1]; }
  int64_t back() const { return v_[n_ - 1]; }
  const int64_t* data() const { return v_; }
  int64_t* data() { return v_; }
  const int64_t* begin() const { return v_; }
  const int64_t* end() const { return v_ + n_; }

  // A loop, not memcmp: shapes have a few extents, and the library call
  // costs more than comparing them.
  bool operator==(const Dims& o) const {
    if (n_ != o.n_) return false;
    for (int i = 0; i < n_; ++i)
      if (v_[i] != o.v_[i]) return false;
    return true;
  }
  bool operator!=(const Dims& o) const { return !(*this == o); }

  std::vector<int64_t> to_vector() const { return std::vector<int64_t>(v_, v_ + n_); }
  // "(2, 3)" / "(4,)" / "()" as NumPy prints shapes.
  std::string to_string() const;

 private:
  int n_ = 0;
  int64_t v_[kMaxNdim];
};

using Shape = Dims;
using Strides = Dims;  // in bytes; may be negative or zero

// Raises ValueError: the product of a shape's extents does not fit int64.
[[noreturn]] void throw_size_overflow();

// Product of the extents (1 for a 0-d shape); ValueError where it would
// overflow (a zero extent anywhere makes it 0).
inline int64_t shape_size(const Shape& shape) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : shape) {
    if (d == 0) return 0;
    overflow |= __builtin_mul_overflow(n, d, &n);
  }
  if (overflow) throw_size_overflow();
  return n;
}
// Strides of a C- or F-ordered array of this shape.
Strides c_strides(const Shape& shape, int64_t itemsize);
Strides f_strides(const Shape& shape, int64_t itemsize);
// NumPy's flags: contiguity ignores extents of size 1, and empty arrays are both.
inline bool is_c_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize) {
  int64_t expected = itemsize;
  bool empty = false;
  bool contiguous = true;
  for (int i = shape.size() - 1; i >= 0; --i) {
    empty |= shape[i] == 0;
    if (shape[i] == 1) continue;
    if (strides[i] != expected) contiguous = false;
    expected *= shape[i];
  }
  return contiguous || empty;
}
bool is_f_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize);

// numpy.broadcast_shapes; throws ValueError naming the shapes.
Shape broadcast_shapes(const std::vector<Shape>& shapes);
// Two shapes (the hot case of every binary operation; no container).
Shape broadcast_shapes(const Shape& a, const Shape& b);
// Strides for viewing `shape`/`strides` as `target` (zero strides where broadcast);
// throws ValueError if it cannot broadcast.
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target);

// Normalizes a possibly negative axis for an array of ndim dims; throws AxisError.
int normalize_axis(int64_t axis, int ndim);
// Normalizes an axis tuple (rejecting duplicates with ValueError).
std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim);

}  // namespace kumo
