"""create_multi_node_checkpointer: each process saves its own trainer state
(its shard's iterator position, its optimizer state, the model), and after a
restart every process resumes from the newest checkpoint all of them have."""

import os
import re

from kumo.autograd import serializers
from kumo.autograd.training import extension as extension_module


class MultiNodeCheckpointer(extension_module.Extension):
    """A trainer extension (trigger: every cp_interval epochs) writing
    ``<path>/<name>.iter<iteration>.rank<r>of<size>.npz`` and keeping the
    newest gc_interval files of each process."""

    priority = extension_module.PRIORITY_READER

    def __init__(self, name, comm, cp_interval=5, gc_interval=5, path=None):
        self.name = name
        self.comm = comm
        self.trigger = (cp_interval, "epoch")
        self.gc_interval = gc_interval
        self.path = path
        self._pattern = re.compile(r"^{}\.iter(\d+)\.rank{}of{}\.npz$".format(
            re.escape(name), comm.rank, comm.size))
        self.stats = {"saved": 0, "loaded": None}

    def _dir(self, trainer):
        return self.path if self.path is not None else trainer.out

    def _file(self, directory, iteration):
        return os.path.join(directory, "{}.iter{}.rank{}of{}.npz".format(self.name, iteration, self.comm.rank,
                                                                         self.comm.size))

    def _iterations(self, directory):
        if not os.path.isdir(directory):
            return []
        found = (self._pattern.match(f) for f in os.listdir(directory))
        return sorted(int(m.group(1)) for m in found if m)

    def __call__(self, trainer):
        directory = self._dir(trainer)
        os.makedirs(directory, exist_ok=True)
        iteration = trainer.updater.iteration
        target = self._file(directory, iteration)
        temporary = target + ".tmp.npz"
        serializers.save_npz(temporary, trainer)
        os.replace(temporary, target)  # a crash mid-write never leaves a truncated checkpoint
        self.stats["saved"] += 1
        for old in self._iterations(directory)[:-self.gc_interval]:
            os.remove(self._file(directory, old))

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Loads the newest checkpoint that every process has into `trainer`;
        returns its iteration, or None (nothing loaded) when there is none."""
        directory = path if path is not None else self._dir(trainer)
        common = None
        for its in self.comm.allgather_obj(self._iterations(directory)):
            common = set(its) if common is None else common & set(its)
        if not common:
            return None
        iteration = max(common)
        serializers.load_npz(self._file(directory, iteration), trainer)
        self.stats["loaded"] = iteration
        return iteration

    def get_stats(self):
        return dict(self.stats)


def create_multi_node_checkpointer(name, comm, cp_interval=5, gc_interval=5, path=None):
    """See MultiNodeCheckpointer. Typical use::

        checkpointer = create_multi_node_checkpointer(name='mnist', comm=comm)
        trainer.extend(checkpointer)
        checkpointer.maybe_load(trainer, optimizer)

    (extend first: the snapshot then restores the extensions' triggers too).
    """
    if cp_interval <= 0 or gc_interval <= 0:
        raise ValueError("cp_interval and gc_interval must be positive")
    return MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)
