"""Snapshot writers (Chainer's ``extensions.snapshot_writers``): how a
snapshot's dictionary reaches its file. ``writer(filename, outdir, target)``."""
import os
import tempfile
import threading

from kumo.autograd.serializers import save_npz


def write_atomically(outdir, name, write):
    """Writes ``outdir/name`` through ``write(path)`` on a temporary file
    that replaces it at the end, so a reader never sees a partial file."""
    fd, tmp = tempfile.mkstemp(prefix="tmp" + os.path.basename(name), dir=outdir)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, os.path.join(outdir, name))
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


class Writer:
    """Base class: ``save`` writes through a temporary file, then runs the
    post-save hooks (snapshot's n_retains clean-up)."""

    def __init__(self):
        self._post_save_hooks = []

    def __call__(self, filename, outdir, target):
        raise NotImplementedError

    def finalize(self):
        """Waits for pending writes (nothing to wait for here)."""

    def save(self, filename, outdir, target, savefun, **kwds):
        write_atomically(outdir, filename, lambda path: savefun(path, target, **kwds))
        for hook in self._post_save_hooks:
            hook()

    def _add_cleanup_hook(self, hook):
        self._post_save_hooks.append(hook)


class SimpleWriter(Writer):
    """Writes in the calling thread with ``savefun`` (save_npz)."""

    def __init__(self, savefun=save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class ThreadWriter(Writer):
    """Writes in a background thread, so training goes on meanwhile; the
    previous write is waited for before the next one starts and at the end
    of training. The snapshot dictionary already holds host copies."""

    def __init__(self, savefun=save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds
        self._worker = None

    def __call__(self, filename, outdir, target):
        self.finalize()
        self._worker = threading.Thread(target=self.save,
                                        args=(filename, outdir, target, self._savefun), kwargs=self._kwds)
        self._worker.start()

    def finalize(self):
        if self._worker is not None:
            self._worker.join()
            self._worker = None
