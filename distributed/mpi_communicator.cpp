#include "distributed/mpi_communicator.h"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#include "distributed/mpi_environment.h"
#include "distributed/watchdog.h"
#include "routines/assignment.h"
#include "routines/creation.h"
#include "routines/elementwise.h"

namespace kumo {
namespace distributed {
namespace {

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw RuntimeError(std::string("kumo.distributed: ") + what + " failed: " + std::string(text, length));
}

int element_count(const Array& a, const char* what) {
  if (a.size() > INT_MAX)
    throw ValueError(std::string("kumo.distributed: ") + what + ": arrays of more than 2**31-1 elements "
                     "must be sent in pieces (MPI counts are int)");
  return static_cast<int>(a.size());
}

// `a` itself when C-contiguous, else a C-contiguous copy (the data MPI reads).
Array contiguous_source(const Array& a) { return a.c_contiguous() ? a : a.astype(a.dtype(), Order::kC, true); }

// Where MPI writes a result meant for `dst`: dst itself when C-contiguous,
// else a scratch array copied into dst by finish().
struct Destination {
  Array target, buffer;
  explicit Destination(const Array& dst)
      : target(dst), buffer(dst.c_contiguous() ? dst : empty(dst.shape(), dst.dtype(), Order::kC, dst.device())) {}
  void finish() const {
    if (buffer.data() != target.data() || !target.c_contiguous()) copyto(target, buffer, Casting::kNo);
  }
};

void require_writeable(const Array& a, const char* what) {
  if (!a.writeable())
    throw ValueError(std::string("kumo.distributed: ") + what + ": the destination array is read-only");
}

bool same_layout(const Array& a, const Array& b) { return a.shape() == b.shape() && a.dtype() == b.dtype(); }

std::string shape_text(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += std::to_string(s[i]) + (s.size() == 1 ? "," : i + 1 < s.size() ? ", " : "");
  return out + ")";
}

// True when the arrays are C-contiguous and lie back to back in one memory
// block in order, so one MPI buffer with displacements covers them.
bool back_to_back(const std::vector<Array>& arrays) {
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (!arrays[i].c_contiguous()) return false;
    if (i > 0 && (arrays[i].memory() != arrays[0].memory() ||
                  arrays[i].offset() != arrays[i - 1].offset() + arrays[i - 1].nbytes()))
      return false;
  }
  return true;
}

constexpr int64_t kByteChunk = int64_t{1} << 30;  // bytes per MPI call for byte strings

}  // namespace

ReduceOp parse_reduce_op(const std::string& name) {
  if (name == "sum") return ReduceOp::kSum;
  if (name == "mean") return ReduceOp::kMean;
  if (name == "max") return ReduceOp::kMax;
  if (name == "min") return ReduceOp::kMin;
  throw ValueError("kumo.distributed: op must be 'sum', 'mean', 'max' or 'min', not '" + name + "'");
}

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return "sum";
    case ReduceOp::kMean: return "mean";
    case ReduceOp::kMax: return "max";
    case ReduceOp::kMin: return "min";
  }
  return "?";
}

double default_timeout_seconds() {
  const char* text = std::getenv("KUMO_DISTRIBUTED_TIMEOUT");
  if (text == nullptr || *text == '\0') return 300.0;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0')
    throw ValueError(std::string("KUMO_DISTRIBUTED_TIMEOUT must be a number of seconds, not '") + text + "'");
  return value;
}

std::shared_ptr<MpiCommunicator> MpiCommunicator::world() {
  ensure_mpi_initialized();
  return std::make_shared<MpiCommunicator>(MPI_COMM_WORLD);
}

MpiCommunicator::MpiCommunicator(MPI_Comm comm) {
  ensure_mpi_initialized();
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  check(MPI_Comm_dup(comm, &internal_), "MPI_Comm_dup");
  check(MPI_Comm_dup(comm, &gradients_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(gradients_, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(internal_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  const char* blocking = std::getenv("KUMO_DISTRIBUTED_BLOCKING");
  // Blocking unless KUMO_DISTRIBUTED_BLOCKING=0 (distributed/mpi_communicator.h).
  blocking_ = !(blocking != nullptr && std::string(blocking) == "0");
  // Processes sharing memory are one machine ("intra"); the processes with
  // the same intra rank, one per machine, are the "inter" communicator.
  MPI_Comm intra, inter;
  check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &intra), "MPI_Comm_split_type");
  MPI_Comm_rank(intra, &intra_rank_);
  MPI_Comm_size(intra, &intra_size_);
  check(MPI_Comm_split(comm_, intra_rank_, rank_, &inter), "MPI_Comm_split");
  MPI_Comm_rank(inter, &inter_rank_);
  MPI_Comm_size(inter, &inter_size_);
  MPI_Comm_free(&intra);
  MPI_Comm_free(&inter);
}

MpiCommunicator::~MpiCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  if (internal_ != MPI_COMM_NULL) MPI_Comm_free(&internal_);
  if (gradients_ != MPI_COMM_NULL) MPI_Comm_free(&gradients_);
}

bool MpiCommunicator::supports_concurrent_calls() const { return mpi_thread_multiple(); }

void MpiCommunicator::wait_all(std::vector<MPI_Request>& requests, const char* what) const {
  if (requests.empty()) return;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const bool bounded = timeout_seconds_ > 0;
  const auto limit = std::chrono::duration<double>(timeout_seconds_);
  const auto spin_for = std::chrono::milliseconds(2);
  for (;;) {
    int done = 0;
    check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE), what);
    if (done) return;
    // Polling turns MPI's progress engine (as a blocking call would); after a
    // few milliseconds the wait yields, so the other processes of an
    // oversubscribed machine (or a slow peer) get the core.
    const auto waited = Clock::now() - start;
    if (waited < spin_for) continue;
    std::this_thread::yield();
    if (bounded && waited > limit) {
      mark_communication_failed();
      std::ostringstream message;
      message << "kumo.distributed: " << what << " on rank " << rank_ << " of " << size_ << " did not complete within "
              << timeout_seconds_ << " s: a peer process is dead or hung (KUMO_DISTRIBUTED_TIMEOUT sets the limit)";
      throw TimeoutError(message.str());
    }
  }
}

void MpiCommunicator::check_peer(int peer, const char* what) const {
  if (peer < 0 || peer >= size_)
    throw ValueError(std::string("kumo.distributed: ") + what + ": rank " + std::to_string(peer) +
                     " is out of range for a communicator of size " + std::to_string(size_));
}

void MpiCommunicator::check_host(const Array& a, const char* what) const {
  if (a.device().type() != DeviceType::kCPU)
    throw DeviceError(std::string("kumo.distributed: ") + what +
                      ": the MPI communicator moves host (CPU) arrays; use the 'pure_nccl' communicator for CUDA arrays");
}

void MpiCommunicator::allreduce(const Array& send, const Array& recv, ReduceOp op) {
  check_host(send, "allreduce");
  check_host(recv, "allreduce");
  require_writeable(recv, "allreduce");
  if (!same_layout(send, recv))
    throw ValueError("kumo.distributed: allreduce: the result array must have the shape and dtype of the input");
  if (op == ReduceOp::kMean && !is_floating(send.dtype()) && !is_complex(send.dtype()))
    throw TypeError(std::string("kumo.distributed: allreduce: op='mean' needs a floating or complex array, not ") +
                    dtype_name(send.dtype()) + " (the result keeps the input's dtype)");
  const int count = element_count(send, "allreduce");
  const MPI_Op mpi_op = mpi_reduce_op(op, send.dtype());
  Destination out(recv);
  const bool in_place = send.data() == recv.data() && send.strides() == recv.strides();
  Array source;
  if (in_place) {
    if (out.buffer.data() != recv.data()) copyto(out.buffer, recv, Casting::kNo);
  } else {
    source = contiguous_source(send);
  }
  if (blocking_) {
    WatchdogScope deadline(timeout_seconds_, "allreduce", rank_, size_);
    check(MPI_Allreduce(in_place ? MPI_IN_PLACE : source.data(), out.buffer.data(), count, mpi_datatype(send.dtype()),
                        mpi_op, comm_),
          "MPI_Allreduce");
  } else {
    std::vector<MPI_Request> requests(1);
    check(MPI_Iallreduce(in_place ? MPI_IN_PLACE : source.data(), out.buffer.data(), count,
                         mpi_datatype(send.dtype()), mpi_op, comm_, &requests[0]),
          "MPI_Iallreduce");
    wait_all(requests, "allreduce");
  }
  if (op == ReduceOp::kMean) true_divide(out.buffer, Scalar(static_cast<int64_t>(size_)), UfuncOptions(out.buffer));
  out.finish();
}

void MpiCommunicator::allreduce_buffers(const std::vector<Array>& buffers) {
  for (const Array& b : buffers) {
    check_host(b, "allreduce_grad");
    if (!b.c_contiguous()) throw ValueError("kumo.distributed: allreduce_buffers needs C-contiguous buffers");
  }
  if (blocking_) {
    WatchdogScope deadline(timeout_seconds_, "allreduce_grad", rank_, size_);
    for (const Array& b : buffers)
      check(MPI_Allreduce(MPI_IN_PLACE, b.data(), element_count(b, "allreduce_grad"), mpi_datatype(b.dtype()),
                          mpi_reduce_op(ReduceOp::kSum, b.dtype()), gradients_),
            "MPI_Allreduce");
    return;
  }
  std::vector<MPI_Request> requests(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    check(MPI_Iallreduce(MPI_IN_PLACE, buffers[i].data(), element_count(buffers[i], "allreduce_grad"),
                         mpi_datatype(buffers[i].dtype()), mpi_reduce_op(ReduceOp::kSum, buffers[i].dtype()), gradients_,
                         &requests[i]),
          "MPI_Iallreduce");
  }
  wait_all(requests, "allreduce_grad");
}

void MpiCommunicator::bcast(const Array& buffer, int root) {
  check_host(buffer, "bcast");
  check_peer(root, "bcast");
  if (rank_ != root) require_writeable(buffer, "bcast");
  Destination out(buffer);
  if (rank_ == root && out.buffer.data() != buffer.data()) copyto(out.buffer, buffer, Casting::kNo);
  if (blocking_) {
    WatchdogScope deadline(timeout_seconds_, "bcast", rank_, size_);
    check(MPI_Bcast(out.buffer.data(), element_count(buffer, "bcast"), mpi_datatype(buffer.dtype()), root, comm_),
          "MPI_Bcast");
  } else {
    std::vector<MPI_Request> requests(1);
    check(MPI_Ibcast(out.buffer.data(), element_count(buffer, "bcast"), mpi_datatype(buffer.dtype()), root, comm_,
                     &requests[0]),
          "MPI_Ibcast");
    wait_all(requests, "bcast");
  }
  if (rank_ != root) out.finish();
}

void MpiCommunicator::allgather(const Array& send, const std::vector<Array>& recv) {
  check_host(send, "allgather");
  if (static_cast<int>(recv.size()) != size_)
    throw ValueError("kumo.distributed: allgather needs one result array per process");
  std::vector<int> counts(size_), displacements(size_);
  int64_t total = 0;
  for (int i = 0; i < size_; ++i) {
    check_host(recv[i], "allgather");
    require_writeable(recv[i], "allgather");
    if (recv[i].dtype() != send.dtype())
      throw ValueError("kumo.distributed: allgather: every result array must have the input's dtype");
    counts[i] = element_count(recv[i], "allgather");
    displacements[i] = static_cast<int>(total);
    total += recv[i].size();
    if (total > INT_MAX) throw ValueError("kumo.distributed: allgather: more than 2**31-1 elements in all");
  }
  if (recv[rank_].shape() != send.shape())
    throw ValueError("kumo.distributed: allgather: this process's result array must have the input's shape");
  const bool direct = back_to_back(recv);
  Array flat = direct ? Array() : empty(Shape{total}, send.dtype(), Order::kC, send.device());
  char* base = direct ? recv[0].data() : flat.data();
  const Array source = contiguous_source(send);
  std::vector<MPI_Request> requests(1);
  check(MPI_Iallgatherv(source.data(), counts[rank_], mpi_datatype(send.dtype()), base, counts.data(),
                        displacements.data(), mpi_datatype(send.dtype()), comm_, &requests[0]),
        "MPI_Iallgatherv");
  wait_all(requests, "allgather");
  if (!direct)
    for (int i = 0; i < size_; ++i)
      copyto(recv[i], flat.view_with(recv[i].shape(), c_strides(recv[i].shape(), recv[i].itemsize()),
                                     static_cast<int64_t>(displacements[i]) * send.itemsize()),
             Casting::kNo);
}

void MpiCommunicator::gather(const Array& send, const std::vector<Array>& recv, int root) {
  check_host(send, "gather");
  check_peer(root, "gather");
  const bool is_root = rank_ == root;
  std::vector<int> counts(size_), displacements(size_);
  int64_t total = 0;
  if (is_root) {
    if (static_cast<int>(recv.size()) != size_)
      throw ValueError("kumo.distributed: gather needs one result array per process on the root");
    for (int i = 0; i < size_; ++i) {
      check_host(recv[i], "gather");
      require_writeable(recv[i], "gather");
      if (recv[i].dtype() != send.dtype())
        throw ValueError("kumo.distributed: gather: every result array must have the input's dtype");
      counts[i] = element_count(recv[i], "gather");
      displacements[i] = static_cast<int>(total);
      total += recv[i].size();
      if (total > INT_MAX) throw ValueError("kumo.distributed: gather: more than 2**31-1 elements in all");
    }
  }
  const bool direct = is_root && back_to_back(recv);
  Array flat = is_root && !direct ? empty(Shape{total}, send.dtype(), Order::kC, send.device()) : Array();
  char* base = !is_root ? nullptr : direct ? recv[0].data() : flat.data();
  const Array source = contiguous_source(send);
  std::vector<MPI_Request> requests(1);
  check(MPI_Igatherv(source.data(), element_count(send, "gather"), mpi_datatype(send.dtype()), base, counts.data(),
                     displacements.data(), mpi_datatype(send.dtype()), root, comm_, &requests[0]),
        "MPI_Igatherv");
  wait_all(requests, "gather");
  if (is_root && !direct)
    for (int i = 0; i < size_; ++i)
      copyto(recv[i], flat.view_with(recv[i].shape(), c_strides(recv[i].shape(), recv[i].itemsize()),
                                     static_cast<int64_t>(displacements[i]) * send.itemsize()),
             Casting::kNo);
}

void MpiCommunicator::scatter(const std::vector<Array>& send, const Array& recv, int root) {
  check_host(recv, "scatter");
  check_peer(root, "scatter");
  require_writeable(recv, "scatter");
  std::vector<Array> sources;
  std::vector<MPI_Request> requests;
  if (rank_ == root) {
    if (static_cast<int>(send.size()) != size_)
      throw ValueError("kumo.distributed: scatter needs one array per process on the root");
    for (int i = 0; i < size_; ++i) {
      check_host(send[i], "scatter");
      if (send[i].dtype() != recv.dtype())
        throw ValueError("kumo.distributed: scatter: the arrays must have the result's dtype");
    }
    if (send[root].shape() != recv.shape())
      throw ValueError("kumo.distributed: scatter: the root's own piece must have the result's shape");
    for (int i = 0; i < size_; ++i) {
      if (i == root) continue;
      sources.push_back(contiguous_source(send[i]));
      requests.emplace_back();
      check(MPI_Isend(sources.back().data(), element_count(sources.back(), "scatter"), mpi_datatype(recv.dtype()), i,
                      0, internal_, &requests.back()),
            "MPI_Isend");
    }
    wait_all(requests, "scatter");
    copyto(recv, send[root], Casting::kNo);
    return;
  }
  Destination out(recv);
  requests.emplace_back();
  check(MPI_Irecv(out.buffer.data(), element_count(recv, "scatter"), mpi_datatype(recv.dtype()), root, 0, internal_,
                  &requests[0]),
        "MPI_Irecv");
  wait_all(requests, "scatter");
  out.finish();
}

void MpiCommunicator::alltoall(const std::vector<Array>& send, const std::vector<Array>& recv) {
  if (static_cast<int>(send.size()) != size_ || static_cast<int>(recv.size()) != size_)
    throw ValueError("kumo.distributed: alltoall needs one array per process to send and to receive");
  for (int i = 0; i < size_; ++i) {
    check_host(send[i], "alltoall");
    check_host(recv[i], "alltoall");
    require_writeable(recv[i], "alltoall");
    if (send[i].dtype() != send[0].dtype() || recv[i].dtype() != send[0].dtype())
      throw ValueError("kumo.distributed: alltoall: every array must have one dtype");
  }
  if (send[rank_].shape() != recv[rank_].shape())
    throw ValueError("kumo.distributed: alltoall: the piece a process keeps must have its result's shape");
  const MPI_Datatype type = mpi_datatype(send[0].dtype());
  std::vector<Array> sources;
  std::vector<Destination> outs;
  sources.reserve(size_);
  outs.reserve(size_);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * size_);
  for (int i = 0; i < size_; ++i) {
    if (i == rank_) continue;
    outs.emplace_back(recv[i]);
    requests.emplace_back();
    check(MPI_Irecv(outs.back().buffer.data(), element_count(recv[i], "alltoall"), type, i, 1, internal_,
                    &requests.back()),
          "MPI_Irecv");
  }
  for (int i = 0; i < size_; ++i) {
    if (i == rank_) continue;
    sources.push_back(contiguous_source(send[i]));
    requests.emplace_back();
    check(MPI_Isend(sources.back().data(), element_count(sources.back(), "alltoall"), type, i, 1, internal_,
                    &requests.back()),
          "MPI_Isend");
  }
  copyto(recv[rank_], send[rank_], Casting::kNo);
  wait_all(requests, "alltoall");
  for (const Destination& out : outs) out.finish();
}

void MpiCommunicator::send(const Array& array, int dest, int tag) {
  check_host(array, "send");
  check_peer(dest, "send");
  const Array source = contiguous_source(array);
  std::vector<MPI_Request> requests(1);
  check(MPI_Isend(source.data(), element_count(source, "send"), mpi_datatype(array.dtype()), dest, tag, comm_,
                  &requests[0]),
        "MPI_Isend");
  wait_all(requests, "send");
}

void MpiCommunicator::recv(const Array& array, int source, int tag) {
  check_host(array, "recv");
  check_peer(source, "recv");
  require_writeable(array, "recv");
  Destination out(array);
  std::vector<MPI_Request> requests(1);
  check(MPI_Irecv(out.buffer.data(), element_count(array, "recv"), mpi_datatype(array.dtype()), source, tag, comm_,
                  &requests[0]),
        "MPI_Irecv");
  wait_all(requests, "recv");
  out.finish();
}

void MpiCommunicator::barrier() {
  if (blocking_) {
    WatchdogScope deadline(timeout_seconds_, "barrier", rank_, size_);
    check(MPI_Barrier(comm_), "MPI_Barrier");
    return;
  }
  std::vector<MPI_Request> requests(1);
  check(MPI_Ibarrier(comm_, &requests[0]), "MPI_Ibarrier");
  wait_all(requests, "barrier");
}

std::shared_ptr<MpiCommunicator> MpiCommunicator::split(int color, int key) const {
  if (color < 0) throw ValueError("kumo.distributed: split: color must be non-negative");
  MPI_Comm part;
  check(MPI_Comm_split(comm_, color, key, &part), "MPI_Comm_split");
  auto out = std::make_shared<MpiCommunicator>(part);
  MPI_Comm_free(&part);
  out->set_timeout(timeout_seconds_);
  return out;
}

void MpiCommunicator::send_bytes(const std::string& data, int dest, int tag) {
  check_peer(dest, "send_obj");
  uint64_t length = data.size();
  std::vector<MPI_Request> requests(1);
  check(MPI_Isend(&length, 1, MPI_UINT64_T, dest, tag, internal_, &requests[0]), "MPI_Isend");
  for (uint64_t at = 0; at < length; at += kByteChunk) {
    const int n = static_cast<int>(std::min<uint64_t>(kByteChunk, length - at));
    requests.emplace_back();
    check(MPI_Isend(data.data() + at, n, MPI_BYTE, dest, tag, internal_, &requests.back()), "MPI_Isend");
  }
  wait_all(requests, "send_obj");
}

std::string MpiCommunicator::recv_bytes(int source, int tag) {
  check_peer(source, "recv_obj");
  uint64_t length = 0;
  std::vector<MPI_Request> requests(1);
  check(MPI_Irecv(&length, 1, MPI_UINT64_T, source, tag, internal_, &requests[0]), "MPI_Irecv");
  wait_all(requests, "recv_obj");
  std::string data(length, '\0');
  requests.clear();
  for (uint64_t at = 0; at < length; at += kByteChunk) {
    const int n = static_cast<int>(std::min<uint64_t>(kByteChunk, length - at));
    requests.emplace_back();
    check(MPI_Irecv(&data[at], n, MPI_BYTE, source, tag, internal_, &requests.back()), "MPI_Irecv");
  }
  wait_all(requests, "recv_obj");
  return data;
}

std::string MpiCommunicator::bcast_bytes(const std::string& data, int root) {
  check_peer(root, "bcast_obj");
  uint64_t length = rank_ == root ? data.size() : 0;
  std::vector<MPI_Request> requests(1);
  check(MPI_Ibcast(&length, 1, MPI_UINT64_T, root, internal_, &requests[0]), "MPI_Ibcast");
  wait_all(requests, "bcast_obj");
  std::string out = rank_ == root ? data : std::string(length, '\0');
  requests.clear();
  for (uint64_t at = 0; at < length; at += kByteChunk) {
    const int n = static_cast<int>(std::min<uint64_t>(kByteChunk, length - at));
    requests.emplace_back();
    check(MPI_Ibcast(&out[at], n, MPI_BYTE, root, internal_, &requests.back()), "MPI_Ibcast");
  }
  wait_all(requests, "bcast_obj");
  return out;
}

std::vector<std::string> MpiCommunicator::allgather_bytes(const std::string& data) {
  uint64_t length = data.size();
  std::vector<uint64_t> lengths(size_);
  std::vector<MPI_Request> requests(1);
  check(MPI_Iallgather(&length, 1, MPI_UINT64_T, lengths.data(), 1, MPI_UINT64_T, internal_, &requests[0]),
        "MPI_Iallgather");
  wait_all(requests, "allgather_obj");
  std::vector<int> counts(size_), displacements(size_);
  uint64_t total = 0;
  for (int i = 0; i < size_; ++i) {
    counts[i] = static_cast<int>(lengths[i]);
    displacements[i] = static_cast<int>(total);
    total += lengths[i];
  }
  if (total > INT_MAX) throw ValueError("kumo.distributed: allgather_obj: more than 2 GiB of pickled objects in all");
  std::string flat(total, '\0');
  check(MPI_Iallgatherv(data.data(), counts[rank_], MPI_BYTE, &flat[0], counts.data(), displacements.data(), MPI_BYTE,
                        internal_, &requests[0]),
        "MPI_Iallgatherv");
  wait_all(requests, "allgather_obj");
  std::vector<std::string> out(size_);
  for (int i = 0; i < size_; ++i) out[i] = flat.substr(displacements[i], counts[i]);
  return out;
}

std::vector<std::string> MpiCommunicator::gather_bytes(const std::string& data, int root) {
  check_peer(root, "gather_obj");
  uint64_t length = data.size();
  std::vector<uint64_t> lengths(size_);
  std::vector<MPI_Request> requests(1);
  check(MPI_Igather(&length, 1, MPI_UINT64_T, lengths.data(), 1, MPI_UINT64_T, root, internal_, &requests[0]),
        "MPI_Igather");
  wait_all(requests, "gather_obj");
  std::vector<int> counts(size_), displacements(size_);
  uint64_t total = 0;
  if (rank_ == root) {
    for (int i = 0; i < size_; ++i) {
      counts[i] = static_cast<int>(lengths[i]);
      displacements[i] = static_cast<int>(total);
      total += lengths[i];
    }
    if (total > INT_MAX) throw ValueError("kumo.distributed: gather_obj: more than 2 GiB of pickled objects in all");
  }
  std::string flat(total, '\0');
  check(MPI_Igatherv(data.data(), static_cast<int>(length), MPI_BYTE, &flat[0], counts.data(), displacements.data(),
                     MPI_BYTE, root, internal_, &requests[0]),
        "MPI_Igatherv");
  wait_all(requests, "gather_obj");
  std::vector<std::string> out;
  if (rank_ == root)
    for (int i = 0; i < size_; ++i) out.push_back(flat.substr(displacements[i], counts[i]));
  return out;
}

}  // namespace distributed
}  // namespace kumo
