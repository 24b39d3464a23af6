// Exception types of the C++ core. Each maps to the Python exception NumPy
// raises in the same situation (see bindings/errors.cpp).
#pragma once
#include <stdexcept>
#include <string>

namespace kumo {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ValueError : public Error { public: using Error::Error; };
class TypeError : public Error { public: using Error::Error; };
class IndexError : public Error { public: using Error::Error; };
// numpy.exceptions.AxisError: both a ValueError and an IndexError in Python.
class AxisError : public Error { public: using Error::Error; };
class OverflowError : public Error { public: using Error::Error; };
// Python's ZeroDivisionError (numpy.arange with a zero step).
class ZeroDivisionError : public Error { public: using Error::Error; };
// Raised when a ufunc cannot cast under the requested casting rule
// (numpy's UFuncTypeError family; a TypeError in Python).
class CastingError : public TypeError { public: using TypeError::TypeError; };
// numpy.linalg.LinAlgError (a ValueError subclass in NumPy): a matrix is
// singular, not positive definite, or an algorithm did not converge.
class LinAlgError : public ValueError { public: using ValueError::ValueError; };
// A device mixing or device-state problem (e.g. arrays on two devices in one op).
class DeviceError : public Error { public: using Error::Error; };
// Kernel compilation failed; the message carries the compiler log.
class CompileError : public Error { public: using Error::Error; };
// The memory pool could not satisfy a request even after releasing its cache.
class OutOfMemoryError : public Error { public: using Error::Error; };
// An array cannot be exchanged through a buffer protocol (DLPack): Python's
// BufferError.
class BufferError : public Error { public: using Error::Error; };
// A system/driver call failed; message names the call and its arguments.
class RuntimeError : public Error { public: using Error::Error; };
// A file operation failed (Python's OSError; errno picks the subclass, e.g.
// FileNotFoundError). The message names the call and the path.
class OSError : public Error {
 public:
  OSError(int error_number, const std::string& message) : Error(message), errno_(error_number) {}
  int error_number() const { return errno_; }

 private:
  int errno_;
};

}  // namespace kumo
