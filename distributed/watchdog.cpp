#include "distributed/watchdog.h"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "distributed/mpi_environment.h"

namespace kumo {
namespace distributed {
namespace {

using Clock = std::chrono::steady_clock;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// One slot per thread that makes blocking calls. Arming a call is a few
// stores into the thread's own slot, with no lock and no allocation, so a
// 1 KiB allreduce (2 us) costs what mpi4py's does. The watchdog reads the
// slots; every field is atomic because it may read a slot while its thread
// re-arms it.
struct Slot {
  std::atomic<int64_t> deadline_ns{0};  // 0: not armed
  std::atomic<double> timeout{0};
  std::atomic<const char*> what{""};
  std::atomic<int> rank{0}, size{1};
  std::atomic<bool> owned{false};
  int depth = 0;  // nesting of scopes, touched by the owning thread only
};

// One thread per process, started with the first slot; it wakes every
// 50 ms (arming never signals it).
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog watchdog;
    return watchdog;
  }

  Slot* acquire_slot() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    for (const auto& slot : slots_)
      if (!slot->owned.load()) {
        slot->owned.store(true);
        return slot.get();
      }
    slots_.push_back(std::make_unique<Slot>());
    slots_.back()->owned.store(true);
    return slots_.back().get();
  }

  void release_slot(Slot* slot) {
    slot->deadline_ns.store(0);
    slot->owned.store(false);
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
      const int64_t now = now_ns();
      for (const auto& slot : slots_) {
        const int64_t deadline = slot->deadline_ns.load(std::memory_order_acquire);
        if (deadline == 0 || deadline > now) continue;
        std::fprintf(stderr,
                     "kumo.distributed: %s on rank %d of %d did not complete within %g s: a peer process is dead "
                     "or hung (KUMO_DISTRIBUTED_TIMEOUT sets the limit); aborting the job\n",
                     slot->what.load(), slot->rank.load(), slot->size.load(), slot->timeout.load());
        std::fflush(stderr);
        mark_communication_failed();
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
  }

  std::mutex mutex_;  // guards slots_ (the vector; the slots are atomic) and stop_
  std::condition_variable wake_;
  std::vector<std::unique_ptr<Slot>> slots_;
  bool stop_ = false;
  std::thread thread_;
};

// This thread's slot, handed back when the thread ends (the main thread's
// before the watchdog itself goes: thread-locals die before statics).
struct ThreadSlot {
  Slot* slot = nullptr;
  ThreadSlot() = default;
  ThreadSlot(const ThreadSlot&) = delete;
  ThreadSlot& operator=(const ThreadSlot&) = delete;
  ~ThreadSlot() {
    if (slot != nullptr) Watchdog::instance().release_slot(slot);
  }
};

thread_local ThreadSlot t_slot;

}  // namespace

WatchdogScope::WatchdogScope(double timeout_seconds, const char* what, int rank, int size) {
  if (timeout_seconds <= 0) return;
  if (t_slot.slot == nullptr) t_slot.slot = Watchdog::instance().acquire_slot();
  Slot* slot = t_slot.slot;
  armed_ = true;
  if (slot->depth++ > 0) return;  // an enclosing scope's deadline stands
  slot->timeout.store(timeout_seconds, std::memory_order_relaxed);
  slot->what.store(what, std::memory_order_relaxed);
  slot->rank.store(rank, std::memory_order_relaxed);
  slot->size.store(size, std::memory_order_relaxed);
  slot->deadline_ns.store(now_ns() + static_cast<int64_t>(timeout_seconds * 1e9), std::memory_order_release);
}

WatchdogScope::~WatchdogScope() {
  if (!armed_) return;
  Slot* slot = t_slot.slot;
  if (--slot->depth == 0) slot->deadline_ns.store(0, std::memory_order_release);
}

}  // namespace distributed
}  // namespace kumo
