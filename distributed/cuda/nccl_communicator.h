// NcclCommunicator: kumo.distributed's communicator for CUDA arrays, one GPU
// per process, on NCCL. Bootstrapped over an MpiCommunicator (rank 0's
// ncclUniqueId is broadcast over MPI), which also carries barriers. The
// header names no CUDA or NCCL type (the state lives in the .cpp), so code
// outside cuda/ folders may include it.
//
// Collectives run on a stream of the communicator's own after the device has
// finished the work queued before them, and are waited for by polling the
// stream and ncclCommGetAsyncError against the timeout: a dead or hung peer
// aborts the NCCL communicator and raises TimeoutError.
#pragma once
#include <memory>

#include "distributed/mpi_communicator.h"

namespace kumo {
namespace distributed {

class NcclCommunicator : public Communicator {
 public:
  // Every process of `mpi` calls this with the index of its own GPU.
  NcclCommunicator(std::shared_ptr<MpiCommunicator> mpi, int device);
  ~NcclCommunicator() override;
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  int rank() const override { return mpi_->rank(); }
  int size() const override { return mpi_->size(); }
  int intra_rank() const override { return mpi_->intra_rank(); }
  int intra_size() const override { return mpi_->intra_size(); }
  int inter_rank() const override { return mpi_->inter_rank(); }
  int inter_size() const override { return mpi_->inter_size(); }
  int device() const { return device_; }
  bool supports_concurrent_calls() const override { return false; }

  void allreduce(const Array& send, const Array& recv, ReduceOp op) override;
  void bcast(const Array& buffer, int root) override;
  void allgather(const Array& send, const std::vector<Array>& recv) override;
  void gather(const Array& send, const std::vector<Array>& recv, int root) override;
  void scatter(const std::vector<Array>& send, const Array& recv, int root) override;
  void alltoall(const std::vector<Array>& send, const std::vector<Array>& recv) override;
  void send(const Array& array, int dest, int tag) override;
  void recv(const Array& array, int source, int tag) override;
  void barrier() override;
  void allreduce_buffers(const std::vector<Array>& buffers) override;

  // NCCL's version (e.g. 22809 for 2.28.9).
  static int nccl_version();

 private:
  struct State;
  void check_cuda_array(const Array& a, const char* what) const;
  void wait(const char* what);

  std::shared_ptr<MpiCommunicator> mpi_;
  int device_;
  std::unique_ptr<State> state_;
};

}  // namespace distributed
}  // namespace kumo
