#include "kernels/host/host_compiler.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>

#include "core/errors.h"
#include "kernels/codegen.h"
#include "kernels/kernel_cache.h"

namespace kumo {
namespace kernels {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs a shell command, returning its exit status and combined output.
int run_command(const std::string& cmd, std::string* output) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) output->append(buf.data(), n);
  int status = pclose(p);
  if (status == -1) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string unique_suffix() {
  static thread_local std::mt19937_64 rng(std::random_device{}() ^ static_cast<uint64_t>(getpid()));
  std::ostringstream os;
  os << getpid() << "_" << std::hex << rng();
  return os.str();
}

std::string cpu_identity() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, model, flags;
  while (std::getline(f, line)) {
    if (model.empty() && line.rfind("model name", 0) == 0) model = line;
    if (flags.empty() && line.rfind("flags", 0) == 0) flags = line;
    if (!model.empty() && !flags.empty()) break;
  }
  return model + "|" + flags;
}

// A generated kernel that starts with the host prologue (the prelude and
// the support structs, ~1700 lines that every kernel repeats) compiles
// with the prologue's precompiled header instead: GCC then spends about
// half the CPU time on a small kernel. A #line keeps the line numbers of
// compiler messages those of the full source.
std::string with_precompiled_prologue(const std::string& source) {
  const std::string& prologue = kernel_prologue(Target::kHost);
  if (source.compare(0, prologue.size(), prologue) != 0) return source;
  const std::string pch = precompiled_header("kumo_host_prologue.h", prologue);
  if (pch.empty()) return source;
  static const size_t prologue_lines = static_cast<size_t>(std::count(prologue.begin(), prologue.end(), '\n'));
  return "#include \"" + pch + "\"\n#line " + std::to_string(prologue_lines + 1) + "\n" +
         source.substr(prologue.size());
}

}  // namespace

std::string precompiled_header(const std::string& file_name, const std::string& text) {
  for (const char* name : {"KUMO_HOST_PCH", "KUMO_CUDA_HOST_PCH"}) {
    const char* env = std::getenv(name);
    if (env && std::string(env) == "0") return "";
  }
  namespace fs = std::filesystem;
  static std::mutex mu;
  const std::string key = content_hash(file_name + '\0' + text + '\0' + host_compile_flags() + '\0' +
                                       host_compiler_identity());
  // In the cache directory of the moment (KUMO_CACHE_DIR may change).
  const std::string dir = cache_dir() + "/pch/" + key;
  const std::string header = dir + "/" + file_name, gch = header + ".gch";
  std::lock_guard<std::mutex> lk(mu);
  std::error_code ec;
  if (fs::exists(gch, ec) && fs::exists(header, ec)) return header;
  fs::create_directories(dir, ec);
  if (ec) return "";
  // Written under temporary names and renamed into place, so processes
  // that make the same header at once never see half a file.
  const std::string suffix = "." + unique_suffix() + ".tmp";
  {
    std::ofstream f(header + suffix, std::ios::binary);
    f << text;
    if (!f) return "";
  }
  fs::rename(header + suffix, header, ec);
  if (ec) return "";
  std::string flags = host_compile_flags();
  const size_t shared = flags.find(" -shared");
  if (shared != std::string::npos) flags.erase(shared, 8);
  const std::string cmd = host_compiler_command() + " " + flags + " -x c++-header -o '" + gch + suffix + "' '" +
                          header + "'";
  std::string log;
  if (run_command(cmd, &log) != 0) {
    fs::remove(gch + suffix, ec);
    return "";
  }
  fs::rename(gch + suffix, gch, ec);
  if (ec) return "";
  return header;
}

std::string host_compiler_command() {
  const char* env = std::getenv("KUMO_HOST_CXX");
  return (env && *env) ? std::string(env) : std::string("c++");
}

const std::string& host_compile_flags() {
  // -fno-math-errno lets sqrt and friends vectorize; -fwrapv makes signed
  // overflow wrap as NumPy integers do. IEEE semantics of NaN, inf and
  // signed zero are untouched. (-fno-trapping-math is not used globally:
  // GCC 12 miscompiles lexicographic complex selects under it.)
  static const std::string flags = "-std=c++17 -O3 -march=native -fPIC -shared -fno-math-errno -fwrapv -w";
  return flags;
}

const std::string& host_compiler_identity() {
  static const std::string id = [] {
    std::string out;
    int rc = run_command(host_compiler_command() + " --version", &out);
    std::string first = out.substr(0, out.find('\n'));
    if (rc != 0) first = "unavailable";
    return host_compiler_command() + "|" + first + "|" + cpu_identity();
  }();
  return id;
}

std::string compile_host_shared_object(const std::string& source, const std::string& work_dir) {
  return compile_host_shared_object(source, work_dir, {});
}

std::string compile_host_shared_object(const std::string& source, const std::string& work_dir,
                                       const std::vector<std::string>& extra_flags) {
  // Extra flags come from users (RawModule options): each is single-quoted
  // for the shell, after the fixed flags so that e.g. -std= overrides.
  std::string extra;
  for (const std::string& flag : extra_flags) {
    std::string quoted = "'";
    for (char c : flag) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    extra += " " + quoted + "'";
  }
  const std::string base = work_dir + "/kumo_kernel_" + unique_suffix();
  const std::string src = base + ".cpp", out = base + ".so";
  {
    std::ofstream f(src, std::ios::binary);
    // User flags (-D, -I, -std=) could change what the prologue means, and
    // GCC would refuse a .gch made without them: those kernels compile whole.
    f << (extra_flags.empty() ? with_precompiled_prologue(source) : source);
    if (!f) throw CompileError("cannot write kernel source to " + src);
  }
  const std::string cxx = host_compiler_command();
  const std::string cmd = cxx + " " + host_compile_flags() + extra + " -o '" + out + "' '" + src + "'";
  std::string log;
  int rc = run_command(cmd, &log);
  if (rc == 127 || rc == -1) {
    std::remove(src.c_str());
    throw CompileError("the host C++ compiler '" + cxx +
                       "' could not be run (exit status " + std::to_string(rc) +
                       "); install a C++ compiler or point KUMO_HOST_CXX at one. Output: " + log);
  }
  if (rc != 0) {
    // Keep the source for the user to inspect.
    throw CompileError("host kernel compilation failed (exit status " + std::to_string(rc) + ")\ncommand: " + cmd +
                       "\nsource kept at: " + src + "\n" + log);
  }
  std::string bytes = read_file(out);
  std::remove(src.c_str());
  std::remove(out.c_str());
  if (bytes.empty()) throw CompileError("host compiler produced no output: " + cmd);
  return bytes;
}

}  // namespace kernels
}  // namespace kumo
