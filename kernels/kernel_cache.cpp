#include "kernels/kernel_cache.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <unordered_map>

#include "core/cuda_plugin.h"
#include "core/errors.h"
#include "kernels/host/host_compiler.h"

namespace kumo {
namespace kernels {

namespace {

uint64_t fnv1a(const std::string& s, uint64_t h) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

uint64_t mix64(const std::string& s) {
  // A second, independent 64-bit hash (splitmix over 8-byte words).
  uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h ^= w;
    h += 0x9E3779B97F4A7C15ull;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001B3ull;
  return h;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

bool make_dirs(const std::string& path) {
  std::string cur;
  for (size_t i = 0; i < path.size(); ++i) {
    cur += path[i];
    if ((path[i] == '/' && i > 0) || i + 1 == path.size()) mkdir(cur.c_str(), 0755);
  }
  return access(path.c_str(), W_OK) == 0;
}

// Where kernels are compiled: the cache's tmp/ when it is writable, else a
// private directory (a read-only cache must not stop kernels from working).
std::string compile_dir() {
  std::string dir = cache_dir() + "/tmp";
  if (make_dirs(dir)) return dir;
  static const std::string private_dir = [] {
    char tmpl[] = "/tmp/kumo-kernels-XXXXXX";
    const char* d = mkdtemp(tmpl);
    return std::string(d ? d : "/tmp");
  }();
  return private_dir;
}

std::string read_file(const std::string& path, bool* ok) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    *ok = false;
    return {};
  }
  std::stringstream ss;
  ss << f.rdbuf();
  *ok = true;
  return ss.str();
}

bool write_atomic(const std::string& path, const std::string& bytes) {
  static thread_local std::mt19937_64 rng(std::random_device{}());
  std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + hex64(rng());
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) return false;
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

std::string checksum_line(const std::string& bytes) {
  return "kumo-cache-v1 " + std::to_string(bytes.size()) + " " + content_hash(bytes) + "\n";
}

struct State {
  std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<HostModule>> host_modules;
  std::unordered_map<std::string, std::string> cubins;
  std::unordered_map<std::string, bool> verified;
  KernelCacheStats stats;
};

State& state() {
  static State* s = new State();
  return *s;
}

// Compilation of one key happens once even when threads race for it.
std::mutex& compile_mutex() {
  static std::mutex* m = new std::mutex();
  return *m;
}

// Serialises the compilation of one cache entry across processes (pytest's
// workers, a user's parallel jobs): the first process to miss takes the
// lock and compiles; the others wait for it and then read the entry it
// wrote, so a kernel is compiled once per machine, not once per process.
// The lock is flock(2) on one of 256 files picked by the key, so the
// cache gains 256 files rather than one per kernel, and the kernel releases
// it if its holder dies. Without a writable cache nothing is locked.
class CompileLock {
 public:
  explicit CompileLock(const std::string& key) {
    const std::string dir = cache_dir() + "/locks";
    if (key.size() < 2 || !make_dirs(dir)) return;
    fd_ = ::open((dir + "/" + key.substr(0, 2) + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {  // e.g. a file system without locks: go on unlocked
        ::close(fd_);
        fd_ = -1;
        return;
      }
    }
  }
  ~CompileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  CompileLock(const CompileLock&) = delete;
  CompileLock& operator=(const CompileLock&) = delete;

 private:
  int fd_ = -1;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string content_hash(const std::string& data) {
  return hex64(fnv1a(data, 1469598103934665603ull)) + hex64(mix64(data));
}

std::string cache_dir() {
  const char* env = std::getenv("KUMO_CACHE_DIR");
  if (env && *env) return env;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/kumo/kernels";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.cache/kumo/kernels";
  return "/tmp/kumo-cache/kernels";
}

std::string cache_entry_path(const std::string& subdir, const std::string& file_name) {
  return cache_dir() + "/" + subdir + "/" + file_name;
}

std::optional<std::string> read_cache_entry(const std::string& subdir, const std::string& file_name) {
  const std::string path = cache_entry_path(subdir, file_name);
  bool ok_data = false, ok_sum = false;
  std::string sum = read_file(path + ".sum", &ok_sum);
  if (!ok_sum) return std::nullopt;
  std::string data = read_file(path, &ok_data);
  if (ok_data && sum == checksum_line(data)) return data;
  // Damaged or half-written: drop it so it is rebuilt.
  std::remove(path.c_str());
  std::remove((path + ".sum").c_str());
  return std::nullopt;
}

void write_cache_entry(const std::string& subdir, const std::string& file_name, const std::string& bytes) {
  const std::string dir = cache_dir() + "/" + subdir;
  if (!make_dirs(dir)) return;
  const std::string path = dir + "/" + file_name;
  // Data first, then the checksum that vouches for it.
  if (write_atomic(path, bytes)) write_atomic(path + ".sum", checksum_line(bytes));
}

void* HostModule::symbol(const char* name) const {
  void* p = dlsym(handle_, name);
  if (!p) throw CompileError(std::string("kernel module ") + key_ + " has no symbol " + name);
  return p;
}

std::shared_ptr<HostModule> get_host_module(const std::string& source) { return get_host_module(source, {}); }

std::shared_ptr<HostModule> get_host_module(const std::string& source, const std::vector<std::string>& extra_flags) {
  State& st = state();
  // Without extra flags the key is what it always was, so existing disk
  // entries stay valid.
  std::string flags = host_compile_flags();
  for (const std::string& f : extra_flags) flags += '\0' + f;
  const std::string key = content_hash(source + '\0' + flags + '\0' + host_compiler_identity());
  {
    std::lock_guard<std::mutex> lk(st.mu);
    auto it = st.host_modules.find(key);
    if (it != st.host_modules.end()) {
      ++st.stats.memory_hits;
      return it->second;
    }
  }
  std::lock_guard<std::mutex> compile_lock(compile_mutex());
  {
    std::lock_guard<std::mutex> lk(st.mu);
    auto it = st.host_modules.find(key);
    if (it != st.host_modules.end()) return it->second;
  }
  const std::string file = key + ".so";
  bool from_disk = read_cache_entry("host", file).has_value();
  std::optional<CompileLock> process_lock;
  if (!from_disk) {
    process_lock.emplace(key);  // another process may be compiling it now
    from_disk = read_cache_entry("host", file).has_value();
  }
  if (!from_disk) {
    auto t0 = std::chrono::steady_clock::now();
    const std::string dir = compile_dir();
    std::string bytes = compile_host_shared_object(source, dir, extra_flags);
    write_cache_entry("host", file, bytes);
    {
      std::lock_guard<std::mutex> lk(st.mu);
      ++st.stats.host_compiles;
      st.stats.host_compile_seconds += seconds_since(t0);
    }
    if (!read_cache_entry("host", file)) {
      // The cache directory is not writable: load from a private temp file.
      const std::string tmp = dir + "/" + key + "." + std::to_string(getpid()) + ".so";
      std::ofstream f(tmp, std::ios::binary);
      f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      f.close();
      void* h = dlopen(tmp.c_str(), RTLD_NOW | RTLD_LOCAL);
      std::remove(tmp.c_str());
      if (!h) throw CompileError(std::string("cannot load compiled kernel: ") + dlerror());
      auto mod = std::make_shared<HostModule>(h, key);
      std::lock_guard<std::mutex> lk(st.mu);
      st.host_modules[key] = mod;
      return mod;
    }
  } else {
    std::lock_guard<std::mutex> lk(st.mu);
    ++st.stats.disk_hits;
  }
  const std::string path = cache_entry_path("host", file);
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    // A file that passed its checksum but does not load (e.g. built for
    // another CPU): drop it and build it again, once.
    std::string first_error = dlerror();
    std::remove(path.c_str());
    std::remove((path + ".sum").c_str());
    std::string bytes = compile_host_shared_object(source, compile_dir(), extra_flags);
    write_cache_entry("host", file, bytes);
    h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) throw CompileError("cannot load kernel " + path + ": " + first_error + "; after rebuilding: " + dlerror());
  }
  auto mod = std::make_shared<HostModule>(h, key);
  std::lock_guard<std::mutex> lk(st.mu);
  st.host_modules[key] = mod;
  return mod;
}

std::string get_cuda_cubin(const std::string& source, int arch, const std::vector<std::string>& options) {
  CudaPlugin* plugin = cuda_plugin();
  if (!plugin) throw CompileError("CUDA compilation needs the CUDA plugin: " + cuda_plugin_load_error());
  CudaKernelBackend& backend = plugin->kernels();
  std::string opts;
  for (const std::string& o : options) opts += o + '\0';
  const std::string key = content_hash(source + '\0' + opts + '\0' + "nvrtc " + backend.nvrtc_version() + '\0' +
                                       "sm_" + std::to_string(arch));
  State& st = state();
  {
    std::lock_guard<std::mutex> lk(st.mu);
    auto it = st.cubins.find(key);
    if (it != st.cubins.end()) {
      ++st.stats.memory_hits;
      return it->second;
    }
  }
  const std::string file = key + ".cubin";
  std::optional<std::string> cached = read_cache_entry("cuda", file);
  std::optional<CompileLock> process_lock;
  if (!cached) {
    process_lock.emplace(key);  // another process may be compiling it now
    cached = read_cache_entry("cuda", file);
  }
  std::string cubin;
  if (cached) {
    cubin = std::move(*cached);
    std::lock_guard<std::mutex> lk(st.mu);
    ++st.stats.cuda_disk_hits;
  } else {
    auto t0 = std::chrono::steady_clock::now();
    cubin = backend.compile(source, "kumo_kernel.cu", arch, options);
    write_cache_entry("cuda", file, cubin);
    std::lock_guard<std::mutex> lk(st.mu);
    ++st.stats.cuda_compiles;
    st.stats.cuda_compile_seconds += seconds_since(t0);
  }
  std::lock_guard<std::mutex> lk(st.mu);
  st.cubins[key] = cubin;
  return cubin;
}

bool verify_cuda_enabled() {
  static const bool enabled = [] {
    const char* env = std::getenv("KUMO_VERIFY_CUDA");
    return env && *env && std::string(env) != "0";
  }();
  return enabled;
}

// The generated kernels have no architecture-dependent code (no
// __CUDA_ARCH__ tests), so whether one compiles is decided by NVRTC's front
// end and NVVM for one architecture: compute_80, the oldest kumo supports,
// as PTX. ptxas and a second architecture would triple the time (about
// 0.17 s instead of 0.06 s a kernel) and check nothing more. The PTX is
// cached on disk like the cubins, so a second run compiles nothing.
void verify_cuda_source(const std::string& source, const std::vector<std::string>& options) {
  constexpr int kVerifyArch = 80;
  State& st = state();
  const std::string memory_key = content_hash(source);
  {
    std::lock_guard<std::mutex> lk(st.mu);
    if (st.verified.count(memory_key)) return;
  }
  CudaPlugin* plugin = cuda_plugin();
  if (!plugin) throw CompileError("CUDA compilation needs the CUDA plugin: " + cuda_plugin_load_error());
  CudaKernelBackend& backend = plugin->kernels();
  std::string opts;
  for (const std::string& o : options) opts += o + '\0';
  const std::string key = content_hash(source + '\0' + opts + '\0' + "nvrtc " + backend.nvrtc_version() + '\0' +
                                       "compute_" + std::to_string(kVerifyArch));
  const std::string file = key + ".ptx";
  std::optional<std::string> cached = read_cache_entry("cuda", file);
  std::optional<CompileLock> process_lock;
  if (!cached) {
    process_lock.emplace(key);  // another process may be compiling it now
    cached = read_cache_entry("cuda", file);
  }
  if (cached) {
    std::lock_guard<std::mutex> lk(st.mu);
    ++st.stats.cuda_disk_hits;
  } else {
    auto t0 = std::chrono::steady_clock::now();
    write_cache_entry("cuda", file, backend.compile_ptx(source, "kumo_kernel.cu", kVerifyArch, options));
    std::lock_guard<std::mutex> lk(st.mu);
    ++st.stats.cuda_compiles;
    st.stats.cuda_compile_seconds += seconds_since(t0);
  }
  std::lock_guard<std::mutex> lk(st.mu);
  st.verified[memory_key] = true;
}

KernelCacheStats kernel_cache_stats() {
  std::lock_guard<std::mutex> lk(state().mu);
  return state().stats;
}

void clear_memory_cache() {
  std::lock_guard<std::mutex> lk(state().mu);
  state().host_modules.clear();
  state().cubins.clear();
  state().verified.clear();
}

}  // namespace kernels
}  // namespace kumo
