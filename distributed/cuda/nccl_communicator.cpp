#include "distributed/cuda/nccl_communicator.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>

#include "routines/assignment.h"
#include "routines/creation.h"

namespace kumo {
namespace distributed {

struct NcclCommunicator::State {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  bool aborted = false;
};

namespace {

void check_cuda(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess)
    throw RuntimeError(std::string("kumo.distributed: ") + what + " failed: " + cudaGetErrorString(rc));
}

void check_nccl(ncclResult_t rc, const char* what) {
  if (rc != ncclSuccess && rc != ncclInProgress)
    throw RuntimeError(std::string("kumo.distributed: ") + what + " failed: " + ncclGetErrorString(rc));
}

// The NCCL type of a dtype for reductions; false when NCCL has none.
bool nccl_reduce_type(Dtype dtype, ncclDataType_t* out, size_t* per_element) {
  *per_element = 1;
  switch (dtype) {
    case Dtype::kBool: case Dtype::kUInt8: *out = ncclUint8; return true;
    case Dtype::kInt8: *out = ncclInt8; return true;
    case Dtype::kInt32: *out = ncclInt32; return true;
    case Dtype::kUInt32: *out = ncclUint32; return true;
    case Dtype::kInt64: *out = ncclInt64; return true;
    case Dtype::kUInt64: *out = ncclUint64; return true;
    case Dtype::kFloat16: *out = ncclFloat16; return true;
    case Dtype::kFloat32: *out = ncclFloat32; return true;
    case Dtype::kFloat64: *out = ncclFloat64; return true;
    // a complex sum is the sum of its real and imaginary parts
    case Dtype::kComplex64: *out = ncclFloat32; *per_element = 2; return true;
    case Dtype::kComplex128: *out = ncclFloat64; *per_element = 2; return true;
    default: return false;  // int16/uint16
  }
}

ncclRedOp_t nccl_op(ReduceOp op, Dtype dtype) {
  const bool complex = is_complex(dtype);
  if (dtype == Dtype::kBool) return op == ReduceOp::kMin ? ncclMin : ncclMax;  // "or" / "and" on 0/1
  switch (op) {
    case ReduceOp::kSum: return ncclSum;
    case ReduceOp::kMean: return ncclAvg;
    case ReduceOp::kMax:
    case ReduceOp::kMin:
      if (complex)
        throw TypeError("kumo.distributed: NCCL has no maximum/minimum of complex numbers; use the MPI communicator");
      return op == ReduceOp::kMax ? ncclMax : ncclMin;
  }
  return ncclSum;
}

Array contiguous_source(const Array& a) { return a.c_contiguous() ? a : a.astype(a.dtype(), Order::kC, true); }

}  // namespace

int NcclCommunicator::nccl_version() {
  int version = 0;
  ncclGetVersion(&version);
  return version;
}

NcclCommunicator::NcclCommunicator(std::shared_ptr<MpiCommunicator> mpi, int device)
    : mpi_(std::move(mpi)), device_(device), state_(std::make_unique<State>()) {
  timeout_seconds_ = mpi_->timeout();
  ncclUniqueId id;
  std::string bytes;
  if (mpi_->rank() == 0) {
    check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    bytes.assign(reinterpret_cast<const char*>(&id), sizeof id);
  }
  bytes = mpi_->bcast_bytes(bytes, 0);
  if (bytes.size() != sizeof id) throw RuntimeError("kumo.distributed: the NCCL unique id arrived truncated");
  std::memcpy(&id, bytes.data(), sizeof id);
  check_cuda(cudaSetDevice(device_), "cudaSetDevice");
  check_cuda(cudaStreamCreateWithFlags(&state_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check_nccl(ncclCommInitRank(&state_->comm, mpi_->size(), id, mpi_->rank()), "ncclCommInitRank");
}

NcclCommunicator::~NcclCommunicator() {
  if (state_->comm != nullptr) {
    if (state_->aborted) ncclCommAbort(state_->comm);
    else ncclCommDestroy(state_->comm);
  }
  if (state_->stream != nullptr) cudaStreamDestroy(state_->stream);
}

void NcclCommunicator::check_cuda_array(const Array& a, const char* what) const {
  if (a.device().type() != DeviceType::kCUDA || a.device().index() != device_)
    throw DeviceError(std::string("kumo.distributed: ") + what + ": the NCCL communicator of this process moves "
                      "arrays on CUDA device " + std::to_string(device_) + "; use the MPI communicator for host arrays");
  if (state_->aborted) throw RuntimeError("kumo.distributed: the NCCL communicator was aborted after a timeout");
}

void NcclCommunicator::wait(const char* what) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto limit = std::chrono::duration<double>(timeout_seconds_);
  for (;;) {
    const cudaError_t query = cudaStreamQuery(state_->stream);
    if (query == cudaSuccess) return;
    if (query != cudaErrorNotReady) check_cuda(query, what);
    ncclResult_t async = ncclSuccess;
    ncclCommGetAsyncError(state_->comm, &async);
    check_nccl(async, what);
    std::this_thread::yield();
    if (timeout_seconds_ > 0 && Clock::now() - start > limit) {
      ncclCommAbort(state_->comm);
      state_->comm = nullptr;
      state_->aborted = true;
      std::ostringstream message;
      message << "kumo.distributed: " << what << " (NCCL) on rank " << rank() << " of " << size()
              << " did not complete within " << timeout_seconds_
              << " s: a peer process is dead or hung (KUMO_DISTRIBUTED_TIMEOUT sets the limit)";
      throw TimeoutError(message.str());
    }
  }
}

// Every call first lets the device finish what kumo queued (the inputs'
// producers), then queues NCCL's work on the communicator's stream.
#define KUMO_NCCL_BEGIN() check_cuda(cudaSetDevice(device_), "cudaSetDevice"); \
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize")

void NcclCommunicator::allreduce(const Array& send, const Array& recv, ReduceOp op) {
  check_cuda_array(send, "allreduce");
  check_cuda_array(recv, "allreduce");
  if (send.shape() != recv.shape() || send.dtype() != recv.dtype())
    throw ValueError("kumo.distributed: allreduce: the result array must have the shape and dtype of the input");
  if (op == ReduceOp::kMean && !is_floating(send.dtype()) && !is_complex(send.dtype()))
    throw TypeError("kumo.distributed: allreduce: op='mean' needs a floating or complex array");
  ncclDataType_t type;
  size_t per_element;
  if (!nccl_reduce_type(send.dtype(), &type, &per_element))
    throw TypeError(std::string("kumo.distributed: NCCL cannot reduce ") + dtype_name(send.dtype()) + " arrays");
  const ncclRedOp_t nop = nccl_op(op, send.dtype());
  const Array source = contiguous_source(send);
  const Array out = recv.c_contiguous() ? recv : empty(recv.shape(), recv.dtype(), Order::kC, recv.device());
  KUMO_NCCL_BEGIN();
  check_nccl(ncclAllReduce(source.data(), out.data(), send.size() * per_element, type, nop, state_->comm,
                           state_->stream),
             "ncclAllReduce");
  wait("allreduce");
  if (out.data() != recv.data()) copyto(recv, out, Casting::kNo);
}

void NcclCommunicator::allreduce_buffers(const std::vector<Array>& buffers) {
  for (const Array& b : buffers) check_cuda_array(b, "allreduce_grad");
  KUMO_NCCL_BEGIN();
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (const Array& b : buffers) {
    ncclDataType_t type;
    size_t per_element;
    if (!b.c_contiguous() || !nccl_reduce_type(b.dtype(), &type, &per_element))
      throw ValueError("kumo.distributed: allreduce_buffers needs contiguous floating buffers");
    check_nccl(ncclAllReduce(b.data(), b.data(), b.size() * per_element, type, ncclSum, state_->comm, state_->stream),
               "ncclAllReduce");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  wait("allreduce_grad");
}

void NcclCommunicator::bcast(const Array& buffer, int root) {
  check_cuda_array(buffer, "bcast");
  const Array data = buffer.c_contiguous() ? buffer : contiguous_source(buffer);
  KUMO_NCCL_BEGIN();
  check_nccl(ncclBroadcast(data.data(), data.data(), data.nbytes(), ncclInt8, root, state_->comm, state_->stream),
             "ncclBroadcast");
  wait("bcast");
  if (data.data() != buffer.data()) copyto(buffer, data, Casting::kNo);
}

// gather, scatter, alltoall, allgather with per-process shapes: grouped
// point-to-point transfers (NCCL's recipe for the "v" collectives).
void NcclCommunicator::allgather(const Array& send, const std::vector<Array>& recv) {
  if (static_cast<int>(recv.size()) != size())
    throw ValueError("kumo.distributed: allgather needs one result array per process");
  check_cuda_array(send, "allgather");
  const Array source = contiguous_source(send);
  std::vector<Array> outs;
  for (const Array& r : recv) {
    check_cuda_array(r, "allgather");
    outs.push_back(r.c_contiguous() ? r : empty(r.shape(), r.dtype(), Order::kC, r.device()));
  }
  KUMO_NCCL_BEGIN();
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (int i = 0; i < size(); ++i) {
    check_nccl(ncclSend(source.data(), source.nbytes(), ncclInt8, i, state_->comm, state_->stream), "ncclSend");
    check_nccl(ncclRecv(outs[i].data(), outs[i].nbytes(), ncclInt8, i, state_->comm, state_->stream), "ncclRecv");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  wait("allgather");
  for (int i = 0; i < size(); ++i)
    if (outs[i].data() != recv[i].data()) copyto(recv[i], outs[i], Casting::kNo);
}

void NcclCommunicator::gather(const Array& send, const std::vector<Array>& recv, int root) {
  check_cuda_array(send, "gather");
  const bool is_root = rank() == root;
  if (is_root && static_cast<int>(recv.size()) != size())
    throw ValueError("kumo.distributed: gather needs one result array per process on the root");
  const Array source = contiguous_source(send);
  std::vector<Array> outs;
  if (is_root)
    for (const Array& r : recv) {
      check_cuda_array(r, "gather");
      outs.push_back(r.c_contiguous() ? r : empty(r.shape(), r.dtype(), Order::kC, r.device()));
    }
  KUMO_NCCL_BEGIN();
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  check_nccl(ncclSend(source.data(), source.nbytes(), ncclInt8, root, state_->comm, state_->stream), "ncclSend");
  if (is_root)
    for (int i = 0; i < size(); ++i)
      check_nccl(ncclRecv(outs[i].data(), outs[i].nbytes(), ncclInt8, i, state_->comm, state_->stream), "ncclRecv");
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  wait("gather");
  if (is_root)
    for (int i = 0; i < size(); ++i)
      if (outs[i].data() != recv[i].data()) copyto(recv[i], outs[i], Casting::kNo);
}

void NcclCommunicator::scatter(const std::vector<Array>& send, const Array& recv, int root) {
  check_cuda_array(recv, "scatter");
  const bool is_root = rank() == root;
  if (is_root && static_cast<int>(send.size()) != size())
    throw ValueError("kumo.distributed: scatter needs one array per process on the root");
  std::vector<Array> sources;
  if (is_root)
    for (const Array& s : send) {
      check_cuda_array(s, "scatter");
      sources.push_back(contiguous_source(s));
    }
  const Array out = recv.c_contiguous() ? recv : empty(recv.shape(), recv.dtype(), Order::kC, recv.device());
  KUMO_NCCL_BEGIN();
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  if (is_root)
    for (int i = 0; i < size(); ++i)
      check_nccl(ncclSend(sources[i].data(), sources[i].nbytes(), ncclInt8, i, state_->comm, state_->stream),
                 "ncclSend");
  check_nccl(ncclRecv(out.data(), out.nbytes(), ncclInt8, root, state_->comm, state_->stream), "ncclRecv");
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  wait("scatter");
  if (out.data() != recv.data()) copyto(recv, out, Casting::kNo);
}

void NcclCommunicator::alltoall(const std::vector<Array>& send, const std::vector<Array>& recv) {
  if (static_cast<int>(send.size()) != size() || static_cast<int>(recv.size()) != size())
    throw ValueError("kumo.distributed: alltoall needs one array per process to send and to receive");
  std::vector<Array> sources, outs;
  for (int i = 0; i < size(); ++i) {
    check_cuda_array(send[i], "alltoall");
    check_cuda_array(recv[i], "alltoall");
    sources.push_back(contiguous_source(send[i]));
    outs.push_back(recv[i].c_contiguous() ? recv[i] : empty(recv[i].shape(), recv[i].dtype(), Order::kC,
                                                             recv[i].device()));
  }
  KUMO_NCCL_BEGIN();
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (int i = 0; i < size(); ++i) {
    check_nccl(ncclSend(sources[i].data(), sources[i].nbytes(), ncclInt8, i, state_->comm, state_->stream), "ncclSend");
    check_nccl(ncclRecv(outs[i].data(), outs[i].nbytes(), ncclInt8, i, state_->comm, state_->stream), "ncclRecv");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  wait("alltoall");
  for (int i = 0; i < size(); ++i)
    if (outs[i].data() != recv[i].data()) copyto(recv[i], outs[i], Casting::kNo);
}

void NcclCommunicator::send(const Array& array, int dest, int tag) {
  check_cuda_array(array, "send");
  const Array source = contiguous_source(array);
  KUMO_NCCL_BEGIN();
  check_nccl(ncclSend(source.data(), source.nbytes(), ncclInt8, dest, state_->comm, state_->stream), "ncclSend");
  wait("send");
}

void NcclCommunicator::recv(const Array& array, int source, int tag) {
  check_cuda_array(array, "recv");
  const Array out = array.c_contiguous() ? array : empty(array.shape(), array.dtype(), Order::kC, array.device());
  KUMO_NCCL_BEGIN();
  check_nccl(ncclRecv(out.data(), out.nbytes(), ncclInt8, source, state_->comm, state_->stream), "ncclRecv");
  wait("recv");
  if (out.data() != array.data()) copyto(array, out, Casting::kNo);
}

void NcclCommunicator::barrier() { mpi_->barrier(); }

}  // namespace distributed
}  // namespace kumo
