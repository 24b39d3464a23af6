// kumo._core.cuda: availability of the CUDA backend, NVRTC, and CuPy-style
// Stream and Event classes over the plugin's CudaStreamApi.
#include "bindings/bind_cuda.h"

#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/cuda_plugin.h"
#include "core/device.h"
#include "core/errors.h"

namespace py = pybind11;

namespace {

using kumo::CudaPlugin;
using kumo::StreamHandle;

// Every stream or event operation needs a device; without one, say why.
CudaPlugin& plugin_with_device() {
  CudaPlugin* plugin = kumo::cuda_plugin();
  if (plugin == nullptr || plugin->device_count() == 0) {
    throw kumo::RuntimeError("CUDA is not available: " + kumo::cuda_unavailable_reason());
  }
  return *plugin;
}

// The CUDA device that streams and events are created on: the thread's
// current device when it is a GPU, else GPU 0 (as CuPy's default).
int current_cuda_device() {
  kumo::Device& device = kumo::current_device();
  return device.type() == kumo::DeviceType::kCUDA ? device.index() : 0;
}

class Event;

class Stream {
 public:
  // A new stream on the current CUDA device.
  explicit Stream(bool non_blocking) : plugin_(&plugin_with_device()), device_(current_cuda_device()) {
    handle_ = plugin_->streams().create_stream(device_, non_blocking);
    owned_ = true;
  }
  // A non-owning view of an existing stream (the null stream, the current one).
  Stream(CudaPlugin* plugin, int device, StreamHandle handle) : plugin_(plugin), device_(device), handle_(handle) {}

  ~Stream() {
    if (!owned_) return;
    try {
      plugin_->streams().destroy_stream(device_, handle_);
    } catch (...) {
      // A destructor cannot report; the stream leaks at worst.
    }
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  StreamHandle ptr() const { return handle_; }
  int device_id() const { return device_; }

  void synchronize() {
    CudaPlugin& p = plugin_with_device();
    py::gil_scoped_release release;
    p.streams().synchronize_stream(device_, handle_);
  }

  bool done() { return plugin_with_device().streams().query_stream(device_, handle_); }

  void wait_event(const Event& event);

  void use() { plugin_with_device().streams().set_current_stream(device_, handle_); }

  // `with stream:` makes it current and restores whatever was current
  // before, so nested and repeated uses unwind in order.
  void enter() {
    CudaPlugin& p = plugin_with_device();
    saved_.push_back(p.streams().current_stream(device_));
    p.streams().set_current_stream(device_, handle_);
  }
  void exit() {
    if (saved_.empty()) return;
    const StreamHandle previous = saved_.back();
    saved_.pop_back();
    plugin_with_device().streams().set_current_stream(device_, previous);
  }

  std::string repr() const {
    std::ostringstream os;
    os << "<kumo.cuda.Stream 0x" << std::hex << handle_ << std::dec << " (device " << device_ << ")>";
    return os.str();
  }

 private:
  CudaPlugin* plugin_;
  int device_;
  StreamHandle handle_ = 0;
  bool owned_ = false;
  std::vector<StreamHandle> saved_;
};

class Event {
 public:
  // `block` (blocking sync) and `interprocess` are accepted for CuPy
  // compatibility; the plugin interface creates default events, so they only
  // affect validation for now.
  Event(bool block, bool disable_timing, bool interprocess)
      : plugin_(&plugin_with_device()), device_(current_cuda_device()), timing_(!disable_timing) {
    (void)block;
    if (interprocess && !disable_timing) {
      throw kumo::ValueError("timing must be disabled for interprocess events (pass disable_timing=True)");
    }
    handle_ = plugin_->streams().create_event(device_, timing_);
  }
  ~Event() {
    try {
      plugin_->streams().destroy_event(device_, handle_);
    } catch (...) {
      // A destructor cannot report; the event leaks at worst.
    }
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  uintptr_t ptr() const { return handle_; }
  int device_id() const { return device_; }
  bool timing() const { return timing_; }

  void record(const Stream* stream) {
    CudaPlugin& p = plugin_with_device();
    const StreamHandle s = stream ? stream->ptr() : p.streams().current_stream(device_);
    p.streams().record_event(device_, handle_, s);
  }

  void synchronize() {
    CudaPlugin& p = plugin_with_device();
    py::gil_scoped_release release;
    p.streams().synchronize_event(device_, handle_);
  }

  bool done() { return plugin_with_device().streams().query_event(device_, handle_); }

 private:
  CudaPlugin* plugin_;
  int device_;
  bool timing_;
  uintptr_t handle_ = 0;
};

void Stream::wait_event(const Event& event) {
  plugin_with_device().streams().stream_wait_event(device_, handle_, event.ptr());
}

float get_elapsed_time(const Event& start, const Event& end) {
  if (start.device_id() != end.device_id()) {
    throw kumo::ValueError("events are on different devices (" + std::to_string(start.device_id()) + " and " +
                           std::to_string(end.device_id()) + ")");
  }
  if (!start.timing() || !end.timing()) {
    throw kumo::ValueError("elapsed time needs events created with disable_timing=False");
  }
  return plugin_with_device().streams().elapsed_ms(start.device_id(), start.ptr(), end.ptr());
}

}  // namespace

void bind_cuda(py::module_& m) {
  m.doc() = "CUDA backend: availability, NVRTC, streams and events";

  m.def("is_available", &kumo::cuda_is_available,
        "True when the CUDA plugin loaded and sees at least one device.");
  m.def("unavailable_reason", &kumo::cuda_unavailable_reason,
        "Why CUDA is not available ('' when it is).");
  m.def("plugin_load_error", &kumo::cuda_plugin_load_error,
        "Why the CUDA plugin could not be loaded ('' when it loaded).");
  m.def("get_device_count", [] {
    CudaPlugin* plugin = kumo::cuda_plugin();
    return plugin ? plugin->device_count() : 0;
  });
  m.def("nvrtc_version", []() -> std::optional<std::string> {
    CudaPlugin* plugin = kumo::cuda_plugin();
    if (!plugin) return std::nullopt;
    return plugin->kernels().nvrtc_version();
  });
  m.def("version_info", []() -> std::optional<std::string> {
    CudaPlugin* plugin = kumo::cuda_plugin();
    if (!plugin) return std::nullopt;
    return plugin->version_info();
  });
  m.def(
      "compile_cuda",
      [](const std::string& source, const std::string& name, int arch, const std::vector<std::string>& options) {
        CudaPlugin* plugin = kumo::cuda_plugin();
        if (!plugin) throw kumo::RuntimeError("the CUDA plugin is not loaded: " + kumo::cuda_plugin_load_error());
        std::string cubin;
        {
          // NVRTC takes from tens of milliseconds to seconds; other Python
          // threads keep running meanwhile.
          py::gil_scoped_release release;
          cubin = plugin->kernels().compile(source, name, arch, options);
        }
        return py::bytes(cubin);
      },
      py::arg("source"), py::arg("name"), py::arg("arch"), py::arg("options") = std::vector<std::string>{},
      "Compiles CUDA C++ with NVRTC for sm_<arch> and returns the cubin (no GPU needed).");

  py::class_<Stream, std::shared_ptr<Stream>>(m, "Stream")
      .def(py::init<bool>(), py::arg("non_blocking") = false)
      .def_property_readonly_static(
          "null",
          [](const py::object&) {
            // The legacy default stream; a view, so there is nothing to own.
            CudaPlugin* plugin = kumo::cuda_plugin();
            const int device = plugin && plugin->device_count() > 0 ? current_cuda_device() : 0;
            return std::make_shared<Stream>(plugin, device, 0);
          })
      .def_property_readonly("ptr", &Stream::ptr)
      .def_property_readonly("device_id", &Stream::device_id)
      .def_property_readonly("done", &Stream::done)
      .def("synchronize", &Stream::synchronize)
      .def(
          "record",
          [](const std::shared_ptr<Stream>& self, std::shared_ptr<Event> event) {
            if (!event) event = std::make_shared<Event>(false, false, false);
            event->record(self.get());
            return event;
          },
          py::arg("event") = py::none())
      .def("wait_event", &Stream::wait_event, py::arg("event"))
      .def("use",
           [](const std::shared_ptr<Stream>& self) {
             self->use();
             return self;
           })
      .def("__enter__",
           [](const std::shared_ptr<Stream>& self) {
             self->enter();
             return self;
           })
      .def("__exit__", [](Stream& self, const py::args&) { self.exit(); })
      .def("__eq__",
           [](const Stream& a, const py::object& other) {
             if (!py::isinstance<Stream>(other)) return false;
             const Stream& b = other.cast<const Stream&>();
             return a.ptr() == b.ptr() && a.device_id() == b.device_id();
           })
      .def("__hash__", [](const Stream& s) { return py::hash(py::make_tuple(s.ptr(), s.device_id())); })
      .def("__repr__", &Stream::repr);

  py::class_<Event, std::shared_ptr<Event>>(m, "Event")
      .def(py::init<bool, bool, bool>(), py::arg("block") = false, py::arg("disable_timing") = false,
           py::arg("interprocess") = false)
      .def_property_readonly("ptr", &Event::ptr)
      .def_property_readonly("device_id", &Event::device_id)
      .def_property_readonly("done", &Event::done)
      .def(
          "record", [](Event& self, const Stream* stream) { self.record(stream); }, py::arg("stream") = py::none())
      .def("synchronize", &Event::synchronize);

  m.def("get_elapsed_time", &get_elapsed_time, py::arg("start_event"), py::arg("end_event"),
        "Milliseconds between two recorded events.");
  m.def("get_current_stream", [] {
    CudaPlugin& plugin = plugin_with_device();
    const int device = current_cuda_device();
    return std::make_shared<Stream>(&plugin, device, plugin.streams().current_stream(device));
  });
}
