#include "distributed/gradient_buckets.h"

#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/elementwise.h"

namespace kumo {
namespace distributed {

GradientBuckets::GradientBuckets(int64_t bucket_bytes, std::optional<Dtype> comm_dtype)
    : bucket_bytes_(bucket_bytes), comm_dtype_(comm_dtype) {
  if (bucket_bytes <= 0) throw ValueError("kumo.distributed: the bucket size must be positive");
  if (comm_dtype && !is_floating(*comm_dtype))
    throw TypeError(std::string("kumo.distributed: allreduce_grad_dtype must be a floating dtype, not ") +
                    dtype_name(*comm_dtype));
}

void GradientBuckets::layout(const std::vector<Array>& grads) {
  bool same = slots_.size() == grads.size();
  for (size_t i = 0; same && i < grads.size(); ++i)
    same = slots_[i].shape == grads[i].shape() && slots_[i].dtype == grads[i].dtype() &&
           buffers_[slots_[i].bucket].device().type() == grads[i].device().type() &&
           buffers_[slots_[i].bucket].device().index() == grads[i].device().index();
  if (same) return;
  slots_.clear();
  buffers_.clear();
  // Consecutive gradients of one wire dtype fill a bucket up to bucket_bytes
  // (one gradient larger than that gets a bucket of its own).
  std::vector<int64_t> sizes;
  std::vector<Dtype> dtypes;
  std::vector<Device*> devices;
  for (const Array& g : grads) {
    if (!is_floating(g.dtype()))
      throw TypeError(std::string("kumo.distributed: gradients must be floating arrays, not ") + dtype_name(g.dtype()));
    const Dtype wire = comm_dtype_ ? *comm_dtype_ : g.dtype();
    const int64_t bytes = g.size() * static_cast<int64_t>(itemsize(wire));
    const bool fits = !sizes.empty() && dtypes.back() == wire && devices.back() == &g.device() &&
                      (sizes.back() * static_cast<int64_t>(itemsize(wire)) + bytes <= bucket_bytes_ || sizes.back() == 0);
    if (!fits) {
      sizes.push_back(0);
      dtypes.push_back(wire);
      devices.push_back(&g.device());
    }
    slots_.push_back(Slot{sizes.size() - 1, sizes.back(), g.shape(), g.dtype()});
    sizes.back() += g.size();
  }
  for (size_t b = 0; b < sizes.size(); ++b) buffers_.push_back(empty(Shape{sizes[b]}, dtypes[b], Order::kC, *devices[b]));
}

Array GradientBuckets::slice(const Slot& slot) const {
  const Array& buffer = buffers_[slot.bucket];
  return buffer.view_with(slot.shape, c_strides(slot.shape, buffer.itemsize()), slot.offset * buffer.itemsize());
}

void GradientBuckets::pack(const std::vector<Array>& grads) {
  layout(grads);
  for (size_t i = 0; i < grads.size(); ++i) copyto(slice(slots_[i]), grads[i], Casting::kUnsafe);
}

void GradientBuckets::unpack(const std::vector<Array>& grads, double scale) const {
  if (grads.size() != slots_.size()) throw ValueError("kumo.distributed: unpack: not the gradients that were packed");
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].shape() != slots_[i].shape || grads[i].dtype() != slots_[i].dtype)
      throw ValueError("kumo.distributed: unpack: not the gradients that were packed");
    if (scale == 1.0)
      copyto(grads[i], slice(slots_[i]), Casting::kUnsafe);
    else
      multiply(slice(slots_[i]), Scalar(scale), UfuncOptions().out(grads[i]).dtype(grads[i].dtype()));
  }
}

void allreduce_gradients(Communicator& comm, GradientBuckets& buckets, const std::vector<Array>& grads, bool mean) {
  buckets.pack(grads);
  comm.allreduce_buffers(buckets.buffers());
  buckets.unpack(grads, mean ? 1.0 / comm.size() : 1.0);
}

AsyncBucketAllreduce::~AsyncBucketAllreduce() {
  if (worker_.joinable()) worker_.join();
}

void AsyncBucketAllreduce::start(Communicator& comm, const GradientBuckets& buckets, bool on_thread) {
  if (worker_.joinable()) throw RuntimeError("kumo.distributed: an asynchronous allreduce is already running");
  error_ = nullptr;
  if (!on_thread) {
    comm.allreduce_buffers(buckets.buffers());
    return;
  }
  std::vector<Array> buffers = buckets.buffers();
  worker_ = std::thread([this, &comm, buffers = std::move(buffers)] {
    try {
      comm.allreduce_buffers(buffers);
    } catch (...) {
      error_ = std::current_exception();
    }
  });
}

void AsyncBucketAllreduce::wait() {
  if (worker_.joinable()) worker_.join();
  if (error_) {
    std::exception_ptr error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

}  // namespace distributed
}  // namespace kumo
