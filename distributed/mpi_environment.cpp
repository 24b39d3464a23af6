#include "distributed/mpi_environment.h"

#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <mutex>

#include "core/errors.h"

namespace kumo {
namespace distributed {
namespace {

std::mutex init_mutex;
bool initialized_by_kumo = false;
int thread_level = MPI_THREAD_SINGLE;
std::atomic<bool> failed{false};

}  // namespace

void ensure_mpi_initialized() {
  std::lock_guard<std::mutex> lock(init_mutex);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized) throw RuntimeError("kumo.distributed: MPI was already finalized in this process");
  if (initialized) {
    MPI_Query_thread(&thread_level);
    return;
  }
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &thread_level) != MPI_SUCCESS)
    throw RuntimeError("kumo.distributed: MPI_Init_thread failed");
  initialized_by_kumo = true;
  // Errors come back as return codes (turned into exceptions), not aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

bool mpi_thread_multiple() { return thread_level >= MPI_THREAD_MULTIPLE; }

void mark_communication_failed() { failed = true; }
bool communication_failed() { return failed; }

void finalize_mpi() {
  std::lock_guard<std::mutex> lock(init_mutex);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return;
  if (failed) {
    std::fprintf(stderr, "kumo.distributed: a communication timed out; aborting the job (MPI_Abort)\n");
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return;
  }
  if (initialized_by_kumo) MPI_Finalize();
}

}  // namespace distributed
}  // namespace kumo
