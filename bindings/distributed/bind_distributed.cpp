// kumo._distributed: the MPI communicator and gradient packing of distributed/
// for the thin Python package kumo.distributed. A module of its own, built
// only where MPI is found, so `import kumo` never needs MPI. Arrays are
// kumo._core.ndarray objects (the type is shared through pybind11's
// registry); every call that waits on other processes releases the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "distributed/gradient_buckets.h"
#include "distributed/mpi_communicator.h"
#include "distributed/mpi_environment.h"

namespace py = pybind11;
namespace kd = kumo::distributed;
using kumo::Array;

namespace {

std::vector<py::bytes> to_bytes_list(const std::vector<std::string>& items) {
  std::vector<py::bytes> out;
  out.reserve(items.size());
  for (const std::string& s : items) out.emplace_back(s);
  return out;
}

}  // namespace

PYBIND11_MODULE(_distributed, m) {
  m.doc() = "kumo.distributed's C++ layer: MPI communicator, collectives on arrays, gradient buckets";
  // kumo.ndarray must be registered before arrays cross this module.
  py::module_::import("kumo._core");
  using Release = py::call_guard<py::gil_scoped_release>;

  // A Python TimeoutError; tried before _core's translator (registered later).
  py::register_exception<kd::TimeoutError>(m, "CommunicationTimeoutError", PyExc_TimeoutError);

  m.def("finalize", &kd::finalize_mpi, "Finalizes MPI (aborts the job after a timed-out communication)");
  m.def("thread_multiple", &kd::mpi_thread_multiple);
  m.def("communication_failed", &kd::communication_failed);
  m.def("default_timeout", &kd::default_timeout_seconds);

  // The interface, so gradient packing takes any communicator (MPI here,
  // NCCL from kumo._distributed_nccl, which derives from it).
  py::class_<kd::Communicator, std::shared_ptr<kd::Communicator>>(m, "Communicator");

  py::class_<kd::MpiCommunicator, kd::Communicator, std::shared_ptr<kd::MpiCommunicator>>(m, "MpiCommunicator")
      .def_static("world", &kd::MpiCommunicator::world)
      .def_static(
          "from_fortran_handle",
          [](int64_t handle) {
            kd::ensure_mpi_initialized();
            return std::make_shared<kd::MpiCommunicator>(MPI_Comm_f2c(static_cast<MPI_Fint>(handle)));
          },
          py::arg("handle"))
      .def_property_readonly("rank", &kd::MpiCommunicator::rank)
      .def_property_readonly("size", &kd::MpiCommunicator::size)
      .def_property_readonly("intra_rank", &kd::MpiCommunicator::intra_rank)
      .def_property_readonly("intra_size", &kd::MpiCommunicator::intra_size)
      .def_property_readonly("inter_rank", &kd::MpiCommunicator::inter_rank)
      .def_property_readonly("inter_size", &kd::MpiCommunicator::inter_size)
      .def_property("timeout", &kd::MpiCommunicator::timeout, &kd::MpiCommunicator::set_timeout)
      .def_property_readonly("fortran_handle",
                             [](const kd::MpiCommunicator& c) { return static_cast<int64_t>(MPI_Comm_c2f(c.handle())); })
      .def(
          "allreduce",
          [](kd::MpiCommunicator& c, const Array& send, const Array& recv, const std::string& op) {
            c.allreduce(send, recv, kd::parse_reduce_op(op));
          },
          py::arg("send"), py::arg("recv"), py::arg("op"), Release())
      .def("bcast", &kd::MpiCommunicator::bcast, py::arg("buffer"), py::arg("root"), Release())
      .def("allgather", &kd::MpiCommunicator::allgather, py::arg("send"), py::arg("recv"), Release())
      .def("gather", &kd::MpiCommunicator::gather, py::arg("send"), py::arg("recv"), py::arg("root"), Release())
      .def("scatter", &kd::MpiCommunicator::scatter, py::arg("send"), py::arg("recv"), py::arg("root"), Release())
      .def("alltoall", &kd::MpiCommunicator::alltoall, py::arg("send"), py::arg("recv"), Release())
      .def("send", &kd::MpiCommunicator::send, py::arg("array"), py::arg("dest"), py::arg("tag"), Release())
      .def("recv", &kd::MpiCommunicator::recv, py::arg("array"), py::arg("source"), py::arg("tag"), Release())
      .def("barrier", &kd::MpiCommunicator::barrier, Release())
      .def("allreduce_buffers", &kd::MpiCommunicator::allreduce_buffers, py::arg("buffers"), Release())
      .def("split", &kd::MpiCommunicator::split, py::arg("color"), py::arg("key"), Release())
      .def(
          "send_bytes",
          [](kd::MpiCommunicator& c, const py::bytes& data, int dest, int tag) {
            std::string s = data;
            py::gil_scoped_release release;
            c.send_bytes(s, dest, tag);
          },
          py::arg("data"), py::arg("dest"), py::arg("tag"))
      .def(
          "recv_bytes",
          [](kd::MpiCommunicator& c, int source, int tag) {
            std::string s;
            {
              py::gil_scoped_release release;
              s = c.recv_bytes(source, tag);
            }
            return py::bytes(s);
          },
          py::arg("source"), py::arg("tag"))
      .def(
          "bcast_bytes",
          [](kd::MpiCommunicator& c, const py::bytes& data, int root) {
            std::string s = data;
            {
              py::gil_scoped_release release;
              s = c.bcast_bytes(s, root);
            }
            return py::bytes(s);
          },
          py::arg("data"), py::arg("root"))
      .def(
          "allgather_bytes",
          [](kd::MpiCommunicator& c, const py::bytes& data) {
            std::string s = data;
            std::vector<std::string> out;
            {
              py::gil_scoped_release release;
              out = c.allgather_bytes(s);
            }
            return to_bytes_list(out);
          },
          py::arg("data"))
      .def(
          "gather_bytes",
          [](kd::MpiCommunicator& c, const py::bytes& data, int root) {
            std::string s = data;
            std::vector<std::string> out;
            {
              py::gil_scoped_release release;
              out = c.gather_bytes(s, root);
            }
            return to_bytes_list(out);
          },
          py::arg("data"), py::arg("root"));

  py::class_<kd::GradientBuckets>(m, "GradientBuckets")
      .def(py::init([](int64_t bucket_bytes, std::optional<std::string> comm_dtype) {
             std::optional<kumo::Dtype> dtype;
             if (comm_dtype) dtype = kumo::dtype_from_name(*comm_dtype);
             return std::make_unique<kd::GradientBuckets>(bucket_bytes, dtype);
           }),
           py::arg("bucket_bytes"), py::arg("comm_dtype") = py::none())
      .def("pack", &kd::GradientBuckets::pack, py::arg("grads"), Release())
      .def("unpack", &kd::GradientBuckets::unpack, py::arg("grads"), py::arg("scale"), Release())
      .def_property_readonly("buffers", &kd::GradientBuckets::buffers);

  m.def(
      "allreduce_gradients",
      [](kd::Communicator& c, kd::GradientBuckets& buckets, const std::vector<Array>& grads, bool mean) {
        kd::allreduce_gradients(c, buckets, grads, mean);
      },
      py::arg("comm"), py::arg("buckets"), py::arg("grads"), py::arg("mean"), Release());

  py::class_<kd::AsyncBucketAllreduce>(m, "AsyncBucketAllreduce")
      .def(py::init<>())
      .def(
          "start",
          [](kd::AsyncBucketAllreduce& a, kd::Communicator& c, const kd::GradientBuckets& buckets) {
            a.start(c, buckets, c.supports_concurrent_calls());
          },
          py::arg("comm"), py::arg("buckets"), py::keep_alive<1, 2>(), py::keep_alive<1, 3>(), Release())
      .def("wait", &kd::AsyncBucketAllreduce::wait, Release())
      .def_property_readonly("running", &kd::AsyncBucketAllreduce::running);
}
