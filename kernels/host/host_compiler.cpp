#include "kernels/host/host_compiler.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "core/errors.h"

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

}  // namespace

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
    f << source;
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
