// Two-level kernel cache: compiled kernels are kept in memory for the
// process and on disk (KUMO_CACHE_DIR, default ~/.cache/kumo/kernels) across
// processes. Keys hash the generated source, the options, the compiler's
// identity and the target, so any change rebuilds. Disk entries are written
// atomically and carry a checksum; a damaged entry is rebuilt, never loaded.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kumo {
namespace kernels {

// 128-bit content hash as 32 hex digits.
std::string content_hash(const std::string& data);

std::string cache_dir();

// Reads a verified entry; nullopt if missing or damaged (a damaged entry is removed).
std::optional<std::string> read_cache_entry(const std::string& subdir, const std::string& file_name);
// Writes an entry atomically (temp file + rename, then its checksum sidecar).
// Failure to write (read-only disk) is ignored: the cache is an optimisation.
void write_cache_entry(const std::string& subdir, const std::string& file_name, const std::string& bytes);
// Path an entry has on disk (for dlopen after read_cache_entry verified it).
std::string cache_entry_path(const std::string& subdir, const std::string& file_name);

// A loaded host shared object. Never unloaded: function pointers from it
// may be held by caches for the life of the process.
class HostModule {
 public:
  explicit HostModule(void* handle, std::string key) : handle_(handle), key_(std::move(key)) {}
  void* symbol(const char* name) const;  // throws CompileError if missing
  const std::string& key() const { return key_; }

 private:
  void* handle_;
  std::string key_;
};

// Returns the module for this host source: memory cache, then disk, then
// the host compiler.
std::shared_ptr<HostModule> get_host_module(const std::string& source);
// The same with extra host compiler flags (part of the key).
std::shared_ptr<HostModule> get_host_module(const std::string& source, const std::vector<std::string>& extra_flags);

// Returns the cubin for this CUDA source and architecture: memory, disk, NVRTC.
std::string get_cuda_cubin(const std::string& source, int arch, const std::vector<std::string>& options);

// KUMO_VERIFY_CUDA=1: every host kernel generated is also compiled for CUDA.
bool verify_cuda_enabled();
// Compiles (through the cache) to PTX for compute_80: the source is valid CUDA C++.
void verify_cuda_source(const std::string& source, const std::vector<std::string>& options);

struct KernelCacheStats {
  uint64_t memory_hits = 0;
  uint64_t disk_hits = 0;
  uint64_t host_compiles = 0;
  uint64_t cuda_compiles = 0;
  uint64_t cuda_disk_hits = 0;
  double host_compile_seconds = 0;
  double cuda_compile_seconds = 0;
};
KernelCacheStats kernel_cache_stats();
// Forgets the in-memory level (modules stay loaded); for tests and benchmarks.
void clear_memory_cache();

}  // namespace kernels
}  // namespace kumo
