// MpiCommunicator: kumo.distributed's communicator for host arrays, on MPI's
// C API. Collectives read and write the arrays' own memory (contiguous arrays
// directly; others through one contiguous staging copy). Every operation is a
// nonblocking MPI call completed by polling MPI_Test against the timeout, so a
// peer that died or hangs raises TimeoutError instead of blocking forever.
#pragma once
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "distributed/communicator.h"

namespace kumo {
namespace distributed {

class MpiCommunicator : public Communicator {
 public:
  // MPI_COMM_WORLD's processes (MPI is initialised on first use).
  static std::shared_ptr<MpiCommunicator> world();
  // A communicator over the processes of `comm` (duplicated: kumo's traffic
  // never mixes with the caller's, e.g. mpi4py's).
  explicit MpiCommunicator(MPI_Comm comm);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int intra_rank() const override { return intra_rank_; }
  int intra_size() const override { return intra_size_; }
  int inter_rank() const override { return inter_rank_; }
  int inter_size() const override { return inter_size_; }
  MPI_Comm handle() const { return comm_; }
  bool supports_concurrent_calls() const override;

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

  // The processes with the same color, ordered by key (MPI_Comm_split).
  std::shared_ptr<MpiCommunicator> split(int color, int key) const;

  // Byte strings (pickled objects): any length, lengths exchanged first.
  void send_bytes(const std::string& data, int dest, int tag);
  std::string recv_bytes(int source, int tag);
  std::string bcast_bytes(const std::string& data, int root);
  std::vector<std::string> allgather_bytes(const std::string& data);
  std::vector<std::string> gather_bytes(const std::string& data, int root);  // empty except on root

  // Completes `requests` (polling MPI_Test), or throws TimeoutError naming
  // `what` once timeout() seconds have passed.
  void wait_all(std::vector<MPI_Request>& requests, const char* what) const;

 private:
  void check_peer(int peer, const char* what) const;
  void check_host(const Array& a, const char* what) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  // Carries the point-to-point messages of scatter, alltoall and the byte
  // strings, so they never match the user's send/recv on comm_.
  MPI_Comm internal_ = MPI_COMM_NULL;
  // Carries allreduce_buffers (gradients), which may run on a worker thread
  // (double buffering) while the main thread runs other collectives: MPI
  // orders collectives per communicator, so each thread needs its own.
  MPI_Comm gradients_ = MPI_COMM_NULL;
  // By default allreduce, bcast, barrier and the gradient sums are blocking
  // MPI calls under a watchdog (distributed/watchdog.h), which aborts the job
  // with the message on a timeout: Open MPI's tuned blocking algorithms are
  // up to 2x faster than its nonblocking schedules. KUMO_DISTRIBUTED_BLOCKING=0
  // makes them nonblocking calls polled against the timeout, which raise a
  // catchable CommunicationTimeoutError instead.
  bool blocking_ = true;
  int rank_ = 0, size_ = 1;
  int intra_rank_ = 0, intra_size_ = 1, inter_rank_ = 0, inter_size_ = 1;
};

// The MPI datatype that carries one element of `dtype` (float16 as its bits).
MPI_Datatype mpi_datatype(Dtype dtype);
// The MPI reduction of `op` on `dtype` (kMean sums): MPI's own operations for
// integers and sums; NaN-propagating maximum/minimum (NumPy's semantics) and
// float16 arithmetic are user-defined operations. TypeError where NumPy's
// ufunc has no loop (max/min of complex numbers).
MPI_Op mpi_reduce_op(ReduceOp op, Dtype dtype);

}  // namespace distributed
}  // namespace kumo
