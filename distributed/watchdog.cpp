#include "distributed/watchdog.h"

#include <mpi.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "distributed/mpi_environment.h"

namespace kumo {
namespace distributed {
namespace {

using Clock = std::chrono::steady_clock;

struct Armed {
  Clock::time_point deadline;
  double timeout;
  const char* what;
  int rank, size;
};

// One thread per process, started by the first armed call; it wakes every
// 50 ms (arming never signals it, so a call costs a lock, not a wake-up).
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog watchdog;
    return watchdog;
  }

  long long arm(const Armed& armed) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    armed_.emplace(next_, armed);
    return next_++;
  }

  void disarm(long long token) {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_.erase(token);
  }

  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, std::chrono::milliseconds(50));
      const auto now = Clock::now();
      for (const auto& [token, armed] : armed_) {
        if (armed.deadline > now) continue;
        std::fprintf(stderr,
                     "kumo.distributed: %s on rank %d of %d did not complete within %g s: a peer process is dead "
                     "or hung (KUMO_DISTRIBUTED_TIMEOUT sets the limit); aborting the job\n",
                     armed.what, armed.rank, armed.size, armed.timeout);
        std::fflush(stderr);
        mark_communication_failed();
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<long long, Armed> armed_;
  long long next_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

WatchdogScope::WatchdogScope(double timeout_seconds, const char* what, int rank, int size) {
  if (timeout_seconds <= 0) return;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_seconds));
  token_ = Watchdog::instance().arm(Armed{deadline, timeout_seconds, what, rank, size});
}

WatchdogScope::~WatchdogScope() {
  if (token_ >= 0) Watchdog::instance().disarm(token_);
}

}  // namespace distributed
}  // namespace kumo
