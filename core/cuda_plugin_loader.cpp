// Finds and loads the CUDA backend plugin (libkumo_cuda.so) on first use.
// No CUDA header here: the core must load, and work, on machines without
// the CUDA libraries, so everything CUDA lives behind dlopen.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <string>

#include "core/cuda_plugin.h"

#ifndef KUMO_BUILT_WITH_CUDA
// Builds outside CMake still try the plugin; a missing file is reported.
#define KUMO_BUILT_WITH_CUDA 1
#endif

namespace kumo {
namespace {

constexpr const char* kPluginFileName = "libkumo_cuda.so";
constexpr const char* kPluginEntryPoint = "kumo_cuda_plugin_instance";

struct PluginState {
  CudaPlugin* plugin = nullptr;
  std::string error;  // why plugin is null
};

// The directory of the shared object this function was linked into, i.e.
// the core library (or the executable, when the core is linked statically).
// The plugin is installed next to it, wherever that is.
[[maybe_unused]] std::string core_library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuda_plugin), &info) == 0 || info.dli_fname == nullptr) return {};
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

[[maybe_unused]] std::string last_dl_error() {
  const char* e = dlerror();
  return e ? std::string(e) : std::string("unknown error");
}

PluginState load_plugin() {
  PluginState state;
#if !KUMO_BUILT_WITH_CUDA
  state.error = "kumo was built without the CUDA backend";
#else
  try {
    std::string path;
    std::string origin;
    if (const char* env = std::getenv("KUMO_CUDA_PLUGIN"); env && *env) {
      path = env;
      origin = " (set by KUMO_CUDA_PLUGIN)";
    } else {
      const std::string dir = core_library_dir();
      if (dir.empty()) {
        state.error = std::string("cannot locate the kumo core library to look for ") + kPluginFileName +
                      " next to it; set KUMO_CUDA_PLUGIN to the plugin's path";
        return state;
      }
      path = dir + "/" + kPluginFileName;
    }
    if (::access(path.c_str(), F_OK) != 0) {
      state.error = "CUDA plugin not found at " + path + origin;
      return state;
    }
    dlerror();
    // RTLD_LOCAL keeps the plugin's symbols (it carries a static CUDA
    // runtime) out of the global namespace, where they could capture other
    // libraries' references. RTLD_NODELETE: objects and function handles
    // from the plugin are used until exit, so it must never be unmapped.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle == nullptr) {
      state.error = "cannot load the CUDA plugin " + path + origin + ": " + last_dl_error();
      return state;
    }
    dlerror();
    void* symbol = dlsym(handle, kPluginEntryPoint);
    if (symbol == nullptr) {
      state.error = "the CUDA plugin " + path + origin + " does not export " + kPluginEntryPoint + ": " +
                    last_dl_error();
      return state;
    }
    using EntryPoint = CudaPlugin* (*)();
    CudaPlugin* plugin = reinterpret_cast<EntryPoint>(symbol)();
    if (plugin == nullptr) {
      state.error = "the CUDA plugin " + path + origin + " returned no plugin instance";
      return state;
    }
    state.plugin = plugin;
  } catch (const std::exception& e) {
    state.error = std::string("loading the CUDA plugin failed: ") + e.what();
  } catch (...) {
    state.error = "loading the CUDA plugin failed with an unknown exception";
  }
#endif
  return state;
}

// A function-local static gives thread-safe, exactly-once loading; a failed
// load is remembered rather than retried, so every caller sees one answer.
const PluginState& plugin_state() {
  static const PluginState state = load_plugin();
  return state;
}

}  // namespace

CudaPlugin* cuda_plugin() { return plugin_state().plugin; }

std::string cuda_plugin_load_error() { return plugin_state().error; }

bool cuda_is_available() {
  try {
    CudaPlugin* plugin = cuda_plugin();
    return plugin != nullptr && plugin->device_count() > 0;
  } catch (...) {
    return false;
  }
}

std::string cuda_unavailable_reason() {
  CudaPlugin* plugin = cuda_plugin();
  if (plugin == nullptr) return cuda_plugin_load_error();
  try {
    return plugin->device_count() > 0 ? std::string() : plugin->unavailable_reason();
  } catch (const std::exception& e) {
    return std::string("querying CUDA devices failed: ") + e.what();
  } catch (...) {
    return "querying CUDA devices failed with an unknown exception";
  }
}

}  // namespace kumo
