// kumo._core._RawModule: the C++ RawModule behind kumo.RawModule and
// kumo.RawKernel (python/kumo/_raw.py). Kernel arguments are packed here,
// on the launch path, following CuPy's rules for Python scalars.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <complex>
#include <cstring>

#include "bindings/convert.h"
#include "core/device.h"
#include "core/errors.h"
#include "kernels/raw_module.h"

namespace kumo {
namespace py_bind {

namespace {

Device& device_from(py::handle device) {
  if (device.is_none()) return current_device();
  return get_device(py::str(device).cast<std::string>());
}

// A kumo array -> its data pointer; a NumPy scalar keeps its dtype; a
// Python bool/int/float/complex is bool/int64/float64/complex128 (NumPy's
// defaults, as CuPy passes them). Host (NumPy) arrays are refused: their
// memory is not the launch device's.
KernelArg to_kernel_arg(py::handle obj, size_t index) {
  if (const Array* a = ndarray_value(obj.ptr())) return KernelArg::array(*a);
  if (PyBool_Check(obj.ptr())) {
    const bool v = obj.ptr() == Py_True;
    return KernelArg::of(v);
  }
  if (PyLong_Check(obj.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    if (overflow != 0)
      throw OverflowError("kernel argument " + std::to_string(index) +
                          ": Python int too large to pass as int64 (pass a numpy.uint64 scalar instead)");
    return KernelArg::of(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(obj.ptr())) return KernelArg::of(PyFloat_AsDouble(obj.ptr()));
  if (PyComplex_Check(obj.ptr())) {
    const std::complex<double> v(PyComplex_RealAsDouble(obj.ptr()), PyComplex_ImagAsDouble(obj.ptr()));
    return KernelArg::scalar(Dtype::kComplex128, &v);
  }
  py::module_ np = py::module_::import("numpy");
  if (py::isinstance(obj, np.attr("ndarray"))) {
    throw TypeError("kernel argument " + std::to_string(index) +
                    " is a numpy.ndarray: pass a kumo array (kumo.asarray) so that the kernel can access it on the "
                    "launch device");
  }
  if (py::isinstance(obj, np.attr("generic"))) {
    std::optional<Dtype> dtype = to_dtype(obj.attr("dtype"));
    if (!dtype) throw TypeError("kernel argument " + std::to_string(index) + " has an unsupported NumPy dtype");
    py::bytes raw = obj.attr("tobytes")();
    std::string bytes = raw;
    if (bytes.size() != itemsize(*dtype))
      throw TypeError("kernel argument " + std::to_string(index) + " has an unsupported NumPy dtype");
    return KernelArg::scalar(*dtype, bytes.data());
  }
  throw TypeError("kernel argument " + std::to_string(index) + " of type " +
                  py::str(py::type::of(obj).attr("__name__")).cast<std::string>() +
                  " is not supported (kumo arrays, NumPy scalars and Python bool/int/float/complex are)");
}

// An int or a tuple of 1-3 ints, each in [1, 2^32).
Dim3 to_dim3(py::handle obj, const char* what) {
  auto as_int = [&](py::handle h) -> int64_t {
    // bool is an int to Python but never a dimension; floats are refused.
    if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
      throw TypeError(std::string(what) + " must be an int or a tuple of 1 to 3 ints");
    py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr()));
    if (!i) throw py::error_already_set();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow != 0) throw ValueError(std::string(what) + " dimension out of range");
    return v;
  };
  std::vector<int64_t> v;
  if (PyTuple_Check(obj.ptr()) || PyList_Check(obj.ptr())) {
    for (py::handle item : obj) v.push_back(as_int(item));
  } else {
    v.push_back(as_int(obj));
  }
  if (v.empty() || v.size() > 3)
    throw ValueError(std::string(what) + " must have 1 to 3 dimensions, got " + std::to_string(v.size()));
  Dim3 d;
  unsigned* out[3] = {&d.x, &d.y, &d.z};
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 1 || v[i] > static_cast<int64_t>(UINT_MAX))
      throw ValueError(std::string(what) + " dimensions must be positive, got " + std::to_string(v[i]));
    *out[i] = static_cast<unsigned>(v[i]);
  }
  return d;
}

}  // namespace

void bind_raw(py::module_& m) {
  py::class_<RawModule>(m, "_RawModule")
      .def(py::init([](std::string code, std::vector<std::string> options, std::vector<std::string> name_expressions,
                       bool translate_cucomplex, bool enable_cooperative_groups) {
             RawModuleOptions o;
             o.options = std::move(options);
             o.name_expressions = std::move(name_expressions);
             o.translate_cucomplex = translate_cucomplex;
             o.enable_cooperative_groups = enable_cooperative_groups;
             return RawModule(std::move(code), std::move(o));
           }),
           py::arg("code"), py::arg("options"), py::arg("name_expressions"), py::arg("translate_cucomplex"),
           py::arg("enable_cooperative_groups"))
      .def_static(
          "from_image", [](py::bytes image) { return RawModule::from_image(std::string(image)); }, py::arg("image"))
      .def(
          "compile",
          [](const RawModule& self, py::handle device) {
            Device& d = device_from(device);
            py::gil_scoped_release release;
            self.compile(d);
          },
          py::arg("device") = py::none())
      .def(
          "get_global",
          [](const RawModule& self, const std::string& name, py::handle device, py::handle dtype, py::handle shape) {
            std::optional<Dtype> dt;
            if (!dtype.is_none()) dt = to_dtype_required(dtype);
            std::optional<Shape> sh;
            if (!shape.is_none()) sh = to_shape(shape);
            Device& d = device_from(device);
            return new_ndarray(self.get_global(name, d, dt, sh));
          },
          py::arg("name"), py::arg("device") = py::none(), py::arg("dtype") = py::none(), py::arg("shape") = py::none())
      .def(
          "launch",
          [](const RawModule& self, const std::string& name, py::handle grid, py::handle block, py::handle args,
             size_t shared_mem, uintptr_t stream) {
            const Dim3 g = to_dim3(grid, "grid"), b = to_dim3(block, "block");
            if (!PyTuple_Check(args.ptr()) && !PyList_Check(args.ptr()))
              throw TypeError("kernel arguments must be a tuple");
            std::vector<KernelArg> kargs;
            kargs.reserve(py::len(args));
            size_t i = 0;
            for (py::handle a : args) kargs.push_back(to_kernel_arg(a, i++));
            RawFunction fn = self.get_function(name);
            // Host kernels run on the thread pool; other Python threads may run meanwhile.
            py::gil_scoped_release release;
            fn.launch(g, b, kargs, shared_mem, static_cast<StreamHandle>(stream));
          },
          py::arg("name"), py::arg("grid"), py::arg("block"), py::arg("args"), py::arg("shared_mem") = 0,
          py::arg("stream") = 0)
      .def(
          "attributes",
          [](const RawModule& self, const std::string& name, py::handle device) {
            Device& d = device_from(device);
            py::dict out;
            for (const auto& kv : self.get_function(name).attributes(d)) out[py::str(kv.first)] = kv.second;
            return out;
          },
          py::arg("name"), py::arg("device") = py::none())
      .def(
          "set_attribute",
          [](const RawModule& self, const std::string& name, py::handle device, const std::string& attr, int value) {
            self.get_function(name).set_attribute(device_from(device), attr, value);
          },
          py::arg("name"), py::arg("device"), py::arg("attribute"), py::arg("value"))
      .def_property_readonly("code", &RawModule::code)
      .def_property_readonly("is_image", [](const RawModule& self) { return self.is_image(); });
}

}  // namespace py_bind
}  // namespace kumo
