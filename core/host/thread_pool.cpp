#include "core/host/thread_pool.h"

#include "core/host/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kumo {
namespace {

// Waiting threads keep polling this long before blocking. Waking a blocked
// thread (a futex wake-up) costs tens of microseconds on a virtual machine,
// as much as a whole kernel of 10^5 elements, and kernels usually come
// close together: a worker that finished one is still awake when the next
// starts. 1 ms covers the Python code between two array operations (and
// NumPy's run between two of kumo's in an interleaved benchmark); 100 us
// did not. OpenMP runtimes poll for similar times. Polling yields the core
// each time, so that on a loaded machine (or with more threads than cores)
// the thread being waited for gets to run.
constexpr auto kPollTime = std::chrono::milliseconds(1);

// Polls until done() holds or kPollTime has passed; returns done().
template <class Done>
bool poll_until(Done done) {
  const auto deadline = std::chrono::steady_clock::now() + kPollTime;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

class ThreadPool {
 public:
  explicit ThreadPool(int n_workers) {
    for (int i = 0; i < n_workers; ++i) workers_.emplace_back([this] { work(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_.store(true);
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs chunk_fn(0..n_chunks-1) on the workers and the calling thread.
  // The caller claims chunks like any worker, so it never waits for a
  // worker that is still asleep: such a worker finds nothing left to claim.
  // It waits only for chunks another thread has claimed.
  void run(int64_t n_chunks, const std::function<void(int64_t)>& chunk_fn) {
    // One job at a time: kernels launched from several user threads queue here.
    std::lock_guard<std::mutex> job_lock(job_mu_);
    uint32_t gen;
    {
      std::lock_guard<std::mutex> lk(mu_);
      gen = ++generation_;
      job_ = &chunk_fn;
      n_chunks_ = n_chunks;
      finished_.store(0, std::memory_order_relaxed);
      error_ = nullptr;
      ticket_.store(uint64_t{gen} << 32, std::memory_order_release);
      published_.store(gen, std::memory_order_release);
    }
    cv_.notify_all();
    work_on(gen, &chunk_fn, n_chunks);
    auto all_finished = [&] { return finished_.load(std::memory_order_acquire) == n_chunks; };
    poll_until(all_finished);
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, all_finished);
    job_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // Claims and runs chunks of job `gen` until none is left or another job
  // has replaced it. A claim is a compare-and-swap on (job, next chunk), so
  // a thread that joined an older job can never take a chunk of a newer one.
  void work_on(uint32_t gen, const std::function<void(int64_t)>* fn, int64_t n_chunks) {
    uint64_t t = ticket_.load(std::memory_order_acquire);
    for (;;) {
      if (static_cast<uint32_t>(t >> 32) != gen) return;
      const int64_t c = static_cast<int64_t>(t & 0xffffffffu);
      if (c >= n_chunks) return;
      if (!ticket_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      try {
        (*fn)(c);
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu_);
        if (!error_) error_ = std::current_exception();
      }
      // The thread finishing the last chunk wakes run(); taking the mutex
      // orders the notify after run()'s check (no lost wake-up).
      if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_chunks) {
        std::lock_guard<std::mutex> lk(mu_);
        done_cv_.notify_one();
      }
    }
  }

  void work() {
    uint32_t seen = 0;
    for (;;) {
      auto woken = [&] {
        return stop_.load(std::memory_order_relaxed) || published_.load(std::memory_order_acquire) != seen;
      };
      poll_until(woken);
      const std::function<void(int64_t)>* fn;
      int64_t n_chunks;
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, woken);
        if (stop_) return;
        seen = generation_;
        fn = job_;
        n_chunks = n_chunks_;
      }
      // (A job that already finished has job_ null.) The job stays alive
      // while it has unfinished chunks, and work_on only runs claimed ones.
      if (fn) work_on(seen, fn, n_chunks);
    }
  }

  std::vector<std::thread> workers_;
  std::mutex job_mu_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  // Guarded by mu_:
  const std::function<void(int64_t)>* job_ = nullptr;
  int64_t n_chunks_ = 0;
  uint32_t generation_ = 0;
  std::exception_ptr error_;
  // Read without the mutex:
  std::atomic<uint64_t> ticket_{0};     // (generation << 32) | next unclaimed chunk
  std::atomic<int64_t> finished_{0};    // chunks of the current job done
  std::atomic<uint32_t> published_{0};  // generation_, for polling
  std::atomic<bool> stop_{false};
};

ThreadPool& pool() {
  // Leaked on purpose: joining threads from a static destructor during
  // process exit can deadlock with the dynamic loader.
  static ThreadPool* p = new ThreadPool(host_num_threads() - 1);
  return *p;
}

thread_local bool t_in_parallel = false;

}  // namespace

int host_num_threads() {
  static int n = [] {
    const char* env = std::getenv("KUMO_NUM_THREADS");
    if (env && std::atoi(env) > 0) return std::atoi(env);
    unsigned hc = std::thread::hardware_concurrency();
    return hc ? static_cast<int>(hc) : 1;
  }();
  return n;
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  int threads = host_num_threads();
  // Nested calls (a kernel launched from inside a chunk) run inline.
  if (n <= grain || threads <= 1 || t_in_parallel) {
    fn(0, n);
    return;
  }
  int64_t max_chunks = (n + grain - 1) / grain;
  int64_t n_chunks = std::min<int64_t>(max_chunks, threads);
  int64_t chunk = (n + n_chunks - 1) / n_chunks;
  std::function<void(int64_t)> chunk_fn = [&](int64_t c) {
    int64_t b = c * chunk, e = std::min(n, b + chunk);
    if (b >= e) return;
    bool prev = t_in_parallel;
    t_in_parallel = true;
    try {
      fn(b, e);
    } catch (...) {
      t_in_parallel = prev;
      throw;
    }
    t_in_parallel = prev;
  };
  pool().run(n_chunks, chunk_fn);
}

}  // namespace kumo
