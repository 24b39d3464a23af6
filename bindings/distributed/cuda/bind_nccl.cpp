// kumo._distributed_nccl: the NCCL communicator (distributed/cuda/) for
// kumo.distributed's 'pure_nccl' communicator. Built only where the CUDA
// toolkit ships NCCL; its arrays are kumo CUDA arrays.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "distributed/cuda/nccl_communicator.h"

namespace py = pybind11;
namespace kd = kumo::distributed;
using kumo::Array;

PYBIND11_MODULE(_distributed_nccl, m) {
  m.doc() = "kumo.distributed's NCCL communicator for CUDA arrays";
  // The Communicator base and MpiCommunicator are registered there.
  py::module_::import("kumo._distributed");
  using Release = py::call_guard<py::gil_scoped_release>;
  m.def("nccl_version", &kd::NcclCommunicator::nccl_version);
  py::class_<kd::NcclCommunicator, kd::Communicator, std::shared_ptr<kd::NcclCommunicator>>(m, "NcclCommunicator")
      .def(py::init<std::shared_ptr<kd::MpiCommunicator>, int>(), py::arg("mpi"), py::arg("device"), Release())
      .def_property_readonly("rank", &kd::NcclCommunicator::rank)
      .def_property_readonly("size", &kd::NcclCommunicator::size)
      .def_property_readonly("intra_rank", &kd::NcclCommunicator::intra_rank)
      .def_property_readonly("intra_size", &kd::NcclCommunicator::intra_size)
      .def_property_readonly("inter_rank", &kd::NcclCommunicator::inter_rank)
      .def_property_readonly("inter_size", &kd::NcclCommunicator::inter_size)
      .def_property_readonly("device", &kd::NcclCommunicator::device)
      .def_property("timeout", &kd::NcclCommunicator::timeout, &kd::NcclCommunicator::set_timeout)
      .def(
          "allreduce",
          [](kd::NcclCommunicator& c, const Array& send, const Array& recv, const std::string& op) {
            c.allreduce(send, recv, kd::parse_reduce_op(op));
          },
          py::arg("send"), py::arg("recv"), py::arg("op"), Release())
      .def("bcast", &kd::NcclCommunicator::bcast, py::arg("buffer"), py::arg("root"), Release())
      .def("allgather", &kd::NcclCommunicator::allgather, py::arg("send"), py::arg("recv"), Release())
      .def("gather", &kd::NcclCommunicator::gather, py::arg("send"), py::arg("recv"), py::arg("root"), Release())
      .def("scatter", &kd::NcclCommunicator::scatter, py::arg("send"), py::arg("recv"), py::arg("root"), Release())
      .def("alltoall", &kd::NcclCommunicator::alltoall, py::arg("send"), py::arg("recv"), Release())
      .def("send", &kd::NcclCommunicator::send, py::arg("array"), py::arg("dest"), py::arg("tag"), Release())
      .def("recv", &kd::NcclCommunicator::recv, py::arg("array"), py::arg("source"), py::arg("tag"), Release())
      .def("barrier", &kd::NcclCommunicator::barrier, Release())
      .def("allreduce_buffers", &kd::NcclCommunicator::allreduce_buffers, py::arg("buffers"), Release());
}
