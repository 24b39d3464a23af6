// Compiles generated host kernels with the system C++ compiler.
#pragma once
#include <string>
#include <vector>

namespace kumo {
namespace kernels {

// The compiler command (KUMO_HOST_CXX, default "c++").
std::string host_compiler_command();
// Flags used for every host kernel.
const std::string& host_compile_flags();
// First line of `<compiler> --version` plus the CPU model/flags (for -march=native):
// part of every host cache key.
const std::string& host_compiler_identity();
// Compiles `source` into a shared object and returns its bytes. Throws
// CompileError with the compiler log (or a clear message naming
// KUMO_HOST_CXX when the compiler cannot be run).
std::string compile_host_shared_object(const std::string& source, const std::string& work_dir);
// The same with extra compiler flags (user options such as -DNAME=1, -Idir,
// -std=c++20) placed after the fixed ones.
std::string compile_host_shared_object(const std::string& source, const std::string& work_dir,
                                       const std::vector<std::string>& extra_flags);

}  // namespace kernels
}  // namespace kumo
