"""snapshot / snapshot_object and the snapshot writers."""
import os

from kumo.autograd.serializers import load_npz, save_npz, serialize
from kumo.autograd.training._extension import Extension
from kumo.autograd.training.extensions.snapshot_writers import SimpleWriter


def _snapshot_files(fmt, outdir):
    """(mtime, name) of the files of ``outdir`` matching the filename
    template's fixed prefix and suffix, oldest first."""
    prefix = fmt.split("{")[0]
    suffix = fmt.split("}")[-1]
    names = [f for f in os.listdir(outdir) if f.startswith(prefix) and f.endswith(suffix)]
    return sorted((os.stat(os.path.join(outdir, f)).st_mtime, f) for f in names)


def _always_true():
    return True


class _Snapshot(Extension):
    trigger = (1, "epoch")
    priority = -100  # after every other extension of the iteration

    def __init__(self, target=None, condition=None, writer=None, filename="snapshot_iter_{.updater.iteration}",
                 snapshot_on_error=False, n_retains=-1, autoload=False):
        self._target = target
        self.filename = filename
        self.condition = condition or _always_true
        self.writer = writer or SimpleWriter()
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload

    def initialize(self, trainer):
        target = trainer if self._target is None else self._target
        outdir = trainer.out
        if self.autoload:
            files = _snapshot_files(self.filename, outdir)
            if files:
                load_npz(os.path.join(outdir, files[-1][1]), target)
        if hasattr(self.writer, "_add_cleanup_hook") and self.n_retains > 0 and isinstance(self.filename, str):
            def cleanup():
                files = _snapshot_files(self.filename, outdir)
                for _, name in files[:max(len(files) - self.n_retains, 0)]:
                    os.remove(os.path.join(outdir, name))

            self.writer._add_cleanup_hook(cleanup)

    def on_error(self, trainer, exc, tb):
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        filename = self.filename(trainer) if callable(self.filename) else self.filename.format(trainer)
        self.writer(filename, trainer.out, serialize(target))

    def finalize(self):
        if hasattr(self.writer, "finalize"):
            self.writer.finalize()


def snapshot(savefun=None, filename="snapshot_iter_{.updater.iteration}", *, target=None, condition=None,
             writer=None, snapshot_on_error=False, n_retains=-1, autoload=False):
    """An extension saving ``target`` (default: the trainer, i.e. the whole
    training state) to ``trainer.out/filename`` (``str.format``-ed with the
    trainer, or a callable of it) with ``savefun`` (save_npz). Resume with
    ``load_npz(path, trainer)`` before ``trainer.run()`` (or ``autoload``).
    ``n_retains`` > 0 keeps only that many newest files."""
    if savefun is not None and writer is not None:
        raise TypeError("savefun and writer arguments cannot be specified together.")
    if writer is None:
        writer = SimpleWriter(savefun=save_npz if savefun is None else savefun)
    return _Snapshot(target=target, condition=condition, writer=writer, filename=filename,
                     snapshot_on_error=snapshot_on_error, n_retains=n_retains, autoload=autoload)


def snapshot_object(target, filename, savefun=None, **kwargs):
    """snapshot of one object (e.g. the model) instead of the trainer."""
    return snapshot(savefun=savefun, filename=filename, target=target, **kwargs)
