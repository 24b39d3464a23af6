// kumo._core.random: cuRAND generators (random/random_backend.h) for the
// Python package kumo.random, which builds every distribution on them.
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "bindings/convert.h"
#include "core/array.h"
#include "core/device.h"
#include "core/errors.h"
#include "random/random_backend.h"

namespace kumo {
namespace py_bind {

namespace {

// The destination of a fill: a writeable C-contiguous uint32 array on the
// generator's device (cuRAND writes a dense buffer).
uint32_t* fill_target(const RandomGenerator& gen, const Array& out, const char* what) {
  if (out.dtype() != Dtype::kUInt32) {
    throw TypeError(std::string(what) + ": the output array must have dtype uint32, not " + dtype_name(out.dtype()));
  }
  if (!out.c_contiguous()) throw ValueError(std::string(what) + ": the output array must be C-contiguous");
  if (!out.writeable()) throw ValueError(std::string(what) + ": the output array is read-only");
  if (&out.device() != &gen.device()) {
    throw DeviceError(std::string(what) + ": the output array is on " + out.device().name() +
                      " but the generator serves " + gen.device().name());
  }
  return reinterpret_cast<uint32_t*>(out.data());
}

}  // namespace

void bind_random(py::module_& m) {
  py::module_ r = m.def_submodule("random", "cuRAND generators (device and host)");
  r.def("backend_available", [] {
    try {
      (void)random_backend();
      return std::string();
    } catch (const Error& e) {
      return std::string(e.what());
    }
  }, "\"\" when cuRAND can be used, else the reason it cannot.");
  py::class_<RandomGenerator, std::unique_ptr<RandomGenerator>>(r, "CurandGenerator")
      .def(py::init([](const std::string& kind, uint64_t seed, uint64_t offset, py::object device) {
             Device& d = device.is_none() ? current_device() : get_device(py::cast<std::string>(device));
             return random_backend().create_generator(random_kind_from_name(kind), seed, offset, d);
           }),
           py::arg("kind"), py::arg("seed"), py::arg("offset") = 0, py::arg("device") = py::none())
      .def_property_readonly("kind", [](const RandomGenerator& g) { return std::string(random_kind_name(g.kind())); })
      .def_property_readonly("seed", &RandomGenerator::seed)
      .def_property_readonly("offset", &RandomGenerator::offset)
      .def_property_readonly("device", [](const RandomGenerator& g) { return g.device().name(); })
      .def("fill_u32", [](RandomGenerator& g, const Array& out) {
        uint32_t* p = fill_target(g, out, "fill_u32");
        const size_t n = static_cast<size_t>(out.size());
        py::gil_scoped_release release;
        g.generate_u32(p, n);
      }, py::arg("out"), "Fills a uint32 array with raw 32-bit words of the stream.")
      .def("fill_poisson", [](RandomGenerator& g, const Array& out, double lam) {
        uint32_t* p = fill_target(g, out, "fill_poisson");
        const size_t n = static_cast<size_t>(out.size());
        py::gil_scoped_release release;
        g.generate_poisson(p, n, lam);
      }, py::arg("out"), py::arg("lam"), "Fills a uint32 array with Poisson(lam) variates (cuRAND's algorithm).")
      .def("sync_to_offset", [](RandomGenerator& g) {
        py::gil_scoped_release release;
        g.sync_to_offset();
      });
}

}  // namespace py_bind
}  // namespace kumo
