// Warnings (NumPy's RuntimeWarning and friends) raised by C++ routines.
//
// A routine calls warn() and goes on, as NumPy does. Where the warning goes
// is the handler's choice: the Python module sends it to Python's warnings
// machinery (so filters, `warnings.catch_warnings` and -W error work, the
// last by making the handler throw); C++ programs get one line on stderr
// unless they install a handler of their own.
#pragma once
#include <functional>
#include <string>

#include "core/dtype.h"

namespace kumo {

// kComplex: NumPy's ComplexWarning (a complex value cast to a real dtype).
enum class WarningCategory { kRuntime, kDeprecation, kUser, kComplex };

using WarningHandler = std::function<void(WarningCategory category, const std::string& message)>;

// Reports a warning to the current handler (which may throw).
void warn(const std::string& message, WarningCategory category = WarningCategory::kRuntime);

// NumPy's ComplexWarning for a cast of `from` values into `to` that drops an
// imaginary part (complex to a real dtype; bool takes only the truth value).
void warn_if_complex_to_real(Dtype from, Dtype to);

// Installs a process-wide handler and returns the previous one; a null
// handler restores the default (stderr).
WarningHandler set_warning_handler(WarningHandler handler);

}  // namespace kumo
