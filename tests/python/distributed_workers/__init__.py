"""Worker scripts the distributed tests run under mpiexec, and the launcher."""
