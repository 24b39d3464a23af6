"""The C++ layer (kumo._distributed), imported on first use: `import kumo`
never needs MPI, and a build without MPI fails here with a clear reason."""

import atexit

_module = None


def native():
    global _module
    if _module is None:
        try:
            from kumo import _distributed
        except ImportError as e:
            raise ImportError(
                "kumo.distributed needs kumo's MPI layer (kumo._distributed), which this build lacks: "
                "install Open MPI (Debian: apt-get install openmpi-bin libopenmpi-dev) and rebuild kumo "
                "(scripts/setup.sh). Cause: {}".format(e)) from e
        _module = _distributed
        # Finalize MPI while the interpreter still runs (after a timed-out
        # communication this aborts the job instead of waiting for the dead peer).
        atexit.register(_distributed.finalize)
    return _module
