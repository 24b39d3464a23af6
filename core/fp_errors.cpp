#include "core/fp_errors.h"

#include <cfenv>
#include <cstdio>
#include <mutex>
#include <utility>

#include "core/warnings.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KUMO_FP_MXCSR 1
#endif

namespace kumo {

namespace {

thread_local FpErrorState t_state;
thread_local int t_flags = 0;

std::mutex& handler_mutex() {
  static std::mutex mu;
  return mu;
}
FpErrorHandler& handler() {
  static FpErrorHandler h;
  return h;
}

#ifdef KUMO_FP_MXCSR
// The SSE status bits of MXCSR: invalid (0), denormal (1), divide by zero
// (2), overflow (3), underflow (4), precision (5). Kernels use SSE/AVX, not
// the x87 unit, so MXCSR alone holds what they raised, and reading it costs
// a few cycles where fetestexcept also reads the x87 status word.
constexpr unsigned kMxcsrFlags = 0x3f;
#endif

}  // namespace

const char* fp_mode_name(FpMode mode) {
  switch (mode) {
    case FpMode::kIgnore: return "ignore";
    case FpMode::kWarn: return "warn";
    case FpMode::kRaise: return "raise";
    case FpMode::kCall: return "call";
    case FpMode::kPrint: return "print";
    case FpMode::kLog: return "log";
  }
  return "ignore";
}

FpMode fp_mode_from_name(const std::string& name) {
  for (FpMode m : {FpMode::kIgnore, FpMode::kWarn, FpMode::kRaise, FpMode::kCall, FpMode::kPrint, FpMode::kLog})
    if (name == fp_mode_name(m)) return m;
  throw ValueError("invalid error mode '" + name + "' (one of 'ignore', 'warn', 'raise', 'call', 'print', 'log')");
}

const FpErrorState& fp_error_state() { return t_state; }

FpErrorState set_fp_error_state(const FpErrorState& state) { return std::exchange(t_state, state); }

FpErrorHandler set_fp_error_handler(FpErrorHandler h) {
  std::lock_guard<std::mutex> lk(handler_mutex());
  return std::exchange(handler(), std::move(h));
}

void record_fp_flags(int flags) { t_flags |= flags; }

int take_fp_flags() { return std::exchange(t_flags, 0); }

void clear_cpu_fp_flags() {
#ifdef KUMO_FP_MXCSR
  _mm_setcsr(_mm_getcsr() & ~kMxcsrFlags);
#else
  std::feclearexcept(FE_ALL_EXCEPT);
#endif
}

int read_cpu_fp_flags() {
#ifdef KUMO_FP_MXCSR
  const unsigned s = _mm_getcsr();
  return ((s & 0x04) ? kFpDivide : 0) | ((s & 0x08) ? kFpOverflow : 0) | ((s & 0x10) ? kFpUnderflow : 0) |
         ((s & 0x01) ? kFpInvalid : 0);
#else
  const int s = std::fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
  return ((s & FE_DIVBYZERO) ? kFpDivide : 0) | ((s & FE_OVERFLOW) ? kFpOverflow : 0) |
         ((s & FE_UNDERFLOW) ? kFpUnderflow : 0) | ((s & FE_INVALID) ? kFpInvalid : 0);
#endif
}

void check_fp_errors(const char* operation) {
  if (t_flags == 0) return;
  report_fp_errors(take_fp_flags(), operation);
}

void report_fp_errors(int flags, const char* operation) {
  if (flags == 0) return;
  // NumPy's order: divide, over, under, invalid.
  struct Category {
    int flag;
    FpMode mode;
    const char* kind;
  };
  const FpErrorState& s = t_state;
  const Category categories[] = {{kFpDivide, s.divide, "divide by zero"},
                                 {kFpOverflow, s.over, "overflow"},
                                 {kFpUnderflow, s.under, "underflow"},
                                 {kFpInvalid, s.invalid, "invalid value"}};
  for (const Category& c : categories) {
    if (!(flags & c.flag) || c.mode == FpMode::kIgnore) continue;
    const std::string message = std::string(c.kind) + " encountered in " + operation;
    switch (c.mode) {
      case FpMode::kWarn: warn(message); break;
      case FpMode::kRaise: throw FloatingPointError(message);
      default: {
        FpErrorHandler h;
        {
          std::lock_guard<std::mutex> lk(handler_mutex());
          h = handler();
        }
        if (h) h(c.mode, c.kind, c.flag, message);
        else std::fprintf(stderr, "Warning: %s\n", message.c_str());
      }
    }
  }
}

void check_fp_errors(const std::string& operation) { check_fp_errors(operation.c_str()); }

}  // namespace kumo
