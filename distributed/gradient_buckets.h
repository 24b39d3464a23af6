// Gradient packing for data-parallel training: the gradients of a model (many
// small arrays) are copied into a few large contiguous buffers ("buckets",
// at most bucket_bytes each), optionally cast to a narrower communication
// dtype (float16 halves the traffic), so an allreduce moves a few large
// messages instead of one per parameter. The buffers are kept between
// iterations and reallocated only when the gradients' layout changes.
#pragma once
#include <cstdint>
#include <optional>
#include <thread>
#include <exception>
#include <vector>

#include "core/array.h"
#include "distributed/communicator.h"

namespace kumo {
namespace distributed {

class GradientBuckets {
 public:
  // comm_dtype: the dtype on the wire (nullopt: each gradient's own dtype;
  // a bucket then holds one dtype).
  GradientBuckets(int64_t bucket_bytes, std::optional<Dtype> comm_dtype);

  // Copies `grads` (floating arrays on one device) into the buckets.
  void pack(const std::vector<Array>& grads);
  // grads[i] = (its slice of the buckets) * scale, computed in grads[i]'s dtype.
  void unpack(const std::vector<Array>& grads, double scale) const;
  const std::vector<Array>& buffers() const { return buffers_; }

 private:
  struct Slot {
    size_t bucket;
    int64_t offset;  // elements
    Shape shape;
    Dtype dtype;
  };
  void layout(const std::vector<Array>& grads);
  Array slice(const Slot& slot) const;

  int64_t bucket_bytes_;
  std::optional<Dtype> comm_dtype_;
  std::vector<Slot> slots_;
  std::vector<Array> buffers_;
};

// The mean (or sum) of every process's gradients, in place:
// pack, one in-place sum per bucket (all in flight at once), unpack.
void allreduce_gradients(Communicator& comm, GradientBuckets& buckets, const std::vector<Array>& grads, bool mean);

// The bucket sums of an allreduce_gradients run on a worker thread, so the
// communication overlaps the caller's next computation (double buffering).
// Needs MPI_THREAD_MULTIPLE for an MPI communicator; without it start() runs
// the communication before returning.
class AsyncBucketAllreduce {
 public:
  AsyncBucketAllreduce() = default;
  ~AsyncBucketAllreduce();
  AsyncBucketAllreduce(const AsyncBucketAllreduce&) = delete;
  AsyncBucketAllreduce& operator=(const AsyncBucketAllreduce&) = delete;

  // Starts summing buckets.buffers() in place; at most one run at a time.
  void start(Communicator& comm, const GradientBuckets& buckets, bool on_thread);
  // Waits for the run to finish; rethrows its error.
  void wait();
  bool running() const { return worker_.joinable(); }

 private:
  std::thread worker_;
  std::exception_ptr error_;
};

}  // namespace distributed
}  // namespace kumo
