// The process's MPI library: initialised on first use (thread level
// MPI_THREAD_MULTIPLE, so a gradient allreduce can run on a worker thread
// while the main thread computes), finalised once. When a communication timed
// out, finalising would wait for the dead peer forever, so the job is aborted
// instead (mpiexec then stops every process).
#pragma once

namespace kumo {
namespace distributed {

// Initialises MPI unless it is already (by kumo or another library, e.g.
// mpi4py). Thread safe.
void ensure_mpi_initialized();
// True when MPI runs at MPI_THREAD_MULTIPLE.
bool mpi_thread_multiple();
// Finalises MPI (when kumo initialised it and it is still running), or
// aborts the job with exit code 1 after a failed communication.
void finalize_mpi();
// Records that a communication failed (timed out); see finalize_mpi.
void mark_communication_failed();
bool communication_failed();

}  // namespace distributed
}  // namespace kumo
