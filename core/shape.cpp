#include "core/shape.h"

#include <algorithm>

#include "core/errors.h"

namespace kumo {

void throw_size_overflow() {
  throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
}


namespace {
void check_capacity(int n) {
  if (n > kMaxNdim)
    throw ValueError("maximum supported dimension for an ndarray is " + std::to_string(kMaxNdim) + ", found " +
                     std::to_string(n));
}
}  // namespace

void Dims::assign(int n, int64_t value) {
  check_capacity(n);
  n_ = n;
  for (int i = 0; i < n; ++i) v_[i] = value;
}

void Dims::push_back(int64_t v) {
  check_capacity(n_ + 1);
  v_[n_++] = v;
}

void Dims::insert(int pos, int64_t v) {
  check_capacity(n_ + 1);
  for (int i = n_; i > pos; --i) v_[i] = v_[i - 1];
  v_[pos] = v;
  ++n_;
}

void Dims::erase(int pos) {
  for (int i = pos; i + 1 < n_; ++i) v_[i] = v_[i + 1];
  --n_;
}

void Dims::resize(int n, int64_t value) {
  check_capacity(n);
  for (int i = n_; i < n; ++i) v_[i] = value;
  n_ = n;
}

std::string Dims::to_string() const {
  std::string s = "(";
  for (int i = 0; i < n_; ++i) {
    if (i) s += ", ";
    s += std::to_string(v_[i]);
  }
  if (n_ == 1) s += ",";
  return s + ")";
}

Strides c_strides(const Shape& shape, int64_t itemsize) {
  Strides s(shape.size());
  int64_t acc = itemsize;
  for (int i = shape.size() - 1; i >= 0; --i) {
    s[i] = acc;
    acc *= std::max<int64_t>(shape[i], 1);
  }
  return s;
}

Strides f_strides(const Shape& shape, int64_t itemsize) {
  Strides s(shape.size());
  int64_t acc = itemsize;
  for (int i = 0; i < shape.size(); ++i) {
    s[i] = acc;
    acc *= std::max<int64_t>(shape[i], 1);
  }
  return s;
}

bool is_f_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize) {
  if (shape_size(shape) == 0) return true;
  int64_t expected = itemsize;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  int nd = 0;
  for (const Shape& s : shapes) nd = std::max(nd, s.size());
  Shape out(nd, 1);
  for (const Shape& s : shapes) {
    int off = nd - s.size();
    for (int i = 0; i < s.size(); ++i) {
      int64_t d = s[i];
      int64_t& o = out[off + i];
      if (d == o) continue;
      if (o == 1) {
        o = d;
      } else if (d != 1) {
        std::string msg = "operands could not be broadcast together with shapes";
        for (const Shape& t : shapes) msg += " " + t.to_string();
        throw ValueError(msg);
      }
    }
  }
  return out;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const Shape& longer = a.size() >= b.size() ? a : b;
  const Shape& shorter = a.size() >= b.size() ? b : a;
  Shape out = longer;
  const int off = longer.size() - shorter.size();
  for (int i = 0; i < shorter.size(); ++i) {
    const int64_t d = shorter[i];
    int64_t& o = out[off + i];
    if (d == o || d == 1) continue;
    if (o != 1) throw ValueError("operands could not be broadcast together with shapes " + a.to_string() + " " +
                                 b.to_string());
    o = d;
  }
  return out;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target) {
  if (shape.size() > target.size())
    throw ValueError("input operand has more dimensions than allowed by the axis remapping: cannot broadcast " +
                     shape.to_string() + " to " + target.to_string());
  Strides out(target.size(), 0);
  int off = target.size() - shape.size();
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == target[off + i]) {
      out[off + i] = shape[i] == 1 ? 0 : strides[i];
    } else if (shape[i] == 1) {
      out[off + i] = 0;
    } else {
      throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                       shape.to_string() + " and requested shape " + target.to_string());
    }
  }
  return out;
}

int normalize_axis(int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> normalize_axes(const std::vector<int64_t>& axes, int ndim) {
  std::vector<int> out;
  out.reserve(axes.size());
  for (int64_t a : axes) {
    int n = normalize_axis(a, ndim);
    if (std::find(out.begin(), out.end(), n) != out.end()) throw ValueError("duplicate value in 'axis'");
    out.push_back(n);
  }
  return out;
}

}  // namespace kumo
