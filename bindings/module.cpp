// kumo._core: module init, exception translation, devices, memory pools and
// array creation primitives.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/bind_cuda.h"
#include "bindings/convert.h"
#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "core/fp_errors.h"
#include "core/warnings.h"
#include "core/host/thread_pool.h"
#include "kernels/scalar_assign.h"
#include "kernels/copy.h"
#include "kernels/elementwise.h"
#include "kernels/host/host_compiler.h"

namespace kumo {
namespace py_bind {

void bind_array(py::module_& m);
void bind_kernels(py::module_& m);
void bind_fast_paths(py::module_& m);
void bind_fft(py::module_& m);
void bind_indexing(py::module_& m);
void bind_io(py::module_& m);
void bind_dlpack(py::module_& m);
void bind_autograd(py::module_& m);
void bind_linalg(py::module_& m);
void bind_random(py::module_& m);
void bind_math_extra(py::module_& m);
void bind_printing(py::module_& m);
void bind_reduction(py::module_& m);
void bind_routines(py::module_& m);
void bind_sorting(py::module_& m);
void bind_manipulation(py::module_& m);
void bind_statistics(py::module_& m);
void bind_special(py::module_& m);
void bind_links(py::module_& m);  // bind_links.cpp (kumo.autograd.links)
void bind_autograd_graph(py::module_& m);
void bind_optimizers(py::module_& m);
void bind_raw(py::module_& m);  // bind_raw.cpp (kumo.RawModule, kumo.RawKernel)
void bind_sparse(py::module_& m);  // bind_sparse.cpp (kumo.sparse)
void bind_sparse_linalg(py::module_& m);  // bind_sparse_linalg.cpp (kumo.sparse.linalg)

namespace {

PyObject* g_ufunc_type_error = nullptr;
PyObject* g_oom_error = nullptr;
PyObject* g_compile_error = nullptr;
PyObject* g_device_error = nullptr;

void register_errors(py::module_& m) {
  g_ufunc_type_error = PyErr_NewException("kumo._core.UFuncTypeError", PyExc_TypeError, nullptr);
  g_oom_error = PyErr_NewException("kumo._core.OutOfMemoryError", PyExc_MemoryError, nullptr);
  g_compile_error = PyErr_NewException("kumo._core.CompileError", PyExc_RuntimeError, nullptr);
  g_device_error = PyErr_NewException("kumo._core.DeviceError", PyExc_ValueError, nullptr);
  m.attr("UFuncTypeError") = py::handle(g_ufunc_type_error);
  m.attr("OutOfMemoryError") = py::handle(g_oom_error);
  m.attr("CompileError") = py::handle(g_compile_error);
  m.attr("DeviceError") = py::handle(g_device_error);
  static py::object axis_error = py::module_::import("numpy").attr("exceptions").attr("AxisError");
  static py::object linalg_error = py::module_::import("numpy").attr("linalg").attr("LinAlgError");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const AxisError& e) {
      PyErr_SetObject(axis_error.ptr(), py::str(e.what()).ptr());
    } catch (const LinAlgError& e) {
      PyErr_SetObject(linalg_error.ptr(), py::str(e.what()).ptr());
    } catch (const CastingError& e) {
      PyErr_SetString(g_ufunc_type_error, e.what());
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const BufferError& e) {
      PyErr_SetString(PyExc_BufferError, e.what());
    } catch (const OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const ZeroDivisionError& e) {
      PyErr_SetString(PyExc_ZeroDivisionError, e.what());
    } catch (const OutOfMemoryError& e) {
      PyErr_SetString(g_oom_error, e.what());
    } catch (const CompileError& e) {
      PyErr_SetString(g_compile_error, e.what());
    } catch (const DeviceError& e) {
      PyErr_SetString(g_device_error, e.what());
    } catch (const FloatingPointError& e) {
      PyErr_SetString(PyExc_FloatingPointError, e.what());
    } catch (const OSError& e) {
      // OSError(errno, message) becomes the subclass for that errno (FileNotFoundError, ...).
      PyErr_SetObject(PyExc_OSError, py::make_tuple(e.error_number(), e.what()).ptr());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

// A raw allocation from a pool, released when the Python object dies.
struct PoolAllocation {
  std::shared_ptr<Memory> memory;
  uintptr_t ptr() const { return reinterpret_cast<uintptr_t>(memory->data()); }
  size_t size() const { return memory->size(); }
};

}  // namespace

}  // namespace py_bind
}  // namespace kumo

using namespace kumo;            // NOLINT: module init lists many core names
using namespace kumo::py_bind;   // NOLINT

PYBIND11_MODULE(_core, m) {
  m.doc() = "Kumo core: arrays, devices, memory pools and the kernel pipeline";
  register_errors(m);
  // C++ warnings become Python warnings; an error filter (-W error) makes
  // PyErr_WarnEx fail, and the exception it set propagates.
  set_warning_handler([](WarningCategory category, const std::string& message) {
    py::gil_scoped_acquire gil;
    static PyObject* complex_warning =
        py::object(py::module_::import("numpy").attr("exceptions").attr("ComplexWarning")).release().ptr();
    PyObject* type = category == WarningCategory::kDeprecation ? PyExc_DeprecationWarning
                     : category == WarningCategory::kUser      ? PyExc_UserWarning
                     : category == WarningCategory::kComplex   ? complex_warning
                                                               : PyExc_RuntimeWarning;
    if (PyErr_WarnEx(type, message.c_str(), 1) != 0) throw py::error_already_set();
  });
  // numpy.seterr/geterr over the C++ state (core/fp_errors.h); the
  // call/print/log modes go to kumo._errstate, which holds seterrcall's
  // callable.
  m.def("_set_fp_state", [](const std::string& divide, const std::string& over, const std::string& under,
                            const std::string& invalid) {
    set_fp_error_state(FpErrorState{fp_mode_from_name(divide), fp_mode_from_name(over), fp_mode_from_name(under),
                                    fp_mode_from_name(invalid)});
  });
  m.def("_get_fp_state", [] {
    const FpErrorState& s = fp_error_state();
    py::dict d;
    d["divide"] = fp_mode_name(s.divide);
    d["over"] = fp_mode_name(s.over);
    d["under"] = fp_mode_name(s.under);
    d["invalid"] = fp_mode_name(s.invalid);
    return d;
  });
  set_fp_error_handler([](FpMode mode, const std::string& kind, int flag, const std::string& message) {
    py::gil_scoped_acquire gil;
    py::module_::import("kumo._errstate").attr("_dispatch")(fp_mode_name(mode), kind, flag, message);
  });
  bind_array(m);
  bind_kernels(m);
  bind_fast_paths(m);
  bind_fft(m);
  bind_indexing(m);
  bind_io(m);
  bind_dlpack(m);
  bind_autograd(m);
  bind_linalg(m);
  bind_printing(m);
  bind_math_extra(m);
  bind_random(m);
  bind_reduction(m);
  bind_routines(m);
  bind_sorting(m);
  bind_manipulation(m);
  bind_statistics(m);
  bind_special(m);
  bind_links(m);
  bind_autograd_graph(m);
  bind_optimizers(m);
  bind_raw(m);
  bind_sparse(m);
  bind_sparse_linalg(m);
  py::module_ cuda = m.def_submodule("cuda", "CUDA backend (plugin) access");
  bind_cuda(cuda);

  py::class_<MemoryPool, std::unique_ptr<MemoryPool, py::nodelete>>(m, "MemoryPool")
      .def("used_bytes", &MemoryPool::used_bytes)
      .def("peak_used_bytes", &MemoryPool::peak_used_bytes)
      .def("reset_peak_used_bytes", &MemoryPool::reset_peak_used_bytes)
      .def("free_bytes", &MemoryPool::free_bytes)
      .def("total_bytes", &MemoryPool::total_bytes)
      .def("n_free_blocks", &MemoryPool::n_free_blocks)
      .def("free_all_blocks", [](MemoryPool& p, py::object stream) {
        if (stream.is_none()) p.free_all_blocks();
        else p.free_all_blocks(py::cast<uintptr_t>(stream.attr("ptr")));
      }, py::arg("stream") = py::none())
      .def("set_limit", [](MemoryPool& p, py::object size, py::object fraction) {
        if (!fraction.is_none()) throw ValueError("fraction= needs a device memory size; pass size= instead");
        p.set_limit(size.is_none() ? 0 : py::cast<size_t>(size));
      }, py::arg("size") = py::none(), py::arg("fraction") = py::none())
      .def("get_limit", &MemoryPool::get_limit)
      .def("malloc", [](MemoryPool& p, size_t n) { return PoolAllocation{p.malloc(n)}; }, py::arg("size"))
      .def_property_readonly("_raw_name", &MemoryPool::raw_name);
  py::class_<PoolAllocation>(m, "PoolAllocation")
      .def_property_readonly("ptr", &PoolAllocation::ptr)
      .def_property_readonly("size", &PoolAllocation::size);

  m.def("device_memory_pool", [](const std::string& spec) { return &get_device(spec).memory_pool(); },
        py::return_value_policy::reference);
  m.def("pinned_memory_pool", []() {
    CudaPlugin* p = cuda_plugin();
    if (!p) throw DeviceError("pinned memory needs the CUDA backend: " + cuda_plugin_load_error());
    return &p->pinned_memory_pool();
  }, py::return_value_policy::reference);

  m.def("current_device_name", [] { return current_device().name(); });
  m.def("set_current_device", [](const std::string& spec) { set_current_device(get_device(spec)); });
  m.def("check_device", [](const std::string& spec) { return get_device(spec).name(); });
  m.def("synchronize_device", [](const std::string& spec) { get_device(spec).synchronize(); });
  m.def("host_num_threads", &host_num_threads);
  m.def("host_compiler", &kernels::host_compiler_command);
  m.def("built_with_cuda", &built_with_cuda);

  m.def("empty", [](py::object shape, py::object dtype, py::object order) {
    Order o = to_order(order);
    if (o != Order::kC && o != Order::kF) throw ValueError("only 'C' or 'F' order is permitted");
    return Array::empty(to_shape(shape), to_dtype_required(dtype), current_device(), o);
  }, py::arg("shape"), py::arg("dtype"), py::arg("order") = "C");
  m.def("from_numpy", [](py::array arr, py::object device) {
    Device& d = device.is_none() ? current_device() : get_device(py::cast<std::string>(device));
    return from_numpy(arr, d);
  }, py::arg("array"), py::arg("device") = py::none());
  m.def("to_numpy", [](py::handle a) { return to_numpy(py::cast<const Array&>(a), a); });
  m.def("to_array", [](py::handle obj) { return to_array_required(obj); });
  m.def("fill", [](const Array& a, py::handle value) {
    if (!a.writeable()) throw ValueError("assignment destination is read-only");
    std::vector<char> bytes(static_cast<size_t>(a.itemsize()));
    if (is_python_scalar(value)) {
      kernels::store_scalar(kernels::assigned_scalar(to_scalar_value(value), a.dtype()), a.dtype(), bytes.data());
      kernels::fill_bytes(a, bytes.data());
    } else {
      Array v = to_array_required(value, &a.device());
      v.copy_to(a);
    }
  });
}
