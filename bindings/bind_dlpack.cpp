// kumo._core.dlpack: DLPack capsules (core/dlpack.h) for ndarray.__dlpack__
// and kumo.from_dlpack. A capsule owns its tensor until a consumer takes it:
// the consumer renames it "used_dltensor[_versioned]", and only a capsule
// that was never consumed calls the tensor's deleter when it dies.
#include <pybind11/pybind11.h>

#include "bindings/convert.h"
#include "core/dlpack.h"
#include "core/errors.h"

namespace kumo {
namespace py_bind {

namespace {

constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kUsedVersionedName = "used_dltensor_versioned";
constexpr const char* kLegacyName = "dltensor";
constexpr const char* kUsedLegacyName = "used_dltensor";

void release_unused_versioned(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, kVersionedName)) return;  // consumed, or not ours to free
  auto* t = static_cast<dlpack::DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, kVersionedName));
  if (t != nullptr && t->deleter != nullptr) t->deleter(t);
}

void release_unused_legacy(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, kLegacyName)) return;
  auto* t = static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(capsule, kLegacyName));
  if (t != nullptr && t->deleter != nullptr) t->deleter(t);
}

py::object export_capsule(const Array& a, bool versioned, bool copied) {
  if (versioned) {
    dlpack::DLManagedTensorVersioned* t = to_dlpack_versioned(a, copied);
    PyObject* cap = PyCapsule_New(t, kVersionedName, &release_unused_versioned);
    if (cap == nullptr) {
      t->deleter(t);
      throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(cap);
  }
  dlpack::DLManagedTensor* t = to_dlpack(a);
  PyObject* cap = PyCapsule_New(t, kLegacyName, &release_unused_legacy);
  if (cap == nullptr) {
    t->deleter(t);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(cap);
}

py::object import_capsule(py::handle capsule) {
  PyObject* cap = capsule.ptr();
  if (PyCapsule_IsValid(cap, kVersionedName)) {
    auto* t = static_cast<dlpack::DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kVersionedName));
    // Renamed first: from here on the tensor is kumo's, even if the import
    // throws.
    PyCapsule_SetName(cap, kUsedVersionedName);
    return new_ndarray(from_dlpack(t));
  }
  if (PyCapsule_IsValid(cap, kLegacyName)) {
    auto* t = static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(cap, kLegacyName));
    PyCapsule_SetName(cap, kUsedLegacyName);
    return new_ndarray(from_dlpack(t));
  }
  PyErr_Clear();
  throw TypeError(
      "from_dlpack: expected an unconsumed DLPack capsule "
      "(\"dltensor\" or \"dltensor_versioned\")");
}

}  // namespace

void bind_dlpack(py::module_& parent) {
  py::module_ m = parent.def_submodule("dlpack", "DLPack capsules over kumo arrays (core/dlpack.h)");
  m.attr("version") = py::make_tuple(dlpack::kMajorVersion, dlpack::kMinorVersion);
  m.def("to_capsule", &export_capsule, py::arg("a"), py::arg("versioned"), py::arg("copied") = false,
        "A capsule exporting a without a copy (\"dltensor_versioned\" or the "
        "legacy \"dltensor\").");
  m.def("from_capsule", &import_capsule, py::arg("capsule"),
        "A kumo array over the memory a DLPack capsule exports (no copy); "
        "consumes the capsule.");
  m.def("device", [](const Array& a) {
    const dlpack::DLDevice d = dlpack_device(a.device());
    return py::make_tuple(d.device_type, d.device_id);
  });
}

}  // namespace py_bind
}  // namespace kumo
