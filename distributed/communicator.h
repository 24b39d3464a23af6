// The communicator interface of kumo.distributed (ChainerMN's design): a group
// of processes, each with a rank, exchanging kumo arrays in place, without
// staging copies through NumPy. MpiCommunicator (distributed/mpi_communicator.h)
// moves host arrays over MPI; NcclCommunicator (distributed/cuda/) moves CUDA
// arrays over NCCL and is bootstrapped over MPI.
//
// Every call that waits on other processes gives up after timeout() seconds
// with kumo::distributed::TimeoutError, so a dead or hung peer becomes an error
// instead of a silent hang of the whole job.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/errors.h"

namespace kumo {
namespace distributed {

// A peer did not take part in a communication within the timeout. After it
// the communicator is unusable (a collective may be half done on the others).
class TimeoutError : public RuntimeError {
 public:
  using RuntimeError::RuntimeError;
};

// The element-wise reduction of allreduce. kMean is kSum divided by size().
enum class ReduceOp { kSum, kMean, kMax, kMin };
ReduceOp parse_reduce_op(const std::string& name);  // "sum", "mean", "max", "min"
const char* reduce_op_name(ReduceOp op);

// Seconds a communication may wait for its peers: KUMO_DISTRIBUTED_TIMEOUT
// when set (0 or negative: wait forever), else 300.
double default_timeout_seconds();

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  // The processes on this machine, and the machines (one process each).
  virtual int intra_rank() const = 0;
  virtual int intra_size() const = 0;
  virtual int inter_rank() const = 0;
  virtual int inter_size() const = 0;

  // True when a second thread may communicate while this one does (double
  // buffering runs the gradient allreduce on a worker thread).
  virtual bool supports_concurrent_calls() const = 0;

  double timeout() const { return timeout_seconds_; }
  void set_timeout(double seconds) { timeout_seconds_ = seconds; }

  // recv = op over every process's send (equal shapes and dtypes everywhere).
  // send and recv may be the same array (in place).
  virtual void allreduce(const Array& send, const Array& recv, ReduceOp op) = 0;
  // buffer on every process = buffer on root.
  virtual void bcast(const Array& buffer, int root) = 0;
  // recv[i] = send of rank i; every recv[i] has the shape its sender's send has.
  virtual void allgather(const Array& send, const std::vector<Array>& recv) = 0;
  // On root: recv[i] = send of rank i (recv is ignored elsewhere).
  virtual void gather(const Array& send, const std::vector<Array>& recv, int root) = 0;
  // recv = send[rank] of root (send is ignored except on root).
  virtual void scatter(const std::vector<Array>& send, const Array& recv, int root) = 0;
  // recv[i] = send[rank] of rank i.
  virtual void alltoall(const std::vector<Array>& send, const std::vector<Array>& recv) = 0;
  virtual void send(const Array& array, int dest, int tag) = 0;
  virtual void recv(const Array& array, int source, int tag) = 0;
  virtual void barrier() = 0;
  // Sums each contiguous buffer in place across the processes, all of them in
  // flight at once (the buckets of a gradient allreduce).
  virtual void allreduce_buffers(const std::vector<Array>& buffers) = 0;

 protected:
  double timeout_seconds_ = default_timeout_seconds();
};

}  // namespace distributed
}  // namespace kumo
