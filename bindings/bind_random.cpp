// kumo._core.random: cuRAND generators (random/random_backend.h) and the C++
// Generator (random/generator.h) for the Python package kumo.random, whose
// Generator methods for the core distributions call the C++ ones, and whose
// other distributions build on the bit generator's words and the shared
// kernel preambles.
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "bindings/convert.h"
#include "core/array.h"
#include "core/device.h"
#include "core/errors.h"
#include "random/generator.h"
#include "random/random_backend.h"
#include "routines/interop.h"

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

using random::BitGenerator;
using random::Generator;

std::optional<Shape> to_size(py::handle size) {
  if (size.is_none()) return std::nullopt;
  return to_shape(size);
}

// A distribution parameter: a kumo array as it is, a Python number as a
// 0-d float64 array on the generator's device (same values as the weak
// scalar the all-scalar overloads use).
Array float_param_array(py::handle p, Device& device) {
  if (py::isinstance<Array>(p)) return py::cast<Array>(p);
  return scalar_array<double>(py::cast<double>(p), device);
}

bool is_number(py::handle p) { return !py::isinstance<Array>(p); }

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

  r.attr("rng_math_preamble") = random::rng_math_preamble();
  r.attr("philox_preamble") = random::philox_preamble();

  // The Python bit generators hold one of these for life (set_state moves
  // it), so C++ Generators made over it stay valid.
  py::class_<BitGenerator, std::shared_ptr<BitGenerator>>(r, "BitGenerator")
      .def(py::init([](const std::string& kind, uint64_t seed, uint64_t offset, py::object device) {
             Device& d = device.is_none() ? current_device() : get_device(py::cast<std::string>(device));
             return std::make_shared<BitGenerator>(random_kind_from_name(kind), seed, offset, d);
           }),
           py::arg("kind"), py::arg("seed"), py::arg("offset") = 0, py::arg("device") = py::none())
      .def_property_readonly("kind", [](const BitGenerator& g) { return std::string(random_kind_name(g.kind())); })
      .def_property_readonly("seed", &BitGenerator::seed)
      .def_property_readonly("offset", &BitGenerator::offset)
      .def_property_readonly("device", [](const BitGenerator& g) { return g.device().name(); })
      .def("get_state", [](const BitGenerator& g) {
        random::BitGeneratorState st;
        {
          py::gil_scoped_release release;
          st = g.state();
        }
        return py::make_tuple(st.seed, st.offset);
      }, "(seed, offset), exact for every kind (XORWOW is re-synced first).")
      .def("set_state", [](BitGenerator& g, uint64_t seed, uint64_t offset) {
        py::gil_scoped_release release;
        g.set_state(random::BitGeneratorState{g.kind(), seed, offset});
      }, py::arg("seed"), py::arg("offset"))
      .def("fill_u32", [](BitGenerator& g, const Array& out) {
        py::gil_scoped_release release;
        g.fill_words(out);
      }, py::arg("out"), "Fills a C-contiguous uint32 array with the next words of the stream.")
      .def("fill_poisson", [](BitGenerator& g, const Array& out, double lam) {
        py::gil_scoped_release release;
        g.fill_poisson(out, lam);
      }, py::arg("out"), py::arg("lam"), "Fills a uint32 array with Poisson(lam) variates (cuRAND's algorithm).")
      .def("next_key", [](BitGenerator& g) {
        py::gil_scoped_release release;
        return g.next_key();
      }, "A 64-bit key from the next two words (for per-element Philox kernels).");

  // Arguments arrive parsed by kumo.random (sizes as None or tuples, float
  // parameters as Python floats or float64 kumo arrays, integer bounds as
  // Python ints within 64 bits or integer kumo arrays).
  py::class_<Generator>(r, "Generator")
      .def(py::init<std::shared_ptr<BitGenerator>>(), py::arg("bit_generator"))
      .def("random", [](Generator& g, py::object size, py::object dtype) {
        const Shape s = to_size(size).value_or(Shape{});
        const Dtype dt = to_dtype_required(dtype);
        py::gil_scoped_release release;
        return g.random(s, dt);
      }, py::arg("size"), py::arg("dtype"))
      .def("random_positive", [](Generator& g, py::object size, py::object dtype) {
        const Shape s = to_size(size).value_or(Shape{});
        const Dtype dt = to_dtype_required(dtype);
        py::gil_scoped_release release;
        return g.random_positive(s, dt);
      }, py::arg("size"), py::arg("dtype"))
      .def("standard_normal", [](Generator& g, py::object size, py::object dtype) {
        const Shape s = to_size(size).value_or(Shape{});
        const Dtype dt = to_dtype_required(dtype);
        py::gil_scoped_release release;
        return g.standard_normal(s, dt);
      }, py::arg("size"), py::arg("dtype"))
      .def("uniform", [](Generator& g, py::object low, py::object high, py::object size) {
        const std::optional<Shape> s = to_size(size);
        if (is_number(low) && is_number(high)) {
          const double lo = py::cast<double>(low), hi = py::cast<double>(high);
          py::gil_scoped_release release;
          return g.uniform(lo, hi, s.value_or(Shape{}));
        }
        const Array lo = float_param_array(low, g.device()), hi = float_param_array(high, g.device());
        py::gil_scoped_release release;
        return g.uniform(lo, hi, s);
      }, py::arg("low"), py::arg("high"), py::arg("size"))
      .def("normal", [](Generator& g, py::object loc, py::object scale, py::object size) {
        const std::optional<Shape> s = to_size(size);
        if (is_number(loc) && is_number(scale)) {
          const double m = py::cast<double>(loc), sd = py::cast<double>(scale);
          py::gil_scoped_release release;
          return g.normal(m, sd, s.value_or(Shape{}));
        }
        const Array m = float_param_array(loc, g.device()), sd = float_param_array(scale, g.device());
        py::gil_scoped_release release;
        return g.normal(m, sd, s);
      }, py::arg("loc"), py::arg("scale"), py::arg("size"))
      .def("integers", [](Generator& g, py::object low, py::object high, py::object size, py::object dtype,
                          bool endpoint) {
        const std::optional<Shape> s = to_size(size);
        const Dtype dt = to_dtype_required(dtype);
        if (!py::isinstance<Array>(low) && !py::isinstance<Array>(high)) {
          const Scalar lo(to_scalar_value(low)), hi(to_scalar_value(high));
          py::gil_scoped_release release;
          return g.integers(lo, hi, s.value_or(Shape{}), dt, endpoint);
        }
        const Array lo = py::cast<Array>(low), hi = py::cast<Array>(high);
        py::gil_scoped_release release;
        return g.integers(lo, hi, s, dt, endpoint);
      }, py::arg("low"), py::arg("high"), py::arg("size"), py::arg("dtype"), py::arg("endpoint"))
      .def("permutation", [](Generator& g, py::object x, int64_t axis) {
        if (py::isinstance<Array>(x)) {
          const Array a = py::cast<Array>(x);
          py::gil_scoped_release release;
          return g.permutation(a, axis);
        }
        const int64_t n = py::cast<int64_t>(x);
        py::gil_scoped_release release;
        return g.permutation(n);
      }, py::arg("x"), py::arg("axis") = 0);
}

}  // namespace py_bind
}  // namespace kumo
