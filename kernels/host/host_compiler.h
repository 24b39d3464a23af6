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

// A precompiled header (GCC's .gch) of `text` for the host kernel flags, in
// the kernel cache under pch/<hash of text, flags, compiler>/<file_name>.
// Returns the header's path, to #include as the first line of a kernel, or
// "" when none can be made (an unwritable cache, a compiler without PCH,
// KUMO_HOST_PCH=0). The header's text lies beside its .gch, and a compiler
// that finds the .gch unusable reads the text instead, so including the path
// is always correct.
std::string precompiled_header(const std::string& file_name, const std::string& text);

}  // namespace kernels
}  // namespace kumo
