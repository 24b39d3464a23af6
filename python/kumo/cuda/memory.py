"""Memory pools (CuPy's names) and the out-of-memory error."""
from kumo import _core

OutOfMemoryError = _core.OutOfMemoryError
MemoryPool = _core.MemoryPool
