// The CUDA kernel backend: NVRTC compilation to cubin (works without a GPU)
// and loading/launching cubins through the CUDA runtime.
//
// Loading uses the runtime's library API (cudaLibraryLoadData,
// cudaLibraryGetKernel, CUDA 12+) rather than the driver API. The driver API
// would mean linking libcuda (which would stop the plugin loading on a
// machine without a driver) or dlopen-ing it by hand and resolving every
// cu* entry point ourselves; the statically linked runtime already opens the
// driver lazily and reports its absence as an ordinary error. Libraries are
// also context-independent, so one load serves every device.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/cuda/cuda_common.h"
#include "core/errors.h"

namespace kumo {
namespace cuda_detail {
namespace {

// ---- NVRTC helpers ------------------------------------------------------------

template <typename... Args>
void check_nvrtc(nvrtcResult result, const char* call, const Args&... args) {
  if (result == NVRTC_SUCCESS) return;
  std::ostringstream os;
  os << call << '(';
  [[maybe_unused]] const char* sep = "";
  ((os << sep << args, sep = ", "), ...);
  os << ") failed: " << nvrtcGetErrorString(result);
  throw RuntimeError(os.str());
}

// Owns an nvrtcProgram for the duration of one compile.
class NvrtcProgram {
 public:
  NvrtcProgram(const std::string& source, const std::string& name) {
    check_nvrtc(nvrtcCreateProgram(&program_, source.c_str(), name.c_str(), 0, nullptr, nullptr),
                "nvrtcCreateProgram", name);
  }
  ~NvrtcProgram() {
    if (program_) nvrtcDestroyProgram(&program_);
  }
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  nvrtcProgram get() const { return program_; }

  // The log is worth having even if fetching it fails half way; the compile
  // error it decorates matters more than a second error about the log.
  std::string log() const {
    size_t size = 0;
    if (nvrtcGetProgramLogSize(program_, &size) != NVRTC_SUCCESS || size == 0) return {};
    std::string log(size, '\0');
    if (nvrtcGetProgramLog(program_, log.data()) != NVRTC_SUCCESS) return {};
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
  }

 private:
  nvrtcProgram program_ = nullptr;
};

bool is_readable_file(const std::string& path) { return ::access(path.c_str(), R_OK) == 0; }

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The toolkit's include directory as seen next to the libnvrtc this process
// actually loaded (toolkit: lib64/../include; NVIDIA wheels: lib/../include).
std::string include_dir_next_to_nvrtc() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) == 0 || info.dli_fname == nullptr) return {};
  std::string lib = info.dli_fname;
  const size_t slash = lib.rfind('/');
  if (slash == std::string::npos) return {};
  return lib.substr(0, slash) + "/../include";
}

// NVRTC has no default include path, so <cuda_fp16.h> and libcu++ resolve
// only through -I. Decided once per process: the candidates are fixed by the
// environment at startup and the answer is on every compile's path.
const std::string& toolkit_include_dir() {
  static const std::string dir = [] {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("KUMO_CUDA_INCLUDE"); env && *env) candidates.emplace_back(env);
    if (const char* env = std::getenv("CUDA_PATH"); env && *env) candidates.push_back(std::string(env) + "/include");
#ifdef KUMO_CUDA_TOOLKIT_INCLUDE
    {
      // CMake may pass a ;-separated list.
      std::string list = KUMO_CUDA_TOOLKIT_INCLUDE;
      size_t start = 0;
      while (start <= list.size()) {
        const size_t end = std::min(list.find(';', start), list.size());
        if (end > start) candidates.push_back(list.substr(start, end - start));
        start = end + 1;
      }
    }
#endif
    if (std::string next = include_dir_next_to_nvrtc(); !next.empty()) candidates.push_back(next);
    candidates.emplace_back("/usr/local/cuda/include");
    for (const std::string& c : candidates) {
      if (is_readable_file(c + "/cuda_fp16.h")) return c;
    }
    return std::string();
  }();
  return dir;
}

std::string join_options(const std::vector<std::string>& options) {
  std::string out;
  for (const std::string& o : options) {
    if (!out.empty()) out += ' ';
    out += o;
  }
  return out;
}

bool has_option_prefix(const std::vector<std::string>& options, std::initializer_list<const char*> prefixes) {
  for (const std::string& o : options) {
    for (const char* p : prefixes) {
      if (o.rfind(p, 0) == 0) return true;
    }
  }
  return false;
}

std::vector<int> nvrtc_supported_archs() {
  int n = 0;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) return {};
  std::vector<int> archs(static_cast<size_t>(n));
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return {};
  return archs;
}

// ---- Loaded-code validation ----------------------------------------------------

uint64_t read_le(const std::string& s, size_t offset, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(s[offset + i])) << (8 * i);
  return v;
}

// cudaLibraryLoadData takes no size: the driver trusts the ELF or fatbin
// headers to say how far to read. A truncated or corrupted image (a damaged
// cache entry, bytes from Python) could make it read past our buffer, so the
// headers are checked against the real size first. Anything else is handed
// over as PTX text, which the driver reads up to the NUL std::string keeps.
void validate_code_image(const std::string& code) {
  auto fail = [&](const std::string& why) {
    throw ValueError("cannot load CUDA code image of " + std::to_string(code.size()) + " bytes: " + why);
  };
  if (code.empty()) fail("it is empty");
  if (code.size() >= 4 && std::memcmp(code.data(), "\x7f" "ELF", 4) == 0) {
    constexpr size_t kElf64HeaderSize = 64;
    if (code.size() < kElf64HeaderSize) fail("truncated ELF header");
    if (code[4] != 2 || code[5] != 1) fail("not a little-endian 64-bit ELF image");
    const uint64_t phoff = read_le(code, 0x20, 8), shoff = read_le(code, 0x28, 8);
    const uint64_t phentsize = read_le(code, 0x36, 2), phnum = read_le(code, 0x38, 2);
    const uint64_t shentsize = read_le(code, 0x3A, 2), shnum = read_le(code, 0x3C, 2);
    const uint64_t size = code.size();
    if (phnum && (phoff > size || phentsize * phnum > size - phoff)) fail("truncated ELF program headers");
    if (shnum && (shoff > size || shentsize * shnum > size - shoff)) fail("truncated ELF section headers");
    if (shnum && shentsize < 0x28) fail("bad ELF section header size");
    constexpr uint32_t kShtNobits = 8;  // occupies no bytes in the file
    for (uint64_t i = 0; i < shnum; ++i) {
      const size_t sh = static_cast<size_t>(shoff + i * shentsize);
      if (read_le(code, sh + 4, 4) == kShtNobits) continue;
      const uint64_t off = read_le(code, sh + 0x18, 8), len = read_le(code, sh + 0x20, 8);
      if (off > size || len > size - off) fail("ELF section " + std::to_string(i) + " extends past the end");
    }
    return;
  }
  constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
  if (code.size() >= 4 && read_le(code, 0, 4) == kFatbinMagic) {
    if (code.size() < 16) fail("truncated fatbin header");
    const uint64_t header = read_le(code, 6, 2), body = read_le(code, 8, 8);
    if (header > code.size() || body > code.size() - header) fail("truncated fatbin");
    return;
  }
  if (code.find('\0') != std::string::npos) fail("neither an ELF cubin, a fatbin nor PTX text");
}

// ---- The backend ---------------------------------------------------------------

class NvrtcKernelBackend final : public CudaKernelBackend {
 public:
  std::string compile(const std::string& source, const std::string& program_name, int arch,
                      const std::vector<std::string>& options) override {
    return compile_module(source, program_name, arch, options, {}).cubin;
  }

  CompiledModule compile_module(const std::string& source, const std::string& program_name, int arch,
                                const std::vector<std::string>& options,
                                const std::vector<std::string>& name_expressions) override {
    return build(source, program_name, arch, options, name_expressions, /*ptx_only=*/false);
  }

  std::string compile_ptx(const std::string& source, const std::string& program_name, int arch,
                          const std::vector<std::string>& options) override {
    return build(source, program_name, arch, options, {}, /*ptx_only=*/true).cubin;
  }

  std::pair<void*, size_t> load_global(int device, const std::string& image, const std::string& name) override {
    std::lock_guard<std::mutex> lock(mutex_);
    LoadedLibrary* library = find_library(image);
    if (library == nullptr) validate_code_image(image);
    require_device(device);
    set_device(device);
    if (library == nullptr) library = &load_library(image);
    void* ptr = nullptr;
    size_t bytes = 0;
    check(cudaLibraryGetGlobal(&ptr, &bytes, library->handle, name.c_str()), "cudaLibraryGetGlobal", name,
          "device=" + std::to_string(device));
    return {ptr, bytes};
  }

  std::vector<std::pair<std::string, int>> function_attributes(int device, void* function) override {
    set_device(device);
    cudaFuncAttributes a{};
    const auto kernel = static_cast<cudaKernel_t>(function);
    check(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel)), "cudaFuncGetAttributes",
          kernel_name(kernel), "device=" + std::to_string(device));
    return {{"max_threads_per_block", a.maxThreadsPerBlock},
            {"shared_size_bytes", static_cast<int>(a.sharedSizeBytes)},
            {"const_size_bytes", static_cast<int>(a.constSizeBytes)},
            {"local_size_bytes", static_cast<int>(a.localSizeBytes)},
            {"num_regs", a.numRegs},
            {"ptx_version", a.ptxVersion},
            {"binary_version", a.binaryVersion},
            {"cache_mode_ca", a.cacheModeCA},
            {"max_dynamic_shared_size_bytes", a.maxDynamicSharedSizeBytes},
            {"preferred_shared_memory_carveout", a.preferredShmemCarveout}};
  }

  void set_function_attribute(int device, void* function, const std::string& name, int value) override {
    set_device(device);
    const auto kernel = static_cast<cudaKernel_t>(function);
    cudaFuncAttribute attr;
    if (name == "max_dynamic_shared_size_bytes") {
      attr = cudaFuncAttributeMaxDynamicSharedMemorySize;
    } else if (name == "preferred_shared_memory_carveout") {
      attr = cudaFuncAttributePreferredSharedMemoryCarveout;
    } else {
      throw ValueError("function attribute '" + name + "' cannot be set");
    }
    check(cudaKernelSetAttributeForDevice(kernel, attr, value, device), "cudaKernelSetAttributeForDevice",
          kernel_name(kernel), name, value, device);
  }

  std::string nvrtc_version() override {
    int major = 0, minor = 0;
    check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
    return std::to_string(major) + "." + std::to_string(minor);
  }

  void* load_function(int device, const std::string& cubin, const std::string& function_name) override {
    std::lock_guard<std::mutex> lock(mutex_);
    LoadedLibrary* library = find_library(cubin);
    // A bad image is the caller's error whatever the device, so it is
    // reported as such before any device is touched.
    if (library == nullptr) validate_code_image(cubin);
    require_device(device);
    set_device(device);
    if (library == nullptr) library = &load_library(cubin);
    const auto key = std::make_pair(device, function_name);
    if (auto it = library->kernels.find(key); it != library->kernels.end()) return it->second;

    cudaKernel_t kernel = nullptr;
    check(cudaLibraryGetKernel(&kernel, library->handle, function_name.c_str()), "cudaLibraryGetKernel",
          function_name);
    // Libraries load into a device's context lazily, at first launch, so an
    // image the device cannot run (sm_90 code on an sm_80 GPU) would only
    // fail there. Querying attributes loads it now, and names the kernel
    // and device in the error.
    cudaFuncAttributes attrs{};
    check(cudaFuncGetAttributes(&attrs, reinterpret_cast<const void*>(kernel)), "cudaFuncGetAttributes",
          function_name, "device=" + std::to_string(device));
    library->kernels.emplace(key, kernel);
    return kernel;
  }

  void launch(int device, void* function, const LaunchDims& dims, StreamHandle stream, void** args) override {
    set_device(device);
    const auto kernel = static_cast<cudaKernel_t>(function);
    // Above 48 KiB of dynamic shared memory a kernel must opt in.
    constexpr size_t kDefaultSharedLimit = 48 * 1024;
    if (dims.shared_bytes > kDefaultSharedLimit) {
      check(cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(dims.shared_bytes), device),
            "cudaKernelSetAttributeForDevice", kernel_name(kernel), "cudaFuncAttributeMaxDynamicSharedMemorySize",
            dims.shared_bytes, device);
    }
    const dim3 grid(dims.grid[0], dims.grid[1], dims.grid[2]);
    const dim3 block(dims.block[0], dims.block[1], dims.block[2]);
    const cudaError_t err =
        cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, dims.shared_bytes, to_stream(stream));
    if (err != cudaSuccess) {
      throw_call_failure(err, "cudaLaunchKernel", kernel_name(kernel), triple(dims.grid), triple(dims.block),
                         "shared=" + std::to_string(dims.shared_bytes), HexHandle{stream});
    }
  }

  int device_arch(int device) override {
    require_device(device);
    int major = 0, minor = 0;
    check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute",
          "cudaDevAttrComputeCapabilityMajor", device);
    check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "cudaDeviceGetAttribute",
          "cudaDevAttrComputeCapabilityMinor", device);
    return major * 10 + minor;
  }

 private:
  // NVRTC for sm_<arch> (a cubin) or, ptx_only, for the virtual
  // architecture compute_<arch> (PTX text: the front end and NVVM without
  // ptxas, about two thirds of the time).
  CompiledModule build(const std::string& source, const std::string& program_name, int arch,
                       const std::vector<std::string>& options, const std::vector<std::string>& name_expressions,
                       bool ptx_only) {
    const std::vector<int> supported = nvrtc_supported_archs();
    if (!supported.empty() && std::find(supported.begin(), supported.end(), arch) == supported.end()) {
      std::string list;
      for (int a : supported) list += (list.empty() ? "" : ", ") + std::to_string(a);
      throw CompileError("NVRTC " + nvrtc_version() + " cannot compile '" + program_name + "' for sm_" +
                       std::to_string(arch) + "; supported architectures: " + list);
    }

    std::vector<std::string> all;
    all.push_back((ptx_only ? "--gpu-architecture=compute_" : "--gpu-architecture=sm_") + std::to_string(arch));
    // The caller may pick its own language standard; NVRTC rejects two.
    if (!has_option_prefix(options, {"-std=", "--std="})) all.emplace_back("-std=c++17");
    all.emplace_back("-default-device");
    if (const std::string& inc = toolkit_include_dir(); !inc.empty()) {
      all.push_back("-I" + inc);
      if (is_directory(inc + "/cccl")) all.push_back("-I" + inc + "/cccl");
    }
    all.insert(all.end(), options.begin(), options.end());
    std::vector<const char*> argv;
    argv.reserve(all.size());
    for (const std::string& o : all) argv.push_back(o.c_str());

    NvrtcProgram program(source, program_name);
    for (const std::string& expr : name_expressions)
      check_nvrtc(nvrtcAddNameExpression(program.get(), expr.c_str()), "nvrtcAddNameExpression", expr);
    const nvrtcResult result = nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
    if (result != NVRTC_SUCCESS) {
      std::string message = "NVRTC failed to compile '" + program_name + "' (" + nvrtcGetErrorString(result) +
                            ")\noptions: " + join_options(all);
      const std::string log = program.log();
      message += log.empty() ? std::string("\n(no compiler log)") : "\n" + log;
      throw CompileError(message);
    }
    size_t size = 0;
    CompiledModule out;
    if (ptx_only) {
      check_nvrtc(nvrtcGetPTXSize(program.get(), &size), "nvrtcGetPTXSize", program_name);
      std::string ptx(size, '\0');
      check_nvrtc(nvrtcGetPTX(program.get(), ptx.data()), "nvrtcGetPTX", program_name);
      if (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
      if (ptx.empty()) throw CompileError("NVRTC produced no PTX for '" + program_name + "' (compute_" + std::to_string(arch) + ")");
      out.cubin = std::move(ptx);
      return out;
    }
    check_nvrtc(nvrtcGetCUBINSize(program.get(), &size), "nvrtcGetCUBINSize", program_name);
    if (size == 0) throw CompileError("NVRTC produced no cubin for '" + program_name + "' (sm_" + std::to_string(arch) + ")");
    std::string cubin(size, '\0');
    check_nvrtc(nvrtcGetCUBIN(program.get(), cubin.data()), "nvrtcGetCUBIN", program_name);
    out.cubin = std::move(cubin);
    for (const std::string& expr : name_expressions) {
      const char* lowered = nullptr;
      const nvrtcResult r = nvrtcGetLoweredName(program.get(), expr.c_str(), &lowered);
      if (r != NVRTC_SUCCESS || lowered == nullptr)
        throw CompileError("NVRTC has no lowered name for the name expression '" + expr + "' in '" + program_name +
                           "' (" + nvrtcGetErrorString(r) + ")");
      out.lowered_names.emplace_back(lowered);
    }
    return out;
  }

  struct LoadedLibrary {
    std::string image;  // kept for exact comparison on hash collisions
    cudaLibrary_t handle = nullptr;
    std::map<std::pair<int, std::string>, cudaKernel_t> kernels;  // (device, name)
  };

  static std::string triple(const unsigned (&v)[3]) {
    return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
  }

  static std::string kernel_name(cudaKernel_t kernel) {
    const char* name = nullptr;
    if (cudaFuncGetName(&name, reinterpret_cast<const void*>(kernel)) != cudaSuccess || name == nullptr) {
      clear_last_error();
      return "<kernel>";
    }
    return name;
  }

  static size_t image_hash(const std::string& image) { return std::hash<std::string>{}(image); }

  // Caller holds mutex_.
  LoadedLibrary* find_library(const std::string& image) {
    auto it = libraries_.find(image_hash(image));
    if (it == libraries_.end()) return nullptr;
    for (auto& lib : it->second) {
      if (lib->image == image) return lib.get();
    }
    return nullptr;
  }

  // Caller holds mutex_, has validated the image and made the device
  // current. Libraries are never unloaded: function handles given out must
  // stay valid for the life of the process.
  LoadedLibrary& load_library(const std::string& image) {
    auto lib = std::make_unique<LoadedLibrary>();
    lib->image = image;
    check(cudaLibraryLoadData(&lib->handle, lib->image.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0),
          "cudaLibraryLoadData", std::to_string(image.size()) + " bytes");
    auto& bucket = libraries_[image_hash(image)];
    bucket.push_back(std::move(lib));
    return *bucket.back();
  }

  std::mutex mutex_;
  std::unordered_map<size_t, std::vector<std::unique_ptr<LoadedLibrary>>> libraries_;
};

}  // namespace

CudaKernelBackend& nvrtc_kernel_backend() {
  static NoDestructor<NvrtcKernelBackend> backend;
  return backend.get();
}

}  // namespace cuda_detail
}  // namespace kumo
