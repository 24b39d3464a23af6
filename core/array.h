// The n-dimensional array: shared memory + offset, shape, byte strides,
// dtype. Views share the Memory of the array they come from.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/device.h"
#include "core/dtype.h"
#include "core/memory.h"
#include "core/shape.h"

namespace kumo {

enum class Order : uint8_t { kC, kF, kA, kK };
Order order_from_char(char c);  // 'C', 'F', 'A', 'K'

// One component of a basic index (a[1, ::2, None, ...]).
struct IndexItem {
  enum class Kind : uint8_t { kInt, kSlice, kNewAxis, kEllipsis };
  Kind kind = Kind::kInt;
  int64_t index = 0;  // kInt
  // kSlice: Python semantics; missing start/stop are flagged.
  bool has_start = false, has_stop = false;
  int64_t start = 0, stop = 0, step = 1;

  IndexItem() = default;
  // An integer indexes one element along its axis (a(1, 2)).
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  IndexItem(T i) : index(static_cast<int64_t>(i)) {}  // NOLINT: implicit, as in Python's a[1]

  static IndexItem integer(int64_t i) {
    IndexItem it;
    it.kind = Kind::kInt;
    it.index = i;
    return it;
  }
  static IndexItem slice(std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step);
  static IndexItem new_axis() {
    IndexItem it;
    it.kind = Kind::kNewAxis;
    return it;
  }
  static IndexItem ellipsis() {
    IndexItem it;
    it.kind = Kind::kEllipsis;
    return it;
  }
};

class Array {
 public:
  Array() = default;
  Array(std::shared_ptr<Memory> memory, int64_t offset, const Shape& shape, const Strides& strides, Dtype dtype,
        bool writeable = true);

  // Uninitialised array on `device`.
  static Array empty(const Shape& shape, Dtype dtype, Device& device, Order order = Order::kC);
  // Uninitialised array with the memory layout of `like` (order K) or the given order.
  static Array empty_like(const Array& like, Dtype dtype, Order order = Order::kK);

  bool defined() const { return memory_ != nullptr; }
  const std::shared_ptr<Memory>& memory() const { return memory_; }
  int64_t offset() const { return offset_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  Dtype dtype() const { return dtype_; }
  int ndim() const { return shape_.size(); }
  int64_t size() const { return shape_size(shape_); }
  int64_t itemsize() const { return static_cast<int64_t>(kumo::itemsize(dtype_)); }
  int64_t nbytes() const { return size() * itemsize(); }
  Device& device() const { return *memory_->device(); }
  char* data() const { return static_cast<char*>(memory_->data()) + offset_; }
  bool writeable() const { return writeable_; }
  void set_writeable(bool w);
  bool c_contiguous() const { return is_c_contiguous(shape_, strides_, itemsize()); }
  bool f_contiguous() const { return is_f_contiguous(shape_, strides_, itemsize()); }
  // Whether the array owns its memory start-to-end (not a view into a larger block).
  bool shares_memory_with(const Array& other) const { return memory_ == other.memory_; }

  // ---- views (never copy) ----
  Array view_with(const Shape& shape, const Strides& strides, int64_t offset_delta = 0) const;
  Array transpose() const;
  Array transpose(const std::vector<int64_t>& axes) const;
  Array swapaxes(int64_t a, int64_t b) const;
  Array broadcast_to(const Shape& shape) const;  // result is read-only
  Array squeeze() const;
  Array squeeze(const std::vector<int64_t>& axes) const;
  Array expand_dims(const std::vector<int64_t>& axes) const;
  Array index(const std::vector<IndexItem>& items) const;
  // Basic indexing as in Python: a(1), a(kumo::slice(0, 2), kumo::newaxis, 3),
  // a(kumo::ellipsis, 0). Returns a view (writes go through kumo::copyto).
  template <class... Items>
  Array operator()(const Items&... items) const {
    return index(std::vector<IndexItem>{IndexItem(items)...});
  }
  // Reinterprets the bytes as another dtype (numpy's ndarray.view(dtype)).
  Array view_as(Dtype dtype) const;
  // Real / imaginary parts of a complex array as strided float views.
  Array real_view() const;
  Array imag_view() const;
  Array diagonal(int64_t offset, int64_t axis1, int64_t axis2) const;

  // A view with the new shape if the strides allow it, else nullopt.
  std::optional<Array> reshape_view(const Shape& shape, Order order = Order::kC) const;
  // reshape: view when possible, else a copy. -1 infers one extent.
  Array reshape(const Shape& shape, Order order = Order::kC) const;
  Array ravel(Order order = Order::kC) const;

  // ---- copies (run kernels; astype and copy_to are defined in kernels/copy.cpp) ----
  Array copy(Order order = Order::kK) const;
  Array astype(Dtype dtype, Order order = Order::kK, bool copy = true) const;
  // Copies into `dst` with broadcasting and casting (unsafe).
  void copy_to(const Array& dst) const;
  // Same data on another device.
  Array to_device(Device& device) const;
  // Device& of any kind by name: "cpu", "cuda", "cuda:1".
  Array to_device(const std::string& device) const;
  // Bytes of a C-contiguous host copy written to `host_dst` (size nbytes()).
  void copy_to_host_buffer(void* host_dst) const;
  // The elements in C order as a std::vector<T>, converted to T's dtype
  // (unsafe casting, as astype) from any device.
  template <class T>
  std::vector<T> to_vector() const {
    constexpr Dtype want = dtype_of<T>();
    std::vector<T> out(static_cast<size_t>(size()));
    if (out.empty()) return out;
    if constexpr (std::is_same_v<T, bool>) {
      // std::vector<bool> has no contiguous storage.
      std::vector<uint8_t> bytes(out.size());
      (dtype_ == want ? *this : astype(want)).copy_to_host_buffer(bytes.data());
      for (size_t i = 0; i < bytes.size(); ++i) out[i] = bytes[i] != 0;
    } else {
      (dtype_ == want ? *this : astype(want)).copy_to_host_buffer(out.data());
    }
    return out;
  }
  // The single element of a size-1 array as T (NumPy's item()); ValueError otherwise.
  template <class T>
  T item() const {
    check_single_element();
    return to_vector<T>()[0];
  }

 private:
  void check_single_element() const;
  std::shared_ptr<Memory> memory_;
  int64_t offset_ = 0;
  Shape shape_;
  Strides strides_;
  Dtype dtype_ = Dtype::kFloat64;
  bool writeable_ = true;
};

// Index components for Array::operator(): Python's start:stop:step
// (kumo::none for a missing bound), None and "...".
inline constexpr std::nullopt_t none = std::nullopt;
inline IndexItem slice(std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step = 1) {
  return IndexItem::slice(start, stop, step);
}
// ":" (the whole axis).
inline IndexItem all() { return IndexItem::slice(std::nullopt, std::nullopt, 1); }
inline const IndexItem newaxis = IndexItem::new_axis();
inline const IndexItem ellipsis = IndexItem::ellipsis();

// Resolves a shape with one -1 for an array of `size` elements.
Shape infer_shape(const Shape& shape, int64_t size);
// Throws DeviceError if the arrays live on different devices.
void check_same_device(const std::vector<const Array*>& arrays);

}  // namespace kumo
