// The deadline of blocking MPI calls. Open MPI's blocking collectives use
// its tuned algorithms, up to twice as fast as the schedules of the
// nonblocking ones, but a blocking call cannot be interrupted: a watchdog
// thread aborts the job (MPI_Abort, after printing what timed out) when a
// call outlives its deadline. No exception reaches the caller; the error is
// the message and mpiexec stopping every process.
#pragma once

namespace kumo {
namespace distributed {

// Arms the deadline for the blocking call made in this scope (none when
// timeout_seconds <= 0). `what` must outlive the scope (a literal).
class WatchdogScope {
 public:
  WatchdogScope(double timeout_seconds, const char* what, int rank, int size);
  ~WatchdogScope();
  WatchdogScope(const WatchdogScope&) = delete;
  WatchdogScope& operator=(const WatchdogScope&) = delete;

 private:
  bool armed_ = false;
};

}  // namespace distributed
}  // namespace kumo
