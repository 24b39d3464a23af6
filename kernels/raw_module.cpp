#include "kernels/raw_module.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "core/cuda_plugin.h"
#include "core/device.h"
#include "core/errors.h"
#include "core/memory.h"
#include "kernels/kernel_cache.h"
#include "kernels/launch.h"

// The host path needs the CUDA-dialect emulator; a tree without it still
// builds and runs RawModules on CUDA devices.
#if __has_include("kernels/host/cuda_emulation.h")
#include "kernels/host/cuda_emulation.h"
#define KUMO_HAVE_CUDA_EMULATION 1
#else
#define KUMO_HAVE_CUDA_EMULATION 0
#endif

namespace kumo {

namespace {

// cuComplex.h's API on float2/double2 (the layout of complex64/complex128
// items), written for NVRTC, which cannot include the toolkit's cuComplex.h
// (it pulls in host headers). Used for translate_cucomplex on CUDA.
const char* const kCuComplexBridge = R"(
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
__host__ __device__ inline float cuCrealf(cuFloatComplex a) { return a.x; }
__host__ __device__ inline float cuCimagf(cuFloatComplex a) { return a.y; }
__host__ __device__ inline cuFloatComplex make_cuFloatComplex(float r, float i) { cuFloatComplex c; c.x = r; c.y = i; return c; }
__host__ __device__ inline cuFloatComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
__host__ __device__ inline cuFloatComplex cuConjf(cuFloatComplex a) { return make_cuFloatComplex(a.x, -a.y); }
__host__ __device__ inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x + b.x, a.y + b.y); }
__host__ __device__ inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x - b.x, a.y - b.y); }
__host__ __device__ inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__host__ __device__ inline cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) {
  float s = fabsf(b.x) + fabsf(b.y), ars = a.x / s, ais = a.y / s, brs = b.x / s, bis = b.y / s, d = brs * brs + bis * bis;
  return make_cuFloatComplex((ars * brs + ais * bis) / d, (ais * brs - ars * bis) / d);
}
__host__ __device__ inline float cuCabsf(cuFloatComplex a) { return hypotf(a.x, a.y); }
__host__ __device__ inline cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) {
  return make_cuFloatComplex(x.x * y.x - x.y * y.y + d.x, x.x * y.y + x.y * y.x + d.y);
}
__host__ __device__ inline double cuCreal(cuDoubleComplex a) { return a.x; }
__host__ __device__ inline double cuCimag(cuDoubleComplex a) { return a.y; }
__host__ __device__ inline cuDoubleComplex make_cuDoubleComplex(double r, double i) { cuDoubleComplex c; c.x = r; c.y = i; return c; }
__host__ __device__ inline cuDoubleComplex cuConj(cuDoubleComplex a) { return make_cuDoubleComplex(a.x, -a.y); }
__host__ __device__ inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x + b.x, a.y + b.y); }
__host__ __device__ inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x - b.x, a.y - b.y); }
__host__ __device__ inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__host__ __device__ inline cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) {
  double s = fabs(b.x) + fabs(b.y), ars = a.x / s, ais = a.y / s, brs = b.x / s, bis = b.y / s, d = brs * brs + bis * bis;
  return make_cuDoubleComplex((ars * brs + ais * bis) / d, (ais * brs - ars * bis) / d);
}
__host__ __device__ inline double cuCabs(cuDoubleComplex a) { return hypot(a.x, a.y); }
__host__ __device__ inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  return make_cuDoubleComplex(x.x * y.x - x.y * y.y + d.x, x.x * y.y + x.y * y.x + d.y);
}
__host__ __device__ inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) { return make_cuDoubleComplex(c.x, c.y); }
__host__ __device__ inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) { return make_cuFloatComplex((float)c.x, (float)c.y); }
)";

// Replaces each `#include <cuComplex.h>` line with the bridge, followed by a
// #line directive so that compiler messages keep the user's line numbers.
std::string translate_cucomplex_source(const std::string& code) {
  std::istringstream in(code);
  std::ostringstream out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string squeezed;
    for (char c : line)
      if (c != ' ' && c != '\t') squeezed += c;
    if (squeezed == "#include<cuComplex.h>" || squeezed == "#include\"cuComplex.h\"") {
      out << kCuComplexBridge << "#line " << number + 1 << "\n";
    } else {
      out << line << '\n';
    }
  }
  return out.str();
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// NVRTC options that mean something to the host compiler; the rest target
// the GPU (architecture, register limits, fast-math intrinsics, debug info)
// and are ignored on the host.
[[maybe_unused]] std::vector<std::string> host_flags(const std::vector<std::string>& options) {
  // No flags by default: user options must not stop the emulator's
  // precompiled header from being used (GCC rejects a .gch built with other
  // code-generation flags).
  std::vector<std::string> flags;
  for (const std::string& o : options) {
    // -D / --define-macro become #defines in translate_cuda_for_host.
    if (starts_with(o, "-U") || starts_with(o, "-I")) {
      flags.push_back(o);
    } else if (starts_with(o, "--undefine-macro=")) {
      flags.push_back("-U" + o.substr(std::strlen("--undefine-macro=")));
    } else if (starts_with(o, "--include-path=")) {
      flags.push_back("-I" + o.substr(std::strlen("--include-path=")));
    } else if (starts_with(o, "-std=") || starts_with(o, "--std=")) {
      // The emulation header needs C++17: older standards compile as C++17
      // (kernels written for them are valid C++17), newer ones are passed on.
      const std::string std = o.substr(o.find('=') + 1);
      if (std != "c++03" && std != "c++11" && std != "c++14" && std != "c++17") flags.push_back("-std=" + std);
    }
  }
  return flags;
}

std::string strip_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\n') out += c;
  return out;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Kernel parameters as the launch APIs want them: params[i] points at the
// value of argument i.
std::vector<void*> param_pointers(const std::vector<KernelArg>& args) {
  std::vector<void*> params;
  params.reserve(args.size());
  for (const KernelArg& a : args) params.push_back(const_cast<void*>(a.value_ptr()));
  return params;
}

Device& launch_device(const std::vector<KernelArg>& args) {
  Device* device = nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_array()) continue;
    Device& d = args[i].array_value().device();
    if (device == nullptr) {
      device = &d;
    } else if (device != &d) {
      throw ValueError("kernel argument " + std::to_string(i) + " is on " + d.name() + " but an earlier array is on " +
                       device->name() + ": all arrays of a launch must be on one device");
    }
  }
  return device ? *device : current_device();
}

CudaKernelBackend& cuda_backend() {
  CudaPlugin* plugin = cuda_plugin();
  if (!plugin) throw DeviceError("CUDA plugin is not loaded: " + cuda_plugin_load_error());
  return plugin->kernels();
}

}  // namespace

// ---- KernelArg ------------------------------------------------------------------

KernelArg KernelArg::array(const Array& a) {
  KernelArg k;
  k.is_array_ = true;
  k.array_ = a;
  k.dtype_ = a.dtype();
  void* p = a.data();
  std::memcpy(k.bytes_, &p, sizeof p);
  return k;
}

KernelArg KernelArg::scalar(Dtype dtype, const void* value) {
  KernelArg k;
  k.dtype_ = dtype;
  std::memcpy(k.bytes_, value, itemsize(dtype));
  return k;
}

// ---- RawModule ------------------------------------------------------------------

struct RawModule::Impl {
  std::string code;
  RawModuleOptions options;
  bool is_image = false;

  std::mutex mu;
  // Host: the compiled module and expression -> entry symbol.
  std::shared_ptr<kernels::HostModule> host_module;
  std::unordered_map<std::string, std::string> host_entries;  // also keyed without spaces
  std::vector<std::string> host_kernel_names;
  std::unordered_map<std::string, std::unordered_map<std::string, int>> host_attributes;
  // CUDA: per architecture the image and lowered names, per device the loaded functions.
  struct CudaBuild {
    std::string image;
    std::unordered_map<std::string, std::string> lowered;  // expression (and without spaces) -> symbol
  };
  std::unordered_map<int, std::shared_ptr<CudaBuild>> cuda_builds;
  std::map<std::pair<int, std::string>, void*> cuda_functions;

  std::string cuda_source() const { return options.translate_cucomplex ? translate_cucomplex_source(code) : code; }

  std::vector<std::string> cuda_options() const {
    std::vector<std::string> opts = options.options;
    // NVRTC has no notion of the host launch, and CuPy's "nvcc" backend
    // flags would be errors: nothing is added for cooperative groups since
    // block-level groups need no extra flag.
    return opts;
  }

  // Compiles (through the disk cache) for one architecture. The cache entry
  // holds the lowered names before the image so a cache hit needs no NVRTC.
  std::shared_ptr<CudaBuild> cuda_build(int arch) {
    {
      std::lock_guard<std::mutex> lk(mu);
      auto it = cuda_builds.find(arch);
      if (it != cuda_builds.end()) return it->second;
    }
    auto build = std::make_shared<CudaBuild>();
    if (is_image) {
      build->image = code;
    } else {
      CudaKernelBackend& backend = cuda_backend();
      const std::string source = cuda_source();
      const std::vector<std::string> opts = cuda_options();
      std::string key_text = "kumo-raw-module-v1\n" + source + '\0';
      for (const std::string& o : opts) key_text += o + '\0';
      key_text += '\1';
      for (const std::string& e : options.name_expressions) key_text += e + '\0';
      key_text += "nvrtc " + backend.nvrtc_version() + " sm_" + std::to_string(arch);
      const std::string file = kernels::content_hash(key_text) + ".rawmod";
      std::vector<std::string> lowered;
      bool cached = false;
      if (auto entry = kernels::read_cache_entry("cuda", file)) {
        // Format: count line, one lowered name per line, then the image. An
        // entry that does not parse (it passed its checksum, so it was
        // written by another version) is compiled again.
        std::istringstream in(*entry);
        size_t n = 0;
        if ((in >> n) && n == options.name_expressions.size() && in.get() == '\n') {
          std::string name;
          for (size_t i = 0; i < n && std::getline(in, name); ++i) lowered.push_back(name);
          const std::streamoff pos = in.tellg();
          if (lowered.size() == n && pos > 0 && static_cast<size_t>(pos) < entry->size()) {
            build->image = entry->substr(static_cast<size_t>(pos));
            cached = true;
          }
        }
        if (!cached) lowered.clear();
      }
      if (!cached) {
        CudaKernelBackend::CompiledModule compiled =
            backend.compile_module(source, "kumo_raw_module.cu", arch, opts, options.name_expressions);
        std::string bytes = std::to_string(compiled.lowered_names.size()) + "\n";
        for (const std::string& l : compiled.lowered_names) bytes += l + "\n";
        bytes += compiled.cubin;
        kernels::write_cache_entry("cuda", file, bytes);
        lowered = std::move(compiled.lowered_names);
        build->image = std::move(compiled.cubin);
      }
      for (size_t i = 0; i < lowered.size() && i < options.name_expressions.size(); ++i) {
        build->lowered[options.name_expressions[i]] = lowered[i];
        build->lowered[strip_spaces(options.name_expressions[i])] = lowered[i];
      }
    }
    std::lock_guard<std::mutex> lk(mu);
    return cuda_builds.emplace(arch, build).first->second;
  }

  void* cuda_function(Device& device, const std::string& name) {
    const auto key = std::make_pair(device.index(), name);
    {
      std::lock_guard<std::mutex> lk(mu);
      auto it = cuda_functions.find(key);
      if (it != cuda_functions.end()) return it->second;
    }
    CudaKernelBackend& backend = cuda_backend();
    std::shared_ptr<CudaBuild> build = cuda_build(backend.device_arch(device.index()));
    std::string symbol = name;
    if (auto it = build->lowered.find(name); it != build->lowered.end()) {
      symbol = it->second;
    } else if (auto it2 = build->lowered.find(strip_spaces(name)); it2 != build->lowered.end()) {
      symbol = it2->second;
    }
    void* fn = nullptr;
    try {
      fn = backend.load_function(device.index(), build->image, symbol);
    } catch (const Error& e) {
      throw RuntimeError("RawModule has no kernel '" + name + "' on " + device.name() + " (" + e.what() + ")");
    }
    std::lock_guard<std::mutex> lk(mu);
    cuda_functions[key] = fn;
    return fn;
  }

  // Translates and compiles for the host once; with KUMO_VERIFY_CUDA the
  // same source is also compiled by NVRTC, as for built-in kernels.
  void ensure_host() {
    std::lock_guard<std::mutex> lk(mu);
    if (host_module) return;
    if (is_image) {
      throw ValueError(
          "a RawModule loaded from a cubin/PTX file runs only on CUDA devices: the host cannot run GPU machine code "
          "(pass the CUDA C++ source as `code` to run it on the CPU)");
    }
#if KUMO_HAVE_CUDA_EMULATION
    std::vector<std::string> exprs = options.name_expressions;
    if (!exprs.empty()) {
      // Non-template kernels stay reachable by name next to the expressions
      // (as on CUDA), so their names are added to the requested entries.
      try {
        auto plain = kernels::translate_cuda_for_host(code, {}, options.options);
        for (const auto& entry : plain.entries)
          if (std::find(exprs.begin(), exprs.end(), entry.first) == exprs.end()) exprs.push_back(entry.first);
      } catch (const Error&) {
        // The real translation below reports the problem.
      }
    }
    kernels::EmulatedModuleSource translated = kernels::translate_cuda_for_host(code, exprs, options.options);
    std::shared_ptr<kernels::HostModule> module =
        kernels::get_host_module(translated.source, host_flags(options.options));
    host_entries.clear();
    host_kernel_names.clear();
    for (const auto& entry : translated.entries) {
      host_entries[entry.first] = entry.second;
      host_entries[strip_spaces(entry.first)] = entry.second;
      host_kernel_names.push_back(entry.first);
    }
    host_module = module;
#else
    throw RuntimeError("this build of kumo has no CUDA emulator: RawModule runs only on CUDA devices");
#endif
  }

  void verify_cuda() {
    if (!kernels::verify_cuda_enabled() || is_image || !cuda_plugin()) return;
    for (int arch : {80, 90}) cuda_build(arch);
  }

  kernels::HostRangeFn host_function(const std::string& name) {
    ensure_host();
    std::lock_guard<std::mutex> lk(mu);
    auto it = host_entries.find(name);
    if (it == host_entries.end()) it = host_entries.find(strip_spaces(name));
    if (it == host_entries.end()) {
      throw RuntimeError("RawModule has no kernel '" + name + "' (kernels: " + join_names(host_kernel_names) +
                         "; a template kernel must be listed in name_expressions)");
    }
    return reinterpret_cast<kernels::HostRangeFn>(host_module->symbol(it->second.c_str()));
  }
};

RawModule::RawModule(std::string code, RawModuleOptions options) : impl_(std::make_shared<Impl>()) {
  impl_->code = std::move(code);
  impl_->options = std::move(options);
}

RawModule RawModule::from_image(std::string image) {
  auto impl = std::make_shared<Impl>();
  impl->code = std::move(image);
  impl->is_image = true;
  return RawModule(impl);
}

const std::string& RawModule::code() const { return impl_->code; }
const RawModuleOptions& RawModule::options() const { return impl_->options; }
bool RawModule::is_image() const { return impl_->is_image; }

RawFunction RawModule::get_function(const std::string& name) const { return RawFunction(*this, name); }

void RawModule::compile(Device& device) const {
  if (device.type() == DeviceType::kCPU) {
    impl_->ensure_host();
    impl_->verify_cuda();
  } else {
    impl_->cuda_build(cuda_backend().device_arch(device.index()));
  }
}

Array RawModule::get_global(const std::string& name, Device& device, std::optional<Dtype> dtype,
                            std::optional<Shape> shape) const {
  void* ptr = nullptr;
  size_t bytes = 0;
  if (device.type() == DeviceType::kCPU) {
    impl_->ensure_host();
    // Globals of the host module are ordinary symbols with their C names.
    try {
      ptr = impl_->host_module->symbol(name.c_str());
    } catch (const CompileError&) {
      throw RuntimeError("RawModule has no global '" + name + "'");
    }
    Dl_info info{};
    ElfW(Sym)* sym = nullptr;
    if (dladdr1(ptr, &info, reinterpret_cast<void**>(&sym), RTLD_DL_SYMENT) && sym) bytes = sym->st_size;
  } else {
    CudaKernelBackend& backend = cuda_backend();
    auto build = impl_->cuda_build(backend.device_arch(device.index()));
    try {
      std::tie(ptr, bytes) = backend.load_global(device.index(), build->image, name);
    } catch (const Error& e) {
      throw RuntimeError("RawModule has no global '" + name + "' on " + device.name() + " (" + e.what() + ")");
    }
  }
  const Dtype dt = dtype.value_or(Dtype::kUInt8);
  const int64_t item = static_cast<int64_t>(itemsize(dt));
  Shape sh = shape ? *shape : Shape{static_cast<int64_t>(bytes) / item};
  for (int i = 0; i < sh.size(); ++i)
    if (sh[i] < 0) throw ValueError("negative dimensions are not allowed");
  if (shape_size(sh) * item > static_cast<int64_t>(bytes)) {
    throw ValueError("global '" + name + "' has " + std::to_string(bytes) + " bytes, too few for " +
                     std::to_string(shape_size(sh)) + " items of " + dtype_name(dt));
  }
  // The module is never unloaded, so the memory needs no owner.
  auto memory = std::make_shared<ExternalMemory>(ptr, bytes, &device, nullptr);
  return Array(memory, 0, sh, c_strides(sh, item), dt);
}

// ---- RawFunction ----------------------------------------------------------------

void RawFunction::launch(Dim3 grid, Dim3 block, const std::vector<KernelArg>& args, size_t shared_mem,
                         StreamHandle stream) const {
  Device& device = launch_device(args);
  RawModule::Impl& impl = *module_.impl_;
  std::vector<void*> params = param_pointers(args);
  if (device.type() == DeviceType::kCPU) {
    kernels::HostRangeFn entry = impl.host_function(name_);
    impl.verify_cuda();
#if KUMO_HAVE_CUDA_EMULATION
    kernels::EmulatedLaunch launch{};
    launch.grid[0] = grid.x, launch.grid[1] = grid.y, launch.grid[2] = grid.z;
    launch.block[0] = block.x, launch.block[1] = block.y, launch.block[2] = block.z;
    launch.dynamic_shared_bytes = shared_mem;
    launch.params = params.data();
    int max_dynamic_shared = -1;
    {
      std::lock_guard<std::mutex> lk(impl.mu);
      auto it = impl.host_attributes.find(name_);
      if (it != impl.host_attributes.end()) {
        auto a = it->second.find("max_dynamic_shared_size_bytes");
        if (a != it->second.end()) max_dynamic_shared = a->second;
      }
    }
    if (max_dynamic_shared >= 0) {
      kernels::launch_emulated(entry, launch, static_cast<uint64_t>(max_dynamic_shared));
    } else {
      kernels::launch_emulated(entry, launch);
    }
#else
    (void)entry;
#endif
    return;
  }
  void* fn = impl.cuda_function(device, name_);
  LaunchDims dims;
  dims.grid[0] = grid.x, dims.grid[1] = grid.y, dims.grid[2] = grid.z;
  dims.block[0] = block.x, dims.block[1] = block.y, dims.block[2] = block.z;
  dims.shared_bytes = shared_mem;
  cuda_backend().launch(device.index(), fn, dims, stream ? stream : device.current_stream(), params.data());
}

std::vector<std::pair<std::string, int>> RawFunction::attributes(Device& device) const {
  RawModule::Impl& impl = *module_.impl_;
  if (device.type() != DeviceType::kCPU) {
    return cuda_backend().function_attributes(device.index(), impl.cuda_function(device, name_));
  }
  impl.host_function(name_);  // the kernel must exist
  // The emulator's limits; what only a GPU compiler knows (registers, PTX
  // version, ...) is -1 rather than an invented number.
  std::vector<std::pair<std::string, int>> attrs = {{"max_threads_per_block", 1024},
                                                    {"shared_size_bytes", -1},
                                                    {"const_size_bytes", -1},
                                                    {"local_size_bytes", -1},
                                                    {"num_regs", -1},
                                                    {"ptx_version", -1},
                                                    {"binary_version", -1},
                                                    {"cache_mode_ca", 0},
                                                    {"max_dynamic_shared_size_bytes", 48 * 1024},
                                                    {"preferred_shared_memory_carveout", -1}};
  std::lock_guard<std::mutex> lk(impl.mu);
  for (auto& a : attrs) {
    auto& set = impl.host_attributes[name_];
    if (auto it = set.find(a.first); it != set.end()) a.second = it->second;
  }
  return attrs;
}

void RawFunction::set_attribute(Device& device, const std::string& name, int value) const {
  RawModule::Impl& impl = *module_.impl_;
  if (name != "max_dynamic_shared_size_bytes" && name != "preferred_shared_memory_carveout")
    throw ValueError("function attribute '" + name + "' cannot be set");
  if (name == "preferred_shared_memory_carveout" && (value < -1 || value > 100))
    throw ValueError("preferred_shared_memory_carveout must be -1 or a percentage in [0, 100], got " +
                     std::to_string(value));
  if (value < -1) throw ValueError(name + " must not be negative");
  if (device.type() != DeviceType::kCPU) {
    cuda_backend().set_function_attribute(device.index(), impl.cuda_function(device, name_), name, value);
    return;
  }
  impl.host_function(name_);
  // Recorded so that attributes() reads it back; the host has no carveout
  // and its shared memory is ordinary memory.
  std::lock_guard<std::mutex> lk(impl.mu);
  impl.host_attributes[name_][name] = value;
}

}  // namespace kumo
