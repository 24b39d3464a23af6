#include "core/array.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "core/errors.h"

namespace kumo {

Order order_from_char(char c) {
  switch (c) {
    case 'C': case 'c': return Order::kC;
    case 'F': case 'f': return Order::kF;
    case 'A': case 'a': return Order::kA;
    case 'K': case 'k': return Order::kK;
  }
  throw ValueError(std::string("order must be one of 'C', 'F', 'A', or 'K' (got '") + c + "')");
}

IndexItem IndexItem::slice(std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step) {
  if (step == 0) throw ValueError("slice step cannot be zero");
  IndexItem it;
  it.kind = Kind::kSlice;
  it.has_start = start.has_value();
  it.has_stop = stop.has_value();
  it.start = start.value_or(0);
  it.stop = stop.value_or(0);
  it.step = step;
  return it;
}

Array::Array(std::shared_ptr<Memory> memory, int64_t offset, const Shape& shape, const Strides& strides, Dtype dtype,
             bool writeable)
    : memory_(std::move(memory)), offset_(offset), shape_(shape), strides_(strides), dtype_(dtype),
      writeable_(writeable) {}

Array Array::empty(const Shape& shape, Dtype dtype, Device& device, Order order) {
  for (int64_t d : shape)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  int64_t item = static_cast<int64_t>(kumo::itemsize(dtype));
  int64_t n = shape_size(shape);
  if (item > 0 && n > std::numeric_limits<int64_t>::max() / item) throw_size_overflow();
  auto mem = device.allocate(static_cast<size_t>(n * item));
  Strides strides = order == Order::kF ? f_strides(shape, item) : c_strides(shape, item);
  return Array(std::move(mem), 0, shape, strides, dtype);
}

Array Array::empty_like(const Array& like, Dtype dtype, Order order) {
  if (order == Order::kA) order = like.f_contiguous() && !like.c_contiguous() ? Order::kF : Order::kC;
  if (order == Order::kK) {
    if (like.c_contiguous()) return empty(like.shape(), dtype, like.device(), Order::kC);
    if (like.f_contiguous()) return empty(like.shape(), dtype, like.device(), Order::kF);
    // Keep the axis order of the strides (largest first), as NumPy's order='K'.
    int nd = like.ndim();
    std::vector<int> perm(nd);
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) {
      int64_t sa = std::abs(like.strides()[a]), sb = std::abs(like.strides()[b]);
      return sa > sb;
    });
    Shape pshape(nd);
    for (int i = 0; i < nd; ++i) pshape[i] = like.shape()[perm[i]];
    Array base = empty(pshape, dtype, like.device(), Order::kC);
    Strides st(nd);
    for (int i = 0; i < nd; ++i) st[perm[i]] = base.strides()[i];
    return Array(base.memory(), 0, like.shape(), st, dtype);
  }
  return empty(like.shape(), dtype, like.device(), order);
}

void Array::set_writeable(bool w) { writeable_ = w; }

Array Array::view_with(const Shape& shape, const Strides& strides, int64_t offset_delta) const {
  return Array(memory_, offset_ + offset_delta, shape, strides, dtype_, writeable_);
}

Array Array::transpose() const {
  Shape s(ndim());
  Strides st(ndim());
  for (int i = 0; i < ndim(); ++i) {
    s[i] = shape_[ndim() - 1 - i];
    st[i] = strides_[ndim() - 1 - i];
  }
  return view_with(s, st);
}

Array Array::transpose(const std::vector<int64_t>& axes) const {
  if (static_cast<int>(axes.size()) != ndim()) throw ValueError("axes don't match array");
  std::vector<int> ax = normalize_axes(axes, ndim());
  Shape s(ndim());
  Strides st(ndim());
  for (int i = 0; i < ndim(); ++i) {
    s[i] = shape_[ax[i]];
    st[i] = strides_[ax[i]];
  }
  return view_with(s, st);
}

Array Array::swapaxes(int64_t a, int64_t b) const {
  int ia = normalize_axis(a, ndim()), ib = normalize_axis(b, ndim());
  Shape s = shape_;
  Strides st = strides_;
  std::swap(s[ia], s[ib]);
  std::swap(st[ia], st[ib]);
  return view_with(s, st);
}

Array Array::broadcast_to(const Shape& shape) const {
  for (int64_t d : shape)
    if (d < 0) throw ValueError("all elements of broadcast shape must be non-negative");
  shape_size(shape);  // a view too large to index raises here, not later as a wrong size
  Strides st = broadcast_strides(shape_, strides_, shape);
  Array out = view_with(shape, st);
  out.writeable_ = false;
  return out;
}

Array Array::squeeze() const {
  Shape s;
  Strides st;
  for (int i = 0; i < ndim(); ++i) {
    if (shape_[i] == 1) continue;
    s.push_back(shape_[i]);
    st.push_back(strides_[i]);
  }
  return view_with(s, st);
}

Array Array::squeeze(const std::vector<int64_t>& axes) const {
  // NumPy lets axis 0 (or -1) name the single implicit axis of a 0-d array.
  if (ndim() == 0 && std::all_of(axes.begin(), axes.end(), [](int64_t x) { return x == 0 || x == -1; })) return *this;
  std::vector<int> ax = normalize_axes(axes, ndim());
  for (int a : ax)
    if (shape_[a] != 1) throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
  Shape s;
  Strides st;
  for (int i = 0; i < ndim(); ++i) {
    if (std::find(ax.begin(), ax.end(), i) != ax.end()) continue;
    s.push_back(shape_[i]);
    st.push_back(strides_[i]);
  }
  return view_with(s, st);
}

Array Array::expand_dims(const std::vector<int64_t>& axes) const {
  int out_nd = ndim() + static_cast<int>(axes.size());
  std::vector<int> ax = normalize_axes(axes, out_nd);
  Shape s;
  Strides st;
  int src = 0;
  for (int i = 0; i < out_nd; ++i) {
    if (std::find(ax.begin(), ax.end(), i) != ax.end()) {
      s.push_back(1);
      // NumPy gives new unit axes the stride that keeps the array contiguous.
      st.push_back(src < ndim() ? strides_[src] * shape_[src] : itemsize());
    } else {
      s.push_back(shape_[src]);
      st.push_back(strides_[src]);
      ++src;
    }
  }
  return view_with(s, st);
}

Array Array::index(const std::vector<IndexItem>& items) const {
  int consumed = 0;
  int n_ellipsis = 0;
  for (const IndexItem& it : items) {
    if (it.kind == IndexItem::Kind::kEllipsis) ++n_ellipsis;
    else if (it.kind != IndexItem::Kind::kNewAxis) ++consumed;
  }
  if (n_ellipsis > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > ndim())
    throw IndexError("too many indices for array: array is " + std::to_string(ndim()) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  Shape s;
  Strides st;
  int64_t off = 0;
  int dim = 0;
  for (const IndexItem& it : items) {
    switch (it.kind) {
      case IndexItem::Kind::kNewAxis:
        s.push_back(1);
        st.push_back(0);
        break;
      case IndexItem::Kind::kEllipsis: {
        int fill = ndim() - consumed;
        for (int k = 0; k < fill; ++k, ++dim) {
          s.push_back(shape_[dim]);
          st.push_back(strides_[dim]);
        }
        break;
      }
      case IndexItem::Kind::kInt: {
        int64_t n = shape_[dim];
        int64_t i = it.index;
        if (i < -n || i >= n)
          throw IndexError("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(dim) +
                           " with size " + std::to_string(n));
        if (i < 0) i += n;
        off += i * strides_[dim];
        ++dim;
        break;
      }
      case IndexItem::Kind::kSlice: {
        int64_t n = shape_[dim];
        int64_t step = it.step;
        int64_t start, stop;
        // Python's slice.indices() semantics.
        if (step > 0) {
          start = it.has_start ? it.start : 0;
          stop = it.has_stop ? it.stop : n;
          if (start < 0) start = std::max<int64_t>(start + n, 0);
          if (stop < 0) stop = std::max<int64_t>(stop + n, 0);
          start = std::min(start, n);
          stop = std::min(stop, n);
        } else {
          start = it.has_start ? it.start : n - 1;
          stop = it.has_stop ? it.stop : -1 - n;  // "before the beginning"
          if (start < 0) start = std::max<int64_t>(start + n, -1);
          else start = std::min(start, n - 1);
          if (stop < 0) stop = std::max<int64_t>(stop + n, -1);
          else stop = std::min(stop, n - 1);
        }
        int64_t len = 0;
        if (step > 0 && stop > start) len = (stop - start + step - 1) / step;
        if (step < 0 && start > stop) len = (start - stop + (-step) - 1) / (-step);
        if (len > 0) off += start * strides_[dim];
        s.push_back(len);
        st.push_back(strides_[dim] * step);
        ++dim;
        break;
      }
    }
  }
  for (; dim < ndim(); ++dim) {
    s.push_back(shape_[dim]);
    st.push_back(strides_[dim]);
  }
  return view_with(s, st, off);
}

Array Array::view_as(Dtype dtype) const {
  int64_t old_item = itemsize(), new_item = static_cast<int64_t>(kumo::itemsize(dtype));
  if (old_item == new_item) {
    Array out = *this;
    out.dtype_ = dtype;
    return out;
  }
  if (ndim() == 0)
    throw ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  int last = ndim() - 1;
  if (strides_[last] != old_item && shape_[last] != 1)
    throw ValueError("To change to a dtype of a different size, the last axis must be contiguous");
  int64_t bytes = shape_[last] * old_item;
  if (bytes % new_item != 0)
    throw ValueError("When changing to a " + std::string(new_item > old_item ? "larger" : "smaller") +
                     " dtype, its size must be a divisor of the size of original dtype");
  Shape s = shape_;
  Strides st = strides_;
  s[last] = bytes / new_item;
  st[last] = new_item;
  Array out(memory_, offset_, s, st, dtype, writeable_);
  return out;
}

Array Array::real_view() const {
  if (!is_complex(dtype_)) return *this;
  Array out = *this;
  out.dtype_ = real_dtype(dtype_);
  return out;
}

Array Array::imag_view() const {
  if (!is_complex(dtype_)) throw TypeError("imag_view of a real array");
  Array out = *this;
  out.dtype_ = real_dtype(dtype_);
  out.offset_ += out.itemsize();
  return out;
}

Array Array::diagonal(int64_t offset, int64_t axis1, int64_t axis2) const {
  if (ndim() < 2) throw ValueError("diag requires an array of at least two dimensions");
  int a1 = normalize_axis(axis1, ndim()), a2 = normalize_axis(axis2, ndim());
  if (a1 == a2) throw ValueError("axis1 and axis2 cannot be the same");
  int64_t n1 = shape_[a1], n2 = shape_[a2];
  int64_t off = 0, len;
  if (offset >= 0) {
    len = std::max<int64_t>(0, std::min(n1, n2 - offset));
    if (len > 0) off = offset * strides_[a2];
  } else {
    len = std::max<int64_t>(0, std::min(n1 + offset, n2));
    if (len > 0) off = -offset * strides_[a1];
  }
  Shape s;
  Strides st;
  for (int i = 0; i < ndim(); ++i) {
    if (i == a1 || i == a2) continue;
    s.push_back(shape_[i]);
    st.push_back(strides_[i]);
  }
  s.push_back(len);
  st.push_back(strides_[a1] + strides_[a2]);
  Array out = view_with(s, st, off);
  out.writeable_ = false;  // NumPy's diagonal() views are read-only
  return out;
}

Shape infer_shape(const Shape& shape, int64_t size) {
  Shape out = shape;
  int unknown = -1;
  int64_t known = 1;
  for (int i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = i;
    } else if (out[i] < 0) {
      throw ValueError("negative dimensions not allowed");
    } else {
      known *= out[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || size % known != 0)
      throw ValueError("cannot reshape array of size " + std::to_string(size) + " into shape " + shape.to_string());
    out[unknown] = size / known;
  } else if (known != size) {
    throw ValueError("cannot reshape array of size " + std::to_string(size) + " into shape " + shape.to_string());
  }
  return out;
}

std::optional<Array> Array::reshape_view(const Shape& newshape_in, Order order) const {
  Shape newshape = infer_shape(newshape_in, size());
  int64_t item = itemsize();
  if (order == Order::kA) order = (f_contiguous() && !c_contiguous()) ? Order::kF : Order::kC;
  if (size() == 0 || (order == Order::kC && c_contiguous()) || (order == Order::kF && f_contiguous())) {
    if (size() == 0 || (order == Order::kC ? c_contiguous() : f_contiguous())) {
      Strides st = order == Order::kF ? f_strides(newshape, item) : c_strides(newshape, item);
      return view_with(newshape, st);
    }
  }
  // General case: drop unit axes, then match groups of old and new axes with
  // equal products; each old group must be contiguous in itself.
  Shape os;
  Strides ost;
  for (int i = 0; i < ndim(); ++i) {
    if (shape_[i] != 1) {
      os.push_back(shape_[i]);
      ost.push_back(strides_[i]);
    }
  }
  const bool f = order == Order::kF;
  auto oi = [&](int k) { return f ? k : os.size() - 1 - k; };       // iterate from the fastest axis
  auto ni = [&](int k) { return f ? k : newshape.size() - 1 - k; };
  Strides nst(newshape.size(), 0);
  int o = 0, n = 0;
  const int on = os.size(), nn = newshape.size();
  while (o < on || n < nn) {
    if (n < nn && newshape[ni(n)] == 1) {
      nst[ni(n)] = 0;  // fixed up below
      ++n;
      continue;
    }
    if (o >= on || n >= nn) return std::nullopt;
    int64_t op = os[oi(o)], np = newshape[ni(n)];
    int o0 = o, n0 = n;
    ++o;
    ++n;
    while (op != np) {
      if (op < np) {
        if (o >= on) return std::nullopt;
        op *= os[oi(o++)];
      } else {
        while (n < nn && newshape[ni(n)] == 1) ++n;
        if (n >= nn) return std::nullopt;
        np *= newshape[ni(n++)];
      }
    }
    for (int k = o0; k + 1 < o; ++k)
      if (ost[oi(k + 1)] != ost[oi(k)] * os[oi(k)]) return std::nullopt;
    int64_t stride = ost[oi(o0)];
    for (int k = n0; k < n; ++k) {
      nst[ni(k)] = stride;
      stride *= newshape[ni(k)];
    }
  }
  // Unit axes take the stride NumPy would give them (contiguous-looking).
  for (int k = 0; k < nn; ++k) {
    int idx = ni(k);
    if (newshape[idx] == 1) {
      int64_t s = item;
      if (k > 0) s = nst[ni(k - 1)] * newshape[ni(k - 1)];
      nst[idx] = s;
    }
  }
  return view_with(newshape, nst);
}

Array Array::reshape(const Shape& shape, Order order) const {
  if (order == Order::kK) throw ValueError("order 'K' is not permitted for reshaping");
  auto v = reshape_view(shape, order);
  if (v) return *v;
  Order copy_order = order == Order::kF ? Order::kF : Order::kC;
  if (order == Order::kA) copy_order = (f_contiguous() && !c_contiguous()) ? Order::kF : Order::kC;
  Array c = copy(copy_order);
  auto v2 = c.reshape_view(shape, copy_order);
  return *v2;
}

Array Array::ravel(Order order) const {
  Shape flat{size()};
  if (order == Order::kK) {
    // Flatten in memory order when that order is a plain strided walk.
    if (c_contiguous()) return reshape(flat, Order::kC);
    if (f_contiguous()) return reshape(flat, Order::kF);
    return copy(Order::kK).ravel(Order::kK);
  }
  return reshape(flat, order);
}

Array Array::copy(Order order) const { return astype(dtype_, order, true); }

Array Array::to_device(Device& device) const {
  if (&device == &this->device()) return *this;
  // Stage through a contiguous host buffer: device-to-device across
  // backends is not a single copy call.
  Array contiguous = c_contiguous() ? *this : copy(Order::kC);
  Array out = empty(shape_, dtype_, device, Order::kC);
  size_t n = static_cast<size_t>(nbytes());
  if (n == 0) return out;
  if (contiguous.device().type() == DeviceType::kCPU) {
    device.copy_from_host(out.data(), contiguous.data(), n);
  } else if (device.type() == DeviceType::kCPU) {
    contiguous.device().copy_to_host(out.data(), contiguous.data(), n);
  } else {
    std::vector<char> staging(n);
    contiguous.device().copy_to_host(staging.data(), contiguous.data(), n);
    device.copy_from_host(out.data(), staging.data(), n);
  }
  return out;
}

void Array::copy_to_host_buffer(void* host_dst) const {
  Array contiguous = c_contiguous() ? *this : copy(Order::kC);
  size_t n = static_cast<size_t>(nbytes());
  if (n == 0) return;
  contiguous.device().copy_to_host(host_dst, contiguous.data(), n);
}

void check_same_device(const std::vector<const Array*>& arrays) {
  Device* first = nullptr;
  for (const Array* a : arrays) {
    if (!a || !a->defined()) continue;
    Device* d = &a->device();
    if (!first) {
      first = d;
    } else if (d != first) {
      throw DeviceError("arrays are on different devices: " + first->name() + " and " + d->name() +
                        "; move one with to_device() first");
    }
  }
}

}  // namespace kumo

namespace kumo {

Array Array::to_device(const std::string& device) const { return to_device(get_device(device)); }

void Array::check_single_element() const {
  if (size() != 1) throw ValueError("can only convert an array of size 1 to a C++ scalar (size " +
                                    std::to_string(size()) + ")");
}

}  // namespace kumo
