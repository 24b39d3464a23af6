// Floating-point error handling as NumPy's errstate/seterr/seterrcall.
//
// Host kernels run with the CPU's floating-point status flags cleared before
// and read after each range they compute (kernels/launch.cpp); what they
// raised is recorded for the thread that issued the operation. The routines
// NumPy reports errors for (a ufunc call, a reduction, an accumulation) then
// call check_fp_errors(name), which acts per category as this thread's
// FpErrorState says: ignore, warn (RuntimeWarning "divide by zero
// encountered in divide"), raise (FloatingPointError), or hand the error to
// the call/print/log handler. CUDA kernels have no status flags: operations
// on a GPU report nothing, as CuPy's.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "core/errors.h"

namespace kumo {

// Python's FloatingPointError (numpy.errstate(...='raise')).
class FloatingPointError : public Error { public: using Error::Error; };

enum class FpMode : uint8_t { kIgnore, kWarn, kRaise, kCall, kPrint, kLog };
const char* fp_mode_name(FpMode mode);
FpMode fp_mode_from_name(const std::string& name);  // ValueError for an unknown one

// The floating-point error categories, as bits.
enum FpFlag : int { kFpDivide = 1, kFpOverflow = 2, kFpUnderflow = 4, kFpInvalid = 8 };

// NumPy's defaults: divide, over and invalid warn; underflow is ignored.
struct FpErrorState {
  FpMode divide = FpMode::kWarn;
  FpMode over = FpMode::kWarn;
  FpMode under = FpMode::kIgnore;
  FpMode invalid = FpMode::kWarn;
  static FpErrorState all(FpMode mode) { return FpErrorState{mode, mode, mode, mode}; }
};

// This thread's state, and setting it (the previous one is returned).
const FpErrorState& fp_error_state();
FpErrorState set_fp_error_state(const FpErrorState& state);

// Sets a state for a scope and restores the previous one (routines that
// compute intermediate infinities or NaNs on purpose use it to stay quiet).
class FpErrorScope {
 public:
  explicit FpErrorScope(const FpErrorState& state) : previous_(set_fp_error_state(state)) {}
  ~FpErrorScope() { set_fp_error_state(previous_); }
  FpErrorScope(const FpErrorScope&) = delete;
  FpErrorScope& operator=(const FpErrorScope&) = delete;

 private:
  FpErrorState previous_;
};

// What kCall, kPrint and kLog do: the bindings install Python's seterrcall
// behaviour; the default writes the message to stderr.
using FpErrorHandler = std::function<void(FpMode mode, const std::string& kind, int flag, const std::string& message)>;
FpErrorHandler set_fp_error_handler(FpErrorHandler handler);

// Flags (FpFlag bits) raised by kernels since the last take, for this thread.
void record_fp_flags(int flags);
int take_fp_flags();

// Reads and clears the CPU's status flags of the calling thread (FpFlag bits).
void clear_cpu_fp_flags();
int read_cpu_fp_flags();

// Reports each category in `flags` as the state says, naming `operation`
// ("divide by zero encountered in divide"). Raising (FloatingPointError, or
// what a warning filter turns into an error) comes out of this call.
void report_fp_errors(int flags, const char* operation);
// report_fp_errors(take_fp_flags(), operation). No flags: nothing happens, cheaply.
void check_fp_errors(const char* operation);
void check_fp_errors(const std::string& operation);

}  // namespace kumo
